"""Write a game's loop, generated from its kit declaration (KitGame.loop), and its players'
dispatch (heuristics/generate.py):

    python -m balance.kit.generate                       # every registered game on the kit
    python -m balance.kit.generate tests.games.dice.game:KIT ...
    python -m balance.kit.generate --check [...]          # exit 1, naming the stale files

The loop is the kit's, the same for every game, but it calls the game's own rules and players
by name: a compiled function passed as an argument misses Numba's on-disk cache in every new
process, so each game's loop is a real source file that imports them. A test fails while a
file differs from what this writes (tests/test_kit.py)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np

from balance.contract import registry
from balance.contract.game import resolve
from balance.kit.state import KIT_VIOLATIONS, new_kit

KIT_NAMES = ("counted_nb", "judged_nb", "offered_nb", "reset_kit_nb", "stalled_nb",
             "trace_options_nb", "trace_pick_nb", "verified_nb", "write_record_nb")
SLOT_NAMES = ("CHECK", "ENDED", "KIND", "OFFERED", "SEAT", "TRACE", "TURNS")

BODY = '''


@njit
def _slow_nb(state, tables, rules, seats, decision, n, seat):
    """Players written in Python, a search's replay and the trace, kept out of the decision
    site."""
    kit = state.kit
    if kit.sc[TRACE]:
        trace_options_nb(kit, n)
    pick = verified_nb(kit, choose_slow_nb(seats.pol[seat], decision, state, tables, rules,
                                           seats, n, seat), n)
    trace_pick_nb(kit, decision, pick, n)
    return pick


@njit(inline=True)
def decide_nb(state, tables, rules, seats, decision, n, seat):
    """The pick of the player of `seat` among the n options of the decision at hand. A
    player written in Python at another seat hears of it: a search replaying a turn must
    replay every decision in it, a seat deciding in another's turn included."""
    kit = state.kit
    counted_nb(kit, n)
    if kit.sc[TRACE] or seats.pol[seat] >= POLICY_SLOW:
        pick = _slow_nb(state, tables, rules, seats, decision, n, seat)
    else:
        pick = verified_nb(kit, choose_nb(seats.pol[seat], decision, state, tables, rules,
                                          seats, n, seat), n)
    seen_nb(seats, decision, pick, seat)
    return pick


@njit
def play_on_nb(state, tables, rules, seats):
    """The decision loop, from the decision at hand to the end."""
    kit = state.kit
    turn = -1
    while not kit.sc[ENDED]:
        if kit.sc[TURNS] != turn:
            # A new turn: every seat's player written in Python hears of it, the turn's
            # seat first, since a seat may decide in another's turn.
            turn = kit.sc[TURNS]{turn_start}
        options_nb(state, tables, rules)
        n = kit.sc[OFFERED]
        if kit.sc[CHECK]:
            n = offered_nb(kit, {kinds})
        if n == 0:
            stalled_nb(kit)
            break
        n = min(n, kit.opt.shape[0])
{decide}
        apply_nb(state, tables, rules, pick){judge}


@njit
def play_game_nb(state, tables, rules, seats, words, trace, check):
    """One game from its seed's words: both streams seeded, the players' memories reset."""
    reset_kit_nb(state.kit, seats, words, trace, check)
    reset_memories_nb(seats.mem)
    start_nb(state, tables, rules)
    play_on_nb(state, tables, rules, seats){record}


@njit
def play_games_nb(state, tables, rules, seats, words, out, check):
    """One game per row of `words` (balance/kernels/rng.py, seed_states), recorded in `out`."""
    for g in range(words.shape[0]):
        play_game_nb(state, tables, rules, seats, words[g], 0, check)
        write_record_nb(state.kit, out[g])


@njit
def play_traced_nb(state, tables, rules, seats, words, out):
    """One game with its events and checks on, recorded in out[0]."""
    play_game_nb(state, tables, rules, seats, words, 1, 1)
    write_record_nb(state.kit, out[0])
