"""The guide and the README: what they name exists, and what they say is current.

Fast and offline: the pages are read as text, the commands from the typer app, Python names
from the sources' syntax trees (nothing is imported but the CLI). Only the last test needs
mkdocs, and it is skipped without it.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "balance" / "docs"
GUIDE = DOCS / "guide"
README = ROOT / "README.md"
PAGES = [README, *sorted(GUIDE.rglob("*.md"))]
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+-]*)")


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


# --- reading Markdown --------------------------------------------------------------------


def split_fences(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(the text outside fenced blocks, with each block blanked out; [(info, body)])."""
    prose, blocks, body, fence, info = [], [], [], None, ""
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence, info, body = m.group(1), m.group(2), []
            prose.append("")
        elif fence is not None and line.strip().startswith(fence) and not line.strip()[
                len(fence):].strip():
            blocks.append((info, "\n".join(body)))
            fence = None
            prose.append("")
        elif fence is not None:
            body.append(line)
            prose.append("")
        else:
            prose.append(line)
    return "\n".join(prose), blocks


def inline_code(prose: str) -> list[str]:
    """Every inline code span, with line breaks inside it read as spaces."""
    return [" ".join(m.group(2).split()) for m in re.finditer(r"(`+)(.+?)\1", prose, re.S)]


def code_lines(info: str, body: str) -> list[str]:
    """A fenced block's lines, backslash continuations joined. Blocks marked `text` quote
    what a command printed, and are not read."""
    if info == "text":
        return []
    return body.replace("\\\n", " ").split("\n")


# --- commands and options ----------------------------------------------------------------


def cli_tree() -> dict[str, set[str]]:
    """Each `balance` command's options, from the click command typer builds."""
    from balance.docs.gen_cli import commands, options

    return {name: options(cmd) | {"--help"} for name, cmd in commands().items()}


def _tokens(span: str) -> list[str]:
    try:
        return shlex.split(span, comments=False, posix=True)
    except ValueError:  # an unbalanced quote in prose
        return span.split()


def _is_balance(tok: str) -> bool:
    return tok == "balance" or tok.endswith("/bin/balance")


def named_commands(span: str):
    """(command or None, [options]) for each `balance` invocation in a span or line, and
    (None, options) for options shown on their own. Spans that run another program
    (`make docs`, `dask scheduler --host ...`) name no balance option."""
    toks = _tokens(span)
    found, cmd, opts, ours = [], None, [], False
    lead = next((t for t in toks if not re.match(r"^[A-Z_]+=", t)), "")
    if lead.startswith("--"):
        ours = True  # `--games N`: an option of some command
    for i, t in enumerate(toks):
        if _is_balance(t):
            if ours:
                found.append((cmd, opts))
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            cmd = nxt if re.fullmatch(r"[a-z][a-z-]*", nxt) else None
            opts, ours = [], True
        elif ours:
            m = re.match(r"--[a-z][a-z0-9-]*", t)
            if m:
                opts.append(m.group(0))
    if ours:
        found.append((cmd, opts))
    return found


def test_every_command_and_option_named_exists():
    tree = cli_tree()
    every = set().union(*tree.values())
    bad = []
    for page in PAGES:
        prose, blocks = split_fences(page.read_text(encoding="utf-8"))
        spans = inline_code(prose) + [ln for info, body in blocks for ln in code_lines(info, body)]
        for span in spans:
            for cmd, opts in named_commands(span):
                if cmd is not None and cmd not in tree:
                    bad.append(f"{_rel(page)}: `balance {cmd}` is not a command ({span!r})")
                    continue
                allowed = tree[cmd] if cmd is not None else every
                bad += [f"{_rel(page)}: {o} is not an option of "
                        f"{'balance ' + cmd if cmd else 'any command'} ({span!r})"
                        for o in opts if o not in allowed]
    assert not bad, "\n".join(bad)


def test_the_option_check_reads_commands_as_meant():
    """The reader the test above relies on: commands, options, other programs, placeholders."""
    assert named_commands("balance run door-costs --games 10 --jobs 2") == [
        ("run", ["--games", "--jobs"])]
    assert named_commands(".venv/bin/balance compare runs/x  # --baseline 2; --json") == [
        ("compare", ["--baseline", "--json"])]
    assert named_commands("--precision P") == [(None, ["--precision"])]
    assert named_commands("dask scheduler --host 10.0.0.5 --port 8786") == []
    assert named_commands("NUMBA_NUM_THREADS=1 .venv/bin/dask worker --nworkers 2") == []
    assert named_commands("balance COMMAND --help") == [(None, ["--help"])]
    assert named_commands("balance play --seed 7; balance run x --out y") == [
        ("play", ["--seed"]), ("run", ["--out"])]
    _, blocks = split_fences("```text\nbalance run x --nope\n```\n```sh\nbalance run x\n```")
    assert [code_lines(i, b) for i, b in blocks] == [[], ["balance run x"]]


# --- the generated CLI reference ---------------------------------------------------------


def test_cli_reference_is_current():
    from balance.docs import gen_cli

    page = gen_cli.PAGE.read_text(encoding="utf-8")
    assert page == gen_cli.render(), (
        "balance/docs/guide/reference/cli.md is stale: run "
        "`.venv/bin/python -m balance.docs.gen_cli` and commit the page")


