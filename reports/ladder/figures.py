"""The ladder's chart: each step's difference with its interval, and the deal's share of
the outcome at each rung with its interval."""

from __future__ import annotations

from reports.render.figures import canvas, palette_of, percent_axis


def ladder_figure(s: dict):
    steps, deal = s["steps"], s["luck"]["deal"]
    # Short names on the axes: a search rung by its budget alone after its player's name.
    titles = [r["title"] if r["budget"] is None else f"{r['title'].split(',')[0]} {r['budget']}"
              for r in s["rungs"]]
    with canvas(9.0, 3.6, 2) as (fig, (left, right)):
        blue, orange = palette_of(2)
        xs = list(range(len(steps)))
        for x, st in zip(xs, steps, strict=True):
            y = 100 * st["difference"]
            lo = 100 * (st["low"] if st["low"] is not None else st["difference"])
            hi = 100 * (st["high"] if st["high"] is not None else st["difference"])
            left.errorbar([x], [y], yerr=[[y - lo], [hi - y]], fmt="o", capsize=4,
                          color=blue if st["told_apart"] else orange)
        left.axhline(0, color="0.4", linewidth=0.8)
        left.set_xticks(xs, [titles[st["upper"]] for st in steps], fontsize=8, rotation=30,
                        ha="right")
        left.set_xlabel("rung, against the one below it")
        left.set_ylabel("difference, percentage points")
        left.set_title("Each rung against the one below", fontsize=10)
        xs = list(range(len(deal)))
        for x, d in zip(xs, deal, strict=True):
            if d["deal_share"] is None:
                continue
            y, lo, hi = d["deal_share"], d["low"], d["high"]
            right.errorbar([x], [y], yerr=[[y - lo], [hi - y]], fmt="s", capsize=4,
                           color=blue)
        right.set_ylim(-0.02, 1.02)
        percent_axis(right)
        right.set_xticks(xs, [titles[d["rung"]] for d in deal], fontsize=8, rotation=30,
                         ha="right")
        right.set_ylabel("share of the outcome's variance")
        right.set_title("How much the deal decides, at each rung", fontsize=10)
    return fig
