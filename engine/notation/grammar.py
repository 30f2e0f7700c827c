"""Grammars: the verbs of a ruleset's notation (one short word per event kind, positional fields), the
generic `kind key=value` form every kind can be written in, and how a ruleset's grammar is found."""
from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args, get_origin

from engine.events import JUDGE_PREFIX, SCOREKEEPER_PREFIX, TABLE_ACTOR, RecordedEvent
from engine.notation.lexer import DECKLIST_NOTE, NotationError, Token, tokenize
from engine.notation.values import (
    Ctx,
    Mismatch,
    _unwrap_optional,
    card_word,
    expand_cards,
    read_value,
    write_cards,
    write_value,
)
from engine.rulesets import Ruleset
from engine.schema import Player, shown
from engine.state import TableState

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
    Verb("void", "correction", ("voids", "reason"), doc="void N \"reason\": a correction (event N is void); a judge's may add "
                                                         "instead={\"actor\":..,\"payload\":{..}}: what N should have read"),
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


@dataclass(frozen=True)
class Suggestion:
    """A line `?` proposes, and why it is open now (a card's cost against the DON!! at hand...)."""

    line: str
    why: str = ""
    group: str = ""  # plays, attacks, blocks, counters, ... (how `?` groups them)
    # a line to complete before it is recorded (a placeholder in capitals, e.g. optcg's LEADER:
    # what only the table knows): offered to edit, not judged, and a page's button fills the box
    # rather than sending it
    fill: bool = False


@dataclass
class Action:
    """One parsed action: who, what, and where it was written."""

    actor: str
    kind: str
    payload: dict[str, Any]
    line: int = 0
    col: int = 0
    turn_number: int | None = None  # a turn header's number, checked against the derived turn
    text: str = ""  # the action as written on its line (prefix included)
    index: int = 0  # which action of its line (1, 2, ...)


