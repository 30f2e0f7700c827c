"""Text a person reads: "1 event", "2 events"; and an event's words from its game's words.toml."""
from __future__ import annotations

import functools
import re
import tomllib
from typing import Any


def plural(n: int, one: str, many: str | None = None) -> str:
    """`n` and the noun in the right number: plural(1, "card") -> "1 card", plural(2, "copy", "copies")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def positions(first: int, last: int) -> str:
    """Where a run of a log's events stands: positions(2, 18) -> "events 2-18", (5, 5) -> "event 5"."""
    return f"event {first}" if first == last else f"events {first}-{last}"


# --- an event's words as data ---------------------------------------------------------------------
# Simple event words are templates in a words.toml beside the code that owns the kinds (`[events]`,
# kind = template): a game's package, engine/ (core and desk kinds), judge/tournament/. The few
# that need arithmetic or a choice between sentences stay in code. Template syntax:
#   {field}        the payload's value, or the field's default from the payload class when the
#                  event left it out (stored payloads omit defaults); a list reads as "a, b, c"
#   {field:+d}     with a format spec
#   {field|text}   `text` when the field has no value (none, empty)
#   [ ... ]        an optional part: said only when the event says every field in it, with a value
#                  other than none, empty or the field's default (0 counts when the default is none)

_FIELD = re.compile(r"\{(\w+)(?:\|([^{}:]*))?(?::([^{}]*))?\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")


def _has_value(value: Any) -> bool:
    return value is not None and value is not False and value != "" and value != [] and value != {}


def _said(value: Any, alt: str | None, spec: str | None) -> str:
    if not _has_value(value):
        return alt or ""
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return format(value, spec) if spec else str(value)


class Template:
    """One event kind's words: parsed once, rendered per event."""

    def __init__(self, text: str):
        self.text = text
        self.parts: list[tuple[bool, str, tuple[str, ...]]] = []  # (optional, text, its fields)
        pos = 0
        for m in _OPTIONAL.finditer(text):
            self._add(False, text[pos:m.start()])
            self._add(True, m.group(1))
            pos = m.end()
        self._add(False, text[pos:])
        self.fields = tuple(dict.fromkeys(f for _, _, fields in self.parts for f in fields))

    def _add(self, optional: bool, text: str) -> None:
        if text:
            self.parts.append((optional, text, tuple(m.group(1) for m in _FIELD.finditer(text))))

    def render(self, payload: dict[str, Any], defaults: dict[str, Any],
               extra: dict[str, Any] | None = None) -> str:
        """`extra`: values the envelope gives, not the payload (the judge who recorded it)."""
        if extra:
            payload = {**extra, **payload}

        def value(name: str) -> Any:
            v = payload.get(name)
            return defaults.get(name) if v is None else v

        def said(name: str) -> bool:
            v = payload.get(name)
            return _has_value(v) and not (name in defaults and v == defaults[name])

        out = []
        for optional, text, fields in self.parts:
            if optional and not all(said(f) for f in fields):
                continue
            out.append(_FIELD.sub(lambda m: _said(value(m[1]), m[2], m[3]), text))
        return "".join(out)


class WordsError(ValueError):
    """A words.toml that cannot be read."""


@functools.cache
def event_templates(package: str) -> dict[str, Template]:
    """The `[events]` templates of `package`'s words.toml (none when it has no such file)."""
    from engine.catalogue import read_beside

    if not package:
        return {}
    try:
        text = read_beside(package, "words.toml")
    except FileNotFoundError:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise WordsError(f"{package.replace('.', '/')}/words.toml: {e}") from None
    return {kind: Template(t) for kind, t in data.get("events", {}).items()}


def payload_defaults(payload_class: Any) -> dict[str, Any]:
    """What a payload class assumes for each field an event leaves out (none for an unknown kind)."""
    if payload_class is None:
        return {}
    return _defaults(payload_class)


@functools.cache
def _defaults(payload_class: Any) -> dict[str, Any]:
    return {name: default for name, _, required, default in payload_class._spec if not required}


def say(package: str, kind: str, payload: dict[str, Any], payload_class: Any,
        extra: dict[str, Any] | None = None) -> str | None:
    """The words of `package`'s words.toml for this event, or None when it has no template for
    the kind."""
    template = event_templates(package).get(kind)
    if template is None:
        return None
    return template.render(payload, payload_defaults(payload_class), extra)
