"""The generic time-limit module and `tablejudge timelimit`: any ruleset with an end_of_time plugs in."""
from __future__ import annotations

import json

import pytest

from engine.events import RecordedEvent
from engine.match import InputError, Match
from engine.rulesets.base import Decision
from engine.rulesets.table.ruleset import TableRuleset
from engine.state import TableState
from engine.store import EventStore
from judge.cli import cli
from judge.cli.common import run_guarded
from judge.desk.timelimit import NoTimeCalled, decide, run
from tests.rulesets.op2009.builder import ANN, BOB, Log


class BandaiLike(TableRuleset):
    """A stand-in for another ruleset's procedure (e.g. optcg's `bandai` policy): the module must
    call it as it is, with no knowledge of the game."""

    calls: list = []

    def end_of_time(self, state: TableState, events: list[RecordedEvent], *, policy: str | None = None) -> Decision:
        self.calls.append((state.position, len(events), policy))
        return Decision(result="win", winner="Ann", branch="life-cards", steps=["Ann has more Life cards"],
                        rule="X-5-2", quote="...", policy=policy or "bandai")


def table_match(tmp_path) -> Match:
    store = EventStore.open(str(tmp_path / "t.db"))
    return Match.create(store, "table", ["Ann", "Bob"])


def test_generic_over_rulesets(tmp_path):
    m = table_match(tmp_path)
    m.record("note", {"text": "turn 4"})
    m.record("time.called", {"clock": "15:00"}, actor="judge:Carla")
    m.ruleset = BandaiLike()
    result = run(m, "bandai")
    assert m.ruleset.calls[-1] == (3, 3, "bandai")
    assert result.recorded.kind == "time.decision"
    payload = dict(result.recorded.payload)
    # the table the decision was based on: its last event and state hash (verify replays it again)
    assert payload.pop("based_on") == 3
    assert payload.pop("state_hash") == m.replayer.decision_basis().state_hash()
    assert payload == {"result": "win", "branch": "life-cards", "steps": ["Ann has more Life cards"],
                       "rule": "X-5-2", "winner": "Ann", "policy": "bandai"}


def test_a_ruleset_without_a_procedure_is_an_input_error(tmp_path):
    m = table_match(tmp_path)
    m.record("time.called", {"clock": "15:00"})
    with pytest.raises(InputError, match="no end-of-time procedure"):
        decide(m)


def test_no_time_called(tmp_path):
    m = table_match(tmp_path)
    with pytest.raises(NoTimeCalled, match="no time.called"):
        decide(m)


def test_a_corrected_time_call_does_not_count(tmp_path):
    m = table_match(tmp_path)
    wrong = m.record("time.called", {"clock": "14:00"}).event
    m.record("correction", {"voids": wrong.position, "reason": "called at the wrong table"})
    with pytest.raises(NoTimeCalled):
        decide(m)


def _timed_op2009(tmp_path) -> Log:
    L = Log(tmp_path)
    L.register()
    L.prepare()
    L.ev("concede", player=BOB)          # Ann 1-0
    L.ev("sideboard", player=BOB, out=["BA-W01"], into=["BA-W09"])
    L.time("15:40")
    return L


