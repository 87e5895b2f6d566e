"""A run folder's layout: the names of its files and folders, the keys of a shard file's
metadata, the largest files it can hold, its shards and their plan, and the game and
tables its manifest names."""

from __future__ import annotations

import re
from dataclasses import dataclass

from balance import files
from balance.contract import compat, registry
from balance.contract.experiment import MAX_VARIANTS
from balance.contract.game import Game, Table

MANIFEST = "manifest.json"
GAMES = "games"  # every game's first table (Game.games_table), the one that marks a shard done
LOCK = ".lock"
# Keys of a shard file's Parquet metadata. Shards written before the keys were neutral carry
# them under the game's name instead of "balance" ("<game>.shard"), and still read (_meta).
SHARD_META = b"balance.shard"  # the shard's provenance
# The digest of a shard file's rows: the sha256 of its bytes before the Parquet footer (the
# row groups), added to the footer as the file is written. A manifest with DIGESTS was
# written by a runner that records one in every shard, so a shard without one is refused.
SHARD_DIGEST = b"balance.rows_sha256"
# Seats count from 1 in the tables (Table.seat_columns). A shard written before issue 26
# counted them from 0 and carries no SEATS_KEY: its seat columns are renumbered as it is
# read, so that an old run, or one resumed across the change, reads as one. (A column whose
# type was widened since, Table.widened, is read as the widest likewise.)
SEATS_KEY = b"balance.seats_from"
SEATS_FROM = b"1"
DIGESTS = "shard_digests"
SHARD_RE = re.compile(r"^v(\d{5})-g(\d{12})-(\d{12})$")
# The largest files a run folder can hold. A manifest carries the experiment file's text and
# each variant's description; a patched variant carries its content file's text too (the
# shipped box is 40 KB). A shard's bytes grow with its games: 40 to 80 bytes a game today,
# and the longest game a game's rules allow stays far within GAME_BYTES.
VARIANT_BYTES = 64 * 2**10
MANIFEST_LIMIT = 64 * files.MiB + MAX_VARIANTS * VARIANT_BYTES
GAME_BYTES = 64 * 2**10
SHARD_BYTES = 16 * files.MiB


@dataclass(frozen=True, order=True)
class Shard:
    variant: int
    start: int
    stop: int

    @property
    def name(self) -> str:
        return f"v{self.variant:05d}-g{self.start:012d}-{self.stop:012d}"

    @property
    def games(self) -> int:
        return self.stop - self.start

    @property
    def limit(self) -> int:
        """The most bytes a shard file of these games can hold."""
        return SHARD_BYTES + self.games * GAME_BYTES

    @classmethod
    def parse(cls, name: str) -> Shard | None:
        m = SHARD_RE.match(name)
        if not m:
            return None
        v, a, b = (int(x) for x in m.groups())
        return cls(v, a, b) if a < b else None


def plan(variants: int, games: int, shard_size: int) -> list[Shard]:
    """Shards of fixed size at fixed offsets (the last of a variant may be shorter)."""
    return planned(variants, [(0, games, shard_size)])


# -- a run's layout -------------------------------------------------------------------------
# A run asked for more games than it holds plays the new games only, in a stretch of its own:
# games old..new, in shards of the size asked for now, from game `old`. Its shards before are
# never replaced, whatever their size, so no game is played twice. The manifest records the
# stretches (LAYOUT, [[start, stop, shard size], ...]) once there are two; a run of one
# stretch (every run made before issue 50) has none, and its games_per_variant and
# shard_size are its layout. A stretch that ends on a whole shard is continued in the same
# size as one stretch: doubling a run of whole shards adds shards as it always did.

LAYOUT = "layout"


def stretches(manifest: dict) -> list[tuple[int, int, int]]:
    """(first game, end, shard size) of each stretch of a run's games, in game order."""
    if LAYOUT in manifest:
        return [(a, b, size) for a, b, size in manifest[LAYOUT]]
    return [(0, manifest["games_per_variant"], manifest["shard_size"])]


def planned(variants: int, parts: list[tuple[int, int, int]]) -> list[Shard]:
    """Every shard of a run laid out in `parts` (stretches), in (variant, game) order."""
    return [Shard(v, a, min(a + size, stop)) for v in range(variants)
            for start, stop, size in parts for a in range(start, stop, size)]


def run_plan(manifest: dict) -> list[Shard]:
    """The shards a run's manifest lays out."""
    return planned(len(manifest["variants"]), stretches(manifest))


def shard_count(manifest: dict) -> int:
    """len(run_plan(manifest)), counted without listing them."""
    return len(manifest["variants"]) * sum(-(-(b - a) // n) for a, b, n in stretches(manifest))


def grown(manifest: dict, games: int, shard_size: int) -> dict:
    """The manifest of a run grown to `games` per variant, its new games in shards of
    `shard_size` from its last game on (the same manifest if it holds as many)."""
    parts = stretches(manifest)
    start, stop, size = parts[-1]
    if games <= stop:
        return manifest
    if size == shard_size and (stop - start) % size == 0:
        parts[-1] = (start, games, size)
    else:
        parts.append((stop, games, shard_size))
    out = {k: v for k, v in manifest.items() if k != LAYOUT}
    out.update(games_per_variant=games, shard_size=parts[-1][2])
    if len(parts) > 1:
        out[LAYOUT] = [list(p) for p in parts]
    return out


# -- the run's game ------------------------------------------------------------------------

def run_game(manifest: dict) -> Game:
    """The game a run's manifest names (one that names none: balance/contract/compat.py)."""
    return registry.get(compat.manifest_game(manifest), MANIFEST, "", "game")


def table_names(manifest: dict) -> tuple[str, ...]:
    """The run's tables in the order a shard writes them: the games table last."""
    return (*(t.name for t in run_game(manifest).tables[1:]), GAMES)


def _declared(manifest: dict, sub: str) -> Table:
    return run_game(manifest).table(sub)


def _meta(md, key: bytes, manifest: dict):
    """A shard file's metadata value under `key`, or under the key as shards written before
    the keys were neutral named it (the game's name for "balance"); None if it has none."""
    md = md or {}
    if key in md:
        return md[key]
    game = str(compat.manifest_game(manifest)).encode()
    return md.get(game + key[len(b"balance"):])


def _superseded(shards, done) -> set[Shard]:
    """The `shards` whose games a longer shard of `done` from the same start holds: a rerun
    that asked for more games played the longer one."""
    longest: dict[tuple[int, int], int] = {}
    for s in done:
        longest[s.variant, s.start] = max(longest.get((s.variant, s.start), 0), s.stop)
    return {s for s in shards if s.stop < longest.get((s.variant, s.start), 0)}
