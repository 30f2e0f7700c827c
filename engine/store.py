"""The event log: one stream per match on the eventsourcing library's persistence.

The only module that touches the log's SQL. Events are stored as eventsourcing `StoredEvent`
rows (originator_id = match id, originator_version = position, topic = event kind, state = the
canonical JSON of the whole envelope), in the library's application recorder, so the global
notification log (rowid / notification_id) is there for read models to pull.

Append-only twice over: this class has no update or delete, and the database refuses them
(SQLite triggers; a PostgreSQL trigger function). Concurrency is optimistic: the library's
unique key (originator_id, originator_version) lets exactly one writer take a position.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlparse

from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.sqlite import SQLiteAggregateRecorder

from engine.canonical import GENESIS_HASH, canonical_bytes
from engine.events import Draft, RecordedEvent, now_iso

DEFAULT_DB = "tablejudge.db"
DB_ENV = "TABLEJUDGE_DB"
EVENTS_TABLE = "stored_events"
SNAPSHOTS_TABLE = "stored_snapshots"
MATCH_CREATED = "match.created"
CREATED_SUFFIX = ".created"  # every stream (match, tournament) starts with one


class StoreError(Exception):
    """Base of the store's errors: each message is meant for the person at the keyboard."""


class MatchNotFound(StoreError):
    pass


class HashMismatch(StoreError):
    """An input event's given hash is not the hash it gets here: altered after export."""

    def __init__(self, position: int, message: str):
        super().__init__(message)
        self.position = position


class ConflictError(StoreError):
    """Someone else took the position first. Nothing of this batch was stored; retry."""

    def __init__(self, match: str, position: int, detail: str = ""):
        msg = (
            f"conflict on match {match}: position {position} was taken by another writer "
            f"just now; nothing of this batch was stored. Look at the new events and retry."
        )
        super().__init__(msg + (f" ({detail})" if detail else ""))
        self.match = match
        self.position = position

    @classmethod
    def stale(cls, match: str, expected: int, head: int) -> "ConflictError":
        """`--expect N` but the log ends elsewhere: say how far, not "taken just now"."""
        err = cls(match, expected + 1)
        since = head - expected
        err.args = (f"conflict on match {match}: you expected the log to end at event {expected}, "
                    f"but it ends at event {head}"
                    + (f" ({since} event{'s' if since != 1 else ''} recorded since)" if since > 0 else "")
                    + "; nothing was stored. Look at the events and retry.",)
        return err


@dataclass
class ChainBreak:
    position: int
    reason: str


@dataclass
class VerifyReport:
    match: str
    events: int
    ok: bool
    head_hash: str
    guard_ok: bool
    guard_detail: str
    first_break: ChainBreak | None = None
    problems: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "events": self.events,
            "ok": self.ok,
            "head_hash": self.head_hash,
            "append_only_guard": self.guard_ok,
            "append_only_detail": self.guard_detail,
            "first_break": None if self.first_break is None else {
                "position": self.first_break.position, "reason": self.first_break.reason},
            "problems": self.problems,
        }


def describe_db(db: str | None) -> str:
    target = db or os.environ.get(DB_ENV) or DEFAULT_DB
    if target.startswith(("postgres://", "postgresql://")):
        u = urlparse(target)
        return f"postgresql://{u.hostname}:{u.port or 5432}/{u.path.lstrip('/')}"
    return target


def _env_for(db: str | None) -> dict[str, str]:
    """eventsourcing environment for a --db value: a SQLite path, a postgresql:// URL, or, when
    neither is given and PERSISTENCE_MODULE=eventsourcing.postgres is set, the library's own
    POSTGRES_* variables."""
    target = db or os.environ.get(DB_ENV)
    if not target and os.environ.get("PERSISTENCE_MODULE") == "eventsourcing.postgres":
        env = {k: v for k, v in os.environ.items() if k.startswith("POSTGRES_")}
        env["PERSISTENCE_MODULE"] = "eventsourcing.postgres"
    elif target and target.startswith(("postgres://", "postgresql://")):
        u = urlparse(target)
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": unquote(u.path.lstrip("/")),
            "POSTGRES_HOST": u.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(u.port or 5432),
            "POSTGRES_USER": unquote(u.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(u.password or ""),
            # a judge waiting on an unreachable server wants to hear so in seconds, not half a minute
            "POSTGRES_CONNECT_TIMEOUT": os.environ.get("POSTGRES_CONNECT_TIMEOUT", "5"),
        }
    else:
        path = target or DEFAULT_DB
        if path != ":memory:" and not path.startswith("file:"):
            parent = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(parent):
                raise StoreError(f"cannot open {path}: folder {parent} does not exist")
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path,
               "SQLITE_LOCK_TIMEOUT": "10"}
    env["ORIGINATOR_ID_TYPE"] = "text"
    env["CREATE_TABLE"] = "false"  # we create tables once, not on every open
    return env


