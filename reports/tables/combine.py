"""Several runs of one game as one: the main job's report covers its runs together.

Variants are numbered per run, so each run's variants are renumbered after the previous runs'
(in the order given) in the games table, the game's other tables and the manifest; each variant
keeps its run's name and its own number (`from_run`, `run_variant`). The combined manifest
names every experiment, file and hash, and the game. Runs of different games are refused: no
section reads two games' tables as one.

Runs are kept apart unless the designer merges them: each variant's `run` (the run's name)
becomes part of its setting (reports/tables/frame.py), so the 4-player greedy games of a `players`
run are never added to those of another run, which the designer asked about on their own.
`merge=True` (`balance report --merge`) leaves `run` out, so that games of different runs
played under the same setting are counted together; reports/page/merge.py says where that happened
and refuses runs that would be counted together but were not played alike.

Two runs that hold the same games are refused (check_distinct): a run folder and a copy of it,
or two runs of one experiment into different folders. Game i of a variant is dealt from the
experiment's seed and i alone (balance/running/seeds.py), so such runs share every game they both
played; merged, each would count twice and every interval would be too narrow. They are
refused rather than counted once: the designer named two folders, and a page that silently
covered one of them would misstate what it reports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from balance.contract import compat, registry
from balance.errors import InputError, Problem
from balance.running.shard_table import ShardTable

# What decides a run's games beside the game index (store.IDENTITY without the shard size,
# which only cuts the same games into other files): runs that agree on all of these played
# the same game i of every variant. The shards' provenance (store.shard_meta) is checked
# against these keys of their manifest on read.
SAME_GAMES = ("experiment", "experiment_hash", "engine_version", "source_hash", "inputs",
              "seed")


@dataclass
class CombinedRun:
    games: object  # pl.DataFrame, or a balance.running.store ShardTable read piece by piece
    tables: dict  # the game's other tables by name (as the games), or None where a run lacks one
    manifest: dict

    def __getattr__(self, name: str):
        # A table by its name, as a run read by balance.running.store gives it.
        tables = self.__dict__.get("tables") or {}
        if name in tables:
            return tables[name]
        raise AttributeError(f"{type(self).__name__} has no table {name!r}")


def other_tables(run, game=None) -> dict:
    """A run's tables beside the games table, by name (None where it has no such table)."""
    game = game or registry.get(compat.manifest_game(run.manifest))
    return {t.name: getattr(run, t.name, None) for t in game.tables[1:]}


def game_name(manifests: list[dict], names: list[str] | None = None) -> str | None:
    """The one game the runs played (their manifests' `game`); InputError when they played
    several."""
    played = [registry.get(compat.manifest_game(m)).name for m in manifests]
    if len(set(played)) > 1:
        names = names or [f"run {i + 1}" for i in range(len(manifests))]
        raise InputError([Problem(
            ", ".join(names), "", "", "these runs played different games ("
            + ", ".join(f"{n}: {g}" for n, g in zip(names, played, strict=True))
            + "): report each game's runs apart")])
    return played[0] if played else None


def combine(runs: list, names: list[str] | None = None, merge: bool = False) -> CombinedRun:
    """Runs (anything with .games, .manifest and the game's other tables by name) as one run;
    `names` (their folders) name them if two hold the same games or played different games
    (InputError). Several runs are kept apart by each variant's `run` unless `merge` (see the
    module doc)."""
    game = game_name([r.manifest for r in runs], names)
    check_distinct(runs, names)
    if len(runs) == 1:
        r = runs[0]
        return CombinedRun(r.games, other_tables(r), r.manifest)
    labels = run_labels([r.manifest for r in runs], names)
    games, variants = [], []
    others: dict[str, list] = {}
    offset = 0
    for r, label in zip(runs, labels, strict=True):
        m = r.manifest
        # Merged, the seed and the games each variant played say whether two runs' games
        # are the same games (reports/page/merge.py refuses those).
        spans = _ranges(r.games) if merge else None
        shift = pl.col("variant") + offset
        games.append(_shifted(r.games, shift))
        for name, table in other_tables(r).items():
            others.setdefault(name, [])
            if table is not None:
                others[name].append(_shifted(table, shift))
        for v in m.get("variants", []):
            variants.append(dict(v, variant=int(v["variant"]) + offset,
                                 experiment=m.get("experiment"), from_run=label,
                                 run_variant=int(v["variant"]),
                                 **({"run_seed": m.get("seed"),
                                     "run_games": _played(spans, int(v["variant"]))}
                                    if merge else {"run": label})))
        # A run read piece by piece is a real run: its manifest names every variant.
        seen = r.games["variant"].to_list() if isinstance(r.games, pl.DataFrame) else []
        offset += max([int(v["variant"]) for v in m.get("variants", [])] + seen + [-1]) + 1
    manifests = [r.manifest for r in runs]

    def joined(key: str, sep: str = ", "):
        values = [str(m[key]) for m in manifests if m.get(key) is not None]
        return sep.join(dict.fromkeys(values)) or None  # each distinct value once, in order

    per_variant = {m.get("games_per_variant") for m in manifests}
    manifest = {
        "experiment": joined("experiment", " + "),
        "description": joined("description", " "),
        "file": joined("file"),
        "hash": joined("hash"),
        "text": "\n".join(f"# ---- {m.get('file') or m.get('experiment')} ----\n{m['text']}"
                          for m in manifests if m.get("text")),
        "engine_version": joined("engine_version"),
        "packages": manifests[0].get("packages", {}),
        "seed": joined("seed"),
        "games_per_variant": per_variant.pop() if len(per_variant) == 1 else None,
        "variants": variants,
        "merged": merge,
        **({"game": game} if any("game" in m for m in manifests) else {}),
    }
    # A table every run has is read as one; a run without it leaves the others' out too.
    return CombinedRun(
        _concat(games),
        {name: _concat(parts) if len(parts) == len(runs) else None
         for name, parts in others.items()},
        manifest)


