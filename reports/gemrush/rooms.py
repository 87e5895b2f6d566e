"""Room value: how often and how early each room is built, what it scores and yields, and how
winning goes with building it early. An association, not a cause: strong players and lucky
draws build more rooms and win more games.

Only tiles built during play count (setup tiles, builder -1, are counted apart as `setup`).
The comparison unit is the game in Crisis (one team) and the seat in Rush (a game has one unit
per player; a unit wins when that seat is the sole winner). A unit "built it early" when its
first build of the room came at or before the median first-build turn of that room, over the
units that built it; the others (later or never) are the comparison group.

Crisis wins are counted at one reference target per (setting, players), see
`reference_targets`, from games played to exhaustion (final score >= target) and games played
to exactly that target (`won`).
"""

from __future__ import annotations

import polars as pl

from balance.stats.intervals import difference, wilson
from reports.gemrush import tally
from reports.gemrush.frame import crisis_games, named_difficulties
from reports.tables import counts, pieces

KEY = ["setting", "mode", "players"]
UNIT = ["variant", "game", "seat"]


def reference_targets(games, diffs: pl.DataFrame, difficulty: str | None = None
                      ) -> pl.DataFrame:
    """The Crisis target room value counts wins at, per (setting, players), from a games table
    or its tally.Tallies. With exhausted games: the named `difficulty` if given; else the
    named difficulty won closest to half the time, if it is won 10-90% of the time; else the
    median final team score (a comparison at a target nobody reaches, or everybody does, says
    nothing). Without exhausted games: the target its fixed games played most often.
    Columns: setting, players, target, label (e.g. "Artisan, 55 points")."""
    schema = {"setting": pl.Utf8, "players": pl.Int64, "target": pl.Int64, "label": pl.Utf8}
    t = tally.of(games)
    cg = crisis_games(t.kinds()).cast({"players": pl.Int64})
    named = named_difficulties(cg, diffs).cast({"players": pl.Int64})
    scores = t.table("score", "setting", "players").cast({"players": pl.Int64})
    fixed_targets = t.table("won", "setting", "players", "target").cast({"players": pl.Int64})
    rows = []
    for (setting, players), g in sorted(cg.group_by("setting", "players"), key=lambda kv: kv[0]):
        mine = named.filter((pl.col("setting") == setting) & (pl.col("players") == players))
        pick = None
        if g["exhaust"].fill_null(False).any() and mine.height:
            if difficulty is not None:
                hit = mine.filter(pl.col("difficulty") == difficulty)
                if hit.height:
                    pick = hit.row(0, named=True)
            else:
                s = scores.filter((pl.col("setting") == setting) & (pl.col("players") == players))
                rates = mine.with_columns(pl.col("target").map_elements(
                    lambda target, s=s: _share_at_least(s, target), return_dtype=pl.Float64)
                    .alias("rate"))
                best = (rates.filter(pl.col("rate").is_between(0.1, 0.9))
                        .with_columns((pl.col("rate") - 0.5).abs().alias("off"))
                        .sort("off", "target"))
                if best.height:
                    pick = best.row(0, named=True)
                else:
                    t_med = int(_median(s))
                    rows.append((setting, players, t_med,
                                 f"{t_med} points, the median team score: no named difficulty "
                                 "is won 10-90% of the time"))
                    continue
        if pick is not None:
            rows.append((setting, players, pick["target"],
                         f"{pick['difficulty']}, {pick['target']} points"))
            continue
        fixed = fixed_targets.filter((pl.col("setting") == setting)
                                     & (pl.col("players") == players))
        if fixed.height:
            played = (fixed.group_by("target").agg(pl.col("n").sum().alias("len"))
                      .sort(["len", "target"], descending=[True, False]))
            target = int(played["target"][0])
            name = mine.filter(pl.col("target") == target)["difficulty"]
            rows.append((setting, players, target,
                         f"{name[0]}, {target} points" if len(name) else f"{target} points"))
    return pl.DataFrame(rows, schema=schema, orient="row")


def _share_at_least(scores: pl.DataFrame, target: int) -> float | None:
    """The share of the games with a score whose score is at least `target`."""
    have = scores.filter(pl.col("score").is_not_null())
    total = int(have["n"].sum())
    if total == 0:
        return None
    return int(have.filter(pl.col("score") >= target)["n"].sum()) / total


def _median(scores: pl.DataFrame) -> float:
    """polars' median of the scores counted."""
    return counts.distribution(scores.with_columns(pl.lit(0).alias("_all")), "score",
                               ["_all"])["q50"][0]


def _groups(g: pl.DataFrame) -> pl.DataFrame:
    """variant -> setting, mode, players and an integer id `gid` of that triple (small)."""
    keys = g.select("variant", *KEY).unique()
    ids = keys.select(KEY).unique().sort(KEY).with_row_index("gid")
    return keys.join(ids, on=KEY)


