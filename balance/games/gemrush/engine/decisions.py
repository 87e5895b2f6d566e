"""Every choice in the game is a decision: the engine lists the legal options in `st.opt`
(one whole row each, written by options_nb.offer_nb; unused cells are 0) and asks the player
for an index. None is taken on a player's behalf; a decision
with a single legal option is not asked. This module names the decisions and their row layouts,
which is all a new player needs to know about the engine.
"""

# Decision kinds, with the layout of an option row.
D_DISCARD_LIMIT = 0  # (hand position, card): discard one card, repeated down to the hand limit
D_STEP = 1  # (OPT_*, a, b, c): one movement-phase move, see below
D_PAYMENT = 2  # (hand-position bit mask, Warpstone hand position or -1, cards, gems wasted)
D_ROTATION = 3  # (rotation, room type, entry side, cell = y * W + x) of a new tile
D_ACTION = 4  # (ACT_DRAW | ACT_ABILITY,)
D_X = 5  # (value,): the X of a room's ability
D_NAME = 6  # (gem,): name a gem
D_KEEP = 7  # (pool index, card): keep one revealed card
D_ABILITY_DISCARD = 8  # (hand position, card): discard one card for an ability
D_SWAP = 9  # (seat,): swap places with that player
D_MOVE_ANY = 10  # (placed tile,): move to that room
D_MOVE_ROOM = 11  # (cell,): move the current room there
D_VOL_DISCARD = 12  # (seat, hand position, card), or (-1, -1, -1) for "no more": discard at will
D_BURN = 13  # (seat, hand position, card), or (-1, -1, -1) for the deck: burn one card
D_SKILL = 14  # (slot, skill, redraw), or (-1, -1, 0) to decline: use a skill now (after an
#               ability, or for a second use of a room's ability; redraw 0), or, in Chaos
#               Magic, redraw it (redraw 1)
D_SKILL_PICK = 15  # (skill,): keep one of the skills dealt (Choice of Skills)
N_DECISIONS = 16

DECISION_NAMES = ("discard to limit", "step", "payment", "rotation", "action", "choose X",
                  "name a gem", "keep", "discard for ability", "swap", "move to any room",
                  "move this room", "discard at will", "burn", "use a skill", "pick a skill")

# D_STEP option kinds: (kind, a, b, c)
OPT_STOP = 0  # end the movement phase
OPT_DOOR = 1  # (side, destination tile or -1 to build, tunnels passed)
OPT_CART = 2  # (destination mine cart,)
OPT_WARP_MOVE = 3  # (hand position of the Warpstone card, destination tile)
OPT_WARP_BUILD = 4  # (placed tile, side): build at that door for no movement
OPT_ABILITY = 5  # use this movement room's ability for one step
OPT_FREE = 6  # use this free room's ability for no step
OPT_SKILL = 7  # (slot, a, b): use the skill in that slot (engine/skills_nb.py says
#                what a and b mean for each effect); a D_DISCARD_LIMIT row (-1, slot) keeps
#                the rest of the hand with a hand-limit skill

ACT_DRAW, ACT_ABILITY = 0, 1