def test_cli_reference_lists_every_command_and_option():
    from balance.docs.gen_cli import commands, options

    page = (GUIDE / "reference" / "cli.md").read_text(encoding="utf-8")
    cmds = commands()
    for name, cmd in cmds.items():
        assert f"## balance {name}\n" in page
        # A game's group: each command in its own section, the first game's at the top (as
        # `balance COMMAND`, a copy of the group's: the same callback).
        each = {(sub if getattr(cmds.get(sub), "callback", None) is c.callback
                 else f"{name} {sub}"): c
                for sub, c in cmd.commands.items()} if hasattr(cmd, "commands") else {name: cmd}
        for full, c in each.items():
            assert f"## balance {full}\n" in page, full
            section = page.split(f"## balance {full}\n", 1)[1].split("\n## ", 1)[0]
            assert all(f"`{o}`" in section for o in options(c)), full


# --- links -------------------------------------------------------------------------------


def slug_site(heading: str) -> str:
    """The anchor mkdocs gives a heading (Python-Markdown's toc slugify)."""
    s = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    s = re.sub(r"[^\w\s-]", "", s).strip().lower()
    return re.sub(r"[-\s]+", "-", s)


def slug_host(heading: str) -> str:
    """The anchor the repository host gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors a page's headings have both on the repository host and in the site."""
    prose, _ = split_fences(page.read_text(encoding="utf-8"))
    out = set()
    for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", prose, re.M):
        text = re.sub(r"`([^`]*)`", r"\1", m.group(1))
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("*", "")
        if slug_site(text) == slug_host(text):
            out.add(slug_site(text))
    return out


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def links(page: Path) -> list[str]:
    prose, _ = split_fences(page.read_text(encoding="utf-8"))
    prose = re.sub(r"(`+).+?\1", "", prose, flags=re.S)
    return [m.group(1) for m in LINK.finditer(prose)]


def test_every_relative_link_resolves():
    bad = []
    for page in PAGES:
        for target in links(page):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                bad.append(f"{_rel(page)}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(f"{_rel(page)}: {target}: no heading with that anchor")
            elif path and not dest.is_relative_to(ROOT):
                bad.append(f"{_rel(page)}: {target}: outside the repository")
            elif page != README and path and not dest.is_relative_to(GUIDE):
                bad.append(f"{_rel(page)}: {target}: the site holds only the guide; name "
                           "files outside it by their path in code")
    assert not bad, "\n".join(bad)


def test_every_page_is_in_the_site_navigation():
    config = (DOCS / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"([\w/-]+\.md)\s*$", config.split("\nnav:", 1)[1], re.M))
    pages = {str(p.relative_to(GUIDE)) for p in GUIDE.rglob("*.md")}
    assert pages == nav, (f"not in the nav: {sorted(pages - nav)}; "
                          f"in the nav but missing: {sorted(nav - pages)}")


# --- Python names ------------------------------------------------------------------------

PACKAGES = ("balance", "reports", "heuristics", "tests")


def _module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.exists():
            return p
    return None


def _defines(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _has(module: str, name: str) -> bool:
    f = _module_file(module)
    return f is not None and (name in _defines(f) or _module_file(f"{module}.{name}") is not None)


def python_names(page: Path) -> list[tuple[str, str]]:
    """(module, name) for each name a Python example imports from the project or calls on a
    project module it imported, and for each dotted name in inline code (`balance.x.y`)."""
    prose, blocks = split_fences(page.read_text(encoding="utf-8"))
    out = []
    for info, body in blocks:
        if info != "python":
            continue
        tree = ast.parse(body)
        modules = {}  # local name -> dotted module, for project modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module.split(".")[0] in PACKAGES:
                for a in node.names:
                    out.append((node.module, a.name))
                    if _module_file(f"{node.module}.{a.name}"):
                        modules[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in PACKAGES:
                        modules[a.asname or a.name] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in modules):
                out.append((modules[node.value.id], node.attr))
    for span in inline_code(prose):
        for dotted in re.findall(r"\b(?:balance|reports|heuristics)(?:\.[A-Za-z_]\w*)+", span):
            parts = dotted.split(".")
            for k in range(len(parts) - 1, 0, -1):  # the longest prefix that is a module
                if _module_file(".".join(parts[:k])):
                    if k == len(parts) - 1 or _module_file(".".join(parts[:k + 1])):
                        out.append((".".join(parts[:k]), parts[k]))
                    break
    return out


def test_every_python_name_shown_exists():
    bad = [f"{_rel(page)}: {module}.{name} does not exist"
           for page in PAGES for module, name in python_names(page) if not _has(module, name)]
    assert not bad, "\n".join(bad)


# --- the README --------------------------------------------------------------------------


def test_readme_is_a_first_page_with_the_ci_command():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300, "README.md is a newcomer's first page: move the rest " \
                                         "into the guide (balance/docs/guide/)"
    ci = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines()
          if ln.strip() and not ln.strip().startswith(("#", "set ", "cd ", "export "))]
    assert ci and any(ln in text for ln in ci), ".ci/run's command must appear in the README"
    assert "make          # the main job" in text and "make test     # the test suite" in text


# --- stale text --------------------------------------------------------------------------


def test_validate_says_skills_are_played():
    """`balance validate gemrush-2e` once said the box's skills were "not yet played by the
    engine" long after they were (issue 26 item 5)."""
    from balance.games.gemrush.content import load_content
    from balance.games.gemrush.summary import content_summary, format_summary

    text = format_summary(content_summary(load_content("gemrush-2e")))
    line = next(x for x in text.splitlines() if x.strip().startswith("skills"))
    assert "not yet" not in line
    assert "20" in line and "`skills` field" in line


# --- the site ----------------------------------------------------------------------------


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                        "-f", str(DOCS / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                       capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert r.returncode == 0, r.stdout + r.stderr
