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
from collections.abc import Iterator
from contextlib import contextmanager

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
        self._lock = threading.Lock()
        self._owner: int | None = None  # the thread inside a transaction

    @staticmethod
    def usable(dbname: str) -> bool:
        return ":memory:" not in dbname and "mode=memory" not in dbname

    def _connect(self) -> sqlite3.Connection:
        # autocommit mode: the transaction is ours (BEGIN ... COMMIT), as in the library's
        conn = sqlite3.connect(self.dbname, uri=True, timeout=self.timeout, isolation_level=None,
                               check_same_thread=False)
        conn.row_factory = sqlite3.Row
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Cursor]:
        """BEGIN, yield a cursor, COMMIT; ROLLBACK on any exception. sqlite3 errors are raised as
        the library's persistence errors."""
        if self._owner == threading.get_ident():
            # a write inside a write of the same thread would wait for itself for ever
            raise RuntimeError("a write transaction was started inside another on the same thread")
        with self._lock:
            self._owner = threading.get_ident()
            try:
                yield from self._one_transaction()
            finally:
                self._owner = None

    def _one_transaction(self) -> Iterator[sqlite3.Cursor]:
        try:
            if self._conn is None:
                self._conn = self._connect()
            cursor = self._conn.cursor()
            cursor.execute("BEGIN")
        except sqlite3.Error as e:
            raise persistence_error(e) from e
        try:
            yield cursor
            cursor.execute("COMMIT")
        except BaseException as e:
            try:
                if self._conn.in_transaction:
                    self._conn.rollback()
            except sqlite3.Error:
                self._close()  # a connection in an unknown state is not used again
            if isinstance(e, sqlite3.Error):
                raise persistence_error(e) from e
            raise

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