'''

TURN_START = """
            for q in range(seats.pol.shape[0]):
                turn_start_nb(seats, (kit.sc[SEAT] + q) % seats.pol.shape[0])"""
DECIDE = """
        pick = decide_nb(state, tables, rules, seats, kit.sc[KIND], n, kit.sc[SEAT])"""
# A game with an automa: its turns have no player to tell, and its decisions are the rules'.
AUTOMA_TURN_START = """
            if kit.sc[SEAT] != AUTOMA:
                for q in range(seats.pol.shape[0]):
                    turn_start_nb(seats, (kit.sc[SEAT] + q) % seats.pol.shape[0])"""
AUTOMA_DECIDE = """
        if kit.sc[SEAT] == AUTOMA:
            pick = _automa_nb(state, tables, rules, kit.sc[KIND], n)
        else:
            pick = decide_nb(state, tables, rules, seats, kit.sc[KIND], n, kit.sc[SEAT])"""
AUTOMA_BODY = '''


@njit
def _automa_nb(state, tables, rules, decision, n):
    """The automa's pick, by the rules' automa_nb: checked and traced as a seat's is."""
    kit = state.kit
    if kit.sc[TRACE]:
        trace_options_nb(kit, n)
    pick = verified_nb(kit, automa_nb(state, tables, rules), n)
    trace_pick_nb(kit, decision, pick, n)
    return pick'''

REDRAW = '''

@njit
def _unseen_item_nb(state, seat, i, value, put):
    """The i-th item `seat` cannot see, set to `value` when `put`; -1 past them. The parts,
    in order (KitGame.hidden): {parts}."""{find}
    return -1


@njit(inline=True)
def _swap_unseen_nb(state, seat, i, j):
    a = _unseen_item_nb(state, seat, i, 0, False)
    _unseen_item_nb(state, seat, i, _unseen_item_nb(state, seat, j, a, True), True)


@njit
def _sift_unseen_nb(state, seat, root, end):
    """Heapsort's sift down, over the first `end` items `seat` cannot see."""
    while 2 * root + 1 < end:
        child = 2 * root + 1
        if child + 1 < end and (_unseen_item_nb(state, seat, child, 0, False)
                                < _unseen_item_nb(state, seat, child + 1, 0, False)):
            child += 1
        if _unseen_item_nb(state, seat, root, 0, False) >= _unseen_item_nb(state, seat, child,
                                                                           0, False):
            return
        _swap_unseen_nb(state, seat, root, child)
        root = child