def _game_key() -> pl.Expr:
    """One integer per game of the run, for fast distinct counts."""
    return pl.col("variant") * (1 << 32) + pl.col("game")


def _units(g: pl.DataFrame, groups: pl.DataFrame, refs: pl.DataFrame) -> pl.DataFrame:
    """One row per comparison unit: gid, variant, game, seat (-1 for the Crisis team) and win
    (null when the unit says nothing about the reference target)."""
    ref = (groups.join(refs.select("setting", "players", pl.col("target").alias("_ref")),
                       on=["setting", "players"], how="left").select("variant", "gid", "_ref"))
    crisis = (g.filter(pl.col("mode") == "crisis")
              .select("variant", "game", "exhaust", "score", "target", "won")
              .join(ref, on="variant")
              .with_columns(
                  pl.lit(-1, pl.Int64).alias("seat"),
                  pl.when(pl.col("exhaust").fill_null(False))
                  .then(pl.col("score") >= pl.col("_ref"))
                  .when(pl.col("target") == pl.col("_ref"))
                  .then(pl.col("won").fill_null(False))
                  .otherwise(None).alias("win")))
    rush = (g.filter(pl.col("mode") == "rush").select("variant", "game", "players", "winner")
            .join(groups.select("variant", "gid"), on="variant")
            .with_columns(pl.int_ranges(1, pl.col("players") + 1, dtype=pl.Int64).alias("seat"))
            .explode("seat")
            .with_columns((pl.col("winner").cast(pl.Int64) == pl.col("seat")).fill_null(False)
                          .alias("win")))
    cols = ["gid", *UNIT, "win"]
    return pl.concat([crisis.select(cols), rush.select(cols)])


GAME_COLUMNS = ["variant", "game", "mode", "players", "exhaust", "score", "target", "won",
                "winner"]
ROOM_COLUMNS = ["variant", "game", "room", "turn", "builder", "points", "uses", "gained"]
# The counts of each piece (_pair_counts) and the columns added up across pieces.
PAIR_SUMS = {"totals": ("games", "decided", "all_wins"),
             "made": ("tiles", "built", "points", "uses", "gained"),
             "setup": ("setup_tiles",), "first": ("len",)}


