"""What every analysis shares: the games table's fixed columns, the "setting" a game was played
under, and the named difficulties and rule values of each variant (distribution summaries are
in reports/counts.py).

A *setting* is everything that defines a variant except the player count, the mode and how the
Crisis was played (to a target or to exhaustion): the edition, the content, the heuristic and
every swept rule field, and in a report of several runs the run (reports/combine.py). Analyses
group by setting and player count, so games that differ only in how they were recorded are
pooled, and a sweep never mixes its arms.
"""

from __future__ import annotations

import polars as pl

from balance.errors import InputError, Problems
from balance.games.gemrush.rules import load_profile

# The games table's fixed columns (the schema written by the runner). Any other column is a
# swept rule field.
GAME_COLUMNS = (
    "experiment", "variant", "game", "seed", "edition", "mode", "players", "heuristic",
    "went_first", "target", "exhaust", "won", "end_reason", "turns", "score", "scores",
    "winner", "score_by_turn", "target_turn", "deck_out_turn", "reshuffles", "cards_burned",
    "rooms_built", "skills", "engine_version", "source_hash",
)
# Columns the analyses read; a table missing one is refused with a clear message.
REQUIRED_GAME_COLUMNS = (
    "variant", "game", "edition", "mode", "players", "heuristic", "target", "exhaust", "won",
    "end_reason", "turns", "score", "scores", "winner", "score_by_turn", "target_turn",
    "deck_out_turn", "reshuffles", "cards_burned",
)
REQUIRED_ROOM_COLUMNS = ("variant", "game", "room", "turn", "builder", "points", "uses", "gained")
# Added by the report from the manifest (not in the runner's schema). `run` names the run a
# game comes from in a report of several runs, unless they are merged (reports/combine.py).
DERIVED_COLUMNS = ("content", "run", "setting", "base_setting")
CLOCK_END_REASONS = ("cannot_burn", "exhausted")
GROUP = ("setting", "players")


def check_columns(df: pl.DataFrame, required: tuple[str, ...], source: str) -> None:
    """Refuse a table that lacks a column the analyses read, naming every missing one."""
    probs = Problems(source)
    for c in required:
        if c not in df.columns:
            probs.add("", c, "is missing from the table")
    probs.raise_if_any()


def rule_columns(games: pl.DataFrame) -> list[str]:
    """The swept rule fields: every column outside the fixed schema, in the order the
    experiment's [grid] gives them (the games table keeps it)."""
    known = set(GAME_COLUMNS) | set(DERIVED_COLUMNS)
    return [c for c in games.columns if c not in known]


def setting_columns(games: pl.DataFrame) -> list[str]:
    """The columns that define a setting (see the module docstring)."""
    cols = ["edition"]
    if "content" in games.columns:
        cols.append("content")
    return cols + ["heuristic"] + rule_columns(games) + (["run"] if "run" in games.columns
                                                         else [])


def with_setting(games: pl.DataFrame) -> pl.DataFrame:
    """Add a `setting` label such as "2e" or "2e, hand_limit=5": the edition, then every other
    setting column that takes more than one value within an edition. Kept if already present."""
    if "setting" in games.columns:
        return games
    return games.with_columns(setting_label(games, setting_columns(games)).alias("setting"))


def with_base_setting(games: pl.DataFrame) -> pl.DataFrame:
    """Add `base_setting`: the setting label without the player (reports/gemrush/players.py compares
    players within it)."""
    cols = [c for c in setting_columns(games) if c != "heuristic"]
    return with_setting(games).with_columns(setting_label(games, cols).alias("base_setting"))


def setting_label(games: pl.DataFrame, cols: list[str]) -> pl.Expr:
    """The label of `cols` (the first is the edition): the edition, then every other column
    that takes more than one value within an edition; the run, when it is one of them, last
    in brackets: "2e, greedy (crisis-difficulty)"."""
    varying = [c for c in cols[1:] if games.height and
               games.group_by("edition").agg(pl.col(c).n_unique())[c].max() > 1]

    def part(c: str) -> pl.Expr:
        value = pl.col(c).cast(pl.Utf8).fill_null("default")
        if c in ("content", "heuristic"):
            return value
        return pl.lit(f"{c}=") + value

    parts = [pl.col("edition").cast(pl.Utf8).fill_null("?")] + [part(c) for c in varying
                                                                if c != "run"]
    label = pl.concat_str(parts, separator=", ")
    if "run" in varying:
        label = label + pl.lit(" (") + pl.col("run").cast(pl.Utf8).fill_null("?") + pl.lit(")")
    return label


def content_by_variant(manifest: dict | None) -> dict[int, str]:
    """The manifest's content name of each variant (the games table does not carry it)."""
    content: dict[int, str] = {}
    for v in (manifest or {}).get("variants", []):
        if "variant" in v:
            content.setdefault(int(v["variant"]), str(v.get("content") or ""))
    return content


def with_content(games: pl.DataFrame, content: dict[int, str]) -> pl.DataFrame:
    """Add `content` from content_by_variant's names, unless the table has it."""
    if "content" in games.columns or not content:
        return games
    # A column computed from the variant, not a join: a join copies every column of a million
    # games; this adds one and shares the rest.
    return games.with_columns(pl.col("variant").cast(pl.Int64).replace_strict(
        content, default=None, return_dtype=pl.Utf8).alias("content"))


def run_by_variant(manifest: dict | None) -> dict[int, str]:
    """The run each variant comes from, in a report of several runs that are not merged (the
    variants' `run`, reports/combine.py); empty otherwise."""
    return {int(v["variant"]): str(v["run"]) for v in (manifest or {}).get("variants", [])
            if "variant" in v and v.get("run") is not None}


def with_run(games: pl.DataFrame, runs: dict[int, str]) -> pl.DataFrame:
    """Add `run` from run_by_variant's names, unless the table has it or there are none."""
    if "run" in games.columns or not runs:
        return games
    return games.with_columns(pl.col("variant").cast(pl.Int64).replace_strict(
        runs, default=None, return_dtype=pl.Utf8).alias("run"))


def with_manifest_columns(games: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Add what the manifest says of each variant: its content, and its run (when a report
    reads several runs apart)."""
    return with_run(with_content(games, content_by_variant(manifest)), run_by_variant(manifest))


def with_variant_info(games: pl.DataFrame, manifest: dict | None) -> pl.DataFrame:
    """Add the manifest's `content` name (and `run`) per variant, then the setting label."""
    return with_setting(with_manifest_columns(games, manifest))


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
