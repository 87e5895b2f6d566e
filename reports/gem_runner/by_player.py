"""Each answer of a Gem Runner run read for two players on the same shuffles: where a run plays
the same rules with different players beside other levers (the player a setting, so that
`balance compare` pairs each variant with its own player's baseline), the variants that differ
in their players alone are paired here, game by game on the seed both played:

- `first`: head to head, the first seat's share of the games a seat won, over the shuffles a
  seat won in both (Tango's paired interval);
- `computer`: against the Computer, the seats' share of the games (a game the Computer wins or
  that stops undecided counts against them), over every shuffle both played (Tango's);
- `deck`: deck against deck, from the variants that play two heroes both ways round
  (analysis.mirrored): the first hero's deck's share of the two games of a shuffle (a game
  stopped undecided a half), the paired t interval over the shuffles;
- `pool`: the share of the games the Pool decided (the winning Gem came with the Pool's), over
  every shuffle both played (Tango's): the runner always clears the Pool with the next
  Challenge's Gem, a stronger player may not, so the Pool's part is a player's answer too.

The reference is the run's first player (by variant order); every other player of the same
rules is read against it. A player is its seats and its knobs. `lever` marks a run that sweeps
the players alone (beside the player count): its comparison pairs the same variants already,
and the report's verdicts read them there."""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.contract.labels import value_words
from balance.games.gem_runner.game import GAME
from balance.stats import paired
from reports.gem_runner.analysis import (
    HEROES,
    mirrored,
    played,
    players_text,
    rules_of,
    score,
    seats_of,
)
from reports.tables import pieces
from reports.tables.variants import PLAYER_KEYS

