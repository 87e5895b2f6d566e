"""Gem Runner's "Which cards matter" section: one sentence naming the cards that go with more or
fewer wins (reports/gem_runner/cards.py counts them), a folded table per setting and hero, the
chart of the main one, and the removal of each card where a run takes cards out (`balance ablate
--how cards`), paired on common seeds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from reports.gem_runner.cards import card_words, hero_words
from reports.gem_runner.findings import player_words
from reports.gem_runner.page import comparison_table
from reports.render import text
from reports.render.figures import canvas
from reports.render.section import Block, Section, Table, figure

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure

NAMED = 3  # the cards a sentence names on each side
REMOVAL = "without"  # the rule a removal variant changes, alone


def cards_section(a, pairs: list) -> Section:
    s = Section("cards", "Which cards matter", intro=[
        "For each card of a hero's deck: how often a seat drew it and played it, and how "
        "often the seats that did won against those that did not. An association, not a "
        "cause: a longer game draws more cards, and a seat that wins its runs plays more. "
        "What taking a card out of the deck does is measured apart, on common seeds (`balance "
        "ablate --how cards`), below where a run plays it."])
    s.method = [
        "A unit is a seat of a game; it wins when its side does (head to head, the seat "
        "itself; against the Computer, the seats together); a game stopped undecided is a "
        "loss. Drawn: dealt or drawn at any time; played: laid in a Challenge the seat built "
        "(a Gem dug for it too), used to beat a card of a Challenge, or played as a Bug or Bug "
        "Fix. A card is a name of its deck file: its copies count as one. 95% Wilson "
        "intervals for each rate, Newcombe's for their difference."]
    c = a.cards
    if c is None or c.height == 0:
        s.missing.append("The run's games table has no card record (cards_drawn, "
                         "cards_played): it was played before the record, or has no games.")
    else:
        # The decks as they are: a setting that takes a card out is read below, paired.
        groups = [g for g in (c.group_by("setting", "players", "hero", maintain_order=True)
                              .agg(pl.col("seats").first()).sort("seats", descending=True)
                              ).rows()
                  if REMOVAL not in ((a.lever(g[0], g[1]) or {}).get("changed") or "")]
        for i, (setting, players, hero, _n) in enumerate(groups):
            mine = c.filter((pl.col("setting") == setting) & (pl.col("players") == players)
                            & (pl.col("hero") == hero))
            s.blocks.append(_block(a, mine, setting, players, hero, main=i == 0))
    removal = [p for p in pairs if p.differs() == {REMOVAL}]
    if removal:
        q = ([("automa", "The Computer wins"), ("length:mean", "Length")]
             if removal[0].computer else [("first", "Seat 1 wins"), ("length:mean", "Length")])
        s.blocks.append(Block("Each card taken out of the decks", paragraphs=[
            "Each card taken out of the decks in play (every copy), against the full decks on "
            "the same seeds: a causal measure, where the columns above are associations."],
            tables=[comparison_table(removal, f"Each card taken out, against "
                                     f"{removal[0].base_label}, on the same games", q)]))
    return s


def _block(a, mine: pl.DataFrame, setting: str, players: int, hero: str, main: bool) -> Block:
    lv = a.lever(setting, players) or {}
    who = player_words(lv.get("heuristic", "")) if lv else ""
    said = f" ({who})" if who and who.lower() not in setting.lower() else ""
    where = f"{setting}{said}, {hero_words(hero)}'s deck"
    b = Block(f"Which cards matter in {where}", paragraphs=[sentence(mine, hero)],
              fold="" if main else "Each card's seats against the others")
    rows = []
    for r in mine.sort("played_diff", descending=True, nulls_last=True).iter_rows(named=True):
        rows.append([r["card"], r["kind"], text.pct(r["drew_share"]),
                     text.pct(r["played_share"]),
                     text.rate(r["played_rate"], r["played_rate_low"], r["played_rate_high"]),
                     text.rate(r["played_not_rate"], r["played_not_rate_low"],
                               r["played_not_rate_high"]),
                     _diff(r, "played"), _diff(r, "drew")])
    b.tables.append(Table(
        f"Each card's seats against the others ({text.count(int(mine['seats'][0]))} seats)",
        ["Card", "Kind", "Drawn", "Played", "Wins when played", "Wins when not played",
         "Played: difference (95%)", "Drawn: difference (95%)"], rows, left=2, fold="closed"))
    if main and mine["played_diff"].drop_nulls().len() > 1:
        b.figures.append(figure(
            "cards.png", f"The win rate of the seats that played each card of "
            f"{hero_words(hero)}'s deck minus the others', with its 95% Newcombe interval "
            f"({where}).", played_figure(mine, hero)))
    return b


def _diff(r: dict, arm: str) -> str:
    return text.difference(r[f"{arm}_diff"], r[f"{arm}_diff_low"], r[f"{arm}_diff_high"])


def sentence(mine: pl.DataFrame, hero: str) -> str:
    """The cards whose players won more, or less, than the seats that did not play them,
    where the interval is clear of 0."""
    have = mine.filter(pl.col("played_diff").is_not_null())
    more = have.filter(pl.col("played_diff_low") > 0).sort("played_diff", descending=True)
    less = have.filter(pl.col("played_diff_high") < 0).sort("played_diff")
    parts = []
    for rows, how in ((more, "more"), (less, "less")):
        if rows.height:
            named = [f"{card_words(hero, r['card'])} ({_diff(r, 'played')})"
                     for r in rows.head(NAMED).iter_rows(named=True)]
            extra = f" and {rows.height - NAMED} more" if rows.height > NAMED else ""
            parts.append(f"the seats that played {text.join_words(named)}{extra} won {how} "
                         "often than those that did not")
    if not parts:
        return ("No card's play goes with more or fewer wins beyond chance here (every "
                "interval holds 0): an association, not a cause.")
    said = "; ".join(parts)
    return said[0].upper() + said[1:] + ": an association, not a cause."


def played_figure(mine: pl.DataFrame, hero: str) -> Figure:
    """One dot per card, the difference of the win rates (played minus not) with its
    interval, the largest on top."""
    rows = mine.filter(pl.col("played_diff").is_not_null()).sort("played_diff")
    with canvas(8.0, 1.2 + 0.22 * rows.height) as (fig, (ax,)):
        ys = np.arange(rows.height)
        d = rows["played_diff"].to_numpy() * 100
        lo, hi = rows["played_diff_low"].to_numpy() * 100, rows["played_diff_high"].to_numpy() * 100
        ax.errorbar(d, ys, xerr=np.vstack([d - lo, hi - d]), fmt="o", color="C0", capsize=2)
        ax.axvline(0, color="0.5", lw=0.8)
        ax.set_yticks(ys, rows["card"].to_list())
        ax.set_xlabel("Wins when played minus wins when not (percentage points)")
        ax.set_title(f"Which cards of {hero_words(hero)}'s deck go with wins")
    return fig
