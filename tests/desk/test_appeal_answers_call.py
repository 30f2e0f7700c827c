"""QA86 #4: the head judge's decision on a player's appeal answers the judge call filed with it
(`judge.appeal`'s `call`, as a ruling's `call`): the queue, "unanswered calls from closed rounds"
and `tournament close` no longer count it open."""
from __future__ import annotations

import json

from engine.match import Match
from engine.store import EventStore
from judge.desk.calls import CALL_KINDS, standing_calls
from tests.conftest import run_cli

BACKENDS = ("sqlite",)  # calls read the same on every backend (tests/conftest.py)


def appealed_match(db: str) -> tuple[str, int, int]:
    """A match where Bob appealed Kim's ruling #2 as the web files one: `appeal.filed`, then Bob's
    call about the ruling. The match, the ruling's and the call's positions."""
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", db=db).stdout.split()[-1]
    run_cli("judge", "ruling", mid, "-j", "Kim", "--text", "the attack is legal", db=db)
    with EventStore.open(db) as store:
        m = Match(store, mid)
        m.record("appeal.filed", {"appealed": 2, "player": "Bob", "reason": "it was rested"}, actor="Bob")
        call = m.record("judge.call", {"caller": "Bob", "reason": "appeal of event 2 to the head judge", "at": 2},
                        actor="Bob").event.position
    return mid, 2, call


def open_calls(db: str, mid: str) -> list[int]:
    with EventStore.open(db) as store:
        return [c.position for c, answer in standing_calls(store.read_kinds(mid, CALL_KINDS)) if answer is None]


def test_deciding_a_players_appeal_answers_the_call_filed_with_it(tmp_path):
    db = str(tmp_path / "log.db")
    mid, ruling, call = appealed_match(db)
    # an unrelated call by Ann stays open: only the filer's call about the ruling is the appeal's
    run_cli("judge", "call", mid, "--caller", "Ann", "--reason", "slow play", db=db)
    assert open_calls(db, mid) == [call, call + 1]
    done = run_cli("judge", "appeal", mid, str(ruling), "-j", "HJ", "--decision", "upheld", "--text", "legal", db=db)
    assert done.returncode == 0, done.stderr
    assert f"it answers judge call #{call}, filed with the appeal" in done.stdout
    assert open_calls(db, mid) == [call + 1]
    with EventStore.open(db) as store:
        assert store.read(mid)[-1].payload["call"] == call


def test_an_appeal_noted_without_a_filing_answers_no_call(tmp_path):
    db = str(tmp_path / "log.db")
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", db=db).stdout.split()[-1]
    run_cli("judge", "ruling", mid, "-j", "Kim", "--text", "legal", db=db)
    run_cli("judge", "call", mid, "--caller", "Bob", "--reason", "I appeal", "--at", "2", db=db)
    done = run_cli("judge", "appeal", mid, "2", "-j", "HJ", "--decision", "upheld", "--text", "legal", "--by", "Bob",
                   "--json", db=db)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["event"]["payload"]) == {"appealed", "decision", "text", "by"}
    assert open_calls(db, mid) == [3]


def test_an_appellant_other_than_the_filer_is_said_and_the_filing_is_not_decided(tmp_path):
    """QA86 #10: `--by Ann` on Bob's filed appeal was recorded without a word; `judge appeal M F`
    (F the filing itself) answered with the list of kinds."""
    db = str(tmp_path / "log.db")
    mid, ruling, call = appealed_match(db)
    filing = call - 1
    wrong = run_cli("judge", "appeal", mid, str(filing), "-j", "HJ", "--decision", "upheld", "--text", "x", db=db)
    assert wrong.returncode == 2, wrong.stdout
    assert f"event {filing} is Bob's appeal of event {ruling}: decide {ruling}" in wrong.stderr, wrong.stderr
    done = run_cli("judge", "appeal", mid, str(ruling), "-j", "HJ", "--decision", "upheld", "--text", "legal",
                   "--by", "Ann", db=db)
    assert done.returncode == 0, done.stderr
    assert (f"notice: Bob filed this appeal (event {filing}); the decision names Ann as the appellant, as given"
            in done.stderr)


def test_the_appeal_notice_reaches_json(tmp_path):
    """Review: `judge appeal --json` dropped the notice that another player filed the appeal (only a
    penalty's notices reached --json)."""
    db = str(tmp_path / "log.db")
    mid, ruling, call = appealed_match(db)
    done = run_cli("judge", "appeal", mid, str(ruling), "-j", "HJ", "--decision", "upheld", "--text", "legal",
                   "--by", "Ann", "--json", db=db)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["notices"] == [f"Bob filed this appeal (event {call - 1}); the decision names "
                                                  "Ann as the appellant, as given"]


def test_a_player_with_an_unrelated_open_call_gets_a_call_with_the_appeal_and_its_decision_answers_it(tmp_path):
    """Review: filing an appeal made no call where the player had ANY call open (one about slow play),
    while deciding it answered only a call about the action appealed: the appeal waited on no call,
    and the unrelated call was not answered either. One rule (judge.desk.calls.open_call_about)."""
    db = str(tmp_path / "log.db")
    mid = run_cli("match", "new", "--ruleset", "optcg", "--player", "Ann", "--player", "Bob", db=db).stdout.split()[-1]
    run_cli("judge", "ruling", mid, "-j", "Kim", "--text", "the attack is legal", db=db)
    run_cli("judge", "call", mid, "--caller", "Bob", "--reason", "slow play", db=db)  # event 3
    filed = run_cli("judge", "appeal-filed", mid, "2", "-j", "Maria", "--player", "Bob", "--reason", "it was rested",
                    db=db)
    assert filed.returncode == 0, filed.stderr
    assert open_calls(db, mid) == [3, 5]  # the appeal's own call, about event 2
    done = run_cli("judge", "appeal", mid, "2", "-j", "HJ", "--decision", "upheld", "--text", "legal", db=db)
    assert done.returncode == 0 and "it answers judge call #5, filed with the appeal" in done.stdout, done.stderr
    assert open_calls(db, mid) == [3]  # slow play is still to be answered


def test_the_appeals_file_reads_the_call_about_the_appealed_action_as_the_appeals_not_only_right_after_it(tmp_path):
    """The appeals file took as the appeal's call only one recorded right after the filing: an event
    between them (another table's phone, a note) made the same call a new incident of its own."""
    from judge.report.appeals import incidents
    db = str(tmp_path / "log.db")
    mid, ruling, _ = appealed_match(db)  # Kim's ruling 2, Bob's filing 3, his call about 2 at 4
    with EventStore.open(db) as store:
        m = Match(store, mid)
        second = m.record("judge.ruling", {"text": "draw two"}, actor="judge:Kim").event.position
        m.record("appeal.filed", {"appealed": second, "player": "Ann", "reason": "one"}, actor="Ann")
        m.record("note", {"text": "the head judge is on the way"}, actor="judge:Kim")
        call = m.record("judge.call", {"caller": "Ann", "reason": f"appeal of event {second}", "at": second},
                        actor="Ann").event.position
        roots = [i.root.position for i in incidents(m.events()) if i.root is not None]
    assert call not in roots, roots
