"""How a command meets what happens to its process: SIGTERM, and running out of memory.

SIGTERM (`kill PID`, a batch scheduler's stop) raises Terminated, a KeyboardInterrupt, so a
command stops as it does on Ctrl-C: temporary files removed, finished shards kept, loky's
workers shut down. (A file-size limit needs nothing here: Python ignores SIGXFSZ, so the
write fails with EFBIG, an OSError the command reports.)

Out of memory, polars aborts the whole process (a Rust allocation failure: SIGABRT, exit
134), and OpenBLAS, loading with too little memory for its threads' buffers, retries the
allocation for ever; neither can be caught in Python. So the work that reads a whole run
back after its games are saved (`balance run`'s closing summary, `balance report`) runs in
a fresh Python process (`in_child`), with OpenBLAS on one thread, and its death is turned
into one message (OutOfMemory) by the command, which knows what is saved; so is a child that
uses no processor time for a minute (pyarrow, short of address space, waits for ever on a
thread it could not start). That costs the
child's start, about 0.2 s over doing the work in the command's own process (README, The
report at scale).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from balance.contract import registry
from balance.errors import InputError


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: handled as Ctrl-C is, with exit status 143 (128 + SIGTERM, the
    status of a process the signal ended) so that a script can tell it from Ctrl-C's 130."""


class OutOfMemory(Exception):
    """The child process ran out of memory, or died as processes that do die (SIGABRT from
    an allocation failure, SIGKILL from the kernel's OOM killer); the text says which."""


def _terminate(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def signals():
    """SIGTERM raises Terminated while a command runs; the previous handler comes back after
    it (the command may run inside a test's process)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def stop_workers() -> None:
    """Shut down loky's worker pool and kill its workers, if this process started one: after
    an interrupt, none may outlive the command (they hold the pipes that keep loky's
    resource trackers alive too)."""
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    executor = getattr(loky, "_executor", None) if loky else None
    if executor is not None:
        with contextlib.suppress(Exception):
            executor.shutdown(wait=True, kill_workers=True)


# -- work in a child process --------------------------------------------------------------

ROOT = str(Path(__file__).resolve().parents[2])  # the child imports this same code
CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); from balance.cli.guard import child_main; "
         "child_main()")
STALL_S = 60.0  # a child that used no processor time this long is stuck, not working
# How a process that runs out of memory dies: polars' allocation failure aborts, and the
# kernel's out-of-memory killer sends SIGKILL.
DEATHS = {signal.SIGABRT: "SIGABRT, an allocation failure",
          signal.SIGKILL: "SIGKILL, most likely the kernel's out-of-memory killer"}


def in_child(ref: str, *args, stall_s: float = STALL_S):
    """`ref` ("module:function") called with args in a fresh Python process (this one
    need not import it): its result, or the InputError or OSError it raised; OutOfMemory if
    it ran out of memory, died by a signal, or used no processor time for `stall_s`
    seconds. Another failure there (a bug) is a RuntimeError carrying its traceback."""
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")  # see the module's docstring
    # The games registered in this process only (a test's) go with the request: the child
    # reads a run of them as this process would.
    request = pickle.dumps((ref, args, registry.added()))
    with subprocess.Popen([sys.executable, "-c", CHILD, ROOT], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        try:
            out, err = _communicate(proc, request, stall_s)
        except BaseException:
            _stop(proc)  # SIGTERM first: the child removes its temporary files
            raise
    return _reply(proc.returncode, out, err.decode("utf-8", errors="replace"))


def _communicate(proc: subprocess.Popen, request: bytes, stall_s: float):
    """proc.communicate(request), watching the child's processor time: short of memory,
    pyarrow can wait for ever on a thread it could not start, using none."""
    data, used, since = request, None, time.monotonic()
    while True:
        try:
            return proc.communicate(data, timeout=1.0)
        except subprocess.TimeoutExpired:
            data = None  # sent already
        now, last = time.monotonic(), used
        used = _cpu_ticks(proc.pid)
        if used is None or used != last:
            since = now
        elif now - since > stall_s:
            raise OutOfMemory(f"its process used no processor time for {stall_s:.0f} s, "
                              "waiting on a thread it most likely could not start for want "
                              "of memory, and was stopped")


def _cpu_ticks(pid: int) -> int | None:
    """The processor time a process has used, all its threads (None without /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])  # utime, stime


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _reply(code: int, out: bytes, err: str):
    if -code in DEATHS:
        raise OutOfMemory(f"its process was stopped by {DEATHS[-code]}" + _last_line(err))
    if -code in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        raise Terminated()  # stopped from outside, as the command would have been
    if code < 0:
        raise RuntimeError(f"the child process was stopped by {signal.Signals(-code).name}:"
                           f"\n{err}")
    try:
        kind, value = pickle.loads(out)
    except Exception:
        if _memory_text(err):
            raise OutOfMemory("it ran out of memory" + _last_line(err)) from None
        raise RuntimeError(f"the child process failed (exit status {code}):\n{err}") from None
    if kind == "ok":
        return value
    if kind == "input":
        raise InputError(value)
    if kind == "os":
        raise value
    raise OutOfMemory(value)


def _last_line(err: str) -> str:
    """The child's last line that speaks of memory (else its last line), to quote."""
    lines = [x.strip() for x in err.splitlines() if x.strip()]
    telling = [x for x in lines if _memory_text(x) or "memory" in x.lower()] or lines
    return f": {telling[-1][:200]}" if telling else ""


def child_main() -> None:
    """The child's side of in_child: the request on stdin, the pickled reply on stdout."""
    reply_to = sys.stdout.buffer
    sys.stdout = sys.stderr  # what the work prints is never taken for the reply
    ref, args, games = pickle.loads(sys.stdin.buffer.read())
    for game in games:
        registry.register(game)
    module, name = ref.split(":")
    with signals():
        try:
            _start_polars()
            reply = ("ok", getattr(importlib.import_module(module), name)(*args))
        except InputError as e:
            reply = ("input", e.problems)
        except OSError as e:
            reply = ("os", e)
        except MemoryError as e:
            reply = ("memory", f"it ran out of memory ({type(e).__name__}{': ' if str(e) else ''}"
                     f"{e})")
        except ImportError as e:  # a library that could not be mapped into memory
            if not _memory_text(str(e)):
                raise
            line = [x for x in str(e).splitlines() if _memory_text(x)][-1]
            name = line.rsplit("/", 1)[-1].rstrip(")").removeprefix("Original error was: ")
            reply = ("memory", f"it ran out of memory loading a library ({name})")
    pickle.dump(reply, reply_to)
    reply_to.flush()
    # The reply is whole: leave now. Python's shutdown can abort the process when a library's
    # thread is still running ("terminate called without an active exception", after a
    # damaged shard refused a report), and the parent would take that for a want of memory.
    sys.stderr.flush()
    os._exit(0)


def _start_polars() -> None:
    """Start polars' thread pool now: if the threads cannot be made for want of memory, the
    child says so, instead of a failed read being taken for a damaged file."""
    try:
        # lazy: only the child process that reads a run starts polars
        import polars as pl

        pl.thread_pool_size()
    except BaseException as e:
        if type(e).__name__ != "PanicException":  # pyo3's, not an Exception
            raise
        raise MemoryError(f"polars could not start its threads: {e}") from None


def _memory_text(text: str) -> bool:
    """Whether an error's text is the loader's or an allocator's for want of memory."""
    text = text.lower()
    return any(s in text for s in ("cannot allocate memory", "failed to map segment",
                                   "memory allocation", "memoryerror"))
