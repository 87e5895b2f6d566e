"""balance run on Gem Rush: its tables' columns and types, what the manifest records of its
variants, `balance.simulate`, a designer's content travelling with the jobs, the pool warmed
for every set of players, and seats counted from 1 in old runs too. (The runner's and the
store's own behaviour, whatever the game, is tested on the dice race: tests/test_runner.py.)"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest

import balance
from balance.errors import InputError
from balance.running import store
from balance.running.experiment import load_experiment
from balance.running.runner import run_experiment
from balance.running.store import write
from balance.running.store.layout import plan
from balance.running.store.manifest import manifest_text
from balance.running.store.read import RunData

EXPERIMENT = """\
[experiment]
name = "tiny"
description = "two player counts, two hand limits, to exhaustion"
edition = "2e"
mode = "crisis"
games = 45
seed = 11
shard_size = 20
exhaust = true

[grid]
players = [2, 3]
hand_limit = [4, 5]
"""

GAMES_COLUMNS = [
    "experiment", "variant", "game", "seed", "edition", "mode", "players", "heuristic",
    "went_first", "target", "exhaust", "hand_limit", "won", "end_reason", "turns", "score",
    "scores", "winner", "score_by_turn", "target_turn", "deck_out_turn", "reshuffles",
    "cards_burned", "rooms_built", "skills", "decisions", "branching", "course",
    "lead_changes", "course_goal", "engine_version", "source_hash"]
GAMES_TYPES = {
    "experiment": pl.String, "variant": pl.Int32, "game": pl.Int64, "seed": pl.Int64,
    "edition": pl.String, "mode": pl.String, "players": pl.Int16, "heuristic": pl.String,
    "went_first": pl.Int8, "target": pl.Int32, "exhaust": pl.Boolean, "hand_limit": pl.Int32,
    "won": pl.Boolean,
    "end_reason": pl.String, "turns": pl.Int16, "score": pl.Int16,
    "scores": pl.List(pl.Int16), "winner": pl.Int8, "score_by_turn": pl.List(pl.Int16),
    "target_turn": pl.Int16, "deck_out_turn": pl.Int16, "reshuffles": pl.Int16,
    "cards_burned": pl.Int16, "rooms_built": pl.Int16, "skills": pl.List(pl.String),
    "decisions": pl.Int32, "branching": pl.Float32, "course": pl.List(pl.Int16),
    "lead_changes": pl.Int16, "course_goal": pl.Int16, "engine_version": pl.String,
    "source_hash": pl.String}
ROOMS_TYPES = {"experiment": pl.String, "variant": pl.Int32, "game": pl.Int64,
               "room": pl.String, "turn": pl.Int16, "builder": pl.Int8, "points": pl.Int16,
               "uses": pl.Int32, "gained": pl.Int32}

CLI = [sys.executable, "-c", "from balance.cli.app import app; app()"]


def write_experiment(folder: Path, text: str = EXPERIMENT) -> Path:
    path = folder / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    return path


def run_into(folder: Path, exp_path: Path, **kw) -> RunData:
    run_experiment(load_experiment(exp_path), folder, **kw)
    return store.read_run(folder / "tiny")


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> RunData:
    """The experiment run uninterrupted, in-process (one job)."""
    tmp = tmp_path_factory.mktemp("reference")
    return run_into(tmp / "runs", write_experiment(tmp), jobs=1)


def assert_same(a: RunData, b: RunData) -> None:
    assert a.games.sort("variant", "game").equals(b.games.sort("variant", "game"))
    keys = ["variant", "game", "turn", "room", "builder", "points", "uses", "gained"]
    assert a.tables["rooms"].sort(keys).equals(b.tables["rooms"].sort(keys))
    # the same bytes, but for the experiment file's path as given
    assert manifest_text(dict(a.manifest, file="")) == manifest_text(
        dict(b.manifest, file=""))


def test_games_table_columns_and_types(reference):
    g = reference.games
    assert g.columns == GAMES_COLUMNS
    assert dict(g.schema) == GAMES_TYPES
    assert g.height == 4 * 45
    assert reference.complete
    assert g["game"].to_list() == list(range(45)) * 4  # sorted by variant, then game
    assert g.group_by("variant", "players", "hand_limit").len().sort("variant").rows() == [
        (0, 2, 4, 45), (1, 2, 5, 45), (2, 3, 4, 45), (3, 3, 5, 45)]
    assert g["target"].is_null().all() and g["exhaust"].all()
    assert g["winner"].is_null().all()  # Crisis
    assert set(g["end_reason"]) <= {"target", "exhausted", "cannot_burn"}
    assert (g["score_by_turn"].list.len() == g["turns"].cast(pl.UInt32)).all()
    assert (g["score_by_turn"].list.last() == g["score"]).all()
    assert (g["scores"].list.len() == g["players"].cast(pl.UInt32)).all()
    assert (g["scores"].list.sum() == g["score"]).all()  # team total
    # the course's last twentieth is the final scores, seat by seat (issue 53)
    last = g.select(pl.col("course").list.tail(pl.col("players").cast(pl.Int64)))["course"]
    assert last.to_list() == g["scores"].to_list()
    assert (g["engine_version"] == balance.games.gemrush.play.ENGINE_VERSION).all()
    # common random numbers: game i has the same seed in every variant
    assert g.group_by("game").agg(pl.col("seed").n_unique())["seed"].max() == 1


def test_rooms_table_agrees_with_the_games_table(reference):
    r, g = reference.tables["rooms"], reference.games
    assert dict(r.schema) == ROOMS_TYPES
    built = r.filter(pl.col("builder") >= 1).group_by("variant", "game").len()
    joined = g.join(built, on=["variant", "game"], how="left").with_columns(
        pl.col("len").fill_null(0))
    assert (joined["len"] == joined["rooms_built"].cast(pl.UInt32)).all()
    assert (r.filter(pl.col("builder") < 0)["turn"] == -1).all()  # setup tiles
    assert (r["points"] >= 0).all() and (r["uses"] >= 0).all()
    # points through doors never exceed the team's score
    pts = r.group_by("variant", "game").agg(pl.col("points").sum())
    both = g.join(pts, on=["variant", "game"])
    assert (both["points"] <= both["score"].cast(pl.Int64)).all()


def test_manifest_describes_the_run(reference, tmp_path):
    m = reference.manifest
    text = EXPERIMENT
    assert m["experiment"] == "tiny" and m["text"] == text and m["game"] == "gemrush"
    assert m["hash"] == __import__("hashlib").sha256(text.encode()).hexdigest()
    assert m["engine_version"] == balance.games.gemrush.play.ENGINE_VERSION
    assert {"numba", "numpy", "polars", "pyarrow"} <= set(m["packages"])
    assert m["games_per_variant"] == 45 and m["seed"] == 11
    v = m["variants"][3]
    v = dict(v)
    assert v.pop("label") == "players=3, hand_limit=5"
    assert v.pop("swept") == {"players": 3, "hand_limit": 5}
    assert v == {"variant": 3, "edition": "2e", "content": "gemrush-2e", "mode": "crisis",
                 "players": 3, "heuristic": "greedy", "target": None, "exhaust": True,
                 "rules": {"hand_limit": 5},
                 "difficulties": {"Apprentice": 35, "Journeyman": 45, "Artisan": 55,
                                  "Expert": 65, "Master": 75}}


def test_one_and_two_jobs_give_identical_tables(reference, tmp_path):
    assert_same(reference, run_into(tmp_path / "runs", write_experiment(tmp_path), jobs=2))


def test_simulate_plays_the_same_games_as_the_runner(reference):
    sim = balance.simulate(edition="2e", mode="crisis", players=3, games=45, seed=11,
                           exhaust=True, rules={"hand_limit": 5})
    ran = reference.games.filter(pl.col("variant") == 3)
    cols = [c for c in sim.columns if c not in ("experiment", "variant")]
    assert sim.columns == [c for c in GAMES_COLUMNS if c != "hand_limit"]
    assert sim.select(cols).equals(ran.select(cols))


def test_simulate_checks_its_arguments():
    with pytest.raises(InputError, match="Rush is a race"):
        balance.simulate(mode="rush", players=1, games=1)


def test_rush_columns():
    g = balance.simulate(mode="rush", players=3, games=30, seed=2)
    assert (g["target"] == 20).all() and not g["exhaust"].any()
    assert set(g["end_reason"]) <= {"rush_target", "turn_cap"}
    assert (g["score"] == g["scores"].list.max()).all()  # top score
    # Seats count from 1 (-1: a tie), as the report and `balance play` count them.
    assert ((g["winner"] == -1) | ((g["winner"] >= 1) & (g["winner"] <= 3))).all()
    assert g["target_turn"].is_null().all()
    assert (g["won"] == ((g["winner"] >= 1) & (g["end_reason"] == "rush_target"))).all()


def test_custom_content_travels_with_the_job(tmp_path, playable_text):
    """A content file that is not shipped is sent to the workers as text (no shared disk),
    and an edit between two calls is never served from a worker's cache."""
    content = tmp_path / "mini.toml"
    content.write_text(playable_text, encoding="utf-8")
    a = balance.simulate(players=2, games=20, seed=1, exhaust=True, content=str(content),
                         jobs=2)
    assert a.height == 20
    assert (a["engine_version"] == balance.games.gemrush.play.ENGINE_VERSION).all()
    assert a.equals(balance.simulate(players=2, games=20, seed=1, exhaust=True,
                                     content=str(content)))
    content.write_text(playable_text.replace("points = 1", "points = 5"), encoding="utf-8")
    b = balance.simulate(players=2, games=20, seed=1, exhaust=True, content=str(content),
                         jobs=2)
    assert b["score"].sum() > a["score"].sum()


