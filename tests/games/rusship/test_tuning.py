"""`balance tune-player --game rusship`: racer's knobs, scored against default racer with the
seats swapped on common seeds, under the rules `--set` gives; the file it writes plays with
`balance rusship play --knobs`. What it refuses is one message and exit 2."""

from __future__ import annotations

import numpy as np

from balance.contract.tuning import TuneRequest
from balance.games.rusship.tuning import objective, tuning


def test_the_hook_scores_a_candidate_under_the_rules_given():
    t = tuning(TuneRequest("racer", (), {"length": "8"}, {}))
    assert t.players == (2,) and "length=8" in t.setting
    seeds = np.arange(40)
    np.testing.assert_array_equal(t.objective(2, None, seeds),
                                  objective("racer", None, seeds, {"length": 8}))
    # Knobs that throw the game away lose on the same seeds.
    bad = t.objective(2, {"attack": 0.0, "capture": 0.0, "progress": 0.0}, seeds)
    assert bad.mean() < 0.4


def test_tune_player_writes_knobs_that_rusship_play_reads(cli, tmp_path):
    out = tmp_path / "racer.toml"
    r = cli("tune-player", "--game", "rusship", "--games", 40, "--evaluations", 4,
            "--set", "length=10", "--out", out)
    assert r.exit_code == 0, r.output
    assert "against default racer" in r.stdout and out.is_file()
    assert "--game rusship" in out.read_text()
    r = cli("rusship", "play", "--knobs", out, "--seed", 2)
    assert r.exit_code == 0 and "wins" in r.stdout


def test_what_tune_player_refuses_for_rusship(cli):
    for args, said in ((("reference",), "no knobs the engine reads"),
                       (("--players", "3"), "player count of Rusship (2)"),
                       (("--set", "length=99"), "length"),
                       (("--edition", "2e"), "--edition")):
        r = cli("tune-player", "--game", "rusship", "--games", 20, "--evaluations", 4, *args)
        assert r.exit_code == 2 and r.stderr.count("error:") == 1 and said in r.stderr, \
            (args, r.output)
