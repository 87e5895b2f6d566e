"""The report page built from small synthetic runs: every section, every figure, no NaN, no
empty table, the same bytes twice, and a clear word for whatever the run lacks."""

from __future__ import annotations

import base64
import importlib
import re
import sys
import types
from pathlib import Path

import polars as pl
import pytest

from balance.cli import guard
from balance.errors import InputError
from reports.page.build import FIGURES, PAGE, build_report, write_report
from reports.render import text
from tests.report_data import games_frame, swept, synthetic_run

SECTIONS = ("summary", "crisis", "rooms", "burn", "rush", "skills", "run")
IMG = re.compile(r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*">\s*'
                 r"<figcaption>.*?<code>([^<]+)</code>", re.S)


def without_images(html: str) -> str:
    return re.sub(r"data:image/png;base64,[^\"]+", "", html)


def check_page(page: Path) -> str:
    """Every figure embedded is the PNG beside the page, every table has rows and no cell is
    NaN or empty; returns the page's text without images."""
    html = page.read_text(encoding="utf-8")
    figs = IMG.findall(html)
    for data, name in figs:
        assert (page.parent / FIGURES / name).read_bytes() == base64.b64decode(data)
    assert sorted(p.name for p in (page.parent / FIGURES).glob("*.png")) == \
        sorted(name for _, name in figs)
    body = without_images(html)
    assert not re.search(r"\bnan\b|\bNaN\b|\bNone\b|\binf\b", body)
    for table in re.findall(r"<table>.*?</table>", body, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)
        assert rows, table[:200]
        for row in rows:
            assert "<td></td>" not in row and '<td class="n"></td>' not in row, row
    return body


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> tuple[Path, Path]:
    """The same synthetic run reported twice, into two directories: the second with its
    figures past the first few drawn by worker processes (reports/render/figures.py, `later`)."""
    run = synthetic_run(games_per_variant=40, first_edition=False)
    a = write_report(run, tmp_path_factory.mktemp("a"))
    b = write_report(synthetic_run(games_per_variant=40, first_edition=False),
                     tmp_path_factory.mktemp("b"), jobs=2)
    return a, b


def test_every_section_and_figure_is_present(full):
    page, _ = full
    body = check_page(page)
    for sid in SECTIONS:
        assert f'<section id="{sid}">' in body
    names = {p.name for p in (page.parent / FIGURES).glob("*.png")}
    assert names == {"lead-seats-rush.png"} | {
        f"{chart}-2nd-edition.png" for chart in (
            "lead-crisis", "crisis-curve", "crisis-turn", "rooms-crisis", "rooms-rush",
            "burn-deck", "burn-slack", "burn-end", "rush-seats", "rush-length")}
    assert 'class="missing"' not in body
    assert "association, not cause" in body
    assert "synthetic" in body and "experiments/synthetic.toml" in body
    assert "gemrush-2e" in body and "test-1" in body  # content file and engine version
    assert "[experiment]\nname = &#39;synthetic&#39;" in body  # the experiment file's text


def test_same_data_same_bytes(full):
    a, b = full
    assert a.read_bytes() == b.read_bytes()
    for png in (a.parent / FIGURES).glob("*.png"):
        assert png.read_bytes() == (b.parent / FIGURES / png.name).read_bytes()


def test_summary_sentence_is_computed_from_the_data(tmp_path):
    # 100 exhausted 3-player games: 62 reach 45 points (Journeyman), 38 stop at 40.
    rows = [{"score_by_turn": [20, 50]}] * 62 + [{"score_by_turn": [20, 40]}] * 38
    games = games_frame(rows)
    manifest = {"experiment": "hand", "variants": [
        {"variant": 0, "edition": "2e", "content": "gemrush-2e", "mode": "crisis",
         "players": 3, "exhaust": True,
         "difficulties": {"Apprentice": 35, "Journeyman": 45, "Artisan": 55}}]}
    page = write_report(types.SimpleNamespace(games=games, rooms=None, manifest=manifest),
                        tmp_path)
    body = check_page(page)
    # Wilson 62/100 is 52.2% to 70.9%: asymmetric at whole points, so printed as a range.
    assert ("2nd edition: 3-player Crisis is won 100% (96–100%) at Apprentice (35 points), "
            "62% (52–71%) at Journeyman (45) and 0% (0–4%) at Artisan (55) "
            "(95% Wilson intervals; 100 games played to exhaustion).") in body
    assert "The run has no room data" in body and "The run has no Rush games." in body


