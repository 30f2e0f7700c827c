"""A time decision the head judge overturned on appeal (QA81 H1). The appeal records the head
judge's decision and changes no result by itself (corrections are events), so the decision still
counts; everything that presents it says it was overturned, and what to record instead:
`timelimit`'s dry run, `state`'s result line, and `tournament warnings` for a result taken from it
(engine.desk.appealed_away, the one reading)."""
from __future__ import annotations

import json
import shlex

import pytest

from engine.store import EventStore
from judge.tournament.aggregate import Tournament
from tests.conftest import run_in_process
from tests.desk.test_stale_decision import decided


def _overturned(tmp_path, rounds=None):
    """Ann's win at time (the match's last event) overturned on appeal. With `rounds`, a cup's round 1
    result taken from the match first (_cup_from; after the appeal, taking it is refused: QA88 1),
    returned last."""
    db = tmp_path / "t.db"
    m = decided(tmp_path)
    decision = m.events()[-1].position
    t = _cup_from(m, rounds) if rounds else None
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "overturned", "--text", "Bob wins actually")
    assert code == 0, out + err
    return (db, m, decision, decision + 1) + ((t,) if rounds else ())


def _cup_from(m, rounds):
    """A cup of Ann and Bob whose round 1 result is taken from match `m` (`--match`)."""
    t = Tournament.create(m.store, name="Cup", game="optcg", seed="7", rounds=rounds)
    for p in ("Ann", "Bob"):
        t.register(p)
    t.pair()
    t.record_matches([m.id])
    return t


def test_timelimit_and_state_say_the_standing_decision_was_overturned_and_what_to_record(tmp_path):
    db, m, decision, appeal = _overturned(tmp_path)
    said = f"overturned on appeal (event {appeal}, head judge Head: Bob wins actually)"
    void = (f"void it (tablejudge log {m.id} correction --actor judge:NAME --voids {decision} --reason "
            f"\"overturned on appeal, event {appeal}\")")
    code, out, _ = run_in_process(db, "timelimit", m.id, "--dry-run")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith(f"decided: Ann wins (event {decision}") and said in lines[2] and void in lines[2], out
    code, out, _ = run_in_process(db, "timelimit", m.id, "--dry-run", "--json")
    assert said in json.loads(out)["standing"]["appealed"]
    code, out, _ = run_in_process(db, "state", m.id)
    result = out.splitlines().index(next(x for x in out.splitlines() if x.startswith("result:")))
    assert said in out.splitlines()[result + 1] and void in out, out
    code, out, _ = run_in_process(db, "state", m.id, "--json")
    assert said in json.loads(out)["appealed"]
    code, out, _ = run_in_process(db, "state", m.id, "--at", str(decision), "--as-recorded")
    assert "on appeal" not in out  # not yet appealed then

    # the command said works as given: the decision is void, and nothing is said of it any more
    code, out, err = run_in_process(db, "log", m.id, "correction", "--actor", "judge:Head", "--voids", str(decision),
                                    "--reason", f"overturned on appeal, event {appeal}")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "timelimit", m.id, "--dry-run")
    assert "on appeal" not in out and "decided:" not in out, out


def test_an_upheld_appeal_is_not_said_as_overturned(tmp_path):
    db = tmp_path / "t.db"
    m = decided(tmp_path)
    decision = m.events()[-1].position
    assert run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head", "--decision", "upheld",
                          "--text", "right")[0] == 0
    assert "on appeal" not in run_in_process(db, "timelimit", m.id, "--dry-run")[1]
    assert "on appeal" not in run_in_process(db, "state", m.id)[1]


def test_tournament_warnings_name_a_result_standing_on_an_overturned_decision(tmp_path):
    db, m, decision, appeal, t = _overturned(tmp_path, rounds=1)
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1, out
    assert (f"round 1 table 1's result came from match {m.id}, whose time decision (event {decision}) was "
            f"overturned on appeal (event {appeal}, head judge Head: Bob wins actually)") in out, out
    # QA84 2: the round does not close and seal over it (it closed, the standings counting Ann's win)
    code, _, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 2 and "cannot close" in err and "overturned on appeal" in err, err
    assert t.state().rounds[0].closed_at is None
    # the head judge's result, entered as the warning says (W-L-D filled in): the warning is settled
    enter = out[out.index("`tablejudge tournament result", out.index("head judge's result")):].split("`")[1]
    assert "W-L-D" in enter
    bob_first = t.state().rounds[0].tables()[0].player1 == "Bob"  # a slip is in table order
    args = enter.replace("W-L-D", "1-0-0" if bob_first else "0-1-0").split(" ", 1)[1]
    code, out, err = run_in_process(db, *shlex.split(args))
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out
    code, out, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 0, out + err


