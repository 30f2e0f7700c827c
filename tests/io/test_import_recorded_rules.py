"""An export re-imports whole, whatever rules of recording came after it was recorded (review of
QA76's fixes: a correction with a blank reason, or a scorekeeper's void of an event a judge's
correction stood on, was stored before those were refused; its log then refused to move to another
laptop). The same lines typed as new (no hash) are still refused."""
from __future__ import annotations

import io
import json

import pytest

from engine.events import Draft
from engine.match import InputError, Match
from engine.store import EventStore
from judge.io.exporters.jsonl import export_match
from judge.io.importers import _jsonl_workers
from judge.io.importers.jsonl import import_file


def _old_log(tmp_path) -> tuple[Match, str]:
    """A log as the code before those rules stored it, exported to JSONL."""
    store = EventStore.open(str(tmp_path / "old.db"))
    m = Match.create(store, "table", ["Ann", "Bob"], recorded_by="t")
    m.record("note", {"text": "judge present"})
    m.record("setup", {"player": "Ann", "zone": "deck", "count": 40})
    m.record("correction", {"voids": 3, "reason": "wrong deck"}, actor="judge:Kim")  # event 4
    # stored without today's checks, as they were: a blank reason, and a scorekeeper's void of
    # the event a judge's correction stands on (draft by hand, appended as the old writer did)
    store.append(m.id, [Draft("correction", 1, "scorekeeper:Sam", {"voids": 2, "reason": " "}, "t", None),
                        Draft("correction", 1, "scorekeeper:Sam", {"voids": 3, "reason": "again"}, "t", None)])
    out = io.StringIO()
    export_match(Match(store, m.id), out)
    path = tmp_path / "old.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    return m, str(path)


@pytest.mark.parametrize("workers", [0, 2])
def test_an_export_from_before_a_rule_of_recording_reimports_whole(tmp_path, workers, monkeypatch):
    # two workers: chunks of 2 lines (the file is short), so the corrections and what they void
    # are drafted in different processes, as in a long file
    monkeypatch.setattr(_jsonl_workers, "MIN_EVENTS", 1)
    monkeypatch.setattr(_jsonl_workers, "CHUNK", 2)
    m, path = _old_log(tmp_path)
    fresh = EventStore.open(str(tmp_path / f"new{workers}.db"))
    summary = import_file(fresh, path, recorded_by="t", workers=workers)
    assert (summary.match, summary.events) == (m.id, 6)
    assert summary.extra.get("workers", 0) == workers
    assert [e.hash for e in fresh.read(m.id)] == [e.hash for e in m.store.read(m.id)]  # the same chain


def test_the_same_lines_typed_as_new_are_still_refused(tmp_path):
    _, path = _old_log(tmp_path)
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    bare = [{k: v for k, v in obj.items() if k in ("kind", "actor", "payload")} for obj in lines]
    typed = tmp_path / "typed.jsonl"
    typed.write_text("".join(json.dumps(obj) + "\n" for obj in bare[:5]), encoding="utf-8")
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(str(tmp_path / "typed.db")), str(typed), recorded_by="t")
    assert (e.value.where, e.value.field) == (f"{typed}:5", "payload.reason") and "needs its reason" in e.value.message
    bare[4]["payload"]["reason"] = "typo"
    typed.write_text("".join(json.dumps(obj) + "\n" for obj in bare), encoding="utf-8")
    with pytest.raises(InputError) as e:
        import_file(EventStore.open(str(tmp_path / "typed2.db")), str(typed), recorded_by="t")
    assert e.value.field == "payload.voids" and "only a judge can correct it again" in e.value.message


@pytest.mark.parametrize("workers", [0, 2])
def test_the_same_replacement_twice_in_a_file_is_refused_however_it_is_split(tmp_path, workers, monkeypatch):
    """Review: split among worker processes, a chunk read an earlier chunk's correction as its line
    spells it (no kind, no version, the payload unparsed) and compared it with its own as stored,
    so the same replacement said twice passed where a one-process import refused it."""
    monkeypatch.setattr(_jsonl_workers, "MIN_EVENTS", 1)
    monkeypatch.setattr(_jsonl_workers, "CHUNK", 2)
    fix = {"kind": "correction", "actor": "judge:Kim",
           "payload": {"voids": 3, "reason": "miscounted",
                       "instead": {"actor": "-", "payload": {"player": "Ann", "zone": "deck", "count": 39}}}}
    objs = [{"kind": "match.created", "payload": {"ruleset": "table", "players": ["Ann", "Bob"]}},
            {"kind": "note", "payload": {"text": "judge present"}},
            {"kind": "setup", "payload": {"player": "Ann", "zone": "deck", "count": 40}},
            fix,  # event 4 (line 4): chunks of two events: 2-3 (the main process), 4-5, 6-7
            {"kind": "note", "payload": {"text": "n"}}, {"kind": "note", "payload": {"text": "n"}},
            fix]  # event 7: another chunk than the first
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in objs), encoding="utf-8")
    store = EventStore.open(str(tmp_path / "t.db"))
    with pytest.raises(InputError) as e:
        import_file(store, str(path), recorded_by="t", workers=workers)
    assert (e.value.where, e.value.field) == (f"{path}:7", "payload.instead")
    assert e.value.message == "event 3 already reads so: correction 4 says the same"
    assert store.match_ids() == []  # nothing stored
