"""The variants of a run as the designer named them: their labels as written in the experiment
file's [grid], and which one is the baseline that the others are compared with.

Both are read from the manifest: it keeps the experiment file's text as the games were played
with it, so a run is described by its own file even after the file has been edited.
"""

from __future__ import annotations

import itertools
import tomllib

import polars as pl

from balance.contract import labels as designer
from balance.errors import InputError, Problem


def experiment_table(manifest: dict) -> dict:
    """The parsed experiment file the run was made with ({} when the manifest has no text, as
    for `balance.simulate`, or a text that no longer parses)."""
    try:
        data = tomllib.loads(manifest.get("text") or "")
    except (tomllib.TOMLDecodeError, TypeError):
        return {}
    return data if isinstance(data, dict) else {}


def _written(value) -> str:
    # As TOML spells it, less the quotes: hand_limit=5, fast=true, level=Master.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(_written(v) for v in value)
    return str(value)


def labels(manifest: dict) -> list[str]:
    """One label per variant, in variant order: the [grid] keys and values as written
    ("hand_limit=5", "players=3, level=Master"). The variants are the grid's cross product
    with the last key varying fastest, as balance.running.experiment numbers them. A run whose text
    has no grid matching its variants gets "variant N"."""
    n = len(manifest.get("variants", []))
    recorded = [v.get("label") for v in manifest.get("variants", [])]
    if n > 1 and all(isinstance(x, str) and x for x in recorded):
        return recorded  # written by the runner (ablations make their own grid)
    grid = experiment_table(manifest).get("grid")
    if isinstance(grid, dict) and grid and all(isinstance(v, list) for v in grid.values()):
        combos = list(itertools.product(*grid.values()))
        if len(combos) == n:
            return [", ".join(f"{k}={_written(v)}" for k, v in zip(grid, combo, strict=True))
                    for combo in combos]
    return [f"variant {i}" for i in range(n)] if n > 1 else ["the only variant"] * n


def words(manifest: dict, game=None, against: dict[int, int] | None = None) -> list[str]:
    """One label per variant, in variant order, in the game's words (balance/contract/
    labels.py): "board length 12, Reference" for "length=12, heuristic=reference". Given
    `against` (each variant's baseline, by number), only what differs from it, and the
    settings that take more than one value (setting_keys: the player count), whose
    variants each have a baseline of their own: the part that tells the rows of a table
    apart. A manifest of no game known, or a variant of no swept key, keeps its label
    (labels())."""
    named = labels(manifest)
    infos = manifest.get("variants", [])
    if game is None:
        from balance.stats.measures import game_of  # lazy: the registry, for a manifest only

        try:
            game = game_of(manifest)
        except InputError:
            return named
    by_number = {int(v.get("variant", i)): v for i, v in enumerate(infos)}
    keep = tuple(k for k in setting_keys(manifest)
                 if len({repr((v.get("swept") or {}).get(k)) for v in infos}) > 1) \
        if against is not None else ()
    out = []
    for i, (info, label) in enumerate(zip(infos, named, strict=True)):
        if not info.get("swept") and not info.get("control"):
            out.append(label)
            continue
        base = None
        if against is not None:
            b = against.get(int(info.get("variant", i)))
            base = by_number.get(b) if b is not None and b != int(info.get("variant", i)) \
                else None
        out.append(designer.variant_words(game, info, base, keep) or label)
    return out


def baseline(manifest: dict, run_dir: str, override: int | None = None) -> int:
    """The variant the others are compared with: `override` (the command's --baseline), else
    the experiment file's `baseline`, else the first. InputError if it is not a variant."""
    n = len(manifest.get("variants", []))
    if override is not None:
        if not 0 <= override < n:
            raise InputError([Problem("--baseline", "", "", f"must be a variant of {run_dir}, "
                                      f"0 to {n - 1}, got {override}")])
        return override
    head = experiment_table(manifest).get("experiment")
    chosen = head.get("baseline", 0) if isinstance(head, dict) else 0
    if not isinstance(chosen, int) or isinstance(chosen, bool) or not 0 <= chosen < n:
        # The file was checked when the run was made; a manifest edited since is damaged.
        raise InputError([Problem(run_dir, "manifest.json: [experiment]", "baseline",
                                  f"must be a variant, 0 to {n - 1}, got {chosen!r}: the "
                                  "manifest is damaged; give --baseline")])
    return chosen


SETTINGS = ("players",)  # swept keys that set the scene rather than pull a lever
# Swept keys that choose who plays: the lever when nothing else is swept (a run comparing
# players), a setting beside another lever, whose effect is then measured player by player
# (comparing the reference with hand_limit=6 against greedy with 5 would mix two effects).
PLAYER_KEYS = ("heuristic", "seats")


