"""Every example in examples/ imports through the CLI, verifies, and validates to exactly the findings
it was written to show (the examples are the documentation's worked examples)."""
from __future__ import annotations

import glob
import json
import os

import pytest

from tests.conftest import ROOT, run_cli

# (rule, severity, position, backed out) per example: what a judge is meant to see.
EXPECTED = {
    "grandline/sample-profile.jsonl": [],
    "ken/fig10-dispute.jsonl": [["KEN-DANNI-3", "error", 35, True]],
    "ken/quick-game.jsonl": [["KEN-RAPIDO-1", "info", 91, False]],
    "onigashima/full-game-2p.jsonl": [],
    "onigashima/luffy-vs-kaido.jsonl": [],
    "op2009/best-of-three-fine-tempo.jsonl": [],
    # a tabletop match written to break eight rules, one each (see examples/optcg/README.md)
    "optcg/match.jsonl": [["OPTCG-FLOW-2", "error", 14, False], ["OPTCG-TERM-12", "error", 28, False],
                          ["OPTCG-BATTLE-2", "error", 31, False], ["OPTCG-BATTLE-4", "error", 33, False],
                          ["OPTCG-BATTLE-5", "error", 34, False], ["OPTCG-BATTLE-10", "error", 36, False],
                          ["OPTCG-COST-1", "error", 54, False], ["OPTCG-PLAY-2", "error", 56, False]],
}

EXAMPLES = sorted(os.path.relpath(p, os.path.join(ROOT, "examples"))
                  for p in glob.glob(os.path.join(ROOT, "examples", "*", "*.jsonl")))


def test_every_example_has_its_expectation():
    assert sorted(EXPECTED) == EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_imports_verifies_and_validates(tmp_path, name):
    db = str(tmp_path / "ex.db")
    r = run_cli("import", os.path.join(ROOT, "examples", name), "--json", db=db)
    assert r.returncode == 0, r.stderr
    match = json.loads(r.stdout)["match"]
    assert run_cli("verify", match, db=db).returncode == 0
    r = run_cli("validate", match, "--json", db=db)
    got = [[f["rule"], f["severity"], f["position"], f["backed_out"]] for f in json.loads(r.stdout)["findings"]]
    assert got == EXPECTED[name]
    assert r.returncode == (1 if any(f[1] == "error" and not f[3] for f in got) else 0)
    state = json.loads(run_cli("state", match, "--json", db=db).stdout)
    assert state["position"] == json.loads(run_cli("matches", "--json", db=db).stdout)[0]["events"]
