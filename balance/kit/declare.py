"""A game on the kit, declared: its rules' module, its decisions and their kinds of option, its
events and how a trace writes them, its per-seat tallies, its invariants, its goldens. From
it the kit makes the game's `Game` (balance/contract/game.py, `KitGame.declare`), whose hooks
are this declaration's methods, and generates the game's loop (generate.py).

Importing this imports no engine: the kit's compiled code is imported by the hooks, when a
game is played."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from balance.contract.forward import ForwardModel
from balance.contract.game import CORE_COLUMNS, Game, Setting, Table, resolve

# Columns the kit adds to every games table, after the core ones.
KIT_COLUMNS: dict[str, str] = {
    "decisions": "int32",  # decisions the seats took in the game
    "branching": "float32",  # options per decision, on average; null: no decision
    "lead_turns": "list<int16>",  # the turns (from 1) after which the lead changed hands
    "leaders": "list<int8>",  # the seat ahead from each of those turns on; 0: a shared lead
    # Each seat's progress (KitGame.progress) at the end of each twentieth of the game, point
    # by point, seat 1 first within a point (balance/stats/course.py)
    "course": "list<int16>",
    "lead_changes": "int16",  # changes of the seat ahead on progress (a shared lead: none)
}


@dataclass(frozen=True)
class OptionKind:
    """A kind of option (column 0 of every option a game offers): random play must reach
    each (the contract tests), under the game's defaults or, for one the defaults never
    offer (Rusship's pass, only where a die need not move), under `rules`. `text` is how a
    trace writes one, a format of its values a, b and c; "" writes the name."""

    name: str
    text: str = ""
    rules: dict = field(default_factory=dict)

    def words(self, a: int, b: int, c: int) -> str:
        return self.text.format(a=a, b=b, c=c) if self.text else self.name


@dataclass(frozen=True)
class Event:
    """An event the game emits (emit_nb, its code the index in KitGame.events) and how a
    trace writes it: `line`, a line of its own, or `part`, a piece gathered for the next
    line's {parts} (the rolls of a turn, say). Both are formats of the event's `fields` (its
    values a, b, c, d by name), `turn` and `seat` (from 1)."""

    name: str
    fields: tuple[str, ...] = ()
    line: str = ""
    part: str = ""

    def values(self, row) -> dict:
        return {"turn": int(row[0]) + 1, "seat": int(row[1]) + 1,
                **{name: int(row[3 + i]) for i, name in enumerate(self.fields)}}


@dataclass(frozen=True)
class Golden:
    """A playthrough checked in (`<rules' folder>/golden/<name>.txt`): a whole game as text."""

    name: str
    players: tuple[str, ...]
    seed: int
    rules: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Hidden:
    """Items (cards, tiles: whole numbers) some seat cannot see, held in the game's State:
    `items` its field, `count` the field saying how many are there. Private (a hand): row q of
    `items` is seat q's, items[q, :count[q]], seen by seat q alone. Face-down (a deck, a bag):
    items[:count[0]], seen by no seat. Masked (tiles face down on a board, some of them looked
    at): `count` names instead a (seats, n) array, nonzero at [q, j] where seat q sees
    items[j]; the items a seat cannot see are those its row leaves at 0, wherever they lie.
    The kit redraws what a seat cannot see (the generated
    `redraw_unseen_nb`): every such item pooled, shuffled and dealt back, each part
    as many as it held. The redraw is generated in the game's forward module (KitGame.forward),
    which a game with hidden parts therefore names."""

    items: str
    count: str
    private: bool = False
    masked: bool = False


@dataclass(frozen=True)
class KitGame:
    name: str
    ref: str  # "module:attribute" of this declaration: the Game's hooks are its methods
    # The game's compiled rules: a module with Rules (a NamedTuple: `players` and settings by
    # name), State (a NamedTuple whose field `kit` is the kit's arrays), new_state(rules,
    # kit), start_nb, options_nb, apply_nb, and optionally new_tables(rules), broken_nb
    # (the invariants) and record_nb (the game's own record). The guide's developers/kit.md.
    rules: str
    loop: str  # the module generated from this declaration (python -m balance.kit.generate)
    players: str  # "module:attribute" of the game's Roster (heuristics/player.py)
    settings: tuple[Setting, ...]
    defaults: dict
    decisions: tuple[str, ...]  # the kinds of decision, by code
    options: tuple[OptionKind, ...]  # the kinds of option, by code
    events: tuple[Event, ...]  # the game's events, by code
    end_reasons: tuple[str, ...]
    undecided_ends: tuple[str, ...] = ()
    tallies: tuple[str, ...] = ()  # each seat's counts: a seats table, one row per seat
    # The rules' own opponent, no seat (Gem Runner's Computer), as reports name it ("the
    # Computer"); "" for none. Its decisions are asked with the seat AUTOMA (state.py) and
    # picked by the rules' automa_nb(state, tables, rules), checked and traced as any seat's.
    automa: str = ""
    automa_settings: tuple[str, ...] = ()  # the settings that rule its play: its levers
    hidden: tuple[Hidden, ...] = ()  # what a seat cannot see: redraw_unseen_nb redraws it
    # The module generated with the game's forward model (balance/kit/forward.py): a search
    # player over the game without a forward model of its own, and the redraw of `hidden`;
    # "" for none. With it the Game's `forward` is the kit's (forward_hooks).
    forward: str = ""
    searchable: tuple[str, ...] = ()  # the decisions a search may search; (): every one
    record: tuple[str, ...] = ()  # per-game values the game's record_nb writes (Kit.rec)
    # What counts as a seat's progress in the game's course (the games table's `course` and
    # `lead_changes`): the tally of that name (hits landed, gems won), where the score does
    # not say who is ahead; "" for the score.
    progress: str = ""
    invariants: tuple[str, ...] = ()  # what broken_nb returns, 1-based, in words
    columns: dict = field(default_factory=dict)  # the games table's own columns: type
    values: str = ""  # "module:function" (Records, Setup) -> {column: values} for `columns`
    header: str = ""  # a trace's first line: a format of seed, players and the rules
    # A trace's last line: a format of reason, turns, outcome, scores, and each tally's list.
    closing: str = "end: {reason} after {turns} turns; {outcome}; scores {scores}"
    show_decisions: bool = True  # a trace writes each decision, its options and the pick
    # "module:Class" of a View (balance/kit/view.py): the state as text at each turn, and
    # words that depend on it; "" keeps to the formats above.
    view: str = ""
    goldens: tuple[Golden, ...] = ()
    bench_title: str = ""
    bench_experiment: dict = field(default_factory=dict)
    describe: str = ""  # the rules in words, a format of their values (tune-player says it)
    settings_key: str = "rules"  # the manifest's key for a variant's every rule value
    # "module:function" (values, seats) -> Rules, for rules whose compiled fields are not the
    # settings one by one (a word setting read as two switches, say); "": by name.
    compile: str = ""
    # The package whose folder holds golden/, where it is not the rules' (a game's goldens
    # kept with its tests); "": the rules' folder.
    goldens_at: str = ""
    max_options: int = 64
    max_events: int = 20_000

    def __post_init__(self):
        names = {s.name for s in self.settings}
        odd = [n for n in self.automa_settings if n not in names]
        if odd or (self.automa_settings and not self.automa):
            raise ValueError(f"kit game {self.name}: automa_settings {odd or 'given'} must "
                             "be settings of a game with an automa")
        if self.hidden and not self.forward:
            raise ValueError(f"kit game {self.name}: hidden parts are redrawn in the game's "
                             "forward module: name it (KitGame.forward)")
        if self.progress and self.progress not in self.tallies:
            raise ValueError(f"kit game {self.name}: progress {self.progress!r} must be one "
                             "of its tallies")
        odd = [n for n in self.searchable if n not in self.decisions]
        if odd or (self.searchable and not self.forward):
            raise ValueError(f"kit game {self.name}: searchable {odd or 'given'} must be "
                             "decisions of a game with a forward module (KitGame.forward)")

    def declare(self, **declaration) -> Game:
        """The game's Game: `declaration` gives title, version, player_counts,
        cooperative, measures, default_player and any other field; the kit fills the
        tables, end reasons, settings, code roots and hooks."""
        games = Table("games", {**CORE_COLUMNS, **KIT_COLUMNS, **self.columns},
                      declaration.pop("games_help", "one row per game"),
                      seat_columns=("winner",))
        tables = (games,)
        if self.tallies:
            tables += (Table("seats", {"experiment": "string", "variant": "int32",
                                       "game": "int64", "seat": "int8", "score": "int16",
                                       **{t: "int16" for t in self.tallies}},
                             "one row per seat of a game", seat_columns=("seat",)),)
        keys = ("ablate",) if declaration.get("ablations") else ()
        # A hook named in `declaration` is the game's own (variants whose ablations take
        # parts out of the rules, say); the rest are the kit's.
        kits = dict(name=self.name, settings=self.settings, tables=tables,
                    end_reasons=self.end_reasons, undecided_ends=self.undecided_ends,
                    experiment_keys=keys, kernel_modules=(self.loop, self.ref.split(":")[0]),
                    variants=f"{self.ref}.variants", prepare=f"{self.ref}.prepare_variant",
                    play=f"{self.ref}.play_shard",
                    check=f"{self.ref}.check_games", probe=f"{self.ref}.probe",
                    players=self.players,
                    bench=f"{self.ref}.bench_case", tuning=f"{self.ref}.tuning",
                    kit=self.ref, tallies=self.tallies, automa=self.automa,
                    forward=f"{self.ref}.forward_hooks" if self.forward else "")
        game = Game(**{**kits, **declaration})
        object.__setattr__(self, "_game", game)  # the hooks' way back to the declaration
        return game

    @property
    def game(self) -> Game:
        """The Game declared from this (or, for a copy made with dataclasses.replace, the
        one its module declares)."""
        found = getattr(self, "_game", None)
        if found is None:
            module = importlib.import_module(self.ref.split(":")[0])
            found = next(v for v in vars(module).values()
                         if isinstance(v, Game) and v.kit == self.ref)
        return found

    @property
    def forward_hooks(self) -> ForwardModel:
        """The kit's forward model of the game, from the module generated for it
        (balance/kit/generate.py): its state made and copied whole, the game's stream drawn
        anew and the hidden parts redrawn from the searching seat's view, play on by the
        game's loop, the end scored by the kit (balance/kit/forward.py)."""
        if not self.forward:
            raise LookupError(f"kit game {self.name} has no forward module (KitGame.forward)")
        kinds = tuple((name, self.decisions.index(name))
                      for name in self.searchable or self.decisions)
        return ForwardModel(
            new_state=f"{self.forward}:new_forward_state", copy=f"{self.forward}:copy_state_nb",
            determinize=f"{self.forward}:determinize_nb", play_on=f"{self.loop}:play_on_nb",
            value="balance.kit.forward:state_value_nb", turn="balance.kit.forward:kit_turn",
            searchable=kinds)

    def module(self):
        """The game's rules module, imported now."""
        return importlib.import_module(self.rules)

    def roster(self):
        return resolve(self.players)

    def golden_folder(self) -> Path:
        if self.goldens_at:
            spec = importlib.util.find_spec(self.goldens_at)
            return Path(list(spec.submodule_search_locations)[0]) / "golden"
        return Path(importlib.util.find_spec(self.rules).origin).parent / "golden"

    def progress_index(self) -> int:
        """What counts as progress, as the kit's state holds it (Kit.course's last row)."""
        return self.tallies.index(self.progress) if self.progress else -1

    def violation_names(self) -> tuple[str, ...]:
        from balance.kit.state import KIT_VIOLATIONS  # lazy: a declaration loads no numba
        return (*KIT_VIOLATIONS, *self.invariants)

    def probe(self):
        """How the contract tests watch the game play (Game.probe): the kit's probe."""
        from balance.kit.probe import KitProbe  # lazy: a declaration loads no engine
        return KitProbe(self)

    # The runner's hooks (Game.variants, prepare, play, check, bench, tuning): hooks.py.
    def prepare_variant(self, variant):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.prepare_variant(self, variant)

    def play_shard(self, job):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.play_shard(self, job)

    def check_games(self, variant, seeds):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.check_games(self, variant, seeds)

    def bench_case(self):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.bench_case(self)

    def variants(self, inp):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.variants(self, inp)

    def tuning(self, ask):
        from balance.kit import hooks  # lazy: listing the games loads no engine
        return hooks.tuning(self, ask)
