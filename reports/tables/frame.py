"""What every analysis shares: which columns of a games table are the game's own, the "setting" a
game was played under, and the columns the report adds from the manifest (distribution
summaries are in reports/tables/counts.py).

A game's games table starts with the neutral core columns (balance/contract/game.py,
CORE_COLUMNS), then the game's own; any other column is a rule the experiment swept. A
`Layout` says how the report reads a game's table: which of its columns tell kinds of games
apart, which name a version of the game, and which the report adds from the manifest. A
game's report declares its layout (reports/page/game_report.py); the neutral one reads the core
columns alone.

A *setting* is everything that defines a variant except the player count and the kind of game:
the layout's setting columns, the players (heuristic), every swept rule field, and in a report
of several runs the run (reports/tables/combine.py). Analyses group by setting and player count, so
games that differ only in how they were recorded are pooled, and a sweep never mixes its arms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from balance.contract import labels as designer
from balance.contract.game import CORE_COLUMNS
from balance.errors import Problems

# Added by the report (not in any game's table). `run` names the run a game comes from in a
# report of several runs, unless they are merged (reports/tables/combine.py).
DERIVED_COLUMNS = ("run", "setting", "base_setting")
GROUP = ("setting", "players")

# Arrow types as a game declares them (balance/contract/game.py, Table.columns), as polars
# types: what an empty run's key columns are made of.
_TYPES = {"string": pl.Utf8, "bool": pl.Boolean, "int8": pl.Int8, "int16": pl.Int16,
          "int32": pl.Int32, "int64": pl.Int64, "float32": pl.Float32, "float64": pl.Float64}


@dataclass(frozen=True)
class Layout:
    """How the report reads a game's games table."""

    columns: tuple[str, ...] = tuple(CORE_COLUMNS)  # the table's declared columns
    types: tuple[tuple[str, str], ...] = ()  # (column, arrow type) of the declared columns
    # The game's columns that tell kinds of games apart beside the variant, the player count
    # and the players: games of two kinds are never counted together.
    keys: tuple[str, ...] = ()
    # The column every setting label starts with, and the other columns that name a version
    # of the game (shown in the label when they vary within the first).
    lead: str = "heuristic"
    setting: tuple[str, ...] = ()
    # Columns the report adds from the manifest's variants (the value of each variant's key
    # of that name), beside `run`.
    derived: tuple[str, ...] = ()
    # The game whose words a setting label is written in (balance/contract/labels.py); None
    # writes `column=value`, for a table of no game known.
    game: object = field(default=None, compare=False, repr=False)

    @classmethod
    def of_table(cls, columns: dict[str, str], **kw) -> Layout:
        return cls(columns=tuple(columns), types=tuple(columns.items()), **kw)

    def polars_type(self, column: str):
        """The polars type of a declared scalar column (Utf8 when not declared)."""
        return _TYPES.get(dict(self.types).get(column, ""), pl.Utf8)

    @property
    def added(self) -> tuple[str, ...]:
        """Every column the report adds."""
        return (*self.derived, *DERIVED_COLUMNS)


NEUTRAL = Layout()


def check_columns(df: pl.DataFrame, required: tuple[str, ...], source: str) -> None:
    """Refuse a table that lacks a column the analyses read, naming every missing one."""
    probs = Problems(source)
    for c in required:
        if c not in df.columns:
            probs.add("", c, "is missing from the table")
    probs.raise_if_any()


def rule_columns(games: pl.DataFrame, layout: Layout = NEUTRAL) -> list[str]:
    """The swept rule fields: every column outside the game's declared table and the columns
    the report adds, in the order the experiment's [grid] gives them (the games table keeps
    it)."""
    known = set(layout.columns) | set(layout.added)
    return [c for c in games.columns if c not in known]


def setting_columns(games: pl.DataFrame, layout: Layout = NEUTRAL) -> list[str]:
    """The columns that define a setting (see the module doc), the lead first."""
    cols = [layout.lead] + [c for c in layout.setting if c != layout.lead and c in games.columns]
    if layout.lead != "heuristic":
        cols.append("heuristic")
    return cols + rule_columns(games, layout) + (["run"] if "run" in games.columns else [])


def with_setting(games: pl.DataFrame, layout: Layout = NEUTRAL) -> pl.DataFrame:
    """Add a `setting` label such as "2e" or "2e, hand limit 5": the lead column, then every
    other setting column that takes more than one value within one lead value, in the
    layout's game's words. Kept if already present."""
    if "setting" in games.columns:
        return games
    return games.with_columns(setting_label(games, setting_columns(games, layout),
                                            layout.setting, layout.game).alias("setting"))


def with_base_setting(games: pl.DataFrame, layout: Layout = NEUTRAL) -> pl.DataFrame:
    """Add `base_setting`: the setting label without the players (heuristic), to compare
    players within it."""
    cols = [c for c in setting_columns(games, layout) if c != "heuristic"]
    label = setting_label(games, cols, layout.setting, layout.game) if cols \
        else pl.lit("every setting")
    return with_setting(games, layout).with_columns(label.alias("base_setting"))


