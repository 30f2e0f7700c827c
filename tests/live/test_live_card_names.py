"""A scorekeeper types names: the live recorder stores numbers, shows names, completes names to numbers,
and the deck line takes its facts from the card data (no import step)."""
from __future__ import annotations

from engine.match import Match
from engine.store import EventStore
from judge.live import LiveSession

DECK = "A: deck OP01-060 4xOP01-078 4xOP01-077 4xZZ99-001 38xOP01-073"


def _session(tmp_path):
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    return m, LiveSession(m, judge="Kim", recorded_by="scorekeeper")


def test_the_deck_line_takes_facts_from_the_card_data_and_warns_once_for_unknown_numbers(tmp_path):
    m, s = _session(tmp_path)
    reply = s.handle(DECK)
    (e,) = reply.recorded
    assert e.payload["cards"]["OP01-078"] == {"name": "Boa Hancock", "category": "character", "cost": 4,
                                              "power": 5000, "counter": 1000, "colors": ["Blue"],
                                              "keywords": ["Blocker"]}
    assert e.payload["cards"]["OP01-060"]["life"] == 5 and "ZZ99-001" not in e.payload["cards"]
    unknown = [f for f in reply.findings if "unknown card number" in f.message]
    assert len(unknown) == 1 and unknown[0].severity == "warning" and "ZZ99-001" in unknown[0].message
    # the echo is the short line (the facts are the card data's), not 2 KB of JSON
    assert f"#{e.position} {DECK}" in reply.text and "cards=" not in reply.text
    assert m.events()[-1].payload == e.payload  # replay reads the facts from the log


def test_a_scorekeeper_types_names_and_the_log_stores_numbers(tmp_path):
    m, s = _session(tmp_path)
    s.handle(DECK)
    s.handle("B: deck OP01-001 50xOP01-016")
    reply = s.handle("A: play hancock")
    (e,) = reply.recorded
    assert e.payload["card"] == "OP01-078"  # "hancock" is one card in this match (17 in the card list)
    assert "(OP01-078 Boa Hancock)" in reply.text
    assert s.handle('A: play "Boa Hancock"').recorded[0].payload["card"] == "OP01-078"
    assert s.handle("A: play boa_hancock").recorded[0].payload["card"] == "OP01-078"
    assert s.handle("A: attack hancock>zoro").recorded[0].payload == {
        "player": "Ann", "attacker": "OP01-078", "target": "OP01-001"}


def test_an_ambiguous_or_unknown_name_is_refused_with_the_candidates(tmp_path):
    m, s = _session(tmp_path)
    s.handle(DECK)
    head = m.head_position()
    reply = s.handle("A: play nami")  # no Nami in this match: 35 in the card list, 4 a Blue deck may hold
    assert reply.refused and m.head_position() == head
    assert "'nami' could be 4 cards in Ann's deck colours (Blue): OP09-050 Nami" in reply.text
    assert "type the card number in its place" in reply.text
    reply = s.handle("A: play pikachu")
    assert reply.refused and "no card is called 'pikachu'" in reply.text
    reply = s.handle("A: play hancok")  # a misspelling: the nearest name, Ann's own, the number to type
    assert reply.refused and m.head_position() == head
    assert "no card is called 'hancok': did you mean 'Boa Hancock' (seen in this match for Ann: OP01-078)? " \
           "type OP01-078 in its place" in reply.text


def test_a_name_narrowed_to_one_card_is_said_not_guessed(tmp_path):
    m, s = _session(tmp_path)
    s.handle("A: deck OP01-060 deck_size=50")  # Doflamingo: a Blue Leader, no decklist
    s.handle("B: deck ST01-001 deck_size=50")
    reply = s.handle("A: play monet")  # 3 Monets; one a Blue deck may hold
    assert reply.recorded[0].payload["card"] == "OP01-082"
    assert reply.lines[0] == "  = monet \u2192 OP01-082, the only Monet in Ann's deck colours (Blue)"
    reply = s.handle("A: attack monet>luffy")  # the target is Bob's: his Leader, seen in this match
    assert reply.recorded[0].payload["target"] == "ST01-001"
    assert "  = monet \u2192 OP01-082, the only Monet seen in this match for Ann" in reply.lines
    assert "  = luffy \u2192 ST01-001, the only Monkey.D.Luffy seen in this match for Bob" in reply.lines


