"""Analysis and report of a run: the last stage of the pipeline.

The framework here is the same for every game: it counts a run's games (tally), draws the
neutral outcomes of the core columns every games table starts with (outcomes, outcome_page:
who wins against the fair share, how long, by how much, the scores), compares variants
(compare, compare_text, comparison_page), and builds and renders the page (build, page,
section). A game adds its own analyses and sections in `reports/<game>/`, reached through its
declaration's `report` (reports/page/game_report.py).

From a notebook (polars in, polars out; nothing here needs matplotlib):

    from balance.running.store.read import read_run
    from reports.outcomes import outcomes
    from reports.tables import tally
    run = read_run("runs/my-experiment")
    counted = tally.count(run.games, run.manifest)     # one pass, a shard at a time
    o = outcomes.outcomes(counted)                      # seats, team, length, margin, scores
    o.seat_wins, o.lengths, o.margins, o.by_player

A game's own analyses are in its folder, reports/<game>/ (its __init__ shows them).
`reports.page.build.write_report(run, out_dir)` writes the HTML page and its figures.
`reports.compare.compare.compare_run(run_dir)` compares every variant with the baseline, game by
game (`balance compare`), with the paired intervals of `balance.stats.paired`.
"""