def test_run_without_rush_or_rooms_says_what_it_lacks(tmp_path):
    run = synthetic_run(games_per_variant=20, rush=False, rooms=False, first_edition=False,
                        fixed=False)
    body = check_page(write_report(run, tmp_path))
    assert "The run has no Rush games." in body
    assert "The run has no room data, so room value cannot be shown." in body
    assert not list((tmp_path / FIGURES).glob("rush-*")) + list(
        (tmp_path / FIGURES).glob("rooms-*"))


def test_empty_rooms_table_is_no_room_data(tmp_path):
    run = synthetic_run(games_per_variant=15, rush=False, first_edition=False, fixed=False)
    run.rooms = run.rooms.clear()
    assert "The run has no room data" in check_page(write_report(run, tmp_path))


def test_run_without_exhausted_games_uses_fixed_targets(tmp_path):
    run = synthetic_run(games_per_variant=20, exhausted=False, rush=False, rooms=True)
    body = check_page(write_report(run, tmp_path))
    assert "no Crisis games played to exhaustion" in body
    assert "played to each target" in body
    assert (tmp_path / FIGURES / "crisis-curve-2nd-edition.png").exists()  # the fixed-target points
    assert not (tmp_path / FIGURES / "crisis-turn-2nd-edition.png").exists()


def test_rush_only_run(tmp_path):
    run = synthetic_run(games_per_variant=20, exhausted=False, fixed=False)
    body = check_page(write_report(run, tmp_path))
    assert "The run has no Crisis games, so there is no difficulty curve." in body
    assert "The run has no Crisis games, so there is no burn timing." in body
    assert "first player wins" in body


def test_run_without_games(tmp_path):
    run = synthetic_run(games_per_variant=5, rush=False, first_edition=False, fixed=False)
    run.games, run.rooms = run.games.clear(), None
    body = check_page(write_report(run, tmp_path))
    assert "The run has no games." in body


def test_missing_column_is_an_input_error(tmp_path):
    run = synthetic_run(games_per_variant=5, rush=False, first_edition=False, fixed=False)
    run.games = run.games.drop("score_by_turn")
    with pytest.raises(InputError, match="score_by_turn.*missing"):
        write_report(run, tmp_path)


def _install_store(monkeypatch, make_run, missing=()):
    """balance.running.store as the runner provides it (read_run, read_manifest), over the run
    make_run() builds; `missing` names unplayed shards."""
    def read_run(run_dir, lazy_tables=False, compact=False, lazy_games=False, columns=None):
        run = make_run()
        run.missing = list(missing)
        if columns is not None:
            run.games = run.games.select([c for c in columns if c in run.games.columns])
        return run

    # The report imports the runner (goal seeking), which imports the real store: import it
    # first, or this test fails when it runs alone.
    importlib.import_module("balance.running.goal_seek")
    module = types.ModuleType("balance.running.store")
    module.read_run = read_run
    module.read_manifest = lambda run_dir: read_run(run_dir).manifest
    for name in ("balance.running.store", "balance.running.store.read",
                 "balance.running.store.manifest"):
        monkeypatch.setitem(sys.modules, name, module)
    # `balance report` works in a child process, which would not see the fake module.
    monkeypatch.setattr(guard, "in_child", lambda target, *args: getattr(
        importlib.import_module(target.split(":")[0]), target.split(":")[1])(*args))


@pytest.fixture
def fake_store(monkeypatch):
    # a run of Rush games only, without rooms: few figures to draw
    def make_run():
        run = synthetic_run(games_per_variant=10, exhausted=False, fixed=False)
        run.rooms = None
        return run

    _install_store(monkeypatch, make_run)


def test_build_report_writes_into_the_run_directory(tmp_path, fake_store):
    page = build_report(tmp_path)
    assert page == tmp_path / PAGE and page.exists()
    with pytest.raises(InputError, match="no such run directory"):
        build_report(tmp_path / "missing")


def test_balance_report_command(tmp_path, fake_store, cli):
    result = cli("report", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / PAGE).exists()
    bad = cli("report", tmp_path / "missing")
    assert bad.exit_code == 2
    assert "error:" in bad.stderr and "no such run directory" in bad.stderr


# --- number formatting -----------------------------------------------------------------------

def test_rates_print_with_their_interval():
    assert text.rate(0.62, 0.615, 0.625) == "62.0% ± 0.5%"
    assert text.rate(0.5, 0.38, 0.62) == "50% ± 12%"
    assert text.rate(1.0, 0.963, 1.0) == "100% (96–100%)"
    assert text.rate(0.0, 0.0, 0.037) == "0% (0–4%)"
    assert text.rate(0.5, 0.4995, 0.5005) == "50.00% ± 0.05%"
    assert text.rate(None, None, None) == text.DASH


