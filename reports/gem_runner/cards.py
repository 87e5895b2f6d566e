"""Which cards matter (Gem Runner): per setting and hero, how often a seat drew each card of its
deck and played it, and how often the seats that did won against those that did not. An
association, not a cause: a longer game draws more cards, a seat that wins its runs plays more,
and a strong hand is drawn with the card as much as the card itself.

The games table's card record (cards_drawn, cards_played: one bit per name of the seat's deck
file, decks.card_names) is read in one pass, a piece at a time, into counts per (setting,
players, hero) and card. A unit is a seat of a game; it wins when its side does: head to head
when it is the winner, against the Computer when the seats beat it; a game stopped undecided
is a loss. A card is a name of a deck file (its copies count as one), a hero's deck the file.

`balance ablate --how cards` measures what the association cannot: each card taken out of the
decks, paired on common seeds (balance/games/gem_runner/experiment.py)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl

from balance.games.gem_runner import decks
from balance.games.gem_runner.codes import COMPUTER, HEAD_TO_HEAD
from balance.games.gem_runner.rules import HERO_NAMES, deck_of
from balance.stats.intervals import difference, wilson
from reports.gem_runner.analysis import played, rules_of
from reports.tables import pieces

COLUMNS = ("cards_drawn", "cards_played")
BITS = 64
CARD_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "hero": pl.Utf8, "card": pl.Utf8,
               "kind": pl.Utf8, "seats": pl.Int64, "wins": pl.Int64, "drew": pl.Int64,
               "drew_wins": pl.Int64, "played": pl.Int64, "played_wins": pl.Int64}
# For each arm ("drew", "played"): its win rate and the rate of the seats that did not, each
# with its 95% Wilson interval, and their difference with Newcombe's interval.
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
    """CARD_SCHEMA, one row per (setting, players, hero) and card of the hero's deck file,
    then `with_comparison`'s columns; empty when the table holds no card record."""
    if not recorded(games) or kinds.height == 0:
        return with_comparison(pl.DataFrame(schema=CARD_SCHEMA))
    info = {int(v["variant"]): v for v in (manifest or {}).get("variants", [])
            if "variant" in v}
    per = kinds.select(pl.col("variant").cast(pl.Int64), "setting",
                       pl.col("players").cast(pl.Int64)).unique("variant")
    groups: dict[tuple, int] = {}
    seat_group: dict[int, list[int]] = {}
    for variant, setting, players in per.rows():
        heroes = seat_heroes(info.get(variant, {}), players)
        seat_group[variant] = [groups.setdefault((setting, players, h), len(groups))
                               for h in heroes]
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
    for (setting, players, hero), g in groups.items():
        kinds_of = {c["name"]: c["kind"] for c in reversed(decks.read_deck(hero))}
        for b, name in enumerate(decks.card_names(hero)):
            rows.append((setting, players, hero, name, KIND_WORDS[kinds_of[name]],
                         int(seats[g]), int(wins[g]),
                         *(int(sums[k][g, b]) for k in ("drew", "drew_wins", "played",
                                                        "played_wins"))))
    table = pl.DataFrame(rows, schema=CARD_SCHEMA, orient="row")
    return with_comparison(table.filter(pl.col("seats") > 0))


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


def with_comparison(table: pl.DataFrame) -> pl.DataFrame:
    """For each arm (drew, played): `<arm>_rate` its seats' win rate, `not_<arm>_rate` the
    others', each with `_low`/`_high` (95% Wilson), and `<arm>_diff` with `_low`/`_high`
    (Newcombe); `<arm>_share` the share of the seats that drew or played the card."""
    cols: dict[str, list] = {}
    for arm in ARMS:
        for c in ("share", "rate", "rate_low", "rate_high", "not_rate", "not_rate_low",
                  "not_rate_high", "diff", "diff_low", "diff_high"):
            cols[f"{arm}_{c}"] = []
    for r in table.iter_rows(named=True):
        for arm in ARMS:
            n, k = r[arm], r[f"{arm}_wins"]
            m, j = r["seats"] - n, r["wins"] - k
            cols[f"{arm}_share"].append(n / r["seats"] if r["seats"] else None)
            for pre, kk, nn in (("", k, n), ("not_", j, m)):
                ci = wilson(kk, nn)
                cols[f"{arm}_{pre}rate"].append(kk / nn if ci else None)
                cols[f"{arm}_{pre}rate_low"].append(ci[0] if ci else None)
                cols[f"{arm}_{pre}rate_high"].append(ci[1] if ci else None)
            d = difference(k, n, j, m)
            for i, c in enumerate(("diff", "diff_low", "diff_high")):
                cols[f"{arm}_{c}"].append(d[i] if d else None)
    return table.with_columns(pl.Series(k, v, dtype=pl.Float64) for k, v in cols.items())


def hero_words(hero: str) -> str:
    return HERO_NAMES.get(hero, hero)


def card_words(hero: str, card: str) -> str:
    """A card as a designer names it: "Bit Boy's Ruby"."""
    return f"{hero_words(hero)}'s {card}"

