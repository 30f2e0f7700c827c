"""The log itself, on SQLite and on a real PostgreSQL server: append-only, hash-chained, atomic,
optimistic concurrency."""
from __future__ import annotations

import json
import multiprocessing as mp
import sqlite3

import pytest

from engine.events import Draft
from engine.match import Match
from engine.store import ConflictError, EventStore, StoreError, VerifyReport
from tests.engine.race import at_once


def note(text: str, by: str = "t") -> Draft:
    return Draft("note", 1, "-", {"text": text}, by)


def new_match(store: EventStore) -> Match:
    return Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")


def test_positions_and_chain(store):
    m = new_match(store)
    events = store.append(m.id, [note("a"), note("b")])
    assert [e.position for e in events] == [2, 3]
    assert events[1].prev_hash == events[0].hash
    assert store.created(m.id).hash == events[0].prev_hash
    read = store.read(m.id)
    assert [e.position for e in read] == [1, 2, 3]
    assert read[2] == events[1]
    report = store.verify(m.id)
    assert report.ok and report.events == 3 and report.head_hash == events[1].hash
    assert report.guard_ok


def test_stale_expected_position_is_a_conflict_naming_match_and_position(store):
    m = new_match(store)
    store.append(m.id, [note("a")])
    with pytest.raises(ConflictError) as err:
        store.append(m.id, [note("late")], expected_position=1)
    assert m.id in str(err.value) and "end at event 1, but it ends at event 2" in str(err.value)
    assert [e.payload.get("text") for e in store.read(m.id)][1:] == ["a"]


def test_batch_is_all_or_nothing(store):
    m = new_match(store)
    # A batch whose hash check fails halfway must store none of it.
    with pytest.raises(StoreError):
        store.append(m.id, [note("a"), note("b")], expected_hashes=[None, "f" * 64])
    assert store.head(m.id).position == 1


def test_duplicate_match_id_refused(store):
    Match.create(store, "table", ["Ann", "Bob"], match_id="fixed-id")
    with pytest.raises(StoreError, match="already exists"):
        Match.create(store, "table", ["Ann", "Bob"], match_id="fixed-id")


def _raw_execute(db_url: str, statement: str) -> None:
    if db_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db_url.replace("postgresql://", "postgresql://", 1), autocommit=True) as c:
            c.execute(statement)
    else:
        with sqlite3.connect(db_url) as c:
            c.execute(statement)


@pytest.mark.parametrize("statement", [
    "UPDATE stored_events SET topic = 'x'",
    "DELETE FROM stored_events",
])
def test_database_refuses_update_and_delete(store, db_url, statement):
    m = new_match(store)
    store.append(m.id, [note("keep me")])
    with pytest.raises(Exception, match="append-only"):
        _raw_execute(db_url, statement)
    assert store.verify(m.id).ok
    assert store.read(m.id)[1].payload == {"text": "keep me"}


def test_postgres_refuses_truncate(pg_url):
    store = EventStore.open(pg_url)
    m = new_match(store)
    with pytest.raises(Exception, match="append-only"):
        _raw_execute(pg_url, "TRUNCATE stored_events")
    assert store.verify(m.id).ok
    store.close()


def verify_after(sqlite_path: str, tamper) -> VerifyReport:
    """A match of three notes, its file then changed by `tamper(connection)` (someone with the file
    and sqlite3), and what `verify` says of it."""
    store = EventStore.open(sqlite_path)
    m = new_match(store)
    store.append(m.id, [note("a"), note("b"), note("c")])
    store.close()
    with sqlite3.connect(sqlite_path) as c:
        tamper(c)
    return EventStore.open(sqlite_path).verify(m.id)


def test_verify_names_first_broken_link_after_tampering(sqlite_path):
    def edit(c):
        c.execute("DROP TRIGGER tablejudge_no_update")
        row = c.execute("SELECT state FROM stored_events WHERE originator_version = 3").fetchone()
        d = json.loads(row[0])
        d["payload"]["text"] = "edited"
        c.execute("UPDATE stored_events SET state = ? WHERE originator_version = 3",
                  (json.dumps(d).encode(),))

    report = verify_after(sqlite_path, edit)
    assert not report.ok
    assert report.first_break.position == 3
    assert "hash" in report.first_break.reason
    assert not report.guard_ok and "missing" in report.guard_detail


def test_verify_detects_a_deleted_event(sqlite_path):
    def delete(c):
        c.execute("DROP TRIGGER tablejudge_no_delete")
        c.execute("DELETE FROM stored_events WHERE originator_version = 2")

    report = verify_after(sqlite_path, delete)
    assert report.first_break.position == 3
    assert "missing" in report.first_break.reason


