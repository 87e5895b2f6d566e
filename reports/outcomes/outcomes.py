"""How games come out, for any game, from the core columns every games table starts with
(balance/contract/game.py, CORE_COLUMNS), per (setting, players):

- who wins: each seat's share of the wins against its fair share (seat 1 plays first, so a
  first-player advantage shows as seat 1 above it), or in a cooperative game the team's win
  rate;
- how long games last, in the game's unit (or in rounds, one turn of every seat, when the
  game counts each seat's turn: rounds = ceil(turns / players)), and how they end;
- the winner's margin over the next best score, the scores by player count (the team's, or
  the winner's, and every seat's), and the scores and wins of each player (heuristic) over
  the seats it played.

Seats count from 1. A tied game (winner -1) is won by no seat. Whether a seat wins its fair
share: in a game that one seat won, a seat that did not matter would be the winner one time in
`players`. Each seat's wins among those games are tested against 1/players with the exact
binomial test, and Holm's correction runs over every seat tested together (fair_share_p,
off_fair_share); fewer than paired.MIN_PAIRS such games are too few to test, as for every
comparison.

Every function takes a games table or its tally.Tallies, and `where`, an expression over the
key columns choosing the kinds of games read (a game's report may read some of its kinds here
and the others its own way); the `*_counts` tables (one row per value with `n` games) are
what the figures draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from balance.stats.distributions import binomial_two_sided_p
from balance.stats.intervals import with_wilson
from balance.stats.paired import holm, too_few
from reports.tables import counts, tally
from reports.tables.frame import GROUP


def _of(games, name: str, where: pl.Expr | None) -> pl.DataFrame:
    """A count table of the games chosen, with setting and players (Int64)."""
    t = tally.of(games)
    keys = t.keys if where is None else t.keys.filter(where)
    keys = keys.select("kid", *GROUP, pl.col("heuristic").cast(pl.Utf8)).cast(
        {"players": pl.Int64})
    return t.tables[name].join(keys, on="kid")


def length_counts(games, where: pl.Expr | None = None, rounds: bool = False) -> pl.DataFrame:
    """setting, players, length, n: game length in the game's unit, or in rounds."""
    c = _of(games, "end", where)
    length = ((pl.col("turns") + pl.col("players") - 1) // pl.col("players") if rounds
              else pl.col("turns"))
    c = c.with_columns(length.alias("length"))
    return counts.added([c.select(*GROUP, "length", "n")], [*GROUP, "length"]).sort(*GROUP,
                                                                                    "length")


def lengths(games, where: pl.Expr | None = None, rounds: bool = False) -> pl.DataFrame:
    """Distribution of game length per (setting, players)."""
    return counts.distribution(length_counts(games, where, rounds), "length", GROUP)


def endings(games, where: pl.Expr | None = None, reasons: tuple[str, ...] = ()
            ) -> pl.DataFrame:
    """How the games ended, per (setting, players): a row for each reason (those given, and
    any other the games ended by), with games, wins = the games that ended so, and their share
    as win_rate with its 95% Wilson interval (the names follow `with_wilson`)."""
    c = _of(games, "end", where)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "end_reason": pl.Utf8,
              "games": pl.Int64, "wins": pl.Int64}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    every = list(dict.fromkeys([*reasons, *sorted(c["end_reason"].drop_nulls().unique())]))
    totals = c.group_by(*GROUP).agg(pl.col("n").sum().alias("games"))
    ended = c.group_by(*GROUP, "end_reason").agg(pl.col("n").sum().alias("wins"))
    out = (totals.join(pl.DataFrame({"end_reason": every}, schema={"end_reason": pl.Utf8}),
                       how="cross")
           .join(ended, on=[*GROUP, "end_reason"], how="left")
           .with_columns(pl.col("wins").fill_null(0)))
    return with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP, "end_reason")


def fair_share_p(wins: int, decided: int, players: int) -> float:
    """The p-value of the exact binomial test of a seat's `wins` among the `decided` games
    (those one seat won) against 1/players; NaN for one player or too few games."""
    if players < 2 or too_few(decided):
        return math.nan
    return binomial_two_sided_p(int(wins), int(decided), 1 / players)


