"""Issue 25, items 1, 2, 4, 11, 14, 15 and 16: what the toolkit writes, and what stops it.

A report deletes only the figures it recorded as its own, and only once the new report is
whole; no write follows a link planted in a folder; a file a user names is never
overwritten; a full disk, a read-only folder, a file-size limit, too little memory and
SIGTERM are each one message and an exit status, with nothing half-written and no worker
process left behind. The refused-cleanly cases go through tests/fuzz.py's harness; the
others run the command in a subprocess where a limit or a signal is needed."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from balance.cli.guard import OutOfMemory, in_child
from balance.errors import InputError
from reports.page import build as report_build
from reports.page.build import FIGURE_LIST, FIGURES, PAGE, build_report, write_report
from tests.fuzz import (
    BASE,
    EXPERIMENT,
    Case,
    _exp,
    assert_refused_cleanly,
    copy_run,
    make_base_runs,
    snapshot,
)
from tests.report_data import synthetic_run

ROOT = Path(__file__).resolve().parents[1]
MiB = 2**20


def _report(out: str | None = None, prepare=None):
    """`balance report` of a copy of the base run (into `out`, TMP for the test folder),
    after prepare(tmp, run) has planted something."""
    def make(tmp):
        run = copy_run(tmp)
        if prepare:
            prepare(tmp, run)
        return ["report", str(run)] + ([] if out is None else
                                       ["--out", out.replace("TMP", str(tmp))])
    return make


def _victim(tmp: Path) -> Path:
    """A folder outside the run holding a picture that nothing may touch."""
    (tmp / "victim").mkdir(exist_ok=True)
    (tmp / "victim" / "keep.png").write_bytes(b"the user's own picture")
    return tmp / "victim"


def _figures_link(tmp, run):
    os.symlink(_victim(tmp), run / FIGURES)


def _figures_file(tmp, run):
    (run / FIGURES).write_text("not a folder")


def _list_fifo(tmp, run):
    (run / FIGURES).mkdir()
    os.mkfifo(run / FIGURES / FIGURE_LIST)


def _list_dev_zero(tmp, run):
    (run / FIGURES).mkdir()
    os.symlink("/dev/zero", run / FIGURES / FIGURE_LIST)


def _file(name: str, then: list[str]):
    """A plain file `name` in the test folder, then the command `then` (TMP: the folder)."""
    def make(tmp):
        (tmp / name).write_text("the user's file")
        return [a.replace("TMP", str(tmp)) for a in then]
    return make


def _dangling(name: str, then):
    """`name` is a link to a file that does not exist yet, then the command."""
    def make(tmp):
        os.symlink(tmp / "victim.bin", tmp / name)
        return then(tmp)
    return make


def _content(out: str):
    return lambda tmp: ["content", _exp(tmp, EXPERIMENT)[1], "--out",
                        out.replace("TMP", str(tmp))]


def _play(map_: str):
    return lambda tmp: ["play", "--players", "2", "--map", map_.replace("TMP", str(tmp))]


TUNE = ["tune-player", "--players", "1", "--games", "20", "--evaluations", "4", "--out"]

CASES: dict[str, Case] = {
    # -- item 15: --out that is not a folder ----------------------------------------------
    "report-out-dev-null": Case("report", _report("/dev/null"),
                                ("/dev/null", "'--out'", "is a file, not a folder")),
    "report-out-file": Case("report", _report("TMP/f", lambda tmp, run: (tmp / "f").write_text(
        "x")), ("f: field '--out'", "is a file, not a folder")),
    "report-out-below-file": Case("report", _report("TMP/f/sub", lambda tmp, run: (
        tmp / "f").write_text("x")), ("f: field '--out'", "is a file, not a folder")),
    "run-out-dev-null": Case("cli", lambda tmp: _exp(tmp, EXPERIMENT) + ["--out", "/dev/null"],
                             ("/dev/null", "'--out'", "is a file")),
    # -- item 2: links planted in the folder a report writes --------------------------------
    "report-figures-link": Case("report", _report(prepare=_figures_link),
                                ("figures", "symbolic link", "remove the link")),
    "report-figures-link-out": Case("report", _report("TMP/out", lambda tmp, run: (
        (tmp / "out").mkdir(), os.symlink(_victim(tmp), tmp / "out" / FIGURES))),
        ("out/figures", "symbolic link")),
    "report-figures-file": Case("report", _report(prepare=_figures_file),
                                ("figures", "is a file, not a folder")),
    "report-figure-list-fifo": Case("report", _report(prepare=_list_fifo),
                                    (FIGURE_LIST, "not a regular file")),
    "report-figure-list-dev-zero": Case("report", _report(prepare=_list_dev_zero),
                                        (FIGURE_LIST, "not a regular file")),
    # -- items 4 and 11: a file a command writes is a new file ------------------------------
    "play-map-dev-full": Case("cli", _play("/dev/full"),
                              ("/dev/full", "'--map'", "already exists")),
    "play-map-existing": Case("cli", _file("m.png", ["play", "--players", "2", "--map",
                                                     "TMP/m.png"]),
                              ("m.png: field '--map'", "already exists")),
    "play-map-folder": Case("cli", _play("TMP"), ("field '--map'", "already exists")),
    "play-map-dangling-link": Case("cli", _dangling("m.png", _play("TMP/m.png")),
                                   ("m.png: field '--map'", "already exists")),
    "play-map-missing-folder": Case("cli", _play("TMP/nowhere/m.png"),
                                    ("m.png: field '--map'", "nowhere does not exist")),
    "content-out-dev-full": Case("cli", _content("/dev/full"),
                                 ("/dev/full", "'--out'", "already exists")),
    "content-out-dangling-link": Case("cli", _dangling("out.toml", _content("TMP/out.toml")),
                                      ("out.toml: field '--out'", "already exists")),
    "content-out-missing-folder": Case("cli", _content("TMP/nowhere/out.toml"),
                                       ("out.toml: field '--out'", "does not exist")),
    "tune-player-out-existing": Case("cli", _file("k.toml", TUNE + ["TMP/k.toml"]),
                                     ("k.toml: field '--out'", "already exists")),
    "tune-player-out-folder": Case("cli", _file("x", TUNE + ["TMP"]),
                                   ("field '--out'", "already exists")),
    "tune-player-out-dev-full": Case("cli", lambda tmp: TUNE + ["/dev/full"],
                                     ("/dev/full", "'--out'", "already exists")),
    "tune-player-out-missing-folder": Case("cli", lambda tmp: TUNE + [
        str(tmp / "nowhere" / "k.toml")], ("k.toml: field '--out'", "does not exist")),
}


@pytest.fixture(scope="module", autouse=True)
def base_runs(tmp_path_factory):
    make_base_runs(tmp_path_factory.mktemp("fuzz-files-base"))


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_bad_input_is_refused_cleanly(case_id, tmp_path, cli):
    assert_refused_cleanly(CASES[case_id], tmp_path, cli)


# -- item 1: a report deletes only what it wrote, and only once the new one is whole -------

def _small_run():
    run = synthetic_run(games_per_variant=10, exhausted=False, fixed=False)
    run.rooms = None
    return run


def test_a_report_deletes_only_the_figures_an_earlier_report_recorded(tmp_path):
    figures = tmp_path / FIGURES
    figures.mkdir()
    (figures / "mine.png").write_bytes(b"the designer's own picture")
    (figures / "old-chart.png").write_bytes(b"a figure the earlier report drew")
    (figures / FIGURE_LIST).write_text("old-chart.png\n../outside.png\n")
    (tmp_path / "outside.png").write_bytes(b"named in an edited list, outside the folder")
    write_report(_small_run(), tmp_path)
    assert (figures / "mine.png").read_bytes() == b"the designer's own picture"
    assert (tmp_path / "outside.png").exists()
    assert not (figures / "old-chart.png").exists()
    drawn = sorted(p.name for p in figures.glob("*.png") if p.name != "mine.png")
    assert drawn and (figures / FIGURE_LIST).read_text().splitlines() == drawn


@pytest.mark.parametrize("bad", ["figures-file", "list-fifo", "list-folder"])
def test_a_bad_figures_folder_is_refused_before_any_figure_is_drawn(tmp_path, monkeypatch, bad):
    figures = tmp_path / FIGURES
    if bad == "figures-file":
        figures.write_bytes(b"a file where the figures go")
    else:
        figures.mkdir()
        if bad == "list-fifo":
            os.mkfifo(figures / FIGURE_LIST)
        else:
            (figures / FIGURE_LIST).mkdir()

    def drawn(*args):
        raise AssertionError("the report was built before its folder was checked")

    monkeypatch.setattr(report_build, "build_sections", drawn)
    with pytest.raises(InputError, match="is a file, not a folder|not a regular file|directory"):
        write_report(_small_run(), tmp_path)
    assert not (tmp_path / PAGE).exists()


def _cli_process(args: list[str], limits: dict | None = None, **kw) -> subprocess.Popen:
    """`balance ARGS` in a subprocess of this checkout, under resource limits."""
    def limit():
        for what, value in (limits or {}).items():
            resource.setrlimit(what, (value, value))
    # No bytecode written on import: a file-size limit would stop that, not the command.
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.Popen([sys.executable, "-c", "from balance.cli.app import app; app()",
                             *map(str, args)], cwd=ROOT, preexec_fn=limit, text=True,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def _one_error(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and len(stderr.strip().splitlines()) == 1, stderr
    return errors[0]


def test_a_report_that_cannot_be_written_leaves_the_earlier_one_whole(tmp_path, cli):
    """A file-size limit stops the writing half-way through the figures; the earlier report,
    its figures and the designer's own picture are as they were, and no temporary file is
    left (the old code deleted every figure first, then stopped with a traceback)."""
    out = tmp_path / "out"
    assert cli("report", BASE["run"], "--out", out).exit_code == 0
    (out / FIGURES / "mine.png").write_bytes(b"the designer's own picture")
    before = snapshot(out)
    sizes = sorted(p.stat().st_size for p in (out / FIGURES).glob("*.png"))
    limit = (sizes[0] + sizes[-1]) // 2  # some figures fit, others do not
    proc = _cli_process(["report", BASE["run"], "--out", out],
                        {resource.RLIMIT_FSIZE: limit})
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    line = _one_error(err)
    assert "File too large" in line and "ulimit -f" in line and str(out) in line
    assert snapshot(out) == before


def test_planted_temporary_links_are_never_written_through(tmp_path, cli):
    """The old writer wrote `report.html.tmp` and `figures/NAME.png.tmp` by name: a link
    planted there sent the report into any file the link named."""
    out = tmp_path / "out"
    (out / FIGURES).mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("not the report's")
    os.symlink(victim, out / f"{PAGE}.tmp")
    for name in ("crisis-curve-2nd-edition.png", "burn-deck-2nd-edition.png",
                 "rooms-crisis-2nd-edition.png"):
        os.symlink(victim, out / FIGURES / f"{name}.tmp")
    other = tmp_path / "other.html"
    other.write_text("a page that is not this report")
    os.symlink(other, out / PAGE)  # replaced by the page, never written through
    r = cli("report", BASE["run"], "--out", out)
    assert r.exit_code == 0, r.output
    assert victim.read_text() == "not the report's"
    assert other.read_text() == "a page that is not this report"
    assert (out / PAGE).stat().st_size > 1000 and not (out / PAGE).is_symlink()


def test_the_python_api_refuses_an_out_that_is_a_file(tmp_path):
    with pytest.raises(InputError, match="/dev/null: is a file, not a folder"):
        build_report(BASE["run"], "/dev/null")


# -- item 15: a full disk, a read-only folder, a file-size limit ---------------------------

@pytest.mark.parametrize("command", [
    lambda tmp: ["content", _exp(tmp, EXPERIMENT)[1], "--out", tmp / "new.toml"],
    lambda tmp: ["play", "--players", "2", "--map", tmp / "new.png"],
    lambda tmp: ["report", BASE["run"], "--out", tmp / "new"],
], ids=["content", "play-map", "report"])
def test_a_file_size_limit_is_one_message_and_nothing_half_written(tmp_path, command):
    argv = command(tmp_path)
    before = snapshot(tmp_path)
    proc = _cli_process(argv, {resource.RLIMIT_FSIZE: 1000})
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert "File too large: raise the file-size limit" in _one_error(err)
    after = snapshot(tmp_path)
    assert {p for p in after if p not in before and after[p] != "dir"} == set()


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KiB file system of its own (root only): a real full disk, then a read-only one."""
    disk = tmp_path / "disk"
    disk.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
                          capture_output=True)
    if made.returncode:
        pytest.skip("cannot mount a small file system here (needs root)")
    yield disk
    subprocess.run(["umount", str(disk)], check=True)


