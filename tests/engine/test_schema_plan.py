"""`Payload.parse`'s compiled plan (engine/schema.py) against `parse_checked`, the generic check it
must agree with: on random payloads of every kind declared, the same instance, or the same refusal
with the same field and message."""
from __future__ import annotations

import types
import typing

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import CORE_KINDS
from engine.rulesets import available, get_ruleset
from engine.canonical import canonical_json
from engine.schema import (MAX_ITEMS, MAX_NUMBER, MAX_TEXT, Count, ParseContext, Payload, PayloadError, Player,
                           PositiveCount, Zone, _check, most_json_chars)
from judge.tournament.vocab import KINDS as TOURNAMENT_KINDS

CLASSES = sorted({c for name in available() for c in get_ruleset(name).vocabulary().values()}
                 | set(CORE_KINDS.values()) | set(TOURNAMENT_KINDS.values()),
                 key=lambda c: (c.__module__, c.kind))
# each field type declared, with the (kind, field) pairs of that type: a case picks a type first, so
# a type only ten kinds use is checked as often as one most kinds use
BY_TYPE: dict[str, list] = {}
for _cls in CLASSES:
    for _name, _tp in _cls._hints.items():
        BY_TYPE.setdefault(repr(_tp), []).append((_cls, _name))
CONTEXTS = [ParseContext(players=("Ann", "Bob"), zones=("deck", "hand", "field", "trash"), max_cards=60),
            ParseContext()]  # no players, no zones: any name is taken

# values at and around every bound the checks have, of every JSON type and a few that are not
edge_numbers = st.sampled_from([0, 1, -1, 2, 59, 60, 61, 200, 201, MAX_NUMBER, MAX_NUMBER + 1, -MAX_NUMBER,
                                -MAX_NUMBER - 1, 10 ** 400, 0.0, 1.5, -2.0, 1e9, 1e10, float("nan"),
                                float("inf"), True, False])
edge_text = st.sampled_from(["Ann", "Bob", "Cy", "", "deck", "hand", "field", "trash", "top", "bottom",
                             "win", "draw", "keep", "main", "life", "é", "\ud800", "x" * MAX_TEXT,
                             "2\x00", "a\nb", "\tx", "\x1b[31m", "\x85", "é\x07",
                             "x" * (MAX_TEXT + 1), "Caution", "swiss", "character"])
scalar = st.none() | st.booleans() | st.integers() | edge_numbers | st.floats() | st.text(max_size=6) | edge_text
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=4) | edge_text | st.integers(0, 3), inner, max_size=4), max_leaves=12) | st.just(
    ["a"] * (MAX_ITEMS + 1)) | st.just(object())