def off_fair_share(p_values) -> list[bool]:
    """Which seats win more or less than their fair share beyond chance: Holm's correction
    over every p-value given (NaN: not tested, never off)."""
    return [bool(x) for x in holm(p_values)[0]]


SEAT_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "seat": pl.Int64, "games": pl.Int64,
               "wins": pl.Int64, "ties": pl.Float64, "fair_share": pl.Float64,
               "decided": pl.Int64}


def seat_wins(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """Win rate by seat per (setting, players), over the games a seat can win: games, wins,
    win_rate with its 95% Wilson interval, ties (share of tied games) and fair_share =
    (1 - ties) / players, what every seat would win if the seat did not matter; decided (the
    games one seat won), p_fair (the exact binomial test of the seat's wins among them
    against 1/players) and off_fair (the test survives Holm over every seat of the table)."""
    c = _of(games, "winner", where)
    tested = {"p_fair": pl.Float64, "off_fair": pl.Boolean}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=SEAT_SCHEMA)).with_columns(
            *(pl.lit(None, t).alias(k) for k, t in tested.items()))
    per_seat = c.with_columns(pl.int_ranges(1, pl.col("players") + 1, dtype=pl.Int64)
                              .alias("seat")).explode("seat")
    out = (per_seat.group_by(*GROUP, "seat").agg(
        pl.col("n").sum().alias("games"),
        pl.col("n").filter(pl.col("winner") == pl.col("seat")).sum().alias("wins"),
        pl.col("n").filter(pl.col("winner") == -1).sum().alias("_ties"))
        # the share of tied games, as a mean over the games: their count over all
        .with_columns((pl.col("_ties").cast(pl.Float64) / pl.col("games").cast(pl.Float64))
                      .alias("ties"))
        .with_columns(((1 - pl.col("ties")) / pl.col("players")).alias("fair_share"),
                      (pl.col("games") - pl.col("_ties")).alias("decided")))
    out = with_wilson(out.cast(SEAT_SCHEMA).select(list(SEAT_SCHEMA))).sort(*GROUP, "seat")
    p = [fair_share_p(k, d, n) for k, d, n in out.select("wins", "decided", "players").rows()]
    return out.with_columns(pl.Series("p_fair", p, pl.Float64),
                            pl.Series("off_fair", off_fair_share(p), pl.Boolean))


def team_wins(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """The team's win rate per (setting, players), over the games with a team (won set, no
    winning seat): games, wins, win_rate with its 95% Wilson interval."""
    c = _of(games, "team", where)
    schema = {"setting": pl.Utf8, "players": pl.Int64, "games": pl.Int64, "wins": pl.Int64}
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=schema))
    out = c.group_by(*GROUP).agg(pl.col("n").sum().alias("games"),
                                 pl.col("n").filter(pl.col("won")).sum().alias("wins"))
    return with_wilson(out.cast(schema).select(list(schema))).sort(*GROUP)


