"""The SQLite log's own writer connection (engine/writer.py): one connection and one lock for the
threads of a process (the web server's), all or nothing per transaction, and sqlite3's errors raised
as the persistence errors the store maps to its messages. Real files, real threads."""
from __future__ import annotations

import sqlite3
import threading

import pytest
from eventsourcing.persistence import IntegrityError, OperationalError

from engine.events import Draft
from engine.match import Match
from engine.store import EventStore
from engine.writer import SQLiteWriter


def note(text: str) -> Draft:
    return Draft("note", 1, "-", {"text": text}, "t")


def test_threads_recording_at_once_on_one_store_lose_nothing(tmp_path):
    """Eight threads share one open log, as a server's request threads do: four record moves on
    one match (racing for its next position), four append notes to a match each."""
    store = EventStore.open(str(tmp_path / "log.db"))
    shared = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    own = [Match.create(store, "table", ["Ann", "Bob"], recorded_by="t") for _ in range(4)]
    errors: list[BaseException] = []

    def on_shared(n: int) -> None:
        m = Match.open(store, shared.id)  # each thread its own Match, as each request has
        for i in range(20):
            m.record("note", {"text": f"thread {n} note {i}"}, recorded_by="t")

    def on_own(m: Match) -> None:
        for i in range(20):
            store.append(m.id, [note(f"{i}")])

    def guarded(work, arg) -> None:
        try:
            work(arg)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    workers = [threading.Thread(target=guarded, args=(on_shared, n)) for n in range(4)]
    workers += [threading.Thread(target=guarded, args=(on_own, m)) for m in own]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    assert store.head(shared.id).position == 1 + 4 * 20
    assert all(store.head(m.id).position == 21 for m in own)
    for m in [shared, *own]:
        report = store.verify(m.id)
        assert report.ok, report.to_dict()
    store.close()


def test_a_failed_transaction_leaves_nothing_and_the_next_one_works(tmp_path):
    path = str(tmp_path / "w.db")
    sqlite3.connect(path).execute("CREATE TABLE t (k TEXT PRIMARY KEY)").connection.commit()
    writer = SQLiteWriter(path, timeout=1)
    with writer.transaction() as c:
        c.execute("INSERT INTO t VALUES ('a')")
    with pytest.raises(IntegrityError):  # sqlite3's error, as the library's
        with writer.transaction() as c:
            c.execute("INSERT INTO t VALUES ('b')")
            c.execute("INSERT INTO t VALUES ('a')")  # taken: the whole transaction goes
    with pytest.raises(RuntimeError):
        with writer.transaction() as c:
            c.execute("INSERT INTO t VALUES ('c')")
            raise RuntimeError("the caller changed its mind")
    with writer.transaction() as c:
        c.execute("INSERT INTO t VALUES ('d')")
    assert [r[0] for r in sqlite3.connect(path).execute("SELECT k FROM t ORDER BY k")] == ["a", "d"]
    writer.close()


def test_a_writer_waiting_for_another_process_gives_up_with_an_operational_error(tmp_path):
    """Another connection holds the write lock past the busy timeout: the library's OperationalError,
    which the store words as "busy or unavailable; nothing was stored"."""
    path = str(tmp_path / "w.db")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("CREATE TABLE t (k TEXT)")
    other.execute("BEGIN IMMEDIATE")
    writer = SQLiteWriter(path, timeout=0.2)
    with pytest.raises(OperationalError, match="locked"):
        with writer.transaction() as c:
            c.execute("INSERT INTO t VALUES ('x')")
    other.execute("ROLLBACK")
    with writer.transaction() as c:
        c.execute("INSERT INTO t VALUES ('y')")
    assert other.execute("SELECT k FROM t").fetchall() == [("y",)]
    writer.close()
    other.close()


def test_memory_databases_keep_the_library_transaction():
    assert SQLiteWriter.usable("/tmp/x.db") and SQLiteWriter.usable("file:/tmp/x.db")
    assert not SQLiteWriter.usable(":memory:")
    assert not SQLiteWriter.usable("file:x?mode=memory&cache=shared")


def test_a_write_inside_a_write_of_the_same_thread_is_refused_not_a_hang(tmp_path):
    path = str(tmp_path / "w.db")
    sqlite3.connect(path).execute("CREATE TABLE t (k TEXT)").connection.commit()
    writer = SQLiteWriter(path, timeout=1)
    with pytest.raises(RuntimeError, match="inside another"):
        with writer.transaction() as c:
            c.execute("INSERT INTO t VALUES ('outer')")
            with writer.transaction():
                pass
    with writer.transaction() as c:  # the outer one rolled back; the writer works on
        c.execute("INSERT INTO t VALUES ('after')")
    assert [r[0] for r in sqlite3.connect(path).execute("SELECT k FROM t")] == ["after"]
    writer.close()


class _InterruptedAcquire:
    """The writer's lock, with a Ctrl-C landing right after acquire() returns: the moment the
    interpreter runs a pending signal handler after a C call."""

    def __init__(self, lock):
        self.lock = lock
        self.armed = True

    def acquire(self, *a):
        got = self.lock.acquire(*a)
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt
        return got

    def __getattr__(self, name):
        return getattr(self.lock, name)


def test_an_interrupt_right_after_the_lock_is_taken_lets_it_go(tmp_path):
    """Review finding: the lock was taken before the `try`, so a Ctrl-C landing right after the
    acquire left it held and every later write (a server's every request) waited for ever."""
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    writer = store._writer
    real = writer._lock
    writer._lock = _InterruptedAcquire(real)
    with pytest.raises(KeyboardInterrupt):
        store.append(m.id, [note("lost")])
    writer._lock = real
    taken = []
    other = threading.Thread(target=lambda: taken.append(real.acquire(timeout=2) and (real.release() or True)))
    other.start()
    other.join()
    assert taken == [True], "the lock was left held"
    store.append(m.id, [note("kept")])
    assert [e.payload.get("text") for e in store.read(m.id)][1:] == ["kept"]
    store.close()


def test_an_interrupt_after_begin_does_not_leave_the_connection_in_a_transaction(tmp_path):
    """Ctrl-C landing as BEGIN returns: the next write used to fail with "cannot start a
    transaction within a transaction" until the process was restarted."""
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    writer = store._writer

    class Interrupting(sqlite3.Cursor):
        def execute(self, sql, *a):
            out = super().execute(sql, *a)
            if sql == "BEGIN":
                raise KeyboardInterrupt
            return out

    class Connection(sqlite3.Connection):
        def cursor(self, factory=Interrupting):
            return super().cursor(factory)

    with writer.transaction():
        pass  # the writer's connection exists
    plain = writer._conn
    writer._conn = sqlite3.connect(writer.dbname, uri=True, isolation_level=None, factory=Connection)
    with pytest.raises(KeyboardInterrupt):
        store.append(m.id, [note("lost")])
    writer._conn.close()
    writer._conn = plain
    # the interrupted connection's leftover, as the last one would have left it
    plain.execute("BEGIN")
    store.append(m.id, [note("kept")])
    assert [e.payload.get("text") for e in store.read(m.id)][1:] == ["kept"]
    assert store.verify(m.id).ok
    store.close()
