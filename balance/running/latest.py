"""The main job's stable path: `runs/main/latest`, a symbolic link to the folder of the code
that last finished the main job (`runs/main/<code hash>/`), so that a designer can name
`runs/main/latest/<run>` without looking the hash up.

The hashed folders stay: they are the runs' identity (a run's games are only ever resumed or
compared by the code that played them), and the link only names one of them. It is relative
(the folder's name), so the tree can be moved or copied whole. The toolkit reads through it
and never writes through it: the main job writes into the hashed folder, then points the link
at it, by renaming a new link over the old one, so a reader never finds it missing or half
made. A `latest` that is not a link (a folder or file of the designer's) is left alone and
refused.

    python -m balance.running.latest runs/main <code hash>       (the Makefile's last step)
"""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

from balance.errors import InputError, Problem

LATEST = "latest"


def point_latest(parent: str | Path, name: str) -> Path:
    """Point `parent/latest` at `parent/name` (a folder); return the link's path."""
    parent = Path(parent)
    folder = parent / name
    link = parent / LATEST
    if not name or Path(name).name != name or name in (".", "..", LATEST):
        raise InputError([Problem(str(folder), "", "", "must be a folder's name inside "
                                  f"{parent}, not a path")])
    if folder.is_symlink() or not folder.is_dir():
        raise InputError([Problem(str(folder), "", "", "is not a folder of runs: "
                                  "nothing to point runs/main/latest at")])
    if os.path.lexists(link) and not link.is_symlink():
        raise InputError([Problem(str(link), "", "", "is not a symbolic link (a folder or file "
                                  "of yours?): the main job leaves it alone; move it away to "
                                  "get a stable path to the latest main job")])
    tmp = parent / f".{LATEST}.{uuid.uuid4().hex}.tmp"
    os.symlink(name, tmp, target_is_directory=True)
    try:
        os.replace(tmp, link)  # a rename: the old link is replaced whole, never followed
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return link


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m balance.running.latest PARENT NAME", file=sys.stderr)
        return 2
    try:
        link = point_latest(argv[0], argv[1])
    except InputError as e:
        for p in e.problems:
            print(f"error: {p}", file=sys.stderr)
        return 2
    print(f"{link} -> {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
