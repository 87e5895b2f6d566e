"""Draw a finished mine: tiles, their doors with cost and points, who built what, the start."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from balance.games.gemrush.engine.state import S_PLACED  # noqa: E402
from balance.games.gemrush.play import Setup  # noqa: E402
from balance.games.gemrush.tables import TUNNEL  # noqa: E402

SEAT_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948")


def gem_codes(names: list[str]) -> list[str]:
    """Short unique labels: initials, or the first two letters where initials collide."""
    codes = ["".join(w[0] for w in n.split()).upper() for n in names]
    for c in list(codes):
        if codes.count(c) > 1:
            codes = [n[:2].title() if codes[j] == c else codes[j] for j, n in enumerate(names)]
    return codes


def draw_mine(setup: Setup, st) -> bytes:
    """The final mine as a PNG file's bytes (the caller writes them: files.write_new)."""
    tb = setup.tables
    n = int(st.sc[S_PLACED])
    xs = [int(st.pl_x[i]) for i in range(n)]
    ys = [int(st.pl_y[i]) for i in range(n)]
    x0, y0 = min(xs), min(ys)
    w, h = max(xs) - x0 + 1, max(ys) - y0 + 1
    fig, ax = plt.subplots(figsize=(max(4, 1.6 * w), max(4, 1.6 * h)))
    initials = gem_codes(setup.gem_names)
    for i in range(n):
        t, r = int(st.pl_type[i]), int(st.pl_rot[i])
        x, y = xs[i] - x0, -(ys[i] - y0)  # north up
        builder = int(st.pl_builder[i])
        face = "#dddddd" if builder < 0 else SEAT_COLOURS[builder % len(SEAT_COLOURS)]
        ax.add_patch(Rectangle((x - 0.48, y - 0.48), 0.96, 0.96, facecolor=face, alpha=0.35,
                               edgecolor="black", linewidth=2.5 if i == 0 else 1))
        label = setup.room_names[t]
        if i == 0:
            label += "\n(start)"
        ax.text(x, y, label, ha="center", va="center", fontsize=7, wrap=True)
        if tb.room_kind[t] == TUNNEL:
            continue
        for side, (dx, dy) in enumerate(((0, 0.36), (0.36, 0), (0, -0.36), (-0.36, 0))):
            if not tb.door[t, r, side]:
                continue
            cost = tb.door_cost[t, r, side]
            text = "".join(initials[g] * int(c) for g, c in enumerate(cost) if c) or "free"
            text += f" {int(tb.door_points[t, r, side])}p"
            ax.text(x + dx, y + dy, text, ha="center", va="center", fontsize=5.5,
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "lw": 0.5},
                    rotation=90 if side in (1, 3) else 0)
    for q, pos in enumerate(st.pos):
        px, py = xs[int(pos)] - x0, -(ys[int(pos)] - y0)
        ax.plot(px - 0.3 + 0.1 * q, py - 0.25, "o", color=SEAT_COLOURS[q % 7], ms=6,
                markeredgecolor="black")
    handles = [Rectangle((0, 0), 1, 1, fc=SEAT_COLOURS[q % 7], alpha=0.35)
               for q in range(setup.rules.players)]
    ax.legend(handles, [f"built by P{q + 1}" for q in range(setup.rules.players)],
              loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.set_xlim(-0.6, w - 0.4)
    ax.set_ylim(-(h - 0.4), 0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    pairs = [f"{i}={g}" for i, g in zip(initials, setup.gem_names, strict=True)]
    key = "\n".join(", ".join(pairs[k:k + 6]) for k in range(0, len(pairs), 6))
    ax.set_title(f"Final mine. Door labels: cost (gem codes) and points\n{key}", fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()
