"""Compile validated content and a rule profile into the arrays the engine reads.

Conventions shared with the engine:
- Sides are numbered clockwise: 0 north, 1 east, 2 south, 3 west; the opposite is (s + 2) % 4.
- Rotation r turns a tile r quarter turns clockwise: its original side o ends up on side
  (o + r) % 4, so placed side s shows original side (s - r) % 4.
- Gem sets are int64 bitmasks over gem indices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from balance.errors import InputError, Problems
from balance.games.gemrush.ability import MAX_STEPS, X
from balance.games.gemrush.content import Content
from balance.games.gemrush.rules import SKILL_VARIANTS, Profile, seat_key
from balance.games.gemrush.skill import SKC_N_COLS, effect_row

# Gem powers.
STANDARD, WILD, ECHO, BONUS, WARP = range(5)
POWER_CODE = {"": STANDARD, "wild": WILD, "echo": ECHO, "bonus": BONUS, "warp": WARP}
# Room kinds.
# A plain room has doors and no ability (an ablation swaps a room for one:
# balance/games/gemrush/patches.py).
ACTION, MOVEMENT, FREE, TUNNEL, MINECART, PLAIN = range(6)
KIND_CODE = {"action": ACTION, "movement": MOVEMENT, "free": FREE, "tunnel": TUNNEL,
             "minecart": MINECART, "plain": PLAIN}
# Modes.
CRISIS, RUSH = 0, 1
# Skill variants, in the order of rules.SKILL_VARIANTS.
SKV_NORMAL, SKV_CHOICE, SKV_SHARED, SKV_CHAOS, SKV_CIRCLE, SKV_NONE = range(6)
# Rows of Rules.seat: what each seat starts with. One 2-D array, not one per row: every call
# between kernels passes each array by value (balance/kernels/jit.py).
SEAT_DEAL, SEAT_VP, SEAT_ROWS = range(3)


class Tables(NamedTuple):
    """Content as arrays. Room and card *types* are indexed; decks hold type indices."""

    gem_power: np.ndarray  # (G,) int64
    card_gems: np.ndarray  # (C, 2) int64 gem index per symbol, -1 for none
    card_count: np.ndarray  # (C, G) int64 symbols of each gem on the card
    card_deck: np.ndarray  # (n_cards,) card type of each physical card
    gem_cards: np.ndarray  # (G,) int64 physical cards showing each gem (a double counts once)
    room_kind: np.ndarray  # (R,) int64
    room_deck: np.ndarray  # (n_tiles,) room type of each physical tile
    door: np.ndarray  # (R, 4 rot, 4 side) bool
    door_cost: np.ndarray  # (R, 4 rot, 4 side, G) int64 gems to pay
    door_gems: np.ndarray  # (R, 4 rot, 4 side, K) the gems door_cost names, -1 after the last
    door_points: np.ndarray  # (R, 4 rot, 4 side) int64
    tunnel_exit: np.ndarray  # (R, 4 rot, 4 side in) exit side, -1 when not a tunnel door
    prog: np.ndarray  # (R, MAX_STEPS, 4) int64: op, n (-1 = X), filter kind, gem mask
    prog_len: np.ndarray  # (R,) int64
    prog_has_keep: np.ndarray  # (R,) bool: dug cards go to the pool, else to hand
    echo_own_card: int  # 1: Echoglass may also copy the other gem on its own card
    skill_op: np.ndarray  # (S, SKC_N_COLS) int64: each skill's effect (skill.py)
    skill_deck: np.ndarray  # (n_skill_cards,) skill of each physical skill card
    colour: np.ndarray  # (n_standard,) the standard gems in content order: seat p's dwarf
    #                     colour is colour[p % n_standard]
    shared_skill: int  # Shared Skill: the skill everyone uses, -1 to deal one


class Rules(NamedTuple):
    """One variant's rules as plain ints (see balance/games/gemrush/rules.py for their meaning)."""

    mode: int
    players: int
    target: int  # Crisis team target or Rush target
    exhaust: int  # Crisis: play to the end of the clock, ignoring the target
    seat: np.ndarray  # (SEAT_ROWS, players) int64: each seat's deal and starting points,
    #                   seat 0 the first player (read at setup only)
    hand_limit: int
    steps: int
    start_tunnel_chain: int
    burn_per_turn: int
    burn_from_hands: int
    cannot_burn_loses: int
    voluntary_discard: int
    rush_round_cap: int
    special_gems: int
    free_use_cap: int
    warp_build_at_tunnels: int
    skills: int  # the skill variant: SKV_* below
    skill_choice: int  # Choice of Skills: cards dealt to each player
    # Which listed player sits in seat 0: k for the k-th (from 1), 0 for one drawn each game.
    # The engine never reads it: balance/games/gemrush/play.py seats the players before each game.
    first_player: int