def cli_run(capsys, db, *args) -> tuple[int, str, str]:
    code = run_guarded(cli, ["--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_prints_decision_branch_and_rule(tmp_path, capsys):
    L = _timed_op2009(tmp_path)
    code, out, _ = cli_run(capsys, tmp_path / "m.db", "timelimit", L.m.id, "--json", "--judge", "Maria")
    assert code == 0
    data = json.loads(out)
    assert (data["decision"], data["winner"], data["branch"], data["rule"]) == ("win", ANN, "sideboard-1-0",
                                                                                 "OP09-TEMPO-SIDE-1")
    assert "Si sta usando la sideboard e l'incontro è sull'1-0" in data["quote"]
    assert data["time_called"]["clock"] == "15:40" and data["newly_recorded"] is True
    last = L.m.events()[-1]
    assert last.kind == "time.decision" and last.payload["winner"] == ANN and last.actor == "judge:Maria"


@pytest.mark.parametrize("before, after, actor", [((), (), "judge:Rita"), (("--by", "Sam"), (), "judge:Sam"),
                                                 ((), ("-j", "Maria"), "judge:Maria"),
                                                 ((), ("--judge", "judge:Kim"), "judge:Kim")],
                         ids=["env", "by", "judge", "prefixed"])
def test_cli_records_the_person_typing_as_the_judge(tmp_path, capsys, monkeypatch, before, after, actor):
    # QA81 M4: without --judge the decision was judge:timelimit, the tool's name, which then showed
    # as an appealable judge action by nobody; every judge command defaults to the person typing
    monkeypatch.setenv("TABLEJUDGE_USER", "Rita")
    L = _timed_op2009(tmp_path)
    code, out, err = cli_run(capsys, tmp_path / "m.db", *before, "timelimit", L.m.id, *after)
    assert code == 0, out + err
    assert L.m.events()[-1].actor == actor


def test_cli_dry_run_records_nothing(tmp_path, capsys):
    L = _timed_op2009(tmp_path)
    before = L.m.head_position()
    code, out, _ = cli_run(capsys, tmp_path / "m.db", "timelimit", L.m.id, "--dry-run")
    assert code == 0 and "sideboard-1-0" in out and "dry run" in out
    assert L.m.head_position() == before


def test_cli_no_time_called_exits_2(tmp_path, capsys):
    L = Log(tmp_path)
    code, _, err = cli_run(capsys, tmp_path / "m.db", "timelimit", L.m.id)
    assert code == 2 and "no time.called event" in err


def test_cli_unknown_policy_exits_2(tmp_path, capsys):
    L = _timed_op2009(tmp_path)
    code, _, err = cli_run(capsys, tmp_path / "m.db", "timelimit", L.m.id, "--policy", "bandai")
    assert code == 2 and "mm25-entrambi" in err


def test_a_dry_run_says_the_standing_decision_first_where_the_log_alone_lacks_counts(tmp_path):
    # review: where the log alone lacks counts (no deck registered) but `--facts` decided the table, the
    # dry run printed only the refusal asking for the counts again; the decide page says the decision first
    from tests.conftest import run_in_process
    from tests.rulesets.optcg.test_optcg_time_policies import game

    db = tmp_path / "t.db"
    with EventStore.open(str(db)) as store:
        m = Match.create(store, "optcg", ["Ann", "Bob"])
        for kind, actor, payload in game():
            if kind != "deck.registered":
                m.record(kind, payload, actor=actor)
        mid = m.id
    code, out, err = run_in_process(db, "timelimit", mid, "--dry-run")
    assert code == 2 and "decided:" not in out and "--facts" in err, out + err  # nothing stands yet
    code, out, err = run_in_process(db, "timelimit", mid, "--judge", "Kim",
                                    "--facts", "turn=3 life=4-4 deck=38-30 characters=1-1 last_life=Bob")
    assert code == 0, out + err
    decided = int(out.split("recorded as event ")[1].split()[0])
    words = f"decided: Ann wins (event {decided}, policy bandai, from facts given by judge Kim: turn=3"
    for args in (["--dry-run"], []):
        code, out, err = run_in_process(db, "timelimit", mid, *args)
        assert code == 2 and out.startswith(words), out + err  # the decision that stands, first
        assert "the log alone gives (for comparison; the recorded decision stands):" in out
        assert "--facts" in err and "Traceback" not in err  # then the refusal, as before
    # review: any refusal of a field starting "facts" said the standing decision first, a syntax error
    # in typed --facts too: only the log's own lack of counts (TableFactsNeeded) is said after it
    code, out, err = run_in_process(db, "timelimit", mid, "--dry-run", "--facts", "garbage")
    assert code == 2 and "decided:" not in out and "garbage" in err, out + err
    with EventStore.open(str(db)) as store:
        assert [e.kind for e in Match(store, mid).events()].count("time.decision") == 1  # nothing more stored
