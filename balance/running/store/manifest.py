"""A run's manifest: written, read back within its bounds, and what makes two runs the same
experiment (identity_refusal)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from balance import files
from balance.contract import compat
from balance.contract.experiment import MAX_VARIANTS
from balance.errors import Problems
from balance.running.experiment import MAX_GAMES, MAX_SHARD_SIZE, MAX_SHARDS
from balance.running.provenance import changed_sources
from balance.running.store.layout import (
    LAYOUT,
    MANIFEST,
    MANIFEST_LIMIT,
    shard_count,
)

# What makes two runs the same experiment. The game count is not part of it: a rerun may ask
# for more games per variant (new shards are added), never fewer; nor the shard size of the
# games played now (`balance run --shard-size`), which only cuts the same games into other
# files (layout.grown). `experiment_hash` is the parsed file's (comments do not count; a
# file's own shard_size does); `hash`, of its text, is kept for the record only.
IDENTITY = ("experiment", "experiment_hash", "engine_version", "source_hash", "inputs", "seed")
# A manifest written before runs recorded their code lacks the newer keys; it can still be
# read and reported, never resumed.
REQUIRED = ("experiment", "hash", "engine_version", "inputs", "seed", "shard_size", "variants",
            "games_per_variant")


def manifest_text(manifest: dict) -> str:
    """Deterministic JSON: sorted keys, no timestamps, so a report of it is reproducible."""
    return json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_manifest(run_dir: Path, manifest: dict) -> None:
    files.write_atomic(Path(run_dir) / MANIFEST, manifest_text(manifest).encode("utf-8"))


def read_manifest(run_dir: str | Path) -> dict:
    run_dir = Path(run_dir)
    path = run_dir / MANIFEST
    probs = Problems(str(run_dir))
    if not os.path.lexists(path):
        probs.add("", "", f"no {MANIFEST}: not a run folder (make one with `balance run`)")
        probs.raise_if_any()
    raw = files.read_bytes(path, "run manifest", MANIFEST_LIMIT)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        probs.add("", MANIFEST, f"cannot be read ({str(e)[:160] or 'nested too deeply'})")
        probs.raise_if_any()
    if not isinstance(data, dict) or any(k not in data for k in REQUIRED):
        missing = [k for k in REQUIRED if not isinstance(data, dict) or k not in data]
        probs.add("", MANIFEST, f"is not a run manifest (missing: {', '.join(missing)})")
        probs.raise_if_any()
    types = {"seed": int, "shard_size": int, "games_per_variant": int, "variants": list,
             "inputs": dict, "experiment": str, "engine_version": str}
    for key, kind in types.items():
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool) or (
                kind is int and value < (0 if key == "seed" else 1)):
            probs.add("", f"{MANIFEST}: {key}", f"must be {kind.__name__}"
                      f"{' >= 1' if kind is int and key != 'seed' else ''}, got "
                      f"{_short(value)}: the manifest is damaged")
    probs.raise_if_any()
    _manifest_bounds(data, probs)
    probs.raise_if_any()
    return data


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 120 else f"{text[:120]}... ({len(text):,} characters)"


def _manifest_bounds(data: dict, probs: Problems) -> None:
    """The limits an experiment file is held to (balance.running.experiment), applied to the
    manifest
    read back: a damaged one must not plan 10^13 shards before anything is read."""
    variants, games, size = data["variants"], data["games_per_variant"], data["shard_size"]
    if not 1 <= len(variants) <= MAX_VARIANTS:
        probs.add("", f"{MANIFEST}: variants", f"lists {len(variants):,} variants, where a run "
                  f"has 1 to {MAX_VARIANTS:,}: the manifest is damaged")
        return
    for i, v in enumerate(variants):
        if not isinstance(v, dict) or v.get("variant") != i:
            got = v.get("variant") if isinstance(v, dict) else _short(v)
            probs.add("", f"{MANIFEST}: variants", f"entry {i} is variant {got}, not {i} (one "
                      "was dropped or moved): the manifest is damaged")
            return
    if games > MAX_GAMES or size > MAX_SHARD_SIZE:
        key, value, most = (("games_per_variant", games, MAX_GAMES) if games > MAX_GAMES
                            else ("shard_size", size, MAX_SHARD_SIZE))
        probs.add("", f"{MANIFEST}: {key}", f"is {value:,}, more than a run can have "
                  f"({most:,}): the manifest is damaged")
        return
    if LAYOUT in data:
        why = _layout_problem(data[LAYOUT], games, size)
        if why:
            probs.add("", f"{MANIFEST}: {LAYOUT}", f"{why}: the manifest is damaged")
            return
    shards = shard_count(data)
    if shards > MAX_SHARDS:
        probs.add("", f"{MANIFEST}: games_per_variant", f"{games:,} games per variant x "
                  f"{len(variants):,} variant(s) in shards of {size:,} make {shards:,} shards, "
                  f"more than a run can have ({MAX_SHARDS:,}): the manifest is damaged")


def _layout_problem(layout, games: int, size: int) -> str | None:
    """Why a manifest's layout (layout.stretches) is not one a run writes, or None: two or
    more stretches [first game, end, shard size], one after another from game 0 to
    games_per_variant, the last in shards of shard_size."""
    if not isinstance(layout, list) or len(layout) < 2:
        return f"is {_short(layout)}, not a list of two or more stretches"
    at = 0
    for part in layout:
        if not (isinstance(part, list) and len(part) == 3 and all(
                isinstance(x, int) and not isinstance(x, bool) for x in part)):
            return f"holds {_short(part)}, not [first game, end, shard size]"
        a, b, n = part
        if a != at or b <= a or not 1 <= n <= MAX_SHARD_SIZE:
            return (f"holds {part}, where a stretch from game {at:,} in shards of 1 to "
                    f"{MAX_SHARD_SIZE:,} games was due")
        at = b
    if at != games or layout[-1][2] != size:
        return (f"ends at game {at:,} in shards of {layout[-1][2]:,}, where games_per_variant "
                f"says {games:,} and shard_size {size:,}")
    return None


def identity_refusal(old: dict, manifest: dict) -> str | None:
    """Why the games of `old` cannot be mixed with those `manifest` would play, or None."""
    if compat.manifest_game(old) != compat.manifest_game(manifest):
        return (f"it holds games of {compat.manifest_game(old)}, and this experiment "
                f"plays {compat.manifest_game(manifest)}")
    if "source_hash" not in old or "experiment_hash" not in old:
        return ("its games were played before runs recorded the hash of their code, so "
                "they cannot be told apart from this code's games")
    if old["experiment_hash"] != manifest["experiment_hash"]:
        return (f"it holds games of a different experiment file ({old['file']}); this one "
                f"({manifest['file']}) differs in more than comments or layout, and results "
                "are never mixed")
    if old["source_hash"] != manifest["source_hash"]:
        changed = changed_sources(old.get("sources", {}), manifest.get("sources", {}))
        return (f"its games were played by other engine or player code or data files "
                f"(sources {old['source_hash']}, now {manifest['source_hash']}; changed: "
                f"{', '.join(changed) or 'unknown'}), and results are never mixed")
    if old["engine_version"] != manifest["engine_version"]:
        return (f"its games were played by engine version {old['engine_version']}, this is "
                f"engine version {manifest['engine_version']}, and results are never mixed")
    changed = sorted(k for k in set(old["inputs"]) | set(manifest["inputs"])
                     if old["inputs"].get(k) != manifest["inputs"].get(k))
    if changed:
        return f"{', '.join(changed)} changed since its games were played, and results are " \
            "never mixed"
    for key in IDENTITY:
        if old[key] != manifest[key]:
            return f"its manifest differs in {key!r}"
    return None