def setting_label(games: pl.DataFrame, cols: list[str], plain: tuple[str, ...] = (),
                  game=None) -> pl.Expr:
    """The label of `cols` (the first leads): its value, then every other column that takes
    more than one value within one value of the first (in `game`'s words, "board length 6",
    or `column=value` where no game is given; the value alone for the lead, the players and
    the columns in `plain`, in `game`'s words where it gives them (a player's title, a
    value the game names: labels.value_alone); a null one, a rule its run does not sweep,
    left out); the run, when it is one of them and two runs would give the same label, last
    in brackets: "Expert, Novice (main-run)". Players that lead (the neutral layout) are left
    out where one player plays every row and another column tells the rows apart."""
    lead = cols[0]
    varying = [c for c in cols[1:] if games.height and
               games.group_by(lead).agg(pl.col(c).n_unique())[c].max() > 1]

    def said(c: str, words) -> pl.Expr:
        # Each value of `c` in the run, as `words` writes it (a null, none of them).
        out = {v: words(v) for v in games.get_column(c).drop_nulls().unique().to_list()}
        return pl.col(c).replace_strict(out, default=None, return_dtype=pl.Utf8) \
            if out else pl.lit(None, pl.Utf8)

    def alone(c: str) -> pl.Expr:
        if game is None:
            return pl.col(c).cast(pl.Utf8)
        return said(c, lambda v: designer.value_alone(game, c, v))

    def part(c: str) -> pl.Expr:
        if c == "heuristic" or c in plain:
            return alone(c).fill_null("default")
        # A column a run does not sweep (null in its games) is left out of its label: a report
        # of several runs would otherwise name every rule any of them swept, "=default" each.
        if game is None:
            return pl.lit(f"{c}=") + pl.col(c).cast(pl.Utf8)
        return said(c, lambda v: designer.value_words(game, c, v))

    first = alone(lead).fill_null("?")
    rest = [part(c) for c in varying if c != "run"]
    label = pl.concat_str([first, *rest], separator=", ", ignore_nulls=True)
    if lead == "heuristic" and rest and games.get_column(lead).n_unique() == 1:
        # One player plays every setting: the page says so once (the summary's "Played by"),
        # and a chart's every row starting with its name would hide what tells them apart. A
        # setting that changes nothing else keeps the name: it has no other.
        others = pl.concat_str(rest, separator=", ", ignore_nulls=True)
        label = pl.when(others.fill_null("") == "").then(first).otherwise(others)
    if "run" in varying:
        # The run only where two runs give the same label: elsewhere the rows are told apart
        # without it, and a chart's every row would carry it.
        run = pl.col("run").cast(pl.Utf8).fill_null("?")
        runs = (games.select(label.alias("_label"), run.alias("_run")).unique()
                .group_by("_label").agg(pl.col("_run").n_unique().alias("_runs")))
        shared = runs.filter(pl.col("_runs") > 1)["_label"].to_list()
        if shared:
            label = pl.when(label.is_in(shared)).then(
                label + pl.lit(" (") + run + pl.lit(")")).otherwise(label)
    return label


def by_variant(manifest: dict | None, key: str) -> dict[int, str]:
    """The manifest's value of `key` for each variant that has one (the games table does not
    carry it)."""
    out: dict[int, str] = {}
    for v in (manifest or {}).get("variants", []):
        if "variant" in v:
            out.setdefault(int(v["variant"]), str(v.get(key) or ""))
    return out


def run_by_variant(manifest: dict | None) -> dict[int, str]:
    """The run each variant comes from, in a report of several runs that are not merged (the
    variants' `run`, reports/tables/combine.py); empty otherwise."""
    return {int(v["variant"]): str(v["run"]) for v in (manifest or {}).get("variants", [])
            if "variant" in v and v.get("run") is not None}


def with_column(games: pl.DataFrame, name: str, values: dict[int, str]) -> pl.DataFrame:
    """Add `name` from a value per variant, unless the table has it or there are none."""
    if name in games.columns or not values:
        return games
    # A column computed from the variant, not a join: a join copies every column of a million
    # games; this adds one and shares the rest.
    return games.with_columns(pl.col("variant").cast(pl.Int64).replace_strict(
        values, default=None, return_dtype=pl.Utf8).alias(name))


def with_manifest_columns(games: pl.DataFrame, manifest: dict | None,
                          layout: Layout = NEUTRAL) -> pl.DataFrame:
    """Add what the manifest says of each variant: the layout's derived columns, and its run
    (when a report reads several runs apart)."""
    for name in layout.derived:
        games = with_column(games, name, by_variant(manifest, name))
    return with_column(games, "run", run_by_variant(manifest))


def with_variant_info(games: pl.DataFrame, manifest: dict | None,
                      layout: Layout = NEUTRAL) -> pl.DataFrame:
    """Add the manifest's columns per variant, then the setting label."""
    return with_setting(with_manifest_columns(games, manifest, layout), layout)
