"""What each expansion changes (issue 51's designer's question): every variant that switches an
expansion on against a baseline without it, on the same games (reports/gem_mountain/levers.py,
EXPANSION_KIND), read for the length, the first seat's share of the games one player won and
the winner's margin. The report's section "What each expansion changes" is a table per run; its
verdict says once per run, in the expansions' box names, what each moves beyond chance (Holm's
correction over the run's differences) with its paired 95% interval.

experiments/gem_mountain/expansions.toml plays the base game and each expansion beside it
(the grid's `expansion` key); a file sweeping one switch (dark-tunnels.toml) is read alike."""

from __future__ import annotations

from balance.contract.labels import value_words
from balance.games.gem_mountain.game import EXPANSIONS, GAME
from reports.gem_mountain.analysis import EXPANSION_SWITCHES
from reports.gem_mountain.findings import player_words
from reports.gem_mountain.levers import EXPANSION_KIND, Pair
from reports.gem_mountain.page import HOLM, PAIRED, baseline_line, comparison_table
from reports.outcomes import findings
from reports.outcomes.findings import Verdict, who_of
from reports.render import text
from reports.render.section import Block, Section
from reports.tables.variants import by_run

# The three answers the question asks for, then two that say why they move.
ASKED = (("length:mean", "Length"), ("seat:1", "First seat"), ("margin:mean", "Margin"))
BESIDE = (("least_decides", "The least decides"), ("actions_used", "Actions used"))
RUN_IT = ("`balance run experiments/gem_mountain/expansions.toml` plays the base game and each "
          "expansion beside it on the same games.")


def name_of(p: Pair) -> str:
    """The expansion a pair switches on, by its box name ("Dark Tunnels"), with any other
    setting it changes in words ("Golden Actions, Flashlight tiles 2")."""
    on = [EXPANSIONS[k] for k in EXPANSION_SWITCHES if p.rules[k] and not p.base_rules[k]]
    rest = [value_words(GAME, k, p.rules[k]) for k in sorted(p.differs())
            if k not in EXPANSION_SWITCHES]
    return ", ".join([text.join_words(on), *rest])


def several(p: Pair) -> bool:
    """The pair switches on more than one expansion: its clause takes a plural verb."""
    return sum(bool(p.rules[k] and not p.base_rules[k]) for k in EXPANSION_SWITCHES) > 1


def _moved(q: str, r: dict, many: bool = False) -> str:
    """A difference beyond chance, as a designer says it: "lengthens a game by 1.00 turns
    (0.95 to 1.04)". The interval is the paired 95% one, as magnitudes."""
    d, lo, hi = r["difference"], r["ci_low"], r["ci_high"]
    up = d > 0
    size, a, b = (d, lo, hi) if up else (-d, -hi, -lo)
    if q == "seat:1":
        verb = "raises" if up else "lowers"
        return (f"{verb[:-1] if many else verb} the first seat's share of the wins by "
                f"{text.difference(size, a, b).lstrip('+')}")
    verb, what, unit = {"length:mean": ("lengthens" if up else "shortens", "a game", "turns"),
                        "margin:mean": ("widens" if up else "narrows", "the winner's margin",
                                        "points")}[q]
    return f"{verb[:-1] if many else verb} {what} by {size:.2f} {unit} ({a:.2f} to {b:.2f})"


UNMOVED = {"length:mean": "the length", "seat:1": "the first seat's share",
           "margin:mean": "the margin"}


def clause(p: Pair) -> str | None:
    """One expansion's part of the verdict; None when the comparison has none of its rows."""
    rows = [(q, r) for q, _ in ASKED if (r := p.row(q)) is not None]
    if not rows:
        return None
    many = several(p)
    moved = [_moved(q, r, many) for q, r in rows if r["holm"]]
    still = [UNMOVED[q] for q, r in rows if not r["holm"]]
    name = name_of(p) + (" together" if many else "")
    if not moved:
        either = still[0] if len(still) == 1 else f"{', '.join(still[:-1])} or {still[-1]}"
        return (f"{name} {'change' if many else 'changes'} none of {either} beyond chance"
                if len(still) > 1 else
                f"{name} {'do' if many else 'does'} not change {either} beyond chance")
    said = f"{name} {text.join_words(moved)}"
    return said + (f", {text.join_words(still)} within chance" if still else "")


def detail(p: Pair) -> str:
    parts = []
    for q, h in (*ASKED, *BESIDE):
        r = p.row(q)
        if r is None:
            continue
        rate = r["kind"] == "rate"
        was, now = ((text.pct(r["baseline"], 1), text.pct(r["value"], 1)) if rate else
                    (text.num(r["baseline"], 2), text.num(r["value"], 2)))
        change = (findings.effect_text(r, " pp", 100.0) if rate else
                  findings.effect_text(r, ""))
        parts.append(f"{h.lower()} {was} → {now}, {change}"
                     + (", Holm" if r["holm"] else ""))
    return f"{name_of(p)} against {p.base_label}: " + "; ".join(parts)


def verdicts(pairs: list[Pair], players_of: dict[str, list[str]]) -> list[Verdict]:
    out = []
    for run, mine in by_run(pairs, EXPANSION_KIND).items():
        said = [c for p in mine if (c := clause(p)) is not None]
        if not said:
            continue
        players = players_of.get(run) or [player_words(s) for s in dict.fromkeys(mine[0].seats)]
        out.append(Verdict("Expansions", "Against " + mine[0].base_label + " on the same "
                           "games, " + "; ".join(said) + ".",
                           who_of(players, f"{run} run"),
                           [detail(p) for p in mine] + [
                               "Paired 95% intervals on the games both arms played; beyond "
                               "chance: clear after Holm's correction over "
                               f"{mine[0].cmp.family} differences of the run."]))
    return out


def section(pairs: list[Pair]) -> Section:
    s = Section("expansions", "What each expansion changes", intro=[
        "Each expansion switched on against the game without it, on the same games: how long "
        "a game lasts, the first seat's share of the games one player won and the winner's "
        "margin, with the games the least's penalty decides and the actions used beside "
        "them."])
    s.method = [PAIRED + HOLM]
    q = [*ASKED, *BESIDE]
    for run, mine in by_run(pairs, EXPANSION_KIND).items():
        s.blocks.append(Block(f"The expansions in {run}", paragraphs=[baseline_line(mine, q)],
                              tables=[comparison_table(
                                  mine, f"Each expansion against {mine[0].base_label}, on the "
                                  "same games", q)]))
    if not s.blocks:
        s.missing.append("No run here switches an expansion on against the game without it: "
                         + RUN_IT)
    return s
