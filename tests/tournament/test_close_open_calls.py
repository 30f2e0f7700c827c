"""Closing a round with a judge call still open (QA76 9): the round closed and the call only moved
to "unanswered calls from closed rounds", nobody told. Closing warns, naming each call's table,
caller, time and reason (and, on the command line, its match and event for `judge ruling --call`),
and still closes: a judge may have answered at the table without tapping Answered."""
from __future__ import annotations

import json

from engine.store import EventStore
from judge.tournament import rounds
from judge.tournament.aggregate import Tournament
from tests.conftest import run_in_process


def _round_with_calls(db) -> tuple[str, dict[int, str]]:
    """A 4-player optcg round, a match per table, every result in; table 2's match has a call that
    stands and table 1's a call a ruling answered."""
    with EventStore.open(str(db)) as store:
        t = Tournament.create(store, name="Cup", game="optcg", seed="7", rounds=2)
        for p in ("Ann", "Bob", "Cid", "Dan"):
            t.register(p)
        t.pair()
        tables = rounds.create_matches(t, ruleset="optcg")
        for table in tables:
            t.record_slip("1-0", table=table)
        return t.id, tables


def test_closing_a_round_warns_of_each_open_call_and_closes(tmp_path):
    db = tmp_path / "t.db"
    tid, tables = _round_with_calls(db)
    for table, reason in ((1, "answered one"), (2, "slow play")):
        code, out, err = run_in_process(db, "judge", "call", tables[table], "--caller", "Ann", "--reason", reason)
        assert code == 0, out + err
    code, out, err = run_in_process(db, "judge", "ruling", tables[1], "-j", "Kim", "--text", "fine", "--call", "2")
    assert code == 0, out + err

    code, out, err = run_in_process(db, "tournament", "close", tid, "--json")
    assert code == 0, out + err
    body = json.loads(out)
    assert body["round"] == 1 and len(body["warnings"]) == 1, body
    warning = body["warnings"][0]
    assert warning.startswith("1 judge call still open: table 2 (Ann, ") and "“slow play”" in warning, warning
    assert f"match {tables[2]}, event 2)" in warning and "answered one" not in warning
    assert "`tablejudge judge ruling MATCH --call N`" in warning
    assert f"warning: {warning}" in err  # and on stderr, out of the JSON
    with EventStore.open(str(db)) as store:  # closed all the same: a warning, not a refusal
        assert any(e.kind == "round.closed" for e in Tournament.open(store, tid).events())


def test_closing_a_round_without_open_calls_says_nothing_more(tmp_path):
    db = tmp_path / "t.db"
    tid, _ = _round_with_calls(db)
    code, out, err = run_in_process(db, "tournament", "close", tid, "--json")
    body = json.loads(out)
    assert code == 0 and body["warnings"] == [] and body["seal"] and "warning" not in err, out + err