def plain(tp):
    """Values `_check` plainly accepts for a field of type `tp` (in CONTEXTS[0])."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    simple = {Count: st.integers(0, 60), PositiveCount: st.integers(1, 60), bool: st.booleans(),
              int: st.integers(-MAX_NUMBER, MAX_NUMBER), float: st.floats(-1e9, 1e9) | st.integers(-9, 9),
              Player: st.sampled_from(["Ann", "Bob"]), Zone: st.sampled_from(["deck", "hand", "field", "trash"]),
              str: st.text(max_size=5)}
    if tp in simple:
        return simple[tp]
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (typing.Union, types.UnionType):
        return st.one_of([st.none()] + [plain(a) for a in args if a is not type(None)])
    if origin is list:
        return st.lists(plain(args[0]), max_size=3)
    if origin is dict:
        return st.dictionaries(st.text(max_size=4), plain(args[1]), max_size=3)
    return value


class Text(str):
    """A str that is not exactly str: the plan leaves it to the generic check."""


def deep(n: int):
    return 1 if n == 0 else [deep(n - 1)]


def near_values(tp) -> list:
    """Values a field of type `tp` takes or just misses: its bounds, names, literals, other types."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    bounds = {Count: [-1, 0, 60, 61, 200, True, 1.0], PositiveCount: [0, 1, 60, 61, True, 2.0],
              int: [MAX_NUMBER, MAX_NUMBER + 1, -MAX_NUMBER, -MAX_NUMBER - 1, 10 ** 400, True, 1.0],
              float: [1e9, 1e10, -1e10, MAX_NUMBER + 1, float("nan"), float("inf"), True, 3, 2 ** 70],
              bool: [0, 1, None, "true", True]}
    if tp in bounds:
        return bounds[tp]
    if tp in (Player, Zone, str):
        return ["Ann", "deck", "Cy", "", "é", "\ud800", "x" * MAX_TEXT, "x" * (MAX_TEXT + 1),
                "2\x00", "a\nb", "a\tb", "\x1b[31m", "\x85", "é\x07",
                Text("Ann"), Text("deck"), 1, None]
    if origin is typing.Literal:
        return list(args) + [str(args[0]).upper(), 1, True, Text(args[0])]
    if origin in (typing.Union, types.UnionType):
        return [None] + [v for a in args if a is not type(None) for v in near_values(a)]
    if origin is list:
        return [[v] for v in near_values(args[0])] + [[], (), ["a"] * (MAX_ITEMS + 1), {}]
    if origin is dict:
        ok = valid_value(args[1])
        return ([{"k": v} for v in near_values(args[1])]
                + [{k: ok} for k in (1, Text("k"), "é", "\ud800", "x" * (MAX_TEXT + 1), "k\x00", "a\nb")]
                + [{}, [], {str(i): ok for i in range(MAX_ITEMS + 1)}])
    return [None, 1, 1.5, "x", "\ud800", float("nan"), [1], {"a": [1]}, {1: 2}, deep(8), deep(9), object()]


def valid_value(tp):
    """Some value `_check` takes for `tp` in CONTEXTS[0] (the first candidate it takes)."""
    for candidate in ["Ann", "deck", 1, 1.5, True, [], {}, "x"] + list(typing.get_args(tp)):
        try:
            return _check(candidate, tp, "", CONTEXTS[0])
        except (PayloadError, TypeError):
            continue
    raise AssertionError(f"no valid value for {tp!r}")


def near(tp):
    return st.sampled_from(near_values(tp))


@st.composite
def payloads(draw):
    """A payload of a random kind whose fields are plainly valid, but for (mostly) one: a value
    near its bounds or of another type, a field missing, an unknown key."""
    cls, field = draw(st.sampled_from(sorted(BY_TYPE)).flatmap(lambda t: st.sampled_from(BY_TYPE[t]))
                      | st.tuples(st.sampled_from(CLASSES), st.none()))
    data = {}
    for name, tp, required, _ in cls._spec:
        if required or draw(st.booleans()):
            data[name] = draw(plain(tp))
    if field is not None and draw(st.integers(0, 3)):
        data[field] = draw(near(cls._hints[field]))
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(list(cls._hints) or ["x"]))
        change = draw(st.sampled_from(["near", "near", "near", "junk", "drop", "unknown"] if cls._hints else ["unknown"]))
        if change == "drop":
            data.pop(name, None)
        elif change == "unknown":
            data[draw(st.sampled_from(["x", "Player", Text(name), 1]))] = draw(value)
        else:
            data[name] = draw(near(cls._hints[name]) if change == "near" else value)
    return cls, data


def said_before(obj: Payload) -> dict:
    """Payload.to_dict as it was written before (engine/schema.py at 930f011): field by field."""
    out = {}
    for name, _, required, default in obj._spec:
        value = getattr(obj, name)
        if required or value != default:
            out[name] = value
    return out


def attempt(parse, data, ctx):
    """(True, what `parse` gives) or (False, its refusal: a PayloadError's field and words, or a TypeError's)."""
    try:
        return True, parse(data, ctx)
    except PayloadError as e:
        return False, ("refused", e.field, e.message)
    except TypeError as e:
        return False, ("TypeError", str(e))


