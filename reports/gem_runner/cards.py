"""Which cards matter (Gem Runner): how often a seat drew each card of its deck and played it,
and how often the seats that did won against those that did not; then, for each hero's deck,
which cards stand out from the deck's typical card. An association, not a cause: a longer game
draws more cards, a seat that wins its runs plays more, and a strong hand is drawn with the
card as much as the card itself. Those go with nearly every card alike, so a card is read
against the deck's typical one (the median card's difference), not against zero.

The games table's card record (cards_drawn, cards_played: one bit per name of the seat's deck
file, decks.card_names) is read in one pass, a piece at a time, into counts per stratum (a
setting's seat: setting, players, seat) and card. A unit is a seat of a game; it wins when its
side does: head to head when it is the winner, against the Computer when the seats beat it; a
game stopped undecided is a loss. A card is a name of a deck file (its copies count as one), a
hero's deck the file.

`pooled` reads a deck over its strata: within each, the win rate of the seats that drew (or
played) the card minus the others'; across them, those differences weighted as
Mantel-Haenszel weights a difference of rates (n1 n0 / (n1 + n0)), so that a seat is only ever
compared with seats of its own setting and seat. `standing` sets each card against the
deck's median card, with Holm's correction over the deck's cards.

`balance ablate --how cards` measures what the association cannot: each card taken out of the
decks, paired on common seeds (balance/games/gem_runner/experiment.py)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import polars as pl

from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import COMPUTER, HEAD_TO_HEAD
from balance.games.gem_runner.rules import HERO_NAMES, deck_of
from balance.stats.distributions import normal_quantile
from balance.stats.intervals import UPPER
from balance.stats.paired import holm
from reports.gem_runner.analysis import played, rules_of
from reports.tables import pieces

COLUMNS = ("cards_drawn", "cards_played")
BITS = 64
CARD_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "seat": pl.Int64, "hero": pl.Utf8,
               "card": pl.Utf8, "kind": pl.Utf8, "seats": pl.Int64, "wins": pl.Int64,
               "drew": pl.Int64, "drew_wins": pl.Int64, "played": pl.Int64,
               "played_wins": pl.Int64}
STRATUM = ("setting", "players", "seat")
ARMS = ("drew", "played")
KIND_WORDS = {"hazard": "Hazard", "boss": "Boss", "gem": "Gem", "chain": "Chain",
              "bug": "Bug", "bug_fix": "Bug Fix"}


def recorded(games) -> bool:
    """Does the games table hold the card record (a run before it did not)?"""
    return all(c in games.columns for c in COLUMNS)


def seat_heroes(info: dict, players: int) -> list[str]:
    """The hero whose deck each seat of a variant draws from (rules.deck_of)."""
    r = rules_of(info)
    computer, n = played({**info, "players": players})
    rules = SimpleNamespace(decks=n, players=players, play=COMPUTER if computer
                            else HEAD_TO_HEAD)
    return [r[f"hero{deck_of(rules, q) + 1}"] for q in range(players)]


def card_value(games, manifest: dict, kinds: pl.DataFrame) -> pl.DataFrame:
    """CARD_SCHEMA, one row per stratum (setting, players, seat: seat from 1), the hero whose
    deck that seat draws from, and card of the hero's deck file; empty when the table holds no
    card record."""
    if not recorded(games) or kinds.height == 0:
        return pl.DataFrame(schema=CARD_SCHEMA)
    info = {int(v["variant"]): v for v in (manifest or {}).get("variants", [])
            if "variant" in v}
    per = kinds.select(pl.col("variant").cast(pl.Int64), "setting",
                       pl.col("players").cast(pl.Int64)).unique("variant")
    groups: dict[tuple, int] = {}
    seat_group: dict[int, list[int]] = {}
    for variant, setting, players in per.rows():
        heroes = seat_heroes(info.get(variant, {}), players)
        seat_group[variant] = [groups.setdefault((setting, players, q + 1, h), len(groups))
                               for q, h in enumerate(heroes)]
    sums = {k: np.zeros((len(groups), BITS), np.int64) for k in
            ("drew", "drew_wins", "played", "played_wins")}
    seats, wins = np.zeros(len(groups), np.int64), np.zeros(len(groups), np.int64)
    for piece in pieces.of(games, ["variant", "players", "winner", *COLUMNS]):
        gid, won, drew, play = _units(piece, seat_group, info)
        seats += np.bincount(gid, minlength=len(groups))
        wins += np.bincount(gid, weights=won, minlength=len(groups)).astype(np.int64)
        for name, mask in (("drew", drew), ("played", play)):
            for b in range(BITS):
                hit = (mask >> np.uint64(b)) & np.uint64(1)
                if not hit.any():
                    continue
                hit = hit.astype(np.int64)
                sums[name][:, b] += np.bincount(gid, weights=hit, minlength=len(groups)
                                                ).astype(np.int64)
                sums[f"{name}_wins"][:, b] += np.bincount(
                    gid, weights=hit * won, minlength=len(groups)).astype(np.int64)
    rows = []
    for (setting, players, seat, hero), g in groups.items():
        kinds_of = {c["name"]: c["kind"] for c in reversed(decks.read_deck(hero))}
        for b, name in enumerate(decks.card_names(hero)):
            rows.append((setting, players, seat, hero, name, KIND_WORDS[kinds_of[name]],
                         int(seats[g]), int(wins[g]),
                         *(int(sums[k][g, b]) for k in ("drew", "drew_wins", "played",
                                                        "played_wins"))))
    table = pl.DataFrame(rows, schema=CARD_SCHEMA, orient="row")
    return table.filter(pl.col("seats") > 0)


def _units(piece: pl.DataFrame, seat_group: dict, info: dict):
    """One piece's seats: (group id, won 0/1, cards drawn, cards played as uint64 bits)."""
    g = (piece.with_columns(pl.col("variant").cast(pl.Int64),
                            pl.col("winner").cast(pl.Int64).fill_null(0),
                            pl.int_ranges(0, pl.col("players").cast(pl.Int64)).alias("seat"))
         .explode("seat", *COLUMNS))
    variant, seat = g["variant"].to_numpy(), g["seat"].to_numpy()
    winner = g["winner"].to_numpy()
    computer = np.zeros(len(g), bool)
    gid = np.empty(len(g), np.int64)
    for v in np.unique(variant):
        at = variant == v
        gid[at] = np.asarray(seat_group[int(v)])[seat[at]]
        players = len(seat_group[int(v)])
        computer[at] = played({**info.get(int(v), {}), "players": players})[0]
    # Against the Computer the seats win together: the table names the seat whose Gem won.
    won = np.where(computer, winner >= 1, winner == seat + 1).astype(np.int64)
    bits = [g[c].to_numpy().astype(np.int64).view(np.uint64) for c in COLUMNS]
    return gid, won, bits[0], bits[1]


