"""A tournament with recorded matches on a real server, for the match tests: an optcg event paired,
each table's match created, and a table's match given the setup a scorekeeper finds when play
begins (both decks registered with their card facts, who goes first, opening hands, Life)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from engine.match import Match
from engine.store import EventStore
from tests.rulesets.optcg.support import registration
from tests.web.conftest import Api, new_event

OPENING_A = ["OP01-013", "OP01-016", "OP01-025", "ST01-006", "OP01-029"]
OPENING_B = ["ST01-006", "OP01-016", "OP01-013", "OP01-029", "OP01-024"]


def optcg_event(api: Api, players: int = 4) -> tuple[str, dict[int, str]]:
    """An optcg tournament, round 1 paired, a recorded match per table: (tid, table -> match)."""
    tid = new_event(api, players, game="optcg", policy="bandai")
    api.do(tid, "pair")
    made = api.do(tid, "create_matches")["matches"]
    return tid, {int(t): m for t, m in made.items()}


@contextmanager
def served_match(tmp_path, artifacts: str) -> Iterator[tuple]:
    """A real server on a fresh log with an optcg event (round 1 paired, a match per table), table
    1's match set up, and a browser: (hall, db, server, browser, api, tid, mid). The hall collects
    the pages' console errors and takes screenshots into `artifacts`."""
    from tests.browser import browser
    from tests.web.hall import Hall
    from tests.web.server import Server

    hall = Hall(artifacts)
    db = str(tmp_path / "event.db")
    with Server(db) as server, browser() as b:
        api = Api(server.url, server.token)
        tid, matches = optcg_event(api)
        mid = matches[1]
        set_up(db, mid)
        yield hall, db, server, b, api, tid, mid


def set_up(db: str, mid: str, *, hands_seen: bool = True) -> list[str]:
    """The match's setup, as the organizer's desk registers decks and a scorekeeper records the
    opening (in this process, on the same log: the server follows it). Returns the players."""
    with EventStore.open(db) as store:
        m = Match(store, mid)
        a, b = m.players
        m.record("deck.registered", registration(a), actor=a, recorded_by="desk")
        m.record("deck.registered", registration(b), actor=b, recorded_by="desk")
        m.record("turn.order", {"first": a, "chosen_by": a}, actor=a, recorded_by="desk")
        for p, cards in ((a, OPENING_A), (b, OPENING_B)):
            m.record("draw", {"player": p, "count": 5, **({"cards": cards} if hands_seen else {})}, actor=p,
                     recorded_by="desk")
        for p in (a, b):
            m.record("mulligan", {"player": p, "decision": "keep"}, actor=p, recorded_by="desk")
        for p in (a, b):
            m.record("life.placed", {"player": p, "count": 5}, actor=p, recorded_by="desk")
        return [a, b]


def recorder_link(server, name: str = "Sam") -> tuple[str, str]:
    """An optcg event paired, its first table's match created (no deck registered, as from a
    pairing) and a recorder link for it named `name`: (match, token)."""
    api = Api(server.url, server.token)
    tid = new_event(api, 4, game="optcg")
    api.do(tid, "pair")
    mid = next(iter(api.do(tid, "create_matches")["matches"].values()))
    return mid, mint(api, tid, "recorder", name, match=mid)


def mint(api: Api, tid: str, role: str, name: str, **extra) -> str:
    """A minted link's token (recorder links name their match)."""
    link = api.do(tid, "mint", role=role, name=name, **extra)["link"]
    return re.search(r"k=([^&]+)", link).group(1)
