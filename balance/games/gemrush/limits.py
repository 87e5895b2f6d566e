"""The bounds every game must stay within, checked before any game is played.

The engine fills fixed arrays (no allocation inside kernels, see balance/kernels/jit.py) and
the tables store narrow integer columns (a million games must fit in memory). Rather than let
a large content file or rule value write past an array or wrap a column, validation refuses
anything whose worst case could exceed a bound, and names the room, card or rule responsible.

The numbers live in capacity.py, which the content parser and the engine import; this module
checks a compiled variant (content, tables and rules) against them. The bounds, and why:
- A decision lists at most MAX_OPTS options (capacity.py). A hand, the revealed pool and
  the choice of X can each hold every gem card, and a room can move to 4 cells per tile: so the
  box holds at most MAX_CARDS cards and MAX_TILES tiles, and no ability count exceeds
  MAX_CARDS.
- The games table stores turns and scores as Int16 (guide: reference/tables.md): a variant
  whose longest possible game or highest possible score exceeds COLUMN_MAX is refused. A
  Crisis or Rush target above COLUMN_MAX could never be reached, and is refused too.
- The rooms table stores a tile's ability uses and the cards they gained as Int32: a tile can
  be used on every step, every free use and the action of every player turn, which Int16
  does not hold within the longest game allowed (1st-edition Rush with its largest round
  cap: 32,764 turns, 12 uses each). Uses always fit Int32 (at most 32,767 turns of 20 steps,
  100 free uses and an action); the cards gained, up to every card of the box for every step
  of an ability, are checked against COUNT_MAX.
"""

from __future__ import annotations

from balance.errors import Problems
from balance.games.gemrush.capacity import COLUMN_MAX, COUNT_MAX
from balance.games.gemrush.engine.state import max_turns
from balance.games.gemrush.rules import SKILL_VARIANTS
from balance.games.gemrush.tables import SEAT_DEAL, SEAT_VP, SKV_CHOICE, SKV_NONE, SKV_SHARED


def longest_game(tables, rules) -> int:
    """Most player turns a game of these rules can last (the engine stops it there)."""
    return max_turns(tables, rules)


def highest_score(content, tables, rules) -> int:
    """A bound on a team's total: every door of every tile scored, every player's start
    points, and Orichalcum's bonus on every card of every payment."""
    doors = sum(r.copies * sum(e.points for e in r.edges if e is not None)
                for r in content.rooms)
    bonus = 0
    if rules.special_gems and any(g.power == "bonus" for g in content.gems):
        longest_cost = max((len(e.cost) for r in content.rooms for e in r.edges
                            if e is not None), default=0)
        # Each card shows at most two gems; a payment holds at most cost + 1 cards.
        bonus = len(tables.room_deck) * 2 * (longest_cost + 1)
    return int(rules.seat[SEAT_VP].sum()) + doors + bonus


def most_uses(tables, rules) -> int:
    """A bound on one tile's ability uses in a game: every player turn may use it with each
    step, each free use and the action (engine/turn_nb.py, movement and action)."""
    return longest_game(tables, rules) * (rules.steps + rules.free_use_cap + 1)


def most_gained(content, tables, rules) -> int:
    """A bound on the cards one tile's uses move into (or out of) hands in a game: each step
    of the longest ability moves at most every card of the box."""
    longest = max((len(r.ability) for r in content.rooms), default=0)
    return most_uses(tables, rules) * longest * len(tables.card_deck)


def variant_problems(content, tables, rules, source: str) -> Problems:
    """A compiled variant's worst cases against the games table's columns."""
    probs = Problems(source)
    turns = longest_game(tables, rules)
    if turns > COLUMN_MAX:
        if rules.mode == 1:
            most = max(1, (COLUMN_MAX - rules.players) // rules.players)
            probs.add("rules", "rush_round_cap",
                      f"{rules.rush_round_cap:,} rounds of {rules.players} players can last "
                      f"{turns:,} player turns, more than the games table's 'turns' column "
                      f"holds ({COLUMN_MAX:,}); use at most {most:,} rounds")
        else:
            probs.add("rules", "burn_per_turn",
                      f"a Crisis game of {len(tables.card_deck):,} cards burnt "
                      f"{rules.burn_per_turn} a turn can last {turns:,} player turns, more "
                      f"than the games table's 'turns' column holds ({COLUMN_MAX:,})")
    score = highest_score(content, tables, rules)
    if score > COLUMN_MAX:
        probs.add("rooms", "points", f"the doors, start points and bonuses of {content.path} "
                  f"could add up to {score:,} points in one game, more than the games "
                  f"table's 'score' column holds ({COLUMN_MAX:,})")
    gained = most_gained(content, tables, rules)
    if gained > COUNT_MAX:
        probs.add("rooms", "ability", f"a tile could be used {most_uses(tables, rules):,} "
                  f"times in a game (each of {longest_game(tables, rules):,} player turns: "
                  f"{rules.steps} steps, {rules.free_use_cap} free uses and the action) and "
                  f"gain up to {gained:,} cards, more than the rooms table's 'gained' column "
                  f"holds ({COUNT_MAX:,}); fewer cards, shorter abilities, fewer steps or a "
                  "shorter game fit")
    if rules.target > COLUMN_MAX:
        probs.add("", "target", f"{rules.target:,} points is more than any game can score "
                  f"here (a score column holds {COLUMN_MAX:,})")
    return probs


def check_variant(content, tables, rules, source: str) -> None:
    """Refuse a compiled variant that a column cannot hold, or whose deal cannot be made."""
    probs = variant_problems(content, tables, rules, source)
    deals = [int(n) for n in rules.seat[SEAT_DEAL]]
    dealt = sum(deals)
    if dealt > len(tables.card_deck):
        each = (f"{deals[0]} cards each" if len(set(deals)) == 1
                else f"{' + '.join(map(str, deals))} cards (seat by seat)")
        probs.add("rules", "deal", f"{rules.players} players dealt {each} "
                  f"need {dealt} gem cards, but {content.path} has {len(tables.card_deck)}")
    _skill_deal_problems(probs, content, tables, rules)
    probs.raise_if_any()


def _skill_deal_problems(probs, content, tables, rules) -> None:
    """The skill variant's deal must fit the box's skill cards."""
    if rules.skills == SKV_NONE or (rules.skills == SKV_SHARED and tables.shared_skill >= 0):
        return
    each = rules.skill_choice if rules.skills == SKV_CHOICE else 1
    need = 1 if rules.skills == SKV_SHARED else each * rules.players
    have = len(tables.skill_deck)
    if need > have:
        field = "skill_choice" if rules.skills == SKV_CHOICE else "skills"
        probs.add("rules", field, f"the {SKILL_VARIANTS[rules.skills]} variant deals {need} "
                  f"skill cards to {rules.players} players, but {content.path} has {have}")
