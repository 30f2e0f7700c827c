"""The recorder's core without a server: a line is one transaction (all of it or nothing), a
refused line names its column, a page that did not see the last events is told what moved (and
which of it its line repeats) before anything is stored, undo voids only the link's own event, and
the buttons are the grammar's suggestions the rules accept."""
from __future__ import annotations

import pytest

from engine.match import Match
from engine.store import EventStore
from judge.replay.timeline import walk
from judge.web.recording import LineRefused, Recorder, UndoRefused, last_own_event
from tests.rulesets.optcg.support import registration

SAM, LIA = "recorder Sam (link aaa)", "recorder Lia (link bbb)"


@pytest.fixture
def match(tmp_path):
    store = EventStore.open(str(tmp_path / "log.db"))
    m = Match.create(store, "optcg", ["Ann", "Bob"])
    for p in ("Ann", "Bob"):
        m.record("deck.registered", registration(p), actor=p)
    m.record("turn.order", {"first": "Ann"}, actor="Ann")
    m.record("draw", {"player": "Ann", "count": 5, "cards": ["OP01-013", "OP01-016", "OP01-025", "ST01-006", "OP01-029"]}, actor="Ann")
    m.record("draw", {"player": "Bob", "count": 5}, actor="Bob")
    for p in ("Ann", "Bob"):
        m.record("life.placed", {"player": p, "count": 5}, actor=p)
    yield m
    store.close()


def line(m, text, seen=None, by=SAM, judge=False):
    rec = Recorder(m, "judge:Kim" if judge else "scorekeeper:Sam", by, judge)
    return rec.record(text, m.head_position() if seen is None else seen)


def mine(m, by=SAM):
    """The event the recorder page's undo button names (from the page's timeline: a scorekeeper's,
    hidden cards hidden), or None."""
    return last_own_event(walk(m, hidden=True), by)


def undo(m, voids=None, by=SAM):
    """Undo as the recorder page does: the number its button shows, this link's last undoable event."""
    return Recorder(m, "scorekeeper:Sam", by, False).undo(voids or mine(m, by)["p"])


def buttons(m, state):
    return Recorder(m, "scorekeeper:Sam", SAM, False).buttons(state)


def test_a_line_is_one_transaction_and_comes_back_with_its_findings(match):
    n = match.head_position()
    out = line(match, "T1 A: refresh · don 1 · play OP01-016")
    assert out.status == "stored" and [r.event.position for r in out.recorded] == [n + 1, n + 2, n + 3, n + 4]
    assert {r.event.recorded_by for r in out.recorded} == {SAM}
    flagged = line(match, "A: play OP01-013")  # no active DON!! left: stored, and flagged
    assert flagged.status == "stored" and flagged.recorded[0].findings
    assert flagged.recorded[0].findings[0].position == flagged.recorded[0].event.position
    head = match.head_position()
    for bad in ("A: pass · frobnicate", "A: pass · A: play", "T5 A:", "A: attack"):
        with pytest.raises(LineRefused) as e:
            line(match, bad)
        assert e.value.col >= 1
        assert match.head_position() == head  # nothing of the line, not even its first action
    with pytest.raises(LineRefused) as e:
        line(match, "A: pass · frobnicate")
    assert e.value.col == len("A: pass · ") + 1


def test_a_page_that_missed_events_is_told_what_moved_before_anything_is_stored(match):
    seen = match.head_position()
    line(match, "T1 A: refresh", by=LIA)          # the other recorder, first
    out = line(match, "T1 A: refresh", seen=seen)  # this page had not seen it
    assert out.status == "moved" and not out.recorded
    assert [e.position for e in out.moved] == [seen + 1, seen + 2] and out.repeats == [seen + 1, seen + 2]
    assert match.head_position() == seen + 2
    again = line(match, "A: don 1", seen=out.head)  # after looking, stored after them
    assert again.status == "stored" and again.recorded[0].event.position == seen + 3


