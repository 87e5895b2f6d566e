"""Every analysis of a Gem Rush run at once, as the report uses them: `analyse(games, rooms,
manifest)`.

Each field is a polars table from one of the concept modules (crisis, rooms, burn, and the
Rush games' outcomes, reports/outcomes/outcomes.py); see their docstrings for the columns. An
analysis that has no games to work on is an empty table. None holds a row per game: the games are
counted first (reports/gemrush/tally.py), and every table and figure is made from the counts,
so the report of ten million games fits in memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from balance.errors import InputError
from balance.games.gemrush.content import load_content
from reports.gemrush import burn, crisis, frame, players, rooms, rush, skills, tally
from reports.outcomes import analysis
from reports.tables.frame import check_columns


@dataclass(frozen=True)
class Analysis(analysis.Analysis):
    """`outcomes` are the Rush games' (rush.of), in rounds."""

    difficulties: pl.DataFrame     # variant, difficulty, target
    named: pl.DataFrame            # setting, players, difficulty, target (Crisis)
    curve: pl.DataFrame            # crisis.difficulty_curve
    difficulty: pl.DataFrame       # crisis.difficulty_table
    fixed: pl.DataFrame            # crisis.fixed_target_rates
    targets: pl.DataFrame          # crisis.targets_for_win_rates
    references: pl.DataFrame       # rooms.reference_targets
    has_rooms: bool
    room_value: pl.DataFrame       # rooms.room_value
    room_ranking: pl.DataFrame     # rooms.room_ranking
    deck_out_counts: pl.DataFrame  # burn.deck_out_counts (what the figure draws)
    deck_out: pl.DataFrame
    reshuffles: pl.DataFrame
    slack_counts: pl.DataFrame     # burn.slack_counts
    slack: pl.DataFrame
    clock_end_counts: pl.DataFrame
    clock_end: pl.DataFrame
    player_keys: pl.DataFrame      # players.settings_by_player
    player_curves: pl.DataFrame    # players.curves_by_player
    player_targets: pl.DataFrame   # players.target_spread
    skill_holders: pl.DataFrame = field(default_factory=pl.DataFrame)  # skills.holder_table
    roster: pl.DataFrame = field(default_factory=pl.DataFrame)   # players.roster (Crisis)
    lineup: pl.DataFrame = field(default_factory=pl.DataFrame)   # players.lineup
    scores: pl.DataFrame = field(default_factory=pl.DataFrame)   # players.score_table
    seeded: pl.DataFrame = field(default_factory=pl.DataFrame)   # players.seeded_scores

    # The Rush games' tables by their names in reports/gemrush/rush.py.
    @property
    def rounds(self) -> pl.DataFrame:
        return self.outcomes.lengths

    @property
    def seat_wins(self) -> pl.DataFrame:
        return self.outcomes.seat_wins

    def band(self, cmps: list | None = None) -> players.Band:
        """What the verdicts read of the players, with the paired differences of the runs'
        comparisons (`cmps`: (run name, reports.compare.compare.Comparison))."""
        pairs = players.paired_scores(cmps or [], self.kinds, self.manifest)
        return players.Band(self.roster, self.lineup, self.curve, self.scores, pairs,
                            self.seeded)


def analyse(games, room_table, manifest: dict | None,
            levels: tuple[float, ...] | None = None) -> Analysis:
    """Run every analysis; refuses tables that lack a column the analyses read. `games` and
    `room_table` are DataFrames or balance.running.store ShardTables, read a piece at a time: the
    games once to count them (reports/gemrush/tally.py), then with the rooms for room value."""
    manifest = manifest or {}
    check_columns(games, frame.REQUIRED_GAME_COLUMNS, "games table")
    has_rooms = room_table is not None and room_table.height > 0
    if has_rooms:
        check_columns(room_table, frame.REQUIRED_ROOM_COLUMNS, "rooms table")
    t = tally.count(games, manifest)
    kinds = t.kinds()
    diffs = t.diffs
    named = frame.named_difficulties(frame.crisis_games(kinds), diffs)
    max_named = int(named["target"].max()) if named.height else None
    curve = crisis.difficulty_curve(t, max_named)
    if has_rooms:
        value = rooms.room_value(games, room_table, diffs, tallies=t,
                                 room_names=content_rooms(kinds, manifest))
    else:
        value = pl.DataFrame()
    targets = crisis.targets_for_win_rates(curve, tuple(levels or crisis.LEVELS))
    roster = players.roster(kinds.filter(pl.col("mode") == "crisis"), manifest)
    lineup = players.lineup(roster, curve)
    slack_counts = burn.slack_counts(t)
    return Analysis(
        kinds=t.keys.select(*kinds.columns, "games"), versions=t.versions, manifest=manifest,
        difficulties=diffs, named=named, curve=curve,
        difficulty=crisis.difficulty_table(t, diffs, curve),
        fixed=crisis.fixed_target_rates(t),
        targets=targets, references=rooms.reference_targets(t, diffs),
        has_rooms=has_rooms, room_value=value,
        room_ranking=rooms.room_ranking(value) if has_rooms else pl.DataFrame(),
        deck_out_counts=burn.deck_out_counts(t), deck_out=burn.deck_out(t),
        reshuffles=burn.reshuffles(t),
        slack_counts=slack_counts, slack=burn.slack_of(slack_counts),
        clock_end_counts=burn.clock_end_counts(t), clock_end=burn.clock_end(t),
        outcomes=rush.of(t),
        player_keys=players.settings_by_player(roster, lineup),
        player_curves=players.curves_by_player(curve, lineup),
        player_targets=players.target_spread(targets, lineup),
        skill_holders=skills.holder_table(skills.holder_counts(games)),
        roster=roster, lineup=lineup, scores=players.score_table(t),
        seeded=players.seeded_scores(t, lineup),
    )


def content_rooms(games: pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """(setting, room) for every room of each setting's content file, so rooms never built
    still show. Content the report cannot load (moved, renamed) adds nothing. `games` needs
    only variant and setting (the kinds of a tally will do)."""
    rows = set()
    loaded: dict[str, list[str]] = {}
    content_of = {int(v["variant"]): v.get("content") for v in manifest.get("variants", [])
                  if "variant" in v}
    for variant, setting in (games.select("variant", "setting").unique().sort("variant")
                             .rows()):
        name = content_of.get(int(variant))
        if not name:
            continue
        if name not in loaded:
            try:
                loaded[name] = [r.name for r in load_content(name).rooms]
            except InputError:
                loaded[name] = []
        rows.update((setting, room) for room in loaded[name])
    return pl.DataFrame(sorted(rows), schema={"setting": pl.Utf8, "room": pl.Utf8},
                        orient="row")