def pooled(counts: pl.DataFrame, by: tuple[str, ...] = ("hero", "card", "kind")
           ) -> pl.DataFrame:
    """The counts (CARD_SCHEMA) over their strata, one row per `by`: seats, wins; for each
    arm (drew, played) `<arm>_share` (the share of the seats that drew or played the card),
    `<arm>_diff` (the seats that did against those that did not, within each stratum,
    weighted over them: the module doc), `<arm>_se` and `<arm>_low`/`<arm>_high` (95%, the
    normal interval, within -1 and 1), `<arm>_units` (the seats of the strata that compare:
    some seats did, some did not). A stratum's variance takes each rate as (k + 1) / (n + 2),
    so that a stratum all won or all lost is never certain."""
    z = normal_quantile(UPPER)
    cols = [pl.col("seats").sum(), pl.col("wins").sum()]
    terms = []
    for arm in ARMS:
        n1, k1 = pl.col(arm), pl.col(f"{arm}_wins")
        n0, k0 = pl.col("seats") - n1, pl.col("wins") - k1
        compares = (n1 > 0) & (n0 > 0)
        w = pl.when(compares).then(n1 * n0 / (n1 + n0)).otherwise(0.0)
        d = pl.when(compares).then(k1 / n1 - k0 / n0).otherwise(0.0)
        p1, p0 = (k1 + 1) / (n1 + 2), (k0 + 1) / (n0 + 2)
        var = pl.when(compares).then(p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0).otherwise(0.0)
        terms += [w.alias(f"_{arm}_w"), (w * d).alias(f"_{arm}_wd"),
                  (w * w * var).alias(f"_{arm}_wv"),
                  pl.when(compares).then(pl.col("seats")).otherwise(0).alias(f"_{arm}_u")]
        cols += [pl.col(arm).sum(), pl.col(f"_{arm}_w").sum(), pl.col(f"_{arm}_wd").sum(),
                 pl.col(f"_{arm}_wv").sum(), pl.col(f"_{arm}_u").sum().alias(f"{arm}_units")]
    out = counts.with_columns(terms).group_by(list(by), maintain_order=True).agg(cols)
    done = []
    for arm in ARMS:
        w = pl.col(f"_{arm}_w")
        diff = pl.when(w > 0).then(pl.col(f"_{arm}_wd") / w)
        se = pl.when(w > 0).then(pl.col(f"_{arm}_wv").sqrt() / w)
        done += [(pl.col(arm) / pl.col("seats")).alias(f"{arm}_share"), diff.alias(f"{arm}_diff"),
                 se.alias(f"{arm}_se"), (diff - z * se).clip(-1.0, 1.0).alias(f"{arm}_low"),
                 (diff + z * se).clip(-1.0, 1.0).alias(f"{arm}_high")]
    return out.with_columns(done).drop(pl.selectors.starts_with("_"))