def margin_counts(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """setting, players, margin, n: the winner's lead over the second score (0 for a tie) in
    games a seat wins, of two players or more."""
    c = _of(games, "margin", where)
    return counts.added([c.select(*GROUP, "margin", "n")], [*GROUP, "margin"]).sort(*GROUP,
                                                                                    "margin")


def margins(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """Distribution of the winning margin per (setting, players)."""
    return counts.distribution(margin_counts(games, where), "margin", GROUP)


def result_counts(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """setting, players, score, n: the game's score (the team's, or the winner's)."""
    c = _of(games, "result", where)
    return counts.added([c.select(*GROUP, "score", "n")], [*GROUP, "score"]).sort(*GROUP,
                                                                                  "score")


def results(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """Distribution of the game's score (the team's, or the winner's) per (setting, players)."""
    return counts.distribution(result_counts(games, where), "score", GROUP)


def seat_scores(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """Distribution of every seat's score per (setting, players), all seats together."""
    c = _of(games, "seats", where)
    c = counts.added([c.select(*GROUP, "score", "n")], [*GROUP, "score"]) if c.height else \
        c.select(*GROUP, "score", "n")
    return counts.distribution(c, "score", GROUP)


def _player_names(heuristic: str | None, players: int) -> list[str]:
    """The listed players of a game, from its `heuristic` (one name for every seat, or the
    seats' players joined by ",")."""
    names = [x.strip() for x in str(heuristic or "?").split(",")] or ["?"]
    return [names[i % len(names)] for i in range(players)]


PLAYER_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "player": pl.Utf8,
                 "seats": pl.Int64, "wins": pl.Int64, "decided": pl.Int64,
                 "fair_share": pl.Float64, "mean": pl.Float64, "q10": pl.Float64,
                 "q50": pl.Float64, "q90": pl.Float64}


def by_player(games, where: pl.Expr | None = None) -> pl.DataFrame:
    """Per (setting, players, player): the seats it played (one per game and seat), the
    seats of those that won (the winning seat, or the team's win), their score (mean and
    10/50/90% quantiles), win_rate with its 95% Wilson interval, and fair_share: what it would
    win if the player did not matter (the games one seat or the team won, over the seats)."""
    c = _of(games, "seats", where)
    if c.height == 0:
        return with_wilson(pl.DataFrame(schema=PLAYER_SCHEMA), games="seats")
    names = pl.DataFrame(
        [(h, p, i + 1, name) for h, p in c.select("heuristic", "players").unique().rows()
         for i, name in enumerate(_player_names(h, p))],
        schema={"heuristic": pl.Utf8, "players": pl.Int64, "player": pl.Int64,
                "name": pl.Utf8}, orient="row")
    c = c.join(names, on=["heuristic", "players", "player"], how="left", nulls_equal=True)
    # The fair share of every seat: the games won (by a seat, or by the team) over the seats.
    decided = (c.group_by(*GROUP).agg(pl.col("n").filter(pl.col("won").fill_null(False))
                                      .sum().alias("_won"), pl.col("n").sum().alias("_seats"))
               .with_columns((pl.col("_won").cast(pl.Float64) / pl.col("_seats"))
                             .alias("fair_share")))
    scores = counts.distribution(
        counts.added([c.select(*GROUP, "name", "score", "n")], [*GROUP, "name", "score"]),
        "score", [*GROUP, "name"])
    out = (c.group_by(*GROUP, "name").agg(
        pl.col("n").sum().alias("seats"),
        pl.col("n").filter(pl.col("won").fill_null(False)).sum().alias("wins"),
        pl.col("n").filter(pl.col("won").is_not_null()).sum().alias("decided"))
        .join(decided.select(*GROUP, "fair_share"), on=list(GROUP))
        .join(scores.select(*GROUP, "name", "mean", "q10", "q50", "q90"),
              on=[*GROUP, "name"]).rename({"name": "player"}))
    return with_wilson(out.cast(PLAYER_SCHEMA).select(list(PLAYER_SCHEMA)),
                       games="seats").sort(*GROUP, "player")


@dataclass(frozen=True)
class Outcomes:
    """Every table above for the games chosen, as a report reads them."""

    seat_wins: pl.DataFrame
    team_wins: pl.DataFrame
    length_counts: pl.DataFrame
    lengths: pl.DataFrame
    endings: pl.DataFrame
    margin_counts: pl.DataFrame
    margins: pl.DataFrame
    result_counts: pl.DataFrame
    results: pl.DataFrame
    seat_scores: pl.DataFrame
    by_player: pl.DataFrame
    rounds: bool = False  # lengths are in rounds

    @property
    def empty(self) -> bool:
        return self.lengths.height == 0


def outcomes(games, where: pl.Expr | None = None, rounds: bool = False,
             reasons: tuple[str, ...] = ()) -> Outcomes:
    """Every outcome of the games chosen (a games table or its tally.Tallies): `rounds` gives
    the lengths in rounds, `reasons` the end reasons every table lists, in order."""
    t = tally.of(games)
    return Outcomes(
        seat_wins=seat_wins(t, where), team_wins=team_wins(t, where),
        length_counts=length_counts(t, where, rounds), lengths=lengths(t, where, rounds),
        endings=endings(t, where, reasons), margin_counts=margin_counts(t, where),
        margins=margins(t, where), result_counts=result_counts(t, where),
        results=results(t, where),
        seat_scores=seat_scores(t, where), by_player=by_player(t, where), rounds=rounds)