def setting_keys(manifest: dict) -> tuple[str, ...]:
    """The swept keys each variant keeps its own value of when it finds its baseline."""
    swept = {k for v in manifest.get("variants", []) for k in (v.get("swept") or {})}
    levers = swept - set(SETTINGS) - set(PLAYER_KEYS)
    return SETTINGS + PLAYER_KEYS if levers and swept & set(PLAYER_KEYS) else SETTINGS


def player_and_lever(manifest: dict, game) -> dict[int, tuple[str | None, str]]:
    """Each variant's player and lever, apart, in the game's words, read from what its grid
    sweeps: (the player, None where the run does not sweep it; the other swept keys, "" where
    there are none): ("Reference", "hand limit 6") for heuristic=reference, hand_limit=6."""
    out = {}
    for i, info in enumerate(manifest.get("variants", [])):
        swept = {k: x for k, x in (info.get("swept") or {}).items() if x is not None}
        who = [designer.value_words(game, k, x) for k, x in swept.items() if k in PLAYER_KEYS]
        lever = [designer.value_words(game, k, x) for k, x in swept.items()
                 if k not in PLAYER_KEYS]
        out[int(info.get("variant", i))] = (", ".join(who) if who else None, ", ".join(lever))
    return out


def baselines_by_setting(manifest: dict, base: int) -> dict[int, int]:
    """Each variant's baseline: the variant with its own player count (and its own player,
    where another key is the lever: setting_keys) and the chosen baseline's value of every
    other swept key (the chosen baseline itself when no setting is swept, or no such variant
    exists)."""
    vs = manifest.get("variants", [])
    swept = {int(v["variant"]): dict(v.get("swept") or {}) for v in vs}
    settings = setting_keys(manifest)
    out = {}
    for v, values in swept.items():
        want = {k: (values.get(k) if k in settings else x)
                for k, x in swept.get(base, {}).items()}
        match = [u for u, vals in sorted(swept.items()) if vals == want]
        out[v] = match[0] if match and any(k in want for k in settings) else base
    return out



def run_variants(name: str, cmp, manifest: dict) -> dict[int, dict]:
    """The manifest's variants of the run `name` (a report's combined manifest, or one run's)
    by their number in that run, as its comparison (reports/compare/compare.py) numbers them; {}
    when the manifest does not hold them as the comparison names them."""
    variants = manifest.get("variants", [])
    labels = cmp.variants.sort("variant").select("variant", "label").rows()
    groups: dict[str | None, dict[int, dict]] = {}
    for v in variants:
        if "from_run" in v:
            groups.setdefault(v["from_run"], {})[int(v["run_variant"])] = v
        else:
            groups.setdefault(None, {})[int(v["variant"])] = v
    # The run of that name first; a run whose folder named it otherwise (two runs of one
    # experiment) is found by its labels.
    order = [name, None, *sorted(k for k in groups if k not in (name, None))]
    for key in order:
        g = groups.get(key)
        if g and all(g.get(int(v), {}).get("label") == lb for v, lb in labels):
            return g
    return {}


def compared_pairs(cmps: list, manifest: dict):
    """Every variant of every comparison (name, cmp) beside the variant it is compared against,
    with both as the manifest records them: (name, cmp, variant, against, info, base), by
    variant; a pair whose variants the manifest does not hold is skipped. What a game's report
    classes into its own kinds of lever (reports/<game>/levers.py)."""
    for name, cmp in cmps:
        infos = run_variants(name, cmp, manifest)
        if not infos:
            continue
        for v, against in (cmp.differences.select("variant", "against").unique()
                           .sort("variant").rows()):
            info, base = infos.get(int(v)), infos.get(int(against))
            if info is not None and base is not None:
                yield name, cmp, int(v), int(against), info, base


def by_run(pairs: list, kind: str) -> dict[str, list]:
    """The pairs (each with .run and .kind) of one kind, by run, in the order they came."""
    out: dict[str, list] = {}
    for p in pairs:
        if p.kind == kind:
            out.setdefault(p.run, []).append(p)
    return out


class LeverTable:
    """For a game's analysis that holds `levers`, one row per (setting, players) with its
    first `variant` (a game's LEVER_SCHEMA): its groups in the designer's order, and one
    group's row."""

    levers: pl.DataFrame

    def groups(self) -> list[tuple[str, int]]:
        """Every (setting, players), in the order the designer gave the variants."""
        return [(s, p) for s, p in self.levers.sort("variant").select("setting", "players")
                .rows()]

    def lever(self, setting: str, players: int) -> dict | None:
        r = self.levers.filter((pl.col("setting") == setting) & (pl.col("players") == players))
        return r.row(0, named=True) if r.height else None
