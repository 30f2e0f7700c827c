"""The live recorder's session: one notation line in, what was stored and what the table needs to know out."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from engine.desk import JUDGE_ONLY_KINDS
from engine.events import TABLE_ACTOR, RecordedEvent, default_recorder_name
from engine.findings import Finding
from engine.match import InputError, Match, StrictRefusal
from engine.replay import VOIDING_KINDS
from engine.state import TableState

from judge.desk import clock_of, format_left, judge_actor
from judge.io import carddb
from judge.io.cardsnapshot import name_key
from judge.io.cardnames import NUMBER_IN_TEXT, CardNames
from engine.notation import (
    Action,
    NotationError,
    check_turn_number,
    grammar_for,
    make_ctx,
    parse_line,
    probe,
    tokenize,
)
from judge.report.text import render_state


COMMANDS = {
    "?": "what can be recorded now (checked against the rules)",
    "help": "the actions of this ruleset and the commands",
    "undo": "undo [\"reason\"]: a correction voiding the last event (the original stays in the log)",
    "state": "the table now",
    "clock": "the round's time left",
    "quit": "leave (everything entered is already stored)",
}
# Judge actions written without a prefix are the session judge's.
JUDGE_DEFAULT_KINDS = set(JUDGE_ONLY_KINDS) | {"time.called", "round.start", "judge.call"}


@dataclass
class Reply:
    lines: list[str] = field(default_factory=list)
    quit: bool = False
    recorded: list[RecordedEvent] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    refused: bool = False  # the line was not (or not wholly) recorded

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class LiveSession:
    def __init__(self, match: Match, *, strict: bool = False, judge: str | None = None,
                 recorded_by: str | None = None):
        self.match = match
        self.strict = strict
        self.recorded_by = recorded_by or default_recorder_name()
        self.judge = judge_actor(judge or self.recorded_by)
        self.grammar = grammar_for(match.ruleset)
        self.ctx = make_ctx(match.players, match.ruleset, self.grammar)
        self.cards = carddb.match_cards(match.ruleset, carddb.for_store(match.store))
        if self.cards is not None:  # names said at the table -> numbers; a deck line gets its facts
            self.ctx.card_ref = lambda word: self.cards.resolve(word, self.state())  # type: ignore[union-attr]
            self.ctx.card_fill = self.cards.fill
        self.seen = match.head_position()
        self.mine: set[int] = set()
        self._state: TableState | None = None

    # --- the table ------------------------------------------------------------------------

    def state(self) -> TableState:
        head = self.match.head_position()
        if self._state is None or self._state.position != head:
            self._state = self.match.state()
        return self._state

    def prompt(self) -> str:
        s = self._state if self._state is not None else self.state()
        if not s.turn:
            where = "setup"
        else:
            where = f"T{s.turn}" + (f" {s.phase}" if s.phase else "")
        who = self.ctx.seat_of.get(s.active or "", "")
        return f"{where} {who}> " if who else f"{where}> "

    def line_of(self, e: RecordedEvent) -> str:
        state = self.match.state(at=e.position) if e.kind == self.grammar.turn_kind else None
        line = self.grammar.format_event(e, self.ctx, turn_number=state.turn if state else None)
        return line + self._names_of(line)

    def names(self) -> CardNames:
        """Card names for what this recorder shows (the log's, then the card data's)."""
        return CardNames.for_state(self._state if self._state is not None else self.state(), self.match.ruleset,
                                   self.cards.db if self.cards is not None else None)

    def _names_of(self, line: str) -> str:
        """`   (OP01-078 Boa Hancock)` after a line naming up to 3 cards: the line stays what was typed
        and stored, the names are for the people at the table."""
        numbers = list(dict.fromkeys(NUMBER_IN_TEXT.findall(line)))
        if not numbers or len(numbers) > 3:
            return ""
        names = self.names()
        labels = [names.label(n) for n in numbers if names.name(n)]
        return f"   ({', '.join(labels)})" if labels else ""

    # --- other recorders --------------------------------------------------------------------

    def refresh(self) -> list[str]:
        """Events another recorder appended since we last looked, as lines to show."""
        events = self.match.store.read(self.match.id, after=self.seen)
        out = []
        for e in events:
            if e.position not in self.mine:
                out.append(f"  [{e.recorded_by}] #{e.position} {self.line_of(e)}")
            self.seen = max(self.seen, e.position)
        return out

    # --- one line ---------------------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        reply = Reply(self.refresh())
        text = line.strip()
        if not text:
            return reply
        word = text.split()[0]
        if word in ("quit", "exit"):
            reply.quit = True
            return reply
        if word == "?":
            reply.lines += self.legal_now()
        elif word == "help":
            reply.lines += self.help_lines()
        elif word == "state":
            reply.lines.append(render_state(self.state(), self.match.ruleset, head=self.seen,
                                            match_id=self.match.id, names=self.names()))
        elif word == "clock":
            reply.lines.append(self.clock_line())
        elif word == "undo":
            self._undo(text[len("undo"):].strip(), reply)
        else:
            self._record_line(text, reply)
        reply.lines += self.refresh()
        return reply

    def _record_line(self, text: str, reply: Reply) -> None:
        """A line is parsed and checked whole before anything of it is stored: a wrong turn header,
        or (with --strict) a flagged action anywhere in it, refuses the whole line."""
        try:
            actions = parse_line(text, 0, self.grammar, self.ctx, default_actor=self._default_actor)
            if self.ctx.card_fill is not None:
                for a in actions:
                    a.payload = self.ctx.card_fill(a.kind, a.payload)
            flagged = self._try_line(actions)
        except NotationError as e:
            reply.lines += [f"  {' ' * (max(e.col, 1) - 1)}^", f"  error at column {e.col}: {e.message}",
                            "  nothing of this line was recorded"]
            reply.refused = True
            return
        except InputError as e:
            reply.lines += [f"  error: {e}", "  nothing of this line was recorded"]
            reply.refused = True
            return
        if self.strict and flagged:
            k, findings = flagged[0]
            reply.lines.append(f"  refused (--strict): action {k + 1} of the line would be flagged; "
                               "nothing of this line was recorded")
            reply.lines += [self._finding_line(f) for f in findings]
            reply.findings += findings
            reply.refused = True
            return
        for a in actions:
            if not self._record_one(a, reply):
                reply.refused = True
                break

    def _try_line(self, actions: list[Action]) -> list[tuple[int, list[Finding]]]:
        """Validate every action and play the line on a copy of the table: raises on bad input or
        a wrong turn number; returns the actions the rules would flag (index, findings)."""
        head = self.match.head_position()
        table = self.match.state(at=head).copy()
        flagged = []
        for k, a in enumerate(actions):
            d = self.match.draft(a.kind, a.payload, actor=a.actor, head=head + k)
            ev = RecordedEvent(self.match.id, head + k + 1, d.kind, d.version, d.actor, d.payload,
                               "", d.recorded_by, "", "")
            errors = [f for f in self.match.ruleset.check(table, ev) if f.severity == "error"]
            if errors:
                flagged.append((k, errors))
            if d.kind not in VOIDING_KINDS:  # a void's effect needs the log; later actions rarely follow one
                self.match.ruleset.apply(table, ev)
            table.position = ev.position
            if a.turn_number is not None:
                check_turn_number(self.grammar, a, table)
        return flagged

    def _record_one(self, a: Action, reply: Reply) -> bool:
        expected = self.seen + 1
        try:
            rec = self.match.record(a.kind, a.payload, actor=a.actor, recorded_by=self.recorded_by,
                                    strict=self.strict)
        except StrictRefusal as r:
            reply.lines.append("  refused (--strict): nothing was recorded for this action")
            reply.lines += [self._finding_line(f) for f in r.findings]
            reply.findings += r.findings
            return False
        except InputError as e:
            reply.lines.append(f"  error: {e}")
            return False
        e = rec.event
        self.mine.add(e.position)
        if e.position != expected:
            reply.lines += self.refresh()
            reply.lines.append(f"  (another recorder added events first: yours is #{e.position}, "
                               "judged against the table as they left it)")
        reply.lines.append(f"  #{e.position} {self.line_of(e)}")
        reply.lines += [self._finding_line(f) for f in rec.findings]
        reply.findings += rec.findings
        reply.recorded.append(e)
        self.seen = max(self.seen, e.position)
        return True

    def _finding_line(self, f: Finding) -> str:
        return f"  ! {f.rule} [{f.severity}] {self.names().text(f.message)}"

    def _default_actor(self, kind: str) -> str:
        return self.judge if kind in JUDGE_DEFAULT_KINDS else TABLE_ACTOR

    def _undo(self, reason_text: str, reply: Reply) -> None:
        reason = "undone at the table (live recorder)"
        if reason_text:
            toks = tokenize(reason_text)
            reason = toks[0].value if toks and toks[0].type in ("str", "word") and len(toks) == 1 else reason_text
        state = self.state()
        voided = set(state.voided)
        # this recorder's own last event that still counts: never what another laptop just typed
        for e in reversed(self.match.store.read(self.match.id, after=1)):
            if e.position not in self.mine or e.position in voided or e.kind in VOIDING_KINDS:
                continue
            try:
                rec = self.match.record("correction", {"voids": e.position, "reason": reason},
                                        actor=self.judge, recorded_by=self.recorded_by)
            except InputError as err:
                reply.lines.append(f"  error: {err}")
                return
            self.mine.add(rec.event.position)
            self.seen = max(self.seen, rec.event.position)
            reply.lines.append(f"  #{rec.event.position} {self.line_of(rec.event)}   (event {e.position}: "
                               f"{self.line_of(e)} is void; it stays in the log)")
            reply.recorded.append(rec.event)
            return
        reply.lines.append("  nothing of yours to undo in this session (to void another event: "
                           "judge NAME: void N \"reason\")")

    # --- help, legal moves, clock --------------------------------------------------------------

    def clock_line(self, now: datetime | None = None) -> str:
        events = self.match.events()
        c = clock_of(events, set(self.state().voided))
        if not c.running:
            return "  the round clock has not started (record: round.start MINUTES)"
        left = c.time_left(now or datetime.now(timezone.utc))
        extra = f" + {c.extra_minutes} min extensions" if c.extra_minutes else ""
        called = f"; time was called at {c.called['clock']}" if c.called else ""
        return f"  {format_left(left)} left (round {c.minutes} min{extra}){called}"  # type: ignore[arg-type]

    def legal_now(self) -> list[str]:
        """Candidate lines the grammar proposes, kept if the rules raise no error against the table."""
        state = self.state()
        out = []
        for cand in self.grammar.suggestions(state, self.ctx):
            try:
                actions = parse_line(cand, 0, self.grammar, self.ctx, default_actor=self._default_actor)
                a = actions[-1] if len(actions) > 1 and actions[0].kind == self.grammar.turn_kind \
                    and cand.rstrip().endswith(":") is False else actions[0]
                d = self.match.draft(a.kind, a.payload, actor=a.actor, head=state.position)
            except InputError:
                continue
            e = probe(self.match.id, state.position + 1, d.kind, d.version, d.actor, d.payload)
            findings = self.match.ruleset.check(state.copy(), e)
            if not any(f.severity == "error" for f in findings):
                out.append(cand)
        lines = ["  legal now (no rule flags them):"] + [f"    {c}" for c in dict.fromkeys(out)]
        lines.append("  (help lists every action; anything can be recorded: the rules flag, never block)")
        return lines

    def help_lines(self) -> list[str]:
        lines = [f"  actions ({self.match.ruleset.name}; prefix A:, B:, ... or judge NAME:):"]
        seen = set()
        for verb in self.grammar.by_name.values():
            if verb.doc and verb.name not in seen:
                seen.add(verb.name)
                lines.append(f"    {verb.doc}")
        lines += [f"    {doc}" for doc in self.grammar.custom_verbs.values()]
        lines.append("    T3 A: ...   a turn begins (then A's actions); {comment}; a · b (several actions)")
        lines.append("  commands:")
        lines += [f"    {name:<6} {doc}" for name, doc in COMMANDS.items()]
        return lines

    # --- completion words ------------------------------------------------------------------------

    def card_words(self) -> list[str]:
        codes = set()
        for cards in self.grammar.decklists(self.match.events(), self.ctx).values():
            codes.update(cards)
        s = self.state()
        for zones in s.zones.values():
            for cards in zones.values():
                codes.update(c.code for c in cards if c.code)
        return sorted(codes)

    def completions(self, before: str) -> list[str]:
        """Words that may continue `before` (the text left of the cursor)."""
        parts = before.split(" ")
        current = parts[-1]
        words = [w for w in parts[:-1] if w]
        seats = [f"{self.ctx.seat_of[p]}:" for p in self.ctx.players]
        card_place = False  # a card may be typed here: names complete to numbers
        verbs = sorted({v.name for v in self.grammar.by_name.values()} |
                       {k for k in self.grammar.custom_verbs if k.isalpha()})
        if not words:
            s = self._state or self.state()
            cands = seats + [f"T{s.turn + 1}", "judge"] + verbs + list(COMMANDS)
        elif len(words) == 1 and re.fullmatch(r"T\d*", words[0]):
            cands = seats
        elif (words[-1].endswith(":") and not words[-1].startswith("{")) or words[-1] in ("·", ";"):
            cands = verbs + self._zone_moves(current)
        else:
            verb = self.grammar.by_name.get(words[-1] if len(words) == 1 else _verb_of(words))
            card_place = True
            cands = self.card_words() + [p[:-1] for p in seats] + self._zone_words()
            if verb is not None:
                hints = self.grammar.hints(verb.kind)
                cands += [f"{k}=" for k in hints if k != "player"] + _literal_words(hints)
        out = [c for c in dict.fromkeys(cands) if c.startswith(current) and c != current]
        if card_place:
            out += [n for n in self.cards_named(current) if n not in out]
        return out

    def cards_named(self, text: str) -> list[str]:
        """Card numbers whose name has a word starting with `text` ("hanc" -> OP01-078): the cards
        of this match first, else the card data's (at most 20)."""
        if self.cards is None or len(text) < 2 or NUMBER_IN_TEXT.fullmatch(text):
            return []
        names = self.names()
        key = name_key(text.replace("_", " "))
        mine = [n for n in self.card_words() if any(w.startswith(key) for w in name_key(names.name(n) or "").split())]
        if mine:
            return mine
        return [n for n, _ in self.cards.db.find(text)][:20]

    def display(self, word: str) -> str:
        """How a completion is shown: a card number with its name (`OP01-078 Boa Hancock`)."""
        return self.names().label(word) if NUMBER_IN_TEXT.fullmatch(word) else word

    def _zone_words(self) -> list[str]:
        return list(self.match.ruleset.zones) + list(self.ctx.aliases)

    def _zone_moves(self, current: str) -> list[str]:
        if ">" not in current:
            return [z + ">" for z in self._zone_words() if z.startswith(current) and current]
        src = current.split(">")[0]
        return [f"{src}>{z}" for z in self._zone_words() if z != src]


def _verb_of(words: list[str]) -> str:
    for i, w in enumerate(words):
        if w.endswith(":") or re.fullmatch(r"T\d*", w) or w == "judge":
            continue
        if i > 0 and words[i - 1] == "judge":
            continue
        return w
    return ""


def _literal_words(hints: dict[str, Any]) -> list[str]:
    import typing
    from typing import Literal, get_args, get_origin
    out = []
    for h in hints.values():
        for arm in (get_args(h) if get_origin(h) in (typing.Union,) or type(h).__name__ == "UnionType" else (h,)):
            if get_origin(arm) is Literal:
                out += [str(a) for a in get_args(arm)]
    return out
