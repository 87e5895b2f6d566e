"""Where a report of several runs merged (`balance report --merge`) counts games of different
runs together, and the check that those games were played alike.

Merged, the runs' games are grouped by setting and player count as one run's would be
(reports/tables/frame.py), so two runs that played the same setting at the same player count add up.
That is what the designer asked for, but only where the games differ by their seeds alone: a
rule fixed in one file's [rules] (not swept, so not part of the setting's name), a player's
knob, a patched box or another version of the code would be counted as the same game. Those are
refused, naming both runs and the first difference. Runs played alike with the same seed
played the same games wherever their game numbers meet (balance/running/seeds.py): those are
refused too, naming both runs, the seed and the first game they share.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import polars as pl

from balance.errors import InputError, Problem
from reports.render import text

# What decides how a variant's games are played, beside the setting's name, the kind of game
# and the player count (which the grouping compares already) and the seeds; a game's report
# adds its own keys (reports/page/game_report.py, GameReport.played_alike), compared first.
PLAYED_ALIKE = ("heuristic", "seats", "knobs", "rules")
# The same, of the run: the code that played it.
CODE = ("source_hash", "engine_version")


@dataclass(frozen=True)
class Merged:
    setting: str
    kind: str  # the kind of game (a value of the game's kind column), or ""
    players: int
    parts: tuple[tuple[str, int], ...]  # (run, games), in the order the runs were given

    def sentence(self) -> str:
        counted = text.join_words([f"{text.count(n)} games of {run}" for run, n in self.parts])
        kind = f", {self.kind.capitalize()}" if self.kind else ""
        return (f"{self.setting}{kind} with {text.plural(self.players, 'player')}: {counted} "
                "are counted together (--merge).")


def merged_groups(kinds: pl.DataFrame, manifest: dict, codes: dict[str, dict] | None = None,
                  kind_column: str = "", played_alike: tuple[str, ...] = ()) -> list[Merged]:
    """The (setting, kind, players) whose games come from more than one run, in a report of
    merged runs; InputError if two of those runs did not play them alike. `kinds` is the
    analysis's kinds; `codes` maps each run's name to its manifest's CODE fields;
    `kind_column` names the kind of game (none: one kind); `played_alike` the game's own
    manifest keys that must agree."""
    variants = {int(v["variant"]): v for v in manifest.get("variants", [])
                if "variant" in v and v.get("from_run") is not None}
    if not variants or kinds.height == 0 or not manifest.get("merged"):
        return []
    kind = pl.col(kind_column).cast(pl.Utf8) if kind_column else pl.lit("")
    rows = kinds.select(pl.col("variant").cast(pl.Int64), "setting", kind.alias("_kind"),
                        pl.col("players").cast(pl.Int64), "games")
    order = list(dict.fromkeys(v["from_run"] for v in variants.values()))
    out = []
    for (setting, what, players), g in sorted(rows.group_by("setting", "_kind", "players"),
                                              key=lambda kv: kv[0]):
        mine = [variants[v] for v in g["variant"].to_list() if v in variants]
        runs = {v["from_run"] for v in mine}
        if len(runs) < 2:
            continue
        with_ = f"with {text.plural(players, 'player')}"
        where = f"{setting}, {what} {with_}" if what else f"{setting} {with_}"
        _check_alike(mine, codes or {}, where, (*played_alike, *PLAYED_ALIKE))
        _check_seeds(mine, where)
        per_run = dict(g.with_columns(pl.col("variant").replace_strict(
            {k: v["from_run"] for k, v in variants.items()}, default=None,
            return_dtype=pl.Utf8).alias("run")).group_by("run").agg(pl.col("games").sum())
            .rows())
        out.append(Merged(str(setting), str(what), int(players),
                          tuple((r, int(per_run[r])) for r in order if r in per_run)))
    return out


def _check_alike(variants: list[dict], codes: dict[str, dict], where: str,
                 keys: tuple[str, ...] = PLAYED_ALIKE) -> None:
    first = variants[0]
    for v in variants[1:]:
        if v["from_run"] == first["from_run"]:
            continue
        for key in keys:
            a, b = first.get(key), v.get(key)
            if _canon(a) != _canon(b):
                _refuse(first, v, where, f"{key} {_show(a)} against {_show(b)}")
        for key in CODE:
            a = (codes.get(first["from_run"]) or {}).get(key)
            b = (codes.get(v["from_run"]) or {}).get(key)
            if a != b:
                _refuse(first, v, where, f"the code that played them ({key} {a} against {b})")


def _check_seeds(variants: list[dict], where: str) -> None:
    """InputError if two of the variants, of different runs and played alike, played a game in
    common: game i of any variant is dealt from its run's seed and i alone
    (balance/running/seeds.py), so the same seed and index is the same game, and merged it
    would count twice. Refused rather than counted once: the page would then read fewer
    games of one run than the designer named, and runs of one seed add nothing to each
    other."""
    for j, b in enumerate(variants):
        for a in variants[:j]:
            seed = a.get("run_seed")
            if a["from_run"] == b["from_run"] or seed is None or b.get("run_seed") != seed:
                continue
            shared = _shared(a.get("run_games"), b.get("run_games"))
            if shared is not None:
                raise InputError([Problem(
                    str(b["from_run"]), "--merge", "",
                    f"its variant {b['run_variant']} and variant {a['run_variant']} of "
                    f"{a['from_run']} are both {where}, played alike with the same seed "
                    f"({seed}): both played {shared}, the same games; merged, each would "
                    "count twice and every interval would be too narrow: report the runs "
                    "without --merge, or play one of them again with another seed")])


def _shared(first: list | None, second: list | None) -> str | None:
    """The first game index two variants' spans ([start, stop], reports/tables/combine.py) both
    hold ("game 0"), or None; spans not known (a table without game numbers) are taken to
    share their first games."""
    if first == [] or second == []:
        return None  # a variant of an interrupted run may hold no game yet
    if first is None or second is None:
        return "their games (their tables do not number them)"
    found = [max(a, c) for a, b in first for c, d in second if a < d and c < b]
    return f"game {min(found)}" if found else None


def _canon(x) -> str:
    return json.dumps(x or None, sort_keys=True, default=str)


def _show(x) -> str:
    return "none" if not x else json.dumps(x, sort_keys=True, default=str)


def _refuse(a: dict, b: dict, where: str, what: str) -> None:
    raise InputError([Problem(
        str(b["from_run"]), "--merge", "",
        f"its variant {b['run_variant']} and variant {a['run_variant']} of {a['from_run']} "
        f"are both {where}, but were not played alike: {what}; merged, they would be counted "
        "as the same game: report the runs without --merge")])
