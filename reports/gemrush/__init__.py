"""Gem Rush's analyses and sections of the report (reports/gemrush/report.py is what the report
framework reaches, through Gem Rush's declaration).

From a notebook (polars in, polars out; nothing here needs matplotlib):

    from balance.running.store.read import read_run
    from reports.gemrush import burn, crisis, frame, rooms, rush, tally
    run = read_run("runs/my-experiment")
    games = frame.with_variant_info(run.games, run.manifest)   # adds content and setting
    diffs = frame.difficulties(run.manifest, games)             # named Crisis targets
    curve = crisis.difficulty_curve(games)                      # win rate at every target
    crisis.difficulty_table(games, diffs)                       # named difficulty x players
    crisis.targets_for_win_rates(curve)                         # targets for 90/75/50/25/10%
    rooms.room_value(games, run.rooms, diffs)                   # room value, association only
    burn.deck_out(games), burn.slack(games, diffs, run.manifest), burn.clock_end(games)
    rush.seat_wins(games), rush.rounds(games), rush.score_margin(games), rush.turn_cap(games),
    rush.endings(games)

Every function above also takes the run's counts instead of its games, which is how the
report reads a run of any size (a shard at a time, one row per game never held):

    run = read_run("runs/big", lazy_games=True, lazy_tables=True)  # tables as ShardTables
    counted = tally.count(run.games, run.manifest)                  # reports/gemrush/tally.py
    crisis.difficulty_curve(counted), burn.deck_out(counted), rush.rounds(counted)
    rooms.room_value(run.games, run.rooms, counted.diffs, tallies=counted)
"""
