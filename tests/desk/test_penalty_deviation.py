"""DESK-11 on every path: a penalty recorded without the desk's suggestion (`log`, an import; `live`
and the recorder in tests/live and tests/web) that names a guide entry, by `guide` or by an
`infraction` that is a guide id, and gives less than the guide allows is flagged as it is recorded
and by `findings` over the whole log, once; `judge penalty`'s stored verdict stands as it was."""
from __future__ import annotations

import json

from engine.match import Match
from judge.desk.penalties import earlier_penalties, give_penalty
from judge.desk.review import review
from tests.conftest import run_cli

BACKENDS = ("sqlite",)  # nothing here depends on the backend
MARKED = "OPTCG-PG-MARKED-CARDS"  # Warning to Game Loss; a pattern: Game Loss
EXTRA = "GEN-PG-LOOKING-AT-EXTRA-CARDS"  # generic guide: Warning, a Game Loss from the 3rd (mandatory)


def _penalty(penalty: str, **kw) -> dict:
    return {"player": "Bob", "penalty": penalty, "infraction": "Event Error", **kw}


def test_log_flags_a_penalty_below_the_guide_as_recorded_and_in_findings(tmp_path):
    db = str(tmp_path / "x.db")
    run_cli("match", "new", "-r", "optcg", "-p", "Ann", "-p", "Bob", "--id", "D1", db=db)
    by_id = run_cli("log", "D1", "judge.penalty", "--actor", "judge:Kim", "--player", "Bob", "--penalty", "Caution",
                    "--infraction", MARKED, "--reason", "x", db=db)
    assert by_id.returncode == 0, by_id.stderr
    assert "DESK-11 [warning] Caution to Bob: below the guide: the 1st Marked Cards" in by_id.stdout
    assert "gets Warning at least" in by_id.stdout
    by_guide = run_cli("log", "D1", "judge.penalty", "--actor", "judge:Kim", "--player", "Bob", "--penalty",
                       "Caution", "--infraction", "x", "--guide", MARKED, db=db)
    assert "DESK-11" in by_guide.stdout and "the 2nd Marked Cards" in by_guide.stdout
    within = run_cli("log", "D1", "judge.penalty", "--actor", "judge:Kim", "--player", "Bob", "--penalty",
                     "Warning", "--infraction", MARKED, db=db)
    assert within.returncode == 0 and "DESK-11" not in within.stdout
    found = run_cli("findings", "D1", "--json", db=db)
    rows = json.loads(found.stdout)
    assert [(f["rule"], f["position"]) for f in rows] == [("DESK-11", 2), ("DESK-11", 3)]


def test_an_imported_log_is_read_against_the_guide_once(store, tmp_path):
    lines = [{"kind": "match.created", "payload": {"ruleset": "optcg", "players": ["Ann", "Bob"]}},
             {"kind": "judge.penalty", "payload": _penalty("Caution", guide="OPTCG-PG-TARDINESS"),
              "actor": "judge:Kim"},
             {"kind": "judge.penalty", "payload": _penalty("Caution", infraction="Slow play"), "actor": "judge:Kim"},
             {"kind": "judge.penalty", "payload": _penalty("Warning", infraction="OPTCG-PG-TARDINESS", minutes_late=6),
              "actor": "judge:Kim"}]
    path = tmp_path / "penalties.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    imported = run_cli("import", str(path), "--json", db=str(tmp_path / "i.db"))
    assert imported.returncode == 0, imported.stderr
    mid = json.loads(imported.stdout)["match"]
    found = json.loads(run_cli("findings", mid, "--json", db=str(tmp_path / "i.db")).stdout)
    # free text is not a guide id; 6 minutes late is a Game Loss in the guide (and on the policy's ladder, DESK-5)
    assert [(f["rule"], f["position"]) for f in found] == [("DESK-11", 2), ("DESK-11", 4), ("DESK-5", 4)]
    assert "the 2nd Tardiness (OPTCG-PG-TARDINESS) of Bob gets Game Loss at least" in found[1]["message"]


def test_a_voided_penalty_is_no_repeat_on_record_nor_in_findings(store):
    m = Match.create(store, "table", ["Ann", "Bob"])
    first = m.record("judge.penalty", _penalty("Warning", guide=EXTRA), actor="judge:Kim")
    m.record("judge.penalty", _penalty("Warning", guide=EXTRA), actor="judge:Kim")
    m.record("correction", {"voids": first.event.position, "reason": "wrong player"}, actor="judge:Kim")
    again = m.record("judge.penalty", _penalty("Warning", guide=EXTRA), actor="judge:Kim")
    assert again.findings == []  # the voided one does not count: this is the 2nd offence
    third = m.record("judge.penalty", _penalty("Warning", guide=EXTRA), actor="judge:Kim")
    assert [f.rule for f in third.findings] == ["DESK-11"]
    assert [(f.rule, f.position) for f in review(m).findings] == [("DESK-11", third.event.position)]


def test_judge_penalty_counts_logged_repeats_and_its_verdict_is_said_once(store):
    m = Match.create(store, "table", ["Ann", "Bob"], event="ev")
    for _ in range(2):  # logged, naming the guide entry by its id
        assert m.record("judge.penalty", _penalty("Warning", infraction=EXTRA), actor="judge:Kim").findings == []
    assert [p.guide for p in earlier_penalties(store, m, "Bob")] == [EXTRA, EXTRA]
    rec, s = give_penalty(m, player="Bob", infraction=EXTRA, penalty="Warning", actor="judge:Kim")
    assert s.offence == 3 and rec.event.payload["deviation"].startswith("below the guide")  # a Game Loss from the 3rd
    assert [f.rule for f in rec.findings] == ["DESK-11"]
    assert [(f.rule, f.position) for f in review(m).findings] == [("DESK-11", 4)]  # once, not twice


def test_only_below_the_guide_is_read_from_the_log(store):
    """The IPG-style guide lets only the Head Judge deviate either way, but a penalty above what
    this match's log shows may be a repeat from another match of the event: only below is flagged."""
    m = Match.create(store, "table", ["Ann", "Bob"])
    extra = dict(policy="mtg-ipg", infraction="Game Play Error", guide=EXTRA)
    assert m.record("judge.penalty", _penalty("Game Loss", **extra), actor="judge:Kim").findings == []
    assert m.record("judge.penalty", _penalty("Warning", **extra), actor="judge:Kim").findings == []
    third = m.record("judge.penalty", _penalty("Warning", **extra), actor="judge:Kim")  # a Game Loss from the 3rd
    assert [f.message for f in third.findings] == [
        "Warning to Bob: below the guide: the 3rd Looking at Extra Cards (GEN-PG-LOOKING-AT-EXTRA-CARDS) of Bob "
        "gets Game Loss at least; only the Head Judge deviates from the guide"]
