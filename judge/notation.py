"""The game notation: a short, human-writable line per action, like chess's SAN/PGN for card games.

    [Ruleset "table"]
    [Event "Regional Milano"]
    [A "Ann"]
    [B "Bob"]
    [Deck "A" "4xOP01-016 2xOP01-013"]

    {Ann won the coin toss}
    A: setup deck 40
    T1 A: draw · hand>field OP01-016
    B: counter life -1
    judge Kim: ruling "the attack stands" rule=OPTCG-BATTLE-2

This module is the shared core: the lexer, the header block (PGN-like tag pairs), turn headers,
actor prefixes, comments in braces, `?` for an unknown card, and the *generic form* every event of
every ruleset can be written in (`A: kind field=value ...`, or `@kind ...` when a short verb shadows
the kind's name). A ruleset's grammar (`judge/notation_<ruleset>.py`, found by name) adds short
verbs with positional fields and custom forms (`hand>field X`). Exporting writes each event in
exactly one canonical way, so export(import(text)) == text up to whitespace for canonical text.

Parsing refuses the whole file on the first problem: `InputError` with where="FILE:LINE:COL" and
what was expected there.
"""
from __future__ import annotations

import importlib
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from engine.events import JUDGE_PREFIX, TABLE_ACTOR, RecordedEvent
from engine.match import InputError
from engine.replay import Fold
from engine.rules import Ruleset
from engine.schema import Player
from engine.state import TableState

SEATS = "ABCDEFGHIJKLMNOPQRSUVWXYZ"  # no T: it starts a turn header
SEPARATORS = ("·", ";")
DECKLIST_NOTE = "decklist: "  # how a Deck tag is stored where a ruleset has no deck kind

# --- the lexer ---------------------------------------------------------------------------------


@dataclass
class Token:
    type: str  # word | str | kv | comment | sep
    text: str  # the source text of the token
    col: int  # 1-based column
    value: Any = None  # str: the string; kv: the value; comment: its text
    key: str = ""  # kv only
    vtype: str = ""  # kv only: word | str | json | list
    colon: bool = False  # a quoted string directly followed by ':' (an actor)


class NotationError(InputError):
    """A parse error: `line`/`col` say where, the message says what was expected."""

    def __init__(self, message: str, *, line: int = 0, col: int = 0, path: str = ""):
        self.line, self.col, self.path = line, col, path
        super().__init__(message, where=_where(path, line, col))

    def at(self, path: str, line: int) -> "NotationError":
        return NotationError(self.message, line=self.line or line, col=self.col, path=path)


def _where(path: str, line: int, col: int) -> str:
    parts = [p for p in (path, str(line) if line else "", str(col) if col else "") if p]
    return ":".join(parts)


_KEY = re.compile(r"[a-z_][a-z0-9_]*=")
_STOP = set(' \t{}"') | set(SEPARATORS)


def tokenize(line: str, lineno: int = 0) -> list[Token]:
    """Split one line into tokens. Raises NotationError with the column."""
    toks: list[Token] = []
    i, n = 0, len(line)
    dec = json.JSONDecoder()
    while i < n:
        c = line[i]
        if c in " \t\r":
            i += 1
            continue
        col = i + 1
        if c == "{":
            end = line.find("}", i + 1)
            if end < 0:
                raise NotationError("expected '}' to close the comment", line=lineno, col=col)
            toks.append(Token("comment", line[i:end + 1], col, line[i + 1:end].strip()))
            i = end + 1
            continue
        if c == "}":
            raise NotationError("'}' without a '{' before it", line=lineno, col=col)
        if c in SEPARATORS:
            toks.append(Token("sep", c, col))
            i += 1
            continue
        if c == '"':
            try:
                value, end = dec.raw_decode(line, i)
            except json.JSONDecodeError as e:
                raise NotationError(f"expected a closed \"string\" ({e.msg})", line=lineno,
                                    col=e.colno) from None
            tok = Token("str", line[i:end], col, value)
            if end < n and line[end] == ":":
                tok.colon = True
                end += 1
            toks.append(tok)
            i = end
            continue
        m = _KEY.match(line, i)
        if m and m.end() < n and line[m.end()] in '"[{':
            key = m.group()[:-1]
            j = m.end()
            try:
                value, end = dec.raw_decode(line, j)
                vtype = "str" if line[j] == '"' else "json"
            except json.JSONDecodeError as e:
                if line[j] != "[":
                    raise NotationError(f"expected a JSON value after '{key}=' ({e.msg})",
                                        line=lineno, col=e.colno) from None
                end = line.find("]", j)
                if end < 0:
                    raise NotationError("expected ']' to close the list", line=lineno, col=j + 1)
                inner = line[j + 1:end]
                value = [w.strip() for w in inner.split(",") if w.strip()] if inner.strip() else []
                vtype = "list"
                end += 1
            if end < n and line[end] not in " \t" and line[end] not in SEPARATORS:
                raise NotationError("expected a space after the value", line=lineno, col=end + 1)
            toks.append(Token("kv", line[i:end], col, value, key=key, vtype=vtype))
            i = end
            continue
        j = i
        while j < n and line[j] not in _STOP:
            j += 1
        word = line[i:j]
        if m and len(m.group()) <= len(word):
            toks.append(Token("kv", word, col, word[len(m.group()):], key=m.group()[:-1], vtype="word"))
        else:
            toks.append(Token("word", word, col, word))
        i = j
    return toks