def test_completion_offers_names_and_inserts_numbers(tmp_path):
    m, s = _session(tmp_path)
    s.handle(DECK)
    assert s.completions("A: play hanc") == ["OP01-078"]
    assert s.display("OP01-078") == "OP01-078 Boa Hancock"
    assert s.completions("A: play OP01-07") == ["OP01-073", "OP01-077", "OP01-078"]
    # a name no card of the match has: the card list's cards (numbers, shown with their names)
    assert "OP03-017" in s.completions("A: play cross")


def test_findings_and_state_name_the_cards(tmp_path):
    m, s = _session(tmp_path)
    s.handle(DECK)
    s.handle("B: deck OP01-001 50xOP01-016")
    reply = s.handle("A: play hancock")  # before any turn: flagged, and the finding names the card
    assert "  ! OPTCG-FLOW-4 [error] playing OP01-078 Boa Hancock before the game began (no turn has started)" \
        in reply.lines
    state = s.handle("state").text
    assert "OP01-078 Boa Hancock" in state and "OP01-060 Donquixote Doflamingo" in state


def test_a_replacement_names_cards_as_log_instead_does(tmp_path):
    """`void N instead={..}` stored "hancock" as typed where `log --instead` refuses it: one resolver
    now, the same refusal (named by the same field) and the same note."""
    m, s = _session(tmp_path)
    s.handle(DECK)
    s.handle("B: deck OP01-001 46xOP01-016 4xST01-006")  # a Character Tony Tony.Chopper
    head = m.head_position()
    reply = s.handle('judge Kim: void 2 "leader" instead={"actor":"Ann","payload":{"player":"Ann","leader":"hancock"}}')
    assert reply.refused and m.head_position() == head
    assert "payload.instead.payload.leader: 'hancock' could be 2 Leader cards: OP07-038 Boa Hancock" in reply.text
    reply = s.handle('judge Kim: void 2 "leader" instead={"actor":"Ann","payload":{"player":"Ann","leader":"chopper"}}')
    (e,) = reply.recorded
    assert e.payload["instead"]["payload"]["leader"] == "OP08-001"
    assert "  = chopper \u2192 OP08-001, the only Tony Tony.Chopper that is a Leader" in reply.lines


def test_a_number_the_card_data_lacks_is_stored_and_a_notice_follows_the_line(tmp_path):
    """QA78 LOW-3: a typed number no card data holds (a typo?) is recorded, then said after the line."""
    m, s = _session(tmp_path)
    s.handle(DECK)
    reply = s.handle("A: play OP99-999")
    (e,) = reply.recorded
    assert e.payload["card"] == "OP99-999" and "card data" not in str(m.events()[-1].payload)
    assert reply.lines[-1] == ("  notice: OP99-999 is not in the card data (cards.db or the card snapshot): a typo? "
                               "see `tablejudge cards find`")
    assert "notice" not in s.handle("A: play OP01-078").text


def test_a_long_list_of_candidates_keeps_the_tools_own_words_whole(tmp_path):
    """QA81 L2: the refusal of `A: play chopper` was cut mid-word ("...and 21 more; type th… (341
    characters)"): the tool's own sentence is said whole; only the values in it are cut."""
    m, s = _session(tmp_path)  # no deck: every Chopper of the card list (29), a message of 340 characters
    reply = s.handle("A: play chopper")
    assert reply.refused
    said = next(ln for ln in reply.lines if "could be" in ln)
    assert "and 21 more; type the card number in its place (e.g. EB01-006)" in said and "characters)" not in said