def test_pairing_the_next_round_does_not_seal_over_a_result_on_an_overturned_decision(tmp_path):
    """QA85 1: `tournament close` refused, then `tournament pair` sealed round 1 over the overturned
    decision and paired round 2 on it (the web's Pair button too: the same Tournament.pair)."""
    db, m, decision, appeal, t = _overturned(tmp_path, rounds=2)
    code, _, err = run_in_process(db, "tournament", "pair", t.id)
    assert code == 2 and "Round 1 cannot be sealed, so the next round is not paired" in err, err
    assert "overturned on appeal" in err
    st = t.state()
    assert len(st.rounds) == 1 and 1 not in st.seals
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    enter = out[out.index("`tablejudge tournament result", out.index("head judge's result")):].split("`")[1]
    bob_first = st.rounds[0].tables()[0].player1 == "Bob"
    code, out, err = run_in_process(db, *shlex.split(enter.replace("W-L-D", "1-0-0" if bob_first else "0-1-0")
                                                     .split(" ", 1)[1]))
    assert code == 0, out + err
    code, out, err = run_in_process(db, "tournament", "pair", t.id)
    assert code == 0, out + err
    assert 1 in t.state().seals and len(t.state().rounds) == 2


def test_a_standing_continue_is_worded_as_play_going_on_not_a_result():
    # QA81 M4: "decided: continue (event 61, policy bandai)", and the page said it decides the match
    from types import SimpleNamespace
    from judge.desk.timelimit import decided_words
    e = SimpleNamespace(position=61, actor="judge:Kim",
                        payload={"result": "continue", "branch": "extra-turns", "policy": "bandai"})
    assert decided_words(e, {}) == "play continues (extra turns); no result yet (event 61, policy bandai)"


def test_an_appeal_of_a_decision_no_longer_current_is_recorded_and_said(tmp_path):
    # QA81 M1: an appeal of a stale, then superseded, decision was recorded without a word; it is
    # still recorded (an appeal of an old decision happened), with the web Appeal list's mark
    from judge.desk.timelimit import run
    from tests.desk.test_stale_decision import JUDGE, REPLACING
    db = tmp_path / "t.db"
    m = decided(tmp_path)
    stale = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(stale), "--judge", "Head",
                                    "--decision", "upheld", "--text", "late appeal")
    assert code == 0, out + err
    assert (f"note: event {stale} is a time decision no longer current (out of date): it does not decide "
            "the match") in out, out
    again = run(m, judge="Zoe").recorded.position
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(stale), "--judge", "Head", "--decision",
                                    "overturned", "--text", "test", "--override", "asked again", "--json")
    assert code == 0, out + err
    said = json.loads(out)
    assert said["event"]["kind"] == "judge.appeal" and said["appealed_mark"] == f"out of date, superseded by #{again}"
    # the standing decision: recorded with no mark
    code, out, _ = run_in_process(db, "judge", "appeal", m.id, str(again), "--judge", "Head", "--decision", "upheld",
                                  "--text", "right")
    assert code == 0 and "note:" not in out, out
    code, out, _ = run_in_process(db, "judge", "appeal", m.id, str(again), "--judge", "Head", "--decision", "upheld",
                                  "--text", "right", "--override", "again", "--json")
    assert json.loads(out)["appealed_mark"] is None


def _linked_cup(m):
    """A one-round best-of-one cup whose table 1 (Ann vs Bob) is match `m`, linked."""
    from judge.tournament.tablematch import TablePlan, link_table_match
    t = Tournament.create(m.store, name="Cup", game="optcg", seed="7", rounds=1)
    for p in ("Ann", "Bob"):
        t.register(p)
    t.pair()
    link_table_match(t, TablePlan(1, 1), m.id, "optcg")
    first = t.state().rounds[0].tables()[0].player1
    return t, (lambda winner: "1-0-0" if winner == first else "0-1-0")