# --- values: text <-> payload values, by the payload field's type -----------------------------

_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
_COUNTED = re.compile(r"(\d+)x(.+)")
_UNSAFE = re.compile(r'[\s{}"\[\]=,]|[·;]')
_WORD_RESERVED = {"?", "-", "null", "true", "false"}


def bare_ok(s: str, reserved: Iterable[str] = ()) -> bool:
    """Can `s` be written without quotes and read back as the same text?"""
    return bool(s) and not _UNSAFE.search(s) and not s.endswith(":") and s not in _WORD_RESERVED \
        and not _FLOAT.fullmatch(s) and not _COUNTED.fullmatch(s) and s[0] not in "#@" \
        and ">" not in s and s not in reserved and not re.fullmatch(r"T\d*", s)


def quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _unwrap_optional(hint: Any) -> tuple[Any, bool]:
    if get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        optional = len(args) < len(get_args(hint))
        if len(args) == 1:
            return args[0], optional
        return typing.Union[tuple(args)], optional
    return hint, False


class Mismatch(Exception):
    """A token does not fit a field (positional fields may then be skipped)."""


@dataclass
class Ctx:
    """What parsing and formatting a line needs: the seats and the ruleset."""

    players: list[str]
    ruleset: Ruleset
    aliases: dict[str, str] = field(default_factory=dict)  # short word -> zone/space name

    def __post_init__(self) -> None:
        self.alias_of = {v: k for k, v in self.aliases.items()}
        self.seat_of = {p: SEATS[i] for i, p in enumerate(self.players)}
        self.player_at = {SEATS[i]: p for i, p in enumerate(self.players)}

    def player(self, ref: str) -> str | None:
        """A seat letter or a player's name -> the name."""
        if ref in self.player_at:
            return self.player_at[ref]
        return ref if ref in self.players else None

    def seat(self, name: str) -> str:
        return self.seat_of.get(name) or quote(name)

    def actor_text(self, actor: str) -> str:
        if actor in self.seat_of:
            return self.seat_of[actor] + ":"
        if actor.startswith(JUDGE_PREFIX):
            name = actor[len(JUDGE_PREFIX):]
            return "judge " + (name if bare_ok(name) else quote(name)) + ":"
        return ""


def read_value(tok: Token, hint: Any, ctx: Ctx, *, player_like: bool = False) -> Any:
    """The value of a token for a field of type `hint`. Raises Mismatch(expected)."""
    if tok.type == "kv":
        vtype, raw = tok.vtype, tok.value
    elif tok.type == "str":
        vtype, raw = "str", tok.value
    elif tok.type == "word":
        vtype, raw = "word", tok.value
    else:
        raise Mismatch("a value")
    return _convert(vtype, raw, hint, ctx, player_like)


def _convert(vtype: str, raw: Any, hint: Any, ctx: Ctx, player_like: bool) -> Any:
    base, optional = _unwrap_optional(hint)
    if vtype == "word" and raw in ("null", "?") and (optional or base is Any):
        return None
    if vtype == "json":
        return raw
    if base is Player or player_like:
        if vtype in ("word", "str") and isinstance(raw, str):
            name = ctx.player(raw)
            if name is not None:
                return name
        raise Mismatch(f"a player ({', '.join(f'{ctx.seat_of[p]}={p}' for p in ctx.players)})")
    if vtype == "word" and (get_origin(base) is Literal or hasattr(base, "__supertype__")):
        raw = ctx.aliases.get(raw, raw)
    base = getattr(base, "__supertype__", base)  # Zone and other NewTypes of str
    origin = get_origin(base)
    if origin is Literal:
        allowed = get_args(base)
        for a in allowed:
            if (isinstance(a, str) and raw == a) or (isinstance(a, int) and vtype == "word" and raw == str(a)):
                return a
        raise Mismatch("one of " + ", ".join(map(str, allowed)))
    if origin in (typing.Union, types.UnionType):
        for arm in get_args(base):
            try:
                return _convert(vtype, raw, arm, ctx, False)
            except Mismatch:
                continue
        raise Mismatch(str(base))
    if base is bool:
        if vtype == "word" and raw in ("true", "false"):
            return raw == "true"
        raise Mismatch("true or false")
    if base is int:
        if vtype == "word" and _INT.fullmatch(raw):
            return int(raw)
        raise Mismatch("a whole number")
    if base is float:
        if vtype == "word" and _FLOAT.fullmatch(raw):
            return float(raw)
        raise Mismatch("a number")
    if base is str:
        if vtype == "str" or (vtype == "word" and raw not in _WORD_RESERVED):
            return raw
        raise Mismatch("text")
    if origin is list:
        if vtype == "list":
            (item,) = get_args(base) or (str,)
            return [_convert("word", w, item, ctx, False) for w in raw]
        raise Mismatch("a list [a,b,...]")
    if base is Any:
        if vtype == "word" and _INT.fullmatch(raw):
            return int(raw)
        return raw
    raise Mismatch(f"a JSON value ({getattr(base, '__name__', base)})")


