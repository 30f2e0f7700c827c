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


def test_matches_lists_the_name_a_replacing_correction_gives_as_replay_does(tmp_path):
    """A judge's correction that REPLACES a `player.named` event (`instead`, engine/replacing.py)
    was ignored by `match_names`: `tablejudge matches` listed the name the replaced event gave,
    while replay (`state`) played the replacement and showed the corrected one."""
    import json

    from engine.names import names_now
    from engine.replay import Replayer
    from tests.conftest import run_cli

    db = str(tmp_path / "log.db")
    store = EventStore.open(db)
    m = Match.create(store, "optcg", ["LeoIlPirata#3980", "Player 2"], recorded_by="t")
    named(m, "Player 2", "Theshyopop#27318")  # mistyped by the copy
    m.record("correction", {"voids": 2, "reason": "the copy misspelt the id",
                            "instead": {"actor": "-", "payload": {"player": "Player 2", "name": "Theshyopop#27381",
                                                                   "reason": "a longer copy names them"}}},
             actor="judge:Jo", recorded_by="t")
    replayed = names_now(Replayer(store, m.id).state_at(save_snapshots=False))
    store.close()
    assert replayed["Player 2"] == "Theshyopop#27381"
    r = run_cli("matches", "--json", db=db)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)[0]["named"] == ["LeoIlPirata#3980", "Theshyopop#27381"]
    assert "Theshyopop#27381 (seat Player 2)" in run_cli("matches", db=db).stdout
