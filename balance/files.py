"""The one way the toolkit touches files: every read and write of a designer's file or a run
folder goes through here.

Reading: a file is opened without blocking (a FIFO planted as a manifest would otherwise wait
for a writer for ever), checked to be a regular file, and refused above a stated size (a
manifest linked to /dev/zero would fill memory). Each refusal is one InputError naming the
file.

Writing: nothing is written through a symbolic link. A run folder handed over by someone else
may hold a `.lock`, `figures/` or `games/` that points outside it; following one would
truncate, overwrite or delete files the user never named. New files get a unique temporary
name created exclusively, are written whole, then renamed over the destination (a rename replaces
a link, never what it points to). A failed write leaves no temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from balance.errors import InputError, Problem

MiB = 2**20


def _fail(path: Path | str, message: str, field: str = "") -> InputError:
    return InputError([Problem(str(path), "", field, message)])


def _open_regular(path: Path | str, what: str, limit: int) -> tuple[int, int]:
    """(fd, size) of a regular file of at most `limit` bytes, opened read-only and without
    blocking; InputError otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise _fail(path, "file not found") from None
    except IsADirectoryError:
        raise _fail(path, f"is a directory, expected a {what}") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _fail(path, "is a symbolic link that loops") from None
        if e.errno == errno.ENXIO:  # a socket, or a FIFO with no writer opened for reading
            raise _fail(path, f"is not a regular file (a device, pipe or socket), expected a "
                        f"{what}") from None
        raise _fail(path, f"cannot be read ({e.strerror or e})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _fail(path, f"is a directory, expected a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise _fail(path, f"is not a regular file (a device, pipe or socket), expected a "
                        f"{what}")
        if st.st_size > limit:
            raise _fail(path, f"is {st.st_size:,} bytes, more than a {what} can be "
                        f"({limit:,})")
    except BaseException:
        os.close(fd)
        raise
    return fd, st.st_size


def open_file(path: Path | str, what: str, limit: int) -> BinaryIO:
    """A regular file of at most `limit` bytes opened for reading, for readers that read a
    part of it (a Parquet footer) from the very file that was checked; InputError naming the
    file otherwise."""
    fd, _ = _open_regular(path, what, limit)
    return os.fdopen(fd, "rb", closefd=True)


def read_bytes(path: Path | str, what: str, limit: int) -> bytes:
    """The whole of a regular file of at most `limit` bytes; InputError naming the file
    otherwise (missing, a folder, a device or pipe, too large, unreadable)."""
    fd, _ = _open_regular(path, what, limit)
    try:
        with os.fdopen(fd, "rb", closefd=True) as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        raise _fail(path, f"cannot be read ({e.strerror or e})") from None
    if len(data) > limit:  # it grew after the check
        raise _fail(path, f"is more than {limit:,} bytes, more than a {what} can be")
    return data


# -- writing ------------------------------------------------------------------------------

def is_link(path: Path | str) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def refuse_link(path: Path | str, field: str = "") -> None:
    """InputError if `path` is a symbolic link: the toolkit never writes through one."""
    if is_link(path):
        raise _fail(path, "is a symbolic link; the toolkit never writes, truncates or deletes "
                    "through a link (it could point outside the folder): remove the link",
                    field)


def check_dir(path: Path | str, field: str = "") -> Path:
    """safe_dir's checks without creating anything: for a command that must refuse a bad
    `--out` before it works, and create the folder only once it has something whole to
    write."""
    path = Path(path)
    for p in (path, *path.parents):
        if os.path.lexists(p):
            if not p.is_dir():
                raise _fail(p, "is a file, not a folder: name a folder", field)
            break
    return path


def safe_dir(path: Path | str, field: str = "") -> Path:
    """The folder a user named (`--out`), created with its parents if needed; InputError if
    it, or a parent, is a file. A link the user made to a folder is their own layout and is
    followed; the folders inside it that the toolkit owns go through owned_dir."""
    path = check_dir(path, field)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise _fail(path, "is a file, not a folder: name a folder", field) from None
    return path


def owned_dir(parent: Path | str, name: str) -> Path:
    """The folder `parent/name` that the toolkit writes and deletes in (games/, figures/),
    created if needed; InputError if it is a symbolic link or a file, since writing there
    would reach outside `parent`."""
    path = Path(parent) / name
    refuse_link(path)
    try:
        path.mkdir(exist_ok=True)
    except FileExistsError:
        raise _fail(path, "is a file, not a folder; the toolkit keeps its own files in it: "
                    "move it away") from None
    refuse_link(path)  # made a link between the check and mkdir
    return path


def write_temp(path: Path | str, data: bytes) -> Path:
    """`data` in a unique temporary file created exclusively beside `path`, synced, for the
    caller to rename over `path` (write_atomic) or to remove. The folder must exist
    (safe_dir). OSError (a full disk, a read-only folder, a file-size limit) propagates,
    naming `path`, and no temporary file is left."""
    path = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if isinstance(e, OSError):  # named by the file meant, not the temporary one
            e.filename = str(path)
        raise
    return Path(tmp)


def write_atomic(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` whole or not at all: write_temp, then renamed over it (a
    rename replaces a link at `path`, never what it points to). OSError propagates, naming
    `path`, and no temporary file is left."""
    tmp = write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def check_new(path: Path | str, field: str = "") -> Path:
    """write_new's checks, for a command to make before its work: InputError if `path`
    exists (a file, a folder, a device such as /dev/full, a link) or its folder does not."""
    path = Path(path)
    if os.path.lexists(path):
        held = (" (another command holds it for its result, and says which in it: delete it "
                "if that command is no longer working)" if _is_placeholder(path) else "")
        raise _fail(path, "already exists; name a new file (the toolkit never overwrites a "
                    f"file){held}", field)
    if not path.parent.is_dir():
        raise _fail(path, f"its folder {path.parent} does not exist; create it first, or "
                    "name a file in an existing folder", field)
    return path


def write_new(path: Path | str, data: bytes, field: str = "") -> None:
    """Write `data` to a file that must not exist yet (`--out FILE`, `--map`): the toolkit
    never overwrites a file a user named, nor writes into a device such as /dev/full. The
    whole file appears at once, and only if nothing took the name meanwhile: the temporary
    file is hard-linked to `path`, which fails if `path` exists. InputError as check_new;
    OSError (a full disk) propagates, naming `path`, and nothing is left behind."""
    path = check_new(path, field)
    tmp = write_temp(path, data)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise _fail(path, "already exists; name a new file (the toolkit never overwrites a "
                    "file)", field) from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.EOPNOTSUPP):
            raise
        check_new(path, field)  # a file system without hard links: check, then rename
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


# What claim_new's placeholder says, to whoever finds it; a random number makes each one its
# own, so that a file put in its place is never taken for it (an inode number is reused).
_HELD = b"balance: this name is held for the result of a command still working"


def _is_placeholder(path: Path) -> bool:
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False  # a device or a pipe is never read here
        with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW)) as fh:
            return fh.read(len(_HELD)) == _HELD
    except OSError:
        return False


def claim_new(path: Path | str, field: str = "") -> bytes:
    """Hold `path`, a new file, for a result to come: check_new, then a placeholder created
    exclusively (never through a link), so that no other command can take the name
    meanwhile. Returns the placeholder's text, for write_claimed and release_claim;
    InputError naming the file if it exists or cannot be created."""
    path = check_new(path, field)
    text = _HELD + f" (process {os.getpid()}, {secrets.randbits(64):016x}); if none is, delete " \
        "this file\n".encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o666)
    except FileExistsError:
        raise _fail(path, "already exists; name a new file (the toolkit never overwrites a "
                    "file)", field) from None
    except OSError as e:
        raise _fail(path, f"cannot be created ({e.strerror or e})", field) from None
    try:
        os.write(fd, text)
    except OSError as e:
        os.unlink(path)
        raise _fail(path, f"cannot be written ({e.strerror or e})", field) from None
    finally:
        os.close(fd)
    return text


def _holds(path: Path | str, claim: bytes) -> bool:
    """`path` is still the placeholder claim_new made."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size != len(claim):
            return False
        with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW)) as fh:
            return fh.read() == claim
    except OSError:
        return False


def release_claim(path: Path | str, claim: bytes) -> None:
    """Remove the placeholder of a result that will not come, if it is still the one
    claim_new made (never a file that took its place)."""
    if _holds(path, claim):
        with contextlib.suppress(OSError):
            os.unlink(path)


def write_claimed(path: Path | str, claim: bytes, data: bytes) -> None:
    """Write `data` whole over the placeholder claim_new made at `path` (write_temp, then a
    rename); where the placeholder is gone, to `path` only if nothing else took it.
    FileExistsError if another file is there; other OSErrors (a full disk) propagate. No
    temporary file is left."""
    tmp = write_temp(path, data)
    try:
        if _holds(path, claim):
            os.replace(tmp, path)
            return
        try:
            os.link(tmp, path)  # fails if the name is taken: never over another's file
        except OSError as e:
            if e.errno not in (errno.EPERM, errno.EOPNOTSUPP) or os.path.lexists(path):
                raise
            os.replace(tmp, path)  # a file system without hard links
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def write_beside(path: Path | str, data: bytes) -> Path:
    """`data` in a new file of a unique name beside `path` (NAME.saved-XXXX.SUFFIX), for a
    result that could not be written where it was asked for; its path. OSError propagates,
    and no partial file is left."""
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f"{path.stem}.saved-", suffix=path.suffix,
                                dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(name, 0o666 & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def is_temp_name(name: str) -> bool:
    """A temporary file of write_temp and write_atomic (or of the writers before them)."""
    return name.startswith(".") and ".tmp" in name


def open_lock(path: Path | str) -> int:
    """A file descriptor of the lock file `path`, created if needed, never truncated and
    never opened through a link."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _fail(path, "is a symbolic link; the toolkit never opens its lock file "
                        "through a link (it could truncate a file outside the run folder): "
                        "remove the link") from None
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
