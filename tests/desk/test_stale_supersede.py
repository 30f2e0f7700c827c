"""What supersedes a stale time decision, and what the match reads as after it (engine/decisions.py):
a later decision on the corrected table stands in its place, a "continue" one too (play on: the
match is not over until the game or a later decision ends it), and only the decision that stands
is checked again when a further correction comes."""
from __future__ import annotations

import json

import pytest

from engine.decisions import stale_decisions
from engine.match import InputError, Match
from judge.desk import review
from judge.desk.timelimit import run
from judge.tournament.aggregate import Tournament
from tests.conftest import run_in_process
from tests.desk.test_stale_decision import JUDGE, PLAIN, REPLACING, decided

CONTINUE = {"result": "continue", "branch": "finish-turn", "steps": ["finish the turn"], "rule": "OPTCG-TIME-1"}


def cup(m: Match) -> Tournament:
    t = Tournament.create(m.store, name="Cup", game="optcg", seed="7", rounds=1)
    t.register("Ann")
    t.register("Bob")
    t.pair()
    return t


def test_a_continue_superseding_a_stale_decision_leaves_the_match_in_play(tmp_path):
    """A "continue" on the corrected table supersedes the stale win: the match is neither decided
    (by the stale win) nor waiting for a decision; the game's own end decides it."""
    m = decided(tmp_path)
    m.record("correction", PLAIN[1](m), actor=JUDGE)
    go_on = m.record("time.decision", CONTINUE, actor=JUDGE).event.position
    r = review(Match(m.store, m.id))
    assert r.outcome is None and r.not_decided() is None  # in play, nothing to decide again
    view = json.loads(run_in_process(tmp_path / "t.db", "state", m.id, "--json")[1])
    assert view["result"] is None and view["not_decided"] is None
    with pytest.raises(InputError, match="no outcome yet: the game is not over"):
        cup(m).record_matches([m.id])
    assert run_in_process(tmp_path / "t.db", "verify", m.id)[0] == 0

    end = m.record("game.end", {"winner": "Bob", "how": "life"}, actor=JUDGE).event.position
    assert end > go_on
    r = review(Match(m.store, m.id))
    assert (r.outcome.result, r.outcome.winner) == ("win", "Bob")
    view = json.loads(run_in_process(tmp_path / "t.db", "state", m.id, "--json")[1])
    assert (view["result"]["winner"], view["result"]["position"]) == ("Bob", end)


def test_a_second_correction_checks_only_the_standing_decision(tmp_path):
    """QA N8: the first decision, superseded already, was flagged stale again by a later correction."""
    m = decided(tmp_path)
    first = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    second = run(m).recorded.position
    fix = m.record("correction", PLAIN[1](m), actor=JUDGE)
    said = [f.message for f in fix.findings if f.rule == "DESK-15"]
    assert len(said) == 1 and said[0].startswith(f"the time decision at event {second} is out of date")
    code, out, _ = run_in_process(tmp_path / "t.db", "verify", m.id)
    assert code == 1 and f"event {second} (time.decision) is STALE" in out
    assert f"event {first} (time.decision) is STALE" not in out
    stale = stale_decisions(m.replayer)  # judged as it stood when superseded: the first correction alone
    assert (stale[first].by, stale[first].superseded_by) == (((first + 1, "correction"),), second)


def test_an_op2009_decision_that_supersedes_reads_by_op2009s_own_end_of_time_rule(tmp_path):
    """The superseding decision was read as an optcg-shaped win ("time", no games): op2009's own
    rule awards the games the branch gives (1-0 while sideboarding: 2-1), as a first decision's."""
    from tests.rulesets.op2009.builder import ANN, BOB, Log
    from tests.rulesets.op2009.test_op2009_time import game_won_by_concession
    L = Log(tmp_path)
    L.register()
    game_won_by_concession(L, BOB)  # Ann 1-0
    L.time()
    assert run(L.m).recorded.payload["winner"] == ANN
    conceded = next(e for e in L.m.events() if e.kind == "concede")
    L.m.record("correction", {"voids": conceded.position, "reason": "Ann conceded, not Bob",
                              "instead": {"kind": "concede", "actor": ANN, "payload": {"player": ANN}}}, actor=JUDGE)
    # the judge decides again on the corrected table (Bob 1-0), as the rulebook's branch says
    L.m.record("time.decision", {"result": "win", "winner": BOB, "branch": "sideboard-1-0",
                                 "rule": "OP09-TEMPO-SIDE-1", "steps": ["Bob leads 1-0 while sideboarding"]},
               actor=JUDGE)
    view = json.loads(run_in_process(tmp_path / "m.db", "state", L.m.id, "--json")[1])
    assert view["result"]["how"] == "end of time: sideboard-1-0" and view["result"]["score"] == {ANN: 1, BOB: 2}
    r = review(Match(L.m.store, L.m.id))
    assert (r.outcome.winner, r.outcome.how) == (BOB, "end of time: sideboard-1-0")
    assert any("awarded at the end of time" in line for line in r.outcome.explanation)


