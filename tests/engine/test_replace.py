"""A correction that replaces: "event N should have read X" (engine/replacing.py). The log keeps N;
replay plays X in N's place, from the start (the corrected view) or from the correction on (as
recorded then)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import replacing
from engine.events import Void
from engine.match import InputError, Match
from engine.rulesets import get_ruleset
from engine.schema import PayloadError
from engine.store import EventStore
from tests.engine.test_replay import PLAYERS, event, record_all


@pytest.fixture
def game(sqlite_path) -> Match:
    m = Match.create(EventStore.open(sqlite_path), "table", PLAYERS)
    m.record("setup", {"player": "Ann", "zone": "deck", "count": 10})    # 2
    m.record("setup", {"player": "Bob", "zone": "life", "count": 5})     # 3: Bob placed 4
    m.record("turn", {"player": "Ann", "number": 1})                     # 4
    m.record("move", {"player": "Bob", "from_zone": "life", "to_zone": "hand"})  # 5: a Life card taken
    m.record("note", {"text": "judge called"})                           # 6
    return m


def _life(m: Match, **kw) -> int:
    return len(m.replayer.state_at(corrected=True, **kw).zone("Bob", "life"))


def _replace(m: Match, target: int, payload: dict, actor: str = "-", judge: str = "judge:Zoe", **extra):
    return m.record("correction", {"voids": target, "reason": "miscounted",
                                   "instead": {"actor": actor, "payload": payload, **extra}}, actor=judge)


def test_the_replacement_plays_in_the_voided_events_place(game):
    assert _life(game) == 4
    fix = _replace(game, 3, {"player": "Bob", "zone": "life", "count": 4}).event
    assert _life(game) == 3 and len(game.state().zone("Bob", "life")) == 3
    assert len(game.replayer.state_at(5, corrected=True).zone("Bob", "life")) == 3
    assert len(game.state(at=5).zone("Bob", "life")) == 4  # as recorded then: before the correction
    assert game.state().voided == [3]
    assert game.events()[2].payload["count"] == 5  # the log keeps event 3
    assert game.ruleset.describe(fix).startswith("correction: event 3 should read: ")


def test_the_latest_correction_of_an_event_wins(game):
    _replace(game, 3, {"player": "Bob", "zone": "life", "count": 4})
    _replace(game, 3, {"player": "Bob", "zone": "life", "count": 3})
    assert _life(game) == 2 and len(game.state().zone("Bob", "life")) == 2
    game.record("correction", {"voids": 3, "reason": "never placed"}, actor="judge:Zoe")
    assert _life(game) == 0 and len(game.state().zone("Bob", "life")) == 0
    _replace(game, 3, {"player": "Bob", "zone": "life", "count": 4})
    assert _life(game) == 3 and len(game.state().zone("Bob", "life")) == 3


def _refused(game: Match, match: str, *args, **kw) -> None:
    head = game.head_position()
    with pytest.raises(InputError, match=match):
        _replace(game, *args, **kw)
    assert game.head_position() == head  # nothing stored


def test_refusals_store_nothing(game):
    life4 = {"player": "Bob", "zone": "life", "count": 4}
    _refused(game, "only a judge", 3, life4, judge="Bob")
    _refused(game, "only a judge", 3, life4, judge="scorekeeper:Sam")
    _refused(game, "event 1 creates the match", 1, life4)
    _refused(game, "not a game event", 6, {"text": "x"})  # a note
    game.record("correction", {"voids": 5, "reason": "x"}, actor="judge:Zoe")  # 7
    _refused(game, "itself a correction", 7, life4)
    _refused(game, "replacement must be one too", 3, {"player": "Bob"}, kind="turn")
    _refused(game, "unknown player", 3, {"player": "Zed", "zone": "life", "count": 4})
    _refused(game, "unknown actor", 3, life4, actor="Zed")
    _refused(game, "control character", 3, {"player": "Bob", "zone": "life", "count": 4, "cards": ["A\x1b[2J"]})
    _refused(game, "at most", 3, {"player": "Bob", "zone": "life", "count": 10**6})
    _refused(game, "no field 'when'", 3, life4, when="now")
    _refused(game, "version must be", 3, life4, version=7)
    with pytest.raises(InputError, match="needs 'actor'"):
        game.record("correction", {"voids": 3, "reason": "x", "instead": {"payload": life4}}, actor="judge:Zoe")


def _field(game: Match, payload: dict, actor: str = "judge:Zoe") -> InputError:
    head = game.head_position()
    with pytest.raises(InputError) as got:
        game.record("correction", payload, actor=actor)
    assert game.head_position() == head  # nothing stored
    return got.value


def test_a_refusal_inside_a_replacement_names_the_whole_field(game):
    """A limit or a control character deep in `instead` is named where it is, as a schema error is
    (it said only 'payload.instead')."""
    def inside(payload: dict, **extra) -> InputError:
        return _field(game, {"voids": 3, "reason": "x", "instead": {"actor": "-", "payload": payload, **extra}})
    e = inside({"player": "Bob", "zone": "life", "count": 10**20})
    assert e.field == "payload.instead.payload.count" and "between" in e.message
    e = inside({"player": "Bob\u0007", "zone": "life", "count": 4})
    assert e.field == "payload.instead.payload.player" and "control character U+0007" in e.message
    e = inside({"player": "Bob", "zone": "life", "count": 4, "by": "x" * 70_000})
    assert e.field == "payload.instead.payload.by" and "at most" in e.message


def test_a_null_replacement_is_refused_not_read_as_a_plain_void(game):
    e = _field(game, {"voids": 3, "reason": "x", "instead": None})
    assert e.field == "payload.instead" and "got null; to void it only, leave instead out" in e.message
    game.record("correction", {"voids": 3, "reason": "x"}, actor="judge:Zoe")  # leaving it out voids


def test_voiding_event_1_and_a_control_character_in_an_actor_are_said_as_what_they_are(game):
    e = _field(game, {"voids": 1, "reason": "x"})
    assert e.message == "event 1 creates the match and cannot be voided"
    e = _field(game, {"voids": 999, "reason": "x"})
    assert e.message == "correction names event 999, but the log holds events 1..6"  # no aside on event 1
    e = _field(game, {"voids": 3, "reason": "x"}, actor="judge:Z\u0007")
    assert e.field == "actor" and e.message.startswith("control character U+0007 (BEL) at character 8")
    e = _field(game, {"voids": 3, "reason": "x"}, actor="judge:" + "Z" * 80)
    assert "at most 64 characters, got 86" in e.message


def test_a_tournament_stream_correction_only_voids():
    with pytest.raises(PayloadError, match="no field 'instead'"):
        Void.parse({"voids": 3, "reason": "x", "instead": {}})


def test_a_viewer_gets_the_replacement_hidden_as_its_kind_is():
    rs = get_ruleset("optcg")()
    draw = {"player": "Bob", "count": 2, "cards": ["OP01-016", "OP01-013"]}
    fix = {"voids": 5, "reason": "r", "instead": {"kind": "draw", "version": 1, "actor": "Bob", "payload": draw}}
    hidden = replacing.hide(rs, "correction", fix)
    assert hidden["instead"]["payload"] == rs.hide("draw", dict(draw)) != draw
    assert "OP01-016" not in str(hidden)


def _without_void(state) -> dict:
    d = state.to_dict()
    d.pop("voided", None)
    d.pop("position", None)
    return d


settings_ = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@settings_
@given(events=st.lists(event, min_size=2, max_size=15), target=st.integers(2, 16), x=event)
def test_a_replaced_log_reads_as_if_recorded_so(tmp_path_factory, events, target, x):
    """Replacing event N with X reads, as corrected, as the log with X recorded at N: the same table
    at every moment before the correction, the same findings (said at N); replacing N with a copy
    of itself changes nothing."""
    target = min(target, len(events) + 1)
    kind, payload = events[target - 2]
    assume(kind != "note")  # a note is not replaced (refused: test_refusals_store_nothing)
    if x[0] != kind:
        x = (kind, payload)  # a game event is replaced by one of its kind: here, a copy
    tmp = tmp_path_factory.mktemp("rep")
    fixed = record_all(EventStore.open(str(tmp / "a.db")), events)
    _replace(fixed, target, x[1])
    so = record_all(EventStore.open(str(tmp / "b.db")), events[:target - 2] + [x] + events[target - 1:])
    for pos in range(2, so.head_position() + 1):
        assert _without_void(fixed.replayer.state_at(pos, corrected=True)) == \
               _without_void(so.replayer.state_at(pos, corrected=True))
    assert _without_void(fixed.state()) == _without_void(so.state())
    said = {(f.rule, f.position, f.message.split(" (event ")[0]) for f in fixed.validate().active_findings()}
    assert said == {(f.rule, f.position, f.message.split(" (event ")[0]) for f in so.validate().active_findings()}


def test_a_judges_correction_is_not_overruled_by_a_scorekeeper(game):
    """QA76 #2: a scorekeeper's `void 3` after judge Zoe replaced event 3 was stored and superseded
    her correction (the latest decides); a backup past it backed it out. Only a judge may now."""
    fix = _replace(game, 3, {"player": "Bob", "zone": "life", "count": 4}).event  # 7
    for actor in ("scorekeeper:Sam", "Bob", "-"):
        e = _field(game, {"voids": 3, "reason": "hmm"}, actor=actor)
        assert e.field == "payload.voids"
        assert e.message == (f"event 3 was replaced by judge Zoe's correction {fix.position}: only a judge "
                             "can correct it again; call a judge")
    e = _field(game, {"voids": 3, "reason": "x", "instead": {"actor": "-", "payload": {
        "player": "Bob", "zone": "life", "count": 5}}}, actor="scorekeeper:Sam")
    assert e.field == "payload.voids"
    head = game.head_position()
    with pytest.raises(InputError, match=r"event 3 was replaced by judge Zoe's correction 7: only a judge "
                                         r"can back up past it \(a backup to 2 would back it out\)") as got:
        game.record("backup", {"to": 2, "reason": "rewind"}, actor="scorekeeper:Sam")
    assert got.value.field == "payload.to" and game.head_position() == head
    game.record("backup", {"to": 3, "reason": "rewind"}, actor="scorekeeper:Sam")  # not past it: as before
    game.record("correction", {"voids": 3, "reason": "never placed"}, actor="judge:Kim")  # a judge may
    e = _field(game, {"voids": 3, "reason": "hmm"}, actor="scorekeeper:Sam")
    assert "was voided by judge Kim's correction" in e.message
    game.record("correction", {"voids": 4, "reason": "x"}, actor="scorekeeper:Sam")  # an event no judge ruled on


def test_a_batch_sees_a_judges_correction_made_earlier_in_it(game):
    items = [("correction", {"voids": 3, "reason": "r", "instead": {"actor": "-", "payload": {
        "player": "Bob", "zone": "life", "count": 4}}}, "judge:Zoe"),
             ("correction", {"voids": 3, "reason": "hmm"}, "scorekeeper:Sam")]
    with pytest.raises(InputError, match="replaced by judge Zoe's correction 7"):
        game.judge_batch(items, after=game.events()[-1])


def test_the_same_replacement_twice_is_refused(game):
    """QA76: a double submit stored the same replacement twice (the first then 'superseded')."""
    life4 = {"player": "Bob", "zone": "life", "count": 4}
    fix = _replace(game, 3, life4).event
    e = _field(game, {"voids": 3, "reason": "again", "instead": {"actor": "-", "payload": life4}})
    assert e.field == "payload.instead"
    assert e.message == f"event 3 already reads so: correction {fix.position} says the same"
    _replace(game, 3, {"player": "Bob", "zone": "life", "count": 3})  # a different one is a new ruling
    _replace(game, 3, life4)  # and back again


def test_the_same_void_twice_is_refused(game):
    """Review: a second plain void of an event already void was stored again (a double submit, a
    `void N` typed twice), as the same replacement twice was before QA76."""
    first = game.record("correction", {"voids": 4, "reason": "typed twice"}, actor="scorekeeper:Sam").event
    e = _field(game, {"voids": 4, "reason": "again"}, actor="scorekeeper:Sam")
    assert (e.field, e.message) == ("payload.voids", f"event 4 is already void: correction {first.position}")
    e = _field(game, {"voids": 4, "reason": "again"})  # a judge's void says nothing new either
    assert e.message == f"event 4 is already void: correction {first.position}"
    with pytest.raises(InputError, match=r"event 2 is already void: correction 8$"):  # nor in one batch
        game.judge_batch([("correction", {"voids": 2, "reason": "r"}, "judge:Zoe"),
                          ("correction", {"voids": 2, "reason": "r"}, "judge:Zoe")], after=game.events()[-1])
    # what does change it is recorded: a replacement of the void event, then a void of that replacement
    _replace(game, 4, {"player": "Ann", "number": 1})
    game.record("correction", {"voids": 4, "reason": "no turn after all"}, actor="judge:Zoe")


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_correction_without_a_reason_is_refused(game, reason):
    """QA76 #8: `(…5 Life cards ())` was stored."""
    e = _field(game, {"voids": 4, "reason": reason})
    assert e.field == "payload.reason" and "needs its reason" in e.message
    e = _field(game, {"voids": 3, "reason": reason, "instead": {"actor": "-", "payload": {
        "player": "Bob", "zone": "life", "count": 4}}})
    assert e.field == "payload.reason"


