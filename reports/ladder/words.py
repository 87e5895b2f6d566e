"""A ladder's numbers in a designer's words, for the report's section and the terminal.

A race's step reads as a difference of win shares: the upper rung's share of the games
against the lower rung's share per seat; a team game's as a difference of the team's win
rate. Both in percentage points, with the Bonferroni interval the tiers are read from
(balance/ladder/steps.py)."""

from __future__ import annotations

from reports.render import text


def title(s: dict, rung: int) -> str:
    return s["rungs"][rung]["title"]


def result_word(s: dict) -> str:
    return "win share" if s["race"] else "team's result"


def step_line(s: dict, st: dict) -> str:
    """One step: "Majority against Random: +59 pp (51 to 68), told apart"."""
    verdict = "told apart" if st["told_apart"] else "not told apart"
    return (f"{title(s, st['upper'])} against {title(s, st['lower'])}: "
            f"{difference_text(st['difference'], st['low'], st['high'])} {result_word(s)}, "
            f"{verdict}")


def difference_text(d, lo, hi) -> str:
    """A step's difference with its interval; alone where every seed differed alike (the
    interval is that one value)."""
    if lo is not None and lo == hi:
        return text.signed_points(d)
    return text.difference(d, lo, hi)


def luck_line(s: dict, d: dict) -> str:
    """One rung's seed analysis: "Random: the deal explains 0% (0-5%) of the outcome"."""
    if d["deal_share"] is None:
        return f"{title(s, d['rung'])}: no result varied, so no share of it is the deal's"
    return (f"{title(s, d['rung'])}: the deal explains {share_text(d)} of the outcome's "
            "variance")


def share_text(d: dict) -> str:
    """The deal's share with its interval; alone where every resample gave the same share
    (players who replay a seed identically: 100%)."""
    if d["deal_share"] is None:
        return text.DASH
    if d["low"] == d["high"]:
        return text.pct(d["deal_share"])
    return text.rate(d["deal_share"], d["low"], d["high"])


def summary_line(s: dict) -> str:
    """The ladder's one-line verdict."""
    n = s["tiers"]
    rungs = len(s["rungs"])
    rule = f"each step's interval at {text.level_label(s['rule']['level'])} (Bonferroni)"
    if n == 1:
        return (f"1 tier: no rung of the {rungs} is told apart from the one below it "
                f"({rule}); a better player does not clearly win more here")
    return f"{n} tiers a designer can tell apart among {rungs} rungs ({rule})"


def upset_sentence(s: dict, st: dict) -> str | None:
    """How often the stronger side of a step told apart still loses."""
    if not st["told_apart"] or st.get("upset") is None:
        return None
    strong, weak = (st["upper"], st["lower"]) if st["difference"] >= 0 else \
        (st["lower"], st["upper"])
    if s["race"]:
        return (f"{title(s, strong)} still loses {text.pct(st['upset'])} of the games "
                f"{title(s, weak)} shares with it ({text.pct(st['upset_chance'])} if strength "
                "did not matter).")
    return (f"Where only one of the two teams wins a deal, {title(s, weak)}'s team is the "
            f"one in {text.pct(st['upset'])} of them (half if strength did not matter).")


def stays_sentence(s: dict, k: dict) -> str | None:
    if k["stays"] is None:
        return None
    who = "seat that wins a deal most often" if s["race"] else "deal's outcome"
    return (f"From {title(s, k['lower'])} to {title(s, k['upper'])}, the {who} stays the "
            f"same on {text.pct(k['stays'])} of the seeds ({text.pct(k['chance'])} if the "
            "two rungs' deals were unrelated).")
