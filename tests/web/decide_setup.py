"""A recorded match whose end-of-time decision is out of date, on a served log, for the "Decide
again" tests (tests/web/test_decide_again.py, test_browser_decide_again.py): as
tests/desk/test_stale_decision.py builds one, in a tournament so judges' links reach it."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.desk.timelimit import run
from tests.conftest import run_in_process
from tests.rulesets.optcg.test_optcg_time_policies import game
from tests.web.conftest import Api, new_event


def played(api: Api, db: str, *, decks: bool = True) -> tuple[str, str]:
    """An optcg event of Ann and Bob, their match played past its time call (Life 4-4 after turn 6;
    `decks`: registered, else the log does not know their sizes). (tid, match.)"""
    tid = new_event(api, 0, game="optcg", policy="bandai")
    api.do(tid, "register", names="Ann\nBob")
    api.do(tid, "pair")
    mid = next(iter(api.do(tid, "create_matches")["matches"].values()))
    with EventStore.open(db) as store:
        m = Match(store, mid)
        for kind, actor, payload in game():
            if decks or kind != "deck.registered":
                m.record(kind, payload, actor=actor)
    return tid, mid


def stale_match(api: Api, db: str) -> tuple[str, str, int]:
    """`played`, decided at the terminal (Ann wins, bandai, last-life), then a correction voids
    Ann's Life card taken in turn 4: the decision is out of date. (tid, match, its position.)"""
    tid, mid = played(api, db)
    with EventStore.open(db) as store:
        m = Match(store, mid)
        decision = run(m).recorded.position
        taken = next(e.position for e in m.events() if e.kind == "life.taken" and e.payload["player"] == "Ann")
        m.record("correction", {"voids": taken, "reason": "no damage was dealt"}, actor="judge:Zoe")
    return tid, mid, decision


def result_out_of_date(api: Api, db: str) -> tuple[str, str]:
    """`played`, decided at the terminal, its result taken into the tournament, then the same
    correction as `stale_match`: the result rests on a decision now out of date. (tid, match.)"""
    tid, mid = played(api, db)
    with EventStore.open(db) as store:
        run(Match(store, mid))
    code, out, err = run_in_process(db, "tournament", "result", tid, "--match", mid)
    assert code == 0, out + err
    with EventStore.open(db) as store:
        m = Match(store, mid)
        taken = next(e.position for e in m.events() if e.kind == "life.taken" and e.payload["player"] == "Ann")
        m.record("correction", {"voids": taken, "reason": "no damage was dealt"}, actor="judge:Zoe")
    return tid, mid


def decisions(db: str, mid: str) -> list:
    with EventStore.open(db) as store:
        return [e for e in store.read(mid) if e.kind == "time.decision"]


def head(db: str, mid: str) -> int:
    with EventStore.open(db) as store:
        return store.head(mid).position
