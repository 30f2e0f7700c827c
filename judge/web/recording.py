"""The match recorder's core for the web page (and any program): one notation line in, stored as one
transaction or not at all; the buttons for what is open now; undo as a correction.

The same pieces as the terminal recorder (judge.live.session): the ruleset's grammar reads the line
(engine.notation `parse_line`, card names said at the table turned into numbers, a deck line given
its cards' facts from the card data), `Match.judge_batch` judges it whole on a copy of the table
(the turn number checked by `turn_number_problem`), `Match.store_batch` stores it in one
transaction right after the event it was judged against (a lost race stores nothing). Record, then
judge: an illegal move is stored and comes back with its findings.

Card names: a name is narrowed by the speaker's seat as the terminal recorder does (one resolver,
judge.io.cardresolve, told to say how: `LineOutcome.notes`, shown beside the stored line), from the
table as this link may see it (`known`): a scorekeeper's link never narrows by another link's hidden
cards, so neither the card picked nor a refusal's list tells it what another recorded in a hand.

Two recorders: a page says which event it last showed (`seen`). If the log has moved since, nothing
is stored: the outcome lists what the other recorder stored and how much of this line repeats it
(judge.live.moved.repeated), and the page asks before storing the line after them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.events import JUDGE_PREFIX, RecordedEvent, recorder_words
from engine.match import BatchInputError, InputError, Match, Recorded
from engine.notation import NotationError, grammar_for, make_ctx, parse_line
from engine.notation.lines import input_message, turn_number_problem
from engine.replay import VOIDING_KINDS
from engine.state import TableState
from engine.store import ConflictError
from judge.io import carddb
from judge.io.cardformats import card_number
from judge.live.moved import repeated
from judge.live.options import options
from judge.live.actor import default_actor
from judge.recorders import who_stored
from judge.replay.timeline import Timeline, table_known_to
from judge.web.auth import who_can

MAX_LINE = 4000


class LineRefused(InputError):
    """A line that could not be stored: nothing of it was. `col`: 1-based column of the problem."""

    def __init__(self, message: str, col: int = 1, field: str = "line"):
        super().__init__(message, field=field)
        self.col = max(1, col)


@dataclass
class LineOutcome:
    status: str                                  # "stored" or "moved" (nothing stored: look first)
    head: int                                    # the log's last event now
    recorded: list[Recorded] = field(default_factory=list)
    moved: list[RecordedEvent] = field(default_factory=list)   # stored by others since `seen`
    repeats: list[int] = field(default_factory=list)           # of those, the ones this line repeats
    notes: list[str] = field(default_factory=list)             # how card names were narrowed (stored lines)
    notices: list[str] = field(default_factory=list)           # card numbers the card data lacks (a typo?)

    def to_dict(self, describe: Callable[[RecordedEvent], str]) -> dict[str, Any]:
        return {"status": self.status, "head": self.head,
                "recorded": [{"position": r.event.position, "kind": r.event.kind, "text": describe(r.event),
                              "findings": [f.to_dict() for f in r.findings]} for r in self.recorded],
                "moved": [{"position": e.position, "text": describe(e), "by": who_stored(e),
                           "at": e.recorded_at, "repeat": e.position in self.repeats} for e in self.moved],
                "notes": self.notes, "notices": self.notices}


class UndoRefused(InputError):
    """The event an undo names is no longer this link's to void (already void, another's, a judge
    call): nothing stored; the page shows its current undo button again (409)."""

    def __init__(self, message: str):
        super().__init__(message, field="voids")


@dataclass
class Recorder:
    """Who records (the link's actor for its own acts, whether it may act as a judge) and the
    grammar of the match, with the card data's names and facts where the game has card data."""

    match: Match
    own_actor: str              # scorekeeper:NAME, or judge:NAME for a judge's or an organizer's link
    recorded_by: str
    may_act_as_judge: bool
    # The table as this link may see it, by which a card name is narrowed (the server passes its
    # cached MatchViews.table_known_to). None: worked out here: a judge's or the organizer's link
    # sees the log as recorded, a scorekeeper's as timeline.table_known_to folds it.
    known: Callable[[], TableState] | None = None

    def __post_init__(self) -> None:
        self.grammar = grammar_for(self.match.ruleset)
        self.ctx = make_ctx(self.match.players, self.match.ruleset, self.grammar)
        # the page shows how a name was narrowed (LineOutcome.notes), as the terminal recorder does
        self.cards = carddb.match_cards(self.match.ruleset, carddb.for_store(self.match.store))
        if self.cards is not None:  # names said at the table -> numbers; a deck line gets its facts
            self.ctx.card_ref = self._card_ref
            # a replacement (`void N instead={..}`) is JSON as typed: its names resolved as `log --instead`'s
            self.ctx.card_fill = lambda kind, payload: self.cards.complete(  # type: ignore[union-attr]
                kind, payload, self._known, self.match.kind_at)

    def _card_ref(self, word: str, player: str | None = None, field: str | None = None) -> str:
        # a card number is itself: only a name is looked up among this match's cards, so only a
        # name costs a replay of the table (a page's buttons send numbers: read none for them)
        state = None if card_number(word) is not None else self._known()
        return self.cards.resolve(word, state, player, field)  # type: ignore[union-attr]

    def _known(self) -> TableState:
        if self.known is not None:
            return self.known()
        if self.may_act_as_judge:
            return self.match.state()
        return table_known_to(self.match, self.recorded_by)

    def default_actor(self, kind: str) -> str:
        """A line with no prefix: the table's; a judge's action, this link's if it is a judge's."""
        return default_actor(kind, me=self.own_actor, judge=self.own_actor if self.may_act_as_judge else None,
                             no_judge="a judge records it (the judges' desk, or a judge's link)")

    # --- a line ------------------------------------------------------------------------------

    def parse(self, text: str) -> list[Any]:
        """The actions of a line; LineRefused (with the column) if it does not read. How its card
        names were narrowed: `self.line_notes`."""
        self.line_notes: list[str] = []
        self.line_notices: list[str] = []
        if not isinstance(text, str) or not text.strip():
            raise LineRefused("type an action (or tap one of the buttons)")
        if len(text) > MAX_LINE or "\x00" in text:
            raise LineRefused(f"a line has at most {MAX_LINE:,} characters of text", col=min(len(text), MAX_LINE))
        if self.cards is not None:
            self.cards.take_notes()  # an earlier refused line's notes are not this line's
            self.cards.take_notices()
        try:
            actions = parse_line(text, 0, self.grammar, self.ctx, default_actor=self.default_actor)
        except NotationError as e:
            raise LineRefused(e.message, col=e.col) from None
        if self.ctx.card_fill is not None:
            for a in actions:
                try:
                    a.payload = self.ctx.card_fill(a.kind, a.payload)
                except InputError as e:
                    raise LineRefused(input_message(e), col=a.col) from None
        if self.cards is not None:  # after card_fill: a replacement's names are noted there
            self.line_notes = self.cards.take_notes()
            self.line_notices = self.cards.take_notices()
        if not self.may_act_as_judge:
            for a in actions:
                if a.actor.startswith(JUDGE_PREFIX):
                    raise PermissionError(f"this link cannot act as a judge (column {a.col}: "
                                          f"judge {a.actor[len(JUDGE_PREFIX):]}): {who_can('judge_match')}")
        return actions

    def record(self, text: str, seen: int) -> LineOutcome:
        """Store one line as one transaction after event `seen` (the last the page showed), or say
        what moved since. LineRefused: nothing stored, `col` says where. PermissionError: a line
        acting as a judge from a link that is not a judge's."""
        actions = self.parse(text)
        after = self.match.store.head(self.match.id)
        if seen != after.position:
            return self._moved(actions, seen, after.position)
        try:
            batch = self.match.judge_batch([(a.kind, a.payload, a.actor) for a in actions], after=after,
                                           recorded_by=self.recorded_by)
        except BatchInputError as e:
            raise LineRefused(input_message(e), col=actions[e.item].col) from None
        for k, a in enumerate(actions):
            problem = turn_number_problem(self.grammar, a, *batch.turns[k])
            if problem:
                raise LineRefused(problem, col=a.col)
        try:
            recs = self.match.store_batch(batch, after=after)
        except ConflictError:
            return self._moved(actions, seen, self.match.head_position())
        return LineOutcome("stored", recs[-1].event.position, recs, notes=self.line_notes, notices=self.line_notices)

    def _moved(self, actions: list[Any], seen: int, head: int) -> LineOutcome:
        moved = self.match.store.read(self.match.id, after=max(seen, 1), upto=head) if seen < head else []
        _, same = repeated(self.match, actions, moved)
        return LineOutcome("moved", head, moved=moved, repeats=[e.position for e in same])

    # --- undo --------------------------------------------------------------------------------

    def undo(self, voids: int, reason: str | None = None) -> tuple[Recorded, RecordedEvent]:
        """A correction voiding event `voids` (the number the page's undo button showed), recorded
        as this link's own act; the original stays in the log. Refused (UndoRefused, 409, nothing
        stored) unless that event is still this link's own, undoable and not void: a page that
        showed an older number never voids a different event. The number is required: "this
        link's last event" is decided by the server when the request lands, and a call or an
        undo stored meanwhile made it another event than the one the page showed. A judge call
        is not undoable here: a judge answers it (a ruling says it needed nothing)."""
        found = self.match.store.read(self.match.id, after=voids - 1, upto=voids) if voids >= 1 else []
        target = found[0] if found and found[0].position == voids else None
        if target is None:
            raise InputError(f"match {self.match.id} has no event {voids}", field="voids")
        if target.recorded_by != self.recorded_by:
            # QA76 7: say who voids it, and to a judge's link how (its undo button is for its own events)
            how = (f"void it with a correction: \"replace\" on #{voids}" if self.may_act_as_judge else
                   f"this link cannot void another's event: {who_can('judge_match')}")
            raise UndoRefused(f"not undone: event {voids} was recorded by {recorder_words(target.recorded_by)}, "
                              f"not this link; {how}; nothing stored")
        if not undoable(target):
            what = "a judge call (a judge answers it)" if target.kind == "judge.call" else f"a {target.kind}"
            raise UndoRefused(f"not undone: event {voids} is {what}, not undoable here; nothing stored")
        if voids in set(self.match.state().voided):
            # QA77 2: a judge's correction on it says who acts next, in the library's words
            # (EventValidator._check_judged, run by drafting the void, which stores nothing)
            try:
                self.match.draft("correction", {"voids": voids, "reason": "undo"}, actor=self.own_actor,
                                 recorded_by=self.recorded_by)
            except InputError as e:
                raise UndoRefused(f"not undone: {e.message}; nothing stored") from None
            raise UndoRefused(f"not undone: event {voids} is already void; nothing stored")
        rec = self.match.record("correction", {"voids": target.position,
                                               "reason": reason or "undone on the recorder page"},
                                actor=self.own_actor, recorded_by=self.recorded_by)
        return rec, target

    # --- the buttons -------------------------------------------------------------------------

    def buttons(self, state: TableState) -> tuple[list[Any], list[str]]:
        """What is open at `state` (the grammar's suggestions the rules accept: judge.live.options,
        as the terminal's `?`), and the grammar's notes on what it could not know (unseen hands)."""
        try:
            found = options(self.match, self.grammar, self.ctx, state, self.default_actor)
            notes = list(self.grammar.suggestion_notes(state, self.ctx))
        except Exception:  # noqa: BLE001 - a grammar bug leaves the notation box, not a broken page
            return [], ["(the buttons could not be worked out for this table: type the line)"]
        return found, notes


NOT_UNDOABLE = frozenset(VOIDING_KINDS) | {"judge.call"}  # a call is answered by a judge, not undone


def undoable(e: RecordedEvent) -> bool:
    return e.kind not in NOT_UNDOABLE


def last_own_event(tl: Timeline, recorded_by: str) -> dict[str, Any] | None:
    """The last event this link recorded that still counts and that its undo may void (not a
    correction or backup, not a judge call): its row of the page's timeline `tl` (position `p`,
    its `text`), so the page reads no log for it. Hiding cards changes no kind, no author and no
    void (a correction or a backup is never hidden), so a scorekeeper's hidden timeline says the
    same as the log."""
    for row in reversed(tl.events[1:]):
        if row["by"] == recorded_by and not row["void"] and row["kind"] not in NOT_UNDOABLE:
            return row
    return None
