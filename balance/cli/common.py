"""What every command shares, the toolkit's and each game's (balance/cli/app.py adds a game's
commands through its `commands` hook): one message per problem and an exit status, never a
traceback."""

from __future__ import annotations

import errno
from pathlib import Path

import typer

from balance.cli import guard
from balance.cli.guard import OutOfMemory, Terminated, stop_workers
from balance.errors import InputError, Problem, Problems, twice


def fail(err: InputError) -> None:
    """One clear message per problem, no traceback, exit 2."""
    for p in err.problems:
        typer.echo(f"error: {p}", err=True)
    raise typer.Exit(2)


def played_line(report) -> str:
    """What a run (runner.RunReport) played, and what it reused of the games its folder
    already held: a designer who doubles a run sees that the first half was not replayed."""
    shards = f"{report.played} shard{'s' if report.played != 1 else ''}"
    speed = f"{report.seconds:.1f} s ({report.games_per_s:,.0f} games/s)"
    if report.played and report.reused:
        return (f"reused {report.reused:,} games already in {report.run_dir}, played "
                f"{report.games:,} more in {shards}, {speed}")
    if report.played:
        return f"played {report.games:,} games in {shards}, {speed}"
    return f"nothing to play: all {report.reused:,} games are already in {report.run_dir}"


# What to do about a file the system would not write, by the error's number.
OS_ADVICE = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space",
             errno.EROFS: "write somewhere writable (--out)",
             errno.EACCES: "write somewhere writable (--out)",
             errno.EPERM: "write somewhere writable (--out)",
             errno.EFBIG: "raise the file-size limit (ulimit -f)"}


def os_problem(e: OSError) -> InputError:
    """A file the system would not write or read, as one message naming it; nothing is
    half-written (every file is written whole to a temporary name, then renamed)."""
    advice = OS_ADVICE.get(e.errno, "fix this")
    return InputError([Problem(str(e.filename or "a file"), "", "",
                               f"{e.strerror or e}: {advice} and run the same command "
                               "again")])


def closing_headline(run_dir: Path, games: int) -> str:
    """The headline of a run whose games are saved, read back in a child process: out of
    memory there is one message that names the saved games, not an abort."""
    try:
        return guard.in_child("reports.headline:headline", run_dir)
    except OutOfMemory as e:
        raise InputError([Problem(str(run_dir), "", "", f"not enough memory to read the games "
                                  f"back for the summary ({e}); all {games:,} games are saved "
                                  f"in {run_dir}: write their report with `balance report "
                                  f"{run_dir}` where more memory is free")]) from None


def stopped(bar, e: KeyboardInterrupt, run_dir: Path) -> None:
    """Ctrl-C or SIGTERM during a run: no worker outlives it, and the message says what is
    kept. Exit 130 for Ctrl-C, 143 for SIGTERM (128 + the signal, as a shell reports it)."""
    bar.stop()
    stop_workers()
    how = "terminated (SIGTERM)" if isinstance(e, Terminated) else "interrupted"
    typer.echo(f"\n{how}: every finished shard is saved in {run_dir}; run the same command "
               "again to resume", err=True)
    raise typer.Exit(143 if isinstance(e, Terminated) else 130) from None


def counts_text(counts: tuple[int, ...]) -> str:
    """Player counts as runs: 1-7, or 2, 4, 6."""
    runs: list[list[int]] = []
    for n in sorted(counts):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def pairs(texts: list[str], source: str = "--set") -> dict[str, str]:
    """NAME=VALUE texts (`--set`) as a dict, the values as typed; one message per bad one."""
    probs = Problems(source)
    out: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            probs.add("", text, "expected NAME=VALUE")
            continue
        if key.strip() in out:
            probs.add("", key.strip(), twice(out[key.strip()], value.strip()))
            continue
        out[key.strip()] = value.strip()
    probs.raise_if_any()
    return out