def room_value(games, rooms, diffs: pl.DataFrame, difficulty: str | None = None,
               room_names: pl.DataFrame | None = None, tallies: tally.Tallies | None = None
               ) -> pl.DataFrame:
    """One row per (setting, mode, players, room). Columns:

    games; built (games in which it was built at least once) and built_share; copies (tiles
    built per game); setup (setup tiles per game); median_turn (median first-build turn of the
    units that built it); points_per_build, uses_per_build (per tile built); gained_per_use
    (cards gained per ability use, null when never used); early_games/early_wins/early_rate/
    early_low/early_high (units that built it by median_turn) and other_* (the rest), with 95%
    Wilson intervals; diff = early_rate - other_rate with diff_low/diff_high (Newcombe);
    reference (what a win is: reaching a Crisis target, or the seat winning a Rush game).

    `games` and `rooms` are DataFrames or ShardTables (reports/tables/pieces.py); `tallies` the
    games' tally.Tallies when the caller has them. `room_names` (setting, room) adds rooms
    never built, so every room of the content shows.
    """
    t = tallies if tallies is not None else tally.of(games)
    refs = reference_targets(t, diffs, difficulty)
    groups = _groups(t.kinds().cast({"players": pl.Int64, "variant": pl.Int64}))
    # One pass over the games and their rooms, a shard at a time, keeping only counts: the
    # rooms of a million games are 26 million rows. The first builds are counted by turn and
    # by whether their unit won, so that the median turn, known only at the end, splits them.
    sums = counts.Sums(PAIR_SUMS)
    for game_piece, room_piece in pieces.paired(games, rooms, GAME_COLUMNS, ROOM_COLUMNS):
        sums.add(_pair_counts(game_piece, room_piece, groups, refs))
    added = {name: sums.total(name) for name in PAIR_SUMS}
    parts = {name: [] if table is None else [table] for name, table in added.items()}
    totals = _summed(parts["totals"], ["gid"], list(PAIR_SUMS["totals"]))
    made = _text(_summed(parts["made"], ["gid", "room"], list(PAIR_SUMS["made"])))
    setup = _text(_summed(parts["setup"], ["gid", "room"], list(PAIR_SUMS["setup"])))
    first = _summed(parts["first"], ["gid", "room", "first_turn", "win"], ["len"])
    median = _median_of_counts(first.group_by("gid", "room", "first_turn")
                               .agg(pl.col("len").sum()))
    early = _text(first.join(median, on=["gid", "room"])
                  .filter(pl.col("first_turn") <= pl.col("median_turn"))
                  .group_by("gid", "room")
                  .agg(pl.col("len").filter(pl.col("win").is_not_null()).sum()
                       .alias("early_games"),
                       pl.col("len").filter(pl.col("win").fill_null(False)).sum()
                       .alias("early_wins")))
    median = _text(median)
    # Every placed tile was built in play (made) or laid at setup.
    placed_names = pl.concat([made.select("gid", "room"), setup.select("gid", "room")]).unique()

    ids = groups.select("gid", *KEY).unique()
    names = placed_names.join(ids, on="gid").select("setting", "room").unique()
    if room_names is not None and room_names.height:
        names = pl.concat([names, room_names.select("setting", "room")]).unique()
    table = (totals.join(ids, on="gid")
             .join(names, on="setting", how="inner")
             .join(made, on=["gid", "room"], how="left")
             .join(setup, on=["gid", "room"], how="left")
             .join(median, on=["gid", "room"], how="left")
             .join(early, on=["gid", "room"], how="left")
             .join(refs.select("setting", "players", pl.col("label").alias("_ref")),
                   on=["setting", "players"], how="left")
             .with_columns(pl.col(c).fill_null(0) for c in
                           ("tiles", "built", "points", "uses", "gained", "setup_tiles",
                            "early_games", "early_wins"))
             .with_columns(
                 (pl.col("built") / pl.col("games")).alias("built_share"),
                 (pl.col("tiles") / pl.col("games")).alias("copies"),
                 (pl.col("setup_tiles") / pl.col("games")).alias("setup"),
                 _ratio("points", "tiles").alias("points_per_build"),
                 _ratio("uses", "tiles").alias("uses_per_build"),
                 _ratio("gained", "uses").alias("gained_per_use"),
                 (pl.col("decided") - pl.col("early_games")).alias("other_games"),
                 (pl.col("all_wins") - pl.col("early_wins")).alias("other_wins"),
                 pl.when(pl.col("mode") == "rush").then(pl.lit("the seat wins the game"))
                 .otherwise(pl.lit("the team reaches ") + pl.col("_ref").fill_null("no target"))
                 .alias("reference"))
             .sort([*KEY, "room"]))
    return _with_comparison(table).select(
        *KEY, "room", "games", "built", "built_share", "copies", "setup", "median_turn",
        "points_per_build", "uses_per_build", "gained_per_use",
        "early_games", "early_wins", "early_rate", "early_low", "early_high",
        "other_games", "other_wins", "other_rate", "other_low", "other_high",
        "diff", "diff_low", "diff_high", "reference")