def test_reopening_keeps_guard_and_data(sqlite_path):
    m_id = new_match(EventStore.open(sqlite_path)).id
    store = EventStore.open(sqlite_path)
    assert store.match_ids() == [m_id]
    assert store.verify(m_id).ok


def test_match_listing_and_prefix_resolution(store):
    a = Match.create(store, "table", ["Ann", "Bob"], match_id="abcd1234")
    Match.create(store, "table", ["Cy", "Di"], match_id="abce9999")
    assert store.match_ids() == ["abcd1234", "abce9999"]
    assert store.resolve("abcd") == a.id
    with pytest.raises(Exception, match="no match"):
        store.resolve("abc")  # too short to be a prefix, and no such id
    Match.create(store, "table", ["Ann", "Bob"], match_id="abcd5678")
    with pytest.raises(Exception, match="ambiguous"):
        store.resolve("abcd")
    assert store.event_counts() == {"abcd1234": 1, "abce9999": 1, "abcd5678": 1}


def test_notification_log_orders_all_streams(store):
    a = new_match(store)
    b = new_match(store)
    store.append(a.id, [note("a1")])
    store.append(b.id, [note("b1")])
    seen = [(e.match, e.position) for _, e in store.notifications(1, 100)]
    assert seen == [(a.id, 1), (b.id, 1), (a.id, 2), (b.id, 2)]



def test_a_long_read_holds_the_garbage_collector_off_and_leaves_it_as_it_was(store):
    """Reading thousands of events starts no collection while it decodes (they cost a replay of
    20,000 events ~15%), and the collector is back as it was: on if it was on, off if it was off."""
    import gc

    m = new_match(store)
    store.append(m.id, [note(f"n{i}") for i in range(3000)])
    runs: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        assert gc.isenabled()
        events = store.read(m.id)
        during = len(runs)  # before anything else allocates: the collector may run right after
        assert during == 0 and gc.isenabled()
        gc.disable()
        try:
            assert len(store.read(m.id)) == len(events) == 3001 and not gc.isenabled()
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(count)


def test_a_failed_read_on_sqlite_is_said_in_words_not_raised_as_sqlite3s_error(sqlite_path):
    """Reads on SQLite skip the library's transaction (engine/store.py `_sqlite_rows`): its errors
    still come out as the store's, naming the log."""
    from engine.store import StoreUnavailable

    store = EventStore.open(sqlite_path)
    m = new_match(store)
    c = sqlite3.connect(sqlite_path)
    c.execute("ALTER TABLE stored_events RENAME TO elsewhere")
    c.commit()
    c.close()
    with pytest.raises(StoreUnavailable, match=r"cannot read the event log .*: no such table: stored_events"):
        store.read(m.id, after=1)

# --- two writers, real processes ---------------------------------------------------------------

def _writer(db: str, match: str, name: str, count: int, barrier, results) -> None:
    store = EventStore.open(db)
    conflicts = 0
    written = 0
    barrier.wait()
    while written < count:
        head = store.head(match).position
        try:
            store.append(match, [note(f"{name}-{written}", by=name)], expected_position=head)
            written += 1
        except ConflictError:
            conflicts += 1
    results.put((name, conflicts))
    store.close()


def test_two_processes_appending_lose_nothing_and_duplicate_nothing(db_url):
    store = EventStore.open(db_url)
    m = new_match(store)
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(2)
    results = ctx.Queue()
    per_writer = 40
    procs = [ctx.Process(target=_writer, args=(db_url, m.id, name, per_writer, barrier, results))
             for name in ("w1", "w2")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    events = store.read(m.id)
    texts = [e.payload["text"] for e in events[1:]]
    assert len(texts) == 2 * per_writer
    for name in ("w1", "w2"):
        # each writer's events are all there, once each, in its own order
        assert [t for t in texts if t.startswith(name)] == [f"{name}-{i}" for i in range(per_writer)]
    assert [e.position for e in events] == list(range(1, 2 * per_writer + 2))
    assert store.verify(m.id).ok


def _racer(db: str, match: str, head: int, barrier, results) -> None:
    store = EventStore.open(db)
    barrier.wait()
    try:
        store.append(match, [note("race")], expected_position=head)
        results.put("won")
    except ConflictError as e:
        results.put(f"conflict: {e}")
    store.close()


def test_same_position_race_has_exactly_one_winner(db_url):
    store = EventStore.open(db_url)
    m = new_match(store)
    outcomes = at_once(_racer, [(db_url, m.id, 1)] * 2)
    assert outcomes[1] == "won"
    # the loser either lost the insert itself ("position 2 was taken") or, if it read the head after
    # the winner had committed, was told the log has moved on: both name the match and position
    loser = outcomes[0]
    assert loser.startswith("conflict") and m.id in loser
    assert "position 2" in loser or "it ends at event 2" in loser
    assert store.head(m.id).position == 2