def write_value(value: Any, hint: Any, ctx: Ctx, *, reserved: Iterable[str] = (),
                player_like: bool = False) -> str:
    base, _ = _unwrap_optional(hint)
    if value is None:
        return "null"
    if (base is Player or player_like) and isinstance(value, str) and value in ctx.seat_of:
        return ctx.seat_of[value]
    if isinstance(value, str) and value in ctx.alias_of and (get_origin(base) is Literal or hasattr(base, "__supertype__")):
        return ctx.alias_of[value]
    base = getattr(base, "__supertype__", base)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and base is not str:
        return str(value)
    if isinstance(value, float) and base is float:
        return repr(value)
    if isinstance(value, str) and (base is str or get_origin(base) is Literal or base is Any):
        return value if bare_ok(value, reserved) else quote(value)
    if isinstance(value, list) and get_origin(base) is list and get_args(base) \
            and get_args(base)[0] is str and all(isinstance(v, str) and bare_ok(v) for v in value):
        return "[" + ",".join(value) + "]"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def expand_cards(tokens: Sequence[Token], ctx: Ctx, *, allow_unknown: bool = False) -> list[str | None]:
    """Card-list tokens: CODE, "CODE", NxCODE, ? and Nx? (unknown cards, when allowed)."""
    out: list[str | None] = []
    for t in tokens:
        if t.type == "str":
            out.append(t.value)
            continue
        if t.type != "word":
            raise NotationError("expected a card number", col=t.col)
        m = _COUNTED.fullmatch(t.value)
        count, code = (int(m.group(1)), m.group(2)) if m else (1, t.value)
        if code.startswith('"'):
            try:
                code = json.loads(code)
            except json.JSONDecodeError:
                raise NotationError("expected a card number", col=t.col) from None
        if code == "?":
            if not allow_unknown:
                raise NotationError("expected a card number (an unknown card '?' is not allowed here)",
                                    col=t.col)
            out.extend([None] * count)
        elif _INT.fullmatch(code) or code in _WORD_RESERVED:
            raise NotationError(f"expected a card number, got {code!r} (quote a card number that "
                                "looks like a number)", col=t.col)
        else:
            out.extend([code] * count)
    return out


def write_cards(cards: Sequence[str | None]) -> list[str]:
    """A card list in runs: 4xOP01-016 ? 2x?."""
    out = []
    i = 0
    while i < len(cards):
        j = i
        while j < len(cards) and cards[j] == cards[i]:
            j += 1
        c = cards[i]
        text = "?" if c is None else (c if bare_ok(c) else quote(c))
        n = j - i
        if n > 1 and text.startswith('"'):
            out.extend([text] * n)
        else:
            out.append(f"{n}x{text}" if n > 1 else text)
        i = j
    return out


# --- verbs: one short word per event kind, with positional fields ------------------------------


@dataclass(frozen=True)
class Verb:
    """`name` written for events of `kind`: `positional` fields in order (an optional field whose
    value does not fit is skipped), then `rest` (a list of cards, if any), then `key=value` and flags
    for the other fields. `players`: str fields holding a player's name (written as a seat)."""

    name: str
    kind: str
    positional: tuple[str, ...] = ()
    rest: str | None = None
    players: tuple[str, ...] = ()
    doc: str = ""


CORE_VERBS = (
    Verb("void", "correction", ("voids", "reason"), doc="void N \"reason\": a correction (event N is void)"),
    Verb("backup", "backup", ("to", "reason"), doc="backup N \"reason\": back the game up to just after event N"),
    Verb("time", "time.called", ("clock", "note"), doc="time 14:35: the round's time is called"),
    Verb("call", "judge.call", ("caller", "reason"), players=("caller",),
         doc="call A \"reason\": a judge is called (at=N: about event N)"),
    Verb("ruling", "judge.ruling", ("text", "rule"), doc="ruling \"text\" RULE-ID: a judge's ruling"),
    Verb("penalty", "judge.penalty", ("player", "penalty", "infraction", "reason"),
         doc="penalty B Warning \"Game Play Error\" \"reason\""),
    Verb("deckcheck", "judge.deck_check", ("player", "result"), doc="deckcheck A ok"),
    Verb("round.start", "round.start", ("minutes",), doc="round.start 50: the match clock starts"),
    Verb("extend", "time.extension", ("minutes", "reason"), doc="extend 3 \"long ruling\""),
    Verb("slip", "result.slip", ("result", "winner", "games"), doc="slip win A 2-1 / slip draw"),
    Verb("confirm", "result.confirm", ("agree",), doc="A: confirm (or confirm false: disputes)"),
    Verb("note", "note", ("text",), doc="note \"text\" (or {text} in braces)"),
)