def test_undo_voids_this_links_own_last_event_as_the_scorekeepers_correction(match):
    line(match, "T1 A: refresh")
    line(match, "A: don 1", by=LIA)
    rec, target = undo(match)
    assert target.kind == "refresh" and rec.event.payload["voids"] == target.position
    assert (rec.event.actor, rec.event.recorded_by) == ("scorekeeper:Sam", SAM)
    assert target.position in match.state().voided
    assert mine(match)["kind"] == "turn"
    undo(match)
    assert mine(match) is None  # the page shows no undo button
    lias = match.head_position() - 2  # before Sam's two corrections
    assert mine(match, LIA)["p"] == lias
    with pytest.raises(UndoRefused):
        undo(match, voids=lias)  # Lia's DON!! is not Sam's to undo


def test_only_a_judges_link_acts_as_a_judge(match):
    n = match.head_position()
    with pytest.raises(PermissionError):
        line(match, 'judge Kim: ruling "the attack stands"')
    assert match.head_position() == n
    out = line(match, 'judge Kim: ruling "the attack stands"', judge=True)
    assert out.recorded[0].event.actor == "judge:Kim"
    own = line(match, 'call A "was that legal?"')  # a call with no prefix is the recorder's own
    assert own.recorded[0].event.actor == "scorekeeper:Sam"


def test_the_buttons_are_the_suggestions_the_rules_accept(match):
    found, notes = buttons(match, match.state())
    assert [b.line for b in found] == ["T1 A:"]
    line(match, "T1 A: refresh · don 1")
    found, _ = buttons(match, match.state())
    lines = [b.line for b in found]
    assert "A: play OP01-016" in lines  # cost 1, one active DON!!
    assert "A: play OP01-013" not in lines  # cost 2: not affordable
    assert not any(l.startswith("A: attack") for l in lines)  # the first player's first turn
    line(match, "A: pass")
    line(match, "T2 B: refresh · draw · don")
    found, notes = buttons(match, match.state())
    assert any("unseen" in n for n in notes)  # Bob's hand was drawn face down: no play is proposed
    assert not any(b.group == "plays" for b in found)


def test_a_line_says_the_desks_checks_and_calls_time_once(match):
    """The recorder's lines (Match.judge_batch) said no DESK-n and stored a second time call."""
    out = line(match, 'judge Kim: ruling "the attack stands" OPTCG-BATLE-2', judge=True)  # a typo'd rule id
    assert [f.rule for f in out.recorded[0].findings] == ["DESK-8"]
    assert out.to_dict(str)["recorded"][0]["findings"][0]["rule"] == "DESK-8"  # the page is told
    called = line(match, "judge Kim: time 14:35", judge=True).recorded[0].event.position
    n = match.head_position()
    with pytest.raises(LineRefused) as e:
        line(match, "judge Kim: time 14:40", judge=True)
    assert f"already called at 14:35 (event {called})" in str(e.value) and e.value.col >= 1
    assert match.head_position() == n


def test_a_penalty_below_the_guide_is_flagged_on_the_line_and_in_the_review(match):
    """The recorder's penalty line named a guide entry and gave less than the guide: no DESK-11."""
    from judge.desk.review import review
    out = line(match, 'judge Kim: penalty B Caution OPTCG-PG-TARDINESS "late"', judge=True)
    (f,) = out.recorded[0].findings
    assert f.rule == "DESK-11" and "below the guide: the 1st Tardiness (OPTCG-PG-TARDINESS) of Bob" in f.message
    assert out.to_dict(str)["recorded"][0]["findings"][0]["rule"] == "DESK-11"  # the page is told
    assert [(x.rule, x.position) for x in review(match).findings] == [("DESK-11", out.recorded[0].event.position)]


def test_the_buttons_offer_the_setup_still_to_record(tmp_path):
    """QA 2026-11-27: before the first turn the only button was "T1 A:"; the preparation had to be
    typed. Now the steps still open, in the rule manual's order, each judged as any button."""
    with EventStore.open(str(tmp_path / "log.db")) as store:
        m = Match.create(store, "optcg", ["Ann", "Bob"])
        for p in ("Ann", "Bob"):
            m.record("deck.registered", registration(p), actor=p)

        def lines():
            return [b.line for b in buttons(m, m.state())[0] if b.group == "setup"]

        assert lines() == ["order A", "order B"]
        line(m, "order B")
        assert lines() == ["B: draw 5", "A: draw 5"]  # the first player first
        line(m, "B: draw 5 · A: draw 5")
        assert lines() == ["B: mulligan keep", "B: mulligan mulligan"]  # the first player decides first
        line(m, "B: mulligan mulligan")
        assert lines() == ["B: draw 5", "A: mulligan keep", "A: mulligan mulligan"]  # B's hand went back
        line(m, "B: draw 5 · A: mulligan keep")
        assert lines() == ["B: life 5", "A: life 5"]
        line(m, "B: life 5 · A: life 5")
        assert lines() == [] and [b.line for b in buttons(m, m.state())[0]] == ["T1 B:"]
        assert not m.validate().findings


