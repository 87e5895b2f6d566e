"""A game's measures over a run's games, variant by variant: the headline rates `balance run`
prints and `balance run --precision` makes precise, and every quantity with its interval.

A quantity is a polars expression over the games table, aggregated over the games of one
variant: a rate (a boolean per game: the share of the games it counts where it holds, with
its 95% Wilson interval) or a mean (a number per game, with its 95% t interval; nulls left
out). The quantities of a variant are the game's own, when it declares them
(balance/contract/game.py, Game.quantities: (variant as the manifest records it) ->
list[Quantity]); otherwise:

- who wins: in a variant a seat wins (by the game's declaration, Game.competitive, never by
  its games) each seat's share of the wins, seats from 1 (a tie, winner -1, is won by no
  seat), and a game's automa's (Game.automa: `won` false); in a cooperative one the team's
  win rate (`won`);
- every Measure the game declares over a column of its own (Measure.kind over
  Measure.column): a rate over a boolean column, a mean over a number. A measure whose value
  is more than its column's is left to the game's own quantities.

One rule for every rate: it is a share of the decided games (`Quantity.of` names them), and
of those only the ones its expression is not null for. A game that ended for one of the
game's undecided_ends (a turn cap) has no result: it is neither a win nor a loss, it is
counted apart (`undecided`) and shown, never folded into the losses. A variant whose games
all stopped undecided has no rate and no interval.

The headline rates are the rate quantities; `widest_half_width` is what --precision narrows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from balance.contract import compat, registry
from balance.contract.game import Game, Measure
from balance.stats import course
from balance.stats.distributions import t_quantile
from balance.stats.intervals import CONFIDENCE, wilson

RATE, MEAN = "rate", "mean"
DECIDED = "decided games"


@dataclass(frozen=True)
class Quantity:
    key: str  # "seat:1", "won", a measure's name: how a program names it
    name: str  # how a table prints it: "seat 1 wins"
    kind: str  # RATE or MEAN
    expr: pl.Expr  # over the games table: a boolean per game for a rate, a number for a mean
    of: str = DECIDED  # a rate: the games it is a share of, in words


def seats(players: int, game: Game | None = None) -> list[Quantity]:
    """Each seat's share of the wins, seat 1 first, each named as `game` names it."""
    return [Quantity(f"seat:{s}", f"{game.seat_name(s) if game else f'seat {s}'} wins", RATE,
                     pl.col("winner") == s)
            for s in range(1, int(players) + 1)]


TEAM = Quantity("won", "won", RATE, pl.col("won"))


def automa(name: str) -> Quantity:
    """The share of the wins of a game's automa (Game.automa, its name): `won` false, no
    seat's win and no tie."""
    return Quantity("automa", f"{name} wins", RATE, pl.col("won").eq(False).fill_null(False))


def undecided(game: Game) -> pl.Expr:
    """True for a game that stopped without a result (one of the game's undecided_ends)."""
    if not game.undecided_ends:
        return pl.lit(False)
    return pl.col("end_reason").is_in(list(game.undecided_ends)).fill_null(False)


def undecided_of(games: pl.DataFrame, ends: tuple[str, ...]) -> np.ndarray:
    """Per game of a loaded games table: it stopped without a result (its end_reason one of
    `ends`, a game's undecided_ends)."""
    if not ends or games.height == 0:
        return np.zeros(games.height, bool)
    return games["end_reason"].is_in(list(ends)).fill_null(False).to_numpy()


def counted(q: Quantity, game: Game) -> pl.Expr:
    """A rate's value per game, null where the game is not counted: undecided, or its
    expression null. A mean's expression as it is."""
    if q.kind != RATE:
        return q.expr
    return pl.when(undecided(game)).then(None).otherwise(q.expr).cast(pl.Boolean)


def of_measures(game: Game, schema: dict | None = None) -> list[Quantity]:
    """The game's measures as quantities: rates over its boolean columns, means over its
    number columns (`schema`: the games table's, when known)."""
    out = []
    for m in game.measures:
        if course.is_course(m):
            out.append(course_quantity(m, game))
            continue
        # A measure whose game value is more than its column's (a hook computes it) is the
        # game's own quantities' business.
        if getattr(m, "outcome", ""):
            continue
        dtype = (schema or {}).get(m.column)
        if m.kind == RATE and (dtype is None or dtype == pl.Boolean):
            out.append(Quantity(m.name, m.title, RATE, pl.col(m.column), m.of))
        elif m.kind == MEAN and (dtype is None or dtype.is_numeric()):
            out.append(Quantity(m.name, m.title, MEAN, pl.col(m.column).cast(pl.Float64)))
    return out


def course_quantity(measure: Measure, game: Game) -> Quantity:
    """A measure of a game's course (balance/stats/course.py) as this layer aggregates it."""
    expr = course.expression(measure, game) if course.is_course(measure) else \
        pl.col(measure.column).cast(pl.Float64)
    return Quantity(measure.name, measure.title, measure.kind, expr, measure.of)


def course_quantities(game: Game) -> list[Quantity]:
    """Every course measure the game's games can give and it does not declare itself, as
    quantities (what `balance compare` adds to the game's own)."""
    return [course_quantity(m, game) for m in course.of_game(game)]


def game_of(manifest: dict) -> Game:
    """The game a run played (its manifest's `game`; none: balance/contract/compat.py)."""
    return registry.get(compat.manifest_game(manifest))