def test_events_marks_a_superseded_decision(tmp_path):
    """QA N7: `events` (text and --json) did not say a stale decision had been decided again."""
    m = decided(tmp_path)
    first = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    second = run(m).recorded.position
    code, out, _ = run_in_process(tmp_path / "t.db", "events", m.id)
    (line,) = [ln for ln in out.splitlines() if ln.lstrip().startswith(f"{first} ")]
    assert code == 0 and line.endswith(f"(superseded by event {second})")
    rows = json.loads(run_in_process(tmp_path / "t.db", "events", m.id, "--json")[1])
    assert [r.get("superseded_by_event") for r in rows if r["position"] in (first, second)] == [second, None]


def test_the_report_marks_a_superseded_decision_among_the_judge_actions(tmp_path):
    """QA N7: the report's judge actions listed both decisions alike."""
    from judge.report.match import match_context, render_match
    m = decided(tmp_path)
    first = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    second = run(m).recorded.position
    acts = {e["position"]: e["superseded_by"] for e in match_context(Match(m.store, m.id))["judge_actions"]}
    assert (acts[first], acts[second]) == (second, None)
    html = render_match(Match(m.store, m.id))
    assert html.count(f"superseded by event {second}") == 2  # the judge actions and the timeline


def test_facts_a_recorded_log_contradicts_are_refused(tmp_path):
    """QA N4: `timelimit --facts` decided on Life and deck counts the recorded log contradicts."""
    from engine.store import EventStore
    from tests.rulesets.optcg.test_optcg_time_policies import game
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)  # Life 4-4, decks 38-38 at the end
    head = m.head_position()
    for extra in (["--dry-run"], [], ["--json"]):
        code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--facts",
                                        "turn=3 life=2-3 deck=38-38", *extra)
        assert code == 2 and "life: --facts reads Ann 2, Bob 3, the log has Ann 4, Bob 4" in out + err
        assert "deck:" not in out + err and "give what it has (life=4-4)" in out + err
        assert m.head_position() == head  # nothing stored
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--facts", "turn=3 life=2-3 deck=20-18")
    assert code == 2 and "deck: --facts reads Ann 20, Bob 18, the log has Ann 38, Bob 38" in err
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--facts", "turn=3 life=4-4 deck=38-38 characters=1-1 last_life=B",
                                    "--dry-run")
    assert code == 0, out + err  # the log's own counts: accepted


def test_a_redecision_gone_stale_reads_not_decided_in_every_view(tmp_path):
    """QA76 #1: decide, correct, decide again, correct again: `state` (and the replay's boards) had
    no result and no "not decided": the first decision, superseded and stale, read the standing
    table, which leaves the second (stale too) out, and never said the second waits."""
    m = decided(tmp_path)
    first = m.events()[-1].position
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    second = run(m).recorded.position
    fix = m.record("correction", PLAIN[1](m), actor=JUDGE).event.position
    waiting = (f"not decided (the time decision at event {second} is out of date after correction {fix}: "
               f"decide again: tablejudge timelimit {m.id})")
    view = json.loads(run_in_process(tmp_path / "t.db", "state", m.id, "--json")[1])
    assert (view["result"], view["not_decided"]) == (None, waiting)
    assert f"result: {waiting}" in run_in_process(tmp_path / "t.db", "state", m.id)[1]
    # a step of the log as recorded: the second decision stood until the correction after it
    then = json.loads(run_in_process(tmp_path / "t.db", "state", m.id, "--at", str(second), "--as-recorded",
                                     "--json")[1])
    assert then["result"]["position"] == second and then["not_decided"] is None
    from judge.replay.timeline import walk
    boards = {e["p"]: b for e, b in zip(*(lambda t: (t.events, t.boards))(walk(Match(m.store, m.id), hidden=False)))}
    assert boards[first]["not_decided"] is None and boards[first]["result"]["position"] == first
    assert boards[first + 1]["result"] is None and boards[first + 1]["not_decided"].startswith(
        f"not decided (the time decision at event {first} is out of date")
    assert boards[second]["result"]["position"] == second and boards[second]["not_decided"] is None
    assert (boards[fix]["result"], boards[fix]["not_decided"]) == (None, waiting)


