"""The event log: one stream per match (and per tournament) on the eventsourcing library's persistence.

The only module that touches the log's SQL. Events are stored as eventsourcing `StoredEvent`
rows (originator_id = stream id, originator_version = position, topic = event kind, state = the
canonical JSON of the whole envelope), in the library's application recorder, so the global
notification log (rowid / notification_id) is there for read models to pull.

Append-only twice over: this class has no update or delete, and the database refuses them (the
guard, engine/guard.py). The guard is checked when the log is opened and before each write; if
it is not intact, writes are refused until `tablejudge verify --repair`. Concurrency is
optimistic: the library's unique key (originator_id, originator_version) lets exactly one writer
take a position. The first event of each write carries a random `write_id`, so a writer whose
connection broke mid-append learns whether its write landed instead of storing it twice.

A database is opened only if it is empty (a new log is made) or already a tablejudge log.
"""
from __future__ import annotations

import gc
import json
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple
from urllib.parse import quote

from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
    StoredEvent,
)

from engine import backend, guard
from engine.backend import DB_ENV, DEFAULT_DB, BackendError, Target, describe_db  # noqa: F401 (re-exported)
from engine.canonical import GENESIS_HASH, canonical_bytes, sha256_hex
from engine.events import (TABLE_ACTOR, Draft, RecordedEvent, chain, default_recorder_name,
                           envelope_parts, new_tuple, now_iso)
from engine.guard import EVENTS_TABLE, META_TABLE, REPAIR_HINT, SNAPSHOTS_TABLE, GuardStatus
from engine.schema import shown
from engine.writer import SQLiteWriter, persistence_error

MATCH_CREATED = "match.created"
CREATED_SUFFIX = ".created"  # every stream (match, tournament) starts with one
# Streams other than matches that a prefix given for a match may name: the id comes back, and
# reading it as a match says what it is (NotAMatch: "... is a tournament, not a match"), not "no match".
PREFIXED_STREAMS = ("tournament.created",)
MIN_TOURNAMENT_PREFIX = 3  # as `tournament show` (judge/tournament/aggregate.py) takes one
LOG_STREAM = "tablejudge:log"  # the log's own stream: guard incidents (no match id has a colon)
LOG_FORMAT = "tablejudge log 1"
# s2: snapshots carry the hash of the event they stand at. s3: the same, with the state's own
# hash under "hash" (not "state_hash"), so that "state" is the last key and its canonical bytes
# stand verbatim at the end of the row (see `snapshot_bytes`). s2 rows are never read again.
SNAPSHOT_FORMAT = "s3"
# A lost PostgreSQL connection is tried again with randomised exponential backoff: at most
# PG_ATTEMPTS tries within PG_RETRY_SECONDS (each try may itself wait up to the connect timeout).
PG_ATTEMPTS = 6
PG_RETRY_SECONDS = 12.0
PG_BACKOFF = 0.1  # seconds before the second try; doubles (with jitter) after each


PG_INSUFFICIENT_PRIVILEGE = "42501"  # SQLSTATE: permission denied, must be owner
PG_GRANTS_DOC = 'docs/integrity.md, "PostgreSQL roles and grants"'


class StoreError(Exception):
    """Base of the store's errors: each message is meant for the person at the keyboard."""


class MatchNotFound(StoreError):
    pass


class NotAMatch(MatchNotFound):
    """The id names a stream that is not a match (a tournament, the log's own): it has no table
    to replay. `thing` says what it is ("tournament"); the CLI adds, per command, where to look
    instead (judge/cli/streams.py)."""

    def __init__(self, stream: str, created_kind: str, message: str | None = None):
        self.stream = stream
        self.created_kind = created_kind
        self.thing = stream_thing(stream, created_kind)
        super().__init__(message or f"{shown(stream)} is {self.thing}, not a match")


def stream_thing(stream: str, created_kind: str) -> str:
    """What a stream is, in words with its article: "a tournament", "the log's own stream"."""
    if stream == LOG_STREAM:
        return "the log's own stream (guard incidents)"
    thing = created_kind[:-len(CREATED_SUFFIX)] if created_kind.endswith(CREATED_SUFFIX) else ""
    return f"a {thing}" if thing else f"a stream that starts with {shown(created_kind)}"


class NotALog(StoreError):
    """The database holds something else: tablejudge leaves other applications' data alone."""


class ReadOnlyLog(StoreError):
    """The log was opened read-only (an evidence copy): it can be read and verified, not written."""


class GuardBroken(StoreError):
    """The append-only guard is missing or altered: writes are refused until `verify --repair`."""


class ChainBroken(GuardBroken):
    """An append to a stream whose hash chain a recorded incident (`verify --repair`) found broken:
    refused for good, since every later event would rest on an edited log."""


def broken_words(stream: str, broken: dict[str, Any]) -> str:
    """A recorded broken chain (an entry of EventStore.broken_streams()) in words: the write's
    refusal and every read's warning say it alike."""
    return (f"The hash chain of {stream} is broken at event {broken['position']}: {broken['reason']}; "
            f"recorded by `verify --repair` as event {broken['incident']} of {LOG_STREAM}")


class StoreUnavailable(StoreError):
    """The database could not be reached (after retries); the message says whether anything was stored."""


class HashMismatch(StoreError):
    """An input event's given hash is not the hash it gets here: altered after export."""

    def __init__(self, position: int, message: str):
        super().__init__(message)
        self.position = position


def _hash_differs(position: int, given: str, digest: str) -> HashMismatch:
    return HashMismatch(position,
        f"event {position}: its hash differs from the one given ({str(given)[:12]}... vs "
        f"{digest[:12]}...): the input was altered after it was exported, or belongs to another "
        "chain; nothing was stored")


def _check_created(drafts: Sequence[Draft], *, opens: bool = True) -> None:
    """Drafts that open a stream (`opens`) start with its one `.created` event; any others hold none."""
    if opens and (not drafts or not drafts[0].kind.endswith(CREATED_SUFFIX)):
        raise ValueError("a stream starts with a '.created' event")
    # a loop, not any() over a generator and a slice: every live append passes here with one
    # draft, and this form takes 0.17 us there instead of 0.45 (issue 17)
    for d in (drafts[1:] if opens else drafts):
        if d.kind.endswith(CREATED_SUFFIX):
            raise ValueError("a '.created' event can only be event 1")


class Envelopes(NamedTuple):
    """Events of a new stream worked out elsewhere up to their one unknown, the hash of the event
    before each (a bulk import's worker processes: engine/events.py `envelope_parts`, at its
    position, with its time and write id), for `create_in_batches` to chain and store. Only what
    that needs: no drafts, no payloads, since these cross from a worker process to the writer:
    pickling, unpickling and rebuilding the drafts took ~6 us of CPU an event (worker and writer
    together, measured on 2 cores), these ~1.2."""

    kinds: Sequence[str]
    parts: Sequence[tuple[int, bytes, bytes, int]]  # each an EnvelopeParts (or the plain tuple of it)
    expected_hashes: Sequence[str | None]  # the hash each line gave (None: none given)


class StreamExists(StoreError):
    """`create` of a stream whose id the log already holds (nothing stored)."""

    def __init__(self, message: str, match: str):
        super().__init__(message)
        self.match = match


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


# What a hash chain alone cannot show: said by every `verify`, so nobody reads more into "ok".
UNKNOWABLE = [
    "a deleted tail (the last events of a stream) or a whole deleted stream leaves a shorter, valid "
    "chain: only an anchor (a head hash kept outside the log: `verify --anchor`) or a round seal "
    "(`verify --seal`) shows it",
    "someone who can write the database file (or owns the tables) can rewrite a stream and every "
    "hash after the change: again, only an anchor kept elsewhere shows it",
]


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
    head_position: int = 0  # the trusted head: 0 when the chain is broken
    stored_head: int = 0  # the last position stored, whatever the chain says of it
    checked: list[str] = field(default_factory=list)  # what was checked, in words
    unknowable: list[str] = field(default_factory=lambda: list(UNKNOWABLE))
    stale: list[int] = field(default_factory=list)  # time decisions failed only for being out of date

    def fail(self, problem: str) -> None:
        self.problems.append(problem)
        self.ok = False

    def verdict(self) -> str:
        """The word a report or round page shows: "verified", "decision out of date" (the log is
        intact; only a time decision waits to be decided again), or "FAILED"."""
        if self.ok:
            return "verified"
        return "decision out of date" if self.stale and len(self.problems) == len(self.stale) else "FAILED"

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match,
            "events": self.events,
            "ok": self.ok,
            "head_hash": self.head_hash,
            "head_position": self.head_position,
            "anchor": anchor_token(self.match, self.head_position, self.head_hash) if self.head_hash else None,
            "append_only_guard": self.guard_ok,
            "append_only_detail": self.guard_detail,
            "first_break": None if self.first_break is None else {
                "position": self.first_break.position, "reason": self.first_break.reason},
            "problems": self.problems,
            "checked": self.checked,
            "cannot_know": self.unknowable,
        }