def of_variant(game: Game, info: dict, schema: dict | None = None) -> list[Quantity]:
    """The quantities of one variant (`info`: as the manifest records it), the game's own when
    it declares them (see the module doc)."""
    if game.quantities:
        return list(game.hook("quantities")(info))
    if game.competitive(info):
        rival = [automa(game.automa)] if game.automa else []
        return seats(int(info.get("players") or 0), game) + rival + of_measures(game, schema)
    # The team's win rate leads; a measure of the same column would say it twice.
    return [TEAM] + [q for q in of_measures(game, schema)
                     if q.expr.meta.root_names() != TEAM.expr.meta.root_names()]


def _quantities(games, manifest: dict, game: Game | None
                ) -> tuple[pl.LazyFrame, Game, list]:
    game = game or game_of(manifest)
    lf = games.lazy()
    schema = dict(lf.collect_schema())
    played = set(lf.select(pl.col("variant").unique()).collect()["variant"].to_list())
    per_variant = []
    for info in sorted(manifest.get("variants", []), key=lambda v: int(v["variant"])):
        v = int(info["variant"])
        if v in played:
            per_variant.append((v, of_variant(game, info, schema)))
    return lf, game, per_variant


# games: the games the rate counts (decided, its value known); undecided: the variant's games
# that stopped without a result; of: what the rate is a share of, in words.
COUNT_SCHEMA = {"variant": pl.Int64, "measure": pl.Utf8, "wins": pl.Int64, "games": pl.Int64,
                "undecided": pl.Int64, "of": pl.Utf8}
RATE_SCHEMA = {**COUNT_SCHEMA, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64}


def headline_counts(games, manifest: dict, game: Game | None = None) -> pl.DataFrame:
    """(variant, measure, wins, games, undecided, of) for every rate quantity of every variant
    that has games, in variant order and, within a variant, in the quantities' order.
    Computed lazily from the columns the quantities read, so a large run is never loaded
    whole."""
    lf, game, per_variant = _quantities(games, manifest, game)
    rows = []
    for v, quantities in per_variant:
        rates = [q for q in quantities if q.kind == RATE]
        one = lf.filter(pl.col("variant") == v)
        got = one.select(undecided(game).sum().alias("_u"),
                         *[e for i, q in enumerate(rates) for e in (
                             counted(q, game).cast(pl.Int64).sum().alias(f"_k{i}"),
                             counted(q, game).count().alias(f"_n{i}"))]
                         ).collect().row(0)
        rows += [(v, q.name, int(got[1 + 2 * i] or 0), int(got[2 + 2 * i] or 0),
                  int(got[0] or 0), q.of) for i, q in enumerate(rates)]
    return pl.DataFrame(rows, schema=COUNT_SCHEMA, orient="row")


def headline_rates(games, manifest: dict, game: Game | None = None) -> pl.DataFrame:
    """headline_counts with each rate and its 95% Wilson interval (nulls where the rate
    counts no game: no rate, no interval)."""
    rows = []
    for variant, measure, k, n, u, of in headline_counts(games, manifest, game).rows():
        lo, hi = wilson(k, n) or (None, None)
        rows.append((variant, measure, k, n, u, of, k / n if n else None, lo, hi))
    return pl.DataFrame(rows, schema=RATE_SCHEMA, orient="row")


def widest_half_width(table: pl.DataFrame) -> float:
    """The largest half-width of the headline intervals; 1.0 (as wide as a rate's interval
    gets) when there are none yet, or when a rate counts no game: a rate nothing measured
    is never precise."""
    if table.height == 0 or table["ci_low"].null_count():
        return 1.0
    return float(((table["ci_high"] - table["ci_low"]) / 2).max())


def unmeasured(table: pl.DataFrame) -> pl.DataFrame:
    """The rows of headline_rates that count no game (every game undecided, or the value
    unknown in all of them)."""
    return table.filter(pl.col("games") == 0)


VALUE_SCHEMA = {"variant": pl.Int64, "key": pl.Utf8, "name": pl.Utf8, "kind": pl.Utf8,
                "n": pl.Int64, "value": pl.Float64, "ci_low": pl.Float64,
                "ci_high": pl.Float64, "of": pl.Utf8, "undecided": pl.Int64}


def t_interval(values: np.ndarray, confidence: float = CONFIDENCE
               ) -> tuple[float, float] | None:
    """The t interval of a mean; None below two values."""
    n = len(values)
    if n < 2:
        return None
    mean, sd = float(np.mean(values)), float(np.std(values, ddof=1))
    half = t_quantile(n - 1, 0.5 + confidence / 2) * sd / math.sqrt(n)
    return mean - half, mean + half


def aggregate(games, manifest: dict, game: Game | None = None) -> pl.DataFrame:
    """Every quantity of every variant (VALUE_SCHEMA): n (the games counted: for a rate, the
    decided games its value is known for), the value (a rate as a fraction, or a mean), its
    95% interval (Wilson, or t), what a rate is a share of (`of`) and the variant's
    undecided games."""
    lf, game, per_variant = _quantities(games, manifest, game)
    rows = []
    for v, quantities in per_variant:
        if not quantities:
            continue
        one = lf.filter(pl.col("variant") == v).select(
            undecided(game).alias("_u"),
            *[(counted(q, game).cast(pl.Int64) if q.kind == RATE else q.expr).alias(f"_{i}")
              for i, q in enumerate(quantities)]).collect()
        u = int(one["_u"].sum())
        for i, q in enumerate(quantities):
            x = one[f"_{i}"].drop_nulls().cast(pl.Float64).to_numpy()
            n = len(x)
            if q.kind == RATE:
                k = int(x.sum())
                ci = wilson(k, n)
            else:
                ci = t_interval(x)
            lo, hi = ci or (None, None)
            rows.append((v, q.key, q.name, q.kind, n, float(x.mean()) if n else None, lo, hi,
                         q.of if q.kind == RATE else None, u))
    return pl.DataFrame(rows, schema=VALUE_SCHEMA, orient="row")