def test_tournament_warnings_name_an_entered_result_resting_on_an_overturned_decision(tmp_path):
    """Review: only a result taken with `tournament result --match` was checked; the players' agreed
    slip or the scorekeeper's entry for a table whose match's decision was overturned said nothing."""
    from tests.desk.test_stale_decision import decided
    db = tmp_path / "t.db"
    m = decided(tmp_path)
    decision = m.events()[-1].position
    t, slip = _linked_cup(m)
    code, out, err = run_in_process(db, "tournament", "result", t.id, slip("Ann"), "--table", "1")  # as decided
    assert code == 0, out + err
    assert run_in_process(db, "tournament", "warnings", t.id)[0] == 0  # it agrees with the standing decision
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "overturned", "--text", "Bob wins actually")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1, out
    assert (f"round 1 table 1's result ({'Ann 1-0' if slip('Ann') == '1-0-0' else 'Bob 0-1'}") in out, out
    assert (f"was entered before match {m.id}'s time decision (event {decision}) was overturned on appeal "
            f"(event {decision + 1}, head judge Head: Bob wins actually)") in out, out
    assert f"tablejudge log {m.id} correction --actor judge:NAME --voids {decision}" in out  # redecide_commands
    # QA86 2: the match gives the overturned decision: the desk offers no "Take the result from match M"
    said = json.loads(run_in_process(db, "tournament", "warnings", t.id, "--json")[1])
    assert [w.get("take_from") for w in said if w["kind"] == "result-appealed"] == [None], said
    # the head judge's result, entered as the warning says it (W-L-D filled in): settled
    enter = out[out.index("`tablejudge tournament result", out.index("head judge's result")):].split("`")[1]
    code, out, err = run_in_process(db, *shlex.split(enter.replace("W-L-D", slip("Bob")).split(" ", 1)[1]))
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


def test_tournament_warnings_name_an_entered_result_against_the_standing_decision(tmp_path):
    from tests.desk.test_stale_decision import decided
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins on time
    decision = m.events()[-1].position
    t, slip = _linked_cup(m)
    code, out, err = run_in_process(db, "tournament", "result", t.id, slip("Bob"), "--table", "1")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and f"disagrees with match {m.id}'s standing time decision (event {decision}: Ann wins)" in out
    said = json.loads(run_in_process(db, "tournament", "warnings", t.id, "--json")[1])  # the web offers its button
    assert [w.get("take_from") for w in said if w["kind"] == "result-decision"] == [
        {"match": m.id, "round": 1, "table": 1}], said
    code, _, err = run_in_process(db, "tournament", "close", t.id)  # no answer settles it: close waits
    assert code == 2 and "disagrees with match" in err, err
    take = out[out.index("Take the result from the match: `"):].split("`")[1]
    code, out, err = run_in_process(db, *shlex.split(take.split(" ", 1)[1]))  # the command said works
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


def test_tournament_warnings_compare_an_entered_result_with_the_match_as_it_stands_not_a_stale_decision(tmp_path):
    """Review: the check compared a hand-entered result with the last decision recorded, never asking
    whether a correction (here: of its time call) left it out of date (DESK-15): the match has no outcome until the judge
    decides again, so there is nothing to compare, and no `--match` to offer."""
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins on time
    t, slip = _linked_cup(m)
    assert run_in_process(db, "tournament", "result", t.id, slip("Bob"), "--table", "1")[0] == 0
    assert "result-decision" in run_in_process(db, "tournament", "warnings", t.id, "--json")[1]
    call = next(e.position for e in m.events() if e.kind == "time.called")
    code, out, err = run_in_process(db, "log", m.id, "correction", "--actor", "judge:Kim", "--voids",
                                    str(call), "--reason", "time was not called yet")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id, "--json")
    assert "result-decision" not in out, out


