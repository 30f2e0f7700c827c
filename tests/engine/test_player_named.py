"""Who may name a seat (`player.named`, engine/names.py). Review finding (2026-11-27): any
recorder could record it, so a player recording "Ann is Bob, Bob is Ann" moved Ann's win to Bob
when the tournament took the match's result. Only the importer (the table, '-') or a judge names a
seat, only a seat known by the simulator's placeholder, and never by another seat's name."""
from __future__ import annotations

import pytest

from engine.match import InputError, Match
from engine.names import match_names
from engine.store import EventStore


@pytest.fixture
def store(tmp_path):
    s = EventStore.open(str(tmp_path / "log.db"))
    yield s
    s.close()


def named(m: Match, seat: str, name: str, actor: str = "-"):
    return m.record("player.named", {"player": seat, "name": name, "reason": "a longer copy names them"},
                    actor=actor, recorded_by="t")


def test_a_player_cannot_rename_the_seats(store):
    m = Match.create(store, "optcg", ["Ann", "Bob"], recorded_by="t")
    with pytest.raises(InputError) as e:
        named(m, "Ann", "Bob", actor="Bob")
    assert e.value.field == "actor" and "importer" in str(e.value)
    with pytest.raises(InputError) as e:
        named(m, "Ann", "Carl", actor="scorekeeper:Sam")
    assert e.value.field == "actor"
    assert store.head(m.id).position == 1  # nothing stored


def test_a_seat_created_with_a_real_name_is_not_renamed_even_by_a_judge(store):
    m = Match.create(store, "optcg", ["Ann", "Bob"], recorded_by="t")
    with pytest.raises(InputError) as e:
        named(m, "Ann", "Carl", actor="judge:Jo")
    assert e.value.field == "payload.player" and "placeholder" in str(e.value)


def test_a_placeholder_is_named_by_the_table_or_a_judge_but_never_as_another_seat(store):
    m = Match.create(store, "optcg", ["LeoIlPirata#3980", "Player 2"], recorded_by="t")
    with pytest.raises(InputError) as e:
        named(m, "Player 2", "LeoIlPirata#3980")
    assert e.value.field == "payload.name"
    named(m, "Player 2", "Theshyopop#27381")
    assert match_names(Match.open(store, m.id)) == {"LeoIlPirata#3980": "LeoIlPirata#3980",
                                                   "Player 2": "Theshyopop#27381"}
    named(m, "Player 2", "Theshyopop#27382", actor="judge:Jo")  # a judge mends a wrong name
    assert match_names(Match.open(store, m.id))["Player 2"] == "Theshyopop#27382"
