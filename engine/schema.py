"""Event payload schemas: explicit, versioned classes, validated field by field.

A payload class is a frozen dataclass declared with `@event_kind("name", version=N)`. Its type
hints are the schema. `parse()` turns untrusted JSON-like data into an instance or raises
`PayloadError` naming the field, so an importer can say "file, line, field".

Supported field types: str, int, bool, float, `Player` (a player of the match), `Zone`
(a zone the ruleset declares), `X | None`, `list[X]`, `dict[str, X]`, `Literal[...]`.
"""
from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, ClassVar, Literal, NewType, get_args, get_origin

Player = NewType("Player", str)
Zone = NewType("Zone", str)


class PayloadError(ValueError):
    """A payload does not match its schema. `field` is a dotted path ("cards[2]")."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field '{field}': {message}" if field else message)
        self.field = field
        self.message = message


@dataclasses.dataclass(frozen=True)
class ParseContext:
    """What a payload is checked against: the match's players and the ruleset's zones."""

    players: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()


class Payload:
    """Base of every event payload class."""

    kind: ClassVar[str]
    version: ClassVar[int]
    # fields that name an earlier event by position, and the kinds that event must be
    references: ClassVar[dict[str, tuple[str, ...]]] = {}
    _hints: ClassVar[dict[str, Any]]
    # (name, type, required, default) per field, computed once at declaration: parse is a hot path
    _spec: ClassVar[tuple[tuple[str, Any, bool, Any], ...]]

    @classmethod
    def parse(cls, data: Any, ctx: ParseContext = ParseContext()) -> "Payload":
        if not isinstance(data, dict):
            raise PayloadError("", f"the payload of '{cls.kind}' must be a JSON object")
        hints = cls._hints
        if not data.keys() <= hints.keys():
            unknown = sorted(set(data) - set(hints))[0]
            raise PayloadError(
                unknown, f"'{cls.kind}' has no field '{unknown}' (fields: {', '.join(hints) or 'none'})")
        for name, _, required, _ in cls._spec:
            if required and name not in data:
                raise PayloadError(name, f"required by '{cls.kind}'")
        values = {name: _check(value, hints[name], name, ctx) for name, value in data.items()}
        obj = cls(**values)
        obj.validate()
        return obj

    def validate(self) -> None:
        """Cross-field checks of a payload class: raise PayloadError(field, message)."""

    def to_dict(self) -> dict[str, Any]:
        """Only the fields that differ from their defaults: what was said, not what was assumed."""
        out = {}
        for name, _, required, default in self._spec:
            value = getattr(self, name)
            if required or value != default:
                out[name] = value
        return out

    @classmethod
    def describe_fields(cls) -> list[tuple[str, str, bool]]:
        """(name, type as text, required) for docs and --help."""
        rows = []
        for f in dataclasses.fields(cls):
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            rows.append((f.name, _type_name(cls._hints[f.name]), required))
        return rows


def event_kind(kind: str, version: int = 1):
    """Declare a payload class: `@event_kind("move")` over a class with type hints."""

    def wrap(cls):
        cls = dataclasses.dataclass(frozen=True, kw_only=True)(cls)
        cls.kind = kind
        cls.version = version
        hints = typing.get_type_hints(cls)
        # the payload's fields only (not the ClassVars of Payload such as `kind`)
        cls._hints = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
        spec = []
        for f in dataclasses.fields(cls):
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            spec.append((f.name, cls._hints[f.name], required, default))
        cls._spec = tuple(spec)
        return cls

    return wrap


def _type_name(tp: Any) -> str:
    if tp is Player:
        return "player"
    if tp is Zone:
        return "zone"
    origin = get_origin(tp)
    if origin is Literal:
        return "|".join(repr(a) for a in get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(a) for a in get_args(tp))
    if origin is list:
        return f"list of {_type_name(get_args(tp)[0])}"
    if origin is dict:
        return f"object of {_type_name(get_args(tp)[1])}"
    if tp is type(None):
        return "null"
    return getattr(tp, "__name__", str(tp))


@functools.cache
def _origin_args(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    return get_origin(tp), get_args(tp)


def _check(value: Any, tp: Any, path: str, ctx: ParseContext) -> Any:
    # the common cases first, without typing introspection
    if tp is str and type(value) is str:
        return value
    if tp is int and type(value) is int:
        return value
    if tp is Player and type(value) is str and (not ctx.players or value in ctx.players):
        return value
    if tp is Zone and type(value) is str and (not ctx.zones or value in ctx.zones):
        return value
    origin, tp_args = _origin_args(tp)
    if origin in (typing.Union, types.UnionType):
        args = tp_args
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _check(value, arg, path, ctx)
            except PayloadError as e:
                errors.append(e.message)
        raise PayloadError(path, "; or ".join(errors))
    if origin is Literal:
        allowed = tp_args
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise PayloadError(path, f"must be one of {', '.join(repr(a) for a in allowed)}, got {value!r}")
        return value
    if origin is list:
        if not isinstance(value, list):
            raise PayloadError(path, f"must be a list, got {_json_type(value)}")
        (item,) = tp_args
        return [_check(v, item, f"{path}[{i}]", ctx) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise PayloadError(path, f"must be an object, got {_json_type(value)}")
        _, item = tp_args
        return {str(k): _check(v, item, f"{path}.{k}", ctx) for k, v in value.items()}
    if tp is Player:
        if not isinstance(value, str):
            raise PayloadError(path, f"must be a player name, got {_json_type(value)}")
        if ctx.players and value not in ctx.players:
            raise PayloadError(path, f"unknown player {value!r} (players: {', '.join(ctx.players)})")
        return value
    if tp is Zone:
        if not isinstance(value, str):
            raise PayloadError(path, f"must be a zone name, got {_json_type(value)}")
        if ctx.zones and value not in ctx.zones:
            raise PayloadError(path, f"unknown zone {value!r} (zones: {', '.join(ctx.zones)})")
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise PayloadError(path, f"must be true or false, got {_json_type(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise PayloadError(path, f"must be a whole number, got {_json_type(value)}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PayloadError(path, f"must be a number, got {_json_type(value)}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise PayloadError(path, f"must be text, got {_json_type(value)}")
        return value
    if tp is Any:
        return value
    raise TypeError(f"unsupported schema type {tp!r} at {path}")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