def test_numbers_never_print_nan():
    assert text.num(float("nan")) == text.DASH
    assert text.num(9.0) == "9" and text.num(9.25, 1) == "9.2" and text.num(-0.01) == "0"
    assert text.count(40000) == "40,000"
    assert text.difference(0.12, 0.05, 0.19) == "+12 pp (5 to 19)"
    assert text.difference(-0.03, -0.08, 0.02) == "−3 pp (−8 to 2)"
    assert text.signed_points(0.0) == "0 pp"


def test_analysis_needs_no_matplotlib_and_figures_leave_the_backend_alone():
    import subprocess

    code = ("import sys; import reports.gemrush.analysis, reports.gemrush.crisis, "
            "reports.gemrush.rooms, reports.gemrush.burn, reports.gemrush.rush; "
            "assert 'matplotlib' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
    code = ("import matplotlib; matplotlib.use('svg'); import reports.page.build; "
            "assert matplotlib.get_backend() == 'svg'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_frames_of_the_analysis_are_sorted():
    run = synthetic_run(games_per_variant=10, rush=True, first_edition=True)
    from reports.gemrush.analysis import analyse

    a = analyse(run.games, run.rooms, run.manifest)
    for name in ("curve", "difficulty", "targets", "deck_out", "slack", "seat_wins", "rounds"):
        df = getattr(a, name)
        keys = [c for c in ("setting", "players") if c in df.columns]
        assert df.select(keys).rows() == sorted(df.select(keys).rows()), name
    assert isinstance(a.room_value, pl.DataFrame) and a.room_value.height


def test_a_swept_rule_gives_one_block_per_setting(tmp_path):
    run = swept(synthetic_run(games_per_variant=15, rush=False, first_edition=False,
                              fixed=False), "hand_limit", [4, 5])
    body = check_page(write_report(run, tmp_path))
    for label in ("2nd edition, hand limit 4", "2nd edition, hand limit 5"):  # the rulebook's words
        assert f"<h3>{label}</h3>" in body
    assert (tmp_path / FIGURES / "crisis-curve-2nd-edition-hand-limit-4.png").exists()
    assert (tmp_path / FIGURES / "crisis-curve-2nd-edition-hand-limit-5.png").exists()
    assert "hand_limit" not in body.split("<pre")[0]
    assert "<td>hand limit 5</td>" in body  # in the variants table too


def test_a_sweep_s_difficulty_is_one_chart_and_a_fold_each(tmp_path, monkeypatch):
    """Past MANY_SETTINGS settings, the Crisis section charts every setting's win rate at the
    named difficulties in one chart and folds each setting's tables under its name, without
    its curve; Room value and Deck burn timing keep each setting's sentences and tables, not
    its charts: a 50-room ablation drew 243 charts."""
    from reports.gemrush import page  # its threshold, lowered to what two settings pass

    monkeypatch.setattr(page, "MANY_SETTINGS", 1)
    run = swept(synthetic_run(games_per_variant=15, rush=False, first_edition=False,
                              fixed=False), "hand_limit", [4, 5])
    body = check_page(write_report(run, tmp_path))
    crisis = body[body.index('<section id="crisis">'):]
    crisis = crisis[:crisis.index("</section>")]
    made = {p.name for p in (tmp_path / FIGURES).glob("*.png")}
    assert {m for m in made if m.split("-")[0] in ("crisis", "rooms", "burn")} == \
        {"crisis-named-every-setting.png"}
    rooms = body[body.index('<section id="rooms">'):]
    rooms = rooms[:rooms.index("</section>")]
    assert "ranked in a chart" not in rooms
    assert rooms.count("A win here means:") == 2 and rooms.count("<summary>Every room of") == 2
    burn = body[body.index('<section id="burn">'):]
    burn = burn[:burn.index("</section>")]
    assert burn.count("<summary>Tables of 2nd edition, hand limit ") == 2
    assert "Charts and" not in burn
    assert "<h3>Every setting</h3>" in crisis and "2 settings" in crisis
    for label in ("2nd edition, hand limit 4", "2nd edition, hand limit 5"):
        assert f"<summary>{label}: the win rate at each named difficulty" in crisis
    assert crisis.count("Win rate at each named difficulty, by player count") == 2
    assert crisis.count("Win rate and mean turn reached, every difficulty and source") == 2
    # Nothing to chart at the named difficulties: each setting keeps its own curve.
    monkeypatch.setattr(page, "_named_overview", lambda a, settings: None)
    own = tmp_path / "own"
    check_page(write_report(run, own))
    assert {"crisis-curve-2nd-edition-hand-limit-4.png",
            "crisis-curve-2nd-edition-hand-limit-5.png"} <= \
        {p.name for p in (own / FIGURES).glob("crisis-*.png")}
    # Six settings or fewer: every section draws each setting's charts, as before.
    monkeypatch.setattr(page, "MANY_SETTINGS", 6)
    few = tmp_path / "few"
    check_page(write_report(run, few))
    drawn = {p.name for p in (few / FIGURES).glob("*.png")}
    assert {"rooms-crisis-2nd-edition-hand-limit-4.png",
            "burn-deck-2nd-edition-hand-limit-5.png"} <= drawn


def test_several_runs_make_one_report(tmp_path):
    from reports.tables.combine import combine

    crisis = synthetic_run(games_per_variant=20, rush=False, first_edition=False, fixed=False)
    rush = synthetic_run(games_per_variant=20, seed=2, exhausted=False, fixed=False)
    rush.manifest = dict(rush.manifest, experiment="rush-run", file="experiments/gemrush/rush.toml")
    both = combine([crisis, rush])
    n_crisis = len(crisis.manifest["variants"])
    assert both.games.height == crisis.games.height + rush.games.height
    assert both.games.unique(["variant", "game"]).height == both.games.height
    assert sorted(v["variant"] for v in both.manifest["variants"]) == list(
        range(n_crisis + len(rush.manifest["variants"])))
    # a rush game keeps its own variant's facts after renumbering
    facts = {v["variant"]: v for v in both.manifest["variants"]}
    for variant, mode, players in both.games.select("variant", "mode", "players").unique().rows():
        assert (facts[variant]["mode"], facts[variant]["players"]) == (mode, players)
    assert both.rooms["variant"].max() < len(facts)
    assert both.manifest["experiment"] == "synthetic + rush-run"
    page = write_report(both, tmp_path).read_text()
    assert "Crisis difficulty" in page and "Rush" in page and "rush.toml" in page


def test_an_interrupted_run_is_reported_as_incomplete(tmp_path, monkeypatch):
    _install_store(monkeypatch, lambda: synthetic_run(games_per_variant=10, rush=False,
                                                      first_edition=False, fixed=False),
                   missing=["v00001-g000000000010-000000000020"])
    page = build_report(tmp_path).read_text()
    assert "The run is incomplete: 1 shard(s) are not played yet" in page


def test_a_room_name_with_dollar_signs_is_text_not_mathtext(tmp_path):
    """Issue 12: a room named with `$...$` stopped the report with matplotlib's mathtext
    ParseFatalException; it is a name, drawn as written."""
    run = synthetic_run(games_per_variant=20, rush=False, first_edition=False, fixed=False)
    odd = r"$\frac{1}{$ Cave"
    run.rooms = run.rooms.with_columns(pl.col("room").replace("Lucky Seam", odd))
    body = check_page(write_report(run, tmp_path))
    assert "\\frac{1}{ Cave" in body or "frac{1}{" in body


def test_report_levels_choose_the_win_rates_targets_are_printed_for(tmp_path, cli,
                                                                     monkeypatch):
    _install_store(monkeypatch, lambda: synthetic_run(games_per_variant=20, rush=False,
                                                      first_edition=False, fixed=False))
    r = cli("report", tmp_path, "--levels", "90,70,50,30,10")
    assert r.exit_code == 0, r.output
    body = (tmp_path / PAGE).read_text()
    assert "70% wins" in body and "30% wins" in body and "75% wins" not in body
    bad = cli("report", tmp_path, "--out", tmp_path / "x", "--levels", "90,150")
    assert bad.exit_code == 2 and "--levels" in bad.output
    assert not (tmp_path / "x").exists()
    for jobs in ("0", "100000"):
        bad = cli("report", tmp_path, "--out", tmp_path / "x", "--jobs", jobs)
        assert bad.exit_code == 2 and "--jobs" in bad.output, bad.output
        assert not (tmp_path / "x").exists()


def test_curves_of_every_setting_share_their_axes(tmp_path, monkeypatch):
    """Charts of one quantity across settings share their axes (1st and 2nd edition here)."""
    from reports.gemrush import figures as F
    seen = []
    draw = F.difficulty_curve_figure

    def spy(curve, named, fixed, title, xlim=None):
        seen.append((title, xlim))
        return draw(curve, named, fixed, title, xlim)

    monkeypatch.setattr(F, "difficulty_curve_figure", spy)
    write_report(synthetic_run(games_per_variant=20, rush=False), tmp_path)
    assert len(seen) >= 2
    assert len({xlim for _, xlim in seen}) == 1 and seen[0][1] is not None


def _two_runs(rules: dict | None = None):
    """Two runs of the same setting (2e Crisis at 2 and 3 players, greedy) of 20 and 30
    games, as the main job's players run repeats crisis-difficulty's 4-player games."""
    first = synthetic_run(games_per_variant=20, rush=False, first_edition=False, fixed=False)
    second = synthetic_run(games_per_variant=30, seed=2, rush=False, first_edition=False,
                           fixed=False)
    second.manifest = dict(second.manifest, experiment="second", variants=[
        dict(v, rules=dict(rules or {})) for v in second.manifest["variants"]])
    return [first, second], ["runs/synthetic", "runs/second"]


def test_runs_are_reported_apart_unless_merged(tmp_path):
    """Issue 26 item 3: the report added the players run's 4-player greedy games to those of
    crisis-difficulty (10,200 games at 4 players, where the designer had asked 10,000).
    Kept apart, each setting is named with its run and counts its own games; merged on
    request, they are counted together and the page says where."""
    from reports.gemrush.analysis import analyse
    from reports.tables.combine import combine

    runs, names = _two_runs()
    apart = combine(runs, names)
    games = analyse(apart.games, apart.rooms, apart.manifest).difficulty.filter(
        pl.col("players") == 2).group_by("setting").agg(pl.col("games").first()).sort("setting")
    assert games.rows() == [("2nd edition (second)", 30), ("2nd edition (synthetic)", 20)]
    body = check_page(write_report(apart, tmp_path / "apart"))
    assert "<h3>2nd edition (synthetic)</h3>" in body and "<h3>2nd edition (second)</h3>" in body
    assert "counted together" not in body

    merged = combine(runs, names, merge=True)
    games = analyse(merged.games, merged.rooms, merged.manifest).difficulty.filter(
        pl.col("players") == 2)["games"].unique().to_list()
    assert games == [50]
    body = check_page(write_report(merged, tmp_path / "merged"))
    said = ("2nd edition, Crisis with 2 players: 20 games of synthetic and 30 games of second are "
            "counted together (--merge).")
    summary = body.split('<section id="summary">')[1].split("</section>")[0]
    assert said in summary  # at the top of the page
    crisis = body.split('<section id="crisis">')[1].split("</section>")[0]
    assert said in crisis  # and where the pooled games are read


def test_merge_refuses_runs_not_played_alike(tmp_path):
    """A rule fixed in one experiment file is no part of the setting's name: merged, its
    games would be counted as the other run's. Refused, naming both runs and the rule."""
    from reports.tables.combine import combine

    runs, names = _two_runs(rules={"hand_limit": 5})
    with pytest.raises(InputError, match=r"hand_limit") as e:
        write_report(combine(runs, names, merge=True), tmp_path)
    p = e.value.problems[0]
    assert p.file == "second" and p.where == "--merge" and "synthetic" in p.message
    assert not (tmp_path / PAGE).exists()
    check_page(write_report(combine(runs, names), tmp_path))  # apart, they are reported


def test_the_page_names_every_run_it_reads(tmp_path, monkeypatch):
    """Issue 26 item 3: the title and About this run listed three runs of five; the runs
    that measure skills are read in the Skills section only, and are named too."""
    import reports.page.build as build

    runs, names = _two_runs()
    skill = synthetic_run(games_per_variant=10, seed=3, rush=False, first_edition=False,
                          fixed=False)
    skill.manifest = dict(skill.manifest, experiment="each-skill", variants=[
        dict(v, swept={"skill": "none"}) for v in skill.manifest["variants"]])
    monkeypatch.setattr(build, "comparisons_of", lambda dirs, manifests: [])
    data = build.combined([*runs, skill], [Path(n) for n in [*names, "runs/each-skill"]])
    body = check_page(write_report(data, tmp_path))
    assert "From 3 runs: synthetic, second and each-skill." in body
    about = body.split('<section id="run">')[1]
    for name, folder, read_in in (("synthetic", "runs/synthetic", "every section but Skills"),
                                  ("second", "runs/second", "every section but Skills"),
                                  ("each-skill", "runs/each-skill", "Skills")):
        assert re.search(rf"<td>{name}</td><td>{folder}</td>.*?<td[^>]*>{read_in}</td>",
                         about), name
    assert "The runs are kept apart" in about
