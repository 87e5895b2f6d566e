"""What `balance run` prints when it has played: the answer to the experiment's question in a
short table, read back from the run folder (only the columns it needs).

- One variant: the game's own lines where its report has them (reports/page/game_report.py,
  GameReport.variant_lines); otherwise, when a seat wins, each seat's share of the wins with
  its interval, whether it is off its fair share beyond chance (reports/outcomes/outcomes.py: the
  exact binomial test, Holm over every seat the headline prints), ties, and the length; when the
  team wins, its win rate and score. Which of the two is the game's declaration
  (Game.competitive), never its games.

Every share is of the decided games: a game that stopped without a result (one of the game's
undecided_ends, a turn cap) is counted and shown on a line of its own, never folded into the
losses (balance/stats/measures.py). A variant whose games all stopped undecided says so.
- Several variants: the comparison with the baseline, in its short form
  (reports/compare_text.short_table), and where a seat wins, the seats off their fair share.

The headline rates `balance run --precision` makes precise are balance/stats/measures.py's.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import polars as pl

from balance.stats.intervals import wilson
from balance.stats.measures import game_of, undecided_of
from balance.stats.paired import MIN_PAIRS
from reports.compare import compare, compare_text
from reports.outcomes import outcomes
from reports.page import game_report
from reports.render import text
from reports.tables import variants


def headline(run_dir: str | Path) -> str:
    """The headline of a run folder (InputError if it cannot be read)."""
    from balance.running.store.manifest import read_manifest  # lazy: the runner's reader

    manifest = read_manifest(run_dir)
    report = game_report.of_manifest(manifest)
    own = report.headline(run_dir, manifest)
    if own is not None:
        return own
    # Read once: the comparison and every variant's lines read the same games (a second read
    # was a third of a headline's time on a run of many shards).
    games, manifest, missing = compare.load(run_dir)
    if len(manifest["variants"]) > 1:
        cmp = compare.compare(games, manifest, None, str(run_dir),
                              notes=compare.unfinished(missing))
        if cmp.differences.height:
            out = compare_text.short_table(cmp, str(run_dir))
            if any(report.game.competitive(i) for i in manifest["variants"]):
                out += "\n\n" + "\n".join(_fairness_block(games, manifest, report.game))
            out += "".join("\n\n" + "\n".join(textwrap.wrap(x, 100))
                           for x in report.comparison_lines(cmp))
            return out
        # Only settings were swept (the player count): each variant's own headline.
    if games.height == 0:
        return "No games played yet."
    labels = variants.words(manifest, report.game)
    out = []
    game = report.game
    seats = _seat_tests(games, manifest, game)
    for info in manifest["variants"]:
        v = int(info["variant"])
        mine = games.filter(pl.col("variant") == v)
        if len(manifest["variants"]) > 1:
            out.append(f"{labels[v]}:")
        if mine.height == 0:
            out.append("  no games played yet")
            continue
        own = report.variant_lines(mine, info, seats.get(v))
        if own is not None:
            out += own
        elif game.competitive(info):
            out += seat_lines(mine, int(info["players"]), seats.get(v), game.length_unit,
                              undecided_ends=game.undecided_ends, automa=game.automa,
                              game=game)
        else:
            out += team_lines(mine, game.length_unit, game.undecided_ends, game)
    if seats:
        out += _fairness_note(seats)
    return "\n".join(out)


def undecided_text(k: int, n: int, ends: tuple[str, ...], game=None) -> str:
    """"12 of 200 games stopped undecided (turn cap reached)": the end reasons in `game`'s
    words (Game.end_word), else their names with underscores as spaces."""
    said = [game.end_word(e) if game is not None else e.replace("_", " ") for e in ends]
    return f"{k:,} of {n:,} games stopped undecided ({', '.join(said)})"


def _seat_counts(games: pl.DataFrame, players: int) -> tuple[list[int], int]:
    """(each seat's wins, the games one seat won) of one variant's decided games, seat 1
    first."""
    winner = games["winner"].fill_null(-1).to_numpy()
    wins = [int(np.count_nonzero(winner == seat)) for seat in range(1, players + 1)]
    return wins, int(np.count_nonzero(winner >= 1))


def _decided(games: pl.DataFrame, game) -> pl.DataFrame:
    return games.filter(~undecided_of(games, game.undecided_ends))


def _seat_tests(games: pl.DataFrame, manifest: dict, game=None
                ) -> dict[int, list[bool | None]]:
    """For each variant of two players or more whose games a seat wins (the game's
    declaration), each seat: off its fair share beyond chance (True), not (False), or not
    tested (None: too few games one seat won), Holm over every seat of every variant the
    headline prints."""
    game = game or game_of(manifest)
    rows = []
    for info in manifest["variants"]:
        v, players = int(info["variant"]), int(info.get("players") or 0)
        mine = games.filter(pl.col("variant") == v)
        if players < 2 or mine.height == 0 or not game.competitive(info):
            continue
        wins, decided = _seat_counts(_decided(mine, game), players)
        rows += [(v, k, outcomes.fair_share_p(k, decided, players)) for k in wins]
    off = outcomes.off_fair_share([p for _, _, p in rows])
    out: dict[int, list[bool | None]] = {}
    for (v, _, p), o in zip(rows, off, strict=True):
        out.setdefault(v, []).append(None if np.isnan(p) else o)
    return out


def starter_column(game) -> str:
    """The games column of the first player's wins where seat 1 is not always the first
    player (Game.starter), else ""."""
    return game.measure(game.starter).column if game is not None and game.starter else ""


def _starter_tests(games: pl.DataFrame, manifest: dict, game
                   ) -> dict[int, tuple[int, int, bool | None]]:
    """For each variant of a game whose rules choose who plays first (Game.starter): (the
    first player's wins, the games it could win, off its fair share beyond chance: the exact
    binomial test against 1/players, Holm over the variants; None: too few games)."""
    column = starter_column(game)
    if not column or column not in games.columns:
        return {}
    rows = []
    for info in manifest["variants"]:
        v, players = int(info["variant"]), int(info.get("players") or 0)
        won = _decided(games.filter(pl.col("variant") == v), game)[column].drop_nulls()
        if players < 2 or won.len() == 0 or not game.competitive(info):
            continue
        k, n = int(won.sum()), won.len()
        rows.append((v, k, n, outcomes.fair_share_p(k, n, players)))
    off = outcomes.off_fair_share([p for *_, p in rows])
    return {v: (k, n, None if np.isnan(p) else o)
            for (v, k, n, p), o in zip(rows, off, strict=True)}


def _starter_text(k: int, n: int, players: int, off: bool | None) -> str:
    """"the first player wins 56% (54–58%), above its fair share": whoever played first."""
    said = ("too few games to test" if off is None else
            ("above" if k * players > n else "below") + " its fair share" if off else
            "within chance of its fair share")
    return f"the first player wins {rate_text(k, n)}, {said}"


def seat_list(names: list[str]) -> str:
    """"seat 1 and seat 2", "seat 1, seat 2 and seat 3"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _fairness_block(games: pl.DataFrame, manifest: dict, game=None) -> list[str]:
    """Each variant's seats off their fair share, after a comparison's short form: shares of
    the decided games, the undecided ones named. Where the rules choose who plays first
    (Game.starter), the first player's share comes first: the seats' say whether the sides are
    even, not whether playing first pays."""
    game = game or game_of(manifest)
    seats = _seat_tests(games, manifest, game)
    starts = _starter_tests(games, manifest, game)
    labels = variants.words(manifest, game)
    out = ["Seats against their fair share" + (" (the rules choose who plays first, so the "
                                               "first player is no seat):" if game.starter
                                               else ":")]
    for info in manifest["variants"]:
        v = int(info["variant"])
        flags = seats.get(v)
        if not flags:
            continue
        every = games.filter(pl.col("variant") == v)
        mine = _decided(every, game)
        stopped = every.height - mine.height
        late = f"; {undecided_text(stopped, every.height, game.undecided_ends, game)}" \
            if stopped else ""
        if mine.height == 0:
            out += textwrap.wrap(f"{labels[v]}: no decided games{late}", 100,
                                 initial_indent="  ", subsequent_indent="    ")
            continue
        wins, decided = _seat_counts(mine, len(flags))
        off = [f"{game.seat_name(s + 1)} {'above' if wins[s] * len(flags) > decided else 'below'}"
               f" ({text.pct(wins[s] / mine.height, 1)})" for s, o in enumerate(flags) if o]
        fair = text.pct(decided / mine.height / len(flags), 1)
        # "every seat" beside a first player off its share would read as "fair": name them.
        every = (f"{seat_list([game.seat_name(s + 1) for s in range(len(flags))])} each"
                 if v in starts else "every seat")
        said = ", ".join(off) if off else f"{every} within chance of it" \
            if any(x is not None for x in flags) else "too few games to test"
        if v in starts:
            said = f"{_starter_text(*starts[v][:2], len(flags), starts[v][2])}; {said}"
        out += textwrap.wrap(f"{labels[v]} (fair share {fair}): {said}{late}", 100,
                             initial_indent="  ", subsequent_indent="    ")
    return out + _fairness_note(seats, sum(o is not None for *_, o in starts.values()))


def _fairness_note(seats: dict[int, list[bool | None]], starters: int = 0) -> list[str]:
    tested = sum(x is not None for flags in seats.values() for x in flags)
    if tested == 0:
        return [f"Too few games that one seat won (fewer than {MIN_PAIRS}) to test the "
                "seats against their fair share."]
    first = (f" The first player's share is tested the same way, Holm over its {starters} "
             "tests." if starters else "")
    return textwrap.wrap(
        "Above or below its fair share: the seat's share of the games one seat won differs "
        "from 1/players beyond chance (the exact binomial test, Holm-corrected over the "
        f"{tested} seats tested here, 5% family-wise); a seat not marked cannot be told "
        f"from fair on these games.{first}", 100)


def rate_text(k: int, n: int) -> str:
    lo, hi = wilson(int(k), int(n))
    return text.rate(k / n, lo, hi)


def spread_text(x: np.ndarray) -> str:
    """"12 (10–90%: 9–15), mean 12.1": the median, its 10–90% range and the mean."""
    return (f"{text.num(float(np.median(x)))} (median; 10–90%: "
            f"{text.num(float(np.quantile(x, 0.1)))}–{text.num(float(np.quantile(x, 0.9)))})"
            f", mean {text.num(float(x.mean()))}")


def seat_lines(games: pl.DataFrame, players: int, off: list[bool | None] | None = None,
               unit: str = "turns", rounds: bool = False,
               undecided_ends: tuple[str, ...] = (), automa: str = "", game=None
               ) -> list[str]:
    """Each seat's share of the decided games' wins against the fair share, ties, the games
    that stopped undecided (one of `undecided_ends`, the game's), and the length (in rounds,
    one turn of every seat, when `rounds`). `off` marks the seats off their fair share
    (_seat_tests); without it, the variant's own seats are tested, Holm over them. A game
    with an automa (Game.automa, its name) gives its share too: its wins (`won` false) are
    no seat's and no tie. `game` names the seats (Game.seat_name) and, where its rules choose
    who plays first (Game.starter), adds the first player's share."""
    stopped = undecided_of(games, undecided_ends)
    turns = games["turns"].fill_null(0).to_numpy().astype(np.int64)
    length = -(-turns // players) if rounds else turns
    winner = games.filter(~stopped)["winner"].fill_null(-1).to_numpy()
    beaten = (games.filter(~stopped)["won"].eq(False).fill_null(False).to_numpy()
              if automa else np.zeros(len(winner), bool))
    n = len(winner)
    said = undecided_text(int(stopped.sum()), len(stopped), undecided_ends, game)
    if n == 0:
        return [f"No game was decided: {said}; no seat's share of the wins to give.",
                _length_line(length, unit)]
    of = "decided games" if undecided_ends else "games"
    ties = float(np.mean((winner == -1) & ~beaten))
    wins, decided = _seat_counts(games.filter(~stopped), players)
    if off is None and players > 1:
        p = [outcomes.fair_share_p(k, decided, players) for k in wins]
        off = [None if np.isnan(x) else o for x, o in zip(p, outcomes.off_fair_share(p),
                                                           strict=True)]
    fair = (1 - ties - float(np.mean(beaten))) / players
    lines = [f"Share of the wins by seat (95% Wilson intervals; {n:,} {of}; a fair share is "
             f"{text.pct(fair, 1)}):"]
    names = [game.seat_name(s + 1) if game is not None else f"seat {s + 1}"
             for s in range(players)]
    width = max(8, *(len(x) for x in names))
    for seat, k in enumerate(wins):
        mark = ""
        if off and off[seat]:
            mark = "  above its fair share" if k / n > fair else "  below its fair share"
        lines.append(f"  {names[seat]:<{width}} {rate_text(k, n)}{mark}")
    column = starter_column(game)
    won = games.filter(~stopped)[column].drop_nulls() if column in games.columns else None
    if won is not None and won.len():
        k, m = int(won.sum()), won.len()
        p = outcomes.fair_share_p(k, m, players)
        test = None if np.isnan(p) else outcomes.off_fair_share([p])[0]
        lines.append(f"  {_starter_text(k, m, players, test)} (whoever played first)")
    if automa:
        lines.append(f"  {automa} wins {rate_text(int(beaten.sum()), n)}")
    lines.append(f"  ties     {text.pct(ties, 1)}")
    if undecided_ends:
        lines.append(f"  undecided: {said}, in no share")
    return lines + [_length_line(length, unit)]


def _length_line(length: np.ndarray, unit: str) -> str:
    return (f"Length: {text.num(float(np.median(length)))} {unit} (median; 10–90%: "
            f"{text.num(float(np.quantile(length, 0.1)))}–"
            f"{text.num(float(np.quantile(length, 0.9)))}), mean "
            f"{text.num(float(length.mean()))}.")


def team_lines(games: pl.DataFrame, unit: str = "turns",
               undecided_ends: tuple[str, ...] = (), game=None) -> list[str]:
    """The team's win rate over the decided games (the undecided ones counted apart, in
    `game`'s words), its score and the length."""
    stopped = undecided_of(games, undecided_ends)
    won = games.filter(~stopped)["won"].drop_nulls().to_numpy()
    n = len(won)
    said = undecided_text(int(stopped.sum()), len(stopped), undecided_ends, game)
    score = games["score"].fill_null(0).to_numpy().astype(np.float64)
    turns = games["turns"].fill_null(0).to_numpy().astype(np.float64)
    if n == 0:
        first = (f"No game was decided: {said}; no win rate to give." if stopped.any()
                 else "No game has a result: no win rate to give.")
    else:
        of = "decided games" if undecided_ends else "games"
        first = (f"The team wins {rate_text(int(won.sum()), n)} of {n:,} {of} (95% Wilson "
                 "interval)" + (f"; {said}, in no share." if undecided_ends else "."))
    return [first, f"Team score: {spread_text(score)}.", f"Length: {spread_text(turns)} {unit}."]
