"""The store's integrity parts, below the CLI: the guard's inspection and upgrade, the write id,
the storage-order check, checked snapshots, anchors and seals (engine/guard.py, engine/store.py,
engine/integrity.py). The attacks themselves, end to end, are in tests/reliability/."""
from __future__ import annotations

import json
import sqlite3

import pytest

from engine import guard
from engine.events import Draft
from engine.integrity import (
    Anchor,
    AnchorInputError,
    anchors_in_file,
    check_anchor,
    parse_anchor_arg,
    seal_hash,
    verify_match,
)
from engine.match import Match
from engine.replay import SNAPSHOT_EVERY
from engine.store import LOG_STREAM, EventStore, GuardBroken, anchor_token


def note(text: str) -> Draft:
    return Draft("note", 1, "-", {"text": text}, "t")


def test_a_write_carries_a_write_id_on_its_first_event_and_it_is_hashed(store):
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    events = store.append(m.id, [note("a"), note("b")])
    assert events[0].write_id and events[1].write_id is None
    assert store.created(m.id).write_id and store.created(m.id).write_id != events[0].write_id
    assert store.read(m.id)[1] == events[0]
    assert events[0].computed_hash() == events[0].hash
    assert events[0]._replace(write_id="0" * 16).computed_hash() != events[0].hash
    assert store._landed(m.id, events[0])
    assert not store._landed(m.id, events[0]._replace(hash="f" * 64))


def test_an_exported_chain_imports_with_its_write_ids(tmp_path):
    from judge.io.importers.jsonl import import_file

    a = EventStore.open(str(tmp_path / "a.db"))
    m = Match.create(a, "table", ["Ann", "Bob"], recorded_by="t")
    a.append(m.id, [note("x"), note("y")])
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in a.read(m.id)))
    b = EventStore.open(str(tmp_path / "b.db"))
    import_file(b, str(path), judge=False)
    assert b.read(m.id) == a.read(m.id)