class Grammar:
    """A ruleset's notation. Subclass it in engine/rulesets/<game>/notation.py as `GRAMMAR = MyGrammar`."""

    turn_kind: str | None = None  # the kind a turn header `T3 A:` records
    counted_kind: str | None = None  # the kind that counts state.turn, if not turn_kind (grandline: round)
    counted_word = "T"  # how that kind's number is written (T3; grandline R3)
    deck_kind: str | None = None  # the kind a [Deck] tag records (player + cards), if any
    verbs: tuple[Verb, ...] = ()
    custom_verbs: dict[str, str] = {}  # verb word -> doc, for custom forms (help and completion)
    value_aliases: dict[str, str] = {}  # short words for zones and spaces (cap -> capitano)
    card_fields: frozenset[str] = frozenset()  # str fields naming one card (a name may stand for it)

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

    def suggestions(self, state: TableState, ctx: Ctx) -> list["str | Suggestion"]:
        """Candidate lines for `?` in the live recorder: what may be done now (each is then
        judged against the table, and kept only if the rules raise no error). A `Suggestion`
        carries why it is open ("cost 3, 4 DON!! active"); a plain string is a line alone."""
        return []

    def suggestion_notes(self, state: TableState, ctx: Ctx) -> list[str]:
        """What the suggestions could not know, said under them. By default: unseen cards in the
        active player's hand (a zone named hand or mano), whose plays are not proposed."""
        who = state.active
        if who is None:
            return []
        out = []
        for zone in ("hand", "mano"):
            if zone in state.zone_names:
                unseen = sum(1 for c in state.zones[who][zone] if c.code is None)
                if unseen:
                    out.append(f"{who}'s {zone} holds {unseen} unseen card{'s' if unseen != 1 else ''}: "
                               "the options come from the known cards only")
        return out

    # --- verbs --------------------------------------------------------------------------------

    def hints(self, kind: str) -> dict[str, Any]:
        """The payload fields of a kind and their types (class variables left out)."""
        return {name: tp for name, tp, *_ in self.vocab[kind]._spec}

    def bool_fields(self, kind: str) -> set[str]:
        return {k for k, h in self.hints(kind).items() if _unwrap_optional(h)[0] is bool}

    def parse_action(self, toks: list[Token], actor: str, ctx: Ctx) -> tuple[str, dict]:
        ctx.speaker = actor if actor in ctx.seat_of else None  # whose cards a card name means (card_ref)
        head = toks[0]
        if head.type == "comment":
            if len(toks) > 1:
                raise NotationError("expected the end of the action after the comment", col=toks[1].col)
            return "note", {"text": head.value}
        custom = self.parse_custom(toks, actor, ctx)
        if custom is not None:
            return custom
        if head.type != "word":
            raise NotationError(f"{self.verb_hint()}: {shown(head.text)} is not an action word", col=head.col)
        word = head.value
        if word.startswith("@") and word[1:] in self.vocab:
            verb = Verb(word[1:], word[1:])
        elif word in self.by_name:
            verb = self.by_name[word]
        else:
            close = self.did_you_mean(word)
            raise NotationError(f"unknown action {shown(word)}: " + (f"did you mean {close!r}?" if close
                                else self.verb_hint()), col=head.col)
        return verb.kind, self.parse_fields(verb, toks[1:], actor, ctx, head.col)

    def verb_names(self) -> list[str]:
        """Every verb word a line may start with (short verbs, kinds without one, custom forms)."""
        return sorted(set(self.by_name) - {v.kind for v in self.by_kind.values() if v.name != v.kind}
                      | set(self.custom_verbs))

    def verb_list(self) -> str:
        return ", ".join(self.verb_names())

    def verb_hint(self) -> str:
        return f"expected an action of {self.ruleset.name} (`help` in the live recorder lists them)"

    def did_you_mean(self, word: str) -> str | None:
        """The one verb closest to a mistyped word (refrsh -> refresh), or None if none is close."""
        import difflib
        names = [n for n in self.verb_names() if n.replace(".", "").replace("/", "").isalnum()
                 or n.startswith("/")]
        hits = difflib.get_close_matches(word, names, n=1, cutoff=0.75)
        return hits[0] if hits else None

    def with_fields(self, fixed: dict, verb: Verb, toks: list[Token], actor: str, ctx: Ctx,
                    col: int) -> dict:
        """A short form's own values plus its trailing key=value words: a key may not be said twice."""
        kv = self.parse_fields(verb, toks, actor, ctx, col)
        for k in kv:
            if k in fixed:
                raise NotationError(f"{k} given twice", col=col)
        return {**fixed, **kv}

    def phrases(self, kind: str) -> list[str]:
        """The choices of the kind's fields that are several words ("Game Loss", "double attack"),
        longest first: written on a line as the words they are, unquoted."""
        out = set()
        for hint in self.hints(kind).values():
            base = getattr(_unwrap_optional(hint)[0], "__supertype__", _unwrap_optional(hint)[0])
            if get_origin(base) is Literal:
                out |= {a for a in get_args(base) if isinstance(a, str) and " " in a}
        return sorted(out, key=lambda a: (-len(a.split()), a))

    def _joined(self, kind: str, toks: list[Token]) -> list[Token]:
        """`toks` with each run of words that spells a several-word choice, in any case, as one word
        token holding the choice (the refusal's list of choices shows them unquoted)."""
        phrases = self.phrases(kind)
        if not phrases:
            return toks
        out: list[Token] = []
        i = 0
        while i < len(toks):
            for p in phrases:
                words = p.split()
                run = toks[i:i + len(words)]
                if len(run) == len(words) and all(t.type == "word" and t.value.lower() == w.lower()
                                                  for t, w in zip(run, words)):
                    out.append(replace(run[0], text=" ".join(t.text for t in run), value=p))
                    i += len(words)
                    break
            else:
                out.append(toks[i])
                i += 1
        return out

    def parse_fields(self, verb: Verb, toks: list[Token], actor: str, ctx: Ctx, col: int) -> dict:
        toks = self._joined(verb.kind, toks)
        hints = self.hints(verb.kind)
        bools = self.bool_fields(verb.kind)
        payload: dict[str, Any] = {}
        positional = list(verb.positional)
        rest: list[Token] = []
        skipped: list[tuple[str, Mismatch]] = []  # optional positional fields a value did not fit
        for t in toks:
            if t.type == "kv":
                if t.key not in hints:
                    raise NotationError(f"{verb.name} has no field {shown(t.key)} (fields: "
                                        f"{', '.join(hints) or 'none'})", col=t.col)
                if t.key in payload:
                    raise NotationError(f"field {shown(t.key)} given twice", col=t.col)
                try:
                    payload[t.key] = self._card(t.key, read_value(t, hints[t.key], ctx, player_like=t.key in verb.players),
                                                ctx, t.col)
                except Mismatch as m:
                    raise NotationError(f"expected {m} for {t.key}, got {shown(t.value)}", col=t.col) from None
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
                    payload[name] = self._card(name, read_value(t, hints[name], ctx, player_like=name in verb.players),
                                               ctx, t.col)
                    placed = True
                    break
                except Mismatch as m:
                    if self._required(verb.kind, name) or not positional and not verb.rest:
                        raise NotationError(f"expected {m} for {name}, got {shown(t.text)}", col=t.col) from None
                    skipped.append((name, m))
            if placed:
                continue
            if verb.rest:
                rest.append(t)
                continue
            if skipped:  # a value that fit none of the places left: say what the first one wanted
                name, m = skipped[0]
                raise NotationError(f"expected {m} for {name}, got {shown(t.text)}", col=t.col)
            if not hints:
                raise NotationError(f"{verb.name} takes no values: expected the end of the action", col=t.col)
            raise NotationError(f"{verb.name} takes no more values here: expected key=value "
                                f"(fields: {', '.join(hints)}) or the end of the action", col=t.col)
        if rest:
            payload[verb.rest] = expand_cards(rest, ctx)
        self._fill_player(verb, payload, actor, hints)
        for name in verb.positional:
            if name not in payload and self._required(verb.kind, name):
                after = toks[-1].col + len(toks[-1].text) if toks else col + len(verb.name)
                raise NotationError(f"expected a value for {name}: {self.usage(verb)}", col=after)
        return payload

    def _card(self, name: str, value: Any, ctx: Ctx, col: int) -> Any:
        return card_word(ctx, value, col, name) if name in self.card_fields and isinstance(value, str) else value

    def usage(self, verb: Verb) -> str:
        """How a verb is written, for an error (its doc line, else its positional fields)."""
        import re
        doc = re.sub(r"^[A-Z]: ", "", verb.doc).split(": ")[0].split(" / ")[0].strip()
        if doc.startswith(verb.name):
            return doc
        return " ".join([verb.name] + [n.upper() for n in verb.positional])

    def _required(self, kind: str, name: str) -> bool:
        return any(n == name and req for n, _, req, _ in self.vocab[kind]._spec)

    @staticmethod
    def _fill_player(verb: Verb, payload: dict, actor: str, hints: dict) -> None:
        if "player" in hints and "player" not in verb.positional and "player" not in payload \
                and _unwrap_optional(hints["player"])[0] is Player \
                and not actor.startswith((JUDGE_PREFIX, SCOREKEEPER_PREFIX)) and actor != TABLE_ACTOR:
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
            if ctx.card_fill is not None:
                payload = ctx.card_fill(kind, payload)
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
    return ParseContext(players=tuple(ctx.players), zones=tuple(ctx.ruleset.zones),
                        max_cards=ctx.ruleset.max_cards)


def _grammar_module(ruleset_cls: type[Ruleset]):
    """The `notation` module of the package the ruleset's class lives in, or None."""
    package = importlib.import_module(ruleset_cls.__module__).__package__ or ""
    name = f"{package}.notation" if package else "notation"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def grammar_for(ruleset: Ruleset) -> Grammar:
    """The ruleset's grammar (the `notation.py` beside its code, `GRAMMAR = ...`) or the generic one."""
    mod = _grammar_module(type(ruleset))
    return Grammar(ruleset) if mod is None else mod.GRAMMAR(ruleset)


def has_grammar(name: str) -> bool:
    """Whether the ruleset called `name` has a grammar of its own."""
    from engine.rulesets import get_ruleset
    return _grammar_module(get_ruleset(name)) is not None
