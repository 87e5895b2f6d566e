"""The manifest a shipped experiment makes is the one the code before games were plug-ins made
(commit 5bc63e6): every variant's description (Variant.describe), the inputs, the parsed
file's hash and the grid keys. Old run folders resume only if these agree, and `balance
compare` of a run made before and after reads the same variants.

golden/manifest_variants.json was written by that commit's code (each content file's text a
patched variant records is kept as its sha256, to keep the file small). A shipped file that
changed since (players.toml, which added the learned player) is read as it was then, from
golden/experiments/: the test is of the code that reads it. A file shipped since
(crisis-learned.toml, the course-* and ladder-* files) has the entry
the code that added it wrote, so later code must read it alike."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from balance.running.experiment import load_experiment

GOLDEN = Path(__file__).parent / "golden" / "manifest_variants.json"
SHIPPED = Path(__file__).resolve().parents[3] / "experiments" / "gemrush"
AS_THEN = Path(__file__).parent / "golden" / "experiments"
WANT = json.loads(GOLDEN.read_text(encoding="utf-8"))


def _described(exp) -> dict:
    variants = []
    for v in exp.variants:
        d = json.loads(json.dumps(v.describe()))  # as the manifest's JSON holds it
        if "content_toml" in d:
            d["content_toml"] = hashlib.sha256(d["content_toml"].encode("utf-8")).hexdigest()
        variants.append(d)
    return {"variants": variants, "inputs": exp.inputs, "experiment_hash": exp.identity,
            "swept": list(exp.grid)}


def test_every_shipped_experiment_has_a_golden_manifest():
    assert sorted(WANT) == sorted(p.stem for p in SHIPPED.glob("*.toml"))


@pytest.mark.parametrize("name", sorted(WANT))
def test_the_manifest_is_the_one_the_code_before_plug_ins_wrote(name):
    then = AS_THEN / f"{name}.toml"
    got = _described(load_experiment(then if then.exists() else SHIPPED / f"{name}.toml"))
    want = WANT[name]
    assert got["swept"] == want["swept"] and got["inputs"] == want["inputs"]
    assert got["experiment_hash"] == want["experiment_hash"]
    assert len(got["variants"]) == len(want["variants"])
    for g, w in zip(got["variants"], want["variants"], strict=True):
        assert g == w, g["label"]