def test_tournament_warnings_compare_an_entered_result_with_a_later_match_loss(tmp_path):
    """Review: a Match Loss recorded after the time decision decides the match (engine.desk.log_outcome):
    Bob's result entered agrees with it; Ann's is said with the result to enter, not `--match` (which
    takes the game's outcome)."""
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins on time
    t, slip = _linked_cup(m)
    assert run_in_process(db, "tournament", "result", t.id, slip("Bob"), "--table", "1")[0] == 0
    code, out, err = run_in_process(db, "judge", "penalty", m.id, "-j", "Kim", "--player", "Ann", "--penalty",
                                    "Match Loss", "--infraction", "Unsporting Conduct")
    assert code == 0, out + err
    penalty = m.events()[-1].position
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out
    code, out, err = run_in_process(db, "tournament", "result", t.id, slip("Ann"), "--table", "1", "--overwrite",
                                    "--reason", "slip")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and f"disagrees with match {m.id}'s outcome (Bob wins: Match Loss to Ann (event {penalty}))" in out
    # the web's "Take the result from the match" is not offered: the match's game says Ann, the penalty Bob
    said = json.loads(run_in_process(db, "tournament", "warnings", t.id, "--json")[1])
    assert [w.get("take_from") for w in said if w["kind"] == "result-decision"] == [None], said
    enter = out[out.index("Enter it: `"):].split("`")[1]
    code, out, err = run_in_process(db, *shlex.split(enter.split(" ", 1)[1]))
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


@pytest.mark.parametrize("entered", ["match", "slip"])
def test_the_head_judges_result_the_same_as_the_tables_is_recorded_again_and_settles_it(tmp_path, entered):
    """QA85 3: the decision overturned on appeal, the head judge gives the same winner on other
    grounds. Entered as the warning says (`--overwrite --reason`), it was "unchanged ... nothing was
    stored" and the round stayed blocked; `decide ... keep` said "no open warning ... (it may be
    answered already)". Now it is recorded again, by hand, and settles the warning; `decide` says the
    warning has no answer to choose and prints its command. Entered once more, it is unchanged."""
    from tests.desk.test_stale_decision import decided
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins at time
    decision = m.events()[-1].position
    t, slip = _linked_cup(m)
    if entered == "match":
        t.record_matches([m.id])
    else:
        assert run_in_process(db, "tournament", "result", t.id, slip("Ann"), "--table", "1")[0] == 0
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "overturned", "--text", "Ann wins, on the life count")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1, out
    wid = next(w for w in out.split() if w.startswith("result-appealed:"))
    code, _, err = run_in_process(db, "tournament", "decide", t.id, wid.rstrip(":"), "keep", "--reason", "same winner")
    assert code == 2 and "has no answer to choose" in err and "answered already" not in err, err
    assert "--overwrite --reason" in err and f"tablejudge tournament result {t.id} W-L-D --table 1" in err, err
    enter = out[out.index("`tablejudge tournament result", out.index("head judge's result")):].split("`")[1]
    args = shlex.split(enter.replace("W-L-D", slip("Ann")).split(" ", 1)[1])
    head = t.state().position
    code, out, err = run_in_process(db, *args)
    assert code == 0 and "unchanged" not in out and "recorded again" in out, out + err
    assert t.state().position == head + 1
    again = t.state().rounds[0].result_events[1]
    assert (again.position, again.payload["reason"]) == (head + 1, args[-1])
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out
    code, out, err = run_in_process(db, *args)  # no warning asks for it now: a re-run stores nothing
    assert code == 0 and "unchanged" in out and t.state().position == head + 1, out + err
    code, out, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 0, out + err


def test_a_result_on_a_decision_voided_since_is_said_once_as_result_basis_not_on_an_older_appeal(tmp_path):
    """Review: appealed_results judged the decision a result rests on with today's voids. The head
    judge overturned Ann's decision (44) on appeal and a judge recorded Bob's (46) beside it; the
    result was taken from the match (on 46); 46 was voided later. The result-basis warning says so;
    result-appealed also said the result "still stands on" 44, which it never rested on."""
    from judge.tournament.seal import blocking_problems
    db, m, decision, appeal = _overturned(tmp_path)
    again = m.record("time.decision", {**m.events()[decision - 1].payload, "winner": "Bob"},
                     actor="judge:Head").event.position
    t = _cup_from(m, rounds=1)
    m.record("correction", {"voids": again, "reason": "recorded on the wrong match"}, actor="judge:Kim")
    said = [(b.kind, b.words) for b in blocking_problems(m.store, t.state())]
    assert [k for k, _ in said] == ["result-basis"], said
    assert f"the time decision it rests on (event {again}) was voided by correction {again + 1}" in said[0][1]
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 1 and "result-appealed" not in out and f"(event {decision})" not in out, out


