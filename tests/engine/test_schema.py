"""Payload schemas and the --FIELD VALUE parser: property tests (never crash; round trips)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.match import InputError
from engine.rulesets.table.ruleset import TableRuleset
from engine.schema import ParseContext, PayloadError
from judge.cli.fieldargs import parse_field_args

CTX = ParseContext(players=("Ann", "Bob"), zones=TableRuleset.zones)
KINDS = TableRuleset.vocabulary()
junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda i: st.lists(i, max_size=3) | st.dictionaries(st.text(max_size=10), i, max_size=4),
                    max_leaves=10)


@given(kind=st.sampled_from(sorted(KINDS)), data=st.dictionaries(
    st.sampled_from(["player", "zone", "count", "cards", "text", "name", "set", "add", "voids", "to",
                     "reason", "from_zone", "to_zone", "card", "how", "winner", "clock", "x"]), junk, max_size=6))
def test_parse_accepts_or_names_a_field_never_crashes(kind, data):
    cls = KINDS[kind]
    try:
        parsed = cls.parse(data, CTX)
    except PayloadError as e:
        # the path starts with the payload's field (`instead.payload.count`, `options (a key)`)
        assert e.field == "" or e.field.split("[")[0].split(".")[0].removesuffix(" (a key)") in \
            set(data) | set(cls._hints)
    else:
        assert cls.parse(parsed.to_dict(), CTX) == parsed  # round trip


@given(count=st.integers(1, 60), cards=st.lists(st.from_regex(r"[A-Z]{2}\d{2}-\d{3}", fullmatch=True), max_size=3))
def test_cli_words_become_typed_payloads(count, cards):
    words = ["--player", "Ann", "--count", str(max(count, len(cards)))]
    if cards:
        words += ["--cards", ",".join(cards)]
    payload = parse_field_args(KINDS["draw"], words)
    parsed = KINDS["draw"].parse(payload, CTX)
    assert parsed.count == max(count, len(cards)) and parsed.cards == cards


@pytest.mark.parametrize("words, field", [
    (["--player"], "payload.player"),
    (["--colour", "red"], "payload.colour"),
    (["player", "Ann"], "arguments"),
    (["--count", "1.5"], "payload.count"),
])
def test_cli_word_errors_name_the_field(words, field):
    with pytest.raises(InputError) as e:
        parse_field_args(KINDS["draw"], words)
    assert e.value.field == field


@pytest.mark.parametrize("count,message", [
    (0, "must be 1 or more, got 0"),
    (-3, "must be 1 or more, got -3"),
    (True, "must be a whole number of cards"),
    (10_000, "at most 200 cards"),
])
def test_a_positive_count_refuses_zero_and_what_a_count_refuses(count, message):
    draw = TableRuleset.vocabulary()["draw"]
    with pytest.raises(PayloadError, match=message) as e:
        draw.parse({"player": "Ann", "count": count}, ParseContext(players=("Ann", "Bob"), zones=("deck", "hand")))
    assert e.value.field == "count"
    assert ("count", "count (1 or more)", False) in draw.describe_fields()
    assert "count" in draw.count_fields  # replay bounds it like any count


# --- control characters (QA71 item 3) -----------------------------------------------------------
# C0, DEL and C1: never in a card number or a name; free text (a note's `text`) may hold only line
# breaks and tabs of them.
CONTROLS = [chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]]


@given(st.text(max_size=6), st.sampled_from(CONTROLS), st.text(max_size=6))
def test_a_card_number_with_a_control_character_is_refused_at_its_field(before, control, after):
    card = before + control + after
    with pytest.raises(PayloadError) as e:
        KINDS["move"].parse(
            {"player": "Ann", "from_zone": "hand", "to_zone": "field", "card": card}, CTX)
    assert e.value.field == "card"
    assert "control character U+" in e.value.message
    assert control not in e.value.message  # quoted escaped, never raw


def test_free_text_keeps_line_breaks_and_tabs_only():
    from engine.events import CORE_KINDS
    note = CORE_KINDS["note"]
    assert note.parse({"text": "line 1\n\tline 2"}).text == "line 1\n\tline 2"
    for bad in ("\x1b[31m", "a\rb", "\x00", "\x85"):
        with pytest.raises(PayloadError, match="only line breaks and tabs"):
            note.parse({"text": bad})


@given(st.text())
def test_visible_text_holds_no_control_character_but_line_breaks_and_tabs(text):
    from engine.schema import visible
    shown_text = visible(text)
    assert not set(shown_text) & (set(CONTROLS) - {"\n", "\t"})
    assert (shown_text == text) == (not set(text) & (set(CONTROLS) - {"\n", "\t"}))


def test_a_kind_is_said_in_words_with_the_article_that_fits():
    """QA80 8: "event 26 is a attack, not a judge.ruling or ...": the article and the dotted id."""
    from engine.schema import a_kind
    assert [a_kind(k) for k in ("attack", "judge.ruling", "judge.deck_check", "time.extension", "effect.Once")] == [
        "an attack", "a judge ruling", "a judge deck check", "a time extension", "an effect Once"]