def test_open_ended_crisis_games_have_no_win_or_target_turn():
    g = balance.simulate(mode="crisis", players=2, games=20, seed=3, exhaust=True)
    assert g["target"].is_null().all() and g["exhaust"].all()
    assert g["won"].is_null().all() and g["target_turn"].is_null().all()
    fixed = balance.simulate(mode="crisis", players=2, games=20, seed=3, exhaust=True,
                             target=20)
    assert fixed["won"].is_not_null().all()
    # the same games: reaching 20 is what the score trajectory says
    assert (fixed["won"] == (g["score"] >= 20)).all()


# -- warming the pool -----------------------------------------------------------------------

def test_the_pool_warms_every_set_of_players_before_any_shard(monkeypatch):
    """The reference player's search kernels are compiled at its first decision, not with the
    game: a pool warmed with greedy alone compiled them in every worker mid-shard, and loky
    took the growth for a memory leak (its "A worker stopped ..." warning). One worker now
    plays a game of each set of players first, before the pool plays any shard."""
    import joblib

    from balance.running import runner
    exp = load_experiment("players")  # greedy, learned, then the reference
    shards = plan(len(exp.variants), 50, 25)
    warm = runner.warm_jobs(exp, shards)
    assert [(j.variant.heuristic, j.shard.start) for j in warm] == [
        ("greedy", 0), ("learned", 0), ("reference", 0)]
    calls = []

    class Recorder:
        def __init__(self, **kw):
            pass

        def __call__(self, tasks):
            # each task of this machine's pool runs inside runner._in_pool (Ctrl-C)
            calls.append([(f.args[0].__name__, args) for f, args, _ in tasks
                          if f.func is runner._in_pool])
            return iter([])

    monkeypatch.setattr(joblib, "Parallel", Recorder)
    list(runner.execute(runner.jobs_for(exp, shards), 2, warm=warm))
    assert calls[0] == [("warm_shard", tuple(warm))]
    assert [name for name, _ in calls[1]] == ["play_shard"] * len(shards)


