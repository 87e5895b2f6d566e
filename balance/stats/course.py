"""Measures of a game's course: how it plays, not only who wins. Each reads the games table's
`course` (each seat's progress at the end of each twentieth of the game, point by point, seat
1 first within a point), `lead_changes` and the core columns; the guide's
reference/course-measures.md defines each and names its source.

A measure here is a Measure (balance/contract/game.py) over the column COURSE: the neutral
layer (balance/stats/measures.py, of_measures and course_quantities) turns it into a Quantity
whose expression computes one value per game (`expression`, `values`), so `balance
compare`, `balance tune --goal` and a game that declares one among its measures (its
headline and `--precision`) read it as they read any other. A game whose games table has a
course gets every one of them in `balance compare` and as a goal of `balance tune`
(`of_game`), declared or not.

Per game, NaN where the measure does not apply (a race's measure in a cooperative game, a
comeback in a game no seat won): a rate counts only the games it applies to, and its `of`
says which they are."""

from __future__ import annotations

import numpy as np
import polars as pl

from balance.contract.game import Game, Measure

COURSE = "course"
POINTS = 20  # balance/kit/state.py, COURSE_POINTS: the record's points, one each twentieth
TENTHS = tuple(range(1, 10))  # the points of the "when it is decided" curve, in tenths
GOAL = "course_goal"  # a cooperative game's progress that wins (null: none declared)

SEAT_WON = "games a seat won"
_QUARTERS = (("quarter", 5), ("half", 10), ("three_quarters", 15))

MEASURES: tuple[Measure, ...] = (
    Measure("lead_changes", "Lead changes", "mean", "lead_changes",
            "times the seat ahead on progress changed in a game (Ludii's LeadChange)",
            unit="changes"),
    *(Measure(f"comeback_{name}", f"Winner behind at {name.replace('_', ' ')}", "rate", COURSE,
              f"the winner was behind another seat at {name.replace('_', ' ')} of the game",
              of=SEAT_WON) for name, _ in _QUARTERS),
    Measure("decided_at", "Decided at", "mean", COURSE,
            "the share of the game after which the winner leads alone for good "
            "(1 - Ludii's DecisivenessMoves)"),
    Measure("drama", "Drama", "mean", COURSE,
            "how far behind the leader the winner was, averaged over the game, as a share "
            "of the winner's final progress (Ludii's Drama)"),
    Measure("leader_wins_half", "Leader at half wins", "rate", COURSE,
            "the seat alone ahead at half the game went on to win",
            of="games a seat won with one seat ahead at half"),
    Measure("settled_at", "Settled at", "mean", COURSE,
            "a cooperative game: the share of the game after which the team's pace (ahead "
            "of or behind its goal's) agrees with the outcome for good"),
    Measure("behind_pace_wins", "Team behind its pace at half wins", "rate", COURSE,
            "a cooperative game behind its goal's pace at half the game still won",
            of="team games behind their pace at half"),
    Measure("completion", "Ended by the rules", "mean", COURSE,
            "the share of all games (undecided ones too) that ended by the rules, not by a "
            "cap on their length"),
    Measure("draws", "Draws", "rate", COURSE, "decided races that no seat won (a tie)"),
    Measure("branching", "Branching", "mean", "branching", "options a decision, on average",
            unit="options"),
    Measure("decisions", "Decisions", "mean", "decisions", "decisions a game", unit="decisions"),
)
_BY_NAME = {m.name: m for m in MEASURES}


def names() -> tuple[str, ...]:
    return tuple(_BY_NAME)


TEAM = ("settled_at", "behind_pace_wins")  # a team against its goal's pace: the rest are a race's
RACE = ("comeback_quarter", "comeback_half", "comeback_three_quarters", "decided_at", "drama",
        "leader_wins_half")


