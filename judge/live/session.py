"""The live recorder's session: one notation line in, what was stored and what the table needs to know out.

A line is one unit. It is parsed and judged whole on a copy of the table, then stored in one
transaction (every action of it, or none), and acknowledged only after the commit. A refused line
comes back for editing with the cursor on the failing action. Each session knows the last event it
has shown: if the log moved before Enter (another recorder), the new events are shown with who
recorded them and when, and the session asks before storing, offering to drop a line that repeats
what the other recorder just stored.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from engine.events import JUDGE_PREFIX, SCOREKEEPER_PREFIX, RecordedEvent, default_recorder_name
from engine.findings import Finding
from engine.match import BatchInputError, InputError, Match
from engine.notation.lines import input_message, turn_number_problem
from judge.recorders import who_stored
from engine.replay import VOIDING_KINDS
from engine.schema import cut
from engine.state import TableState
from engine.store import ConflictError, StoreError

from judge.desk import clock_of, format_left, judge_actor
from judge.io import carddb
from judge.io.cardnames import NUMBER_IN_TEXT, CardNames
from judge.io.cardsnapshot import name_key
from engine.notation import (
    Action,
    NotationError,
    grammar_for,
    make_ctx,
    parse_line,
    tokenize,
)
from judge.live.acks import AckFile
from judge.live.actor import default_actor
from judge.live.announce import new_endings
from judge.live.moved import describe_moved, event_line, repeated
from judge.live.options import legal_now
from judge.report.text import render_state


COMMANDS = {
    "?": "what can be done now: plays, attacks, blocks, counters (checked against the rules)",
    "help": "the actions of this ruleset and the commands",
    "undo": "undo [\"reason\"]: a correction voiding your last event (the original stays in the log)",
    "state": "the table now",
    "clock": "the round's time left",
    "quit": "leave (everything acknowledged is stored)",
}
ROLES = ("scorekeeper", "judge")
MOVED_SHOWN = 12  # the other recorder's latest events shown before a question


@dataclass
class Question:
    """A question the recorder must answer before anything is stored: `choices` maps a key to
    what it does; Enter alone takes `default`."""

    text: str
    choices: dict[str, str]
    default: str

    def prompt(self) -> str:
        keys = "/".join(k.upper() if k == self.default else k for k in self.choices)
        return f"{keys}? "


@dataclass
class Reply:
    lines: list[str] = field(default_factory=list)
    quit: bool = False
    recorded: list[RecordedEvent] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    refused: bool = False  # nothing of the line was recorded
    conflict: bool = False  # refused because the log moved (a script gets exit 3)
    edit: tuple[str, int] | None = None  # the line to put back at the prompt, and the cursor column
    question: Question | None = None  # asked before storing: answer with the next handle()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class _Pending:
    actions: list[Action]
    text: str
    repeats: int  # how many of the line's first actions the other recorder already stored


class LiveSession:
    def __init__(self, match: Match, *, strict: bool = False, judge: str | None = None,
                 recorded_by: str | None = None, role: str = "scorekeeper", interactive: bool = True,
                 acks: AckFile | None = None):
        if role not in ROLES:
            raise InputError(f"a live recorder is a {' or a '.join(ROLES)}, not {role!r}", field="role")
        self.match = match
        self.strict = strict
        self.interactive = interactive
        self.recorded_by = recorded_by or default_recorder_name()
        self.role = role
        # who the recorder is, as an actor: its own acts (undo) are recorded as its own
        self.me = (JUDGE_PREFIX if role == "judge" else SCOREKEEPER_PREFIX) + self.recorded_by
        self.judge = judge_actor(judge) if judge else (self.me if role == "judge" else None)
        self.grammar = grammar_for(match.ruleset)
        self.ctx = make_ctx(match.players, match.ruleset, self.grammar)
        # the reply says how a name was narrowed (carddb.MatchCards.notes)
        self.cards = carddb.match_cards(match.ruleset, carddb.for_store(match.store))
        if self.cards is not None:  # names said at the table -> numbers; a deck line gets its facts
            self.ctx.card_ref = lambda word, player, field: self.cards.resolve(  # type: ignore[union-attr]
                word, self.state(), player, field)
            # a replacement (`void N instead={..}`) is JSON as typed: its names resolved as `log --instead`'s
            self.ctx.card_fill = lambda kind, payload: self.cards.complete(  # type: ignore[union-attr]
                kind, payload, self.state, self.match.kind_at)
        self.acks = acks
        self.seen_event = match.store.head(match.id)  # the last event this session has shown
        self._last_mine = self.seen_event  # its last own line (or where it started)
        self.mine: set[int] = set()
        self._state: TableState | None = None
        self._pending: _Pending | None = None
        self._ends = len(match.ruleset.game_ends(self.state()))
        self.acknowledged = self.seen

    @property
    def seen(self) -> int:
        return self.seen_event.position if self.seen_event else 0

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

    def _moved(self) -> list[RecordedEvent]:
        return [e for e in self.match.store.read(self.match.id, after=self.seen) if e.position not in self.mine]

    def refresh(self) -> list[str]:
        """Events another recorder appended since this session last showed the log, as lines
        (who recorded each, and when); they count as shown from now on."""
        events = self.match.store.read(self.match.id, after=self.seen)
        out = [event_line(e, self.line_of(e)) for e in events if e.position not in self.mine]
        if events:
            self.seen_event = events[-1]
            out += self._endings()
        return out

    def resume_lines(self) -> list[str]:
        """On start: what was stored after this recorder's last acknowledgement (a line whose
        acknowledgement never reached the screen must not be typed again), else the last events."""
        last = self.acks.read() if self.acks else None
        events = self.match.events()
        if last is not None and last < len(events):
            after = [e for e in events if e.position > last]
            out = [f"stored after your last acknowledgement (#{last}):"]
            out += self._moved_lines(after)
            if any(e.recorded_by == self.recorded_by for e in after):
                out.append("  (the lines recorded by you above were stored: do not type them again)")
            return out
        recent = [e for e in events[-5:] if e.position > 1]
        if not recent:
            return []
        return ["last events:"] + [f"  #{e.position} {self.line_of(e)}" for e in recent]

    def _moved_lines(self, moved: list[RecordedEvent]) -> list[str]:
        """The latest of `moved` as lines (who, when), with how many earlier ones are left out."""
        shown = moved[-MOVED_SHOWN:]
        out = []
        if len(moved) > len(shown):
            out.append(f"  ... {len(moved) - len(shown)} earlier (events {moved[0].position}-"
                       f"{shown[0].position - 1}: `tablejudge events` lists them)")
        return out + describe_moved(shown, self.line_of)

    def mark_shown(self) -> None:
        """The log up to the session's start has been shown (the resume lines): acknowledged."""
        if self.acks is not None and self.seen:
            self.acks.write(self.seen)

    def acknowledge(self, reply: Reply) -> None:
        """Called once a reply has been shown: its events are acknowledged (kept for a resume)."""
        if reply.recorded:
            self.acknowledged = max(self.acknowledged, max(e.position for e in reply.recorded))
            if self.acks is not None:
                self.acks.write(self.acknowledged)

    # --- one line ---------------------------------------------------------------------------

    def handle(self, line: str) -> Reply:
        if self._pending is not None:
            return self._answer(line.strip().lower())
        text = line.strip()
        if not text:
            return Reply(self.refresh())
        word = text.split()[0]
        if word in ("quit", "exit"):
            return Reply(self.refresh(), quit=True)
        if word in ("?", "help", "state", "clock", "undo"):
            reply = Reply(self.refresh())
            if word == "?":
                reply.lines += legal_now(self)
            elif word == "help":
                reply.lines += self.help_lines()
            elif word == "state":
                reply.lines.append(render_state(self.state(), self.match.ruleset, head=self.seen,
                                                match_id=self.match.id, names=self.names()))
            elif word == "clock":
                reply.lines.append(self.clock_line())
            else:
                self._undo(text[len("undo"):].strip(), reply)
            return reply
        return self._line(text)

    def _line(self, text: str) -> Reply:
        if self.cards is not None:
            self.cards.take_notes()  # a refused line's notes are not this line's
            self.cards.take_notices()
        try:
            actions = parse_line(text, 0, self.grammar, self.ctx, default_actor=self._default_actor)
        except NotationError as e:
            return self._refuse(text, e.col, e.message, e.action, e.action_text)
        if self.ctx.card_fill is not None:  # a deck line gets its cards' facts, a replacement its numbers
            for a in actions:
                try:
                    a.payload = self.ctx.card_fill(a.kind, a.payload)
                except InputError as e:
                    return self._refuse(text, a.col, input_message(e), a.index, a.text)
        notes = self.cards.take_notes() if self.cards is not None else []
        notices = self.cards.take_notices() if self.cards is not None else []
        reply = self._store(actions, text)
        if notes and not reply.refused:  # a name narrowed to one card is said, never a silent guess
            reply.lines[0:0] = [f"  = {n}" for n in notes]
        if notices and not reply.refused:  # a number the card data lacks: a typo? (carddb._notice_unknown)
            reply.lines += [f"  notice: {n}" for n in notices]
        return reply

    def _store(self, actions: list[Action], text: str, *, repeats_checked: bool = False) -> Reply:
        """Judge the line whole against the table this session has shown and store it in one
        transaction. If the log moved first, show the new events and ask; if the line repeats what
        the other recorder stored since this one's last line (shown already: a recorder a line or
        two behind), ask too."""
        moved = self._moved()
        if moved:
            return self._ask(actions, text, moved)
        if not repeats_checked:
            n, same = repeated(self.match, actions, self._others_since_mine())
            if n:
                return self._question(actions, text, [], n, same)
        after = self.seen_event
        items = [(a.kind, a.payload, a.actor) for a in actions]
        try:
            batch = self.match.judge_batch(items, after=after, recorded_by=self.recorded_by)
        except BatchInputError as e:
            a = actions[e.item]
            return self._refuse(text, a.col, input_message(e), a.index, a.text)
        except InputError as e:
            return self._refuse(text, 1, str(e), 0, "")
        for k, a in enumerate(actions):
            problem = turn_number_problem(self.grammar, a, *batch.turns[k])
            if problem:
                return self._refuse(text, a.col, problem, a.index, a.text)
        if self.strict and batch.errors():
            k, errors = batch.errors()[0]
            a = actions[k]
            reply = self._refuse(text, a.col, "the rules would flag it (--strict)", a.index, a.text)
            reply.lines[-1:-1] = [self._finding_line(f) for f in errors]
            reply.findings += errors
            return reply
        try:
            recs = self.match.store_batch(batch, after=after)
        except ConflictError as e:
            if self._moved():
                return self._store(actions, text, repeats_checked=repeats_checked)  # show it and ask
            return self._refuse(text, 1, str(e), 0, "")
        except StoreError as e:
            return self._refuse(text, 1, str(e), 0, "")
        reply = Reply()
        for rec in recs:  # the acknowledgement: only now, after the commit
            e = rec.event
            self.mine.add(e.position)
            reply.lines.append(f"  #{e.position} {self.line_of(e)}")
            reply.lines += [self._finding_line(f) for f in rec.findings]
            reply.findings += rec.findings
            reply.recorded.append(e)
        self.seen_event = self._last_mine = recs[-1].event
        self._state = batch.state if batch.state.position == self.seen else None
        reply.lines += self._endings()
        return reply

    def _endings(self) -> list[str]:
        """Announce every game that ended since the last announcement (whoever recorded it)."""
        self._ends, lines = new_endings(self.match.ruleset, self._ends, self.state())
        return lines

    def _refuse(self, text: str, col: int, message: str, action: int, action_text: str) -> Reply:
        where = f"action {action} ({cut(action_text, 40)}), column {col}" if action else f"column {col}"
        col = max(col, 1)
        shown_text, caret = _window(text, col - 1)
        lines = [f"  {shown_text}", f"  {' ' * caret}^", f"  {where}: {message}",  # the tool's own words, whole (QA81 L2: cut mid-word); the values in them come quoted short
                 "  nothing of this line was recorded" + (": edit it and press Enter" if self.interactive else "")]
        return Reply(lines, refused=True, edit=(text, col - 1))

    # --- the log moved: show, then ask ---------------------------------------------------------

    def _others_since_mine(self) -> list[RecordedEvent]:
        """What other recorders stored since this session's last own line (or its start)."""
        return [e for e in self.match.store.read(self.match.id, after=self._last_mine.position, upto=self.seen)
                if e.position not in self.mine]

    def _ask(self, actions: list[Action], text: str, moved: list[RecordedEvent]) -> Reply:
        who = sorted({who_stored(e) for e in moved})  # as the web's "moved" answer names them
        lines = [f"  the log moved before your line was stored: {len(moved)} new event"
                 f"{'s' if len(moved) != 1 else ''} by {', '.join(who)}:"]
        lines += self._moved_lines(moved)
        self.seen_event = moved[-1] if moved[-1].position > self.seen else self.seen_event
        self._state = None
        lines += self._endings()
        n, same = repeated(self.match, actions, self._others_since_mine())
        return self._question(actions, text, lines, n, same, moved=True)

    def _question(self, actions: list[Action], text: str, lines: list[str], n: int,
                  same: list[RecordedEvent], *, moved: bool = False) -> Reply:
        """Ask before storing: the line repeats `n` actions the other recorder stored (`same`),
        or (n == 0) the log moved under it."""
        if n:
            span = f"#{same[0].position}" + (f"-#{same[-1].position}" if len(same) > 1 else "")
            whole = n == len(actions)
            lines.append(f"  your line {'repeats' if whole else f'starts with {n} of'} what "
                         f"{same[0].recorded_by} {'just ' if moved else ''}stored ({span})")
        if not self.interactive:
            lines.append("  nothing of your line was recorded" + (" (the log moved)" if moved else "")
                         + ": look at the events and send the line again if it still applies")
            return Reply(lines, refused=True, conflict=True)
        self._pending = _Pending(actions, text, n)
        if n == len(actions):
            q = Question("drop your line (it is already stored)?",
                         {"d": "drop it", "s": "store it again anyway", "e": "edit it"}, "d")
        elif n:
            q = Question(f"store only the rest of your line ({len(actions) - n} action"
                         f"{'s' if len(actions) - n != 1 else ''})?",
                         {"r": "store only the rest", "d": "drop it", "s": "store all of it", "e": "edit it"}, "r")
        else:
            q = Question("store your line after them (judged against the table as it is now)?",
                         {"s": "store it", "d": "drop it", "e": "edit it"}, "s")
        lines.append("  " + q.text + "  " + " · ".join(f"[{k}] {v}" for k, v in q.choices.items()))
        return Reply(lines, question=q)

    def _answer(self, key: str) -> Reply:
        p = self._pending
        assert p is not None
        self._pending = None
        choices = ("d", "s", "e") + (("r",) if 0 < p.repeats < len(p.actions) else ())
        default = "d" if p.repeats == len(p.actions) else ("r" if p.repeats else "s")
        key = key[:1] or default
        if key not in choices:
            self._pending = p
            return Reply([f"  answer {', '.join(choices)} (Enter: {default})"],
                         question=Question("", {k: k for k in choices}, default))
        if key == "d":
            return Reply(["  dropped: nothing of this line was recorded"])
        if key == "e":
            return Reply(["  edit the line and press Enter"], edit=(p.text, len(p.text)))
        actions = p.actions[p.repeats:] if key == "r" else p.actions
        return self._store(actions, p.text, repeats_checked=True)

    # --- who acts --------------------------------------------------------------------------

    def _default_actor(self, kind: str) -> str:
        return default_actor(kind, me=self.me, judge=self.judge,
                             no_judge="write `judge NAME: ...` (or start the recorder with --judge NAME)")

    def _undo(self, reason_text: str, reply: Reply) -> None:
        """A correction voiding this recorder's own last event that still counts (never what
        another laptop typed), recorded as this recorder's own act (scorekeeper:NAME / judge:NAME)."""
        reason = "undone at the table (live recorder)"
        if reason_text:
            toks = tokenize(reason_text)
            reason = toks[0].value if toks and toks[0].type in ("str", "word") and len(toks) == 1 else reason_text
        voided = set(self.state().voided)
        target = next((e for e in reversed(self.match.store.read(self.match.id, after=1))
                       if e.position in self.mine and e.position not in voided and e.kind not in VOIDING_KINDS),
                      None)
        if target is None:
            reply.lines.append("  nothing of yours to undo in this session (to void another event: "
                               "judge NAME: void N \"reason\")")
            return
        for _ in range(5):
            head = self.match.store.head(self.match.id)
            try:
                batch = self.match.judge_batch([("correction", {"voids": target.position, "reason": reason},
                                                 self.me)], after=head, recorded_by=self.recorded_by)
                (rec,) = self.match.store_batch(batch, after=head)
            except ConflictError:
                reply.lines += self.refresh()
                continue
            except InputError as err:
                reply.lines.append(f"  error: {err}")
                return
            reply.lines += self.refresh() if head.position > self.seen else []
            self.mine.add(rec.event.position)
            self.seen_event = self._last_mine = rec.event
            self._state = None
            reply.lines.append(f"  #{rec.event.position} {self.line_of(rec.event)}   (event {target.position}: "
                               f"{self.line_of(target)} is void; it stays in the log)")
            reply.lines += [self._finding_line(f) for f in rec.findings]  # e.g. a time decision now stale
            reply.findings += rec.findings
            reply.recorded.append(rec.event)
            return
        reply.lines.append("  other recorders kept writing: nothing was undone; try again")

    # --- help, clock --------------------------------------------------------------------------

    def clock_line(self, now: datetime | None = None) -> str:
        events = self.match.events()
        c = clock_of(events, set(self.state().voided))
        if not c.running:
            return "  the round clock has not started (record: round.start MINUTES)"
        left = c.time_left(now or datetime.now(timezone.utc))
        extra = f" + {c.extra_minutes} min extensions" if c.extra_minutes else ""
        called = f"; time was called at {c.called['clock']}" if c.called else ""
        return f"  {format_left(left)} left (round {c.minutes} min{extra}){called}"  # type: ignore[arg-type]

    def help_lines(self) -> list[str]:
        lines = [f"  actions ({self.match.ruleset.name}; prefix A:, B:, ... or judge NAME:; "
                 "a prefix holds until the next one on the line):"]
        seen = set()
        for verb in self.grammar.by_name.values():
            if verb.doc and verb.name not in seen:
                seen.add(verb.name)
                lines.append(f"    {verb.doc}")
        lines += [f"    {doc}" for doc in self.grammar.custom_verbs.values()]
        lines.append("    T3 A: ...   a turn begins (then A's actions); {comment}; a · B: b (several actions, "
                     "switching actor)")
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
        card_place = False
        seats = [f"{self.ctx.seat_of[p]}:" for p in self.ctx.players]
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
            card_place = True  # a card may be typed here: names complete to numbers
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

    def _finding_line(self, f: Finding) -> str:
        return f"  ! {f.rule} [{f.severity}] {self.names().text(f.message)}"

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


LINE_WINDOW = 100  # characters of a refused line shown around its error (a pasted 5,000-character line)


def _window(text: str, at: int) -> tuple[str, int]:
    """The part of `text` around index `at` that fits LINE_WINDOW (… where it is cut), and where
    `at` falls in it (for the caret)."""
    if len(text) <= LINE_WINDOW:
        return text, at
    start = max(0, min(at - LINE_WINDOW // 2, len(text) - LINE_WINDOW))
    end = start + LINE_WINDOW
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else ""), at - start + (1 if start else 0)

