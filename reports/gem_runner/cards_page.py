"""Gem Runner's "Which cards matter" section. Where a run takes each card out (`balance ablate
--how cards`), the removal leads: a cause, paired on common seeds. Then one block per hero's
deck, pooled over the settings that play it whole (reports/gem_runner/cards.py): a sentence
naming the cards that stand out from the deck's typical card when drawn (which card a seat is
dealt is luck), one for played, the table of every card, their chart, and the settings pooled
folded."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from balance.games.gem_runner.rules import HERO_NAMES
from reports.gem_runner.cards import card_words, hero_words, pooled, standing
from reports.gem_runner.page import comparison_table
from reports.render import text
from reports.render.figures import canvas
from reports.render.section import Block, Section, Table, figure
from reports.render.text import DASH

if TYPE_CHECKING:  # matplotlib is imported only to draw (reports/render/figures.py, style)
    from matplotlib.figure import Figure

NAMED = 3  # the cards a sentence names on each side
REMOVAL = "without"  # the rule a removal variant changes, alone
ASSOCIATION = "an association, not a cause"
TYPICAL = "the deck's typical card"
PLURALS = {"Boss": "Bosses", "Bug Fix": "Bug Fixes"}
ARM_WORDS = {"drew": ("Drawn", "drew"), "played": ("Played", "played")}


def cards_section(a, pairs: list) -> Section:
    s = Section("cards", "Which cards matter", intro=[
        "Which cards of each hero's deck stand out. Nearly every card goes with more wins "
        "when a seat holds it or plays it, because a seat that draws and plays many cards is "
        "one whose game goes well: each card is therefore read against the deck's typical "
        "card, and drawn first (which card a seat is dealt is luck; whether it plays it is "
        "not). Both are " + ASSOCIATION + ". Where a run takes each card out of the decks "
        "(balance ablate --how cards), what that does, paired on the same games, comes "
        "first: a cause."])
    s.method = [
        "A unit is a seat of a game; it wins when its side does (head to head, the seat "
        "itself; against the Computer, the seats together); a game stopped undecided is a "
        "loss. Drawn: dealt or drawn at any time; played: laid in a Challenge the seat built "
        "(a Gem dug for it too), used to beat a card of a Challenge, or played as a Bug or Bug "
        "Fix. A card is a name of its deck file: its copies count as one.",
        "A hero's deck is read over every setting that plays it with all its cards (a "
        "setting that takes a card out is read in the removal's table), pooled: within each "
        "setting's seat (seat 1 of one setting, say), the win rate of the seats that drew the "
        "card minus the others'; over them, the Mantel-Haenszel weighted mean of those "
        "differences, so that a seat is only ever compared with seats of its own setting and "
        "seat, and a setting's own win rate never passes for a card's. The 95% interval is "
        "the normal one (the seats of a game counted apart).",
        "The deck's typical card is its median card's difference. A card stands out when its "
        "difference less the typical card's is clear of zero after Holm's correction over "
        "the deck's cards (5% familywise; the typical card taken as fixed), marked *. "
        "A removal is paired on common seeds against the full decks (Tango's interval, "
        "Holm's correction over the run's differences)."]
    c = a.cards
    removal = [p for p in pairs if p.differs() == {REMOVAL}]
    if removal:
        s.blocks.append(_removal_block(removal))
    if c is None or c.height == 0:
        s.missing.append("The run's games table has no card record (cards_drawn, "
                         "cards_played): it was played before the record, or has no games.")
        return s
    # The decks as they are: a setting that takes a card out is read in the removal's table.
    taken = [(st, p) for st, p in c.select("setting", "players").unique().rows()
             if REMOVAL in ((a.lever(st, p) or {}).get("changed") or "")]
    whole = c.join(pl.DataFrame(taken, schema={"setting": pl.Utf8, "players": pl.Int64},
                                orient="row"), on=["setting", "players"], how="anti")
    heroes = [h for h in HERO_NAMES if h in set(whole["hero"].to_list())]
    heroes += sorted(set(whole["hero"].to_list()) - set(heroes))
    for hero in heroes:
        s.blocks.append(deck_block(whole.filter(pl.col("hero") == hero), hero))
    return s


def _removal_block(removal: list) -> Block:
    computer = removal[0].computer
    q = ([("automa", "The Computer wins"), ("length:mean", "Length")] if computer
         else [("first", "Seat 1 wins"), ("length:mean", "Length")])
    return Block("Each card taken out of the decks", paragraphs=[removal_sentence(
        removal, q[0][0], "the Computer's wins" if computer else "seat 1's wins")],
        tables=[comparison_table(removal, f"Each card taken out, against "
                                 f"{removal[0].base_label}, on the same games", q)])


def removal_sentence(removal: list, quantity: str, what: str) -> str:
    """The cards whose removal moves `quantity` beyond chance (Holm), the largest first."""
    moved = [(p, r) for p in removal if (r := p.row(quantity)) is not None and r["holm"]]
    moved.sort(key=lambda pr: -abs(pr[1]["difference"]))
    if not moved:
        return (f"Taking any one card out of the decks changes {what} within chance on these "
                f"games (Holm's correction over the run's differences; "
                f"{text.count(len(removal))} cards taken out, each on the same games as the "
                "full decks).")
    named = [f"{p.rules[REMOVAL]} ({text.difference(r['difference'], r['ci_low'], r['ci_high'])}"
             ")" for p, r in moved[:NAMED]]
    extra = f" and {len(moved) - NAMED} more" if len(moved) > NAMED else ""
    return (f"Taking {text.join_words(named)}{extra} out of the decks changes {what} beyond "
            f"chance, on the same games as the full decks (Holm): a cause. Each other card's "
            "removal is within chance.")


def deck_block(mine: pl.DataFrame, hero: str) -> Block:
    """One hero's deck, pooled over its settings' seats (the counts of cards.card_value)."""
    t = standing(pooled(mine))
    settings = mine.select("setting", "players").unique(maintain_order=True)
    b = Block(f"{hero_words(hero)}'s deck", paragraphs=[
        sentence(t, hero, "drew"), sentence(t, hero, "played"),
        f"Pooled over {text.plural(settings.height, 'setting')} that "
        f"{'play' if settings.height > 1 else 'plays'} the deck whole, "
        f"{text.count(int(t['seats'].max()))} seats; each seat compared only with seats of "
        "its own setting and seat."])
    rows = []
    for r in t.sort("drew_rel", descending=True, nulls_last=True).iter_rows(named=True):
        rows.append([r["card"], r["kind"], text.pct(r["drew_share"]), _diff(r, "drew"),
                     _rel(r, "drew"), text.pct(r["played_share"]), _diff(r, "played"),
                     _rel(r, "played")])
    typical = [f"{w.lower()} {text.signed_points(r)}" for arm, (w, _) in ARM_WORDS.items()
               if (r := t[f"{arm}_typical"][0]) is not None]
    b.tables.append(Table(
        f"Each card of {hero_words(hero)}'s deck, against the seats without it and against "
        f"{TYPICAL}", ["Card", "Kind", "Drawn", "Drawn: against the others (95%)",
                       "Drawn: against the typical card", "Played",
                       "Played: against the others (95%)", "Played: against the typical card"],
        rows, left=2, fold="closed",
        note=(f"The typical card: {', '.join(typical)} against the seats without it. "
              if typical else "") + "* stands out beyond chance (Holm over the deck's cards)."))
    if settings.height > 1:
        b.tables.append(settings_table(mine, hero))
    if t["drew_rel"].drop_nulls().len() > 1:
        b.figures.append(figure(
            f"cards-{hero}.png", f"Each card of {hero_words(hero)}'s deck: the seats that "
            f"drew it (or played it) against the others, less {TYPICAL}'s, with its 95% "
            "interval.", rel_figure(t, hero)))
    return b


def settings_table(mine: pl.DataFrame, hero: str) -> Table:
    """Each setting pooled: its seats, their wins, and its typical card's differences (what a
    card goes with there before any card is told from another)."""
    per = standing(pooled(mine, ("setting", "players", "card")), ("setting", "players"))
    rows = []
    for (setting, players), g in per.group_by("setting", "players", maintain_order=True):
        seats = mine.filter((pl.col("setting") == setting) & (pl.col("players") == players)
                            & (pl.col("card") == mine["card"][0]))
        n, k = int(seats["seats"].sum()), int(seats["wins"].sum())
        rows.append([setting if players == 1 else f"{setting}, {players} players",
                     text.count(n), text.pct(k / n) if n else DASH,
                     text.signed_points(g["drew_typical"][0]),
                     text.signed_points(g["played_typical"][0])])
    return Table(f"The settings pooled for {hero_words(hero)}'s deck",
                 ["Setting", "Seats", "Seats win", "Typical card drawn",
                  "Typical card played"], rows, fold="closed",
                 note="The typical card: the deck's median card's win rate when drawn (or "
                      "played) against the seats without it, in that setting.")


def _diff(r: dict, arm: str) -> str:
    return text.difference(r[f"{arm}_diff"], r[f"{arm}_low"], r[f"{arm}_high"])


def _rel(r: dict, arm: str) -> str:
    said = text.difference(r[f"{arm}_rel"], r[f"{arm}_rel_low"], r[f"{arm}_rel_high"])
    return said + (" *" if r[f"{arm}_stands"] else "")


def sentence(t: pl.DataFrame, hero: str, arm: str) -> str:
    """The cards of one deck that stand out from its typical card (`cards.standing`) for one
    arm, beyond chance: those above, then those below, NAMED of each and how many more."""
    word, verb = ARM_WORDS[arm]
    compared = t.filter(pl.col(f"{arm}_rel").is_not_null())
    if compared.height < 2:
        return (f"{word}: too few seats to set {hero_words(hero)}'s cards against each other "
                f"({ASSOCIATION}).")
    stands = compared.filter(pl.col(f"{arm}_stands"))
    above = stands.filter(pl.col(f"{arm}_rel") > 0).sort(f"{arm}_rel", descending=True)
    below = stands.filter(pl.col(f"{arm}_rel") < 0).sort(f"{arm}_rel")
    if not stands.height:
        return (f"{word}: no card of {hero_words(hero)}'s deck stands out from {TYPICAL} "
                f"beyond chance (Holm's correction over its "
                f"{text.plural(compared.height, 'card')}; {ASSOCIATION}).")
    parts = []
    for rows, how in ((above, "more"), (below, "less")):
        if not rows.height:
            continue
        named = []
        for i, r in enumerate(rows.head(NAMED).iter_rows(named=True)):
            first = not parts and i == 0
            said = text.signed_points(r[f"{arm}_rel"])
            if i == 0:  # "+6 pp (4 to 8)": its interval after the words
                said, _, interval = text.difference(
                    r[f"{arm}_rel"], r[f"{arm}_rel_low"], r[f"{arm}_rel_high"]).partition(" (")
                said += f" against {TYPICAL}" * first + f", {interval.rstrip(')')}" * bool(
                    interval)
            named.append(f"{card_words(hero, r['card']) if first else r['card']} ({said})")
        extra = _more(rows.slice(NAMED)) if rows.height > NAMED else ""
        parts.append(f"the seats that {verb} {text.join_words(named)}{extra} won {how} often")
    said = "; ".join(parts)
    return f"{word}: {said} ({ASSOCIATION})."


def _more(rest: pl.DataFrame) -> str:
    """", and 12 more (10 Gems, 2 Chains)": the cards not named, by kind."""
    kinds = rest.group_by("kind", maintain_order=True).len().sort("len", descending=True)
    each = [f"{n} {PLURALS.get(k, k + 's') if n > 1 else k}" for k, n in kinds.rows()]
    return f", and {rest.height} more ({', '.join(each)})"


def rel_figure(t: pl.DataFrame, hero: str) -> Figure:
    """One row per card, the largest drawn difference on top: drawn and played, each against
    the deck's typical card, with its interval."""
    rows = t.filter(pl.col("drew_rel").is_not_null()).sort("drew_rel")
    with canvas(8.0, 1.4 + 0.22 * rows.height) as (fig, (ax,)):
        ys = np.arange(rows.height)
        for k, (arm, color) in enumerate((("drew", "C0"), ("played", "C1"))):
            d = rows[f"{arm}_rel"].to_numpy() * 100
            ok = ~np.isnan(d)
            lo = rows[f"{arm}_rel_low"].to_numpy() * 100
            hi = rows[f"{arm}_rel_high"].to_numpy() * 100
            y = ys[ok] + (0.15 if k == 0 else -0.15)
            ax.errorbar(d[ok], y, xerr=np.vstack([d[ok] - lo[ok], hi[ok] - d[ok]]), fmt="o",
                        color=color, capsize=2, ms=4, label=ARM_WORDS[arm][0])
        ax.axvline(0, color="0.5", lw=0.8)
        ax.set_yticks(ys, rows["card"].to_list())
        ax.set_xlabel("Wins against the deck's typical card (percentage points)")
        ax.set_title(f"Which cards of {hero_words(hero)}'s deck stand out")
        ax.legend(loc="lower right")
    return fig