@njit
def redraw_unseen_nb(state, tables, rules, seat, rng):
    """What `seat` cannot see dealt anew where it lies with the stream `rng`, each part as
    many items as it held: a world the seat cannot tell from the true one. The items are
    sorted before they are shuffled, so the world depends on what the seat sees and on `rng`,
    never on where the unseen items lay: a search that redraws cannot read them. The rules
    are not read."""
    n = {count}
    for root in range(n // 2 - 1, -1, -1):
        _sift_unseen_nb(state, seat, root, n)
    for end in range(n - 1, 0, -1):
        _swap_unseen_nb(state, seat, 0, end)
        _sift_unseen_nb(state, seat, 0, end)
    for i in range(n - 1, 0, -1):
        _swap_unseen_nb(state, seat, i, redraw_pick_nb(rng, i))
'''
FIND = '''
    q, j = {slot}
    if q >= 0:
        old = state.{items}[{at}]
        if put:
            state.{items}[{at}] = value
        return old
    i = j'''

JUDGE = """
        if kit.sc[CHECK]:
            judged_nb(kit, broken_nb(state, rules), {first})"""


FORWARD = '''


def new_forward_state(tables, rules):
    """A state for a search's rollouts (ForwardModel.new_state): no events."""
    return new_state(rules, new_kit(rules.players, {tallies}, {record}, {options}))


@njit
def copy_state_nb(dst, src):
    """dst <- src: everything a game plays on from (ForwardModel.copy), not the events."""
    copy_kit_nb(dst.kit, src.kit){copies}


@njit
def determinize_nb(state, tables, rules, seat, rng):
    """A world `seat` cannot tell from the true one (ForwardModel.determinize): the game's
    stream drawn anew from `rng`{and_hidden}."""
    reseed_chance_nb(state.kit, rng){redraw}
'''


def _import(module: str, names) -> str:
    names = sorted(names, key=lambda n: (not n.isupper(), n))
    one = f"from {module} import {', '.join(names)}"
    if len(one) <= 100:
        return one
    return "\n".join([f"from {module} import (", *(f"    {n}," for n in names), ")"])


def _part_word(h) -> str:
    return "private" if h.private else "masked" if h.masked else "face-down"


def _redraw(kit) -> tuple[list[str], str]:
    """The kit's names the redraw of the unseen calls, and its source (none without
    KitGame.hidden): in the game's forward module, which the players' dispatch imports, so
    the loop (which imports the dispatch) cannot hold it."""
    if not kit.hidden:
        return [], ""
    find, count = "", []
    for h in kit.hidden:
        if h.private:
            slot, at = f"row_slot_nb(state.{h.count}, seat, i)", "q, j"
            count.append(f"unseen_rows_nb(state.{h.count}, seat)")
        elif h.masked:
            slot, at = f"mask_slot_nb(state.{h.count}, seat, i)", "j"
            count.append(f"unseen_mask_nb(state.{h.count}, seat)")
        else:
            slot, at = f"pile_slot_nb(state.{h.count}, i)", "j"
            count.append(f"state.{h.count}[0]")
        find += FIND.format(slot=slot, items=h.items, at=at)
    parts = ", ".join(f"{h.items} ({_part_word(h)})" for h in kit.hidden)
    names = ["redraw_pick_nb", *sorted({"row_slot_nb" if h.private else "pile_slot_nb"
                                        for h in kit.hidden if not h.masked}),
             *(["unseen_rows_nb"] if any(h.private for h in kit.hidden) else [])]
    return names, REDRAW.format(parts=parts, find=find, count=" + ".join(count))


def loop_source(kit) -> str:
    module = kit.module()
    rules = ["apply_nb", "options_nb", "start_nb"]
    judge = record = ""
    slots = list(SLOT_NAMES)
    turn_start, decide, automa = TURN_START, DECIDE, ""
    if kit.automa:
        rules.append("automa_nb")
        slots.append("AUTOMA")
        turn_start, decide, automa = AUTOMA_TURN_START, AUTOMA_DECIDE, AUTOMA_BODY
    if hasattr(module, "broken_nb"):
        rules.append("broken_nb")
        judge = JUDGE.format(first=len(KIT_VIOLATIONS))
    if hasattr(module, "record_nb"):
        rules.append("record_nb")
        record = "\n    record_nb(state, rules)"
    dispatch = kit.roster().dispatch
    imports = sorted([
        ("balance.kernels.jit", ["njit"]), ("balance.kit.nb", KIT_NAMES),
        ("balance.kit.state", slots), (kit.rules, rules),
        (dispatch, ["POLICY_SLOW", "choose_nb", "choose_slow_nb", "reset_memories_nb",
                    "seen_nb", "turn_start_nb"])])
    header = (f'"""Generated by `python -m balance.kit.generate` from the kit declaration of '
              f'{kit.name}\n({kit.ref}): do not edit. Edit the declaration or the rules and '
              "run the command\nagain; a test fails while this file is stale.\n\n"
              "The kit's decision loop (balance/kit/), calling this game's rules and the "
              'dispatch of its\nplayers by name.\n"""\n\n')
    return header + "\n".join(_import(m, n) for m, n in imports) + automa + \
        BODY.format(kinds=len(kit.options), judge=judge, record=record,
                    turn_start=turn_start, decide=decide[1:])


def _state_arrays(kit) -> list[str]:
    """The fields of the game's State a copy copies: every one but the kit's, each an array
    (checked on a state of the defaults)."""
    from balance.kit.play import compiled_rules  # lazy: only when generating

    module = kit.module()
    rules = compiled_rules(kit, kit.defaults, min(kit.game.player_counts))
    state = module.new_state(rules, new_kit(rules.players, len(kit.tallies), len(kit.record),
                                            kit.max_options))
    fields = [f for f in state._fields if f != "kit"]
    odd = [f for f in fields if not isinstance(getattr(state, f), np.ndarray)]
    if odd:
        raise ValueError(f"kit game {kit.name}: the forward model copies the State's arrays, "
                         f"and {', '.join(odd)} is none")
    return fields


def forward_source(kit) -> str:
    """The game's forward module (KitGame.forward): its state made and copied, and its
    determinization, the redraw of the unseen included."""
    redraw_names, redraw = _redraw(kit)
    # A game whose counts follow from hidden items (the gems left among face-down tiles)
    # makes them agree with the world dealt: the rules' redrawn_nb, when they have one.
    redrawn = bool(kit.hidden) and hasattr(kit.module(), "redrawn_nb")
    copies = "".join(f"\n    copy_array_nb(dst.{f}, src.{f})" for f in _state_arrays(kit))
    imports = sorted([
        ("balance.kernels.copy_nb", ["copy_array_nb"]), ("balance.kernels.jit", ["njit"]),
        ("balance.kit.forward", ["copy_kit_nb", "reseed_chance_nb"]),
        ("balance.kit.state", ["new_kit"]),
        (kit.rules, ["new_state", *(["redrawn_nb"] if redrawn else [])]),
        *([("balance.kit.nb", redraw_names)] if redraw_names else []),
        *([("balance.kit.mask_nb", ["mask_slot_nb", "unseen_mask_nb"])]
          if any(h.masked for h in kit.hidden) else [])])
    header = (f'"""Generated by `python -m balance.kit.generate` from the kit declaration of '
              f'{kit.name}\n({kit.ref}): do not edit. Edit the declaration or the rules and '
              "run the command\nagain; a test fails while this file is stale.\n\n"
              "The kit's forward model of the game (KitGame.forward_hooks, balance/kit/"
              "forward.py): what a\nsearch player copies, resamples and plays on.\n"
              '"""\n\n')
    return header + "\n".join(_import(m, n) for m, n in imports) + FORWARD.format(
        tallies=len(kit.tallies), record=len(kit.record), options=kit.max_options,
        copies=copies, and_hidden=", and what it cannot see (KitGame.hidden) redrawn"
        if kit.hidden else "",
        redraw=("\n    redraw_unseen_nb(state, tables, rules, seat, rng)" if kit.hidden
                else "")
        + ("\n    redrawn_nb(state, tables, rules, seat)" if redrawn else "")) + redraw


def _path(module: str) -> Path:
    package, _, leaf = module.rpartition(".")
    spec = importlib.util.find_spec(package)
    return Path(list(spec.submodule_search_locations)[0]) / f"{leaf}.py"


def sources(kit) -> dict[Path, str]:
    """The files generated for a game on the kit: its players' dispatch, its loop and its
    forward module."""
    from heuristics.generate import sources as player_sources  # lazy: only when generating
    out = {**player_sources(kit.game), _path(kit.loop): loop_source(kit)}
    if kit.forward:
        out[_path(kit.forward)] = forward_source(kit)
    return out


def kits(refs=()) -> list:
    if refs:
        return [resolve(r) for r in refs]
    return [resolve(g.kit) for g in registry.games() if g.kit]


def stale(found: list) -> list[Path]:
    return [path for kit in found for path, text in sources(kit).items()
            if not path.exists() or path.read_text() != text]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m balance.kit.generate",
                                 description="Write the loops of the games on the kit.")
    ap.add_argument("kits", nargs="*", help="module:attribute of a KitGame (default: every "
                    "registered game on the kit)")
    ap.add_argument("--check", action="store_true", help="only say which files are stale")
    a = ap.parse_args(argv)
    found = kits(a.kits)
    if a.check:
        paths = stale(found)
        for p in paths:
            print(f"stale: {p} (run python -m balance.kit.generate)")
        return 1 if paths else 0
    from heuristics.generate import write_changed  # lazy: only when writing, as sources()

    for kit in found:
        write_changed(sources(kit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