def test_events_marks_a_decision_out_of_date_until_decided_again(tmp_path):
    """QA76 #4: between the correction and the new decision, `events` listed the stale decision as
    a plain one (no mark, no JSON key), while `verify` failed it."""
    m = decided(tmp_path)
    first = m.events()[-1].position
    fix = m.record("correction", REPLACING[1](m), actor=JUDGE).event.position
    code, out, _ = run_in_process(tmp_path / "t.db", "events", m.id)
    (line,) = [ln for ln in out.splitlines() if ln.lstrip().startswith(f"{first} ")]
    assert code == 0 and line.endswith(f"(out of date after correction {fix}: decide again)")
    rows = {r["position"]: r for r in json.loads(run_in_process(tmp_path / "t.db", "events", m.id, "--json")[1])}
    assert rows[first]["out_of_date"] == f"out of date after correction {fix}"
    assert rows[first]["decide_again"] == f"tablejudge timelimit {m.id}"
    second = run(m).recorded.position  # decided again: superseded, no longer out of date
    rows = {r["position"]: r for r in json.loads(run_in_process(tmp_path / "t.db", "events", m.id, "--json")[1])}
    assert "out_of_date" not in rows[first] and rows[first]["superseded_by_event"] == second


def test_facts_are_checked_against_the_log_before_any_missing_one_is_asked_for(tmp_path):
    """QA76 #5: `--facts "turn=3 life=5-5"` (the log: Life 4-4) asked for deck= first, saying "Life
    ... equal", and `turn=` was never compared with the log (turn=2 after 3 extra turns decided)."""
    from engine.store import EventStore
    from tests.rulesets.optcg.test_optcg_time_policies import game
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)  # time called in game turn 3; turns 4 to 6 over; Life 4-4
    head = m.head_position()
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--facts", "turn=3 life=5-5", "--dry-run")
    assert code == 2 and "life: --facts reads Ann 5, Bob 5, the log has Ann 4, Bob 4" in out + err
    assert "needs deck" not in out + err and "equal" not in out + err
    code, out, err = run_in_process(tmp_path / "t.db", "timelimit", m.id, "--facts", "turn=2 life=4-4")
    assert code == 2 and "turn: --facts reads 2, the log has 3" in out + err and "(turn=3)" in out + err
    assert m.head_position() == head  # nothing stored


def test_facts_the_log_has_are_taken_from_it_and_only_the_rest_asked_for(tmp_path):
    """QA84 #7: `timelimit M --facts "turn=3"` on a recorded match asked for life= though the log
    had the Life totals. What the log knows and --facts leaves out is taken from the log (said in
    the first step); only the rest is asked for; the facts recorded are the judge's reading."""
    from engine.store import EventStore
    from tests.rulesets.optcg.test_optcg_time_policies import game
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)  # Life 4-4, decks 38-38; turns 4 to 6 over after the call
    head = m.head_position()
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3", "--judge", "Kim")
    assert code == 2 and "needs last_life=" in err and "(the log has life=4-4 deck=38-38 characters=1-1)" in err, \
        out + err
    assert "needs life=" not in err and "needs deck=" not in err and "needs characters=" not in err
    assert m.head_position() == head
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "characters=1-1 last_life=B", "--judge", "Kim")
    assert code == 0 and "the judge read the table: characters=1-1 last_life=Bob; the log has turn=3 life=4-4 " \
                         "deck=38-38" in out and "winner: Ann" in out, out + err
    d = m.events()[-1]
    assert d.kind == "time.decision" and d.payload["facts"] == "characters=1-1 last_life=Bob", d.payload
    # a value the log has read otherwise is still refused (record, then judge), the log's named
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3 life=3-4", "--dry-run")
    assert code == 2 and "life: --facts reads Ann 3, the log has Ann 4" in err and "the log's are taken" in err


