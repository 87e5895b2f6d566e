"""What a skill makes a card show (skills_nb.py applies it; players may try it first).

A turned card's gems come from the effect's two outputs: a gem, the holder's colour (`own`),
or one of the card's own gems (`kept`, the face slot the player picks). A condition reads the
printed gems (st.face columns 2-3), never a skill's face.
"""

from balance.games.gemrush.skill import G_KEPT, G_NONE, G_OWN, SKC_COND, SKC_OUT0, SKC_OUT1
from balance.kernels.jit import njit


@njit
def colour_nb(tb, p):
    """Seat p's dwarf colour: the standard gems in content order, seat after seat."""
    return tb.colour[p % tb.colour.shape[0]]


@njit
def gem_code_nb(tb, p, code):
    return colour_nb(tb, p) if code == G_OWN else code


@njit
def prints_nb(st, card, g):
    """Whether the card's printed gems show g (a skill's face does not count)."""
    return st.face[card, 2] == g or st.face[card, 3] == g


@njit
def new_face_nb(st, tb, p, s, card, kept):
    """The gems the skill would make the card show: (g0, g1)."""
    out = (tb.skill_op[s, SKC_OUT0], tb.skill_op[s, SKC_OUT1])
    g0 = G_NONE
    g1 = G_NONE
    for i in range(2):
        code = out[i]
        if code == G_KEPT:
            g = st.face[card, kept] if kept >= 0 else G_NONE
        else:
            g = gem_code_nb(tb, p, code)
        if i == 0:
            g0 = g
        else:
            g1 = g
    if g0 < 0:
        return g1, G_NONE
    return g0, g1


@njit
def eligible_nb(st, tb, p, s, card):
    cond = tb.skill_op[s, SKC_COND]
    return cond == G_NONE or prints_nb(st, card, gem_code_nb(tb, p, cond))


@njit
def kepts_nb(st, tb, s, card):
    """The `kept` choices for a card: -1 when the effect keeps nothing, else each distinct
    gem the card shows now (as its face slot)."""
    if tb.skill_op[s, SKC_OUT0] != G_KEPT and tb.skill_op[s, SKC_OUT1] != G_KEPT:
        return -1, -2
    k0 = 0 if st.face[card, 0] >= 0 else -2
    k1 = 1 if st.face[card, 1] >= 0 and st.face[card, 1] != st.face[card, 0] else -2
    if k0 < 0:
        return k1, -2
    return k0, k1
