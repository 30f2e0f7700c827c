"""Sample events for every kind of a ruleset's vocabulary, built from the payload schemas: what the
describe() tests feed to `Ruleset.describe` (every field filled, and only the required ones)."""
from __future__ import annotations

import dataclasses
import re
import types
import typing
from typing import Any, Literal, get_args, get_origin

from engine.events import RecordedEvent
from engine.schema import Player, Zone

PLAYERS = ("Ann", "Bob")


def sample_value(tp: Any, name: str, zones: tuple[str, ...]) -> Any:
    """A plausible value of a schema type (the first choice of a Literal, a player, a zone, ...)."""
    origin = get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return sample_value(next(a for a in get_args(tp) if a is not type(None)), name, zones)
    if origin is Literal:
        return get_args(tp)[0]
    if origin is list:
        return [sample_value(get_args(tp)[0], name, zones)]
    if origin is dict:
        return {}
    if tp is Player:
        return PLAYERS[0]
    if tp is Zone:
        return zones[0] if zones else "hand"
    if tp is bool:
        return True
    if tp is int:
        return 1
    if tp is float:
        return 1.0
    if tp is str:
        return f"X-{name}"
    return None


def payloads(cls: type, zones: tuple[str, ...]) -> list[dict[str, Any]]:
    """Two payloads of a kind: every field filled, and only the required fields. A payload the
    class's own validate() refuses is left out (its fields depend on each other)."""
    full: dict[str, Any] = {}
    required: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        tp = cls._hints[f.name]
        value = sample_value(tp, f.name, zones)
        if value is None:
            continue
        full[f.name] = value
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required[f.name] = value
    out = []
    for data in (full, required):
        try:
            cls.parse(data)
        except Exception:
            continue
        out.append(data)
    return out


def event(kind: str, payload: dict[str, Any], actor: str = "Ann") -> RecordedEvent:
    return RecordedEvent("m", 7, kind, 1, actor, payload, "", "", "", "")


def generic_fallback(text: str, kind: str, payload: dict[str, Any]) -> str | None:
    """Why `text` looks like the generic `kind field=value` dump, or None when it is plain words."""
    for name in payload:
        if re.search(rf"\b{re.escape(name)}=", text):
            return f"shows the field as {name}=..."
    if ("." in kind or "_" in kind) and kind in text:
        return f"shows the kind name {kind!r}"
    if text.strip() == kind:
        return "is only the kind name"
    return None


# Kinds whose fields depend on each other (nested objects the schema alone cannot fill in).
HAND_WRITTEN: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("ken", "deck.register"): [{"player": "Ann", "cards": [
        {"code": "L-OAS", "name": "Oasi", "type": "location", "morale": ["grey"], "inhabited": True,
         "green": 1, "ochre": 1, "count": 1}]}],
    ("ken", "play"): [{"player": "Ann", "cards": [{"code": "L-OAS"}, {"code": "E-BAN"}]}],
    ("ken", "combat.attack"): [{"player": "Ann", "groups": [{"target": "c23", "cards": ["c9"]}]}],
    ("ken", "combat.defend"): [{"player": "Bob", "groups": [{"target": "c23", "cards": ["c24", "c25"]}]},
                               {"player": "Bob", "groups": []}],
    ("ken", "combat.damage"): [{"target": "c23", "attacker": {"damage": 5}, "defender": {"damage": 2}}],
    ("op2009", "damage"): [{"hits": [{"player": "Ann", "space": "capitano", "amount": 2}]}],
    ("optcg", "log.count"): [{"player": "Ann", "zone": "hand", "count": 5, "line": 12}],
    ("table", "counter"): [{"name": "life", "player": "Ann", "add": -1}, {"name": "life", "set": 20}],
}


def samples(ruleset_name: str, kind: str, cls: type, zones: tuple[str, ...]) -> list[dict[str, Any]]:
    return payloads(cls, zones) + HAND_WRITTEN.get((ruleset_name, kind), [])
