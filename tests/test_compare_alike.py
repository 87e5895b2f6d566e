"""Issue 50, point 10: versions of a run that played every game alike (two players that made
the same choices in every game, a rule change that changed no game) are said so, in
`balance compare`, after `balance run` and in the report, rather than read as "no difference
found"."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from reports.compare import compare_text
from reports.compare.compare import compare

PLAYERS = ["greedy", "learned", "reference"]


def _manifest(names=PLAYERS) -> dict:
    grid = ", ".join(f'"{h}"' for h in names)
    return {"experiment": "syn", "game": "gemrush",
            "text": f'[experiment]\nname = "syn"\n\n[grid]\nheuristic = [{grid}]\n',
            "variants": [{"variant": v, "mode": "crisis", "exhaust": True, "target": None,
                          "players": 4, "heuristic": h, "swept": {"heuristic": h},
                          "label": f"heuristic={h}",
                          "difficulties": {"Apprentice": 35, "Master": 75}}
                         for v, h in enumerate(names)]}


def _games(by_variant: list[dict]) -> pl.DataFrame:
    """The games of each variant: score, won and the score after each turn."""
    frames = []
    for v, cols in enumerate(by_variant):
        n = len(cols["score"])
        frames.append(pl.DataFrame({
            "variant": np.full(n, v, np.int32), "game": np.arange(n, dtype=np.int64),
            "heuristic": [PLAYERS[v]] * n, "score": np.asarray(cols["score"], np.int16),
            "won": pl.Series([None] * n, dtype=pl.Boolean),
            "score_by_turn": pl.Series(cols["by_turn"], dtype=pl.List(pl.Int16))}))
    return pl.concat(frames)


def _arm(seed: int, n: int = 60) -> dict:
    rng = np.random.default_rng(seed)
    by_turn = [sorted(rng.integers(0, 50, 5).tolist()) for _ in range(n)]
    return {"score": [t[-1] for t in by_turn], "by_turn": by_turn}


def test_two_players_with_the_same_record_in_every_game_are_named_alike():
    same = _arm(1)
    games = _games([same, _arm(2), same])
    # Listed out of order: the record is compared game by game, not row by row.
    games = games.sample(fraction=1.0, seed=3, shuffle=True)
    cmp = compare(games, _manifest())
    assert tuple(x.sentence() for x in cmp.alike) == (
        "Greedy and Reference made the same choices in every game: each "
        "of the 60 games they played from the same seeds left the same record, so no "
        "difference between them can be found on these games.",)
    assert cmp.to_dict()["alike"] == [x.sentence() for x in cmp.alike]
    full = compare_text.full_table(cmp).replace("\n  ", " ")
    short = compare_text.short_table(cmp).replace("\n  ", " ")
    for out in (full, short):
        assert f"Played alike: {cmp.alike[0].sentence()}" in out


def test_a_game_that_differs_only_in_a_column_no_quantity_reads_is_not_alike():
    """The comparison itself reads score and won; the score after each turn is the game's
    record too, and one game's differing there is a different choice somewhere."""
    a = _arm(1)
    b = {"score": list(a["score"]), "by_turn": [list(t) for t in a["by_turn"]]}
    b["by_turn"][17][0] += 1
    cmp = compare(_games([a, b]), _manifest(PLAYERS[:2]))
    assert cmp.alike == ()
    assert "Played alike" not in compare_text.full_table(cmp)


@pytest.fixture(scope="module")
def ablation_run(tmp_path_factory):
    """A plain-room ablation of Gem Rush: some rooms' abilities are never used by greedy in
    these games, so taking them away changes no game."""
    from typer.testing import CliRunner

    from balance.cli.app import app

    root = tmp_path_factory.mktemp("alike")
    path = root / "abl.toml"
    path.write_text('[experiment]\nname = "abl"\ndescription = "ablation"\nedition = "2e"\n'
                    'mode = "crisis"\ngames = 40\nseed = 20261124\nplayers = 4\n'
                    'exhaust = true\nshard_size = 40\nablate = "plain"\n', encoding="utf-8")
    r = CliRunner().invoke(app, ["run", str(path), "--out", str(root / "runs"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    return root / "runs" / "abl"


def test_balance_compare_reads_the_whole_record_of_a_real_run(ablation_run, cli):
    from balance.running.store import read_run
    from reports.compare.compare import compare_run

    cmp = compare_run(ablation_run)
    assert cmp.alike, "no room of the box left every game as it was"
    games = read_run(ablation_run).games
    labels = dict(cmp.variants.select("words", "variant").rows())  # as the sentence names them
    for group in cmp.alike:
        alike = list(group.labels)
        first = games.filter(pl.col("variant") == labels[alike[0]]).sort("game")
        for label in alike[1:]:
            other = games.filter(pl.col("variant") == labels[label]).sort("game")
            assert first.select("score_by_turn", "cards_burned", "rooms_built").equals(
                other.select("score_by_turn", "cards_burned", "rooms_built")), label
    r = cli("compare", ablation_run)
    assert r.exit_code == 0, r.output
    assert "Played alike: the unchanged game, " in r.stdout


def test_the_report_says_it_first_and_in_room_value(ablation_run, tmp_path):
    import html

    from reports.compare.compare import compare_run
    from reports.page.build import build_report

    sentence = compare_run(ablation_run).alike[0].sentence()
    page = html.unescape(build_report(ablation_run, tmp_path / "report").read_text("utf-8"))
    summary = page.split('<section id="summary">', 1)[1].split("</section>", 1)[0]
    assert f"<strong>Played alike.</strong> {sentence}" in summary
    rooms = page.split('<section id="rooms">', 1)[1].split("</section>", 1)[0]
    assert "no game changed" in rooms  # the rooms whose ablation changed no game
