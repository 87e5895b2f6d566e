"""Gem Rush as the toolkit sees it (balance/contract/game.py): its settings, tables, measures
and where its engine, players, experiment keys, report sections and commands live."""

from __future__ import annotations

from balance.contract.game import CORE_COLUMNS, Game, Label, Measure, Option, Setting, Table
from balance.games.gemrush.engine.state import END_NAMES
from balance.games.gemrush.rules import PER_SEAT, SCHEMA
from balance.kit.declare import KIT_COLUMNS

ENGINE_VERSION = "5"  # bump whenever the engine's behaviour changes

_KIND = {int: int, bool: bool, str: str}

# What the rulebooks call each rule (its gem cards, rooms, burn, Crisis and Rush), read before
# a value in the reports and the terminal; a value with words of its own is written by them.
LABELS = {
    "players_min": "fewest players", "players_max": "most players", "deal": "cards dealt",
    "hand_limit": "hand limit", "steps": "steps a turn", "start_vp": "starting points",
    "first_player": "first player: listed player", "start_tunnel_chain": "tunnel start chain",
    "burn_per_turn": "cards burnt a turn", "burn_from_hands": "burn from hands",
    "cannot_burn_loses": "lost when the burn runs out",
    "crisis_voluntary_discard": "Crisis discard at will",
    "rush_voluntary_discard": "Rush discard at will", "rush_target_small": "Rush target",
    "rush_target_large": "Rush target for many players",
    "rush_large_from": "many players from", "rush_round_cap": "Rush round cap",
    "tunnels": "tunnels", "mine_carts": "mine carts", "special_gems": "special gems",
    "skills": "skill variant", "skill_choice": "skills dealt to choose from",
    "shared_skill": "shared skill", "echo_copies_own_card": "Echoglass copies its own card",
    "warp_build_at_tunnels": "Warpstone builds at tunnels", "free_use_cap": "free uses cap",
}
_ON_OFF = {"tunnels": "tunnels", "mine_carts": "mine carts", "special_gems": "special gems"}
VALUES = {
    "first_player": ((0, "first player drawn at random"),),
    "skills": (("normal", "Skills dealt"), ("choice", "Choice of Skills"),
               ("shared", "Shared Skill"), ("chaos", "Chaos Skills"),
               ("circle", "Skill Circle"), ("none", "No Skills")),
    **{k: ((True, w), (False, f"no {w}")) for k, w in _ON_OFF.items()},
}

SETTINGS = tuple(
    Setting(name, _KIND[f.kind], f.doc,
            lo=f.lo if f.kind is int else None, hi=f.hi if f.kind is int else None,
            choices=f.choices, words=f.words, label=LABELS[name],
            values=VALUES.get(name, ()))
    for name, f in SCHEMA.items())
# The keys of an experiment file Gem Rush reads itself, in the rulebooks' words.
KEY_LABELS = (
    Label("edition", "edition", (("1e", "1st edition"), ("2e", "2nd edition"))),
    Label("mode", "mode", (("crisis", "Crisis Mode"), ("rush", "Rush Mode"))),
    Label("target", "target"),
    Label("exhaust", "played to exhaustion",
          ((True, "played to exhaustion"), (False, "played to the target"))),
    Label("content", "content"),
    # One room per variant, taken out of the box or made plain (the run's ablate).
    Label("ablate", "{} ablated", of_variant="balance.games.gemrush.words:ablate_words"),
    Label("skill", "every player holds", (("none", "No Skills"),)),
    Label("crisis_targets", "Crisis target"),  # crisis_targets.<difficulty>
)
# Rule keys beyond the settings' names: a named Crisis target, a seat's own value.
SETTING_FORMS = (
    (r"crisis_targets\..+", "crisis_targets.<difficulty>"),
    (r"[a-z_]+\.seat[0-9]+", ", ".join(f"{n}.seat<k>" for n in PER_SEAT)),
)

GAMES = Table("games", {
    **CORE_COLUMNS,
    "edition": "string",
    "mode": "string",
    "target": "int32",
    "exhaust": "bool",
    "score_by_turn": "list<int16>",
    "target_turn": "int16",
    "deck_out_turn": "int16",
    "reshuffles": "int16",
    "cards_burned": "int16",
    "rooms_built": "int16",
    "skills": "list<string>",
    # As every game on the kit records them: the contract's (tests/test_contract_play.py).
    **{c: KIT_COLUMNS[c] for c in ("decisions", "branching", "course", "lead_changes")},
    # The team's progress that wins (Crisis: the target the engine played to; Rush: null),
    # what a cooperative game's course is measured against (balance/stats/course.py).
    "course_goal": "int16",
}, help="one row per game", seat_columns=("winner",))

