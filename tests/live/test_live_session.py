"""The live recorder as a library: completion words, `?`, and a lost race judged again."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.live import LiveSession


def _session(tmp_path, ruleset="optcg"):
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, ruleset, ["Ann", "Bob"])
    return store, m, LiveSession(m, judge="Kim", recorded_by="one")


def test_completion_offers_cards_from_the_decklists_seats_and_verbs(tmp_path):
    _, m, s = _session(tmp_path)
    s.handle('A: deck OP01-001 4xOP01-013 46xOP01-016')
    assert "A:" in s.completions("") and "T1" in s.completions("")
    assert "attach" in s.completions("A: at")
    assert s.completions("A: play OP01-01") == ["OP01-013", "OP01-016"]
    assert "keep" in s.completions("A: mulligan k")
    assert "hand>" in s.completions("A: ha")


def test_question_mark_keeps_only_lines_the_rules_accept(tmp_path):
    _, m, s = _session(tmp_path, "table")
    s.handle("A: setup deck 5")
    out = s.handle("?").text
    assert "T1 A:" in out and "A: draw" in out
    s.handle("T1 A: draw 5")
    out = s.handle("?").text
    assert "T2 B:" in out and "A: draw" not in out  # the deck is empty: a draw would be flagged


def test_a_lost_race_is_judged_again_and_reported(tmp_path):
    store, m, s = _session(tmp_path, "table")
    other = LiveSession(Match(store, m.id), recorded_by="two")
    s.handle("A: setup deck 1")
    other.handle("A: deck>hand")  # the other recorder takes the only card
    reply = s.handle("A: deck>hand")
    assert "[two] #3 A: deck>hand" in reply.text
    assert "#4 A: deck>hand" in reply.text
    assert any(f.rule == "TABLE-1" for f in reply.findings)  # judged against the table as left
    assert [e.recorded_by for e in m.events()][1:] == ["one", "two", "one"]


def test_undo_and_references_work_after_another_recorder_wrote(tmp_path):
    """Two laptops: the first one's `undo` voids its own last event (not the other's), and a
    ruling may answer a call the other laptop just recorded."""
    store, m, s = _session(tmp_path, "table")
    other = LiveSession(Match(store, m.id), judge="Kim", recorded_by="two")
    mine = s.handle("A: setup deck 5").recorded[0].position
    other.handle("B: setup deck 5")
    other.handle('judge Kim: call B "is that legal?"')
    reply = s.handle("undo")
    assert not reply.refused, reply.text
    voided = [e for e in reply.recorded if e.kind == "correction"][0]
    assert voided.payload["voids"] == mine
    call = m.store.head(m.id).position - 1
    reply = s.handle(f'judge Kim: ruling "fine" call={call}')
    assert not reply.refused, reply.text


def test_a_wrong_turn_header_stores_nothing(tmp_path):
    _, m, s = _session(tmp_path, "optcg")
    s.handle("A: order A B")
    head = m.head_position()
    reply = s.handle("T5 A: refresh")  # the log makes this turn 1
    assert reply.refused and "nothing of this line was recorded" in reply.text
    assert m.head_position() == head


def test_strict_refuses_the_whole_line_when_any_action_would_be_flagged(tmp_path):
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "table", ["Ann", "Bob"])
    s = LiveSession(m, strict=True, recorded_by="one")
    s.handle("A: setup deck 3")
    head = m.head_position()
    reply = s.handle("A: deck>hand · field>trash · counter life -1")  # the field is empty
    assert reply.refused and "action 2 of the line" in reply.text
    assert m.head_position() == head  # not even the legal first action
