"""Gem Rush's words for what a variant's value alone does not say: a room ablated is made plain
or taken out of the box, as the run's `ablate` chose (balance/games/gemrush/experiment.py,
_Boxes._ablation), read from the patch the variant records."""

from __future__ import annotations

import glob


def ablate_words(room, info: dict) -> str | None:
    """"Scrying Pool made plain" or "Scrying Pool taken out"; None for the unchanged box or a
    variant that records no ablation patch (Label.of_variant)."""
    if room == "none":
        return None
    for patch in reversed(info.get("patches") or ()):  # the ablation is applied last
        if not isinstance(patch, dict) or (patch.get("select") or {}).get("rooms") != \
                glob.escape(str(room)):
            continue
        if patch.get("kind") == "plain":
            return f"{room} made plain"
        if patch.get("copies") == 0:
            return f"{room} taken out"
    return None