def of_game(game: Game) -> list[Measure]:
    """The course measures the game's games table can give (none without a course), those the
    game declares itself left to its own. A race's measures only where a seat can win, a
    team's only where a team plays against a goal the games table records: one that can
    never apply would be offered as a goal that no run can measure."""
    columns = game.games_table.columns
    if COURSE not in columns:
        return []
    own = {m.name for m in game.measures}
    never = (TEAM if game.cooperative is False or GOAL not in columns else ()) + \
        (RACE if game.cooperative is True else ())
    return [m for m in MEASURES if m.name not in own | set(never) and m.column in columns]


def kind_of(name: str) -> str | None:
    """'race' or 'team' for a course measure of one kind of game, None for the others."""
    return "team" if name in TEAM else "race" if name in RACE else None


def find(game: Game, name: str) -> Measure | None:
    """The game's measure `name`: its own, else a course measure its games can give."""
    return next((m for m in (*game.measures, *of_game(game)) if m.name == name), None)


def is_course(measure: Measure) -> bool:
    return measure.column == COURSE


# -- the course as arrays ----------------------------------------------------------------------

def course_arrays(games: pl.DataFrame) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """{players: (rows, progress (rows, POINTS, players))} for the games whose course is
    whole (a row of another length, or none, is left out)."""
    lists = games[COURSE]
    lengths = lists.list.len().fill_null(0).to_numpy().astype(np.int64)
    flat = lists.explode().fill_null(0).to_numpy().astype(np.int64)
    # explode keeps one (null) row for an empty list: offsets count them so
    starts = np.concatenate([[0], np.cumsum(np.maximum(lengths, 1))])[:-1]
    players = games["players"].cast(pl.Int64).to_numpy()
    out = {}
    for p in np.unique(players):
        rows = np.flatnonzero((players == p) & (lengths == POINTS * p))
        if len(rows) and p > 0:
            at = starts[rows][:, None] + np.arange(POINTS * p)[None, :]
            out[int(p)] = (rows, flat[at].reshape(len(rows), POINTS, int(p)))
    return out


def _winner(games: pl.DataFrame) -> np.ndarray:
    """Each game's winning seat from 0; -1 where no seat won."""
    w = games["winner"].cast(pl.Int64).fill_null(0).to_numpy()
    return np.where(w >= 1, w - 1, -1)


