"""Every analysis of a Rusship run the report draws, from counts (reports/tables/tally.py): one pass
over the games table adds these count tables to the neutral ones, each with `kid` and `n`:

    start   kid, starter_won                every game (null: stopped undecided)
    catch   kid, first_power, comeback      every game (nulls: no attack, or undecided)
    attack  kid, first_hit_turn             games with an attack (the turn of the first)

and the analyses read them per setting (reports/tables/frame.py: the players and the swept rules):

- `levers`: what each setting played (the board's length, the compensation, the box), from
  the manifest's rules over Rusship's defaults;
- `starter`: the share of decided games the side that played first won, 95% Wilson;
- `comeback`: the share of decided games the side attacked first still won, 95% Wilson;
- `first_power`: per power, the share of those games won by the side that chose it first
  (the side attacked first chooses the first power), 95% Wilson;
- `turns`, `first_attack`: distributions (reports/tables/counts.py) of the length and of the turn of
  the first attack, and their counts for the length fit (reports/rusship/length.py).

No table holds a row per game, so the report of ten million games fits in memory."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from balance.contract.labels import value_words
from balance.games.rusship.engine.state import POWER_NAMES
from balance.games.rusship.game import GAME
from balance.games.rusship.rules import DEFAULTS
from balance.stats.intervals import with_wilson
from reports.outcomes import analysis, outcomes
from reports.tables import counts, tally
from reports.tables.frame import Layout

COMPENSATION = ("second_tokens", "second_bonus")
BOX = tuple(f"box_{p}" for p in POWER_NAMES)

RATE_SCHEMA = {"setting": pl.Utf8, "games": pl.Int64, "wins": pl.Int64}
POWER_SCHEMA = {"setting": pl.Utf8, "power": pl.Utf8, "games": pl.Int64, "wins": pl.Int64}
LEVER_SCHEMA = {"setting": pl.Utf8, "variant": pl.Int64, "run": pl.Utf8, "heuristic": pl.Utf8,
                "length": pl.Int64, "second_tokens": pl.Int64, "second_bonus": pl.Int64,
                "box": pl.Utf8, "in_box": pl.Int64, "changed": pl.Utf8,
                "beside_length": pl.Utf8, "games": pl.Int64, "name": pl.Utf8}


class Counter(tally.Counter):
    EMPTY = {
        **tally.Counter.EMPTY,
        "start": {"starter_won": pl.Boolean},
        "catch": {"first_power": pl.Utf8, "comeback": pl.Boolean},
        "attack": {"first_hit_turn": pl.Int64},
    }

    def piece_counts(self, g: pl.DataFrame) -> dict[str, pl.DataFrame]:
        out = super().piece_counts(g)
        out.update({
            "start": counts.of_rows(g.select("kid", "starter_won"), ["kid"], ["starter_won"]),
            "catch": counts.of_rows(g.select("kid", pl.col("first_power").cast(pl.Utf8),
                                             "comeback"), ["kid"], ["first_power", "comeback"]),
            # first_hit_turn 0: no attack (a game stopped undecided before one)
            "attack": counts.of_rows(g.filter(pl.col("first_hit_turn") > 0).select(
                "kid", pl.col("first_hit_turn").cast(pl.Int64)), ["kid"], ["first_hit_turn"]),
        })
        return out


@dataclass(frozen=True)
class Analysis(analysis.Analysis):
    levers: pl.DataFrame        # LEVER_SCHEMA: one row per setting
    starter: pl.DataFrame       # setting, games (decided), wins, win_rate, ci_low, ci_high
    comeback: pl.DataFrame      # the same, over decided games with an attack
    first_power: pl.DataFrame   # setting, power, games, wins, win_rate, ci_low, ci_high
    turn_counts: pl.DataFrame   # setting, turns, n
    turns: pl.DataFrame         # counts.distribution of turns per setting
    attack_counts: pl.DataFrame  # setting, first_hit_turn, n
    first_attack: pl.DataFrame  # counts.distribution of first_hit_turn per setting

    def settings(self) -> list[str]:
        """Every setting, in the order the designer gave the variants."""
        return self.levers.sort("variant")["setting"].to_list()

    def name(self, setting: str) -> str:
        """A setting's short name (levers_of)."""
        r = self.levers.filter(pl.col("setting") == setting)
        return r["name"][0] if r.height else setting


