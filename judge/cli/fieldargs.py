"""Turn `--field value` words from the command line into an event payload, typed by the kind's schema.

`tablejudge log M draw --player Ann --count 2 --cards OP01-016,OP01-013` gives
{"player": "Ann", "count": 2, "cards": ["OP01-016", "OP01-013"]}: a text field keeps its text, a
number field is parsed as a number, a list takes commas or repeated options, a bool takes
true/false/yes/no, and an object takes JSON.
"""
from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin

from engine.match import InputError
from engine.schema import (QUOTE_CHARS, Count, Payload, PayloadError, Player, PositiveCount, Zone, json_type,
                           read_json, shown)


def parse_field_args(kind_cls: type[Payload], words: list[str]) -> dict[str, Any]:
    hints = kind_cls._hints
    out: dict[str, Any] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--") or len(word) == 2:
            raise InputError(f"expected --FIELD VALUE, got {shown(word)} (fields of {kind_cls.kind}: "
                             f"{', '.join(hints)})", field="arguments")
        name, _, inline = word[2:].partition("=")
        name = name.replace("-", "_")
        if name not in hints:
            raise InputError(f"{kind_cls.kind} has no field {shown(name)} (fields: {', '.join(hints) or 'none'})",
                             field=f"payload.{name[:QUOTE_CHARS]}")
        if inline:
            raw = inline
            i += 1
        else:
            if i + 1 >= len(words):
                raise InputError(f"--{name} needs a value", field=f"payload.{name}")
            raw = words[i + 1]
            i += 2
        value = _coerce(raw, hints[name], name)
        if get_origin(_strip_optional(hints[name])) is list and name in out:
            out[name] = out[name] + value
        else:
            out[name] = value
    return out


def _strip_optional(tp: Any) -> Any:
    if get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _coerce(raw: str, tp: Any, name: str) -> Any:
    tp = _strip_optional(tp)
    origin = get_origin(tp)
    if origin is dict:  # an object, given as JSON: `null` would quietly mean "not given"
        value = None if raw == "null" else _json(raw, name)
        if not isinstance(value, dict):
            raise InputError(f"--{name} takes a JSON object, got {json_type(value)}; to give none, "
                             f"leave out --{name}", field=f"payload.{name}")
        return value
    if raw == "null":
        return None
    if tp in (str, Player, Zone):
        return raw
    if tp in (int, Count, PositiveCount):
        try:
            return int(raw)
        except ValueError:  # not a number, or more digits than Python converts (4,300)
            raise InputError(f"must be a whole number, got {shown(raw)}", field=f"payload.{name}") from None
    if tp is float:
        try:
            return float(raw)
        except ValueError:
            raise InputError(f"must be a number, got {shown(raw)}", field=f"payload.{name}") from None
    if tp is bool:
        low = raw.lower()
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise InputError(f"must be true or false, got {shown(raw)}", field=f"payload.{name}")
    if origin is Literal:
        for allowed in get_args(tp):
            if str(allowed) == raw:
                return allowed
        return raw  # the schema check names the allowed values
    if origin is list:
        if raw.startswith("["):
            return _json(raw, name)
        (item,) = get_args(tp)
        return [_coerce(part.strip(), item, name) for part in raw.split(",") if part.strip()]
    return _json(raw, name)


def _json(raw: str, name: str) -> Any:
    try:
        return read_json(raw)
    except PayloadError as e:
        raise InputError(e.message, field=f"payload.{name}") from None
