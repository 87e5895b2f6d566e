"""Gem Rush balance toolkit.

From a notebook:
    from balance.games.gemrush.play import prepare, play_batch, play_traced
    setup = prepare("2e", "crisis", players=4, heuristic="greedy", exhaust=True)
    batch = play_batch(setup, range(10_000))      # one record per game

The package imports nothing heavy here, so that reading content files stays fast.
"""

__version__ = "0.1.0"


def simulate(edition: str = "2e", mode: str = "crisis", players: int = 4, games: int = 1000,
             seed: int = 0, heuristic: str = "greedy", target: int | str | None = None,
             exhaust: bool = False, rules: dict | None = None, content: str | None = None,
             jobs: int | None = 1):
    """Play `games` games of one variant; the games table as a polars DataFrame.

    The same games, seed for seed, as `balance run` plays for a variant with these parameters
    in an experiment with this seed (game i's seed depends only on `seed` and i). Columns: see
    the guide, balance/docs/guide/reference/tables.md. Bad arguments (of a wrong type too)
    raise balance.errors.InputError, with the message `balance run` gives for the same field;
    `jobs` None is one worker per core.
    """
    # lazy: `import balance` (which every balance.x import runs) stays light; the runner
    # brings polars, joblib and the engine
    from balance.errors import InputError, Problem
    from balance.running.experiment import simulation
    from balance.running.runner import check_jobs, default_jobs, simulate_tables

    exp = simulation(edition, mode, players, games, seed, heuristic, target, exhaust, rules,
                     content)
    if jobs is None:
        jobs = default_jobs()  # as `balance run` without --jobs
    try:
        if not isinstance(jobs, int) or isinstance(jobs, bool):
            raise InputError([Problem("", "", "", f"must be a whole number of worker "
                                      f"processes, got {jobs!r}")])
        check_jobs(jobs)
    except InputError as e:
        raise InputError([Problem("balance.simulate", "", "jobs", p.message)
                          for p in e.problems]) from None
    return simulate_tables(exp, jobs)[0]