def analyse(games, manifest: dict, layout: Layout) -> Analysis:
    manifest = manifest or {}
    t = tally.count(games, manifest, layout, Counter)
    kinds = t.keys.select("kid", "setting")

    def per_setting(name: str) -> pl.DataFrame:
        return t.tables[name].join(kinds, on="kid")

    start = per_setting("start").filter(pl.col("starter_won").is_not_null())
    catch = per_setting("catch")
    decided_attacked = catch.filter(pl.col("comeback").is_not_null())
    turn_counts = (per_setting("end").group_by("setting", "turns").agg(pl.col("n").sum())
                   .sort("setting", "turns"))
    attack_counts = (per_setting("attack").group_by("setting", "first_hit_turn")
                     .agg(pl.col("n").sum()).sort("setting", "first_hit_turn"))
    return Analysis(
        kinds=t.keys.select(*t.kinds().columns, "games"), versions=t.versions,
        manifest=manifest, outcomes=outcomes.outcomes(t),
        levers=levers_of(t.keys, manifest),
        starter=rates(start, "starter_won"), comeback=rates(decided_attacked, "comeback"),
        first_power=power_rates(decided_attacked.filter(pl.col("first_power").is_not_null())),
        turn_counts=turn_counts, turns=counts.distribution(turn_counts, "turns", ["setting"]),
        attack_counts=attack_counts,
        first_attack=counts.distribution(attack_counts, "first_hit_turn", ["setting"]))


def rates(c: pl.DataFrame, column: str) -> pl.DataFrame:
    """Per setting: games (rows of `c`, counts with `n`), wins (those where `column` holds)
    and the share with its 95% Wilson interval."""
    out = (c.group_by("setting").agg(pl.col("n").sum().alias("games"),
                                     pl.col("n").filter(pl.col(column)).sum().alias("wins"))
           if c.height else pl.DataFrame(schema=RATE_SCHEMA))
    return with_wilson(out.cast(RATE_SCHEMA).sort("setting"))


def power_rates(c: pl.DataFrame) -> pl.DataFrame:
    """Per setting and first power: the games, and those the side that chose it won."""
    out = (c.group_by("setting", pl.col("first_power").alias("power")).agg(
        pl.col("n").sum().alias("games"), pl.col("n").filter(pl.col("comeback")).sum()
        .alias("wins")) if c.height else pl.DataFrame(schema=POWER_SCHEMA))
    return with_wilson(out.cast(POWER_SCHEMA).sort("setting", "power"))


def rules_of(info: dict) -> dict:
    """A variant's every rule: Rusship's defaults, then the manifest's overrides."""
    return {**DEFAULTS, **(info.get("rules") or {})}


def box_of(rules: dict) -> tuple[str, ...]:
    """The powers in the box, in the rulebook's order."""
    return tuple(p for p in POWER_NAMES if rules[f"box_{p}"])


def box_text(box: tuple[str, ...]) -> str:
    if len(box) == len(POWER_NAMES):
        return "all five"
    return ", ".join(box) if box else "empty"


def changed(rules: dict, leave_out: tuple[str, ...] = ()) -> str:
    """The rules a variant plays off Rusship's defaults, in the rulebook's words ("second
    player's head-start ships 1, ..."), less the keys `leave_out`."""
    return ", ".join(value_words(GAME, k, rules[k]) for k in DEFAULTS
                     if k not in leave_out and rules[k] != DEFAULTS[k])


def short_name(heuristic: str, rules: dict, run: str | None) -> str:
    """A setting as the Rusship sections name it: its players, the rules it changes (the
    box as the powers left out, or the few left in) and its run: "Racer, without reroll
    (power-ablation)". The framework's label names every rule any run swept."""
    box = box_of(rules)
    parts = [value_words(GAME, "heuristic", heuristic)]
    if not box:
        parts.append("empty box")
    elif len(box) <= 2:
        parts.append("only " + " and ".join(box))
    elif len(box) < len(POWER_NAMES):
        parts.append("without " + " and ".join(p for p in POWER_NAMES if p not in box))
    parts += [value_words(GAME, k, rules[k]) for k in DEFAULTS
              if k not in BOX and rules[k] != DEFAULTS[k]]
    return ", ".join(parts) + (f" ({run})" if run else "")


def levers_of(keys: pl.DataFrame, manifest: dict) -> pl.DataFrame:
    """LEVER_SCHEMA: each setting's first variant, what it played, and its short name (the
    framework's label where two settings would share one)."""
    info = {int(v["variant"]): v for v in manifest.get("variants", []) if "variant" in v}
    if keys.height == 0:
        return pl.DataFrame(schema=LEVER_SCHEMA)
    per = (keys.group_by("setting").agg(pl.col("variant").min(), pl.col("games").sum(),
                                        pl.col("heuristic").first().cast(pl.Utf8)))
    rows = []
    for setting, variant, games, heuristic in per.select(
            "setting", "variant", "games", "heuristic").rows():
        v = info.get(int(variant), {})
        r = rules_of(v)
        box = box_of(r)
        run = v.get("run") or v.get("from_run")
        rows.append((setting, int(variant), run, heuristic,
                     int(r["length"]), int(r["second_tokens"]), int(r["second_bonus"]),
                     box_text(box), len(box), changed(r), changed(r, ("length",)), int(games),
                     short_name(heuristic, r, v.get("run"))))
    out = pl.DataFrame(rows, schema=LEVER_SCHEMA, orient="row").sort("variant")
    twice = pl.col("name").is_duplicated()
    return out.with_columns(pl.when(twice).then(pl.col("setting")).otherwise(pl.col("name"))
                            .alias("name"))