def test_a_batch_of_corrections_reads_the_log_once(game, monkeypatch):
    """Review: each correction of a batch read the log again from its target on (k corrections on a
    log of n events: k reads of up to n events), then the batch read it all again to fold it; now
    one read serves them all. What each correction sees is unchanged: a judge's correction, in the
    log or earlier in the batch."""
    _replace(game, 3, {"player": "Bob", "zone": "life", "count": 4})  # 7
    for p in range(5):
        game.record("note", {"text": f"n{p}"})  # 8..12
    head, real, spans = game.events()[-1], game.store.read, []

    def spy(match, *a, **kw):
        got = real(match, *a, **kw)
        if len(got) > 1:  # a span of the log (kind_at reads one event)
            spans.append([e.position for e in got])
        return got

    monkeypatch.setattr(game.store, "read", spy)
    for targets in ((2, 4, 5, 8, 9), (9, 5, 2)):
        spans.clear()
        items = [("correction", {"voids": p, "reason": "r"}, "judge:Kim") for p in targets]
        assert len(game.judge_batch(items, after=head).drafts) == len(targets)
        assert spans == [list(range(2, 13))], spans
    with pytest.raises(InputError, match="replaced by judge Zoe's correction 7"):
        game.judge_batch([("correction", {"voids": 2, "reason": "r"}, "judge:Kim"),
                          ("correction", {"voids": 3, "reason": "hmm"}, "scorekeeper:Sam")], after=head)


def _desk16(m: Match) -> list[int]:
    from judge import desk
    return [f.position for f in desk.review(m).desk if f.rule == "DESK-16"]


def test_a_replacement_played_by_a_judge_is_flagged_when_recorded_and_in_the_log(game):
    """DESK-16: the judge's own name copied into the replacement's actor says the judge made the play."""
    setup = {"player": "Bob", "zone": "life", "count": 4}
    fix = _replace(game, 3, setup, actor="judge:Zoe")
    assert [f.rule for f in fix.findings] == ["DESK-16"] and "not a player of this match" in fix.findings[0].message
    assert _desk16(game) == [fix.event.position]
    assert not _replace(game, 3, setup, actor="Bob").findings  # a player's: fine, and it overrules the first
    assert _desk16(game) == []
    assert not _replace(game, 3, setup, actor="-").findings and _desk16(game) == []  # the table's, as recorded
    assert [f.rule for f in _replace(game, 5, {"player": "Bob", "from_zone": "life", "to_zone": "hand"},
                                     actor="scorekeeper:Lee").findings] == ["DESK-16"]