def standing(table: pl.DataFrame, by: tuple[str, ...] = ("hero",)) -> pl.DataFrame:
    """`pooled`'s rows set against their deck's typical card, one group per `by`: for each arm
    `<arm>_typical` (the median `<arm>_diff` of the group's cards that compare),
    `<arm>_rel` (the card's difference less it) with `<arm>_rel_low`/`_high` (the card's
    interval, the median taken as fixed), `<arm>_p` (two-sided, normal) and `<arm>_stands`
    (true where Holm's correction over the group's cards, 5% familywise, keeps it)."""
    parts = []
    for _, g in table.group_by(list(by), maintain_order=True):
        cols = []
        for arm in ARMS:
            diff, se = g[f"{arm}_diff"], g[f"{arm}_se"]
            typical = diff.drop_nulls().median()
            rel = (diff - typical if typical is not None
                   else pl.Series([None] * g.height, dtype=pl.Float64))
            p = [math.erfc(abs(r) / s / math.sqrt(2)) if r is not None and s else math.nan
                 for r, s in zip(rel.to_list(), se.to_list(), strict=True)]
            stands, _ = holm(p)
            cols += [pl.Series(f"{arm}_typical", [typical] * g.height, pl.Float64),
                     rel.alias(f"{arm}_rel"), (g[f"{arm}_low"] - (typical or 0.0))
                     .alias(f"{arm}_rel_low"), (g[f"{arm}_high"] - (typical or 0.0))
                     .alias(f"{arm}_rel_high"),
                     pl.Series(f"{arm}_p", p, pl.Float64),
                     pl.Series(f"{arm}_stands", stands.tolist(), pl.Boolean)]
        parts.append(g.with_columns(cols))
    return pl.concat(parts) if parts else table


def hero_words(hero: str) -> str:
    return HERO_NAMES.get(hero, hero)


def card_words(hero: str, card: str) -> str:
    """A card as a designer names it: "Bit Boy's Ruby"."""
    return f"{hero_words(hero)}'s {card}"

