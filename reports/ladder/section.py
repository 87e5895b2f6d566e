"""The section Strength and luck (`balance report RUN --ladder DIR`): the ladder's rungs, each
against the one below with its paired interval, the tiers, how often the stronger side
still loses, and how far each rung's outcome hangs on the deal (balance/ladder/)."""

from __future__ import annotations

from reports.ladder.figures import ladder_figure
from reports.ladder.words import (
    difference_text,
    luck_line,
    result_word,
    share_text,
    stays_sentence,
    step_line,
    summary_line,
    title,
    upset_sentence,
)
from reports.render import text
from reports.render.section import Block, Section, Table, figure


def ladder_section(s: dict, folder: str = "") -> Section:
    sec = Section("ladder", "Strength and luck")
    players = s["players"]
    sec.intro = [
        f"Does a better player win more often, and how much of the outcome is the deal? "
        f"{text.count(len(s['rungs']))} players of rising strength (the rungs: "
        f"{text.join_words([r['title'] for r in s['rungs']])}) play {players}-seat games "
        f"on the same {text.count(s['games'])} seeds.", summary_line(s)]
    told = [st for st in s["steps"] if st["told_apart"]]
    sentences = [step_line(s, st) + "." for st in s["steps"]]
    sentences += [x for st in told if (x := upset_sentence(s, st))]
    sec.blocks.append(Block("The ladder", paragraphs=sentences, figures=[figure(
        "strength-ladder.png", "Left: each rung against the one below (dots: the difference; "
        "bars: the interval the tiers are read from; blue: told apart). Right: the deal's "
        "share of the outcome's variance at each rung, with its 95% interval.",
        ladder_figure(s))], tables=[steps_table(s)]))
    luck = [luck_line(s, d) + "." for d in s["luck"]["deal"]]
    luck += [x for k in s["luck"]["stays"] if (x := stays_sentence(s, k))]
    sec.blocks.append(Block("How much is luck", paragraphs=luck, tables=[deal_table(s)]))
    sec.method = method(s, folder)
    return sec


def steps_table(s: dict) -> Table:
    rows = []
    for st in s["steps"]:
        rows.append([title(s, st["upper"]), title(s, st["lower"]),
                     text.pct(st["upper_result"], 1), text.pct(st["lower_result"], 1),
                     difference_text(st["difference"], st["low"], st["high"]),
                     difference_text(st["difference"], st["low95"], st["high95"]),
                     "yes" if st["told_apart"] else "no",
                     DASH_IF(st.get("upset")), text.count(st["seeds"])])
    return Table("Each rung against the one below, paired on seeds",
                 ["Rung", "Against", f"Its {result_word(s)}", "The other's",
                  "Difference (tier interval)", "Difference (95%)", "Told apart",
                  "Stronger side loses", "Seeds"], rows, left=2)


def deal_table(s: dict) -> Table:
    rows = [[title(s, d["rung"]), share_text(d),
             text.count(d["seeds"]), text.count(d["repeats"])] for d in s["luck"]["deal"]]
    return Table("The deal's share of the outcome's variance, at each rung",
                 ["Rung", "Deal's share", "Seeds", "Replays of each"], rows)


def DASH_IF(x) -> str:  # noqa: N802 (reads as the cell it fills)
    return text.DASH if x is None else text.pct(x)


def method(s: dict, folder: str) -> list[str]:
    rule = s["rule"]
    how = ("each rung plays one seat against the rung below on every other seat, in each "
           "seat in turn, on every seed; a seat's share of a game is 1 for a win, 0 for a "
           "loss, 1/players for a tie or a game stopped undecided" if s["race"] else
           "every seat plays the rung; the team's result is 1 won, 0 lost, a half for a "
           "game stopped undecided, each seed's averaged over its replays")
    return [
        f"Rungs, weakest first: {text.join_words([r['title'] for r in s['rungs']])}. "
        f"Pairing: {how}. The difference is the mean over seeds of the upper rung's "
        f"{result_word(s)} minus the lower's, with the paired t interval.",
        f"Tiers: the {rule['steps']} steps are read together, so each interval is at "
        f"{text.level_label(rule['level'])} (Bonferroni: all hold together at least 95% of "
        "the time); a step whose interval excludes 0 separates two tiers.",
        "The deal's share: every seat plays one rung, each seed is replayed "
        f"{s['repeats']} times with the players' own random streams drawn anew and the "
        "game's kept; a one-way random-effects analysis of variance splits the result's "
        "variance between seeds and within a seed (after Goodman, Perez-Liebana and Lucas, "
        "Seeding for Success, arXiv 2503.02686). Its interval resamples the seeds.",
        f"Played with `{s.get('command') or 'balance ladder'}`" + (f" into {folder}" if folder
                                                                  else "") +
        f", seed {s['seed']}, code {s['source_hash']}.",
    ]
