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
