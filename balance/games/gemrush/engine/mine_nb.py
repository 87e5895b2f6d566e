"""The mine: an unbounded grid (ruling 5) of placed tiles, doors, tunnels and mine carts.

Placed tiles are numbered in placement order; `grid` maps a cell to its placed tile (-1 when
empty). A player may leave a room through any of its doors; the room on the other side needs
no matching door (a door into a wall is a one-way passage).

Tunnels (ruling 6) are in `trace_nb`: a step into a tunnel follows its joined doors, through
any chain of tunnels, and ends in an empty cell (where a build happens) or a built room.

Where each door of each room leads is asked thousands of times per game but changes only when
a tile is placed or moved, so `link_nb` answers from `st.link`. Placing a tile updates only the
doors that led to its cell; moving a room (Mystic Elevator) rebuilds the whole table.
"""

from balance.games.gemrush.ability import MOVE_ROOM
from balance.games.gemrush.engine.state import (
    PL_BUILDER,
    PL_GAINED,
    PL_POINTS,
    PL_ROT,
    PL_TURN,
    PL_TYPE,
    PL_USES,
    PL_X,
    PL_Y,
    S_CARTS,
    S_LINK_VER,
    S_MINE_VER,
    S_PLACED,
    WK_SCRATCH,
)
from balance.games.gemrush.tables import MINECART, TUNNEL, WARP
from balance.kernels.jit import njit

DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

# trace_nb results; L_NONE marks a side of st.link with no door (or a tunnel's own sides,
# which nobody leaves from: a player never stops in a tunnel)
T_EMPTY, T_ROOM, T_BLOCKED = 0, 1, 2
L_NONE = -1


@njit
def step_xy_nb(x, y, side):
    if side == 0:
        return x, y - 1
    if side == 1:
        return x + 1, y
    if side == 2:
        return x, y + 1
    return x - 1, y


@njit
def place_nb(st, tb, rtype, rot, x, y, builder, turn):
    i = st.sc[S_PLACED]
    links_fresh = st.sc[S_LINK_VER] == st.sc[S_MINE_VER]
    st.pl[PL_TYPE, i] = rtype
    st.pl[PL_ROT, i] = rot
    st.pl[PL_X, i] = x
    st.pl[PL_Y, i] = y
    st.pl[PL_BUILDER, i] = builder
    st.pl[PL_TURN, i] = turn
    st.pl[PL_POINTS, i] = 0
    st.pl[PL_USES, i] = 0
    st.pl[PL_GAINED, i] = 0
    st.grid[y, x] = i
    st.sc[S_PLACED] = i + 1
    st.sc[S_MINE_VER] += 1
    if tb.room_kind[rtype] == MINECART:
        st.sc[S_CARTS] += 1
    if links_fresh:
        # Only doors that led into this cell change (a trace ends at the first empty cell).
        for j in range(i):
            for side in range(4):
                lk = st.link[j, side]
                if lk[0] == T_EMPTY and lk[1] == x and lk[2] == y:
                    _link_side_nb(st, tb, j, side)
        _link_tile_nb(st, tb, i)
        st.sc[S_LINK_VER] = st.sc[S_MINE_VER]
    return i


@njit
def trace_nb(st, tb, x, y, side):
    """Leave cell (x, y) through `side`. Returns (kind, a, b, c, tunnels passed):
    T_EMPTY with the empty cell (a, b) and the side c it is entered through;
    T_ROOM with the placed tile a; T_BLOCKED when a tunnel has no door on the entry side."""
    return _trace_nb(st.grid, st.pl, tb.room_kind, tb.tunnel_exit, x, y, side)


@njit
def _trace_nb(grid, pl, room_kind, tunnel_exit, x, y, side):
    # Takes only the arrays it reads: it is the hottest call in the engine.
    passed = 0
    for _guard in range(pl.shape[1] + 2):
        nx, ny = step_xy_nb(x, y, side)
        j = grid[ny, nx]
        back = (side + 2) % 4
        if j < 0:
            return T_EMPTY, nx, ny, back, passed
        if room_kind[pl[PL_TYPE, j]] != TUNNEL:
            return T_ROOM, j, 0, 0, passed
        ex = tunnel_exit[pl[PL_TYPE, j], pl[PL_ROT, j], back]
        if ex < 0:
            return T_BLOCKED, j, 0, 0, passed
        passed += 1
        x, y, side = nx, ny, ex
    return T_BLOCKED, -1, 0, 0, passed


@njit
def _link_side_nb(st, tb, j, side):
    kind, a, b, c, passed = trace_nb(st, tb, st.pl[PL_X, j], st.pl[PL_Y, j], side)
    lk = st.link[j, side]
    lk[0] = kind
    lk[1] = a
    lk[2] = b
    lk[3] = c
    lk[4] = passed


@njit
def _link_tile_nb(st, tb, j):
    jt = st.pl[PL_TYPE, j]
    jr = st.pl[PL_ROT, j]
    tunnel = tb.room_kind[jt] == TUNNEL
    for side in range(4):
        if tunnel or not tb.door[jt, jr, side]:
            st.link[j, side, 0] = L_NONE
        else:
            _link_side_nb(st, tb, j, side)