def test_a_result_on_an_appealed_decision_reads_the_matchs_decisions_appeals_and_voids_only(tmp_path, monkeypatch):
    """Review: appealed_results read a match's whole log where its decisions, appeals and voids say
    all it asks (store.read_kinds, as entered_against_decision reads), when no whole log was read
    already in the same pass."""
    from engine.store import EventStore
    from judge.tournament.seal import appealed_results
    db, m, decision, appeal, t = _overturned(tmp_path, rounds=1)
    st = t.state()
    reads = []
    real = EventStore.read

    def spy(self, stream, *a, **kw):
        reads.append(stream)
        return real(self, stream, *a, **kw)
    monkeypatch.setattr(EventStore, "read", spy)
    (said,) = appealed_results(m.store, st)
    assert f"whose time decision (event {decision}) was overturned on appeal (event {appeal}" in said[1]
    assert reads == [t.id], reads


def test_a_results_file_records_the_head_judges_same_result_again_as_result_does(tmp_path):
    """QA LOW: for a result blocked by an appeal, `tournament result T SLIP --table N --overwrite
    --reason` records the head judge's same result again (QA85 3), but `tournament results T FILE`
    said "unchanged" for the same line and the round stayed blocked. One rule serves both."""
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins at time
    decision = m.events()[-1].position
    t, slip = _linked_cup(m)
    t.record_matches([m.id])
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "overturned", "--text", "Ann wins, on the life count")
    assert code == 0, out + err
    sheet = tmp_path / "round1.txt"
    sheet.write_text(f"1 {slip('Ann')}\n")
    head = t.state().position
    code, out, err = run_in_process(db, "tournament", "results", t.id, str(sheet))  # no reason: nothing asked
    assert code == 0 and "1 unchanged" in out and t.state().position == head, out + err
    code, out, err = run_in_process(db, "tournament", "results", t.id, str(sheet), "--overwrite", "--reason",
                                    f"appeal, match {m.id} event {decision + 1}")
    assert code == 0 and "unchanged" not in out, out + err
    assert "table 1: " in out and "recorded again by hand (the table had this result), the head judge's result" in out
    assert "1 recorded again" in out, out
    again = t.state().rounds[0].result_events[1]
    assert again.position == head + 1 and again.payload["reason"] == f"appeal, match {m.id} event {decision + 1}"
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out
    code, out, err = run_in_process(db, "tournament", "results", t.id, str(sheet), "--overwrite", "--reason", "again",
                                    "--json")  # no warning asks for it now: stored nothing
    assert code == 0 and json.loads(out)[0]["status"] == "unchanged" and t.state().position == head + 1, out + err
    code, out, err = run_in_process(db, "tournament", "close", t.id)
    assert code == 0, out + err


def test_taking_the_result_again_from_a_match_that_still_gives_the_overturned_decision_is_refused(tmp_path):
    """QA86 2: `tournament result --match M --overwrite --reason` took the overturned decision again and
    said "unchanged", the warning kept (the desk's button: "taken again" of the old result). Refused in
    words with what to do first, nothing stored; the warning offers no take_from (the desk's button)."""
    db, m, decision, appeal, t = _overturned(tmp_path, rounds=1)
    said = json.loads(run_in_process(db, "tournament", "warnings", t.id, "--json")[1])
    assert [w.get("take_from") for w in said if w["kind"] == "result-appealed"] == [None], said
    head = t.state().position
    code, out, err = run_in_process(db, "tournament", "result", t.id, "--match", m.id, "--overwrite", "--reason",
                                    "from the match")
    assert code == 2 and "unchanged" not in out, out + err
    assert (f"match {m.id} still gives the time decision the head judge overturned on appeal (event {decision}, "
            f"appeal event {appeal})") in err, err
    assert f"void event {decision} and decide again first (`tablejudge log {m.id} correction" in err, err
    assert "nothing was recorded" in err and t.state().position == head