def test_a_guard_dropped_while_a_writer_is_open_refuses_its_next_write(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    with sqlite3.connect(sqlite_path) as c:
        c.execute("DROP TRIGGER tablejudge_no_delete")
    with pytest.raises(GuardBroken, match="trigger tablejudge_no_delete is missing"):
        m.record("note", {"text": "after"})
    assert store.head(m.id).position == 1  # the write was rolled back


def test_an_intact_guard_of_an_older_tablejudge_is_upgraded_and_the_upgrade_recorded(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.close()
    with sqlite3.connect(sqlite_path) as c:  # the log as tablejudge 0.1 left it
        for name in guard.SQLITE_GUARD:
            if name not in guard.SQLITE_LEGACY:
                c.execute(f"DROP TRIGGER {name}")
        c.execute("DROP TABLE tablejudge_meta")
    status = guard.sqlite_inspect([(n, t, s) for n, (t, s) in guard.SQLITE_GUARD.items() if n in guard.SQLITE_LEGACY])
    assert status.legacy and not status.problems
    store = EventStore.open(sqlite_path)
    assert store.guard_upgraded and store.guard.ok
    assert [e.kind for e in store.read(LOG_STREAM)] == ["log.created", "guard.upgraded"]
    assert verify_match(store, m.id).ok


def test_a_replaced_row_is_named_by_its_storage_order(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.append(m.id, [note("a"), note("b"), note("c")])
    with sqlite3.connect(sqlite_path) as c:
        c.execute("DROP TRIGGER tablejudge_no_replace")
        c.execute("INSERT OR REPLACE INTO stored_events SELECT * FROM stored_events WHERE originator_version = 2")
    report = EventStore.open(sqlite_path).verify(m.id)
    assert report.first_break.position == 2 and "stored after the event that follows it" in report.first_break.reason


def test_verify_says_what_it_checked_and_what_it_cannot_know(store):
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    report = verify_match(store, m.id).to_dict()
    assert report["ok"] and report["anchor"] == anchor_token(m.id, 1, report["head_hash"])
    assert any("hash chain of 1 event" in c for c in report["checked"])
    assert any("deleted tail" in c for c in report["cannot_know"])


def test_a_snapshot_standing_on_another_event_is_not_used(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.append(m.id, [Draft("counter", 1, "-", {"player": "Ann", "name": "life", "add": 1}, "t")
                        for _ in range(SNAPSHOT_EVERY + 10)])
    truth = m.state(at=SNAPSHOT_EVERY + 5).state_hash()
    snap = store.snapshot_at_or_before(m.id, m.replayer.key, SNAPSHOT_EVERY)
    assert snap.position == SNAPSHOT_EVERY
    # the same snapshot, kept for another chain (another event's hash): never used
    store2 = EventStore.open(sqlite_path)
    real = store2.snapshot_at_or_before
    store2.snapshot_at_or_before = lambda *a: real(*a) and type(snap)(snap.position, "e" * 64, {"bogus": 1})
    m2 = Match.open(store2, m.id)
    assert m2.state(at=SNAPSHOT_EVERY + 5).state_hash() == truth
    assert m2.replayer.distrusted == [SNAPSHOT_EVERY]



def test_a_snapshot_row_holds_its_states_canonical_bytes_and_an_older_format_is_never_used(sqlite_path):
    """The row is canonical JSON ending in the state's canonical bytes, which its "hash" covers
    (`state` hashes that slice, never encodes the state again); a row of the format before (s2,
    its hash under "state_hash") is neither read nor compared, even with every hash made to fit."""
    from engine.canonical import canonical_bytes, sha256_hex

    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.append(m.id, [Draft("counter", 1, "-", {"player": "Ann", "name": "life", "add": 1}, "t")
                        for _ in range(SNAPSHOT_EVERY + 10)])
    m.state(at=SNAPSHOT_EVERY + 5)
    ((key, at, data),) = store.all_snapshots(m.id)
    d = json.loads(data)
    state = canonical_bytes(d["state"])
    assert (key, at) == (store.snapshot_key_id(m.replayer.key), SNAPSHOT_EVERY) and key.endswith("/s3")
    assert data == canonical_bytes(d) and data.endswith(b',"state":' + state + b"}")
    assert sorted(d) == ["at", "event_hash", "hash", "state"] and d["hash"] == sha256_hex(state)
    # an s2 row at a later snapshot position, well formed but telling another table: never used
    at2 = 2 * SNAPSHOT_EVERY
    store.append(m.id, [note("x") for _ in range(at2 - SNAPSHOT_EVERY)])
    wrong = dict(d["state"], position=at2, turn=99)
    old = canonical_bytes({"at": at2, "event_hash": store.event_at(m.id, at2).hash,
                           "state_hash": sha256_hex(canonical_bytes(wrong)), "state": wrong})
    c = sqlite3.connect(sqlite_path)
    with c:
        c.execute("INSERT INTO stored_snapshots VALUES (?, ?, ?, ?)",
                  (f"{m.id}/{m.replayer.key}/s2", at2, m.replayer.key, old))
    c.close()
    fresh = Match.open(EventStore.open(sqlite_path), m.id)
    assert fresh.state(at=at2 + 1).turn != 99
    report = verify_match(fresh.store, m.id)
    assert report.ok
    assert any("1 snapshot of another ruleset version, options or snapshot format" in c for c in report.checked)

def test_anchor_tokens_hashes_and_files(tmp_path, store):
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    head = store.append(m.id, [note("a")])[-1]
    token = anchor_token(m.id, head.position, head.hash)
    (a,) = parse_anchor_arg(token)
    assert (a.stream, a.position, a.hash) == (m.id, 2, head.hash)
    assert check_anchor(store, a).ok
    (bare,) = parse_anchor_arg(head.hash)
    assert bare.stream is None and check_anchor(store, bare).ok
    assert not check_anchor(store, Anchor(m.id, 3, head.hash)).ok
    page = tmp_path / "page.html"
    page.write_text(f"<p>{token}</p><p>{token}</p>")
    assert len(anchors_in_file(str(page))) == 1
    csv_export = tmp_path / "m.csv"
    csv_export.write_text(f"match,position,hash\n{m.id},1,{store.created(m.id).hash}\n{m.id},2,{head.hash}\n")
    (h,) = anchors_in_file(str(csv_export))
    assert (h.position, h.hash) == (2, head.hash)
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here")
    with pytest.raises(AnchorInputError, match="holds no anchor"):
        anchors_in_file(str(empty))
    with pytest.raises(AnchorInputError, match="neither an anchor"):
        parse_anchor_arg("not-an-anchor")


def test_a_seal_hash_covers_its_scope_and_every_head():
    heads = [{"stream": "t-1", "position": 9, "hash": "a" * 64}, {"stream": "m", "position": 3, "hash": "b" * 64}]
    h = seal_hash("t-1 round 1", heads)
    assert h == seal_hash("t-1 round 1", [dict(x) for x in heads])
    assert h != seal_hash("t-1 round 2", heads)
    assert h != seal_hash("t-1 round 1", heads[:1])
    assert h != seal_hash("t-1 round 1", [heads[0], dict(heads[1], position=2)])


def _tamper(path: str, match: str, *, edit: int | None = None, delete_after: int | None = None) -> None:
    """What QA71 did with the file in hand: the guard dropped, the tail deleted, an event edited."""
    with sqlite3.connect(path) as c:
        c.execute("DROP TRIGGER tablejudge_no_delete")
        c.execute("DROP TRIGGER tablejudge_no_update")
        if delete_after is not None:
            c.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version > ?",
                      (match, delete_after))
        if edit is not None:
            (state,) = c.execute("SELECT state FROM stored_events WHERE originator_id = ? AND "
                                 "originator_version = ?", (match, edit)).fetchone()
            d = json.loads(state)
            d["payload"]["text"] = "edited"
            c.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                      (json.dumps(d, sort_keys=True, separators=(",", ":")).encode(), match, edit))


def _repair(store: EventStore) -> dict:
    from judge.evidence import verify

    return verify(store, [], repair=True).repair


def test_after_a_repair_appends_to_a_match_whose_chain_is_broken_are_refused(sqlite_path):
    from engine.store import ChainBroken

    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    other = Match.create(store, "table", ["Cy", "Di"], recorded_by="t")
    store.append(m.id, [note(str(i)) for i in range(2, 8)])
    store.close()
    _tamper(sqlite_path, m.id, edit=3)
    store = EventStore.open(sqlite_path)
    repair = _repair(store)
    assert repair["broken"] == [{"stream": m.id, "position": 3, "reason": repair["broken"][0]["reason"]}]
    assert repair["heads"][m.id] == 7
    with pytest.raises(ChainBroken, match=rf"chain of {m.id} is broken at event 3.*event {repair['event']} of"):
        Match.open(store, m.id).record("note", {"text": "after repair"})
    with pytest.raises(ChainBroken):
        store.append(m.id, [note("x")])
    assert store.head(m.id).position == 7  # nothing stored
    Match.open(store, other.id).record("note", {"text": "a sound match still takes appends"})
    # another process (a fresh store) sees the record too; the incident is read once per head of
    # the incident stream, not on every write
    fresh = EventStore.open(sqlite_path)
    reads = []
    real = fresh.read
    fresh.read = lambda s, **kw: reads.append(s) or real(s, **kw)
    for i in range(3):
        fresh.append(other.id, [note(f"o{i}")])
    assert reads.count(LOG_STREAM) == 1
    with pytest.raises(ChainBroken):
        fresh.append(m.id, [note("x")])


def test_an_incident_another_process_records_between_two_appends_refuses_the_next(sqlite_path):
    """A writer skips its write checks while no other connection has committed (PRAGMA
    data_version): a chain.broken recorded by another process must still be seen at once."""
    from engine.store import ChainBroken

    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    for text in ("a", "b", "c"):  # the checks pass, then are skipped
        m.record("note", {"text": text})
    other = EventStore.open(sqlite_path)  # another process's `verify --repair`
    other.repair_guard(broken=[{"stream": m.id, "position": 2, "reason": "edited"}])
    other.close()
    with pytest.raises(ChainBroken, match=f"chain of {m.id} is broken at event 2"):
        m.record("note", {"text": "after the repair"})
    assert store.head(m.id).position == 4  # nothing stored


def test_a_guard_dropped_by_another_process_between_two_appends_refuses_the_next(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    for text in ("a", "b"):
        m.record("note", {"text": text})
    with sqlite3.connect(sqlite_path) as c:
        c.execute("DROP TRIGGER tablejudge_no_update")
    with pytest.raises(GuardBroken, match="trigger tablejudge_no_update is missing"):
        m.record("note", {"text": "after"})
    assert store.head(m.id).position == 3


def test_an_incident_this_store_records_refuses_its_next_append_at_once(sqlite_path):
    """Its own connection's commits do not change data_version: the skip must not hide them."""
    from engine.store import ChainBroken

    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    for text in ("a", "b"):
        m.record("note", {"text": text})
    # (recorded after the store read the incidents: only the append's own checks can know)
    store.repair_guard(broken=[{"stream": m.id, "position": 2, "reason": "edited"}])
    with pytest.raises(ChainBroken):
        m.record("note", {"text": "after"})
    assert store.head(m.id).position == 3


def test_verify_repair_records_a_chain_broken_while_the_guard_stayed_intact(sqlite_path):
    from engine.store import ChainBroken

    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.append(m.id, [note("a"), note("b")])
    store.close()
    _tamper(sqlite_path, m.id, edit=2)
    with sqlite3.connect(sqlite_path) as c:  # the guard put back exactly, by hand
        for name, (_, sql) in guard.SQLITE_GUARD.items():
            if name in ("tablejudge_no_delete", "tablejudge_no_update"):
                c.execute(sql)
    store = EventStore.open(sqlite_path)
    store.append(m.id, [note("before anyone looked")])  # nobody knows yet: no full check per write
    repair = _repair(store)
    assert repair["kind"] == "chain.broken" and repair["broken"][0]["position"] == 2
    with pytest.raises(ChainBroken):
        store.append(m.id, [note("x")])
    assert _repair(store) == {"event": None}  # recorded once


def test_an_anchor_past_a_deleted_tail_counts_the_removed_events_and_names_the_later_one(sqlite_path):
    store = EventStore.open(sqlite_path)
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    store.append(m.id, [note(str(i)) for i in range(2, 11)])
    anchored = store.head(m.id)  # event 10, as a report printed it
    store.close()
    _tamper(sqlite_path, m.id, delete_after=5)  # 6-10 removed; the chain that is left holds
    store = EventStore.open(sqlite_path)
    repair = _repair(store)
    assert repair["heads"][m.id] == 5 and repair["broken"] is None
    (later,) = store.append(m.id, [note("after repair")])  # event 6, another event
    result = check_anchor(store, Anchor(m.id, 10, anchored.hash))
    assert not result.ok
    assert "ends at event 6, but the anchor names event 10: 5 events removed (6-10)" in result.message
    assert f"event 6 now in the log is another event, recorded after that repair (note, hash {later.hash[:16]}" \
        in result.message