ROOMS = Table("rooms", {
    "experiment": "string",
    "variant": "int32",
    "game": "int64",
    "room": "string",
    "turn": "int16",
    "builder": "int8",
    "points": "int16",
    "uses": "int32",
    "gained": "int32",
}, help="one row per placed tile, in placement order", widened=("uses", "gained"),
    seat_columns=("builder",))

# What `balance ablate --how` takes out (experiment.py reads `ablate = "<how>"`).
ABLATIONS = (
    ("out", "each room taken out of the box"),
    ("plain", "each room swapped for a plain room with the same doors and no ability (the "
              "ability's own worth)"),
)
# `balance tune-player`'s options of Gem Rush's own (tuning.py reads them).
TUNE_OPTIONS = (
    Option("edition", "rule profile: 1e or 2e", "2e"),
    Option("mode", "crisis (team score) or rush (seat 1's win rate)", "crisis"),
    Option("content", "content file (default: the edition's)"),
)

_GOALS = "balance.games.gemrush.goals"
MEASURES = (
    Measure("win", "Win rate", "rate", "won",
            "Crisis: the share of games the team reached its target (tune: at a difficulty "
            "or points too, Journeyman=50%, 35=50%)", outcome=f"{_GOALS}:win"),
    Measure("score", "Score", "mean", "score", "the team's score (Crisis) or the winner's (Rush)",
            unit="points"),
    Measure("turns", "Length", "mean", "turns", "turns played, every player's counted",
            unit="turns"),
    Measure("rounds", "Rounds", "mean", "turns", "a game's rounds: its turns over the seats",
            outcome=f"{_GOALS}:rounds", unit="rounds"),
    Measure("seat", "Seat's wins", "rate", "winner",
            "Rush: the share of games a seat won outright (tune: seat1=19%)",
            outcome=f"{_GOALS}:seat"),
    Measure("rooms_built", "Rooms built", "mean", "rooms_built", "tiles placed in a game"),
    Measure("cards_burned", "Cards burnt", "mean", "cards_burned", "Crisis: gem cards burnt"),
)

GAME = Game(
    name="gemrush",
    title="Gem Rush",
    version=ENGINE_VERSION,
    player_counts=tuple(range(1, 8)),
    cooperative=None,  # Crisis Mode is cooperative, Rush Mode a race
    settings=SETTINGS,
    tables=(GAMES, ROOMS),
    measures=MEASURES,
    end_reasons=END_NAMES,
    # Rush's round cap stops a race the top score then wins: a result, but not the rules' end.
    cap_ends=("turn_cap",),
    default_player="greedy",
    labels=KEY_LABELS,
    experiment_keys=("edition", "content", "mode", "target", "exhaust", "ablate", "each_skill",
                     "control"),
    experiment_tables=("patches",),
    setting_forms=SETTING_FORMS,
    # The engine's game loops, the players (the reference's search driver is Python) and the
    # Python that turns a variant into the engine's arrays.
    kernel_modules=("balance.games.gemrush.engine.game_nb",
                    "heuristics.gemrush.rollout_nb",
                    "heuristics.gemrush.registry",
                    "balance.games.gemrush.play"),
    variants="balance.games.gemrush.experiment:variants",
    play="balance.games.gemrush.shard:play",
    check="balance.games.gemrush.shard:check",
    probe="balance.games.gemrush.probe:probe",
    players="heuristics.gemrush.registry:PLAYERS",
    forward="balance.games.gemrush.engine.forward:FORWARD",
    goals=f"{_GOALS}:goal",
    bench="balance.games.gemrush.shard:bench",
    commands="balance.games.gemrush.commands:register",
    ablations=ABLATIONS,
    ablation_notes="balance.games.gemrush.experiment:ablation_notes",
    tuning="balance.games.gemrush.tuning:tuning",
    tune_options=TUNE_OPTIONS,
    report="reports.gemrush.report:REPORT",
    quantities="balance.games.gemrush.measures:quantities",
    kind_of="balance.games.gemrush.measures:competitive",
    simulation="balance.games.gemrush.experiment:simulation",
    # Its rule profiles (edition), ways to play (mode, Crisis, Rush), the points a game plays
    # to (target), its tiles and their doors (room, door), and its skill cards.
    words=("edition", "mode", "target", "room", "door", "skill", "crisis", "rush"),
    rule_modules=("engine", "ability", "capacity", "content", "limits", "patches", "rules",
                  "skill", "tables"),
)
