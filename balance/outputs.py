"""The files a long command writes once its work is done (`balance train-player --out` and
`--labels`, `balance tune-player --out`): held before the work, written after it, never lost.

Checked only at the end, an output could cost the whole work: `--out X --labels X` wrote the
labels to X and then refused the weights, and two commands to one `--out` both trained in
full before the second was refused. So before any work, every output is checked (a new file in
an existing folder, no two of them the same file) and claimed with a placeholder created
exclusively (balance/files.py, claim_new): a second command naming it is refused at
its start. The result replaces the placeholder whole. Should that fail (a full disk, the
placeholder deleted and another file put there meanwhile), the result goes to a new file
beside it, or else to the system's temporary folder, and the command names where: the caller
prints a text result as well. A command that stops before its result (refused, interrupted,
failed) removes the placeholders it still holds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from balance import files
from balance.errors import InputError, Problem


class Outputs:
    """A command's outputs by option (`{"--out": path, "--labels": None}`, None: not asked
    for). `claim()` holds them all before the work, `write(field, data)` writes one after it,
    and `release()` (in a `finally`) removes the placeholders of those never written. What
    could not be written where asked is in `problems`, each naming where it went instead."""

    def __init__(self, named: dict[str, Path | str | None]):
        self.paths = {field: Path(p) for field, p in named.items() if p is not None}
        self._held: dict[str, bytes] = {}
        self.problems: list[Problem] = []

    def claim(self) -> Outputs:
        """Check every output and hold it; InputError naming the first that cannot be, and
        none held."""
        self._check_distinct()
        try:
            for field, path in self.paths.items():
                self._held[field] = files.claim_new(path, field)
        except BaseException:
            self.release()
            raise
        return self

    def _check_distinct(self) -> None:
        seen: dict[tuple[Path, str], str] = {}
        for field, path in self.paths.items():
            key = (path.parent.resolve(), path.name)
            if key in seen:
                raise InputError([Problem(str(path), "", field, f"is also the file of "
                                          f"{seen[key]}: name a different file for each")])
            seen[key] = field

    def release(self) -> None:
        """Remove every placeholder still held: its result will not come."""
        for field, claim in list(self._held.items()):
            files.release_claim(self.paths[field], claim)
            del self._held[field]

    def write(self, field: str, data: bytes) -> Path | None:
        """`data` as the output `field`; where it went: its path, else a file beside it or in
        the temporary folder (a problem says so), else None (a problem says that too)."""
        path = self.paths[field]
        claim = self._held.pop(field)
        try:
            files.write_claimed(path, claim, data)
            return path
        except OSError as e:
            why = ("another file took its name while the command worked"
                   if isinstance(e, FileExistsError) else e.strerror or str(e))
            files.release_claim(path, claim)
        for folder in (path.parent, Path(tempfile.gettempdir())):
            try:
                saved = files.write_beside(folder / path.name, data)
            except OSError:
                continue
            self.problems.append(Problem(str(path), "", field, f"could not be written "
                                         f"({why}); the result is in {saved} instead"))
            return saved
        self.problems.append(Problem(str(path), "", field, f"could not be written ({why}), "
                                     "nor beside it, nor in the temporary folder"))
        return None