def anchor_token(stream: str, position: int, hash_: str) -> str:
    """A head hash as it leaves the log (on a slip, a report, an export): `tablejudge verify
    --anchor TOKEN` later proves the log still holds it as a prefix."""
    return f"tj-anchor:{quote(stream, safe='')}@{position}:{hash_}"


@dataclass
class Snapshot:
    position: int
    event_hash: str
    state: dict[str, Any]


_WRITE_IDS_AT_ONCE = 64
_write_ids: Iterator[str] = iter(())  # ids drawn ahead from os.urandom, each handed out once


def new_write_id() -> str:
    """16 random hex digits, as secrets.token_hex(8) gives them: the same os.urandom bytes, drawn
    64 ids at a time. A live append runs this right after the previous append's fsync, when each
    system call costs most: one getrandom per 64 appends rather than one each took a write id
    from 2.4-3.6 to 1.2-1.9 us with the CPU caches flushed before each call, 0.9-1.2 -> 0.4-0.6
    warm (alternating in one process; issue 17). Safe to share: `next` on a list iterator is
    atomic under the GIL, so two threads never get the same id (a thread finding the batch spent
    draws a fresh one of its own), and a forked child drops what its parent drew
    (os.register_at_fork below), so two processes never hand out the same ids."""
    global _write_ids
    write_id = next(_write_ids, None)
    if write_id is None:
        text = os.urandom(8 * _WRITE_IDS_AT_ONCE).hex()
        ids = iter([text[i:i + 16] for i in range(0, len(text), 16)])
        write_id = next(ids)
        _write_ids = ids
    return write_id


def _forget_write_ids() -> None:
    global _write_ids
    _write_ids = iter(())


os.register_at_fork(after_in_child=_forget_write_ids)


_decode_text = json.JSONDecoder().decode  # text, not bytes: no encoding sniffing per call
_ENVELOPE = itemgetter("match", "position", "kind", "version", "actor", "payload", "recorded_at",
                       "recorded_by", "prev_hash", "hash")


def _event(d: dict[str, Any]) -> RecordedEvent:
    """An envelope dict into a RecordedEvent: the replay's hot path (one per event read), so the
    tuple is made directly rather than through the NamedTuple's keyword-checking constructor."""
    return new_tuple(RecordedEvent, (*_ENVELOPE(d), d.get("write_id")))


def recorded_events(raw: Sequence[tuple[StoredEvent, int]]) -> list[RecordedEvent]:
    """Rows from `read_raw` as the events `read` gives: one read of a stream can serve both a
    listing (or a replay) and `verify`."""
    return [_event(d) for d in _decode_all([row.state for row, _ in raw])]


def psycopg_errors() -> tuple[type[BaseException], ...]:
    import psycopg

    return (psycopg.Error,)


def _b(value: Any) -> bytes:
    """A stored state as bytes (a BLOB normally; TEXT if someone rewrote the row with SQL)."""
    if type(value) is bytes:
        return value
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)


class _no_gc_pauses:
    """The cyclic garbage collector held off while a read builds its events. Decoding a long
    stream allocates a few containers per event (the envelope, its payload, the event), none of
    which can form a cycle, yet each 700 allocations start a collection, every tenth a larger one
    and now and then a full one: a replay of 20,000 events ran 132 + 12 + 1 of them, 70-110 ms of
    its 400-500 ms (load 5); held off, it runs one. A/B, 2026-11-27, full replay against raw SELECT
    + json.loads of the same rows: 1.32 -> 0.90 (medians of five runs). Nothing is leaked: the
    collector runs as usual once the read is over. Process-wide, so it is turned back on only if
    it was on when this read began: with reads in several threads, the one that turned it off
    turns it on again, and a read that found it off leaves it to that one."""

    __slots__ = ("was",)

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()


def _decode_all(states: list[bytes]) -> list[dict[str, Any]]:
    """Many stored envelopes decoded in one pass of the JSON decoder (one call per row costs more
    than the decoding itself)."""
    if not states:
        return []
    return _decode_text("[" + b",".join(states).decode("utf-8", "surrogatepass") + "]")


