"""The SQLite log's own writer connection: every write of an EventStore on a SQLite file goes
through one connection that the store keeps open, behind one lock for the threads of a process.

Why not the eventsourcing library's transaction, as reads do: a live append is one small
transaction, and the library's (a pool checkout, its reader-writer lock, a cursor wrapper, the
error mapping) cost about 80 µs a write here, more than all our own Python per event (issue 17's
bar: live append >= 0.8x a raw single-row commit). Nothing else changes: the same file, WAL journal,
busy timeout and statements; SQLite's own locks keep other processes (and the library's connections,
which still create the tables) in turn; errors come out as the library's persistence errors, which
the store already maps to its own messages.

An in-memory database is private to the library's pool (or shared through its cache), so it keeps
the library's transaction: `SQLiteWriter.usable(dbname)` says which.
"""
from __future__ import annotations

import sqlite3
import threading
from types import TracebackType

from eventsourcing.persistence import (
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    InternalError,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
)

_get_ident = threading.get_ident

# sqlite3's errors as the library's (the order matters: subclasses first)
_MAPPED: tuple[tuple[type[sqlite3.Error], type[PersistenceError]], ...] = (
    (sqlite3.IntegrityError, IntegrityError),
    (sqlite3.OperationalError, OperationalError),
    (sqlite3.InterfaceError, InterfaceError),
    (sqlite3.DataError, DataError),
    (sqlite3.InternalError, InternalError),
    (sqlite3.ProgrammingError, ProgrammingError),
    (sqlite3.NotSupportedError, NotSupportedError),
    (sqlite3.DatabaseError, DatabaseError),
)


def persistence_error(e: sqlite3.Error) -> PersistenceError:
    for raw, mapped in _MAPPED:
        if isinstance(e, raw):
            return mapped(e)
    return PersistenceError(e)


class SQLiteWriter:
    """One connection for writing, opened on first use, one transaction at a time."""

    def __init__(self, dbname: str, timeout: float):
        self.dbname = dbname
        self.timeout = timeout
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()  # an RLock: _Transaction asks whether it holds it
        self._owner: int | None = None  # the thread inside a transaction
        # transactions begun, counted under the lock: the store's write checks tell by it whether
        # a write of their own came in between (EventStore._sqlite_write_checks)
        self.begun = 0
        # one _Transaction for all: it holds nothing between transactions, and its `cursor` is set
        # only under the lock, by the one thread then inside (see transaction())
        self._transaction = _Transaction(self)

    @staticmethod
    def usable(dbname: str) -> bool:
        return ":memory:" not in dbname and "mode=memory" not in dbname

    def _connect(self) -> sqlite3.Connection:
        # autocommit mode: the transaction is ours (BEGIN ... COMMIT), as in the library's
        conn = sqlite3.connect(self.dbname, uri=True, timeout=self.timeout, isolation_level=None,
                               check_same_thread=False)
        conn.row_factory = sqlite3.Row
        return conn

    def transaction(self) -> "_Transaction":
        """BEGIN, give a cursor, COMMIT; ROLLBACK on any exception. sqlite3 errors are raised as
        the library's persistence errors. Use as `with writer.transaction() as c:`.

        The same object each time rather than a new one per transaction: a live append runs this
        right after the previous append's fsync, with the CPU's caches cold, and making and freeing
        an instance (type call, __init__, dealloc) is code fetched for nothing (issue 17; with the
        lighter commit path in __exit__ and the write checks' tuples: the writer path's simulated
        cold cost, cachegrind with caches flushed before each append, 282.7k -> 270.3k cycles,
        Match.record's 611.5k -> 597.8k; real timings were swamped by a loaded disk). Shared
        safely: `__enter__` sets `cursor` only once it holds the lock (a nested call on the same
        thread is refused before), and only the thread whose `__enter__` returned runs `__exit__`."""
        return self._transaction

    def _close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass

    def close(self) -> None:
        with self._lock:
            self._close()


class _Transaction:
    """One transaction of a SQLiteWriter, as a plain context manager rather than a
    @contextmanager generator: every live append goes through it, and contextlib's wrapper with
    its generator frames cost ~2 us of the ~25 us a warm single-row write takes here (measured
    with PRAGMA synchronous=OFF; issue 17). Keep it a class.

    An interrupt (Ctrl-C) may land between any two steps, even right after the lock's acquire()
    returns: so the lock is taken inside the `try` and released only if this thread holds it (an
    RLock can say so), and a connection an interrupt left inside a transaction (after its BEGIN,
    or during a ROLLBACK) is rolled back before the next BEGIN rather than failing every later
    write with "cannot start a transaction within a transaction"."""

    __slots__ = ("writer", "cursor")

    def __init__(self, writer: SQLiteWriter):
        self.writer = writer

    def __enter__(self) -> sqlite3.Cursor:
        w, me = self.writer, _get_ident()
        if w._owner == me:
            # a write inside a write of the same thread would wait for itself for ever
            raise RuntimeError("a write transaction was started inside another on the same thread")
        try:
            w._lock.acquire()
            w._owner = me
            w.begun += 1
            if w._conn is None:
                w._conn = w._connect()
            elif w._conn.in_transaction:  # an interrupted transaction's leftover (see above)
                w._conn.rollback()
            self.cursor = w._conn.cursor()
            self.cursor.execute("BEGIN")
            return self.cursor
        except BaseException as e:
            self._end(roll_back=True)
            if isinstance(e, sqlite3.Error):
                raise persistence_error(e) from e
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> bool:
        if error is None:
            try:
                self.cursor.execute("COMMIT")
            except BaseException as e:  # noqa: BLE001 - rolled back and raised below
                error = e
            else:
                # committed: this thread holds the lock (its __enter__ returned), so it is let go
                # here without _end's checks, one call less on every append (issue 17)
                w = self.writer
                w._owner = None
                w._lock.release()
                return False
        self._end(roll_back=True)
        if isinstance(error, sqlite3.Error):
            raise persistence_error(error) from error
        if kind is None:  # the COMMIT itself failed with something else (an interrupt)
            raise error
        return False  # the body's own exception goes on as it was

    def _end(self, *, roll_back: bool) -> None:
        """Roll back if asked and still in a transaction, then let the lock go, if this thread
        holds it (an interrupt may have come before the acquire returned)."""
        w = self.writer
        if not w._lock._is_owned():
            return
        try:
            if roll_back and w._conn is not None and w._conn.in_transaction:
                try:
                    w._conn.rollback()
                except sqlite3.Error:
                    w._close()  # a connection in an unknown state is not used again
        finally:
            w._owner = None
            w._lock.release()