def compile_tables(content: Content, profile: Profile) -> Tables:
    _check_switches(content, profile)
    gem_index = {g.name: i for i, g in enumerate(content.gems)}
    n_gems = len(content.gems)
    gem_power = np.array([POWER_CODE[g.power] for g in content.gems], dtype=np.int64)

    n_ct = len(content.cards)
    card_gems = np.full((n_ct, 2), -1, dtype=np.int64)
    card_count = np.zeros((n_ct, n_gems), dtype=np.int64)
    for c, card in enumerate(content.cards):
        for k, name in enumerate(card.gems):
            card_gems[c, k] = gem_index[name]
            card_count[c, gem_index[name]] += 1
    card_deck = np.repeat(np.arange(n_ct, dtype=np.int64), [c.copies for c in content.cards])
    gem_cards = ((card_count > 0).astype(np.int64) * np.array(
        [c.copies for c in content.cards], dtype=np.int64)[:, None]).sum(axis=0)

    n_rt = len(content.rooms)
    room_kind = np.array([KIND_CODE[r.kind] for r in content.rooms], dtype=np.int64)
    room_deck = np.repeat(np.arange(n_rt, dtype=np.int64), [r.copies for r in content.rooms])
    door = np.zeros((n_rt, 4, 4), dtype=np.bool_)
    door_cost = np.zeros((n_rt, 4, 4, n_gems), dtype=np.int64)
    door_points = np.zeros((n_rt, 4, 4), dtype=np.int64)
    tunnel_exit = np.full((n_rt, 4, 4), -1, dtype=np.int64)
    prog = np.zeros((n_rt, MAX_STEPS, 4), dtype=np.int64)
    prog_len = np.zeros(n_rt, dtype=np.int64)
    prog_has_keep = np.zeros(n_rt, dtype=np.bool_)
    for t, room in enumerate(content.rooms):
        for r in range(4):
            for s in range(4):
                edge = room.edges[(s - r) % 4]
                if edge is None:
                    continue
                door[t, r, s] = True
                door_points[t, r, s] = edge.points
                for name in edge.cost:
                    door_cost[t, r, s, gem_index[name]] += 1
            for a, b in room.pairs:
                tunnel_exit[t, r, (a + r) % 4] = (b + r) % 4
                tunnel_exit[t, r, (b + r) % 4] = (a + r) % 4
        for i, step in enumerate(room.ability):
            mask = 0
            for name in step.gems:
                mask |= 1 << gem_index[name]
            prog[t, i] = (step.op, X if step.n == X else step.n, step.filter_kind, mask)
        prog_len[t] = len(room.ability)
        prog_has_keep[t] = any(s.op in (4, 5) for s in room.ability)
    # Costs name a few gems of many: kernels that check door after door loop over these only.
    named = (door_cost > 0).sum(axis=-1)
    door_gems = np.full((n_rt, 4, 4, max(1, int(named.max(initial=0)))), -1, dtype=np.int64)
    for t, r, s in zip(*np.nonzero(named), strict=True):
        gems = np.flatnonzero(door_cost[t, r, s])
        door_gems[t, r, s, : len(gems)] = gems
    skill_op = np.array([effect_row(k.effect, gem_index, k.uses) for k in content.skills],
                        dtype=np.int64).reshape(len(content.skills), SKC_N_COLS)
    skill_deck = np.repeat(np.arange(len(content.skills), dtype=np.int64),
                           [k.copies for k in content.skills])
    colour = np.array([i for i, g in enumerate(content.gems) if g.kind == "standard"],
                      dtype=np.int64)
    names = [k.name for k in content.skills]
    shared = names.index(profile["shared_skill"]) if profile["shared_skill"] in names else -1
    return Tables(gem_power, card_gems, card_count, card_deck, gem_cards, room_kind, room_deck,
                  door, door_cost, door_gems, door_points, tunnel_exit, prog, prog_len,
                  prog_has_keep, int(profile["echo_copies_own_card"]), skill_op, skill_deck,
                  colour, shared)


