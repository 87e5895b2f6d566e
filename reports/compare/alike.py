"""Variants that played alike: two versions of a run (two players, most often) whose every game,
dealt from the same seed, left the same record.

A run records no choices, only what they led to: every column of the game's games table that is
not the variant's own setting (its player, player count, rules as the manifest records them) or
the code that played it. When each game of one variant has the same record as the same game of
another, nothing the games show tells the two apart: two players played alike on these games, a
rule change changed no game. A designer who reads "learned: no difference found" should know
that the two never made a different choice, rather than that the difference was too small.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import polars as pl

from reports.render import text
from reports.tables import variants

# Columns of every games table that say which variant and code played a game, not how it went
# (balance/contract/game.py, CORE_COLUMNS).
NOT_PLAY = ("experiment", "variant", "players", "heuristic", "engine_version", "source_hash",
            # the decisions asked and the options each offered, not the choices taken: a part
            # made plain asks one question fewer (declined) where the same game is played
            "decisions", "branching")


@dataclass(frozen=True)
class Alike:
    variants: tuple[int, ...]  # two or more, in variant order
    labels: tuple[str, ...]
    games: int  # the games each played
    players: bool  # they differ by their players alone

    def sentence(self) -> str:
        names = text.join_words(list(self.labels))
        n = f"{self.games:,}"
        if self.players:
            return (f"{names} made the same choices in every game: each of the {n} games they "
                    "played from the same seeds left the same record, so no difference "
                    "between them can be found on these games.")
        return (f"{names} played every game alike: each of the {n} games from the same seeds "
                "left the same record, so the change between them changed no game.")


def record_columns(game, manifest: dict) -> list[str]:
    """The columns of the game's games table that record how a game went."""
    setting = {k for v in manifest.get("variants", []) for k in v}
    return [c for c in game.games_table.columns if c not in NOT_PLAY and c not in setting
            and c != "game"]


def alike(games: pl.DataFrame, manifest: dict, columns: list[str], base_of: dict[int, int],
          names: list[str]) -> list[Alike]:
    """Every group of two or more variants of one setting (the same baseline in `base_of`:
    reports/tables/variants.py, baselines_by_setting) whose games have the same record in
    `columns` (those of them the games table holds), game by game; `names` their labels."""
    cols = [c for c in columns if c in games.columns]
    if not cols or games.height == 0 or "variant" not in games.columns:
        return []
    info = {int(v["variant"]): v for v in manifest.get("variants", [])}
    arms, groups = {}, {}
    for key, arm in games.select("variant", "game", *cols).partition_by(
            "variant", as_dict=True, include_key=False).items():
        v = int(key[0] if isinstance(key, tuple) else key)
        if v in info and arm.height:
            arms[v] = arm.sort("game")
            digest = hashlib.sha256(arms[v].hash_rows(seed=1).to_numpy().tobytes()).digest()
            groups.setdefault((base_of.get(v, v), digest), []).append(v)
    out = []
    for vs in sorted(sorted(g) for g in groups.values()):
        # A digest of row hashes could collide; equal tables cannot.
        same = [v for v in vs if arms[v].equals(arms[vs[0]])]
        if len(same) < 2:
            continue
        swept = [info[v].get("swept") or {} for v in same]
        differ = {k for s in swept for k in s if any(t.get(k) != s.get(k) for t in swept)}
        out.append(Alike(tuple(same), tuple(names[v] for v in same), arms[same[0]].height,
                         bool(differ) and differ <= set(variants.PLAYER_KEYS)))
    return out