FIRST, COMPUTER, DECK, POOL = "first", "computer", "deck", "pool"
SCHEMA = {"run": pl.Utf8, "question": pl.Utf8, "players": pl.Int64, "decks": pl.Int64,
          "setting": pl.Utf8, "hero": pl.Utf8, "against": pl.Utf8, "a": pl.Utf8,
          "b": pl.Utf8, "pairs": pl.Int64, "value_a": pl.Float64, "value_b": pl.Float64,
          "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "found": pl.Boolean, "lever": pl.Boolean}
# What is not the player, nor the question's own setting, when a row names its setting.
SCENE = {"players", *PLAYER_KEYS}


def _who(info: dict) -> tuple:
    return (tuple(seats_of(info)), tuple(sorted((info.get("knobs") or {}).items())))


def _run(info: dict) -> str:
    return str(info.get("from_run") or info.get("run") or "")


def _rules_key(info: dict, drop: tuple[str, ...] = ()) -> tuple:
    return tuple(sorted((k, v) for k, v in rules_of(info).items() if k not in drop))


def setting_words(info: dict, drop: tuple[str, ...] = ()) -> str:
    """The swept settings of a variant other than its player and player count (and `drop`),
    in the game's words; "" where there are none."""
    swept = {k: x for k, x in (info.get("swept") or {}).items()
             if x is not None and k not in SCENE and k not in drop}
    return ", ".join(value_words(GAME, k, x) for k, x in swept.items())


def lever_runs(manifest: dict) -> set[str]:
    """The runs whose variants differ in their players alone (and the player count)."""
    swept: dict[str, set] = {}
    for v in manifest.get("variants", []):
        swept.setdefault(_run(v), set()).update(
            k for k, x in (v.get("swept") or {}).items() if x is not None)
    return {run for run, keys in swept.items() if keys <= SCENE}


def matches(manifest: dict, drop: tuple[str, ...] = ()) -> list[tuple[dict, dict]]:
    """(reference, other) variants of one run that play the same rules (less `drop`) at the
    same seat count with different players: each other player against the run's first."""
    by: dict[tuple, dict[tuple, dict]] = {}
    for v in manifest.get("variants", []):
        if "variant" not in v:
            continue
        key = (_run(v), int(v.get("players") or 0), _rules_key(v, drop))
        by.setdefault(key, {}).setdefault(_who(v), v)
    out = []
    for group in by.values():
        found = sorted(group.values(), key=lambda v: int(v["variant"]))
        out += [(found[0], other) for other in found[1:]]
    return out


def by_player(games, manifest: dict) -> pl.DataFrame:
    """SCHEMA: every answer a run gives for two players on the same shuffles (module doc)."""
    manifest = manifest or {}
    plain = matches(manifest)
    decks = _deck_pairs(manifest)
    wanted = {int(v["variant"]) for pair in plain for v in pair} | {
        x for a, b in decks for x in (a[0], a[1], b[0], b[1])}
    if not wanted:
        return pl.DataFrame(schema=SCHEMA)
    parts = [p.filter(pl.col("variant").is_in(list(wanted)))
             for p in pieces.of(games, ["variant", "seed", "winner", "pool_decides"])]
    g = pl.concat([p for p in parts if p.height] or parts[:1]).with_columns(
        pl.col("variant").cast(pl.Int64), pl.col("winner").cast(pl.Int64).fill_null(0))
    arm = {v: d.drop("variant") for (v,), d in g.partition_by("variant", as_dict=True).items()}
    rows = [r for a, b in plain if (r := _plain_row(a, b, arm)) is not None]
    rows += [r for a, b in plain if (r := _pool_row(a, b, arm)) is not None]
    rows += [r for a, b in decks if (r := _deck_row(a, b, arm)) is not None]
    alone = lever_runs(manifest)
    return pl.DataFrame([(*r, r[0] in alone) for r in rows], schema=SCHEMA, orient="row")


def _joined(arm: dict, a: int, b: int) -> pl.DataFrame | None:
    if a not in arm or b not in arm:
        return None
    both = arm[a].join(arm[b], on="seed", suffix="_b")
    return both if both.height else None


def _plain_row(a: dict, b: dict, arm: dict) -> tuple | None:
    both = _joined(arm, int(a["variant"]), int(b["variant"]))
    if both is None:
        return None
    computer, decks = played(a)
    wa, wb = both["winner"].to_numpy(), both["winner_b"].to_numpy()
    if computer:
        question, x, y = COMPUTER, wa >= 1, wb >= 1
    else:
        won = (wa >= 1) & (wb >= 1)
        question, x, y = FIRST, wa[won] == 1, wb[won] == 1
    d = paired.proportion_difference(x, y)
    if d is None:
        return None
    # The question names the decks against the Computer, the row need not.
    said = setting_words(a, ("decks",) if computer else ())
    return (_run(a), question, int(a.get("players") or 0), decks, said, "", "",
            players_text(a), players_text(b), d.n, float(np.mean(x)), float(np.mean(y)),
            d.estimate, d.low, d.high, d.found)


def _pool_row(a: dict, b: dict, arm: dict) -> tuple | None:
    both = _joined(arm, int(a["variant"]), int(b["variant"]))
    # A run recorded before the games table held the Pool's columns has no Pool question.
    if both is None or "pool_decides" not in both.columns:
        return None
    keep = (both["pool_decides"].is_not_null() & both["pool_decides_b"].is_not_null()).to_numpy()
    x = both["pool_decides"].to_numpy()[keep] > 0
    y = both["pool_decides_b"].to_numpy()[keep] > 0
    # Where the Pool decided no game with either player there is no answer to compare: the
    # Pool section says it never decides.
    if not (x.any() or y.any()):
        return None
    d = paired.proportion_difference(x, y)
    if d is None:
        return None
    computer, decks = played(a)
    said = setting_words(a, ("decks",) if computer else ())
    return (_run(a), POOL, int(a.get("players") or 0), decks, said, "", "",
            players_text(a), players_text(b), d.n, float(np.mean(x)), float(np.mean(y)),
            d.estimate, d.low, d.high, d.found)


def _deck_pairs(manifest: dict) -> list[tuple[tuple, tuple]]:
    """((A-B, B-A, hero A, hero B) of the reference, the same of another player) for every
    pair of heroes two players both play both ways round on the same other rules."""
    info = {int(v["variant"]): v for v in manifest.get("variants", []) if "variant" in v}
    by: dict[tuple, list[tuple]] = {}
    for ab, ba, a, b, run, _ in mirrored(manifest):
        v = info[ab]
        by.setdefault((run, a, b, _rules_key(v, HEROES)), []).append(
            (ab, ba, a, b, v))
    out = []
    for found in by.values():
        found = sorted(found, key=lambda x: x[0])
        out += [(found[0], other) for other in found[1:] if _who(other[4]) != _who(found[0][4])]
    return out


def _deck_row(a: tuple, b: tuple, arm: dict) -> tuple | None:
    shares = []
    for ab, ba, *_ in (a, b):
        both = _joined(arm, ab, ba)
        if both is None:
            return None
        shares.append(both.select("seed", ((pl.Series(score(both["winner"].to_numpy(), 1))
                                            + pl.Series(score(both["winner_b"].to_numpy(), 2)))
                                           / 2).alias("share")))
    x = shares[0].join(shares[1], on="seed", suffix="_b")
    if x.height == 0:
        return None
    d = paired.mean_difference(x["share"].to_numpy(), x["share_b"].to_numpy())
    va = a[4]
    return (_run(va), DECK, 2, played(va)[1], setting_words(va, HEROES), a[2], a[3],
            players_text(va), players_text(b[4]), d.n, float(x["share"].mean()),
            float(x["share_b"].mean()), d.estimate, d.low, d.high, d.found)
