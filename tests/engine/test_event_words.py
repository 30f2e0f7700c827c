"""An event's words as data: each game's words.toml templates (engine/words.py) read the payload,
fill what the event left out from the payload class's defaults, and say an optional part only when
the event said its fields."""
from __future__ import annotations

import pytest

from engine.desk import describe_desk_event
from engine.events import CORE_KINDS, RecordedEvent
from engine.rulesets import available, get_ruleset
from engine.words import Template, WordsError, event_templates, payload_defaults
from judge.tournament.audit import describe as tournament_describe
from judge.tournament.vocab import KINDS as TOURNAMENT_KINDS


def _event(kind: str, payload: dict) -> RecordedEvent:
    return RecordedEvent.seal(match="m", position=2, kind=kind, version=1, actor="Ann", payload=payload,
                              recorded_at="2026-11-24T10:00:00.000Z", recorded_by="t", prev_hash="0" * 64)


def _say(ruleset: str, kind: str, payload: dict) -> str:
    return get_ruleset(ruleset)({}).describe(_event(kind, payload))


def test_fields_defaults_lists_and_format_specs():
    t = Template("{player} draws {count}[ ({cards})] {add:+d} {winner|no winner}")
    assert t.render({"player": "Ann", "cards": ["A", "B"], "add": 2}, {"count": 1}) == \
        "Ann draws 1 (A, B) +2 no winner"
    assert t.render({"player": "Ann", "count": 3, "add": -1, "winner": "Bob"}, {"count": 1, "cards": []}) == \
        "Ann draws 3 -1 Bob"


def test_an_optional_part_needs_every_field_said_and_not_the_default():
    t = Template("{player}[, {lives} Life][ of {school}]")
    assert t.render({"player": "Ann", "lives": 0}, {"lives": 0, "school": None}) == "Ann"
    assert t.render({"player": "Ann", "lives": 2, "school": "Hokuto"}, {"lives": 0}) == "Ann, 2 Life of Hokuto"
    # 0 is a value when the field's default is none: a Captain with 0 life is said
    assert Template("x[ ({n})]").render({"n": 0}, {"n": None}) == "x (0)"


@pytest.mark.parametrize("ruleset,kind,payload,words", [
    ("ken", "ability", {"player": "Ann", "uid": "c1", "name": "Hokuto", "lives": 2, "school": "Nanto"},
     "Ann: c1 uses the Special Ability Hokuto, 2 Life of Nanto"),
    ("ken", "ability", {"player": "Ann", "uid": "c1", "name": "Hokuto"}, "Ann: c1 uses the Special Ability Hokuto"),
    ("ken", "effect", {"player": "Ann", "name": "SORPRESA", "uid": "c4"}, "Ann: effect SORPRESA on c4"),
    ("ken", "life.top", {"player": "Ann", "uid": "l2"}, "Ann puts the chosen Life card on top of l2"),
    ("grandline", "vp", {"player": "Ann", "add": 2, "reason": "quest"}, "Ann +2 VP (quest)"),
    ("grandline", "vp", {"player": "Ann", "add": -1}, "Ann -1 VP"),
    ("grandline", "destroy", {"player": "Ann", "card": "Zoro"}, "Ann's Zoro is destroyed"),
    ("table", "counter", {"player": "Ann", "name": "life", "set": 0}, "Ann life = 0"),
    ("table", "counter", {"name": "round", "add": 1}, "table round +1"),
    ("table", "turn", {"player": "Bob"}, "turn begins: Bob"),
    ("table", "turn", {"player": "Bob", "number": 4}, "turn 4 begins: Bob"),
    ("onigashima", "fight.end", {"winner": "Ann"}, "fight over: Ann (energy)"),
    ("onigashima", "fight.end", {"how": "flee"}, "fight over: no winner (flee)"),
    ("op2009", "game.start", {"first": "Ann"}, "game starts: Ann first"),
    ("op2009", "game.start", {"first": "Ann", "game": 2}, "game 2 starts: Ann first"),
    ("op2009", "effect", {"player": "Ann", "card": "OP-12", "text": "draw 1", "actions": -1},
     "Ann: effect of OP-12: draw 1 (Actions -1)"),
    ("op2009", "effect", {"player": "Ann", "card": "OP-12", "text": "draw 1"}, "Ann: effect of OP-12: draw 1"),
    ("op2009", "fase.iniziale", {"player": "Ann"}, "Ann: Fase Iniziale, draws a card"),
    ("optcg", "annotation", {"text": "gg", "line": 12}, "log line 12: gg"),
    ("optcg", "annotation", {"text": "gg"}, "gg"),
    ("optcg", "play", {"player": "Ann", "card": "OP01-016", "paid": 0, "by": "OP01-001"},
     "Ann plays OP01-016, pays 0 (by OP01-001)"),
])
def test_games_say_their_events(ruleset, kind, payload, words):
    assert _say(ruleset, kind, payload) == words


@pytest.mark.parametrize("name", sorted(available()))
def test_every_template_names_a_kind_and_fields_of_the_game(name):
    rs = get_ruleset(name)
    templates = event_templates(rs.__module__.rpartition(".")[0])
    vocab = rs.vocabulary()
    for kind, template in templates.items():
        assert kind in vocab, f"{name}/words.toml: {kind!r} is not an event kind of {name}"
        fields = set(vocab[kind]._hints)
        unknown = [f for f in template.fields if f not in fields]
        assert not unknown, f"{name}/words.toml [{kind}]: no field {unknown} (fields: {sorted(fields)})"


@pytest.mark.parametrize("package,kinds,extra", [
    ("engine", CORE_KINDS, {"judge"}),          # core and desk kinds; {judge} comes from the actor
    ("judge.tournament", TOURNAMENT_KINDS, set()),
])
def test_the_shared_and_tournament_templates_name_real_kinds_and_fields(package, kinds, extra):
    templates = event_templates(package)
    assert templates, f"{package}/words.toml has no templates"
    for kind, template in templates.items():
        assert kind in kinds, f"{package}/words.toml: {kind!r} is not one of its event kinds"
        unknown = [f for f in template.fields if f not in set(kinds[kind]._hints) | extra]
        assert not unknown, f"{package}/words.toml [{kind}]: no field {unknown}"


def test_desk_and_tournament_words():
    assert describe_desk_event("judge.deck_check", {}, "judge:Kim") == "deck check (judge Kim) of both players: ok"
    assert describe_desk_event("time.called", {"clock": "15:40", "note": "round 3"}, "judge:Kim") == \
        "time called at 15:40: round 3"
    e = _event("clock.extended", {"round": 2, "table": 7, "minutes": 5, "reason": "deck check"})
    assert tournament_describe(e) == "round 2 table 7: +5 min (deck check)"


def test_a_kind_without_template_or_code_falls_back_to_its_fields():
    assert payload_defaults(None) == {}
    assert _say("table", "note", {"text": "judge present"}) == "note: judge present"


def test_a_broken_words_file_is_named(tmp_path, monkeypatch):
    pkg = tmp_path / "brokenwords"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "words.toml").write_text("[events]\ndraw = \n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(WordsError, match="brokenwords/words.toml"):
        event_templates("brokenwords")