def outcome(parse, data, ctx):
    ok, obj = attempt(parse, data, ctx)
    if not ok:
        return obj
    # the same state, in the same order, of the same types (1 and 1.0 and True are ==)
    state = list(obj.__dict__.items())
    said = obj.to_dict()
    assert list(said.items()) == list(said_before(obj).items())
    return ("parsed", type(obj), state, [type(v) for _, v in state], repr(obj), said)


def stored(parse_dict, data, ctx):
    """What `parse_dict` gives (or refuses): the payload an event stores, keys in order, of their types."""
    ok, said = attempt(parse_dict, data, ctx)
    if not ok:
        return said
    return ("parsed", list(said.items()), [type(v) for v in said.values()])


def checked_dict(cls):
    return lambda data, ctx: cls.parse_checked(data, ctx).to_dict()


@settings(max_examples=1000, deadline=None)
@given(case=payloads(), ctx=st.sampled_from(CONTEXTS))
def test_the_plan_agrees_with_the_generic_check(case, ctx):
    cls, data = case
    assert outcome(cls.parse, data, ctx) == outcome(cls.parse_checked, data, ctx)
    # the dict the plan writes beside the instance is the instance's to_dict
    got = stored(cls.parse_dict, data, ctx)
    assert got == stored(checked_dict(cls), data, ctx)
    bound = most_json_chars(cls, ctx.max_cards)
    if got[0] == "parsed" and bound is not None:  # within the bound EventValidator trusts
        assert len(canonical_json(dict(got[1]))) <= bound


def largest(tp, max_cards: int):
    """The value of type `tp` whose canonical JSON is longest (None: no bound)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in (str, Player, Zone):
        return '"' * MAX_TEXT  # each written as two characters: \"
    values = {bool: False, int: -MAX_NUMBER, float: -1.2345678901234567e-300, Count: max_cards,
              PositiveCount: max_cards, type(None): None}
    if tp in values:
        return values[tp]
    if origin is typing.Literal:
        return max(args, key=lambda a: len(canonical_json(a)))
    if origin in (typing.Union, types.UnionType):
        return max((largest(a, max_cards) for a in args), key=lambda v: len(canonical_json(v)))
    raise AssertionError(f"no largest value of {tp!r}")


def test_a_kinds_json_bound_holds_for_its_largest_values():
    """most_json_chars is at least the JSON of every field at its longest (each value one `_check`
    accepts): EventValidator skips the payload size check of a kind on it."""
    ctx = ParseContext(max_cards=987)  # no players, no zones: any name is taken
    bounded = 0
    for cls in CLASSES:
        bound = most_json_chars(cls, ctx.max_cards)
        if bound is None:
            continue
        bounded += 1
        worst = {name: largest(tp, ctx.max_cards) for name, tp in cls._hints.items()}
        for name, v in worst.items():
            assert _check(v, cls._hints[name], name, ctx) == v, (cls, name)
        assert len(canonical_json(worst)) <= bound, cls
    assert bounded > len(CLASSES) // 3


def test_the_plan_agrees_at_every_bound_of_every_field():
    """Every field of every kind, each value near its type's bounds, in an otherwise valid payload
    (what random cases reach only now and then): the same outcome, and lists and objects copied as
    `_check` copies them (a caller changing its own afterwards cannot change what was checked)."""
    ctx = CONTEXTS[0]
    for cls in CLASSES:
        base = {name: valid_value(tp) for name, tp, required, _ in cls._spec if required}
        for name, tp in cls._hints.items():
            for v in near_values(tp):
                data = {**base, name: v}
                got = outcome(cls.parse, data, ctx)
                assert got == outcome(cls.parse_checked, data, ctx), (cls, name, v)
                assert stored(cls.parse_dict, data, ctx) == stored(checked_dict(cls), data, ctx), (cls, name, v)
                if got[0] == "parsed" and isinstance(v, (list, dict)):
                    assert dict(got[2])[name] is not v


def test_every_kind_has_a_plan():
    """Every declared kind takes the compiled path (a kind that silently did not would be slow)."""
    assert [c for c in CLASSES if c._plan is None] == []
