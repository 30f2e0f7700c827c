"""optcg facts on a log that stops before the table the judge reads (QA88 #4): `--facts "turn=3"`
on a log whose last turn is turn 0 took the log's turn-0 Life and deck counts as the table's, and
refused the judge's real `deck=38-37` as a contradiction. The counts that change every turn are
taken from the log, and checked against it, only where the log reaches the judge's turn."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from tests.conftest import run_in_process
from tests.rulesets.optcg.test_optcg_time_policies import game


def recorded(tmp_path, *, stop_at_the_call: bool):
    """The time-policies game: time called in game turn 3 (turn 0); the whole log plays extra turns
    1-3 (Life 4-4, decks 38-38); cut, it stops when turn 0 ends (Life 5-5, decks 39-39)."""
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"])
    items = game()
    if stop_at_the_call:
        items = items[:next(i for i, (kind, _, _) in enumerate(items) if kind == "time.called") + 2]
    for kind, actor, payload in items:
        m.record(kind, payload, actor=actor)
    return db, m


def test_a_log_that_stops_at_turn_0_gives_no_counts_for_turn_3(tmp_path):
    db, m = recorded(tmp_path, stop_at_the_call=True)
    head = m.head_position()
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3", "--dry-run")
    assert code == 2 and "needs life=" in err, out + err  # asked for, not the log's turn-0 5-5
    assert "the log has life" not in err and "the log stops at turn 0" in err
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3 life=4-4 deck=38-37", "--judge", "Kim")
    assert code == 0 and "contradict" not in err, out + err
    assert "winner: Ann" in out and "cards in the deck: Ann 38, Bob 37" in out
    assert "the log stops at turn 0" in out and m.head_position() == head + 1
    # where the judge reads the table the log stops at, the log's counts are still the table's
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=0 life=1-1", "--dry-run")
    assert code == 2 and "life: --facts reads Ann 1, Bob 1, the log has Ann 5, Bob 5" in err, out + err


def test_the_whole_log_still_refuses_what_contradicts_it(tmp_path):
    db, m = recorded(tmp_path, stop_at_the_call=False)
    head = m.head_position()
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3 deck=39-39", "--dry-run")
    assert code == 2 and "deck: --facts reads Ann 39, Bob 39, the log has Ann 38, Bob 38" in err, out + err
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=2", "--dry-run")
    assert code == 2 and "turn: --facts reads 2, the log has 3" in err
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3", "--dry-run")
    assert code == 2 and "needs last_life=" in err and "the log has life=4-4 deck=38-38 characters=1-1" in err
    assert "the log stops" not in out + err and m.head_position() == head


def test_the_characters_on_the_field_are_the_logs_too(tmp_path):
    """QA89 HIGH: `--facts "characters=5-0"` against a log whose field holds 1 and 1 was stored and
    gave the match to Ann; with any other fact given, characters= was asked for though the log
    counts them (its own decision does). Refused like Life, and taken from the log when left out."""
    db, m = recorded(tmp_path, stop_at_the_call=False)
    head = m.head_position()
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "characters=5-0", "--judge", "Kim")
    assert code == 2 and "characters: --facts reads Ann 5, Bob 0, the log has Ann 1, Bob 1" in err, out + err
    assert m.head_position() == head
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "last_life=A", "--dry-run")
    assert code == 0 and "characters=1-1" in out and "needs characters=" not in err, out + err
    # past where the log stops, the field is the table's to read, as Life and deck are
    (tmp_path / "cut").mkdir()
    cut, mc = recorded(tmp_path / "cut", stop_at_the_call=True)
    code, out, err = run_in_process(cut, "timelimit", mc.id, "--facts", "turn=3 life=4-4 deck=38-38", "--dry-run")
    assert code == 2 and "needs characters=" in err, out + err
    assert "its life, deck and characters counts are not the table's then" in err, err


def test_a_log_of_life_and_turns_alone_does_not_know_the_field(tmp_path):
    """A scorekeeper who records turns and Life but no plays: the log's field is empty because
    nothing was recorded there, not because the table's is. The judge's count of Characters is
    asked for and taken, never refused against that empty field."""
    db = tmp_path / "t.db"
    m = Match.create(EventStore.open(str(db)), "optcg", ["Ann", "Bob"])
    for kind, actor, payload in game():
        if kind != "play":
            m.record(kind, payload, actor=actor)
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "turn=3", "--dry-run")
    assert code == 2 and "needs characters=" in err and "characters=0-0" not in err, out + err
    code, out, err = run_in_process(db, "timelimit", m.id, "--facts", "characters=2-1", "--dry-run")
    assert code == 0 and "contradict" not in err and "winner: Ann" in out, out + err