def test_a_sweep_of_one_player_warms_once():
    from balance.running import runner
    exp = load_experiment("crisis-difficulty")
    shards = plan(len(exp.variants), 10, 5)
    assert [j.shard for j in runner.warm_jobs(exp, shards)] == [shards[0]]


# -- seat numbers (issue 26 item 7) ---------------------------------------------------------

RUSH = """\
[experiment]
name = "seats"
description = "Rush, three players, in two shards"
edition = "2e"
mode = "rush"
games = 40
seed = 5
players = 3
shard_size = 20
"""


def _written_from_zero(monkeypatch):
    """The tables as runs before issue 26 wrote them: seats from 0, no SEATS_KEY (written by
    balance.running.store.write)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from balance.games.gemrush import records
    def old(make):
        def table(*args, **kw):
            t = make(*args, **kw)
            for name in ("winner", "builder"):
                if name in t.column_names:
                    col = t[name]
                    t = t.set_column(t.schema.get_field_index(name), name, pc.if_else(
                        pc.greater(col, 0), pc.subtract(col, 1), col).cast(pa.int8()))
            return t.replace_schema_metadata(None)
        return table

    monkeypatch.setattr(records, "games_table", old(records.games_table))
    monkeypatch.setattr(records, "rooms_table", old(records.rooms_table))
    # ... and no mark that seats count from 1: the store writes its mark under a key no
    # reader looks for.
    monkeypatch.setattr(write, "SEATS_KEY", b"tests.not_read")


def test_seats_count_from_1_and_an_old_run_counted_from_0_reads_the_same(tmp_path,
                                                                           monkeypatch):
    run_experiment(load_experiment(write_experiment(tmp_path, RUSH)), tmp_path / "new", jobs=1)
    new = store.read_run(tmp_path / "new" / "seats")
    g, r = new.games, new.tables["rooms"]
    assert set(g["winner"].unique()) <= {-1, 1, 2, 3} and (g["winner"] == 1).any()
    assert set(r["builder"].unique()) <= {-1, 1, 2, 3} and (r["builder"] == 1).any()
    raw = pl.read_parquet(tmp_path / "new" / "seats" / "games" / "*.parquet")
    assert raw["winner"].to_list() == g["winner"].to_list()  # on disk as read
    # A run written by the old code, then one resumed across the change (one shard each).
    with monkeypatch.context() as m:
        _written_from_zero(m)
        run_experiment(load_experiment(write_experiment(tmp_path, RUSH)), tmp_path / "old", jobs=1)
        run_experiment(load_experiment(write_experiment(tmp_path, RUSH.replace(
            "games = 40", "games = 20"))), tmp_path / "mixed", jobs=1)
    run_experiment(load_experiment(write_experiment(tmp_path, RUSH)), tmp_path / "mixed", jobs=1)
    raw = pl.read_parquet(tmp_path / "old" / "seats" / "games" / "*.parquet")
    assert (raw["winner"] == 0).any()  # the old numbering on disk
    for folder in ("old", "mixed"):
        run = store.read_run(tmp_path / folder / "seats")
        assert run.games.drop("source_hash").equals(g.drop("source_hash")), folder
        assert run.tables["rooms"].equals(r), folder
        scan = store.scan_run(tmp_path / folder / "seats")
        assert scan.games.select("game", "winner").collect().equals(g.select("game", "winner"))
        assert scan.tables["rooms"].select("game", "builder").collect().equals(
            r.select("game", "builder"))