@dataclass
class Action:
    """One parsed action: who, what, and where it was written."""

    actor: str
    kind: str
    payload: dict[str, Any]
    line: int = 0
    col: int = 0
    turn_number: int | None = None  # a turn header's number, checked against the derived turn
    text: str = ""


class Grammar:
    """A ruleset's notation. Subclass it in judge/notation_<ruleset>.py as `GRAMMAR = MyGrammar`."""

    turn_kind: str | None = None  # the kind a turn header `T3 A:` records
    deck_kind: str | None = None  # the kind a [Deck] tag records (player + cards), if any
    verbs: tuple[Verb, ...] = ()
    custom_verbs: dict[str, str] = {}  # verb word -> doc, for custom forms (help and completion)
    value_aliases: dict[str, str] = {}  # short words for zones and spaces (cap -> capitano)

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.vocab = ruleset.vocabulary()
        self.by_name: dict[str, Verb] = {}
        self.by_kind: dict[str, Verb] = {}
        for v in CORE_VERBS + tuple(self.verbs):
            if v.kind in self.vocab:
                self.by_name[v.name] = v
                self.by_kind[v.kind] = v
        for kind in self.vocab:
            self.by_name.setdefault(kind, Verb(kind, kind))

    # --- hooks a ruleset grammar overrides -------------------------------------------------

    def parse_custom(self, toks: list[Token], actor: str, ctx: Ctx) -> tuple[str, dict] | None:
        """A custom form (`hand>field X`), or None to fall through to the verbs."""
        return None

    def format_custom(self, e: RecordedEvent, ctx: Ctx) -> str | None:
        return None

    def suggestions(self, state: TableState, ctx: Ctx) -> list[str]:
        """Candidate lines for `?` in the live recorder (each is then checked against the rules)."""
        return []

    # --- verbs --------------------------------------------------------------------------------

    def hints(self, kind: str) -> dict[str, Any]:
        """The payload fields of a kind and their types (class variables left out)."""
        return {name: tp for name, tp, *_ in self.vocab[kind]._spec}

    def bool_fields(self, kind: str) -> set[str]:
        return {k for k, h in self.hints(kind).items() if _unwrap_optional(h)[0] is bool}

    def parse_action(self, toks: list[Token], actor: str, ctx: Ctx) -> tuple[str, dict]:
        head = toks[0]
        if head.type == "comment":
            if len(toks) > 1:
                raise NotationError("expected the end of the action after the comment", col=toks[1].col)
            return "note", {"text": head.value}
        custom = self.parse_custom(toks, actor, ctx)
        if custom is not None:
            return custom
        if head.type != "word":
            raise NotationError(f"expected an action ({self.verb_list()})", col=head.col)
        word = head.value
        if word.startswith("@") and word[1:] in self.vocab:
            verb = Verb(word[1:], word[1:])
        elif word in self.by_name:
            verb = self.by_name[word]
        else:
            raise NotationError(f"unknown action {word!r}: expected one of {self.verb_list()}", col=head.col)
        return verb.kind, self.parse_fields(verb, toks[1:], actor, ctx, head.col)

    def verb_list(self) -> str:
        names = sorted(set(self.by_name) - {v.kind for v in self.by_kind.values() if v.name != v.kind}
                       | set(self.custom_verbs))
        return ", ".join(names)

    def with_fields(self, fixed: dict, verb: Verb, toks: list[Token], actor: str, ctx: Ctx,
                    col: int) -> dict:
        """A short form's own values plus its trailing key=value words: a key may not be said twice."""
        kv = self.parse_fields(verb, toks, actor, ctx, col)
        for k in kv:
            if k in fixed:
                raise NotationError(f"{k} given twice", col=col)
        return {**fixed, **kv}

    def parse_fields(self, verb: Verb, toks: list[Token], actor: str, ctx: Ctx, col: int) -> dict:
        hints = self.hints(verb.kind)
        bools = self.bool_fields(verb.kind)
        payload: dict[str, Any] = {}
        positional = list(verb.positional)
        rest: list[Token] = []
        for t in toks:
            if t.type == "kv":
                if t.key not in hints:
                    raise NotationError(f"{verb.name} has no field {t.key!r} (fields: "
                                        f"{', '.join(hints) or 'none'})", col=t.col)
                if t.key in payload:
                    raise NotationError(f"field {t.key!r} given twice", col=t.col)
                try:
                    payload[t.key] = read_value(t, hints[t.key], ctx, player_like=t.key in verb.players)
                except Mismatch as m:
                    raise NotationError(f"expected {m} for {t.key}, got {t.value!r}", col=t.col) from None
                continue
            if t.type == "word" and t.value in bools and t.value not in payload and not rest:
                payload[t.value] = True
                continue
            if t.type not in ("word", "str"):
                raise NotationError("expected a value, key=value or the end of the action", col=t.col)
            placed = False
            while positional and not rest:
                name = positional.pop(0)
                if name in payload:
                    continue
                try:
                    payload[name] = read_value(t, hints[name], ctx, player_like=name in verb.players)
                    placed = True
                    break
                except Mismatch as m:
                    if self._required(verb.kind, name) or not positional and not verb.rest:
                        raise NotationError(f"expected {m} for {name}, got {t.text}", col=t.col) from None
            if placed:
                continue
            if verb.rest:
                rest.append(t)
                continue
            raise NotationError(f"{verb.name} takes no more values here: expected key=value "
                                f"(fields: {', '.join(hints)}) or the end of the action", col=t.col)
        if rest:
            payload[verb.rest] = expand_cards(rest, ctx)
        self._fill_player(verb, payload, actor, hints)
        return payload

    def _required(self, kind: str, name: str) -> bool:
        return any(n == name and req for n, _, req, _ in self.vocab[kind]._spec)

    @staticmethod
    def _fill_player(verb: Verb, payload: dict, actor: str, hints: dict) -> None:
        if "player" in hints and "player" not in verb.positional and "player" not in payload \
                and _unwrap_optional(hints["player"])[0] is Player and not actor.startswith(JUDGE_PREFIX) \
                and actor != TABLE_ACTOR:
            payload["player"] = actor
        if payload.get("player", 0) is None:
            del payload["player"]

    def format_fields(self, verb: Verb, e: RecordedEvent, ctx: Ctx, word: str | None = None) -> str:
        order = [name for name, *_ in self.vocab[verb.kind]._spec]
        p = {k: e.payload[k] for k in sorted(e.payload, key=lambda k: order.index(k) if k in order else len(order))}
        hints = self.hints(verb.kind)
        bools = self.bool_fields(verb.kind)
        reserved = bools | set(hints)
        parts = [word or verb.name]
        auto_player = "player" in hints and "player" not in verb.positional \
            and _unwrap_optional(hints["player"])[0] is Player and e.actor in ctx.seat_of
        if auto_player:
            if p.get("player") == e.actor:
                del p["player"]
            elif "player" not in p:
                p["player"] = None  # written player=null: the actor is not the player here
        for name in verb.positional:
            if name not in p:
                break
            parts.append(write_value(p.pop(name), hints[name], ctx, reserved=reserved,
                                     player_like=name in verb.players))
        if verb.rest and verb.rest in p and p[verb.rest] and all(
                isinstance(c, str) for c in p[verb.rest]) and not any(
                    n in p for n in verb.positional):
            parts.extend(write_cards(p.pop(verb.rest)))
        for name, value in p.items():
            if name in bools and value is True:
                parts.append(name)
            else:
                parts.append(f"{name}=" + write_value(value, hints.get(name, Any), ctx,
                                                      player_like=name in verb.players))
        return " ".join(parts)

    # --- one event as a line -----------------------------------------------------------------

    def format_event(self, e: RecordedEvent, ctx: Ctx, *, turn_number: int | None = None) -> str:
        """The canonical line for one event (actor prefix included)."""
        prefix = ctx.actor_text(e.actor)
        if self.is_turn_header(e, ctx):
            n = e.payload.get("number", turn_number if "number" not in self.hints(e.kind) else None)
            return f"T{'' if n is None else n} {prefix}"
        body = self.format_body(e, ctx)
        return f"{prefix} {body}" if prefix else body

    def format_body(self, e: RecordedEvent, ctx: Ctx) -> str:
        if e.kind == "note":
            text = e.payload["text"]
            if text and text == text.strip() and "}" not in text and "\n" not in text:
                return "{" + text + "}"
        candidates = []
        custom = self.format_custom(e, ctx)
        if custom is not None:
            candidates.append(custom)
        verb = self.by_kind.get(e.kind)
        if verb is not None and self.by_name.get(verb.name) is verb:
            candidates.append(self.format_fields(verb, e, ctx))
        plain = Verb(e.kind, e.kind)
        word = e.kind if self.by_name.get(e.kind, plain).kind == e.kind and e.kind not in self.by_kind \
            else "@" + e.kind
        candidates.append(self.format_fields(plain, e, ctx, word))
        for text in candidates:
            if self._reads_back(text, e, ctx):
                return text
        return candidates[-1]

    def _reads_back(self, text: str, e: RecordedEvent, ctx: Ctx) -> bool:
        """Safety net: a short form is used only if it reads back as exactly this event."""
        try:
            toks = tokenize(text)
            if any(t.type == "sep" for t in toks) or not toks:
                return False
            kind, payload = self.parse_action(toks, e.actor, ctx)
            parsed = self.vocab[kind].parse(payload, _parse_ctx(ctx)).to_dict()
        except Exception:
            return False
        return kind == e.kind and parsed == e.payload

    def is_turn_header(self, e: RecordedEvent, ctx: Ctx) -> bool:
        if e.kind != self.turn_kind or e.actor not in ctx.seat_of:
            return False
        p = e.payload
        return p.get("player") == e.actor and set(p) <= {"player", "number"}

    def turn_event(self, number: int | None, actor: str) -> dict:
        payload: dict[str, Any] = {"player": actor}
        if number is not None and "number" in self.hints(self.turn_kind or ""):
            payload["number"] = number
        return payload

    # --- decks ------------------------------------------------------------------------------

    def deck_event(self, player: str, toks: list[Token], ctx: Ctx) -> tuple[str, str, dict]:
        """(kind, actor, payload) a [Deck "A" "..."] tag records; `toks` are the tag's words."""
        cards = expand_cards(toks, ctx)
        if self.deck_kind:
            return self.deck_kind, player, {"player": player, "cards": cards}
        return "note", player, {"text": DECKLIST_NOTE + " ".join(write_cards(cards))}  # type: ignore[arg-type]

    def deck_text(self, e: RecordedEvent, ctx: Ctx) -> str | None:
        """The [Deck] tag's words, if this event is exactly what such a tag records."""
        if e.actor not in ctx.seat_of:
            return None
        p = e.payload
        if self.deck_kind and e.kind == self.deck_kind and set(p) == {"player", "cards"} \
                and p["player"] == e.actor and p["cards"]:
            return " ".join(write_cards(p["cards"]))
        if not self.deck_kind and e.kind == "note" and p["text"].startswith(DECKLIST_NOTE):
            text = p["text"][len(DECKLIST_NOTE):]
            try:
                if self.deck_event(e.actor, tokenize(text), ctx)[2] == p:
                    return text
            except NotationError:
                return None
        return None

    def deck_cards(self, e: RecordedEvent, ctx: Ctx) -> list[str]:
        """The card numbers of a decklist event (for completion), else []."""
        if self.deck_kind and e.kind == self.deck_kind:
            return [c for c in e.payload.get("cards", []) if isinstance(c, str)]
        text = self.deck_text(e, ctx)
        if text is None:
            return []
        try:
            return [c for c in expand_cards(tokenize(text), ctx) if c]
        except NotationError:
            return []

    def decklists(self, events: Iterable[RecordedEvent], ctx: Ctx) -> dict[str, list[str]]:
        """Every decklist the log holds, per player (for completion)."""
        out: dict[str, list[str]] = {}
        for e in events:
            cards = self.deck_cards(e, ctx)
            if cards:
                out[e.payload.get("player", e.actor)] = cards
        return out