def test_an_overwrite_that_settles_the_appeal_warning_needs_a_reason(tmp_path):
    """QA86 8: `tournament result T W-L-D --table N --overwrite` with no --reason recorded the head
    judge's result over a result-appealed warning and settled it; the warning's command and the web's
    button ask for a reason. Refused naming --reason, nothing stored; with it, recorded and settled."""
    db = tmp_path / "t.db"
    m = decided(tmp_path)  # Ann wins at time
    decision = m.events()[-1].position
    t, slip = _linked_cup(m)
    assert run_in_process(db, "tournament", "result", t.id, slip("Ann"), "--table", "1")[0] == 0
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "overturned", "--text", "Bob wins actually")
    assert code == 0, out + err
    head = t.state().position
    code, out, err = run_in_process(db, "tournament", "result", t.id, slip("Bob"), "--table", "1", "--overwrite")
    assert code == 2 and "say why with --reason" in err and "result-appealed:" in err, out + err
    assert "nothing was recorded" in err and t.state().position == head
    assert "result-appealed" in run_in_process(db, "tournament", "warnings", t.id)[1]
    code, out, err = run_in_process(db, "tournament", "result", t.id, slip("Bob"), "--table", "1", "--overwrite",
                                    "--reason", f"appeal, match {m.id} event {decision + 1}")
    assert code == 0 and t.state().position == head + 1, out + err
    code, out, _ = run_in_process(db, "tournament", "warnings", t.id)
    assert code == 0 and "no warning" in out, out


def test_a_decision_changed_on_appeal_is_voided_as_changed_not_overturned(tmp_path):
    """QA86 #11: the command said for a decision *changed* on appeal gave `--reason "overturned on
    appeal, event N"`, which the log would then keep as the reason."""
    m = decided(tmp_path)
    db, decision = m.store.describe(), m.events()[-1].position
    code, out, err = run_in_process(db, "judge", "appeal", m.id, str(decision), "--judge", "Head",
                                    "--decision", "changed", "--text", "a draw")
    assert code == 0, out + err
    code, out, _ = run_in_process(db, "timelimit", m.id, "--dry-run")
    assert f"--reason \"changed on appeal, event {decision + 1}\"" in out and "overturned" not in out, out


def test_the_match_is_refused_after_the_head_judges_result_while_it_gives_the_overturned_decision(tmp_path):
    """QA88 1 (the exact sequence): once the head judge's result was entered by hand after the appeal
    (settling result-appealed), `tournament result --match M --overwrite --reason` put the overturned
    winner back (exit 0, "Ann 2-1-0"): the refusal read the warnings, and none was open. Refused on the
    match itself, nothing stored; after the decision is voided and decided again, taken."""
    db = tmp_path / "t.db"

    def ok(*args):
        code, out, err = run_in_process(db, *args)
        assert code == 0, out + err
        return out

    t = ok("tournament", "new", "--name", "R", "--game", "op2009", "--rounds", "3", "--seed", "1").strip()
    ok("tournament", "register", t, "Ann", "Bob")
    ok("tournament", "pair", t)
    m = next(x.split()[1] for x in ok("tournament", "matches", t).splitlines() if x.split()[:1] == ["1"])
    ok("timelimit", m, "--facts", "games=1-0 in_game=yes turn_over=yes won=B sudden=A", "--judge", "Zed")  # event 3
    assert "Ann 2-1-0 Bob" in ok("tournament", "result", t, "--match", m)
    ok("judge", "appeal", m, "3", "--judge", "Head Rossi", "--decision", "overturned", "--text", "Bob damaged first",
       "--by", "Bob")
    assert "Ann 1-2-0 Bob" in ok("tournament", "result", t, "1-2-0", "--table", "1", "--overwrite", "--reason",
                                 "appeal, event 4")
    assert "no warning" in ok("tournament", "warnings", t)
    store = EventStore.open(str(db))
    head = len(store.read(t))
    code, out, err = run_in_process(db, "tournament", "result", t, "--match", m, "--overwrite", "--reason",
                                    "from the match")
    assert code == 2, out + err
    assert (f"match {m} still gives the time decision the head judge overturned on appeal (event 3, appeal event 4)"
            in err and "void event 3 and decide again first" in err and "nothing was recorded" in err), err
    assert len(store.read(t)) == head and "no warning" in ok("tournament", "warnings", t)
    # replaced (voided, decided again as the head judge ruled): the match gives Bob's win and is taken
    ok("log", m, "correction", "--actor", "judge:Head Rossi", "--voids", "3", "--reason", "overturned on appeal, event 4")
    ok("timelimit", m, "--facts", "games=1-0 in_game=yes turn_over=yes won=B sudden=B", "--judge", "Head Rossi")
    out = ok("tournament", "result", t, "--match", m, "--overwrite", "--reason", "decided again after an appeal")
    assert "Ann 1-2-0 Bob" in out, out