def test_a_card_number_on_a_line_replays_no_table(match, monkeypatch):
    """Review: each card word of a line (and of each button the recorder page works out) replayed
    the table to look the word up among the match's cards, even a card number, which is itself.
    Now only a name is looked up (and still among the match's cards first)."""
    line(match, "T1 A: refresh · don 1")
    rec = Recorder(match, "scorekeeper:Sam", SAM, False)
    reads = []
    real = match.store.read_dicts
    monkeypatch.setattr(match.store, "read_dicts", lambda *a, **k: reads.append(a) or real(*a, **k))
    (by_number,) = rec.parse("A: play OP01-016")
    assert reads == []
    (by_name,) = rec.parse("A: play nami")
    assert reads and by_name.payload == by_number.payload


@pytest.fixture
def no_decks(tmp_path):
    """A match from a pairing: no decklist, no Leader registered (a scorekeeper's usual table)."""
    store = EventStore.open(str(tmp_path / "nodecks.db"))
    yield Match.create(store, "optcg", ["Ann", "Bob"])
    store.close()


def test_a_name_is_narrowed_by_the_speakers_seat_never_to_the_opponents_card(no_decks):
    """QA70 item 3 (bug): after A played OP01-016 Nami, 'B: play nami' was stored as OP01-016 (A's
    card) with no question: the page narrowed a name to any player's cards. Now the speaker's seat
    narrows it, as in the terminal recorder: B has shown nothing, so the name is refused with the
    candidates and the number to type; nothing stored."""
    m = no_decks
    line(m, "A: play OP01-016")
    head = m.head_position()
    with pytest.raises(LineRefused) as e:
        line(m, "B: play nami")
    assert "'nami' could be" in e.value.message and "(none seen in this match for Bob)" in e.value.message
    assert "OP01-016 Nami" in e.value.message and "type the card number in its place" in e.value.message
    assert m.head_position() == head
    # A's own Nami is still A's: narrowed by A's seat, and said
    out = line(m, "A: play nami")
    assert out.recorded[0].event.payload["card"] == "OP01-016"
    assert out.notes == ["nami \u2192 OP01-016, the only Nami seen in this match for Ann"]


def test_a_name_narrowed_by_the_leaders_colours_is_said_with_the_stored_line(no_decks):
    m = no_decks
    line(m, "B: deck OP01-060 deck_size=50")  # Doflamingo: a Blue Leader, no decklist
    out = line(m, "B: play monet")  # 3 Monets; one a Blue deck may hold
    assert out.recorded[0].event.payload["card"] == "OP01-082"
    assert out.notes == ["monet \u2192 OP01-082, the only Monet in Bob's deck colours (Blue)"]
    assert out.to_dict(str)["notes"] == out.notes  # the JSON API says it too


def test_a_number_the_card_data_lacks_is_stored_and_said_to_the_recorder(match):
    """QA78 LOW-3: `A: play OP99-999` (a typo?) is recorded, and the answer to this link says so; the
    event holds no word of it, and a known number gets no notice."""
    out = line(match, "A: play OP99-999")
    assert out.status == "stored" and out.recorded[0].event.payload["card"] == "OP99-999"
    said = ["OP99-999 is not in the card data (cards.db or the card snapshot): a typo? see `tablejudge cards find`"]
    assert out.notices == said and out.to_dict(str)["notices"] == said
    assert "card data" not in str(match.events()[-1].payload)
    assert line(match, "A: play OP01-016").notices == []