def run_labels(manifests: list[dict], names: list[str] | None = None) -> list[str]:
    """The name each run goes by on the page: its experiment's name, or where two runs share
    one, its folder's name, or where those agree too, the folder as given."""
    names = names or [f"run {i + 1}" for i in range(len(manifests))]
    labels = [str(m.get("experiment") or Path(n).name) for m, n in
              zip(manifests, names, strict=True)]
    for pick in (lambda n: Path(n).name, str):
        if len(set(labels)) == len(labels):
            break
        clash = {x for x in labels if labels.count(x) > 1}
        labels = [pick(n) if x in clash else x for x, n in zip(labels, names, strict=True)]
    return labels


def _shifted(table, shift: pl.Expr):
    """A table, or one read shard by shard (balance.running.shard_table.ShardTable), renumbered."""
    if isinstance(table, pl.DataFrame):
        return table.with_columns(shift.cast(pl.Int32))
    return table.map(lambda df: df.with_columns(shift.cast(pl.Int32)) if "variant" in df.columns
                     else df)


def _concat(tables: list):
    if all(isinstance(t, pl.DataFrame) for t in tables):
        return pl.concat(tables, how="diagonal_relaxed")
    return ShardTable.concat([t if not isinstance(t, pl.DataFrame)
                              else ShardTable([lambda t=t: t], t.height, t.columns)
                              for t in tables])


def games_key(manifest: dict) -> str | None:
    """What decides the games of a run (SAME_GAMES), or None for a manifest that does not
    record it (a hand-made table): such a run is never taken for another."""
    m = dict(manifest, experiment_hash=manifest.get("experiment_hash") or manifest.get("hash"))
    if any(m.get(k) is None for k in ("experiment", "experiment_hash", "engine_version",
                                       "seed")):
        return None
    return json.dumps([m.get(k) for k in SAME_GAMES], sort_keys=True, default=str)


def check_distinct(runs: list, names: list[str] | None = None) -> None:
    """InputError naming both folders if two of the runs hold a game in common: the same
    experiment, seed, inputs and code (games_key), and a game index of one variant that both
    played."""
    names = names or [f"run {i + 1}" for i in range(len(runs))]
    keys = [games_key(r.manifest) for r in runs]
    for j in range(len(runs)):
        for i in range(j):
            if keys[i] is None or keys[i] != keys[j]:
                continue
            shared = _shared_game(runs[i].games, runs[j].games)
            if shared is not None:
                m = runs[i].manifest
                raise InputError([Problem(
                    names[j], "", "", f"holds the same games as {names[i]} (experiment "
                    f"{m.get('experiment')!r}, seed {m.get('seed')}, the same experiment file, "
                    f"inputs and code: both played {shared}); reported together each game "
                    "would count twice and every interval would be too narrow: report one "
                    "of them")])


def _ranges(games) -> list[tuple[int, int, int]] | None:
    """(variant, first game, last game + 1) of the games a table holds, or None if it does not
    say: a run read shard by shard names its shard files, a table in memory has the columns."""
    # lazy: the runner's store (and the experiment parser it imports) only for a run read
    # from its folder
    from balance.running.store.layout import Shard

    names = getattr(games, "names", None)
    if names is not None and not isinstance(games, pl.DataFrame):
        shards = [Shard.parse(n) for n in names if n is not None]
        if len(shards) == len(names) and all(shards):
            return [(s.variant, s.start, s.stop) for s in shards]
        return None
    if isinstance(games, pl.DataFrame) and {"variant", "game"} <= set(games.columns):
        spans = games.group_by("variant").agg(pl.col("game").min().alias("a"),
                                              pl.col("game").max().alias("b"))
        return [(int(v), int(a), int(b) + 1) for v, a, b in spans.rows()]
    return None


def _played(spans: list[tuple[int, int, int]] | None, variant: int) -> list | None:
    """The [first game, last game + 1] spans of one variant's games, or None where the table
    does not say (_ranges)."""
    if spans is None:
        return None
    return [[a, b] for v, a, b in sorted(spans) if v == variant]


def _shared_game(first, second) -> str | None:
    """A game both tables hold ("game 0 of variant 0"), or None if they share none."""
    a, b = _ranges(first), _ranges(second)
    if a is None or b is None:
        return "games" if first.height and second.height else None
    for va, sa, ea in sorted(a):
        for vb, sb, eb in b:
            if va == vb and sa < eb and sb < ea:
                return f"game {max(sa, sb)} of variant {va}"
    return None