def test_the_turn_is_not_compared_where_the_log_stopped_at_the_time_call(tmp_path):
    """A log that records the time call and nothing after it does not know how many turns the table
    played since: the judge's count stands."""
    from engine.rulesets.optcg.time import turns_over
    from tests.rulesets.optcg.test_optcg_time_policies import game
    from engine.store import EventStore
    m = Match.create(EventStore.open(str(tmp_path / "t.db")), "optcg", ["Ann", "Bob"])
    events = game()
    upto = next(i for i, (kind, _, _) in enumerate(events) if kind == "time.called") + 1
    for kind, actor, payload in events[:upto]:
        m.record(kind, payload, actor=actor)
    assert turns_over(m.replayer.state_at(), m.events()) is None
    for kind, actor, payload in events[upto:]:
        m.record(kind, payload, actor=actor)
    assert turns_over(m.replayer.state_at(), m.events()) == 3


def test_a_ruleset_bug_reading_the_standing_table_breaks_neither_the_review_nor_the_replay(tmp_path, monkeypatch):
    """Review: the replay's timeline once guarded the ruleset's outcome of the standing table (a stale
    decision's, superseded) as review guards the validated table's; folded into review, that call ran
    unguarded and a ruleset bug there broke the match's page and its replay. It reads as no outcome."""
    import functools

    from engine.decisions import StandingTable
    from judge.replay.export import write_replay

    m = decided(tmp_path)
    m.record("correction", REPLACING[1](m), actor=JUDGE)
    second = run(m).recorded.position  # decided again: supersedes the stale decision
    tables: set[int] = set()
    folded = StandingTable.table.func

    def table(self):
        t = folded(self)
        tables.add(id(t))
        return t

    monkeypatch.setattr(StandingTable, "table", functools.cached_property(table))
    StandingTable.table.__set_name__(StandingTable, "table")
    real = type(m.ruleset).outcome

    def outcome(self, state):
        if id(state) in tables:
            raise RuntimeError("a ruleset bug")
        return real(self, state)

    monkeypatch.setattr(type(m.ruleset), "outcome", outcome)
    r = review(Match(m.store, m.id))
    assert tables and (r.outcome.position, r.outcome.winner) == (second, "Ann")  # the log's decision
    assert "<html" in open(write_replay(Match(m.store, m.id), str(tmp_path / "r.html")), encoding="utf-8").read()


def test_a_decision_from_facts_partly_from_the_log_goes_out_of_date_when_that_life_is_corrected(tmp_path):
    """Review of QA84 #7: a decision from --facts that took Life and deck from the log recorded no
    basis (no `state_hash`), so a later correction of the Life it rested on left it standing, and the
    tournament result with it. It records the table it read; the correction leaves it out of date."""
    from engine.store import EventStore
    from tests.desk.test_stale_decision import taken
    from tests.rulesets.optcg.test_optcg_time_policies import game
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"], round="1", table="1")
    for kind, actor, payload in game():
        m.record(kind, payload, actor=actor)  # Life 4-4, decks 38-38 in the log
    d = run(m, facts="characters=1-1 last_life=B", judge="Kim").recorded
    assert d.payload["winner"] == "Ann" and d.payload["based_on"] == d.position - 1 and "state_hash" in d.payload
    assert run_in_process(db, "verify", m.id)[0] == 0  # the basis is the log's own table: not an edit
    fix = m.record("correction", {"voids": taken(m, "Ann"), "reason": "no damage was dealt"}, actor=JUDGE)
    said = f"the time decision at event {d.position} is out of date after correction {fix.event.position}"
    assert [f.message for f in fix.findings if f.rule == "DESK-15"][0].startswith(said)
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "characters=1-1 last_life=B", "--dry-run", "--json")
    assert code == 0 and json.loads(out)["supersedes_stale"]["position"] == d.position, out + err
    assert review(Match(m.store, m.id)).outcome is None
    with pytest.raises(InputError, match=f"no outcome yet: {said}"):
        cup(m).record_matches([m.id])
    # from the judge's reading alone there is no log table to go out of date
    alone = run(m, facts="turn=3 life=5-4 deck=38-38 characters=1-1 last_life=B", judge="Kim").recorded
    assert "state_hash" not in alone.payload and alone.payload["winner"] == "Ann"

