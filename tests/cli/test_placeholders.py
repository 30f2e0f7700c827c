"""QA84 #4: the commands the tool prints hold placeholders (`--actor judge:NAME`, `--judge NAME`,
`--reason "..."`) for the judge to fill in. Copied as printed, they were stored as typed (a decision
by judge:NAME, a correction whose reason is "..."): refused now, nothing stored, the real name or
reason asked for. And the decide-again hint of a result whose decision was voided prints
`--judge NAME` like the others (without it, the decision was recorded as the OS user)."""
from __future__ import annotations

import json
import shlex

from tests.conftest import run_in_process
from tests.desk.test_appealed_facts_decision import _commands, _taken_and_overturned


def _refused(db, m, args: str, said: str) -> None:
    before = len(m.events())
    code, out, err = run_in_process(db, *shlex.split(args))
    assert code == 2 and said in err and "Nothing was stored" in err and len(m.events()) == before, out + err


def test_the_printed_commands_copied_with_their_placeholders_are_refused(tmp_path):
    db, m, t, slip, decision = _taken_and_overturned(tmp_path)
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    void = _commands(out, "Void it and decide again")[0]
    assert "--actor judge:NAME" in void, out
    _refused(db, m, void, "judge:NAME is the placeholder of a printed command")
    _refused(db, m, f'log {m.id} correction --actor judge:Kim --voids {decision} --reason "..."',
             '"..." is the placeholder of a printed command: put the real reason')
    _refused(db, m, f"log {m.id} correction --actor=judge:NAME --voids {decision} --reason x", "judge:NAME")
    assert run_in_process(db, *shlex.split(void.replace("NAME", "Kim")))[0] == 0

    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "no outcome now" in out, out
    decide, _again, by_hand = _commands(out, "no outcome now")[:3]
    assert decide == f"timelimit {m.id} --facts \"turn=? life=?-?\" --judge NAME", out  # was without --judge
    decide = decide.replace("turn=?", "turn=3").replace("life=?-?", "life=3-2")
    _refused(db, m, decide, "--judge NAME: NAME is the placeholder")
    _refused(db, m, decide.replace("--judge", "-j"), "-j NAME")
    code, out, err = run_in_process(db, *shlex.split(decide.replace("NAME", "Kim")))
    assert code == 0 and m.events()[-1].actor == "judge:Kim", out + err

    by_hand = by_hand.replace("W-L-D", slip("Ann"))
    assert by_hand.endswith('--reason "..."'), by_hand
    code, out, err = run_in_process(db, *shlex.split(by_hand), "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "reason", out + err
    assert all(e.payload.get("reason") != "..." for e in t.events()), "nothing stored"

    # only where a name or a reason is asked for: a note's text may say NAME or ...
    for text in ("NAME", "..."):
        assert run_in_process(db, "log", m.id, "note", "--text", text)[0] == 0
