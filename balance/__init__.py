"""Balance toolkit for board games: each game in a folder of balance/games/ (or a package of its
own), the toolkit around them the same for every game.

From a notebook, for a game `balance games` lists:
    import balance
    games = balance.simulate(NAME, players=2, games=10_000)   # the games table

The package imports nothing heavy here, so that reading content files stays fast.
"""

__version__ = "0.1.0"


def simulate(game: str | None = None, *, jobs: int | None = 1, **arguments):
    """Play the games of one variant of `game`; the games table as a polars DataFrame.

    `arguments` say the variant as an experiment file's [experiment] keys do (games, seed,
    players, heuristic or seats, and the game's own keys), `rules` a table of rule values; a
    game may take arguments of its own instead (its `simulation` hook: see its guide). The
    same games, seed for seed, as `balance run` plays for that variant in an experiment with
    that seed (game i's seed depends only on `seed` and i). Without `game`, the first game's
    (balance/contract/compat.py). Columns: see the guide, balance/docs/guide/reference/
    tables.md. Bad arguments (of a wrong type too) raise balance.errors.InputError, with the
    message `balance run` gives for the same field; `jobs` None is one worker per core.
    """
    # lazy: `import balance` (which every balance.x import runs) stays light; the runner
    # brings polars, joblib and the engine
    from balance.contract import compat, registry
    from balance.errors import InputError, Problem
    from balance.running.runner import check_jobs, default_jobs, simulate_tables

    chosen = registry.get(compat.game_name(game), "balance.simulate", "", "game")
    if chosen.simulation:
        exp = chosen.hook("simulation")(**arguments)
    else:
        exp = _experiment(chosen.name, arguments)
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
    return simulate_tables(exp, jobs)["games"]


def _experiment(game: str, arguments: dict):
    """The one-variant experiment (named 'simulate') of a game without a `simulation` hook:
    the arguments are its [experiment] keys, checked as a file's are, and a problem names
    the argument alone (they are in no [experiment] table)."""
    # lazy: as simulate's imports, kept off `import balance`
    from balance.running.experiment import parse_arguments

    rules = arguments.pop("rules", None)
    head = {"name": "simulate", "description": "balance.simulate", "games": 1000, "seed": 0,
            **arguments, "game": game}
    return parse_arguments(head, rules)
