"""What every Gem Rush analysis shares: the games table as the report reads it (LAYOUT: the
edition, the mode, the target and exhausted play tell kinds of games apart; the edition and the
content file name a version of the game), and the named Crisis difficulties and rule values of
each variant.

A Gem Rush setting is everything that defines a variant except the player count, the mode and
how the Crisis was played (to a target or to exhaustion): the edition, the content, the
heuristic and every swept rule field, and in a report of several runs the run
(reports/tables/frame.py).
"""

from __future__ import annotations

import polars as pl

from balance.errors import InputError
from balance.games.gemrush.game import GAME, GAMES, ROOMS
from balance.games.gemrush.rules import load_profile
from reports.tables import frame

LAYOUT = frame.Layout.of_table(GAMES.columns, keys=("edition", "mode", "target", "exhaust"),
                               lead="edition", setting=("edition", "content"),
                               derived=("content",), game=GAME)

# The games table's fixed columns (the schema written by the runner). Any other column is a
# swept rule field.
GAME_COLUMNS = LAYOUT.columns
# Columns the analyses read; a table missing one is refused with a clear message.
REQUIRED_GAME_COLUMNS = (
    "variant", "game", "edition", "mode", "players", "heuristic", "target", "exhaust", "won",
    "end_reason", "turns", "score", "scores", "winner", "score_by_turn", "target_turn",
    "deck_out_turn", "reshuffles", "cards_burned",
)
REQUIRED_ROOM_COLUMNS = tuple(c for c in ROOMS.columns if c != "experiment")
CLOCK_END_REASONS = ("cannot_burn", "exhausted")
GROUP = frame.GROUP


def rule_columns(games: pl.DataFrame) -> list[str]:
    return frame.rule_columns(games, LAYOUT)


def with_setting(games: pl.DataFrame) -> pl.DataFrame:
    """Add a `setting` label such as "2e" or "2e, hand limit 5": the edition, then every other
    setting column that takes more than one value within an edition. Kept if already present."""
    return frame.with_setting(games, LAYOUT)


def with_base_setting(games: pl.DataFrame) -> pl.DataFrame:
    """Add `base_setting`: the setting label without the player (reports/gemrush/players.py
    compares players within it)."""
    return frame.with_base_setting(games, LAYOUT)


def with_manifest_columns(games: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Add the manifest's `content` name of each variant (and `run`)."""
    return frame.with_manifest_columns(games, manifest, LAYOUT)


def with_variant_info(games: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Add the manifest's `content` name (and `run`) per variant, then the setting label."""
    return frame.with_variant_info(games, manifest, LAYOUT)


def difficulties(manifest: dict | None, games: pl.DataFrame) -> pl.DataFrame:
    """The named Crisis difficulties of every variant: (variant, difficulty, target).

    From the manifest's per-variant `difficulties`; a variant without them gets its edition's
    profile (`balance.games.gemrush.rules`), so an older manifest still gets its difficulties
    marked.
    """
    by_variant: dict[int, dict[str, int]] = {}
    for v in (manifest or {}).get("variants", []):
        if "variant" in v and v.get("difficulties"):
            by_variant[int(v["variant"])] = {str(k): int(t) for k, t in v["difficulties"].items()}
    found: dict[str, dict[str, int]] = {}
    rows = []
    for variant, edition in games.select("variant", "edition").unique().sort("variant").rows():
        named = by_variant.get(int(variant))
        if named is None:
            if edition not in found:
                found[edition] = profile_targets(edition)
            named = found[edition]
        rows.extend((int(variant), name, int(t)) for name, t in named.items())
    schema = {"variant": pl.Int64, "difficulty": pl.Utf8, "target": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row").sort("variant", "target", "difficulty")


def profile_targets(edition: str) -> dict[str, int]:
    """The named Crisis targets of an edition's profile (none for an unknown edition)."""
    try:
        return dict(load_profile(edition).crisis_targets)
    except InputError:
        return {}


def named_difficulties(games: pl.DataFrame, diffs: pl.DataFrame) -> pl.DataFrame:
    """The named difficulties of each (setting, players): setting, players, difficulty, target."""
    keys = (with_setting(games).select(pl.col("variant").cast(pl.Int64), "setting", "players")
            .unique())
    return (keys.join(diffs, on="variant").select("setting", "players", "difficulty", "target")
            .unique().sort("setting", "players", "target", "difficulty"))


def rule_value(games: pl.DataFrame, manifest: dict | None, name: str) -> pl.Expr:
    """An expression for a rule's value in each game: its column when the rule was swept,
    otherwise the manifest variant's `rules`, otherwise the edition's profile."""
    if name in games.columns:
        return pl.col(name)
    per_variant = {}
    for v in (manifest or {}).get("variants", []):
        rules = v.get("rules") or {}
        if "variant" in v and name in rules:
            try:
                per_variant[int(v["variant"])] = int(rules[name])
            except (TypeError, ValueError):
                continue
    per_edition = {}
    for edition in games["edition"].unique().drop_nulls().to_list():
        try:
            per_edition[edition] = int(load_profile(edition)[name])
        except (InputError, KeyError):
            continue
    by_edition = pl.col("edition").replace_strict(per_edition, default=None,
                                                  return_dtype=pl.Int64)
    by_variant = pl.col("variant").cast(pl.Int64).replace_strict(per_variant, default=None,
                                                                 return_dtype=pl.Int64)
    return pl.coalesce(by_variant, by_edition)


def crisis_games(games: pl.DataFrame) -> pl.DataFrame:
    return with_setting(games).filter(pl.col("mode") == "crisis")


def rush_games(games: pl.DataFrame) -> pl.DataFrame:
    return with_setting(games).filter(pl.col("mode") == "rush")
