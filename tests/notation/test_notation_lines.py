"""Body lines: an actor prefix holds until the next one, so one line may switch actor (and start
a turn mid-line); errors name the action and its column; the scorekeeper's prefix reads and writes."""
from __future__ import annotations

import pytest

from engine.notation import NotationError, grammar_for, make_ctx, parse_line
from engine.rulesets import get_ruleset


def _grammar(name: str):
    rs = get_ruleset(name)({})
    g = grammar_for(rs)
    return g, make_ctx(["Ann", "Bob"], rs, g)


def test_a_prefix_holds_until_the_next_one():
    g, ctx = _grammar("optcg")
    actions = parse_line("A: attack ST01-012>OP01-069 · damage · B: ko OP01-069 · battle.end", 0, g, ctx)
    assert [(a.index, a.actor, a.kind) for a in actions] == [
        (1, "Ann", "attack"), (2, "Ann", "damage.step"), (3, "Bob", "ko"), (4, "Bob", "battle.end")]
    assert [a.text for a in actions] == ["A: attack ST01-012>OP01-069", "damage", "B: ko OP01-069", "battle.end"]


def test_a_turn_may_begin_mid_line():
    g, ctx = _grammar("optcg")
    actions = parse_line("A: pass · T4 B: refresh · draw", 0, g, ctx)
    assert [(a.actor, a.kind, a.turn_number) for a in actions] == [
        ("Ann", "turn.end", None), ("Bob", "turn", 4), ("Bob", "refresh", None), ("Bob", "draw", None)]


@pytest.mark.parametrize("line,action,col,words", [
    ("A: draw · B: frobnicate", 2, 14, "unknown action 'frobnicate'"),
    ("A: draw · C: draw", 2, 11, "unknown player 'C'"),
    ("A: draw · B:", 2, 13, "expected an action after 'B:'"),
    ("T1 A: refrsh", 1, 7, "did you mean 'refresh'?"),
    ("A: refresh · play", 2, 18, "expected a value for card: play CARD"),
])
def test_an_error_names_the_action_and_its_column(line, action, col, words):
    g, ctx = _grammar("optcg")
    with pytest.raises(NotationError) as err:
        parse_line(line, 0, g, ctx)
    assert (err.value.action, err.value.col) == (action, col), str(err.value)
    assert words in err.value.message
    assert err.value.action_text == line.split(" · ")[action - 1]


@pytest.mark.parametrize("word,keyword", [("rush", "rush"), ("double-attack", "double attack")])
def test_a_keyword_gain_reads_and_writes_with_its_own_verb(word, keyword):
    """`gain CARD KEYWORD`: keyword.gain, a two-word keyword written with a hyphen."""
    from engine.notation import probe
    g, ctx = _grammar("optcg")
    (a,) = parse_line(f'A: gain OP01-016 {word} by="OP01-001"', 0, g, ctx)
    assert (a.kind, a.payload) == ("keyword.gain", {"player": "Ann", "card": "OP01-016", "keyword": keyword,
                                                    "by": "OP01-001"})
    e = probe("m", 9, "keyword.gain", 1, "Ann", a.payload)
    assert g.format_event(e, ctx) == f"A: gain OP01-016 {word} by=OP01-001"


def test_double_attack_may_be_written_as_two_words_and_is_written_back_hyphenated():
    """QA60 #3: the refusal listed "double attack", and `gain X double attack` was refused ("got 'double'")."""
    from engine.notation import probe
    g, ctx = _grammar("optcg")
    (a,) = parse_line("A: gain OP01-016 double attack", 0, g, ctx)
    assert (a.kind, a.payload) == ("keyword.gain", {"player": "Ann", "card": "OP01-016", "keyword": "double attack"})
    assert g.format_event(probe("m", 9, "keyword.gain", 1, "Ann", a.payload), ctx) == "A: gain OP01-016 double-attack"


def test_a_scorekeepers_act_reads_and_writes():
    from engine.notation import probe
    g, ctx = _grammar("table")
    (a,) = parse_line('scorekeeper Luca: void 3 "misrecorded"', 0, g, ctx)
    assert (a.actor, a.kind, a.payload) == ("scorekeeper:Luca", "correction", {"voids": 3, "reason": "misrecorded"})
    e = probe("m", 4, "correction", 1, a.actor, a.payload)
    assert g.format_event(e, ctx) == 'scorekeeper Luca: void 3 misrecorded'


def test_the_docs_show_a_line_that_switches_actor_for_every_grammar():
    """docs/notation.md: each grammar's table has a line that switches actor, and it reads so."""
    import os
    import re

    from engine.notation import grammar_for, make_ctx, parse_line
    from engine.rulesets import available, get_ruleset
    from tests.conftest import ROOT

    with open(os.path.join(ROOT, "docs", "notation.md"), encoding="utf-8") as f:
        sections = re.split(r"^## `(\w+)`", f.read(), flags=re.M)
    pages = dict(zip(sections[1::2], sections[2::2]))
    for name in available():
        rows = [r for r in pages[name].splitlines() if re.search(r"switch(es)? actor", r)]
        assert rows, f"docs/notation.md: no line that switches actor for {name}"
        rs = get_ruleset(name)({})
        g = grammar_for(rs)
        ctx = make_ctx(["Ann", "Bob"], rs, g)
        for text in re.findall(r"`([^`]+)`", rows[0].split(" | ")[0]):
            actors = [a.actor for a in parse_line(text, 0, g, ctx)]
            assert {"Ann", "Bob"} <= set(actors), (name, text, actors)



def test_a_choice_of_several_words_is_written_as_its_words_unquoted_in_any_case():
    """QA 2026-11-27: `penalty B Game Loss ...` was refused ("got 'Game'") while the refusal listed
    "Game Loss" among the choices; only the quoted form read. Any several-word choice of a field
    (a penalty, a keyword) now reads as its words, in any case."""
    g, ctx = _grammar("optcg")
    for written in ("Game Loss", "game loss", '"Game Loss"'):
        (a,) = parse_line(f'judge Kim: penalty B {written} OPTCG-PG-TARDINESS "late"', 0, g, ctx)
        assert a.payload["penalty"] == "Game Loss" and a.payload["infraction"] == "OPTCG-PG-TARDINESS", a.payload
    (a,) = parse_line("A: gain OP01-016 Double Attack", 0, g, ctx)
    assert a.payload["keyword"] == "double attack"
