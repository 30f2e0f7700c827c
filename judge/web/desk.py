"""The server's view of the log: one long-lived Tournament per stream (its state folded forward
as events arrive), the follower that pulls the notification log, and writes with retry.

Concurrency: every route runs on the event loop and calls the library synchronously, so inside
one process there is one writer at a time and no lock. Across processes (several `serve` on one
PostgreSQL) the store's optimistic concurrency decides: a write that lost the race (ConflictError)
is done again against the new state, so each command is judged on the log as it is."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from engine.store import ConflictError, EventStore, MatchNotFound
from judge.tournament import Tournament
from judge.tournament.vocab import CREATED

from judge.web.auth import Grant
from judge.web.live import TABLE_PAGE_KINDS, Broker, match_topics, match_tournament_topics, topics_of
from judge.web.matches import MatchIndex

log = logging.getLogger("tablejudge.serve")
T = TypeVar("T")
RETRIES = 8


class Desk:
    def __init__(self, store: EventStore, poll_seconds: float = 0.25):
        self.store = store
        self.broker = Broker()
        self.poll_seconds = poll_seconds
        self._tournaments: dict[str, Tournament] = {}
        self.last_notification = self._head_notification()
        self.matches = MatchIndex(store)
        self.matches.load(self.last_notification)

    # --- reading --------------------------------------------------------------------------

    def tournament_ids(self) -> list[str]:
        return self.store.stream_ids(CREATED)

    def tournament(self, tid: str) -> Tournament:
        t = self._tournaments.get(tid)
        if t is None:
            try:
                t = Tournament(self.store, tid, "tablejudge serve")
            except MatchNotFound:
                raise KeyError(tid) from None
            self._tournaments[tid] = t
        return t

    # --- writing --------------------------------------------------------------------------

    def write(self, tid: str, grant: Grant, fn: Callable[[Tournament], T], *, actor: str | None = None) -> T:
        """Run a library command as `grant` (its actor and recorded_by); a lost race is retried
        on the new state. Then the followers are told at once (no wait for the next poll)."""
        t = self.tournament(tid).with_actor(actor or grant.actor, grant.recorded_by)
        for attempt in range(RETRIES):
            try:
                result = fn(t)
                break
            except ConflictError:
                if attempt == RETRIES - 1:
                    raise
        self.catch_up()
        return result

    # --- following the notification log ------------------------------------------------------

    def _head_notification(self) -> int:
        last = 0
        while True:
            page = self.store.notifications(last + 1, 1000)
            if not page:
                return last
            last = page[-1][0]

    def catch_up(self) -> int:
        """Pull the notification log from where we left it; fold each tournament's new events
        into its state and publish what changed. Returns how many notifications were read."""
        n = 0
        while True:
            page = self.store.notifications(self.last_notification + 1, 500)
            if not page:
                return n
            touched: dict[str, list[Any]] = {}
            for nid, event in page:
                self.last_notification = nid
                touched.setdefault(event.match, []).append(event)
            for stream, events in touched.items():
                if any([self.matches.note(e) for e in events]):
                    self._publish_match(stream, events)
                    continue
                if stream in self._tournaments:
                    self._tournaments[stream].state()  # reads and folds the new events
                created = events[0].kind == CREATED
                self.broker.publish(stream, topics_of(events, created), events[-1].position)
            n += len(page)

    def _publish_match(self, mid: str, events: list[Any]) -> None:
        """A recorded match moved: its pages (stream `mid`, topic `match`) and, in its tournament's
        stream, the judges' queue for a judge call or ruling (topic `calls`) and the player page of
        the match's table for a judge's act there (live.match_tournament_topics)."""
        self.broker.publish(mid, match_topics(events), events[-1].position)
        tid = self.matches.event_of.get(mid)
        if not tid or not any(e.kind in TABLE_PAGE_KINDS for e in events):  # a game event: its pages alone
            return
        try:
            st = self.tournament(tid).state()
        except (KeyError, ValueError):  # a match whose event label names no tournament here
            return
        table = next(((r.number, t) for r in st.rounds for t, m in r.matches.items() if m == mid), None)
        topics = match_tournament_topics(events, table)
        if topics:
            self.broker.publish(tid, topics, st.position)

    async def follow(self) -> None:
        """Poll the notification log forever (another process's writes reach our pages)."""
        while True:
            try:
                self.catch_up()
            except Exception:  # a dropped connection must not end the follower
                log.exception("following the notification log failed; retrying")
            await asyncio.sleep(self.poll_seconds)