def _check_switches(content: Content, profile: Profile) -> None:
    """Content that uses a mechanic the profile switches off is an error, not a silent no-op."""
    probs = Problems(content.path)
    kinds = {r.kind for r in content.rooms}
    # Say how to get what the designer asked for: the rooms out of the box, in one patch.
    for kind, switch, what in (("tunnel", "tunnels", "tunnels"),
                               ("minecart", "mine_carts", "mine carts")):
        if kind in kinds and not profile[switch]:
            probs.add("rooms", "kind", f"has {what} but profile {profile.name} has {switch} = "
                      "false (here or in the experiment's rules). To play "
                      f"without them, take them out of the box with a patch in the experiment "
                      f"file: [patches.no_{switch}] select = {{ kind = \"{kind}\" }}, "
                      f"copies = 0 (and leave {switch} as it is)")
    powers = {g.power for g in content.gems} - {"", "wild"}
    if powers and not profile["special_gems"]:
        probs.add("gems", "power", f"uses {', '.join(sorted(powers))} gems but profile "
                  f"{profile.name} has special_gems = false")
    names = [k.name for k in content.skills]
    if profile["skills"] != "none" and not any(k.copies for k in content.skills):
        probs.add("skills", "", f"the skill variant is {profile['skills']!r} but the box has "
                  "no skill cards: add [[skills]] or set skills = \"none\"")
    shared = profile["shared_skill"]
    if shared and shared not in names:
        probs.add("rules", "shared_skill", f"names no skill of the box: {shared!r} (known: "
                  f"{', '.join(names) or 'none'})")
    probs.raise_if_any()


def compile_rules(profile: Profile, mode: str, players: int, target: int | None = None,
                  exhaust: bool = False, source: str = "arguments") -> Rules:
    probs = Problems(source)
    if mode not in ("crisis", "rush"):
        probs.add("", "mode", f"must be crisis or rush, got {mode!r}")
    lo, hi = profile["players_min"], profile["players_max"]
    if not lo <= players <= hi:
        probs.add("", "players",
                  f"edition {profile.name} allows {lo} to {hi} players, got {players}")
    if mode == "rush" and players < 2:
        probs.add("", "players", "Rush is a race: it needs at least 2 players")
    if target is not None and target < 1:
        probs.add("", "target", f"must be at least 1, got {target}")
    if exhaust and mode == "rush":
        probs.add("", "exhaust", "play-to-exhaustion is a Crisis option")
    for key in profile.seat_keys():
        seat = seat_key(key)[1]
        if seat > players:
            probs.add("rules", key, f"names seat {seat}, but this variant has {players} "
                      f"player(s): seats count from 1 (seat 1 plays first) to {players}")
    if profile["first_player"] > players:
        probs.add("rules", "first_player", f"is {profile['first_player']}, but this variant "
                  f"has {players} player(s) (random, or 1 to {players})")
    probs.raise_if_any()
    if target is None:
        target = (profile.rush_target(players) if mode == "rush"
                  else max(profile.crisis_targets.values()))
    p = profile.values
    seat = np.zeros((SEAT_ROWS, players), np.int64)
    for q in range(players):
        seat[SEAT_DEAL, q] = profile.seat_value("deal", q + 1)
        seat[SEAT_VP, q] = profile.seat_value("start_vp", q + 1)
    return Rules(
        mode=CRISIS if mode == "crisis" else RUSH, players=players, target=int(target),
        exhaust=int(exhaust), seat=seat, hand_limit=p["hand_limit"], steps=p["steps"],
        start_tunnel_chain=int(p["start_tunnel_chain"]),
        burn_per_turn=p["burn_per_turn"], burn_from_hands=int(p["burn_from_hands"]),
        cannot_burn_loses=int(p["cannot_burn_loses"]),
        voluntary_discard=int(p["crisis_voluntary_discard"] if mode == "crisis"
                              else p["rush_voluntary_discard"]),
        rush_round_cap=p["rush_round_cap"], special_gems=int(p["special_gems"]),
        free_use_cap=p["free_use_cap"], warp_build_at_tunnels=int(p["warp_build_at_tunnels"]),
        skills=SKILL_VARIANTS.index(p["skills"]), skill_choice=p["skill_choice"],
        first_player=p["first_player"])


__all__ = ["Tables", "Rules", "compile_tables", "compile_rules", "InputError"]