def _alone_ahead(prog: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(games, points): seat `seat` (one a game) ahead of every other seat at each point."""
    mine = np.take_along_axis(prog, seat[:, None, None], axis=2)[:, :, 0]
    others = prog.copy()
    np.put_along_axis(others, seat[:, None, None], np.iinfo(np.int64).min, axis=2)
    return mine > others.max(axis=2) if prog.shape[2] > 1 else np.ones(mine.shape, bool)


def _settled(agree: np.ndarray) -> np.ndarray:
    """The share of the game after which `agree` (games, points) holds at every later point:
    the last point where it does not, over POINTS (0: from the start, 1: not even at the
    end)."""
    last = np.where(~agree, np.arange(1, POINTS + 1)[None, :], 0).max(axis=1)
    return last / POINTS


def leader_at(prog: np.ndarray, point: int) -> np.ndarray:
    """The seat alone ahead at `point` (1 to POINTS) of each game, -1 where the lead is
    shared."""
    at = prog[:, point - 1, :]
    top = at.max(axis=1)
    alone = (at == top[:, None]).sum(axis=1) == 1
    return np.where(alone, at.argmax(axis=1), -1)


def _race(name: str, games: pl.DataFrame, rows: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """A race's measure for the games `rows` (a seat won, or not: NaN)."""
    winner = _winner(games)[rows]
    won = winner >= 0
    seat = np.maximum(winner, 0)
    x = np.full(len(rows), np.nan)
    if name.startswith("comeback_"):
        point = dict(_QUARTERS)[name[len("comeback_"):]]
        mine = prog[np.arange(len(rows)), point - 1, seat]
        x = (mine < prog[:, point - 1, :].max(axis=1)).astype(float)
    elif name == "decided_at":
        x = _settled(_alone_ahead(prog, seat))
    elif name == "drama":
        mine = np.take_along_axis(prog, seat[:, None, None], axis=2)[:, :, 0]
        behind = prog.max(axis=2) - mine
        scale = np.maximum(np.maximum(mine[:, -1], prog[:, -1, :].max(axis=1)), 1)
        x = behind.mean(axis=1) / scale
    elif name == "leader_wins_half":
        lead = leader_at(prog, POINTS // 2)
        x = np.where(lead >= 0, (lead == winner).astype(float), np.nan)
    return np.where(won, x, np.nan)


def pace(games: pl.DataFrame, rows: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """(games, points): the team's progress at each point at or past its goal's pace (the
    goal times the share of the game played); NaN rows where no goal is known."""
    if GOAL not in games.columns:
        return np.full(prog.shape[:2], np.nan)
    goal = games[GOAL].cast(pl.Float64).to_numpy()[rows]
    team = prog.sum(axis=2).astype(float)
    share = np.arange(1, POINTS + 1)[None, :] / POINTS
    ahead = (team >= goal[:, None] * share).astype(float)
    return np.where(np.isfinite(goal)[:, None], ahead, np.nan)


def _team(name: str, games: pl.DataFrame, rows: np.ndarray, prog: np.ndarray) -> np.ndarray:
    won = games["won"].to_numpy()[rows]
    known = np.array([w is not None for w in won])
    won = np.array([bool(w) for w in won])
    ahead = pace(games, rows, prog)
    has_goal = np.isfinite(ahead[:, 0])
    x = np.full(len(rows), np.nan)
    if name == "settled_at":
        x = _settled((ahead == 1) == won[:, None])
    elif name == "behind_pace_wins":
        x = np.where(ahead[:, POINTS // 2 - 1] == 0, won.astype(float), np.nan)
    team = known & _winner(games)[rows].__lt__(0)
    return np.where(team & has_goal, x, np.nan)


def values(games: pl.DataFrame, name: str, game: Game | None = None) -> np.ndarray:
    """Course measure `name`'s value in each game of `games` (NaN where it does not apply)."""
    n = games.height
    if name in ("lead_changes", "branching", "decisions"):
        return games[name].cast(pl.Float64).fill_null(np.nan).to_numpy().astype(float)
    if name == "completion":
        capped = tuple(game.undecided_ends) + tuple(game.cap_ends) if game else ()
        return (~games["end_reason"].is_in(list(capped)).fill_null(False)).to_numpy() \
            .astype(float)
    if name == "draws":
        # A team's game (no winning seat, the team's result known) has no draw; in a race no
        # seat won: a tie (an engine may write its winner as 0 or less).
        winner = games["winner"].cast(pl.Int64)
        team = (winner.is_null() & games["won"].is_not_null()).to_numpy()
        seat = winner.fill_null(0).to_numpy() >= 1
        return (~(seat | team)).astype(float)
    out = np.full(n, np.nan)
    if COURSE not in games.columns:
        return out
    for _p, (rows, prog) in course_arrays(games).items():
        race = _race if not name.startswith(("settled", "behind_pace")) else _team
        out[rows] = race(name, games, rows, prog)
    return out


def expression(measure: Measure, game: Game) -> pl.Expr:
    """The measure's value per game as a polars expression over the columns it reads."""
    present = game.games_table.columns
    reads = [c for c in (COURSE, "players", "winner", "won", "end_reason", GOAL)
             if c in present]

    def compute(s: pl.Series) -> pl.Series:
        x = values(s.struct.unnest(), measure.name, game)
        if measure.kind == "rate":
            return pl.Series([None if np.isnan(v) else bool(v) for v in x], dtype=pl.Boolean)
        return pl.Series(x, dtype=pl.Float64).fill_nan(None)

    return pl.struct(reads).map_batches(
        compute, return_dtype=pl.Boolean if measure.kind == "rate" else pl.Float64)