def make_ctx(players: Sequence[str], ruleset: Ruleset, grammar: Grammar | None = None) -> Ctx:
    return Ctx(list(players), ruleset, dict((grammar or grammar_for(ruleset)).value_aliases))


def _parse_ctx(ctx: Ctx):
    from engine.schema import ParseContext
    return ParseContext(players=tuple(ctx.players), zones=tuple(ctx.ruleset.zones))


def grammar_for(ruleset: Ruleset) -> Grammar:
    """The ruleset's grammar (judge/notation_<name>.py) or the generic one."""
    try:
        mod = importlib.import_module(f"judge.notation_{ruleset.name}")
    except ModuleNotFoundError as e:
        if e.name != f"judge.notation_{ruleset.name}":
            raise
        return Grammar(ruleset)
    return mod.GRAMMAR(ruleset)


def has_grammar(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(f"judge.notation_{name}") is not None


# --- lines: turn headers, actor prefixes, separators, trailing comments ------------------------


_TURN = re.compile(r"T(\d*)")


def parse_line(line: str, lineno: int, grammar: Grammar, ctx: Ctx, *,
               default_actor: Callable[[str], str] | None = None) -> list[Action]:
    """The actions of one body line. `default_actor(kind)` gives the actor of an action written
    without a prefix (the live recorder makes judge actions the judge's); default: the table."""
    try:
        toks = tokenize(line, lineno)
        return _parse_tokens(toks, lineno, grammar, ctx, default_actor)
    except NotationError as e:
        raise NotationError(e.message, line=lineno, col=e.col)


def _parse_tokens(toks: list[Token], lineno: int, grammar: Grammar, ctx: Ctx,
                  default_actor: Callable[[str], str] | None) -> list[Action]:
    out: list[Action] = []
    i = 0
    actor: str | None = None
    if toks and toks[0].type == "word" and _TURN.fullmatch(toks[0].value) and grammar.turn_kind:
        head = toks[0]
        if len(toks) < 2:
            raise NotationError("expected the player whose turn begins (T3 A:)", col=head.col + len(head.text))
        actor, i = _read_actor(toks, 1, ctx, need=True)
        n = _TURN.fullmatch(head.value).group(1)  # type: ignore[union-attr]
        if actor not in ctx.players:
            raise NotationError("expected a player after the turn header (T3 A:)", col=toks[1].col)
        out.append(Action(actor, grammar.turn_kind, grammar.turn_event(int(n) if n else None, actor),
                          lineno, head.col, turn_number=int(n) if n else None))
        if i < len(toks) and toks[i].type == "sep":
            i += 1
    else:
        actor, i = _read_actor(toks, 0, ctx, need=False)
    explicit = actor is not None
    groups: list[list[Token]] = [[]]
    for t in toks[i:]:
        if t.type == "sep":
            if not groups[-1]:
                raise NotationError("expected an action before the separator", col=t.col)
            groups.append([])
        else:
            groups[-1].append(t)
    if not groups[-1]:
        if len(groups) > 1:
            raise NotationError("expected an action after the separator", col=toks[-1].col + 1)
        groups.pop()
    for g in groups:
        trailing: list[Token] = []
        while len(g) > 1 and g[-1].type == "comment":
            trailing.insert(0, g.pop())
        try:
            kind, payload = grammar.parse_action(g, actor or TABLE_ACTOR, ctx)
        except NotationError as e:
            raise NotationError(e.message, line=lineno, col=e.col)
        who = actor if explicit else (default_actor(kind) if default_actor else TABLE_ACTOR)
        out.append(Action(who or TABLE_ACTOR, kind, payload, lineno, g[0].col))
        for c in trailing:
            out.append(Action(TABLE_ACTOR, "note", {"text": c.value}, lineno, c.col))
    return out


def _read_actor(toks: list[Token], i: int, ctx: Ctx, *, need: bool) -> tuple[str | None, int]:
    if i >= len(toks):
        return None, i
    t = toks[i]
    if t.type == "word" and t.value == "judge" and i + 1 < len(toks):
        nxt = toks[i + 1]
        if nxt.type == "word" and nxt.value.endswith(":") and len(nxt.value) > 1:
            return JUDGE_PREFIX + nxt.value[:-1], i + 2
        if nxt.type == "str" and nxt.colon:
            return JUDGE_PREFIX + nxt.value, i + 2
    ref = None
    if t.type == "word" and t.value.endswith(":") and len(t.value) > 1:
        ref = t.value[:-1]
    elif t.type == "str" and t.colon:
        ref = t.value
    elif need and t.type == "word":
        ref = t.value
    if ref is None:
        return None, i
    name = ctx.player(ref)
    if name is None:
        raise NotationError(f"unknown player {ref!r}: expected "
                            f"{', '.join(f'{ctx.seat_of[p]} ({p})' for p in ctx.players)} or judge NAME",
                            col=t.col)
    return name, i + 1


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
            raise NotationError(f"expected a closed \"string\" ({e.msg})", line=lineno, col=e.colno) from None
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
        elif name in ("Event", "Round", "Table", "Match"):
            setattr(h, name.lower(), v)
        elif name == "Option":
            key, sep, text = v.partition("=")
            if not sep or not key:
                raise NotationError("expected [Option \"name=value\"]", line=lineno, col=2)
            try:
                h.options[key] = json.loads(text)
            except json.JSONDecodeError:
                h.options[key] = text
        elif name == "Deck":
            h.decks.append((v, values[1], lineno, 2))  # type: ignore[arg-type]
        else:
            raise NotationError(f"unknown tag {name!r} (tags: {', '.join(TAGS)}, and A, B, ... for the "
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


# --- tracking the table while reading or writing (turn numbers are derived) -------------------


def probe(match_id: str, position: int, kind: str, version: int, actor: str, payload: dict,
          recorded_by: str = "", recorded_at: str = "") -> RecordedEvent:
    return RecordedEvent(match_id, position, kind, version, actor, payload, recorded_at, recorded_by, "", "")


# --- whole games ---------------------------------------------------------------------------------


def format_game(created: RecordedEvent, events: Sequence[RecordedEvent], ruleset: Ruleset, *,
                match_id: str | None = None) -> str:
    """A whole log (match.created first, then the rest) as canonical notation text."""
    grammar = grammar_for(ruleset)
    ctx = make_ctx(created.payload["players"], ruleset, grammar)
    body = [e for e in events if e.position != created.position]
    decks: list[tuple[str, str]] = []
    for e in body:  # the leading decklists go into the header
        text = grammar.deck_text(e, ctx)
        if text is None:
            break
        decks.append((e.actor, text))
    lines = format_header(created.payload, match_id, decks, ctx)
    lines.append("")
    tracker = Fold(ruleset, created)  # the table as the file is written: replay's own fold
    turn_actor = None  # a turn header's line takes the first action of that player too
    for i, e in enumerate(body):
        tracker.push(e)
        if i < len(decks):
            continue
        line = grammar.format_event(e, ctx, turn_number=tracker.state.turn)
        if turn_actor == e.actor and line.startswith(ctx.actor_text(e.actor) + " "):
            lines[-1] += line[len(ctx.actor_text(e.actor)):]
            turn_actor = None
            continue
        turn_actor = e.actor if grammar.is_turn_header(e, ctx) else None
        lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass
class ReadGame:
    """A notation file read and validated: the match.created draft and every event's draft, with the
    line each came from."""

    header: Header
    created: Any  # engine.events.Draft
    drafts: list[Any]
    lines: list[int]


def read_game(text: str, path: str = "", *, recorded_by: str | None = None) -> ReadGame:
    """Parse and validate a whole notation file; nothing is stored. Raises NotationError (an
    InputError) naming FILE:LINE:COL and what was expected there."""
    from engine.match import EventValidator, creation_draft
    from engine.rules import get_ruleset

    lines = text.splitlines()
    try:
        header = parse_header(lines)
    except NotationError as e:
        raise e.at(path, 0) from None
    try:
        created = creation_draft(header.ruleset, header.players, event=header.event,
                                 round=header.round, table=header.table,
                                 options=header.options or None, recorded_by=recorded_by)
    except InputError as e:
        raise NotationError(e.message, line=1, col=1, path=path) from None
    ruleset = get_ruleset(header.ruleset)(header.options)
    grammar = grammar_for(ruleset)
    ctx = make_ctx(created.payload["players"], ruleset, grammar)
    validator = EventValidator(ruleset, ctx.players)
    created_event = probe(header.match or "", 1, "match.created", created.version, TABLE_ACTOR,
                          created.payload)
    tracker = Fold(ruleset, created_event)  # the table as the file is read
    drafts: list[Any] = []
    where: list[int] = []
    kinds = {1: "match.created"}

    def add(kind: str, actor: str, payload: dict, line: int, col: int) -> Any:
        head = len(drafts) + 1
        try:
            d = validator.draft(kind, payload, actor=actor, recorded_by=recorded_by, head=head,
                                kind_at=kinds.get)
        except InputError as e:
            msg = e.message if not e.field else f"{e.field}: {e.message}"
            raise NotationError(msg, line=line, col=col, path=path) from None
        drafts.append(d)
        where.append(line)
        kinds[head + 1] = kind
        tracker.push(probe("", head + 1, d.kind, d.version, d.actor, d.payload))
        return d

    for seat, deck, line, col in header.decks:
        player = ctx.player(seat)
        if player is None:
            raise NotationError(f"[Deck] names {seat!r}, not a seat ({', '.join(ctx.player_at)})",
                                line=line, col=col, path=path)
        try:
            kind, actor, payload = grammar.deck_event(player, tokenize(deck, line), ctx)
        except NotationError as e:
            raise NotationError(f"in the decklist: {e.message}", line=line, col=col, path=path) from None
        add(kind, actor, payload, line, col)
    for idx in range(header.lines, len(lines)):
        lineno = idx + 1
        if not lines[idx].strip():
            continue
        if lines[idx].lstrip().startswith("["):
            raise NotationError("a tag after the first action: tags belong in the header block",
                                line=lineno, col=1, path=path)
        try:
            actions = parse_line(lines[idx], lineno, grammar, ctx)
        except NotationError as e:
            raise e.at(path, lineno) from None
        for a in actions:
            add(a.kind, a.actor, a.payload, lineno, a.col)
            check_turn_number(grammar, a, tracker.state, path)
    if not drafts and not header.players:
        raise NotationError("the file holds no game", line=1, col=1, path=path)
    return ReadGame(header, created, drafts, where)


def check_turn_number(grammar: Grammar, a: Action, state: TableState, path: str = "") -> None:
    """A turn header's number, where the ruleset derives it, must be the turn the log reaches."""
    if a.turn_number is None or a.kind != grammar.turn_kind or "number" in grammar.hints(a.kind):
        return
    if state.turn != a.turn_number:
        raise NotationError(f"the log makes this turn {state.turn}, the header says T{a.turn_number}: "
                            f"expected T{state.turn} (or T alone)", line=a.line, col=a.col, path=path)


def normalise(text: str) -> str:
    """Text up to whitespace (what the round trip compares)."""
    return re.sub(r"\s+", "", text)