class EventStore:
    """Append, read and verify match streams. Open with `EventStore.open(db)`."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        self.is_postgres = env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
        try:
            self.factory = InfrastructureFactory.construct(env)
            self.events = self.factory.application_recorder()
            self.snapshots = self.factory.aggregate_recorder("snapshots")
        except (PersistenceError, OSError) as e:
            raise StoreError(f"cannot open the event log: {e}") from e
        self.datastore = self.factory.datastore
        self._created: dict[str, RecordedEvent] = {}
        try:
            self._ensure_schema()
        except (PersistenceError, sqlite3.Error) as e:
            self.factory.close()
            raise StoreError(f"cannot open the event log {self.describe()}: {e}") from None

    @classmethod
    def open(cls, db: str | None = None) -> "EventStore":
        return cls(_env_for(db))

    def close(self) -> None:
        self.factory.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- schema ---------------------------------------------------------------------------

    def _ensure_schema(self) -> None:
        self.guard_restored = False
        if self._guard_present():
            return
        # Tables there but the guard gone means someone dropped the triggers: put them back, and
        # remember it, so that `verify` reports it instead of hiding it.
        self.guard_restored = self._events_table_exists()
        try:
            self.events.create_table()
            self.snapshots.create_table()
            with self._cursor(commit=True) as c:
                for statement in self._guard_statements():
                    c.execute(statement)
        except PersistenceError as e:
            raise StoreError(f"cannot prepare the event log: {e}") from e

    def _guard_statements(self) -> list[str]:
        if self.is_postgres:
            return [
                "CREATE OR REPLACE FUNCTION tablejudge_refuse_change() RETURNS trigger "
                "LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION "
                "'tablejudge: the event log is append-only (% refused)', TG_OP; END $$",
                f"CREATE OR REPLACE TRIGGER tablejudge_no_update BEFORE UPDATE OR DELETE ON "
                f"{EVENTS_TABLE} FOR EACH ROW EXECUTE FUNCTION tablejudge_refuse_change()",
                f"CREATE OR REPLACE TRIGGER tablejudge_no_truncate BEFORE TRUNCATE ON "
                f"{EVENTS_TABLE} FOR EACH STATEMENT EXECUTE FUNCTION tablejudge_refuse_change()",
            ]
        return [
            f"CREATE TRIGGER IF NOT EXISTS tablejudge_no_update BEFORE UPDATE ON {EVENTS_TABLE} "
            "BEGIN SELECT RAISE(ABORT, 'tablejudge: the event log is append-only (UPDATE refused)'); END",
            f"CREATE TRIGGER IF NOT EXISTS tablejudge_no_delete BEFORE DELETE ON {EVENTS_TABLE} "
            "BEGIN SELECT RAISE(ABORT, 'tablejudge: the event log is append-only (DELETE refused)'); END",
        ]

    def guard_triggers(self) -> list[str]:
        """Names of the append-only triggers found on the events table."""
        try:
            with self._cursor(commit=False) as c:
                if self.is_postgres:
                    c.execute(
                        "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D' "
                        "AND tgrelid = to_regclass(%s)", (EVENTS_TABLE,))
                    rows = c.fetchall()
                    return sorted(r["tgname"] for r in rows)
                c.execute("SELECT name FROM sqlite_master WHERE type='trigger' AND tbl_name=?",
                          (EVENTS_TABLE,))
                return sorted(r["name"] for r in c.fetchall())
        except PersistenceError:
            return []

    def _events_table_exists(self) -> bool:
        with self._cursor(commit=False) as c:
            if self.is_postgres:
                c.execute("SELECT to_regclass(%s) AS t", (EVENTS_TABLE,))
                return c.fetchone()["t"] is not None
            c.execute("SELECT name FROM sqlite_master WHERE type='table' AND name=?", (EVENTS_TABLE,))
            return c.fetchone() is not None

    def _guard_present(self) -> bool:
        names = set(self.guard_triggers())
        wanted = {"tablejudge_no_update", "tablejudge_no_truncate"} if self.is_postgres else {
            "tablejudge_no_update", "tablejudge_no_delete"}
        return wanted <= names

    @contextmanager
    def _cursor(self, *, commit: bool) -> Iterator[Any]:
        with self.datastore.transaction(commit=commit) as c:
            yield c

    # --- writing --------------------------------------------------------------------------

    def append(self, match: str, drafts: Sequence[Draft], *, expected_position: int | None = None,
               expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        """Append drafts as one atomic batch after the current head (or after
        `expected_position`, which must be the head). All or nothing."""
        if not drafts:
            return []
        head = self.head(match)
        if head is None:
            raise MatchNotFound(f"no match {match!r} in {self.describe()}")
        if expected_position is not None and expected_position != head.position:
            raise ConflictError.stale(match, expected_position, head.position)
        return self.append_after(match, head, drafts, expected_hashes=expected_hashes)

    def append_after(self, match: str, head: RecordedEvent, drafts: Sequence[Draft], *,
                     expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        """Append after `head`, an event the caller read earlier. If another writer has appended
        since, the store's unique key refuses the batch: ConflictError, nothing stored."""
        if any(d.kind.endswith(CREATED_SUFFIX) for d in drafts):
            raise ValueError("a '.created' event can only be event 1")
        return self._insert(match, head.position, head.hash, drafts, expected_hashes)

    def create(self, match: str, drafts: Sequence[Draft], *,
               expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        """Start a stream: its `<thing>.created` event at position 1 (`match.created` for a match,
        `tournament.created` for a tournament), then any further drafts, atomically."""
        if not drafts or not drafts[0].kind.endswith(CREATED_SUFFIX):
            raise ValueError("a stream starts with a '.created' event")
        if any(d.kind.endswith(CREATED_SUFFIX) for d in drafts[1:]):
            raise ValueError("a '.created' event can only be event 1")
        try:
            return self._insert(match, 0, GENESIS_HASH, drafts, expected_hashes)
        except ConflictError:
            raise StoreError(f"a match with id {match!r} already exists in {self.describe()}") from None

    def create_many(self, streams: Sequence[tuple[str, Sequence[Draft]]]) -> list[list[RecordedEvent]]:
        """Start several streams in one transaction, all or none: a bulk import's batch (one
        commit for many matches), or one file that holds several games. ConflictError if any of
        the ids is taken (nothing stored)."""
        for _, drafts in streams:
            if not drafts or not drafts[0].kind.endswith(CREATED_SUFFIX):
                raise ValueError("a stream starts with a '.created' event")
            if any(d.kind.endswith(CREATED_SUFFIX) for d in drafts[1:]):
                raise ValueError("a '.created' event can only be event 1")
        if len({m for m, _ in streams}) != len(streams):
            raise ValueError("create_many: the same id twice")
        sealed = [self._seal(match, 0, GENESIS_HASH, drafts) for match, drafts in streams]
        try:
            self._write([row for _, rows in sealed for row in rows])
        except IntegrityError as e:
            raise ConflictError(streams[0][0] if len(streams) == 1 else "(one of the batch)", 1,
                                "a stream with one of these ids already exists") from e
        except OperationalError as e:
            raise StoreError(f"the event log is busy or unavailable ({e}); nothing was stored") from e
        for (match, _), (events, _) in zip(streams, sealed):
            self._created[match] = events[0]
        return [events for events, _ in sealed]

    def _insert(self, match: str, head_position: int, head_hash: str, drafts: Iterable[Draft],
                expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        sealed, stored = self._seal(match, head_position, head_hash, drafts, expected_hashes)
        try:
            self._write(stored)
        except IntegrityError as e:
            raise ConflictError(match, head_position + 1) from e
        except OperationalError as e:
            raise StoreError(f"the event log is busy or unavailable ({e}); nothing was stored") from e
        if head_position == 0:
            self._created[match] = sealed[0]
        return sealed

    def _seal(self, match: str, head_position: int, head_hash: str, drafts: Iterable[Draft],
              expected_hashes: Sequence[str | None] | None = None
              ) -> tuple[list[RecordedEvent], list[StoredEvent]]:
        """The drafts as events chained after (head_position, head_hash), and their stored rows."""
        sealed: list[RecordedEvent] = []
        stored: list[StoredEvent] = []
        prev, position = head_hash, head_position
        fallback_time = now_iso()
        for d in drafts:
            position += 1
            event, data = RecordedEvent.seal_with_bytes(
                match=match, position=position, kind=d.kind, version=d.version, actor=d.actor,
                payload=d.payload, recorded_at=d.recorded_at or fallback_time,
                recorded_by=d.recorded_by, prev_hash=prev)
            if expected_hashes is not None and expected_hashes[len(sealed)] not in (None, event.hash):
                raise HashMismatch(position,
                    f"event {position}: its hash differs from the one given "
                    f"({expected_hashes[len(sealed)][:12]}... vs {event.hash[:12]}...): the input was "
                    "altered after it was exported, or belongs to another chain; nothing was stored")
            prev = event.hash
            sealed.append(event)
            stored.append(StoredEvent(match, position, d.kind, data))
        return sealed, stored

    def _write(self, stored: list[StoredEvent]) -> None:
        if self.is_postgres:
            self.events.insert_events(stored)
            return
        # SQLite: the library's aggregate-recorder insert (one executemany) into the same table, in
        # the library's own transaction. The application recorder inserts row by row only to return
        # the new notification ids, which we do not use; rowids are assigned in the same order.
        with self.datastore.transaction(commit=True) as c:
            SQLiteAggregateRecorder._insert_events(self.events, c, stored)

    # --- reading --------------------------------------------------------------------------

    def read(self, match: str, *, after: int = 0, upto: int | None = None) -> list[RecordedEvent]:
        """Events of a match with after < position <= upto, in order."""
        rows = self.events.select_events(match, gt=after or None, lte=upto)
        return [RecordedEvent.from_dict(json.loads(r.state)) for r in rows]

    def read_raw(self, match: str) -> list[StoredEvent]:
        return list(self.events.select_events(match))

    def head(self, match: str) -> RecordedEvent | None:
        rows = self.events.select_events(match, desc=True, limit=1)
        return RecordedEvent.from_dict(json.loads(rows[0].state)) if rows else None

    def created(self, match: str) -> RecordedEvent:
        """The stream's first ('.created') event (cached: it never changes)."""
        if match not in self._created:
            rows = self.events.select_events(match, lte=1)
            if not rows:
                raise MatchNotFound(f"no match {match!r} in {self.describe()}")
            self._created[match] = RecordedEvent.from_dict(json.loads(rows[0].state))
        return self._created[match]

    def match_ids(self) -> list[str]:
        """Every match, in creation order, by pulling the notification log for match.created."""
        return self.stream_ids(MATCH_CREATED)

    def stream_ids(self, created_kind: str) -> list[str]:
        """Every stream started by `created_kind`, in creation order (from the notification log)."""
        ids: list[str] = []
        start = 1
        while True:
            page = self.events.select_notifications(start, 500, topics=[created_kind])
            ids.extend(str(n.originator_id) for n in page)
            if len(page) < 500:
                return ids
            start = page[-1].id + 1

    def event_counts(self) -> dict[str, int]:
        with self._cursor(commit=False) as c:
            c.execute(f"SELECT originator_id, MAX(originator_version) AS n FROM {EVENTS_TABLE} "
                      "GROUP BY originator_id")
            return {str(r["originator_id"]): int(r["n"]) for r in c.fetchall()}

    def resolve(self, ref: str) -> str:
        """A match id from a full id or an unambiguous prefix (at least 4 characters)."""
        if self.events.select_events(ref, lte=1):
            return ref
        if len(ref) >= 4:
            hits = [m for m in self.match_ids() if m.startswith(ref)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise MatchNotFound(f"{ref!r} is ambiguous: {', '.join(hits[:5])}")
        raise MatchNotFound(f"no match {ref!r} in {self.describe()} (see `tablejudge matches`)")

    def notifications(self, start: int = 1, limit: int = 1000,
                      kinds: Sequence[str] | None = None) -> list[tuple[int, RecordedEvent]]:
        """The global notification log, for read models: (notification id, event). `kinds`: only
        events of these kinds (the library's notification topic is the event's kind)."""
        return [(n.id, RecordedEvent.from_dict(json.loads(n.state)))
                for n in self.events.select_notifications(start, limit, topics=list(kinds or ()))]

    def describe(self) -> str:
        if self.is_postgres:
            return f"postgresql://{self.env['POSTGRES_HOST']}:{self.env['POSTGRES_PORT']}/{self.env['POSTGRES_DBNAME']}"
        return self.env["SQLITE_DBNAME"]

    # --- snapshots (a cache of derived state; never the source of truth) --------------------

    def save_snapshot(self, match: str, key: str, position: int, state: dict[str, Any]) -> None:
        try:
            self.snapshots.insert_events(
                [StoredEvent(f"{match}/{key}", position, key, canonical_bytes(state))])
        except IntegrityError:
            pass  # another process saved the same snapshot: it is the same state

    def snapshot_at_or_before(self, match: str, key: str, position: int) -> tuple[int, dict] | None:
        rows = self.snapshots.select_events(f"{match}/{key}", lte=position, desc=True, limit=1)
        if not rows:
            return None
        return rows[0].originator_version, json.loads(rows[0].state)

    def snapshot_positions(self, match: str, key: str) -> list[int]:
        return [r.originator_version for r in self.snapshots.select_events(f"{match}/{key}")]

    # --- integrity ------------------------------------------------------------------------

    def verify(self, match: str) -> VerifyReport:
        """Recompute the hash chain from the stored rows; name the first broken link."""
        rows = self.read_raw(match)
        if not rows:
            raise MatchNotFound(f"no match {match!r} in {self.describe()}")
        guard = self.guard_triggers()
        guard_ok = self._guard_present() and not self.guard_restored
        if self.guard_restored:
            guard_detail = ("the append-only triggers were missing when this log was opened (someone "
                            "dropped them; they are restored now): rows may have been changed meanwhile")
        elif guard_ok:
            guard_detail = "UPDATE and DELETE are refused by the database (" + ", ".join(guard) + ")"
        else:
            guard_detail = "the append-only triggers are missing: the database would accept UPDATE/DELETE"
        prev = GENESIS_HASH
        first_break: ChainBreak | None = None
        problems: list[str] = []
        for expected, row in enumerate(rows, start=1):
            reason = _check_row(row, expected, match, prev)
            if reason:
                first_break = ChainBreak(row.originator_version, reason)
                break
            prev = json.loads(row.state)["hash"]
        if first_break is None and len(rows) and not rows[0].topic.endswith(CREATED_SUFFIX):
            first_break = ChainBreak(1, "the first event does not create the stream")
        if not guard_ok:
            problems.append(guard_detail)
        if first_break:
            problems.append(f"broken link at position {first_break.position}: {first_break.reason}")
        return VerifyReport(match=match, events=len(rows), ok=first_break is None and guard_ok,
                            head_hash=prev if first_break is None else "", guard_ok=guard_ok,
                            guard_detail=guard_detail, first_break=first_break, problems=problems)


def _check_row(row: StoredEvent, expected: int, match: str, prev: str) -> str | None:
    if row.originator_version != expected:
        return f"position {expected} is missing (next stored is {row.originator_version})"
    try:
        d = json.loads(row.state)
        event = RecordedEvent.from_dict(d)
    except (ValueError, KeyError, TypeError) as e:
        return f"the stored event cannot be read ({e})"
    if event.match != match or event.position != row.originator_version:
        return "the event says it belongs elsewhere (match or position differ from its row)"
    if event.kind != row.topic:
        return f"the row's kind {row.topic!r} differs from the event's {event.kind!r}"
    if event.prev_hash != prev:
        return "prev_hash does not match the hash of the event before it"
    if event.computed_hash() != event.hash:
        return "the event's content does not match its hash (edited after it was recorded)"
    if canonical_bytes(d) != bytes(row.state):
        return "the stored bytes are not in canonical form (edited after it was recorded)"
    return None
