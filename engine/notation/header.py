"""The header block: PGN-like tag pairs ([Ruleset "optcg"], [A "Ann"], [Deck "A" "4xOP01-016"])."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from engine.match import InputError, check_match_id
from engine.notation.lexer import SEATS, NotationError, refuse_controls
from engine.schema import PayloadError, json_problem, read_json, shown
from engine.notation.values import Ctx, quote

# --- the header block ---------------------------------------------------------------------------

_TAG = re.compile(r"\[([A-Za-z]+)")
TAGS = ("Ruleset", "Match", "Event", "Round", "Table", "Option", "Deck")


@dataclass
class Header:
    ruleset: str = ""
    players: list[str] = field(default_factory=list)
    event: str | None = None
    round: str | None = None
    table: str | None = None
    match: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    decks: list[tuple[str, list[str], int, int]] = field(default_factory=list)  # seat, cards, line, col
    lines: int = 0  # lines the header takes


def parse_tag(line: str, lineno: int) -> tuple[str, list[str]]:
    refuse_controls(line, lineno)
    m = _TAG.match(line)
    if not m:
        raise NotationError("expected a tag: [Name \"value\"]", line=lineno, col=1)
    i = m.end()
    values = []
    dec = json.JSONDecoder()
    while True:
        while i < len(line) and line[i] in " \t":
            i += 1
        if i >= len(line):
            raise NotationError("expected ']' to close the tag", line=lineno, col=i + 1)
        if line[i] == "]":
            if line[i + 1:].strip():
                raise NotationError("expected the end of the line after the tag", line=lineno, col=i + 2)
            break
        if line[i] != '"':
            raise NotationError("expected a \"quoted\" value or ']'", line=lineno, col=i + 1)
        try:
            value, i = dec.raw_decode(line, i)
        except json.JSONDecodeError as e:
            raise NotationError(f"expected a closed \"string\" ({json_problem(e)})", line=lineno, col=e.colno) from None
        values.append(value)
    return m.group(1), values


def parse_header(lines: list[str]) -> Header:
    h = Header()
    seats: dict[str, tuple[str, int]] = {}
    for idx, raw in enumerate(lines):
        lineno = idx + 1
        line = raw.strip()
        if not line:
            continue
        if not line.startswith("["):
            h.lines = idx
            break
        name, values = parse_tag(line, lineno)
        want = 2 if name == "Deck" else 1
        if len(values) != want:
            raise NotationError(f"tag {name} takes {want} value{'s' if want > 1 else ''}",
                                line=lineno, col=len(raw) - len(raw.lstrip()) + 1)
        v = values[0]
        if len(name) == 1 and name in SEATS:
            seats[name] = (v, lineno)
        elif name == "Ruleset":
            h.ruleset = v
        elif name == "Match":
            try:
                h.match = check_match_id(v)
            except InputError as e:
                raise NotationError(e.message, line=lineno, col=2) from None
        elif name in ("Event", "Round", "Table"):
            setattr(h, name.lower(), v)
        elif name == "Option":
            key, sep, text = v.partition("=")
            if not sep or not key:
                raise NotationError("expected [Option \"name=value\"]", line=lineno, col=2)
            try:
                h.options[key] = read_json(text)
            except PayloadError:
                h.options[key] = text
        elif name == "Deck":
            h.decks.append((v, values[1], lineno, 2))  # type: ignore[arg-type]
        else:
            raise NotationError(f"unknown tag {shown(name)} (tags: {', '.join(TAGS)}, and A, B, ... for the "
                                "players in seat order)", line=lineno, col=2)
    else:
        h.lines = len(lines)
    if not h.ruleset:
        raise NotationError("expected a [Ruleset \"name\"] tag in the header", line=1, col=1)
    for k, letter in enumerate(sorted(seats, key=SEATS.index)):
        if letter != SEATS[k]:
            raise NotationError(f"players are seated A, B, C, ... in order: [{SEATS[k]}] is missing",
                                line=seats[letter][1], col=2)
        h.players.append(seats[letter][0])
    if len(h.players) < 2:
        raise NotationError("expected the players as [A \"name\"] and [B \"name\"] tags", line=1, col=1)
    return h


def contradiction(h: Header, match: Any) -> str | None:
    """What a header says that `match` (an open Match) is not: its ruleset, its players in seat
    order, its id if named, its event/round/table if both give one (a label the match lacks is no
    contradiction), its options if the header gives any. None when the header describes it. One
    check for a script fed to `live` and a file imported with `--match`."""
    created = match.created.payload
    if h.ruleset != match.ruleset.name:
        return f"the header's ruleset is {h.ruleset!r}, but match {match.id} is {match.ruleset.name!r}"
    if h.players != list(match.players):
        return f"the header seats {', '.join(h.players)}, but match {match.id} seats {', '.join(match.players)}"
    if h.match is not None and h.match != match.id:
        return f"the header names match {h.match}, not {match.id}"
    for key in ("event", "round", "table"):
        said, is_ = getattr(h, key), created.get(key)
        if said is not None and is_ is not None and said != is_:
            return f"the header's {key} is {said!r}, but match {match.id}'s is {is_!r}"
    if h.options and h.options != (created.get("options") or {}):
        return f"the header's options {h.options} are not match {match.id}'s ({created.get('options') or {}})"
    return None


def format_header(created: dict[str, Any], match_id: str | None, decks: list[tuple[str, str]],
                  ctx: Ctx) -> list[str]:
    out = [f"[Ruleset {quote(created['ruleset'])}]"]
    if match_id:
        out.append(f"[Match {quote(match_id)}]")
    for key in ("event", "round", "table"):
        if created.get(key) is not None:
            out.append(f"[{key.capitalize()} {quote(str(created[key]))}]")
    for p in created["players"]:
        out.append(f"[{ctx.seat_of[p]} {quote(p)}]")
    for name, value in sorted((created.get("options") or {}).items()):
        text = value if isinstance(value, str) and not _json_ok(value) else \
            json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        out.append(f"[Option {quote(f'{name}={text}')}]")
    for player, text in decks:
        out.append(f"[Deck {quote(ctx.seat_of[player])} {quote(text)}]")
    return out


def _json_ok(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except json.JSONDecodeError:
        return False
