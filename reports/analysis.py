"""Every analysis of a run at once, as the report uses them: `analyse(games, rooms, manifest)`.

Each field is a polars table from one of the concept modules (crisis, rooms, burn, rush); see
their docstrings for the columns. An analysis that has no games to work on is an empty table.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from balance.content import load_content
from balance.errors import InputError
from reports import burn, crisis, frame, players, rooms, rush


@dataclass(frozen=True)
class Analysis:
    games: pl.DataFrame            # the games, with content and setting columns added
    manifest: dict
    difficulties: pl.DataFrame     # variant, difficulty, target
    named: pl.DataFrame            # setting, players, difficulty, target (Crisis)
    curve: pl.DataFrame            # crisis.difficulty_curve
    difficulty: pl.DataFrame       # crisis.difficulty_table
    fixed: pl.DataFrame            # crisis.fixed_target_rates
    targets: pl.DataFrame          # crisis.targets_for_win_rates
    has_rooms: bool
    room_value: pl.DataFrame       # rooms.room_value
    room_ranking: pl.DataFrame     # rooms.room_ranking
    burn_games: pl.DataFrame       # burn.burn_games
    deck_out: pl.DataFrame
    reshuffles: pl.DataFrame
    slack_games: pl.DataFrame
    slack: pl.DataFrame
    clock_end: pl.DataFrame
    rush_games: pl.DataFrame       # Rush games with a rounds column
    rounds: pl.DataFrame
    turn_cap: pl.DataFrame
    endings: pl.DataFrame          # rush.endings
    player_keys: pl.DataFrame      # players.settings_by_player
    player_curves: pl.DataFrame    # players.curves_by_player
    player_targets: pl.DataFrame   # players.target_spread
    seat_wins: pl.DataFrame
    margins: pl.DataFrame
    score_margin: pl.DataFrame


def analyse(games: pl.DataFrame, room_table: pl.DataFrame | None, manifest: dict | None
            ) -> Analysis:
    """Run every analysis; refuses tables that lack a column the analyses read."""
    manifest = manifest or {}
    frame.check_columns(games, frame.REQUIRED_GAME_COLUMNS, "games table")
    has_rooms = room_table is not None and room_table.height > 0
    if has_rooms:
        frame.check_columns(room_table, frame.REQUIRED_ROOM_COLUMNS, "rooms table")
    full = frame.with_variant_info(games, manifest)
    # The per-turn and per-seat score lists are most of a games table's memory; only three
    # analyses read them, and the others get the table without (a drop shares the rest).
    lists = [c for c in ("score_by_turn", "scores", "seed", "source_hash") if c in full.columns]
    games = full.drop(lists)
    diffs = frame.difficulties(manifest, games)
    named = frame.named_difficulties(frame.crisis_games(games), diffs)
    max_named = int(named["target"].max()) if named.height else None
    curve = crisis.difficulty_curve(full, max_named)
    if has_rooms:
        value = rooms.room_value(games, room_table, diffs,
                                 room_names=content_rooms(games, manifest))
    else:
        value = pl.DataFrame()
    slack_games = burn.slack_games(full, diffs, manifest)
    margins = rush.margins(full)
    del full
    targets = crisis.targets_for_win_rates(curve)
    player_keys = players.settings_by_player(games.filter(pl.col("mode") == "crisis"))
    return Analysis(
        games=games, manifest=manifest, difficulties=diffs, named=named, curve=curve,
        difficulty=crisis.difficulty_table(games, diffs, curve),
        fixed=crisis.fixed_target_rates(games),
        targets=targets,
        has_rooms=has_rooms, room_value=value,
        room_ranking=rooms.room_ranking(value) if has_rooms else pl.DataFrame(),
        burn_games=burn.burn_games(games), deck_out=burn.deck_out(games),
        reshuffles=burn.reshuffles(games),
        slack_games=slack_games, slack=burn.slack_of(slack_games),
        clock_end=burn.clock_end(games),
        rush_games=rush.with_rounds(games), rounds=rush.rounds(games),
        turn_cap=rush.turn_cap(games), endings=rush.endings(games),
        player_keys=player_keys,
        player_curves=players.curves_by_player(curve, player_keys),
        player_targets=players.target_spread(targets, player_keys),
        seat_wins=rush.seat_wins(games),
        margins=margins, score_margin=frame.distribution(margins, "margin"),
    )


def content_rooms(games: pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """(setting, room) for every room of each setting's content file, so rooms never built
    still show. Content the report cannot load (moved, renamed) adds nothing."""
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
