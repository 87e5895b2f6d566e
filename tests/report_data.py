"""Synthetic runs in the runner's table schema, for the report tests (no engine needed).

`synthetic_run()` plays nothing: it draws plausible games from a seeded generator, so the same
arguments always give the same tables. One room, "Lucky Seam", is made to go with winning when
built early, so the room-value ranking has a known top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

ROOMS = ("Lucky Seam", "Fire Ruby Vein", "Electrum Well", "Straight Tunnel", "Mine Cart")

GAME_SCHEMA = {
    "experiment": pl.Utf8, "variant": pl.Int32, "game": pl.Int64, "seed": pl.Int64,
    "edition": pl.Utf8, "mode": pl.Utf8, "players": pl.Int16, "heuristic": pl.Utf8,
    "target": pl.Int32, "exhaust": pl.Boolean, "won": pl.Boolean, "end_reason": pl.Utf8,
    "turns": pl.Int16, "score": pl.Int16, "scores": pl.List(pl.Int16), "winner": pl.Int8,
    "score_by_turn": pl.List(pl.Int16), "target_turn": pl.Int16, "deck_out_turn": pl.Int16,
    "reshuffles": pl.Int16, "cards_burned": pl.Int16, "rooms_built": pl.Int16,
    "skills": pl.List(pl.Utf8), "engine_version": pl.Utf8,
}
SKILLS = ("Pathfinder", "Encore", "Blink", "Scavenger")
ROOM_SCHEMA = {
    "experiment": pl.Utf8, "variant": pl.Int32, "game": pl.Int64, "room": pl.Utf8,
    "turn": pl.Int16, "builder": pl.Int8, "points": pl.Int16, "uses": pl.Int16,
    "gained": pl.Int16,
}
DIFFICULTIES = {
    "1e": {"Apprentice": 35, "Journeyman": 40, "Artisan": 45, "Master": 50},
    "2e": {"Apprentice": 35, "Journeyman": 45, "Artisan": 55, "Expert": 65, "Master": 75},
}


@dataclass
class Run:
    """What `balance.running.store.read_run` returns, as far as the report reads it."""
    games: pl.DataFrame
    rooms: pl.DataFrame | None
    manifest: dict = field(default_factory=dict)


def game_schema(extra: dict | None = None) -> dict:
    return {**GAME_SCHEMA, **(extra or {})}


def games_frame(rows: list[dict], extra: dict | None = None) -> pl.DataFrame:
    """A games table from partial rows: missing columns are filled with neutral values."""
    schema = game_schema(extra)
    defaults = {"experiment": "test", "variant": 0, "seed": 0, "edition": "2e",
                "mode": "crisis", "players": 3, "heuristic": "greedy", "target": None,
                "exhaust": True, "won": False, "end_reason": "exhausted", "turns": 0,
                "score": 0, "scores": [], "winner": None, "score_by_turn": [],
                "target_turn": None, "deck_out_turn": None, "reshuffles": 0,
                "cards_burned": 0, "rooms_built": 0, "skills": [], "engine_version": "test-1"}
    full = []
    for i, r in enumerate(rows):
        row = {**defaults, "game": i, **r}
        if "turns" not in r and row["score_by_turn"]:
            row["turns"] = len(row["score_by_turn"])
        if "score" not in r and row["score_by_turn"]:
            row["score"] = row["score_by_turn"][-1]
        full.append({k: row.get(k) for k in schema})
    return pl.DataFrame(full, schema=schema)


def synthetic_run(games_per_variant: int = 60, seed: int = 1, rush: bool = True,
                  rooms: bool = True, exhausted: bool = True, fixed: bool = True,
                  first_edition: bool = True) -> Run:
    rng = np.random.default_rng(seed)
    variants: list[dict] = []
    game_rows: list[dict] = []
    room_rows: list[dict] = []

    def add_variant(edition, mode, players, target, exhaust):
        v = {"variant": len(variants), "edition": edition, "content": f"gemrush-{edition}",
             "mode": mode, "players": players, "heuristic": "greedy", "target": target,
             "exhaust": exhaust, "rules": {}, "difficulties": DIFFICULTIES[edition]}
        variants.append(v)
        return v

    plan = []
    if exhausted:
        plan += [("2e", "crisis", p, None, True) for p in (2, 3)]
    if fixed:
        plan += [("2e", "crisis", 3, 45, False)]
    if first_edition and exhausted:
        plan += [("1e", "crisis", 2, None, True)]
    if rush:
        plan += [("2e", "rush", p, 20, False) for p in (2, 3)]
    for spec in plan:
        v = add_variant(*spec)
        for g in range(games_per_variant):
            row, built = _game(rng, v, g)
            game_rows.append(row)
            if rooms:
                room_rows.extend(_rooms(rng, v, g, row, built))
    games = pl.DataFrame(game_rows, schema=GAME_SCHEMA)
    room_df = pl.DataFrame(room_rows, schema=ROOM_SCHEMA) if rooms else None
    manifest = {
        "experiment": "synthetic", "description": "Synthetic games for the report tests",
        "file": "experiments/synthetic.toml", "text": "[experiment]\nname = 'synthetic'\n",
        "hash": "0123456789abcdef", "engine_version": "test-1",
        "packages": {"polars": "1.0", "numpy": "2.0"}, "seed": seed,
        "games_per_variant": games_per_variant, "variants": variants,
    }
    return Run(games, room_df, manifest)


def _game(rng: np.random.Generator, v: dict, g: int) -> tuple[dict, bool]:
    players = v["players"]
    lucky = bool(rng.random() < 0.5)  # Lucky Seam built early: more points per turn
    base = {"experiment": "synthetic", "variant": v["variant"], "game": g,
            "seed": 1000 * v["variant"] + g, "edition": v["edition"], "mode": v["mode"],
            "players": players, "heuristic": v["heuristic"], "target": v["target"],
            "exhaust": v["exhaust"], "engine_version": "test-1", "winner": None,
            "rooms_built": int(rng.integers(8, 20)),
            "skills": [str(s) for s in rng.choice(SKILLS, size=players, replace=False)]}
    if v["mode"] == "rush":
        turns = int(rng.integers(4 * players, 12 * players))
        scores = [int(x) for x in rng.integers(5, 22, size=players)]
        capped = bool(rng.random() < 0.1)
        top = max(scores)
        winner = -1 if scores.count(top) > 1 else scores.index(top) + 1  # seats from 1
        sbt = list(np.linspace(0, top, turns).astype(int))
        return {**base, "won": not capped, "end_reason": "turn_cap" if capped else "rush_target",
                "turns": turns, "score": top, "scores": scores, "winner": winner,
                "score_by_turn": sbt, "target_turn": None if capped else turns,
                "deck_out_turn": int(rng.integers(10, 30)), "reshuffles": int(rng.integers(0, 3)),
                "cards_burned": 0}, lucky
    clock = int(rng.integers(22, 26)) if v["edition"] == "2e" else int(rng.integers(18, 24))
    rate = 1.7 + 0.3 * players / 3 + (0.7 if lucky else 0.0)
    steps = rng.poisson(rate, size=clock)
    sbt = [int(x) for x in np.cumsum(steps)]
    burn = 3 if v["edition"] == "2e" else 2
    deck_out = int(rng.integers(6, 14)) if rng.random() < 0.9 else None
    reshuffles = int(rng.integers(0, 4)) if deck_out is not None else 0
    end = "exhausted" if v["edition"] == "2e" else "cannot_burn"
    if v["exhaust"]:
        turns = clock
        won, target_turn = False, None
    else:
        t = v["target"]
        reached = [i + 1 for i, s in enumerate(sbt) if s >= t]
        if reached:
            turns, won, target_turn, end = reached[0], True, reached[0], "target"
        else:
            turns, won, target_turn = clock, False, None
        sbt = sbt[:turns]
        if deck_out is not None and deck_out > turns:
            deck_out, reshuffles = None, 0
    return {**base, "won": won, "end_reason": end, "turns": turns, "score": sbt[-1],
            "scores": [sbt[-1] // players] * players, "score_by_turn": sbt,
            "target_turn": target_turn, "deck_out_turn": deck_out, "reshuffles": reshuffles,
            "cards_burned": burn * turns}, lucky


def _rooms(rng: np.random.Generator, v: dict, g: int, row: dict, lucky: bool) -> list[dict]:
    base = {"experiment": "synthetic", "variant": v["variant"], "game": g}
    out = [{**base, "room": "Straight Tunnel", "turn": 0, "builder": -1, "points": 0,
            "uses": 0, "gained": 0}]
    turns = max(int(row["turns"]), 2)
    for room in ROOMS:
        if room == "Lucky Seam":
            if not lucky:
                if rng.random() < 0.3:  # sometimes built late
                    turn = turns
                else:
                    continue
            else:
                turn = int(rng.integers(1, max(2, turns // 3)))
            builder = 1 if v["mode"] == "crisis" or row["winner"] in (None, -1) else \
                row["winner"]
        else:
            if rng.random() < 0.3:
                continue
            turn = int(rng.integers(1, turns + 1))
            builder = int(rng.integers(1, v["players"] + 1))
        uses = 0 if room in ("Straight Tunnel", "Mine Cart") else int(rng.integers(0, 4))
        out.append({**base, "room": room, "turn": turn, "builder": builder,
                    "points": int(rng.integers(0, 4)), "uses": uses,
                    "gained": int(rng.integers(0, 2 * uses + 1)) if uses else 0})
    return out


def swept(run: Run, field_name: str, values: list[int]) -> Run:
    """The run repeated once per value of a swept rule field, as the runner writes a sweep:
    a column named after the field, new variant numbers, and the value in each variant's
    manifest `rules`."""
    n = len(run.manifest["variants"])
    games, rooms, variants = [], [], []
    for i, value in enumerate(values):
        games.append(run.games.with_columns((pl.col("variant") + i * n).cast(pl.Int32),
                                            pl.lit(value, pl.Int64).alias(field_name)))
        if run.rooms is not None:
            rooms.append(run.rooms.with_columns((pl.col("variant") + i * n).cast(pl.Int32)))
        variants += [{**v, "variant": v["variant"] + i * n, "rules": {field_name: value}}
                     for v in run.manifest["variants"]]
    manifest = {**run.manifest, "variants": variants}
    return Run(pl.concat(games), pl.concat(rooms) if rooms else None, manifest)
