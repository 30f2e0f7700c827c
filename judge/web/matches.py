"""The server's view of recorded matches: which tournament each belongs to (its `match.created`
names the tournament as its event), the judge calls, rulings and corrections of each (the judges'
queue), the Match objects (each keeps its live table, so recording a line does not replay), and the
walked timelines (boards and findings for the replay and the recorder), kept until the log moves.

Kept current by the desk's follower: `note(event)` for each notification. Built once at start-up
from the store's notifications of the kinds it keeps (one pass by kind, not the whole log)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine.events import RecordedEvent
from engine.match import Match
from engine.state import TableState
from engine.store import EventStore, MatchNotFound, NotAMatch
from judge.desk.calls import CALL_KINDS, call_queue
from judge.replay.timeline import Timeline, table_known_to, walk

MATCH_CREATED = "match.created"
TIMELINES_KEPT = 64


class LogRead:
    """One request's look at a match: its head, read once, and its log up to that head, read at most
    once and only if a cache below is stale, so the pages that use the log several ways (the
    timeline, the table as a recorder's link knows it) share one read."""

    def __init__(self, match: Match):
        self.match = match
        self.head = match.head_position()
        self._events: list[RecordedEvent] | None = None

    def events(self) -> list[RecordedEvent]:
        if self._events is None:
            self._events = self.match.store.read(self.match.id, upto=self.head)
        return self._events


class MatchIndex:
    def __init__(self, store: EventStore):
        self.store = store
        self.event_of: dict[str, str | None] = {}
        self.desk_events: dict[str, list[RecordedEvent]] = {}
        self._matches: dict[str, Match] = {}
        self._timelines: OrderedDict[tuple[str, bool], Timeline] = OrderedDict()
        self._known: OrderedDict[tuple[str, str], tuple[int, TableState]] = OrderedDict()
        self.event_db = store.describe()  # where cards.db is looked for (beside a SQLite log)

    def load(self, upto: int) -> None:
        """Read the kinds this index keeps from the notification log, up to notification `upto`."""
        start = 1
        while start <= upto:
            page = self.store.notifications(start, 500, kinds=(MATCH_CREATED,) + CALL_KINDS)
            for nid, e in page:
                if nid > upto:
                    return
                self.note(e)
            if len(page) < 500:
                return
            start = page[-1][0] + 1

    def note(self, e: RecordedEvent) -> bool:
        """Take in one new event; True if it belongs to a recorded match."""
        if e.kind == MATCH_CREATED:
            self.event_of[e.match] = e.payload.get("event")
            return True
        if e.match not in self.event_of:
            return False
        if e.kind in CALL_KINDS:
            self.desk_events.setdefault(e.match, []).append(e)
        return True

    # --- reading ------------------------------------------------------------------------------

    def tournament_of(self, mid: str) -> str | None:
        if mid not in self.event_of:
            try:
                self.event_of[mid] = self.store.created(mid).payload.get("event")
            except MatchNotFound:
                raise KeyError(mid) from None
        return self.event_of[mid]

    def match(self, mid: str) -> Match:
        m = self._matches.get(mid)
        if m is None:
            try:
                created = self.store.created(mid)
            except MatchNotFound:
                raise KeyError(mid) from None
            if created.kind != MATCH_CREATED:  # a tournament's id: say so, and where its pages are
                thing = NotAMatch(mid, created.kind)
                raise NotAMatch(mid, created.kind, f"{thing}" + (
                    f": its pages are under /t/{mid}" if created.kind == "tournament.created" else ""))
            m = Match(self.store, mid)
            self._matches[mid] = m
        return m

    def read(self, mid: str) -> LogRead:
        """A request's look at match `mid` (KeyError: no such match), to pass to the readers below."""
        return LogRead(self.match(mid))

    def timeline(self, mid: str, *, hidden: bool, read: LogRead | None = None) -> Timeline:
        """The match walked event by event (hidden: as a scorekeeper sees it), cached until it moves."""
        read = read or self.read(mid)
        key = (mid, hidden)
        tl = self._timelines.get(key)
        if tl is None or tl.head != read.head:
            tl = walk(read.match, hidden=hidden, event_db=self.event_db, events=read.events())
            self._timelines[key] = tl
        self._timelines.move_to_end(key)
        while len(self._timelines) > TIMELINES_KEPT:
            self._timelines.popitem(last=False)
        return tl

    def table_known_to(self, mid: str, recorded_by: str, read: LogRead | None = None) -> TableState:
        """The table now as one recorder's link knows it (hidden cards hidden, but those its own
        lines named), for its buttons; cached until the log moves. A link that recorded nothing
        knows what any viewer does: the hidden timeline's table."""
        read = read or self.read(mid)
        m, head = read.match, read.head
        key = (mid, recorded_by)
        hit = self._known.get(key)
        if hit is None or hit[0] != head:
            log = read.events()
            if any(e.recorded_by == recorded_by for e in log[1:]):
                state = table_known_to(m, recorded_by, log)
            else:
                state = self.timeline(mid, hidden=True, read=read).state
            hit = self._known[key] = (head, state)
        self._known.move_to_end(key)
        while len(self._known) > TIMELINES_KEPT:
            self._known.popitem(last=False)
        return hit[1]

    def calls(self, match_ids: list[str]) -> list[dict[str, Any]]:
        """The judges' queue for these matches (a tournament's), open calls first."""
        return call_queue(self.store, {m: self.desk_events.get(m, []) for m in match_ids if m in self.desk_events})