def test_a_full_disk_and_a_read_only_folder_are_one_message(small_disk, cli):
    (small_disk / "fill").write_bytes(b"x" * 200_000)  # the page alone needs more than is left
    r = cli("report", BASE["run"], "--out", small_disk / "report")
    assert r.exit_code == 2, r.output
    assert "No space left on device: free some space" in _one_error(r.stderr)
    # Nothing half-written: not even the empty folders the failed report made.
    assert sorted(p.name for p in small_disk.rglob("*")) == ["fill"]
    (small_disk / "fill").unlink()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    r = cli("report", BASE["run"], "--out", small_disk / "report")
    assert r.exit_code == 2, r.output
    assert "Read-only file system: write somewhere writable" in _one_error(r.stderr)


# -- item 14: out of memory after the games are saved --------------------------------------

def test_a_report_under_a_memory_limit_is_one_message(tmp_path):
    proc = _cli_process(["report", BASE["run"], "--out", tmp_path / "out"],
                        {resource.RLIMIT_AS: 500 * MiB})
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, err
    line = _one_error(err)
    assert "not enough memory to write the report" in line and "nothing was written" in line
    assert not (tmp_path / "out").exists()


def test_a_comparison_under_a_memory_limit_is_one_message(tmp_path):
    """The old code compared in the command's own process: under a limit it aborted
    (`terminate called without an active exception`, a C++ abort) or spun."""
    proc = _cli_process(["compare", BASE["run"]], {resource.RLIMIT_AS: 500 * MiB})
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, err
    assert "not enough memory to compare its variants" in _one_error(err)


