"""How every game plays, side by side: `python -m reports.course.across EXPERIMENT...` plays
each experiment file in memory (nothing written but the table) and writes one Markdown table
of the course measures (summary.py), a row per game, setting and player count.

    python -m reports.course.across experiments/*/*course*.toml \\
        tests/games/NAME/course.toml --register tests.games.NAME.game:GAME \\
        --games 2000 --out balance/docs/guide/results/course-table.md

`--register MODULE:ATTRIBUTE` adds a game found nowhere else (a test's) before the files are
read. Bad input is one message and exit 2; the table is written whole or not at all."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import polars as pl

from balance import files
from balance.contract import registry
from balance.contract.game import Game, resolve
from balance.errors import InputError, Problem
from balance.running.experiment import check_game_count, load_experiment
from balance.running.runner import manifest_for, simulate_tables
from reports.course.section import cell
from reports.course.summary import BALANCE, IDEAL, Course, summarise
from reports.render import text
from reports.tables import frame

COLUMNS = (("lead_changes", "Lead changes"), ("comeback_quarter", "Behind at ¼, won"),
           ("comeback_half", "Behind at ½, won"),
           ("comeback_three_quarters", "Behind at ¾, won"), ("decided_at", "Decided at"),
           ("drama", "Drama"), ("leader_wins_half", "Leader at ½ wins"),
           ("settled_at", "Team: settled at"), ("behind_pace_wins", "Team: behind pace at ½, won"),
           (BALANCE, "Seats' largest gap"), ("completion", "Ended by the rules"),
           ("draws", "Draws"), (IDEAL, "Within ideal length"),
           ("branching", "Options a decision"), ("decisions", "Decisions a game"))
CURVE = (3, 5, 7)  # the tenths of the curve the table shows: the section draws them all


def rows_of(game: Game, played: str, c: Course) -> list[list[str]]:
    """A row a setting and player count: the game by its title, what was played in the
    experiment file's words (its description), and the setting's own words where the file
    plays more than one (a designer reads no file or experiment name here)."""
    out = []
    labels = c.rows.select("setting", "players").unique(maintain_order=True).rows()
    several = len({s for s, _ in labels}) > 1
    for setting, players in labels:
        one = c.rows.filter((pl.col("setting") == setting) & (pl.col("players") == players))
        got = {r["key"]: r for r in one.to_dicts()}
        curve = c.curve.filter((pl.col("setting") == setting) & (pl.col("players") == players))
        at = {r["tenth"]: r["value"] for r in curve.to_dicts()}
        out.append([game.title, f"{played}: {setting}" if several else played, str(players),
                    text.count(int(one["games"].max())),
                    *[cell(got.get(k)) for k, _ in COLUMNS],
                    " / ".join(text.DASH if at.get(t) is None else text.pct(at[t])
                               for t in CURVE)])
    return out


def table(rows: list[list[str]]) -> str:
    heads = ["Game", "Setting", "Players", "Games", *[h for _, h in COLUMNS],
             "Leader wins at 30% / 50% / 70%"]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def play(path: str, games: int | None, jobs: int) -> list[list[str]]:
    exp = load_experiment(path)
    if games is not None:
        check_game_count(games, len(exp.variants), exp.shard_size, "--games", "")
        exp = replace(exp, games=games)
    played = simulate_tables(exp, jobs)["games"]
    manifest = manifest_for(exp, exp.games)
    layout = frame.Layout.of_table(exp.game.games_table.columns, game=exp.game)
    one = frame.with_setting(frame.with_manifest_columns(played, manifest, layout), layout)
    c = summarise(one, exp.game, manifest)
    if c is None:
        raise InputError([Problem(path, "[experiment]", "game", f"{exp.game.name}'s games "
                                  "record no course (the games table's column course)")])
    return rows_of(exp.game, exp.description or exp.name, c)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m reports.course.across", description=__doc__
                                 .split("\n\n")[0])
    ap.add_argument("experiments", nargs="+", help="experiment files, one table row each "
                    "setting")
    ap.add_argument("--games", type=int, default=None, help="games per variant (default: each "
                    "file's)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--register", action="append", default=[], metavar="MODULE:ATTRIBUTE",
                    help="a Game to add before the files are read (a test's)")
    ap.add_argument("--out", default=None, help="the Markdown file to write (default: print)")
    a = ap.parse_args(argv)
    try:
        for ref in a.register:
            try:
                found = resolve(ref)
            except (ImportError, AttributeError, ValueError) as e:
                raise InputError([Problem("--register", "", "", f"{ref!r} names no game "
                                          f"({type(e).__name__})")]) from None
            if not isinstance(found, Game):
                raise InputError([Problem("--register", "", "", f"{ref!r} is no Game")])
            registry.register(found)
        rows = [r for path in a.experiments for r in play(path, a.games, a.jobs)]
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = table(rows)
    if a.out is None:
        print(out, end="")
    else:
        files.write_atomic(Path(a.out), out.encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