@njit(inline=True)
def fresh_links_nb(st, tb):
    """Bring st.link up to date with the mine. A loop over many doors calls this once and
    then reads st.link directly, rather than link_nb's check at every door."""
    if st.sc[S_LINK_VER] != st.sc[S_MINE_VER]:
        for i in range(st.sc[S_PLACED]):
            _link_tile_nb(st, tb, i)
        st.sc[S_LINK_VER] = st.sc[S_MINE_VER]


@njit
def link_nb(st, tb, j, side):
    """trace_nb from door `side` of placed room j, from the cache; L_NONE without a door."""
    fresh_links_nb(st, tb)
    lk = st.link[j, side]
    return lk[0], lk[1], lk[2], lk[3], lk[4]


@njit(inline=True)
def door_leads_nb(st, tb, j, side):
    """Where door `side` of placed tile j leads: link_nb for a room; for a tunnel's own door,
    which only a Warpstone build starts from (st.link keeps no sides for tunnels), a trace
    from the tunnel's cell."""
    if tb.room_kind[st.pl[PL_TYPE, j]] == TUNNEL:
        return trace_nb(st, tb, st.pl[PL_X, j], st.pl[PL_Y, j], side)
    return link_nb(st, tb, j, side)


@njit
def mine_sealed_nb(st, tb, ru):
    """Whether nobody can build again: no door of the mine leads to an empty cell (from a room,
    through any tunnels; from a tunnel's own door where a Warpstone build may start there) and
    no placed room can move (a Mystic Elevator could open new doors). Two one-door dead ends
    facing each other seal a small mine. Asked every Rush round, so it reads st.link directly."""
    fresh_links_nb(st, tb)
    warp_tunnels = False
    if ru.special_gems and ru.warp_build_at_tunnels:
        for g in range(tb.gem_power.shape[0]):
            if tb.gem_power[g] == WARP and tb.gem_cards[g] > 0:
                warp_tunnels = True
    for j in range(st.sc[S_PLACED]):
        jt = st.pl[PL_TYPE, j]
        for i in range(tb.prog_len[jt]):
            if tb.prog[jt, i, 0] == MOVE_ROOM:
                return False
        if tb.room_kind[jt] != TUNNEL:
            for side in range(4):
                if st.link[j, side, 0] == T_EMPTY:
                    return False
        elif warp_tunnels:
            for side in range(4):
                if tb.door[jt, st.pl[PL_ROT, j], side]:
                    kind, _a, _b, _c, _p = trace_nb(st, tb, st.pl[PL_X, j], st.pl[PL_Y, j],
                                                    side)
                    if kind == T_EMPTY:
                        return False
    return True


@njit
def legal_rotations_nb(tb, rtype, entry_side, out):
    """Rotations of a new tile that put a door on `entry_side` (facing the room left)."""
    n = 0
    for r in range(4):
        if tb.door[rtype, r, entry_side]:
            out[n] = r
            n += 1
    return n


@njit
def connected_nb(st, skip):
    """Whether the placed tiles (except `skip`) form one orthogonally connected mine."""
    n = st.sc[S_PLACED]
    total = n - (1 if skip >= 0 else 0)
    if total <= 1:
        return True
    start = 0 if skip != 0 else 1
    seen = st.work[WK_SCRATCH]  # reused: cleared below for the first n entries
    for i in range(n):
        seen[i] = 0
    q = st.queue
    q[0] = start
    seen[start] = 1
    head = 0
    tail = 1
    while head < tail:
        i = q[head]
        head += 1
        for side in range(4):
            nx, ny = step_xy_nb(st.pl[PL_X, i], st.pl[PL_Y, i], side)
            j = st.grid[ny, nx]
            if j >= 0 and j != skip and seen[j] == 0:
                seen[j] = 1
                q[tail] = j
                tail += 1
    return tail == total


@njit
def room_move_spots_nb(st, i, out):
    """Cells a room may be moved to (Mystic Elevator): empty, next to another tile, and the
    rest of the mine stays connected without it. Fills out[k] = y * W + x."""
    if st.sc[S_PLACED] < 2:
        return 0
    x0, y0 = st.pl[PL_X, i], st.pl[PL_Y, i]
    st.grid[y0, x0] = -1
    n = 0
    if connected_nb(st, i):
        w = st.grid.shape[0]
        for j in range(st.sc[S_PLACED]):
            if j == i:
                continue
            for side in range(4):
                nx, ny = step_xy_nb(st.pl[PL_X, j], st.pl[PL_Y, j], side)
                if st.grid[ny, nx] >= 0 or (nx == x0 and ny == y0):
                    continue
                code = ny * w + nx
                dup = False
                for k in range(n):
                    if out[k] == code:
                        dup = True
                        break
                if not dup and n < out.shape[0]:
                    out[n] = code
                    n += 1
    st.grid[y0, x0] = i
    return n


@njit
def move_room_nb(st, i, code):
    w = st.grid.shape[0]
    st.grid[st.pl[PL_Y, i], st.pl[PL_X, i]] = -1
    st.pl[PL_X, i] = code % w
    st.pl[PL_Y, i] = code // w
    st.grid[st.pl[PL_Y, i], st.pl[PL_X, i]] = i
    st.sc[S_MINE_VER] += 1

