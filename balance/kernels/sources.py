"""The source files compiled code is built from, and their hash.

Numba checks only a function's own file before it loads the function from its cache, yet a
kernel pastes in the kernels it calls, from other files, and bakes in as constants the numbers
it reads from other modules (a game's opcodes and codes, defined beside its engine). So what
compiled code depends on is its module and every module that module imports, and theirs, to
the end: the import closure. The imports are read from each file with `ast`, never by
importing it, since jit.py asks before Numba is configured.

The imports that count are those that run when the module is imported (at its top, or in a
block or class body there, `if TYPE_CHECKING:` too): compiled code can only call or read the
names its module holds when it is compiled. An import inside a function binds a name in that
function only, when Python runs it: no kernel sees it (and following them would tie every
kernel to the runner, through `balance.simulate`). `import a.b.c` counts the packages a and
a.b too (their `__init__` runs). A file too many costs a recompile, a file too few would run
stale code. Modules outside the project (numpy, Numba itself) are not followed: Numba's cache
index checks its own version.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the folder holding balance/, heuristics/, tests/


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """The source file of module `name` under `root`, or None (not a module of the project:
    an outside package, or a name imported from a module)."""
    base = root.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def module_name(path: Path, root: Path = ROOT) -> str | None:
    """The dotted name of a source file under `root` (None for a file outside it)."""
    try:
        rel = Path(path).resolve().relative_to(root.resolve())
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or None


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _module_level(node: ast.AST):
    """The statements of a module that run when it is imported: not those inside functions."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield child
            yield from _module_level(child)


def _imported(name: str, package: bool, text: bytes) -> frozenset[str]:
    out: set[str] = set()
    for node in _module_level(ast.parse(text)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                out.update(_parents(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package, then up
                pkg = name if package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    pkg = pkg.rpartition(".")[0]
                base = ".".join(p for p in (pkg, node.module) if p)
            else:
                base = node.module or ""
            if not base:
                continue
            out.update(_parents(base))
            # `from x import y` imports module x.y when y is one
            out.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return frozenset(out)


def closure(modules: Iterable[str], root: Path = ROOT) -> tuple[Path, ...]:
    """The source files of `modules` and of every module of the project they import, to the
    end, sorted. A named module without a source file under `root` is an error (a typo in a
    game's kernel_modules would otherwise hash nothing)."""
    todo = list(modules)
    for m in todo:
        if module_path(m, root) is None:
            raise ValueError(f"no source file for module {m!r} under {root}")
    found: dict[str, Path] = {}
    while todo:
        m = todo.pop()
        if m not in found:
            found[m] = path = module_path(m, root)
            todo.extend(_edges(m, path, root) - found.keys())
    return tuple(sorted(found.values()))


_EDGES: dict[tuple[str, Path, bytes], frozenset[str]] = {}


def _edges(name: str, path: Path, root: Path) -> frozenset[str]:
    """The modules of the project that module `name` imports (read once per content)."""
    key = (name, root, file_digest(path))
    if key not in _EDGES:
        text = path.read_bytes()
        _EDGES[key] = frozenset(m for m in _imported(name, path.name == "__init__.py", text)
                                if module_path(m, root) is not None)
    return _EDGES[key]


_DIGESTS: dict[tuple[Path, int, int], bytes] = {}


def file_digest(path: Path) -> bytes:
    """The sha256 of a file, read again only when its size or modification time changed (a
    process asks for each kernel module's closure, and the closures overlap)."""
    st = path.stat()
    key = (path, st.st_mtime_ns, st.st_size)
    if key not in _DIGESTS:
        _DIGESTS[key] = hashlib.sha256(path.read_bytes()).digest()
    return _DIGESTS[key]


def file_hashes(files: Iterable[Path], root: Path = ROOT) -> dict[str, str]:
    """Each file (its path under `root`, with /) -> the first 16 hex digits of its sha256."""
    return {p.relative_to(root).as_posix(): file_digest(p).hex()[:16] for p in sorted(files)}


def digest(files: Iterable[Path], root: Path = ROOT, salt: str = "") -> str:
    """One hash (16 hex digits) of the files' paths under `root` and their contents: the
    same sources in another checkout hash the same."""
    h = hashlib.sha256(salt.encode())
    for p in sorted(files):
        h.update(b"\0" + p.relative_to(root).as_posix().encode() + b"\0")
        h.update(file_digest(p))
    return h.hexdigest()[:16]
