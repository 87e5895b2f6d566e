"""A designer's overview of a content file: what `balance validate` prints on success."""

from __future__ import annotations

from collections import Counter

from balance.games.gemrush.content import ROOM_KINDS, Content


def content_summary(content: Content) -> dict:
    tiles_by_kind = Counter()
    for r in content.rooms:
        tiles_by_kind[r.kind] += r.copies
    gem_freq = Counter()
    for c in content.cards:
        for g in c.gems:
            gem_freq[g] += c.copies
    cost_sizes = Counter()
    points = Counter()
    cost_gems = Counter()
    for r in content.rooms:
        if r.kind == "tunnel":
            continue
        for e in r.edges:
            if e is None:
                continue
            cost_sizes[len(e.cost)] += r.copies
            points[e.points] += r.copies
            for g in e.cost:
                cost_gems[g] += r.copies
    return {
        "name": content.name,
        "edition": content.edition,
        "room_tiles": content.room_tiles,
        "room_types": len(content.rooms),
        "gem_cards": content.gem_cards,
        "card_types": len(content.cards),
        "gem_types": {g.name: (g.power or g.kind) for g in content.gems},
        "tiles_by_kind": {k: tiles_by_kind.get(k, 0) for k in ROOM_KINDS},
        "gem_frequency_on_cards": {g.name: gem_freq.get(g.name, 0) for g in content.gems},
        "door_cost_gems": dict(sorted(cost_sizes.items())),
        "door_points": dict(sorted(points.items())),
        "gem_frequency_in_costs": {g.name: cost_gems.get(g.name, 0) for g in content.gems},
        "skills": len(content.skills),
        "reconstructed": bool(content.reconstructed.strip()),
    }


def format_summary(s: dict) -> str:
    def row(d: dict) -> str:
        return ", ".join(f"{k} {v}" for k, v in d.items())

    lines = [
        f"{s['name']} (edition {s['edition']}): valid",
        f"  room tiles  {s['room_tiles']} ({s['room_types']} types): {row(s['tiles_by_kind'])}",
        f"  gem cards   {s['gem_cards']} ({s['card_types']} types)",
        f"  gem types   {row(s['gem_types'])}",
        f"  gems on cards   {row(s['gem_frequency_on_cards'])}",
        f"  gems in costs   {row(s['gem_frequency_in_costs'])}",
        "  door cost (gems: doors)   " + row(s["door_cost_gems"]),
        "  door points (points: doors)   " + row(s["door_points"]),
    ]
    if s["skills"]:
        lines.append(f"  skills      {s['skills']} (dealt and played as the rule profile's "
                     "`skills` field says)")
    if s["reconstructed"]:
        lines.append("  note: the file says its component list is reconstructed")
    return "\n".join(lines)