def test_a_name_is_never_narrowed_by_another_links_hidden_cards(no_decks):
    """Lia's link recorded Bob's draw of OP01-016 (a hidden card). Sam's link may not learn it: 'B:
    play nami' from Sam is refused as ambiguous (the old page stored OP01-016, telling Sam what Bob
    held); Lia, who typed the draw, and a judge, who sees the log as recorded, get it, said."""
    m = no_decks
    m.record("draw", {"player": "Bob", "count": 1, "cards": ["OP01-016"]}, actor="Bob", recorded_by=LIA)
    head = m.head_position()
    with pytest.raises(LineRefused) as e:
        line(m, "B: play nami")
    assert "(none seen in this match for Bob)" in e.value.message and m.head_position() == head
    for by, judge in ((LIA, False), ("judge Kim (link ccc)", True)):
        rec = Recorder(m, "judge:Kim" if judge else "scorekeeper:Lia", by, judge)
        (a,) = rec.parse("B: play nami")
        assert a.payload["card"] == "OP01-016"
        assert rec.line_notes == ["nami \u2192 OP01-016, the only Nami seen in this match for Bob"]


def test_the_setup_buttons_offer_the_deck_line_to_complete(tmp_path):
    """bf410cd: a deck never registered is of unknown size and `?` says to record `A: deck LEADER
    deck_size=50`, but the recorder's set-up buttons offered only the order and T1. Now each deck
    not registered has a button that fills that line in the box (LEADER to replace), not sent."""
    with EventStore.open(str(tmp_path / "log.db")) as store:
        m = Match.create(store, "optcg", ["Ann", "Bob"])
        found, notes = buttons(m, m.state())
        fills = [b for b in found if b.fill]
        assert [(b.line, b.group) for b in fills] == [("A: deck LEADER deck_size=50", "setup"),
                                                      ("B: deck LEADER deck_size=50", "setup")]
        assert all(f"`{b.line}`" in n for b, n in zip(fills, notes))  # what `?`'s notes say
        line(m, fills[0].line.replace("LEADER", "OP01-001"))  # the scorekeeper completes it
        assert [b.line for b in buttons(m, m.state())[0] if b.fill] == ["B: deck LEADER deck_size=50"]


def test_a_replacements_names_are_resolved_said_and_refused_as_log_instead_does(match):
    """The page's `void N instead={..}` (a judge's link) stored names as typed; now they are read as
    `log --instead` reads them: a Leader among Leaders, the note with the line, an ambiguous one refused."""
    head = match.head_position()
    with pytest.raises(LineRefused, match="payload.instead.payload.leader.*'hancock' could be 2 Leader cards"):
        line(match, 'judge Kim: void 2 "x" instead={"actor":"Ann","payload":{"player":"Ann","leader":"hancock"}}',
             judge=True)
    assert match.head_position() == head
    out = line(match, 'judge Kim: void 2 "x" instead={"actor":"Ann","payload":{"player":"Ann","leader":"chopper"}}',
               judge=True)
    assert out.recorded[0].event.payload["instead"]["payload"]["leader"] == "OP08-001"
    assert out.notes == ["chopper \u2192 OP08-001, the only Tony Tony.Chopper that is a Leader"]


@pytest.mark.parametrize("role", ["scorekeeper", "judge"])
def test_a_line_with_no_actor_is_given_the_same_actor_as_tablejudge_live_gives_it(match, role):
    """One rule (judge/live/actor.py) for both recorders, which had each written it: for every kind,
    the web's link and the terminal recorder of the same person give the same actor, or both refuse
    a judge's action where there is no judge to give it to, each saying how to get one."""
    from engine.notation import NotationError
    from judge.live.session import LiveSession

    def actor(default, kind):
        try:
            return default(kind)
        except NotationError as e:
            assert "is a judge's action" in str(e)
            return "refused"

    web = Recorder(match, f"{role}:Sam", SAM, role == "judge").default_actor
    live = LiveSession(match, recorded_by="Sam", role=role, interactive=False)._default_actor
    said = {k: actor(web, k) for k in match.validator.vocab}
    assert said == {k: actor(live, k) for k in match.validator.vocab}
    assert said["note"] == "-" and said["correction"] == f"{role}:Sam" and said["time.called"] == f"{role}:Sam"
    assert said["judge.ruling"] == ("judge:Sam" if role == "judge" else "refused")