def _pair_counts(games: pl.DataFrame, rooms: pl.DataFrame, groups: pl.DataFrame,
                 refs: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The counts of one piece of games and its rooms."""
    g = games.with_columns(pl.col("variant", "game", "players").cast(pl.Int64))
    u = _units(g, groups, refs)
    placed, tiles = _placed(rooms, g.select("variant", "game"), groups.select("variant", "gid",
                                                                              "mode"))
    first = _first_builds(tiles).join(u.select(*UNIT, "win"), on=UNIT, how="left")
    return {
        "totals": u.group_by("gid").agg(
            _game_key().n_unique().alias("games"),  # a game is never split between pieces
            pl.col("win").is_not_null().sum().alias("decided"),
            pl.col("win").fill_null(False).sum().alias("all_wins")),
        "made": tiles.group_by("gid", "room").agg(
            pl.len().alias("tiles"),
            _game_key().n_unique().alias("built"),
            pl.col("points").cast(pl.Int64).sum().alias("points"),
            pl.col("uses").cast(pl.Int64).sum().alias("uses"),
            pl.col("gained").cast(pl.Int64).sum().alias("gained")),
        "setup": placed.filter(pl.col("builder") < 0).group_by("gid", "room")
                       .agg(pl.len().alias("setup_tiles")),
        "first": first.group_by("gid", "room", "first_turn", "win").len(),
    }


def _placed(piece: pl.DataFrame, played: pl.DataFrame, sel: pl.DataFrame):
    """A piece of the rooms table joined to its games' groups: (all tiles, tiles built in
    play with the comparison seat: the builder in Rush, -1 for the Crisis team). Tiles of
    games not in `played` (variant, game) are left out."""
    piece = piece.select(pl.col("variant").cast(pl.Int64), pl.col("game").cast(pl.Int64),
                         # Categorical: an aggregate keyed by a String column would keep
                         # every piece's text buffers alive (polars' strings are views).
                         pl.col("room").cast(pl.Categorical), "turn", "builder", "points", "uses",
                         "gained")
    placed = (piece.join(played, on=["variant", "game"], how="semi")
              .join(sel, on="variant"))
    tiles = (placed.filter(pl.col("builder") >= 0)
             .with_columns(pl.when(pl.col("mode") == "rush")
                           .then(pl.col("builder").cast(pl.Int64))
                           .otherwise(pl.lit(-1, pl.Int64)).alias("seat")))
    return placed, tiles


def _first_builds(tiles: pl.DataFrame) -> pl.DataFrame:
    return tiles.group_by("gid", "room", *UNIT).agg(pl.col("turn").min().alias("first_turn"))


def _text(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(pl.col("room").cast(pl.Utf8))


def _summed(parts: list[pl.DataFrame], keys: list[str], values: list[str]) -> pl.DataFrame:
    """Per-piece aggregates added up (an empty table with these columns if none)."""
    if not parts:
        return pl.DataFrame(schema={**{k: pl.Int64 for k in keys},
                                    **{v: pl.Int64 for v in values}}).cast(
            {"gid": pl.UInt32, "room": pl.Utf8} if "room" in keys else {"gid": pl.UInt32})
    return pl.concat(parts).group_by(keys).agg(pl.col(v).sum() for v in values)


def _median_of_counts(hist: pl.DataFrame) -> pl.DataFrame:
    """The median first-build turn of each (gid, room) from counts of each turn: the mean of
    the two middle values (polars' median), found by cumulative counts."""
    ordered = (hist.sort("gid", "room", "first_turn")
               .with_columns(pl.col("len").cum_sum().over("gid", "room").alias("_cum"),
                             pl.col("len").sum().over("gid", "room").alias("_n")))
    lo = (ordered.filter(pl.col("_cum") > (pl.col("_n") - 1) // 2)
          .group_by("gid", "room").agg(pl.col("first_turn").first().alias("_lo")))
    hi = (ordered.filter(pl.col("_cum") > pl.col("_n") // 2)
          .group_by("gid", "room").agg(pl.col("first_turn").first().alias("_hi")))
    return lo.join(hi, on=["gid", "room"]).select(
        "gid", "room", ((pl.col("_lo") + pl.col("_hi")) / 2).alias("median_turn"))


def first_build_when(median_turn: float | None, players: int, mode: str
                     ) -> tuple[float | None, str]:
    """A median first-build turn as the game's length counts it: (value, unit). The rooms
    table records the turn a tile was placed in from 0, every player's turn counted; a Rush
    game is counted in rounds (its target and its cap are), so turn t is round t // players
    + 1 (turn 19 of a 4-player game is round 5); a Crisis game in turns, from 1."""
    if median_turn is None:
        return None, "round" if mode == "rush" else "turn"
    if mode == "rush":
        return float(int(median_turn) // max(1, players) + 1), "round"
    return median_turn + 1, "turn"


def _ratio(num: str, den: str) -> pl.Expr:
    return pl.when(pl.col(den) > 0).then(pl.col(num) / pl.col(den)).otherwise(None)


def _with_comparison(table: pl.DataFrame) -> pl.DataFrame:
    cols: dict[str, list] = {k: [] for k in (
        "early_rate", "early_low", "early_high", "other_rate", "other_low", "other_high",
        "diff", "diff_low", "diff_high")}
    for ke, ne, ko, no in table.select("early_wins", "early_games", "other_wins",
                                       "other_games").rows():
        for arm, k, n in (("early", ke, ne), ("other", ko, no)):
            ci = wilson(int(k), int(n))
            cols[f"{arm}_rate"].append(k / n if ci else None)
            cols[f"{arm}_low"].append(ci[0] if ci else None)
            cols[f"{arm}_high"].append(ci[1] if ci else None)
        d = difference(int(ke), int(ne), int(ko), int(no))
        cols["diff"].append(d[0] if d else None)
        cols["diff_low"].append(d[1] if d else None)
        cols["diff_high"].append(d[2] if d else None)
    return table.with_columns(pl.Series(k, v, dtype=pl.Float64) for k, v in cols.items())


def room_ranking(value: pl.DataFrame) -> pl.DataFrame:
    """Rooms of each (setting, mode) ranked by their win-rate difference, averaged over player
    counts weighted by the units compared (rooms with no comparison are left out).
    Columns: setting, mode, room, diff, units, rank (1 = the strongest association)."""
    have = value.filter(pl.col("diff").is_not_null()).with_columns(
        (pl.col("early_games") + pl.col("other_games")).alias("units"))
    out = (have.group_by("setting", "mode", "room")
           .agg(((pl.col("diff") * pl.col("units")).sum() / pl.col("units").sum()).alias("diff"),
                pl.col("units").sum())
           .sort(["setting", "mode", "diff", "room"], descending=[False, False, True, False]))
    return out.with_columns(pl.int_range(1, pl.len() + 1).over("setting", "mode").alias("rank"))