LIMITED_SUMMARY = f"""
import resource, subprocess, sys
sys.path.insert(0, {str(ROOT)!r})

class Limited(subprocess.Popen):
    # Every process this command starts gets {500 * MiB} bytes of address space: the
    # games are played without a limit, the summary read back under one.
    def __init__(self, *args, **kw):
        kw["preexec_fn"] = lambda: resource.setrlimit(resource.RLIMIT_AS, ({500 * MiB},
                                                                          {500 * MiB}))
        super().__init__(*args, **kw)

subprocess.Popen = Limited
from balance.cli.app import app
app()
"""


def test_a_summary_out_of_memory_names_the_saved_games(tmp_path):
    """The old code read the games back in the process that played them: out of memory
    there it aborted (exit 134), or spun for ever in OpenBLAS's allocation loop."""
    argv = _exp(tmp_path, EXPERIMENT)
    proc = subprocess.run([sys.executable, "-c", LIMITED_SUMMARY, *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    run = tmp_path / "runs" / "fz"
    line = _one_error(proc.stderr)
    assert "not enough memory to read the games back for the summary" in line
    assert f"all 10 games are saved in {run}" in line and "balance report" in line
    assert len(list((run / "games").glob("*.parquet"))) == 2


def test_a_child_that_stops_working_is_stopped():
    """Short of address space, pyarrow can wait for ever on a thread it could not start."""
    start = time.monotonic()
    with pytest.raises(OutOfMemory, match="used no processor time for 2 s"):
        in_child("time:sleep", 120, stall_s=2)
    assert time.monotonic() - start < 30


def test_the_childs_errors_come_back_as_the_toolkits(tmp_path):
    with pytest.raises(InputError, match="no such run directory"):
        in_child("reports.page.build:build_report", tmp_path / "missing")
    assert in_child("os.path:basename", "/a/b.png") == "b.png"


def test_a_child_that_has_replied_is_not_undone_by_its_shutdown():
    """Before: the child's reply was whole, then Python's shutdown aborted the process (a
    library's thread still running: about one report in five of a damaged grid run), and
    the parent said "not enough memory" instead of the damaged shard. Here an exit handler
    aborts: the reply stands."""
    import os

    assert in_child("atexit:register", os.abort) is os.abort


# -- item 16: SIGTERM is Ctrl-C ------------------------------------------------------------

def test_sigterm_stops_a_run_as_ctrl_c_does_and_leaves_no_process(tmp_path):
    import psutil

    long = EXPERIMENT.replace("games = 10", "games = 400000").replace("shard_size = 5",
                                                                       "shard_size = 500")
    (tmp_path / "fz.toml").write_text(long)
    run = tmp_path / "runs" / "fz"
    proc = _cli_process(["run", tmp_path / "fz.toml", "--out", tmp_path / "runs",
                         "--jobs", "2"])
    deadline = time.monotonic() + 120
    while not list(run.glob("games/*.parquet")):  # playing, not starting
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    children = psutil.Process(proc.pid).children(recursive=True)
    assert len(children) >= 3  # two loky workers and the resource tracker(s)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert f"terminated (SIGTERM): every finished shard is saved in {run}" in err
    assert "Traceback" not in err and "Warning" not in err, err  # no unexplained warning
    deadline = time.monotonic() + 20
    while _alive(children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(children), [" ".join(p.cmdline()) for p in _alive(children)]


def _alive(procs) -> list:
    """The processes still running (a zombie waiting for init to reap it has ended)."""
    import psutil

    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out
