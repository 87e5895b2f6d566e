"""Issue 27: no import hides inside a function unless a comment says why it must be there (an
import inside a function once hid each of the cycles content -> limits -> engine.state ->
tables -> content and content <-> rules). The comment stands at the end of the import's line
or on the line just above it; one above a run of imports (no blank line between) serves the
run. A tool's directive (`# noqa`) is not a reason, nor a word or two."""

from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("balance", "heuristics", "reports")  # what pyproject.toml installs
NOT_INSTALLED = ("balance/docs",)
DIRECTIVES = ("noqa", "type:", "pragma", "fmt:", "isort:")
MIN_WORDS = 3


def _comments(text: str) -> dict[int, str]:
    """Line number -> the comment on that line, without its #."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string.lstrip("#").strip()
    return out


def _says_why(comment: str | None) -> bool:
    return bool(comment) and not comment.startswith(DIRECTIVES) \
        and len(comment.split()) >= MIN_WORDS


def unexplained(path: Path) -> list[tuple[int, str]]:
    """(line, import) of each import inside a function of the file with no reason given."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    comments = _comments(text)
    found = []
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            own = [comments.get(n) for n in range(node.lineno, node.end_lineno + 1)]
            above = node.lineno - 1
            # climb a run of imports to the comment above its first
            while above >= 1 and above not in comments and \
                    lines[above - 1].lstrip().startswith(("import ", "from ")):
                above -= 1
            if not any(_says_why(c) for c in (*own, comments.get(above))):
                found.append((node.lineno, lines[node.lineno - 1].strip()))
    return sorted(set(found))


def _sources():
    for package in PACKAGES:
        for p in sorted((ROOT / package).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if not rel.startswith(NOT_INSTALLED):
                yield rel, p


def test_every_import_inside_a_function_says_why():
    bad = {rel: unexplained(p) for rel, p in _sources()}
    bad = {rel: hits for rel, hits in bad.items() if hits}
    counts = Counter({rel: len(hits) for rel, hits in bad.items()})
    listing = "\n".join(f"{rel}:{line}: {code}" for rel, hits in sorted(bad.items())
                        for line, code in hits)
    summary = "\n".join(f"{n:4d} {rel}" for rel, n in sorted(counts.items()))
    assert not bad, (f"{sum(counts.values())} imports inside functions say not why they are "
                     f"there (move them to the top, or comment why):\n{summary}\n{listing}")


def test_the_check_finds_what_it_should(tmp_path):
    p = tmp_path / "m.py"
    p.write_text(
        "import os\n"
        "def a():\n"
        "    import json\n"                                      # 3: no reason
        "def b():\n"
        "    import json  # lazy: keeps the CLI's start fast\n"  # a reason on its line
        "def c():\n"
        "    # lazy: Numba loads only for commands that play\n"
        "    from x import y\n"
        "    from x import z\n"                                  # the run shares the comment
        "\n"
        "    import w  # noqa: F401\n"                           # 11: a directive is no reason
        "def d():\n"
        "    import v  # lazy\n"                                 # 13: too short to say why
        "    from q import (\n"                                  # 14: multi-line, no reason
        "        r,\n"
        "    )\n")
    assert [line for line, _ in unexplained(p)] == [3, 11, 13, 14]