class EventStore:
    """Append, read and verify streams. Open with `EventStore.open(db)`."""

    def __init__(self, target: Target | dict[str, str]):
        if isinstance(target, dict):  # an eventsourcing environment, as before
            target = Target(target, target.get("SQLITE_DBNAME") or target.get("POSTGRES_DBNAME", "?"))
        self.target = target
        self.env = target.env
        self.is_postgres = target.is_postgres
        self.read_only = target.read_only
        self.schema = self.env.get("POSTGRES_SCHEMA", "public") if self.is_postgres else ""
        self._created: dict[str, RecordedEvent] = {}
        self._guard_checked_at = 0.0
        self._broken: dict[str, dict[str, Any]] = {}  # broken_streams(), as of the incident stream's head
        self._broken_at = -1
        self._broken_checked_at = 0.0  # when _known_broken last read them (PostgreSQL)
        self._schema_version: int | None = None
        # (writer connection, its PRAGMA data_version, the writer's transaction count) when a
        # write's checks last passed: see _sqlite_write_checks
        self._checks_passed: tuple[Any, int, int] | None = None
        self._locked = False  # inside append_locked: this process holds the write lock
        self.guard_upgraded = False
        if self.is_postgres:
            self._probe_postgres()
        try:
            self.factory = InfrastructureFactory.construct(self.env)
            if target.libpq:  # a URL's libpq settings (sslmode=...): on every connection of the pool,
                # which opens on first use (the library takes host, port, user, dbname, password only)
                self.factory.datastore.pool.kwargs.update(target.libpq)
            self.events = self.factory.application_recorder()
            self.snapshots = self.factory.aggregate_recorder("snapshots")
        except (PersistenceError, OSError) as e:
            raise StoreError(self._connection_message(e)) from None
        self.datastore = self.factory.datastore
        # SQLite: our own writer connection (engine/writer.py says why); PostgreSQL writes go
        # through the library's statements (its table lock and NOTIFY).
        dbname = self.env.get("SQLITE_DBNAME", "")
        self._writer = (SQLiteWriter(dbname, float(self.env.get("SQLITE_LOCK_TIMEOUT", "10")))
                        if not self.is_postgres and not self.read_only and SQLiteWriter.usable(dbname)
                        else None)
        self._sql_setup()
        try:
            self._open_log()
        except (PersistenceError, sqlite3.Error) as e:
            self.factory.close()
            raise StoreError(self._privilege_refusal(e, f"read the log in schema {self.schema}") or
                             f"cannot open the event log {self.describe()}: {self._connection_message(e)}") from None
        except StoreError:
            self.factory.close()
            raise

    @classmethod
    def open(cls, db: str | None = None, *, create: bool = True) -> "EventStore":
        """The log `db` names. Without `create`, a SQLite file that does not exist is an error, not a
        new empty log (a mistyped --db would otherwise read as "nothing recorded")."""
        try:
            target = backend.resolve(db)
        except BackendError as e:
            raise StoreError(str(e)) from None
        if not create and target.file is not None and not os.path.exists(target.file):
            raise StoreError(f"no event log at {target.file}: nothing has been recorded there (check --db or "
                             "$TABLEJUDGE_DB; `match new`, `live new`, `import` or `tournament new` start one)")
        return cls(target)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self.factory.close()

    def __enter__(self) -> "EventStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return self.target.label

    # --- connecting -----------------------------------------------------------------------

    def _probe_postgres(self) -> None:
        """Connect once before the library's pool does: a wrong password, database, host or port
        is then named at once, not after the pool's timeout as "couldn't get a connection"."""
        try:
            import psycopg
        except ImportError:
            raise StoreError("PostgreSQL support is not installed: pip install 'tablejudge[postgres]'") from None
        env = self.env
        try:
            psycopg.connect(**backend.connect_kwargs(env, self.target.libpq)).close()
        except psycopg.Error as e:
            raise StoreError(backend.describe_failure(
                str(e), host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                user=env["POSTGRES_USER"], dbname=env["POSTGRES_DBNAME"])) from None
        except (ValueError, OSError) as e:
            raise StoreError(f"cannot connect to PostgreSQL at {self.describe()}: {e}") from None

    def _privilege_refusal(self, e: BaseException, doing: str, *, then: str = "", owner: bool = False) -> str | None:
        """PostgreSQL's refusal for want of a grant ("permission denied for schema public"), said
        as what the role may not do and where the grants are; None for any other error."""
        if not self.is_postgres:
            return None
        chain: list[BaseException] = []
        cause: BaseException | None = e
        while cause is not None and len(chain) < 5:
            chain.append(cause)
            cause = cause.__cause__ or cause.__context__
        if not any(getattr(c, "sqlstate", None) == PG_INSUFFICIENT_PRIVILEGE for c in chain) and \
                "permission denied" not in str(e) and "must be owner" not in str(e):
            return None
        role = self.env.get("POSTGRES_USER", "?")
        why = (f"A log is created once, by its owner: a role with CREATE on schema {self.schema} (the "
               "database's owner has it; for a new ?schema=, CREATE on the database); judges' machines then "
               "connect as a role granted only to read and append. " if owner else "")
        return (f"PostgreSQL role {role!r} may not {doing} of {self.describe()} ({_short(e)})"
                f"{'; ' + then if then else ''}. {why}The roles and the grants each needs: {PG_GRANTS_DOC}")

    def _connection_message(self, e: Exception) -> str:
        text = str(e)
        if self.is_postgres and ("couldn't get a connection" in text or "connection" in text.lower()):
            return backend.explain_connection_failure(self.env, self.target.libpq)
        if not self.is_postgres and "unable to open" in text:
            return f"cannot open {self.describe()} ({text})"
        return text

    def _sql_setup(self) -> None:
        """The statements this class issues itself (reads are its hot path; the library's
        recorders build an object per row, which costs more than the query)."""
        if self.is_postgres:
            s = guard._q(self.schema)
            ev, sn = f"{s}.{EVENTS_TABLE}", f"{s}.{SNAPSHOTS_TABLE}"
            from psycopg.rows import tuple_row

            self._tuple_rows = tuple_row
            self._p = "%s"
            self._order_col = "notification_id"
        else:
            ev, sn = EVENTS_TABLE, SNAPSHOTS_TABLE
            self._tuple_rows = None
            self._p = "?"
            self._order_col = "rowid"
        p = self._p
        self._t_events, self._t_snapshots = ev, sn
        self._q_states = f"SELECT state FROM {ev} WHERE originator_id = {p} AND originator_version > {p}"
        self._q_head = (f"SELECT state FROM {ev} WHERE originator_id = {p} "
                        "ORDER BY originator_version DESC LIMIT 1")
        self._q_insert = f"INSERT INTO {ev} VALUES ({p}, {p}, {p}, {p})"
        # a SQLite write's own checks, one read (~2 µs): the schema's version, the incident stream's head
        self._q_write_checks = (f"SELECT (SELECT schema_version FROM pragma_schema_version()), "
                                f"(SELECT max(originator_version) FROM {ev} WHERE originator_id = {p})")
        self._q_snapshot_insert = (f"INSERT INTO {sn} (originator_id, originator_version, topic, state) "
                                   f"VALUES ({p}, {p}, {p}, {p})")

    def _cursor(self, *, commit: bool) -> AbstractContextManager[Any]:
        """A transaction: a write (`commit`) on SQLite through the store's own writer, else the
        library's."""
        if commit and self._writer is not None:
            return self._writer.transaction()
        return self.datastore.transaction(commit=commit)

    def _query(self, sql: str, params: Sequence[Any] = (), *, named: bool = False,
               retry: bool = True) -> list[Any]:
        """A read, retried with backoff if a PostgreSQL connection breaks (reads are idempotent).
        Rows are tuples (or, with `named`, rows whose columns are also reachable by name)."""
        tries = _Tries(retry and self.is_postgres)
        while True:
            try:
                if not self.is_postgres:
                    return self._sqlite_rows(sql, params, named)
                with self._cursor(commit=False) as c:
                    if not named:
                        c.row_factory = self._tuple_rows
                    c.execute(sql, params)
                    return c.fetchall()
            except (OperationalError, InterfaceError) as e:
                if not tries.again():
                    raise StoreUnavailable(f"cannot read the event log {self.describe()} "
                                           f"({tries.said()}): {self._connection_message(e)}") from None
            except PersistenceError as e:  # a role without the grant to read the log
                refusal = self._privilege_refusal(e, "read the log")
                if refusal is None:
                    raise
                raise StoreError(refusal) from None

    def _sqlite_rows(self, sql: str, params: Sequence[Any], named: bool) -> list[Any]:
        """A read on SQLite: one statement on a connection of the library's pool, without the
        library's transaction around it. A lone SELECT in autocommit mode is its own read
        transaction (one consistent view of the file, ended when its last row is fetched), so the
        explicit BEGIN ... ROLLBACK added nothing but ~15 us a read: 25 -> 9 us for a one-row read,
        measured 2026-11-27; a moment deep in a log makes two reads. Errors come out as the
        library's persistence errors (as through its transaction), for `_query` to word."""
        try:
            with self.datastore.get_connection(commit=False) as conn, conn.cursor() as c:
                if not named:
                    c.row_factory = None
                c.execute(sql, params)
                return c.fetchall()
        except sqlite3.Error as e:
            raise persistence_error(e) from e

    # --- the database: ours, empty, or refused ---------------------------------------------

    def _open_log(self) -> None:
        tables, triggers = self._catalog()
        foreign = sorted(t for t in tables if t not in (EVENTS_TABLE, SNAPSHOTS_TABLE, META_TABLE))
        if not tables:
            if self.read_only:
                raise NotALog(f"{self.describe()} is empty and read-only: there is no log in it")
            self._create_log()
            return
        if foreign or EVENTS_TABLE not in tables or (META_TABLE not in tables and not self._legacy_log(tables, triggers)):
            what = f"it holds {', '.join(foreign[:5])}{', ...' if len(foreign) > 5 else ''}" if foreign else \
                "its tables are not a tablejudge log's"
            where = f" (schema {self.schema})" if self.is_postgres else ""
            raise NotALog(f"{self.describe()}{where} is not a tablejudge log: {what}. tablejudge opens "
                          "only an empty database or its own log, and changes nothing else: give "
                          "another --db" + (" or ?schema=NAME" if self.is_postgres else ""))
        self.guard = self._inspect(triggers)
        if self.guard.legacy and not self.read_only:
            self._upgrade_guard()

    def _catalog(self) -> tuple[set[str], list[Any]]:
        """(table names, triggers) of the database (SQLite) or of the log's schema (PostgreSQL)."""
        if self.is_postgres:
            # pg_class, not information_schema.tables: that one lists only the tables this role has a
            # grant on, and a log it may not read would look like an empty schema to create one in
            rows = self._query("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = %s AND c.relkind IN ('r', 'p', 'v', 'f')", (self.schema,))
            return {r[0] for r in rows}, []
        # the version first: a change between the two reads makes the next write look again
        with self._cursor(commit=False) as c:
            c.row_factory = None
            c.execute("PRAGMA schema_version")
            self._schema_version = c.fetchone()[0]
            c.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                      "WHERE type IN ('table', 'view', 'trigger')")
            rows = c.fetchall()
        tables = {r[1] for r in rows if r[0] in ("table", "view") and not r[1].startswith("sqlite_")}
        return tables, [(r[1], r[2], r[3]) for r in rows if r[0] == "trigger"]

    def _legacy_log(self, tables: set[str], triggers: list[Any]) -> bool:
        """A log made by tablejudge before it marked its logs: the events table holds envelopes."""
        if SNAPSHOTS_TABLE not in tables:
            return False
        rows = self._query(f"SELECT state FROM {self._t_events} LIMIT 1")
        if not rows:
            return True
        try:
            d = json.loads(_b(rows[0][0]))
            return isinstance(d, dict) and "prev_hash" in d and "hash" in d
        except ValueError:
            return False

    def _create_log(self) -> None:
        try:
            # the schema only if it is missing: CREATE SCHEMA IF NOT EXISTS asks for CREATE on the
            # database even when the schema is there (public always is)
            if self.is_postgres and not self._query("SELECT 1 FROM pg_namespace WHERE nspname = %s", (self.schema,)):
                with self._cursor(commit=True) as c:
                    c.execute(f"CREATE SCHEMA IF NOT EXISTS {guard._q(self.schema)}")
            self.events.create_table()
            self.snapshots.create_table()
            statements = guard.pg_install(self.schema) if self.is_postgres else guard.sqlite_install()
            with self._cursor(commit=True) as c:
                mt = f"{guard._q(self.schema)}.{META_TABLE}" if self.is_postgres else META_TABLE
                c.execute(f"CREATE TABLE IF NOT EXISTS {mt} (key TEXT PRIMARY KEY, value TEXT)")
                c.execute(f"INSERT INTO {mt} VALUES ({self._p}, {self._p})", ("format", LOG_FORMAT))
                for statement in statements:
                    c.execute(statement)
        except PersistenceError as e:
            raise StoreError(self._privilege_refusal(e, f"create a log in schema {self.schema}", owner=True) or
                             f"cannot prepare the event log {self.describe()}: {e}") from e
        self.guard = self.inspect_guard()

    def _upgrade_guard(self) -> None:
        """An older tablejudge's guard, intact: add what this version guards too (the snapshot
        table, REPLACE, ENABLE ALWAYS), and record that it happened."""
        statements = guard.pg_install(self.schema) if self.is_postgres else [
            sql for name, (_, sql) in guard.SQLITE_GUARD.items() if name not in guard.SQLITE_LEGACY]
        mt = f"{guard._q(self.schema)}.{META_TABLE}" if self.is_postgres else META_TABLE
        with self._cursor(commit=True) as c:
            for statement in statements:
                c.execute(statement)
            c.execute(f"CREATE TABLE IF NOT EXISTS {mt} (key TEXT PRIMARY KEY, value TEXT)")
            c.execute(f"INSERT INTO {mt} VALUES ({self._p}, {self._p})", ("format", LOG_FORMAT))
        self.guard = self.inspect_guard()
        self.guard_upgraded = True
        if self.guard.ok:
            self._log_incident("guard.upgraded", {
                "found": "the append-only guard of an older tablejudge, intact",
                "added": "guards on the snapshot table, INSERT OR REPLACE refused"
                         + (", triggers enabled ALWAYS" if self.is_postgres else "")})

    # --- the guard ------------------------------------------------------------------------

    def inspect_guard(self) -> GuardStatus:
        """Look at the guard now (not at what was found when the log was opened)."""
        if self.is_postgres:
            params = guard.pg_params(self.schema)
            status = guard.pg_inspect(self._query(guard.PG_INSPECT_TRIGGERS, params, named=True),
                                      (self._query(guard.PG_INSPECT_FUNCTION, params, named=True) or [None])[0],
                                      self._query(guard.PG_INSPECT_RULES, params, named=True))
        else:
            _, triggers = self._catalog()
            status = guard.sqlite_inspect(triggers)
        self._guard_checked_at = time.monotonic()
        return status

    def _inspect(self, triggers: list[Any]) -> GuardStatus:
        if self.is_postgres:
            return self.inspect_guard()
        self._guard_checked_at = time.monotonic()
        return guard.sqlite_inspect(triggers)

    def check_writable(self, stream: str | None = None) -> None:
        """Refuse a write (before anything is judged or stored) on a read-only log or one whose
        guard is not intact; with `stream`, also an append to a stream an incident recorded as
        broken, as far as this store knows (`_known_broken`: no read on a SQLite write)."""
        if self.read_only:
            raise ReadOnlyLog(f"{self.target.note or self.describe() + ' is read-only'}: nothing can be "
                              "recorded in it (copy it to a writable folder to record more)")
        if self.is_postgres and time.monotonic() - self._guard_checked_at > 5:
            self.guard = self.inspect_guard()  # a long-running writer notices a guard removed meanwhile
        if not self.guard.ok:
            raise GuardBroken(f"refused: nothing was stored. The append-only guard of {self.describe()} is "
                              f"not intact ({'; '.join(self.guard.problems)}); {REPAIR_HINT}")
        if stream is not None and stream != LOG_STREAM:  # the incident stream itself records the refusals' cause
            self._refuse_if_broken(stream, self._known_broken())

    def _known_broken(self) -> dict[str, dict[str, Any]]:
        """broken_streams() as this store knows them, without a read on every write (issue 17: a
        read of the incident stream's head cost a live append tens of µs). On SQLite each write
        looks, inside its transaction, whether the incident stream moved (`_sqlite_write_checks`),
        so this only says what is known already. On PostgreSQL they are read once and again every
        5 s, as the guard is; a read that fails (the server gone) leaves the write to say its own
        outcome, rather than a read's error for a write."""
        if self.is_postgres and time.monotonic() - self._broken_checked_at > 5:
            try:
                self.broken_streams()
            except StoreError:
                return self._broken
            self._broken_checked_at = time.monotonic()
        return self._broken

    def _refuse_if_broken(self, stream: str, broken_streams: dict[str, dict[str, Any]]) -> None:
        broken = broken_streams.get(stream)
        if broken is not None:
            raise ChainBroken(
                f"refused: nothing was stored. {broken_words(stream, broken)}. An event added now would rest on an edited log: "
                f"Keep {stream} as evidence (`tablejudge verify {stream}`, `tablejudge export {stream}`) "
                "and record the rest of the game in a new match")

    def refuse_if_broken(self, stream: str) -> None:
        """ChainBroken where an incident recorded `stream` broken (read now, not as last known): for
        a command that judges the stream before it writes (`timelimit`), whose refusal must name the
        break rather than what the edited events led it to judge (QA84 #5)."""
        self._refuse_if_broken(stream, self.broken_streams())

    def broken_streams(self) -> dict[str, dict[str, Any]]:
        """Streams the log's incidents (`guard.repaired`, `chain.broken`) recorded as broken:
        stream -> {position, reason, incident}. Cached per open store and read again only when
        the incident stream's head moved (another process may have recorded one)."""
        head = self.head(LOG_STREAM)
        at = head.position if head is not None else 0
        if self._broken_at != at:
            broken: dict[str, dict[str, Any]] = {}
            for e in self.read(LOG_STREAM) if at else []:
                for b in e.payload.get("broken", ()) if isinstance(e.payload, dict) else ():
                    if isinstance(b, dict) and isinstance(b.get("stream"), str):
                        broken.setdefault(b["stream"], {"position": b.get("position"),
                                                        "reason": b.get("reason", ""), "incident": e.position})
            self._broken, self._broken_at = broken, at
        return self._broken

    def incident_heads(self, stream: str) -> list[tuple[int, int]]:
        """(incident event, the stream's last position then) for every recorded incident that
        noted the stream's head: an anchor check tells events removed from events added later."""
        return [(e.position, int(e.payload["heads"][stream])) for e in self.read(LOG_STREAM)
                if isinstance(e.payload, dict) and isinstance(e.payload.get("heads"), dict)
                and isinstance(e.payload["heads"].get(stream), int)]

    def _sqlite_write_checks(self, c: Any, stream: str) -> None:
        """Inside a SQLite write, before its commit, in one read: if the schema changed since the
        guard was inspected (a trigger dropped or added), inspect it again, and if it is broken
        now the write is refused and rolled back; if the incident stream moved (another process's
        `verify --repair`), read which streams it recorded as broken, and refuse a write to one.

        Skipped when nothing can have changed since the last write's checks passed (issue 17: the
        read costs ~5.6 us warm, 10-20 right after a commit's fsync; PRAGMA data_version ~1.8):
        SQLite's data_version changes whenever another connection (another process, the
        library's connections, another store) has committed, and it is read here after the
        INSERT, holding the write lock, so it is current and nobody can commit until ours does.
        Our own connection's commits do not change it: so the skip also needs the writer's previous
        transaction (SQLiteWriter.begun, counted under its lock) to have been a write whose checks
        passed: after any other (a repair's DDL, a snapshot, an incident appended to the log's
        stream, which this check leaves unrecorded) the next write checks in full. A reconnected
        writer is another connection object: checked in full too."""
        writer = self._writer
        if writer is not None:
            c.execute("PRAGMA data_version")
            # the tuples written out, not (*seen, n): that form builds a list first (issue 17)
            conn, data_version, begun = c.connection, c.fetchone()[0], writer.begun
            if self._checks_passed == (conn, data_version, begun - 1) and stream != LOG_STREAM:
                self._checks_passed = (conn, data_version, begun)
                return
        self._checks_passed = None
        c.execute(self._q_write_checks, (LOG_STREAM,))
        version, incidents = c.fetchone()
        if version != self._schema_version:
            c.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
            self.guard = guard.sqlite_inspect([tuple(r) for r in c.fetchall()])
            self._schema_version = version
            if not self.guard.ok:
                self.check_writable()
        if stream != LOG_STREAM:  # (an incident's own write leaves the broken streams unread)
            if (incidents or 0) != self._broken_at:
                self._refuse_if_broken(stream, self.broken_streams())
            if writer is not None:
                self._checks_passed = (conn, data_version, writer.begun)

    def repair_guard(self, *, recorded_by: str | None = None, findings: Sequence[str] = (),
                     broken: Sequence[dict[str, Any]] = (),
                     heads: dict[str, int] | None = None) -> dict[str, Any] | None:
        """`verify --repair`: put the guard back and record the incident (what was found, what was
        removed, which streams' chains are broken and where each stream ended) as an event of the
        log's own stream: `guard.repaired`, or `chain.broken` when the guard is intact but a chain
        not recorded before is broken. Appends to a recorded broken stream are refused from then
        on (check_writable). None if there was nothing to record.

        `broken`: {stream, position, reason} per broken chain; `heads`: each stream's last stored
        position now, so that a later anchor check can tell events removed while the guard was
        off from events added after the repair."""
        if self.read_only:
            raise ReadOnlyLog(f"{self.describe()} is read-only: its guard cannot be repaired here")
        known = self.broken_streams()
        new_broken = [dict(b) for b in broken if b["stream"] not in known][:1000]
        status = self.inspect_guard()
        if status.ok:
            if not new_broken:
                return None
            incident: dict[str, Any] = {"broken": new_broken, "heads": heads or None,
                                        "verify_findings": list(findings)[:50] or None}
            event = self._log_incident("chain.broken", {k: v for k, v in incident.items() if v is not None},
                                       recorded_by=recorded_by)
            return {"event": event.position, "stream": LOG_STREAM, "kind": "chain.broken", "found": [],
                    **incident}
        if self.is_postgres:
            params = guard.pg_params(self.schema)
            rules = self._query(guard.PG_INSPECT_RULES, params, named=True)
            triggers = self._query(guard.PG_INSPECT_TRIGGERS, params, named=True)
            statements = guard.pg_repair(self.schema, status, rules, triggers)
        else:
            _, triggers = self._catalog()
            statements = guard.sqlite_repair(status, triggers)
        with self._cursor(commit=True) as c:
            for statement in statements:
                c.execute(statement)
        self.guard = self.inspect_guard()
        if not self.guard.ok:
            raise StoreError("the guard could not be restored: " + "; ".join(self.guard.problems))
        incident = {"found": status.problems,
                    "removed": [{"name": n, "sql": sql[:2000]} for n, sql in status.foreign] or None,
                    "restored": self.guard.triggers,
                    "broken": new_broken or None,
                    "heads": heads or None,
                    "verify_findings": list(findings)[:50] or None}
        event = self._log_incident("guard.repaired", {k: v for k, v in incident.items() if v is not None},
                                   recorded_by=recorded_by)
        return {"event": event.position, "stream": LOG_STREAM, "kind": "guard.repaired", **incident}

    def _log_incident(self, kind: str, payload: dict[str, Any], *,
                      recorded_by: str | None = None) -> RecordedEvent:
        by = recorded_by or default_recorder_name()
        draft = Draft(kind, 1, TABLE_ACTOR, payload, by)
        head = self.head(LOG_STREAM)
        if head is None:
            return self.create(LOG_STREAM, [Draft("log.created", 1, TABLE_ACTOR, {"format": LOG_FORMAT}, by),
                                            draft])[1]
        return self.append_after(LOG_STREAM, head, [draft])[0]

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
        since, the store's unique key refuses the batch: ConflictError, nothing stored. The batch
        API for bulk writers: one transaction, one executemany, however many drafts."""
        _check_created(drafts, opens=False)
        return self._insert(match, head.position, head.hash, drafts, expected_hashes)

    def create(self, match: str, drafts: Sequence[Draft], *,
               expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        """Start a stream: its `<thing>.created` event at position 1 (`match.created` for a match,
        `tournament.created` for a tournament), then any further drafts, atomically."""
        _check_created(drafts)
        try:
            return self._insert(match, 0, GENESIS_HASH, drafts, expected_hashes)
        except ConflictError:
            raise self._exists(match, drafts[0].kind) from None

    def create_in_batches(self, match: str, head: Draft, head_hash: str | None,
                          batches: Iterable[Envelopes]) -> int:
        """`create` for a stream whose events but the first come in batches, their envelopes worked
        out already (a bulk import's worker processes hand them over as they finish each chunk):
        `head` (its `.created` event, with the hash its input gave) is sealed, then each batch is
        chained on as it comes, so that work overlaps the workers'; then everything is written in
        one transaction, as by `create`. The write lock is taken only for that write (a judge
        recording on the same log meanwhile waits for the insert, not for the workers). An
        exception from `batches` (a refused line, Ctrl-C) stores nothing. Returns how many events
        were stored."""
        _check_created([head])
        first: list[RecordedEvent] = []
        rows: list[tuple[str, int, str, bytes]] = []
        prev, position = GENESIS_HASH, 0
        for batch in batches:
            if not first:  # the head is sealed once the first batch is made, so that a line refused
                # in that batch is said before a head whose given hash does not come out (as when
                # one process drafts every line before sealing)
                first, rows = self._seal(match, 0, GENESIS_HASH, [head], [head_hash])
                prev, position = first[0].hash, 1
            for kind, parts, expected in zip(batch.kinds, batch.parts, batch.expected_hashes):
                position += 1
                if parts[0] != position:
                    raise ValueError(f"event {position}: its envelope was worked out for another place")
                if kind.endswith(CREATED_SUFFIX):
                    raise ValueError("a '.created' event can only be event 1")
                digest, data = chain(parts, prev)
                if expected is not None and expected != digest:
                    raise _hash_differs(position, expected, digest)
                rows.append((match, position, kind, data))
                prev = digest
        if not first:
            first, rows = self._seal(match, 0, GENESIS_HASH, [head], [head_hash])
        self.check_writable()
        try:
            self._write(match, 0, first[0], rows)
        except ConflictError:
            raise self._exists(match, head.kind) from None
        self._created[match] = first[0]
        return len(rows)

    def _exists(self, stream: str, created_kind: str) -> StreamExists:
        thing = stream_thing(stream, created_kind)  # "a match", "a tournament"
        return StreamExists(f"{thing} with id {stream!r} already exists in {self.describe()}", stream)

    def create_many(self, streams: Sequence[tuple[str, Sequence[Draft]]]) -> list[list[RecordedEvent]]:
        """Start several streams in one transaction, all or none: a bulk import's batch (one
        commit for many matches), or one file that holds several games. ConflictError if any of
        the ids is taken (nothing stored). The batch's write id is on its first event."""
        for _, drafts in streams:
            _check_created(drafts)
        if len({m for m, _ in streams}) != len(streams):
            raise ValueError("create_many: the same id twice")
        if not streams:
            return []
        self.check_writable()
        sealed = [self._seal(match, 0, GENESIS_HASH, list(drafts)) for match, drafts in streams]
        rows = [row for _, stream_rows in sealed for row in stream_rows]
        first = sealed[0][0]
        try:
            self._write(first[0].match, 0, first[0], rows)
        except ConflictError as e:
            raise ConflictError(streams[0][0] if len(streams) == 1 else "(one of the batch)", 1,
                                "a stream with one of these ids already exists") from e
        for (match, _), (events, _) in zip(streams, sealed):
            self._created[match] = events[0]
        return [events for events, _ in sealed]

    def sealed(self, match: str, drafts: Sequence[Draft], *,
               expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        """The drafts as `create` would store them (a new stream: chained from the genesis hash),
        without storing anything: an import compares them with the stream the log already holds.
        HashMismatch if a given hash does not come out."""
        return self._seal(match, 0, GENESIS_HASH, drafts, expected_hashes)[0] if drafts else []

    def _insert(self, match: str, head_position: int, head_hash: str, drafts: Sequence[Draft],
                expected_hashes: Sequence[str | None] | None = None) -> list[RecordedEvent]:
        self.check_writable()
        sealed, rows = self._seal(match, head_position, head_hash, drafts, expected_hashes)
        self._write(match, head_position, sealed[0], rows)
        if head_position == 0:
            self._created[match] = sealed[0]
        return sealed

    def _seal(self, match: str, head_position: int, head_hash: str, drafts: Sequence[Draft],
              expected_hashes: Sequence[str | None] | None = None
              ) -> tuple[list[RecordedEvent], list[tuple[str, int, str, bytes]]]:
        """The drafts as events chained after the head, and their rows (they begin a write)."""
        sealed: list[RecordedEvent] = []
        rows: list[tuple[str, int, str, bytes]] = []
        prev, position = head_hash, head_position
        fallback_time = now_iso()
        # The write's id: carried by its first event (an imported export brings its own, or its
        # given hash already names it).
        first_id = drafts[0].write_id
        if first_id is None and not (expected_hashes and expected_hashes[0]):
            first_id = new_write_id()
        for i, d in enumerate(drafts):
            position += 1
            recorded_at = d.recorded_at or fallback_time
            write_id = first_id if i == 0 else d.write_id
            parts = envelope_parts(match=match, position=position, kind=d.kind, version=d.version,
                                   actor=d.actor, payload=d.payload, recorded_at=recorded_at,
                                   recorded_by=d.recorded_by, write_id=write_id)
            digest, data = chain(parts, prev)
            if expected_hashes is not None and expected_hashes[i] not in (None, digest):
                raise _hash_differs(position, expected_hashes[i], digest)
            sealed.append(new_tuple(RecordedEvent, (match, position, d.kind, d.version, d.actor, d.payload,
                                                     recorded_at, d.recorded_by, prev, digest, write_id)))
            rows.append((match, position, d.kind, data))
            prev = digest
        return sealed, rows

    def append_locked(self, match: str,
                      prepare: Callable[[RecordedEvent], Sequence[Draft]]) -> list[RecordedEvent]:
        """Hold the log's write lock, read the stream's head, let `prepare(head)` judge against it
        and return the drafts, and append them. No other writer can append in between, so this
        cannot conflict: the retry of a writer that lost a race (engine/match.py) cannot lose
        again. `prepare` may raise (an input error, a strict refusal): nothing is stored. Held
        for as long as `prepare` runs, so it should only judge, not replay a long log."""
        self.check_writable(match)
        if self.is_postgres:
            return self._locked_postgres(match, prepare)
        try:
            with self._cursor(commit=True) as c:
                # a write that changes nothing: it takes SQLite's write lock now (waiting, up to the
                # busy timeout, for a writer in progress) and keeps it until the commit
                c.execute(f"UPDATE {META_TABLE} SET value = value WHERE 0")
                sealed, rows = self._prepare_locked(match, prepare)
                c.executemany(self._q_insert, rows)
                self._sqlite_write_checks(c, match)
        except IntegrityError as e:  # only a writer that ignores the lock could cause this
            raise ConflictError(match, -1) from e
        except OperationalError as e:
            raise StoreError(f"the event log is busy or unavailable ({e}); nothing was stored") from e
        return sealed

    def _prepare_locked(self, match: str, prepare: Callable[[RecordedEvent], Sequence[Draft]]
                        ) -> tuple[list[RecordedEvent], list[tuple[str, int, str, bytes]]]:
        self._locked = True  # reads go on; snapshot saves (writes) wait for another time
        try:
            head = self.head(match)
            if head is None:
                raise MatchNotFound(f"no match {match!r} in {self.describe()}")
            drafts = list(prepare(head))
            _check_created(drafts, opens=False)
            return self._seal(match, head.position, head.hash, drafts)
        finally:
            self._locked = False

    def _locked_postgres(self, match: str, prepare: Callable[[RecordedEvent], Sequence[Draft]]
                         ) -> list[RecordedEvent]:
        sealed: list[RecordedEvent] = []
        tries = _Tries(True)
        while True:
            try:
                with self.datastore.get_connection() as conn:
                    with conn.transaction(), conn.cursor() as curs:
                        self.events._lock_table(curs)  # the library's own: EXCLUSIVE, reads go on
                        sealed, rows = self._prepare_locked(match, prepare)
                        self.events._insert_stored_events(curs, [StoredEvent(*r) for r in rows])
                return sealed
            except IntegrityError as e:
                if sealed and self._landed(match, sealed[0]):
                    return sealed
                raise ConflictError(match, sealed[0].position if sealed else -1) from e
            except (OperationalError, InterfaceError) as e:
                error = e
            if not tries.again():
                break
            try:
                if sealed and self._landed(match, sealed[0]):
                    return sealed  # committed; the reply was lost
            except StoreError:
                pass
        raise StoreUnavailable(
            f"cannot write to {self.describe()}: the connection broke ({tries.said()}: "
            f"{self._connection_message(error)}); whether the event was stored is not known: look (`tablejudge events {match}`) before "
            "recording it again")

    def _write(self, match: str, head_position: int, first: RecordedEvent,
               rows: list[tuple[str, int, str, bytes]]) -> None:
        """One transaction inserting `rows` (sealed after `head_position`; `first`: the first of
        them, by which a write whose reply was lost is recognised), on the log's backend."""
        if match != LOG_STREAM:  # a stream recorded as broken (read-only and the guard were checked before sealing)
            self._refuse_if_broken(match, self._known_broken())
        if self.is_postgres:
            self._write_postgres(match, head_position, first, rows)
        else:
            self._write_sqlite(match, head_position, rows)

    def _write_sqlite(self, match: str, head_position: int, rows: list[tuple[str, int, str, bytes]]) -> None:
        try:
            with self._cursor(commit=True) as c:
                c.executemany(self._q_insert, rows)
                # after the insert, which took the write lock (a read first would make the
                # transaction a reader that cannot become a writer once another has committed)
                self._sqlite_write_checks(c, match)
        except IntegrityError as e:
            raise ConflictError(match, head_position + 1) from e
        except OperationalError as e:
            if "readonly" in str(e) or "read-only" in str(e):
                raise ReadOnlyLog(f"{self.describe()} cannot be written ({e}); nothing was stored") from None
            raise StoreError(f"the event log is busy or unavailable ({e}); nothing was stored") from e

    def _write_postgres(self, match: str, head_position: int, first: RecordedEvent,
                        rows: list[tuple[str, int, str, bytes]]) -> None:
        """Insert through the library's statements (table lock, NOTIFY, unnest insert) in one
        transaction. A broken connection is retried with randomised backoff; before each retry the
        store looks whether the write landed (its first event, write id included, at its position),
        so a commit whose reply was lost is recognised, never stored twice, and never reported as
        "nothing stored"."""
        stored = [StoredEvent(*r) for r in rows]
        landed: bool | None = False
        tries = _Tries(True)
        while True:
            try:
                self._pipelined_insert(stored)
                return
            except IntegrityError as e:
                if tries.count > 1 and self._landed(match, first):
                    return  # an earlier try committed; its reply was lost
                raise ConflictError(match, head_position + 1) from e
            except (OperationalError, InterfaceError) as e:
                error = e  # the connection broke, or the server went away: look, then retry
            except PersistenceError as e:
                raise StoreError(self._privilege_refusal(e, "append to the log", then="nothing was stored") or
                                 f"the event log refused the write ({_short(e)}); nothing was stored") from e
            if not tries.again():
                break
            try:
                landed = self._landed(match, first)
            except StoreError:
                landed = None  # cannot tell yet
            if landed:
                return
            if landed is False and self._position_taken(match, head_position + 1):
                raise ConflictError(match, head_position + 1,
                                    "the connection broke meanwhile; the write did not land")
        if landed is None or tries.count == 1:
            raise StoreUnavailable(
                f"the connection to {self.describe()} broke during the append and could not be made "
                f"again ({tries.said()}: {self._connection_message(error)}). Whether event "
                f"{head_position + 1} of {match} "
                f"was stored is NOT known: look (`tablejudge events {match}`) before recording it again")
        raise StoreUnavailable(
            f"cannot write to {self.describe()}: the connection broke ({tries.said()}: "
            f"{self._connection_message(error)}); nothing was stored (position {head_position + 1} of {match} is still free). Retry when "
            "the server is back")

    def _pipelined_insert(self, stored: list[StoredEvent]) -> None:
        """One transaction through the library's statements (BEGIN, its table lock, NOTIFY, the
        insert, COMMIT), sent as one pipeline with a single sync: one round trip, so the table lock
        is held for one round trip only. A taken position fails the insert; the server skips the
        rest of the pipeline and rolls back, and the unique violation is raised here."""
        failure: Exception | None = None
        with self.datastore.get_connection() as conn:
            try:
                with conn.pipeline(), conn.transaction(), conn.cursor() as curs:
                    self.events._insert_stored_events(curs, stored)
            except psycopg_errors() as e:  # re-raised below, inside get_connection, which maps it
                failure = e
            if failure is not None:
                raise failure

    def _landed(self, match: str, first: RecordedEvent) -> bool:
        """Is this write's first event (its hash covers its write id) stored at its position?"""
        rows = self._query(self._q_states + f" AND originator_version <= {self._p}",
                           (match, first.position - 1, first.position), retry=False)
        return bool(rows) and json.loads(_b(rows[0][0]))["hash"] == first.hash

    def _position_taken(self, match: str, position: int) -> bool:
        return bool(self._query(self._q_states + f" AND originator_version <= {self._p}",
                                (match, position - 1, position), retry=False))

    # --- reading --------------------------------------------------------------------------

    def read(self, match: str, *, after: int = 0, upto: int | None = None) -> list[RecordedEvent]:
        """Events of a stream with after < position <= upto, in order."""
        with _no_gc_pauses():
            return [_event(d) for d in self.read_dicts(match, after=after, upto=upto)]

    def read_dicts(self, match: str, *, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        sql, params = self._q_states, [match, after]
        if upto is not None:
            sql += f" AND originator_version <= {self._p}"
            params.append(upto)
        rows = self._query(sql + " ORDER BY originator_version", params)
        return _decode_all([_b(r[0]) for r in rows])

    def read_kinds(self, match: str, kinds: Sequence[str]) -> list[RecordedEvent]:
        """The events of a stream whose kind is one of `kinds`, in order: the few rows a question
        needs (who a seat is named now) out of a long log, without decoding the others."""
        marks = ", ".join([self._p] * len(kinds))
        rows = self._query(f"SELECT state FROM {self._t_events} WHERE originator_id = {self._p} "
                           f"AND topic IN ({marks}) ORDER BY originator_version", [match, *kinds])
        return [_event(d) for d in _decode_all([_b(r[0]) for r in rows])]

    def read_raw(self, match: str, *, upto: int | None = None) -> list[tuple[StoredEvent, int]]:
        """Stored rows as they are, with their notification id (the order they were stored in)."""
        sql = (f"SELECT originator_id, originator_version, topic, state, {self._order_col} AS n "
               f"FROM {self._t_events} WHERE originator_id = {self._p}")
        params: list[Any] = [match]
        if upto is not None:
            sql += f" AND originator_version <= {self._p}"
            params.append(upto)
        rows = self._query(sql + " ORDER BY originator_version", params)
        return [(StoredEvent(str(r[0]), r[1], r[2], _b(r[3])), r[4]) for r in rows]

    def head(self, match: str) -> RecordedEvent | None:
        rows = self._query(self._q_head, (match,))
        return _event(json.loads(_b(rows[0][0]))) if rows else None

    def event_at(self, match: str, position: int) -> RecordedEvent | None:
        events = self.read(match, after=position - 1, upto=position)
        return events[0] if events else None

    def created(self, match: str) -> RecordedEvent:
        """The stream's first ('.created') event (cached: it never changes)."""
        if match not in self._created:
            event = self.event_at(match, 1)
            if event is None:
                raise MatchNotFound(f"no match {match!r} in {self.describe()}")
            self._created[match] = event
        return self._created[match]

    def match_created(self, match: str) -> RecordedEvent:
        """The `match.created` event of match `match`: MatchNotFound if there is no such stream,
        NotAMatch if the stream is something else (a tournament). Every reader of a match's table
        (engine.replay.Replayer, so engine.match.Match) comes through here."""
        created = self.created(match)
        if created.kind != MATCH_CREATED:
            raise NotAMatch(match, created.kind)
        return created

    def match_ids(self) -> list[str]:
        """Every match, in creation order, by pulling the notification log for match.created."""
        return self.stream_ids(MATCH_CREATED)

    def stream_ids(self, created_kind: str) -> list[str]:
        """Every stream started by `created_kind`, in creation order (from the notification log)."""
        return [e.match for e in self.created_events(created_kind)]

    def created_events(self, created_kind: str) -> list[RecordedEvent]:
        """The first event of every stream started by `created_kind`, in creation order."""
        out: list[RecordedEvent] = []
        start = 1
        while True:
            page = self.events.select_notifications(start, 500, topics=[created_kind])
            out.extend(map(_event, _decode_all([_b(n.state) for n in page])))
            if len(page) < 500:
                for e in out:
                    self._created.setdefault(e.match, e)
                return out
            start = page[-1].id + 1

    def all_stream_ids(self) -> list[str]:
        """Every stream holding any row (matches, tournaments, the log's own), in order of first
        storage: a stream whose first events were deleted is listed too (verify reports it)."""
        rows = self._query(f"SELECT originator_id, MIN({self._order_col}) AS n FROM {self._t_events} "
                           "GROUP BY originator_id ORDER BY n")
        return [str(r[0]) for r in rows]

    def event_counts(self) -> dict[str, int]:
        rows = self._query(f"SELECT originator_id, MAX(originator_version) AS n FROM {self._t_events} "
                           "GROUP BY originator_id")
        return {str(r[0]): int(r[1]) for r in rows}

    def resolve(self, ref: str) -> str:
        """A match id from a full id or an unambiguous prefix (at least 4 characters). A prefix of
        a tournament's id (at least 3) gives that id too, so that reading it as a match refuses
        in words (NotAMatch); a prefix of several streams, matches or tournaments, is ambiguous."""
        if ref in self._created:
            return ref
        first = self.event_at(ref, 1)
        if first is not None:
            self._created[ref] = first  # the stream's first event never changes
            return ref
        hits = [m for m in self.match_ids() if m.startswith(ref)] if len(ref) >= 4 else []
        if len(ref) >= MIN_TOURNAMENT_PREFIX:
            hits += [s for kind in PREFIXED_STREAMS for s in self.stream_ids(kind) if s.startswith(ref)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise MatchNotFound(f"{ref!r} is ambiguous: {', '.join(hits[:5])}"
                                + (f" and {len(hits) - 5} more" if len(hits) > 5 else ""))
        raise MatchNotFound(f"no match {ref[:80]!r} in {self.describe()} (see `tablejudge matches`)")

    def notifications(self, start: int = 1, limit: int = 1000,
                      kinds: Sequence[str] | None = None) -> list[tuple[int, RecordedEvent]]:
        """The global notification log, for read models: (notification id, event). `kinds`: only
        events of these kinds (the library's notification topic is the event's kind)."""
        page = self.events.select_notifications(start, limit, topics=list(kinds or ()))
        return list(zip((n.id for n in page), map(_event, _decode_all([_b(n.state) for n in page]))))

    def find_hash(self, hash_: str) -> list[RecordedEvent]:
        """Events whose hash is `hash_` (an anchor given as a bare hash). Scans the log."""
        needle = f'"hash":"{hash_}"'.encode()
        fn = f"position({self._p} in state) > 0" if self.is_postgres else f"instr(state, {self._p}) > 0"
        rows = self._query(f"SELECT state FROM {self._t_events} WHERE {fn}", (needle,))
        return [e for e in map(_event, _decode_all([_b(r[0]) for r in rows])) if e.hash == hash_]

    # --- snapshots (a cache of derived state: checked, never trusted) ------------------------

    def _snapshot_id(self, match: str, key: str) -> str:
        return f"{match}/{key}/{SNAPSHOT_FORMAT}"

    def snapshots_usable(self) -> bool:
        """Snapshots are used only while the guard that protects them is intact."""
        return self.guard.ok

    def save_snapshot(self, match: str, key: str, position: int, event_hash: str,
                      state: dict[str, Any]) -> None:
        """Keep the state after event `position` (whose hash is `event_hash`). Silently skipped
        on a read-only log or one whose guard is broken: a cache is never worth a refusal."""
        if self.read_only or not self.guard.ok or self._locked:
            return
        data = snapshot_bytes(position, event_hash, canonical_bytes(state))
        try:
            with self._cursor(commit=True) as c:
                c.execute(self._q_snapshot_insert, (self._snapshot_id(match, key), position, key, data))
        except IntegrityError:
            pass  # another process saved one at this position; it is checked when used
        except (OperationalError, InterfaceError, PersistenceError):
            pass  # a busy or read-only database: the cache stays as it was

    def snapshot_at_or_before(self, match: str, key: str, position: int) -> Snapshot | None:
        if not self.snapshots_usable():
            return None
        rows = self._query(f"SELECT state FROM {self._t_snapshots} WHERE originator_id = {self._p} "
                           f"AND originator_version <= {self._p} ORDER BY originator_version DESC LIMIT 1",
                           (self._snapshot_id(match, key), position))
        return _snapshot(_b(rows[0][0])) if rows else None

    def snapshot_positions(self, match: str, key: str) -> list[int]:
        rows = self._query(f"SELECT originator_version FROM {self._t_snapshots} WHERE originator_id = "
                           f"{self._p} ORDER BY originator_version", (self._snapshot_id(match, key),))
        return [r[0] for r in rows]

    def all_snapshots(self, match: str) -> list[tuple[str, int, bytes]]:
        """Every snapshot row of a stream, any key or format: (key part of its id, position, data)."""
        lo, hi = match + "/", match + "0"  # '0' follows '/': the ids of this stream, by the index
        rows = self._query(f"SELECT originator_id, originator_version, state FROM {self._t_snapshots} "
                           f"WHERE originator_id >= {self._p} AND originator_id < {self._p} "
                           "ORDER BY originator_id, originator_version", (lo, hi))
        return [(str(r[0])[len(lo):], r[1], _b(r[2])) for r in rows]

    def snapshot_key_id(self, key: str) -> str:
        """The key part of a current-format snapshot id (as `all_snapshots` lists it)."""
        return f"{key}/{SNAPSHOT_FORMAT}"

    # --- integrity ------------------------------------------------------------------------

    def verify(self, match: str, raw: Sequence[tuple[StoredEvent, int]] | None = None) -> VerifyReport:
        """Recompute the hash chain from the stored rows; name the first broken link. Checks the
        guard as it is now. `raw`: the whole stream as `read_raw(match)` returned it, when the
        caller read it already for something else (`tablejudge events`): the chain is recomputed
        from those rows' stored bytes all the same, only not read a second time."""
        if raw is None:
            raw = self.read_raw(match)
        if not raw:
            raise MatchNotFound(f"no match {match!r} in {self.describe()}")
        status = self.inspect_guard()
        self.guard = status
        first_break, prev = check_chain(raw, match)
        head = raw[-1][0]
        report = VerifyReport(match=match, events=len(raw), ok=True,
                              head_hash=prev if first_break is None else "", guard_ok=status.ok,
                              guard_detail=status.summary(), first_break=first_break,
                              head_position=head.originator_version if first_break is None else 0,
                              stored_head=head.originator_version)
        report.checked.append(f"hash chain of {len(raw)} event{'s' if len(raw) != 1 else ''}: each hash "
                              "recomputed, each link to the event before, canonical bytes, the order "
                              "rows were stored in")
        if not status.ok:
            report.fail(status.summary() + f"; {REPAIR_HINT}")
        if first_break:
            report.fail(f"broken link at position {first_break.position}: {first_break.reason}")
            if first_break.reason == CONTENT_CHANGED:
                report.fail(_as_stored(raw[first_break.position - 1][0], match))
        if self.read_only and self.target.note:
            report.checked.append(self.target.note)
        return report

    def holds(self, match: str, position: int, hash_: str) -> str | None:
        """None if the stream still holds event `position` with hash `hash_` and a valid chain up
        to it (the anchor is a prefix of the log); else what is wrong, in words."""
        raw = self.read_raw(match, upto=position)
        if not raw:
            return f"the log holds no stream {match!r}: it was removed (or the anchor is from another log)"
        last = raw[-1][0].originator_version
        if last < position:
            return self._shorter_than_anchor(match, raw, position)
        first_break, prev = check_chain(raw, match)
        if first_break is not None:
            return f"{match}: broken link at position {first_break.position}: {first_break.reason}"
        if prev != hash_:
            return (f"{match} event {position} has hash {prev}, not the anchor's {shown(hash_)}: "
                    "the events up to it were rewritten (or the anchor is from another log)")
        return None


    def _shorter_than_anchor(self, match: str, raw: Sequence[tuple[StoredEvent, int]], position: int) -> str:
        """The stream ends before the anchored event. Events after the anchor's moment were
        removed; how many is known exactly when an incident (`verify --repair`) noted where the
        stream ended: events stored after that point are later events, not the anchored ones."""
        last = raw[-1][0].originator_version
        said = f"{match} ends at event {last}, but the anchor names event {position}"
        shorter = [(incident, h) for incident, h in self.incident_heads(match) if h < position]
        if not shorter:
            missing = position - last
            return (f"{said}: {missing} event{'s' if missing != 1 else ''} removed ({_span(last + 1, position)}); "
                    f"the anchor confirms event {position} only, so event {last} and those before it may "
                    "have been replaced too")
        incident, h = shorter[0]  # the first incident to find the stream shorter than the anchor
        removed = position - h
        out = (f"{said}: {removed} event{'s' if removed != 1 else ''} removed ({_span(h + 1, position)}): "
               f"when the guard was repaired (event {incident} of {LOG_STREAM}) {match} ended at event {h}")
        if last > h:
            later = [json.loads(row.state) for row, _ in raw[h:]]
            out += "; " + "; ".join(f"event {d['position']} now in the log is another event, recorded "
                                    f"after that repair ({d['kind']}, hash {str(d['hash'])[:16]}...)"
                                    for d in later[:3])
            if len(later) > 3:
                out += f"; and {len(later) - 3} more after it"
        return out


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def check_chain(raw: Sequence[tuple[StoredEvent, int]], match: str) -> tuple[ChainBreak | None, str]:
    """The first broken link of stored rows 1..n (None if all hold), and the hash of the last."""
    prev = GENESIS_HASH
    for i, (row, n) in enumerate(raw):
        reason = _check_row(row, i + 1, match, prev)
        if reason is None and i + 1 < len(raw) and n > raw[i + 1][1]:
            reason = ("stored after the event that follows it (the row was replaced: INSERT OR REPLACE, "
                      "or deleted and inserted again)")
        if reason:
            return ChainBreak(row.originator_version, reason), prev
        if i == 0 and not row.topic.endswith(CREATED_SUFFIX):
            return ChainBreak(1, "the first event does not create the stream"), prev
        prev = json.loads(row.state)["hash"]
    return None, prev


CONTENT_CHANGED = "the event's content does not match its hash (edited after it was recorded)"


def _as_stored(row: StoredEvent, match: str) -> str:
    """An edited event as it is stored now. The hash covers the whole envelope, so the log alone
    cannot say which field changed: an export or a report that holds the event can (`verify
    --anchor FILE` compares them)."""
    d = json.loads(row.state)
    shown_fields = {k: d.get(k) for k in ("kind", "actor", "payload", "recorded_at", "recorded_by")}
    return (f"event {row.originator_version} as stored now: {json.dumps(shown_fields, ensure_ascii=True)[:600]}; "
            "which field was changed cannot be known from the log alone (the hash covers the whole "
            f"event): an export holding the event shows it (`tablejudge verify {match} --anchor FILE.jsonl`)")


def _check_row(row: StoredEvent, expected: int, match: str, prev: str) -> str | None:
    if row.originator_version != expected:
        return f"position {expected} is missing (next stored is {row.originator_version})"
    try:
        d = json.loads(row.state)
        event = RecordedEvent.from_dict(d)
    except (ValueError, KeyError, TypeError) as e:
        return f"the stored event cannot be read ({str(e)[:80]})"
    if event.match != match or event.position != row.originator_version:
        return "the event says it belongs elsewhere (match or position differ from its row)"
    if event.kind != row.topic:
        return f"the row's kind {row.topic[:40]!r} differs from the event's {str(event.kind)[:40]!r}"
    if event.prev_hash != prev:
        return "prev_hash does not match the hash of the event before it"
    try:
        if event.computed_hash() != event.hash:
            return CONTENT_CHANGED
        if canonical_bytes(d) != bytes(row.state):
            return "the stored bytes are not in canonical form (edited after it was recorded)"
    except (TypeError, ValueError) as e:
        return f"the stored event cannot be hashed ({str(e)[:80]})"
    return None


_STATE_KEY = b',"state":'  # in a snapshot row: the header ends, the state's canonical bytes begin


def snapshot_bytes(position: int, event_hash: str, state_bytes: bytes) -> bytes:
    """A snapshot row: canonical JSON of {"at", "event_hash", "hash", "state"}, built around the
    state's canonical bytes as they are ("state" sorts last, and canonical JSON nests verbatim), so
    that reading it hashes a slice of the row instead of encoding the state again (that encoding
    was ~50 us of the ~520 us a moment deep in a 20,000-event log costs, measured 2026-11)."""
    head = canonical_bytes({"at": position, "event_hash": event_hash, "hash": sha256_hex(state_bytes)})
    return head[:-1] + _STATE_KEY + state_bytes + b"}"


def split_snapshot(data: bytes) -> tuple[dict[str, Any], bytes]:
    """A snapshot row's header (at, event_hash, hash) and its state's bytes, as written by
    `snapshot_bytes`. ValueError (or KeyError, TypeError) if the row is not of that shape. Whether
    the state bytes are what the header's hash says is the caller's check: `state` uses a snapshot
    only if they are, and `verify` (engine/integrity.py) says which it is."""
    cut = data.find(_STATE_KEY)
    if cut < 0 or not data.endswith(b"}"):
        raise ValueError("not a snapshot row")
    head = json.loads(data[:cut] + b"}")
    if type(head) is not dict or not isinstance(head["hash"], str):
        raise ValueError("not a snapshot row")
    return head, data[cut + len(_STATE_KEY):-1]


def _snapshot(data: bytes) -> Snapshot | None:
    """A stored snapshot, if it is whole and consistent with itself (its state hash): the state
    used is decoded from exactly the bytes that hash covers."""
    try:
        head, state_bytes = split_snapshot(data)
        if sha256_hex(state_bytes) != head["hash"]:
            return None
        state = json.loads(state_bytes)
        if type(state) is not dict:
            return None
        return Snapshot(int(head["at"]), str(head["event_hash"]), state)
    except (ValueError, KeyError, TypeError):
        return None


class _Tries:
    """Counts tries of an operation on a PostgreSQL connection and waits between them: randomised
    exponential backoff, so writers that failed together do not all come back together; at most
    PG_ATTEMPTS tries within PG_RETRY_SECONDS."""

    def __init__(self, retry: bool):
        self.retry = retry
        self.count = 1
        self.started = time.monotonic()

    def again(self) -> bool:
        """Wait, then True if another try is allowed."""
        if not self.retry or self.count >= PG_ATTEMPTS:
            return False
        wait = random.uniform(0.5, 1.0) * PG_BACKOFF * (2 ** (self.count - 1))
        if time.monotonic() - self.started + wait > PG_RETRY_SECONDS:
            return False
        time.sleep(wait)
        self.count += 1
        return True

    def said(self) -> str:
        took = time.monotonic() - self.started
        return f"{self.count} {'try' if self.count == 1 else 'tries'} in {took:.1f} s"


def _short(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return text[:160]

