"""Values: payload values <-> notation text, by the payload field's type (ints, cards, seats, lists)."""
from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from engine.events import JUDGE_PREFIX, SCOREKEEPER_PREFIX
from engine.notation.lexer import SEATS, NotationError, Token
from engine.rulesets import Ruleset
from engine.schema import MAX_ITEMS, Player, shown

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
    # What a card word becomes in the payload: card_ref(word, speaker, field). The caller's card data
    # may turn a card's name into its number ("hancock" -> "OP01-078") or raise an InputError
    # (ambiguous, unknown). None: stored as written. The engine knows no cards; judge.io.carddb
    # supplies this for games it covers. `field` (None for a card list) and `speaker` let it narrow a
    # name to the cards of the player it belongs to (an attack's target is the opponent's).
    card_ref: Callable[[str, str | None, str | None], str] | None = None
    # The player whose action is being read (None: the table's, a judge's, a scorekeeper's line).
    speaker: str | None = None
    # What a payload carries besides what its line says: card facts the caller's card data copies into
    # a decklist event. A short line whose payload this completes reads back as the same event.
    card_fill: Callable[[str, dict], dict] | None = None

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
        for prefix, word in ((JUDGE_PREFIX, "judge"), (SCOREKEEPER_PREFIX, "scorekeeper")):
            if actor.startswith(prefix):
                name = actor[len(prefix):]
                return f"{word} " + (name if bare_ok(name) else quote(name)) + ":"
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
        if vtype == "word" and _INT.fullmatch(raw) and len(raw) <= 20:  # int() refuses 4,300+ digits
            return int(raw)
        raise Mismatch("a whole number" + (" of at most 20 digits" if _INT.fullmatch(str(raw)) else ""))
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
        if vtype == "word" and _INT.fullmatch(raw) and len(raw) <= 20:
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
        count, code = (int(m.group(1)) if len(m.group(1)) <= 9 else ctx.ruleset.max_cards + 1,
                       m.group(2)) if m else (1, t.value)
        if count > ctx.ruleset.max_cards or len(out) + count > MAX_ITEMS:
            # expanded before the schema sees it: a "1000000x" must not build a million-item list
            raise NotationError(f"{shown(t.value, 40)}: at most {ctx.ruleset.max_cards} copies of a card "
                                f"(this game's limit), and {MAX_ITEMS:,} cards in one list", col=t.col)
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
            if re.fullmatch(r"-\d+|0+", code):  # `draw -5`, `draw 0`: a count meant, not a card
                raise NotationError(f"a count is a whole number of 1 or more, got {code}", col=t.col)
            if re.fullmatch(r"\+?\d+", code) and (len(code) > 9 or int(code) > ctx.ruleset.max_cards):
                # `draw 10**30`: a count meant, past the limit (the count's slot let it through)
                raise NotationError(f"at most {ctx.ruleset.max_cards} cards (this game's limit), got "
                                    f"{shown(int(code) if len(code) <= 4300 else code)}", col=t.col)
            raise NotationError(f"expected a card number, got {shown(code)} (quote a card number that "
                                "looks like a number)", col=t.col)
        else:
            out.extend([card_word(ctx, code, t.col)] * count)
    return out


def card_word(ctx: Ctx, word: str, col: int, field: str | None = None) -> str:
    """A card word as the payload stores it (see Ctx.card_ref); its problem is a NotationError at `col`."""
    if ctx.card_ref is None:
        return word
    from engine.match import InputError
    try:
        return ctx.card_ref(word, ctx.speaker, field)
    except InputError as e:
        raise NotationError(e.message, col=col) from None


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
