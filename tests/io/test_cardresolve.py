"""Card names said at a noisy table: a misspelling gets the nearest names, an ambiguous name is narrowed
by what the match holds (the player's cards seen, their Leader's colours: OPTCG-DECK-3), and a name
narrowed to one card says how."""
from __future__ import annotations

import time

import pytest

from judge.io import carddb
from judge.io.cardresolve import AmbiguousCard, Seat, UnknownCard, resolve

BLUE = Seat("Ann", ["OP01-060"], ["Blue"])  # Donquixote Doflamingo, a Blue Leader
RED = Seat("Bob", ["ST01-001"], ["Red"])  # Monkey.D.Luffy, a Red Leader


@pytest.fixture(scope="module")
def db():
    return carddb.CardDB()


def test_a_misspelt_name_gets_the_nearest_names_with_their_numbers(db):
    with pytest.raises(UnknownCard) as e:
        resolve(db, "hancok")
    assert "no card is called 'hancok': did you mean 'Boa Hancock' (" in e.value.message
    assert "OP01-078" in e.value.message and "'Hack'" not in e.value.message
    with pytest.raises(UnknownCard) as e:
        resolve(db, "namy")
    assert "did you mean 'Nami' (" in e.value.message
    with pytest.raises(UnknownCard, match=r"no card is called 'pikachu' \(give the card number"):
        resolve(db, "pikachu")  # nothing close: no made-up suggestion


def test_a_suggestion_is_narrowed_by_the_leaders_colours_and_says_what_to_type(db):
    with pytest.raises(UnknownCard) as e:
        resolve(db, "hancok", seat=RED)
    assert e.value.message.endswith("did you mean 'Boa Hancock' (in Bob's deck colours (Red): OP12-014)? "
                                    "type OP12-014 in its place")


def test_an_ambiguous_name_is_narrowed_by_the_leaders_colours_and_says_so(db):
    with pytest.raises(AmbiguousCard) as e:
        resolve(db, "nami", seat=BLUE)  # 35 Namis; 4 a Blue deck may hold (3 Blue Nami are Leaders)
    assert [n for n, _ in e.value.candidates] == ["OP09-050", "OP11-054", "P-053", "P-112"]
    assert e.value.message.startswith("'nami' could be 4 cards in Ann's deck colours (Blue): OP09-050 Nami")
    assert "type the card number in its place" in e.value.message
    with pytest.raises(AmbiguousCard) as e:
        resolve(db, "nami")  # no seat: every Nami, at most 8 listed
    assert "could be 35 cards: " in e.value.message and "and 27 more" in e.value.message


def test_a_name_narrowed_to_one_card_says_how(db):
    got = resolve(db, "nami", seat=Seat("Ann", ["OP01-060", "OP11-054"], ["Blue"]))
    assert got.code == "OP11-054"
    assert got.note == "nami \u2192 OP11-054, the only Nami seen in this match for Ann"
    got = resolve(db, "monet", seat=BLUE)  # not seen yet: the one Monet a Blue deck may hold
    assert got.note == "monet \u2192 OP01-082, the only Monet in Ann's deck colours (Blue)"
    with pytest.raises(AmbiguousCard, match=r"'diamante' could be 3 cards \(none in Ann's deck colours"):
        resolve(db, "diamante", seat=BLUE)  # no Blue Diamante: all three, and why none was kept
    assert resolve(db, "cross fire").note is None  # the only card of that name: nothing to say


def test_a_lookup_costs_well_under_a_few_milliseconds(db):
    resolve(db, "nami", seat=BLUE.__class__("Ann", ["OP11-054"], ["Blue"]))  # warm the name index
    start = time.perf_counter()
    for _ in range(50):
        resolve(db, "nami", seat=Seat("Ann", ["OP11-054"], ["Blue"]))
    assert (time.perf_counter() - start) / 50 < 0.01  # measured ~1 ms; 10 ms leaves room for a busy CI


def test_a_leader_field_is_narrowed_to_leader_cards_and_says_so(db):
    """A deck's `leader` is a Leader: `chopper` (29 cards, one a Leader) is OP08-001, said, never the
    Character ST01-006 a match happens to hold (it was picked silently)."""
    got = resolve(db, "chopper", among=["ST01-006"], role="leader")
    assert (got.code, got.note) == ("OP08-001", "chopper \u2192 OP08-001, the only Tony Tony.Chopper that is a Leader")
    with pytest.raises(AmbiguousCard) as e:
        resolve(db, "hancock", role="leader")
    assert e.value.message.startswith("'hancock' could be 2 Leader cards: OP07-038 Boa Hancock, OP14-041 Boa Hancock")
    # narrowed further by the player's cards: no colour step (a Leader is not a deck card)
    got = resolve(db, "doflamingo", seat=Seat("Ann", ["OP01-060"], ["Blue"]), role="leader")
    assert got.note == "doflamingo \u2192 OP01-060, the only Leader Donquixote Doflamingo seen in this match for Ann"
    with pytest.raises(UnknownCard, match="'monet' names no Leader card \\(it fits 6, none a Leader: EB03-010 Monet"):
        resolve(db, "monet", role="leader")
