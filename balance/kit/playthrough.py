"""Playthroughs: a whole game as text, written from its events (as OpenSpiel's are), so that a
game writes no trace of its own. Each event of the game's is a line or a part of the next one
(KitGame.events), each decision its options and the pick (KitGame.show_decisions), and the
end its outcome, scores and tallies (KitGame.closing).

Goldens are playthroughs checked in (KitGame.goldens, `<rules' folder>/golden/`): any change
in the rules shows as a diff a person can read. After an intended change:

    python -m balance.kit.playthrough tests.games.dice.game:KIT   # rewrite them
    python -m balance.kit.playthrough --show tests.games.dice.game:KIT   # read them

and read the diff before committing it. The contract tests compare every kit game's goldens.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from balance.contract.game import resolve
from balance.kit.declare import KitGame
from balance.kit.play import Setup, play_traced, prepare
from balance.kit.records import Records
from balance.kit.state import (
    AUTOMA,
    AUTOMA_WON,
    END_EVENT,
    OPTION_EVENT,
    OUTCOMES,
    PICK_EVENT,
    SEAT_WON,
    TURN_EVENT,
)
from balance.kit.view import View

WORDS = {"tie": "a tie", "team": "the team wins", "automa": "the automa wins",
         "undecided": "no winner", "not ended": "not ended"}


def outcome_words(outcome: int, winner: int, automa: str = "") -> str:
    """How a trace says a game ended; the automa by its name, where the game gives one."""
    if outcome == SEAT_WON:
        return f"seat {winner + 1} wins"
    if outcome == AUTOMA_WON and automa:
        return f"{automa} wins"
    return WORDS[OUTCOMES[outcome]]


def who(kit, seat: int) -> str:
    """A decision's seat (from 0) as a trace writes it: the automa by its name."""
    return kit.automa if seat == AUTOMA and kit.automa else f"seat {seat + 1}"


def render(setup: Setup, seed: int) -> str:
    """Game `seed` of the setup, told event by event, with the state as text at each turn
    when the game has a view (KitGame.view)."""
    kit = setup.kit
    records, events = play_traced(setup, seed)
    view = resolve(kit.view)(setup) if kit.view else View(setup)
    header = view.header()
    lines = [kit.header.format(seed=seed, players=", ".join(setup.seats), **setup.values)
             if header is None else header]
    parts: list[str] = []
    options: list = []
    ended = False
    for row in events:
        code = int(row[2])
        if code == OPTION_EVENT:
            options.append(row[3:7])
            continue
        if code == PICK_EVENT:
            if kit.show_decisions:
                lines.append(_decision(kit, view, row, options))
            options = []
            continue
        text = view.text() if code in (TURN_EVENT, END_EVENT) else None
        if text is not None:
            lines.append(text)
        told = view.event(row)
        if told is not None:
            if told:
                lines.append(told)
        elif code == END_EVENT:
            lines.append(closing(kit, records))
        elif code != TURN_EVENT:
            event = kit.events[code]
            values = event.values(row)
            if event.part:
                parts.append(event.part.format(**values))
            if event.line:
                lines.append(event.line.format(**values, parts=" ".join(parts)))
                parts = []
        ended = ended or code == END_EVENT
    if not ended:
        lines.append(f"(the trace stops here: the kit keeps the first {kit.max_events:,} "
                     "events)")
    return "\n".join(lines) + "\n"


def _decision(kit, view: View, row, options: list) -> str:
    """A decision's line: its options, each as the view or its kind words it, and the pick."""
    decision, pick = int(row[3]), int(row[4])
    words = []
    for j, o in enumerate(options):
        said = view.option(int(row[1]), decision, o)
        if said is None:
            said = kit.options[int(o[0])].words(*map(int, o[1:]))
        words.append(f"{j}: {said}")
    shown = " | ".join(words)
    line = view.decision(int(row[1]), decision, shown, pick)
    if line is not None:
        return line
    return f"  {who(kit, int(row[1]))} {kit.decisions[decision]}: {shown} -> {pick}"


def closing(kit, records: Records) -> str:
    tallies = {name: records.tallies[0][:, i].tolist() for i, name in enumerate(kit.tallies)}
    own = {name: int(records.rec[0, i]) for i, name in enumerate(kit.record)}
    return kit.closing.format(reason=kit.end_reasons[int(records.end[0])],
                              turns=int(records.turns[0]),
                              outcome=outcome_words(int(records.outcome[0]),
                                                    int(records.winner[0]), kit.automa),
                              scores=records.scores[0].tolist(), **own, **tallies)


def golden_text(kit, golden) -> str:
    return render(prepare(kit, golden.rules, golden.players), golden.seed)


def golden_path(kit, golden) -> Path:
    return kit.golden_folder() / f"{golden.name}.txt"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m balance.kit.playthrough",
        description="Rewrite the goldens of games on the kit (whole games as text, from their "
                    "events), or show them.")
    ap.add_argument("kits", nargs="+", metavar="MODULE:KIT",
                    help="a KitGame, e.g. balance.games.NAME.game:KIT")
    ap.add_argument("--show", action="store_true",
                    help="print the playthroughs; write nothing")
    a = ap.parse_args(argv)
    found = []
    for ref in a.kits:
        try:
            kit = resolve(ref)
        except (ImportError, AttributeError, ValueError) as e:
            kit, why = None, f"{type(e).__name__}: {e}"
        if not isinstance(kit, KitGame):
            why = why if kit is None else f"is a {type(kit).__name__}, not a KitGame"
            print(f"error: MODULE:KIT: {ref!r} names no game on the kit ({why})",
                  file=sys.stderr)
            return 2
        found.append(kit)
    for kit in found:
        for golden in kit.goldens:
            if a.show:
                print(f"== {golden.name} ==\n{golden_text(kit, golden)}")
                continue
            path = golden_path(kit, golden)
            path.parent.mkdir(exist_ok=True)
            path.write_text(golden_text(kit, golden))
            print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
