"""A match: its log plus its ruleset. Record events (validated input, judged moves) and replay them.

    store = EventStore.open("t.db")
    m = Match.create(store, "table", ["Ann", "Bob"])
    m.record("draw", {"player": "Ann", "count": 5}, actor="Ann")
    m.state()                      # the table now
    m.state(at=3)                  # the table right after event 3
    m.validate().findings          # what a judge should look at

Malformed input (unknown kind or player, wrong types) raises `InputError` and stores nothing; an
illegal move is stored and flagged (record, then judge), unless `strict=True`.
"""
from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.decisions import stale_decisions, stale_findings
from engine.desk import (OFF_TABLE_KINDS, ends_extra_minutes, event_desk_findings, failure_finding, judge_of, known_rule_ids,
                         time_call_verdict)
from engine.events import (JUDGE_PREFIX, SCOREKEEPER_PREFIX, TABLE_ACTOR, Draft, MatchCreated, RecordedEvent,
                           default_recorder_name, new_tuple, unsaid_reason)
from engine.findings import Finding
from engine.names import NAMED, naming_refusal
from engine.replay import VOIDING_KINDS, Replayer, Validation, as_played
from engine.replacing import INSTEAD_FIELDS, StandingCorrection, StandingAfter, replacement_field, standing
from engine.rulesets import Ruleset, UnknownRuleset, get_ruleset
from engine.rulesets.base import History
from engine.canonical import canonical_json
# InputError lives in engine.schema (the penalty guides raise it too); engine.match.InputError is the name callers use
from engine.schema import (MAX_PAYLOAD_BYTES, a_kind, InputError, ParseContext, PayloadError, control_problem,
                           most_json_chars, shown, valid_text)
from engine.state import TableState
from engine.store import ConflictError, EventStore, StoreError


class TimeCallRefused(InputError):
    """A `time.called` refused (time is called once; the end of extra minutes once, after the call):
    its words say why on every path; a command line adds how (judge time's --help commands), the
    ones that fit `reason` (see engine.desk.time_call_verdict) and `extra_minutes` (the ruleset's
    policies with extra minutes after the call; none: there is no end of them to record)."""

    def __init__(self, message: str, *, reason: str = "", extra_minutes: Sequence[str] = (), **kw: Any):
        super().__init__(message, **kw)
        self.reason = reason
        self.extra_minutes = tuple(extra_minutes)


class StrictRefusal(Exception):
    """--strict: the event would be flagged, so it was not recorded."""

    def __init__(self, findings: list[Finding]):
        super().__init__("refused in strict mode: " + "; ".join(f"{f.rule}: {f.message}" for f in findings))
        self.findings = findings


@dataclass
class Recorded:
    event: RecordedEvent
    findings: list[Finding]
    # what the desk says to whoever recorded it that is no finding of the log (judge.desk.actions: a
    # penalty's minutes late under a policy with no ladder, DESK-5; decide_appeal's appellant other than
    # the player who filed): the CLI prints them (--json: `notices`), the web shows them
    notices: list[str] = field(default_factory=list)


# the standing correction of each event after position n (what a correction or backup asks before
# it changes an event a judge ruled on: EventValidator._check_judged)
Corrections = Callable[[int], "dict[int, StandingCorrection]"]
Log = Callable[[], "list[RecordedEvent]"]  # events 2..n of a log, read once by whoever holds it


def new_match_id() -> str:
    return uuid.uuid4().hex[:10]


# A match id names files (exports/ID.csv) and is typed by hand: letters, digits, '.', '_' and '-',
# starting with a letter or digit, at most 64 characters. Checked wherever a match is created.
MATCH_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
MAX_NAME = 64  # characters in a player's name, an actor's, a recorder's


def check_match_id(value: Any, *, field: str = "match", where: str = "") -> str:
    """A match id as given (--id, a [Match] tag, an imported file's `match`), or InputError."""
    if not isinstance(value, str):
        raise InputError(f"a match id must be text, got {shown(value)}", field=field, where=where)
    if not MATCH_ID.fullmatch(value):
        raise InputError(f"match id {shown(value)} is not allowed: use 1 to 64 letters, digits, '.', '_' "
                         "or '-', starting with a letter or digit", field=field, where=where)
    return value


def check_name(value: Any, what: str, *, field: str, where: str = "") -> str:
    """A name (a player's, a recorder's): text of at most MAX_NAME characters, valid Unicode."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text, got {shown(value)}", field=field, where=where)
    if len(value) > MAX_NAME or not valid_text(value):
        raise InputError(f"{what} must be at most {MAX_NAME} characters of valid text, got {shown(value)}",
                         field=field, where=where)
    return value


def creation_draft(ruleset: str, players: Sequence[str], *, event: str | None = None,
                   round: str | None = None, table: str | None = None,
                   options: dict[str, Any] | None = None, recorded_by: str | None = None,
                   recorded_at: str | None = None) -> Draft:
    """Validate a new match's ruleset, players and options into its match.created draft."""
    if not isinstance(ruleset, str) or len(ruleset) > MAX_NAME:
        raise InputError(f"must name a ruleset (see `tablejudge rulesets`), got {shown(ruleset)}",
                         field="ruleset")
    try:
        rs = get_ruleset(ruleset)
    except UnknownRuleset as e:
        raise InputError(str(e), field="ruleset") from None
    if not isinstance(players, (list, tuple)) or not all(isinstance(p, str) for p in players):
        raise InputError("players must be a list of names", field="players")
    if len(players) > 64:
        raise InputError(f"at most 64 players, got {len(players)}", field="players")
    players = [check_name(p, "a player's name", field="players").strip() for p in players]
    if len(players) < 2:
        raise InputError("a match needs at least two players", field="players")
    if len(set(players)) != len(players) or any(not p for p in players):
        raise InputError("player names must be distinct and not empty", field="players")
    for p in players:
        if p.startswith((JUDGE_PREFIX, SCOREKEEPER_PREFIX)) or p == TABLE_ACTOR:
            raise InputError(f"{shown(p)} cannot be a player name (reserved)", field="players")
    if options is not None and not isinstance(options, dict):
        raise InputError(f"must be an object of NAME: VALUE, got {shown(options)}", field="options")
    try:
        rs.resolve_options(options or {})
    except ValueError as e:
        raise InputError(str(e), field="options") from None
    if recorded_by is not None:
        check_name(recorded_by, "recorded_by", field="recorded_by")
    given = {"ruleset": ruleset, "players": list(players), "event": event, "round": round,
             "table": table, "options": options or None}
    try:  # parsed like any payload: the same bounds on every text, number and size
        payload = MatchCreated.parse_dict({k: v for k, v in given.items() if v is not None})
    except PayloadError as e:
        raise InputError(e.message, field=e.field) from None
    return Draft("match.created", MatchCreated.version, TABLE_ACTOR, payload,
                 recorded_by or default_recorder_name(), recorded_at)


# EventValidator.draft makes its Draft with events.new_tuple: it must give each of these fields
if Draft._fields != ("kind", "version", "actor", "payload", "recorded_by", "recorded_at", "write_id"):
    raise ImportError("Draft's fields changed: EventValidator.draft must give each of them")


class EventValidator:
    """Checks input for one match (its ruleset's vocabulary, its players) without a store, so an
    importer can validate a whole file, new match included, before anything is written."""

    def __init__(self, ruleset: Ruleset, players: Sequence[str]):
        self.ruleset = ruleset
        self.players = list(players)
        self.vocab = ruleset.vocabulary()
        self.ctx = ParseContext(players=tuple(self.players), zones=tuple(ruleset.zones),
                                max_cards=ruleset.max_cards)
        self._recorder_checked: str | None = None  # the last recorded_by found good
        # the kinds whose payloads can never be larger than MAX_PAYLOAD_BYTES (scalar fields
        # only): `draft` does not look at their values for the size check (0.55 us an event of
        # a bulk import's `move`s and `turn`s: _draft_range 8.22 -> 7.79 us a line, A/B medians)
        self._small_kinds = frozenset(k for k, cls in self.vocab.items()
                                      if (most := most_json_chars(cls, ruleset.max_cards)) is not None
                                      and most <= MAX_PAYLOAD_BYTES)

    def draft(self, kind: str, payload: Any, *, actor: str = TABLE_ACTOR,
              recorded_by: str | None = None, recorded_at: str | None = None, head: int,
              kind_at: Callable[[int], str | None], corrections: Corrections | None = None,
              recorded: bool = False) -> Draft:
        """`head` is the position the event will follow; `kind_at(n)` tells the kind of event n;
        `corrections(n)` the standing correction of each event after n (engine/replacing.py
        `standing`; None: the caller's log holds no correction). `recorded`: the event was recorded
        already, elsewhere (an export's line, carrying its hash): the rules of recording a NEW one
        (a reason said, a judge's correction corrected again only by a judge, the same replacement
        or void not twice) were its recorder's to apply then; a log from before a rule still re-imports
        whole. Everything about what an event is (kind, actor, payload, its targets) still holds."""
        if not isinstance(kind, str):
            raise InputError(f"must be text, got {shown(kind)}", field="kind")
        if kind == "match.created":
            raise InputError("match.created is written by `match new` (or as the first line of an import)",
                             field="kind")
        if kind not in self.vocab:
            raise InputError(f"unknown event kind {shown(kind)} for ruleset {self.ruleset.name!r} "
                             f"(kinds: {', '.join(k for k in self.vocab if k != 'match.created')})",
                             field="kind")
        self.check_actor(actor)
        cls = self.vocab[kind]
        if kind == "judge.penalty" and isinstance(payload, dict) and "policy" not in payload:
            payload = {**payload, "policy": self._penalty_policy()}
        try:
            data = cls.parse_dict(payload, self.ctx)
        except PayloadError as e:
            raise InputError(e.message, field=f"payload.{e.field}" if e.field else "payload") from None
        stands: dict[int, StandingCorrection] = {}
        if kind in ("correction", "backup"):
            self._check_void_target(kind, data, head, kind_at)
            if not recorded:
                if (unsaid := unsaid_reason(kind, data)) is not None:
                    raise InputError(unsaid, field="payload.reason")
                stands = self._check_judged(kind, data, actor, head, kind_at, corrections)
        if kind == "correction" and data.get("instead") is not None:
            data["instead"] = self._replacement(data, actor, kind_at)
            said = stands.get(data["voids"])
            if said is not None and said.instead == data["instead"]:  # a double submit, or the same said twice
                raise InputError(f"event {data['voids']} already reads so: correction {said.position} "
                                 "says the same", field=replacement_field())
        elif kind == "correction" and "instead" in payload:  # null: a replacement said, then lost
            raise InputError(f"instead must be an object, what event {data['voids']} should have read "
                             '({"actor":..,"payload":{..}}), got null; to void it only, leave instead out',
                             field=replacement_field())
        elif kind == "correction" and (said := stands.get(data["voids"])) is not None and said.instead is None:
            # a double submit, or the same void said twice: the second would change nothing, and a
            # reader of the log would look for what it did (a void after a replacement voids it outright)
            raise InputError(f"event {data['voids']} is already void: correction {said.position}",
                             field="payload.voids")
        if kind not in self._small_kinds and _may_be_large(data) and len(canonical_json(data)) > MAX_PAYLOAD_BYTES:
            raise InputError(f"the payload is larger than {MAX_PAYLOAD_BYTES:,} characters of JSON, "
                             "the most one event may hold", field="payload")
        if recorded_by is not None and recorded_by is not self._recorder_checked:
            check_name(recorded_by, "recorded_by", field="recorded_by")
            # (a bulk import passes the same text for every line: checked once. A str cannot change.)
            self._recorder_checked = recorded_by
        if kind == NAMED and (refused := naming_refusal(actor, data, self.players)):
            raise InputError(refused[0], field=refused[1])
        if cls.references:  # (most kinds name no earlier event: not even an empty loop, 80 -> 10 ns)
            for name, kinds in cls.references.items():
                self._check_reference(name, data.get(name), kinds, head, kind_at)
        # the tuple made directly, every field given: the NamedTuple's constructor is a Python
        # function (290 -> 157 ns; an append and every line of an import draft one)
        return new_tuple(Draft, (kind, cls.version, actor, data, recorded_by or default_recorder_name(),
                                  recorded_at, None))

    def _penalty_policy(self) -> str:
        """The game's default penalty policy, filled into a new penalty that names none: here, the
        one step every recording path takes, and never on replay, so a stored penalty without a
        policy keeps reading `bandai` (engine.desk.DEFAULT_PENALTY_POLICY)."""
        from engine.penalty_guide import default_policy  # a penalty's path only: not every start-up
        return default_policy(self.ruleset.name)

    def _replacement(self, data: dict, actor: str, kind_at: Callable[[int], str | None]) -> dict[str, Any]:
        """A correction's `instead` (what event `voids` should have read), checked as an event of the
        voided one's kind recorded right after the events before it; stored with its kind, version
        and actor. The rules of replacing: engine/replacing.py."""
        target, given = data["voids"], data["instead"]
        where = replacement_field()
        if not judge_of(actor):  # no prefix, or "judge:" with no name
            raise InputError(f"only a judge (actor 'judge:NAME') may say what event {target} should have "
                             f"read, not {shown(actor)}; to void it only, leave out instead", field=where)
        found = kind_at(target)
        if found in OFF_TABLE_KINDS:
            raise InputError(f"event {target} is a {found}, not a game event: a judge action, note, slip or "
                             "clock event is changed by recording the next one (or voiding it), not replaced",
                             field=where)
        unknown = sorted(set(given) - set(INSTEAD_FIELDS))
        if unknown:
            raise InputError(f"instead has no field {shown(unknown[0])} (fields: kind, actor, payload)",
                             field=replacement_field(unknown[0][:40]))
        for name in ("actor", "payload"):
            if name not in given:
                raise InputError(f"instead needs {name!r}: the {name} event {target} should have had "
                                 "(fields: kind, actor, payload)", field=replacement_field(name))
        kind = given.get("kind", found)
        if kind != found:
            raise InputError(f"event {target} is a {found}; its replacement must be one too, got {shown(kind)} "
                             "(a different act: void it and record what happened)", field=replacement_field("kind"))
        version = self.vocab[found].version
        if given.get("version", version) != version:
            raise InputError(f"instead.version must be {version} (the {found} kind's), got "
                             f"{shown(given['version'])}", field=replacement_field("version"))
        try:  # as any event of its kind, recorded where it stands: fields may name only earlier events
            d = self.draft(found, given["payload"], actor=given["actor"], head=target - 1, kind_at=kind_at)
        except InputError as e:
            raise InputError(f"instead: {e.message}", field=replacement_field(e.field)) from None
        return {"kind": d.kind, "version": d.version, "actor": d.actor, "payload": d.payload}

    def check_actor(self, actor: Any) -> None:
        if not isinstance(actor, str):
            raise InputError(f"must be text, got {shown(actor)}", field="actor")
        if actor == TABLE_ACTOR or actor in self.players:
            return
        if not valid_text(actor):  # said first: a control character is the problem, whatever the length
            raise InputError(control_problem(actor) or f"is not valid Unicode text: {shown(actor)}", field="actor")
        if len(actor) > MAX_NAME + len(SCOREKEEPER_PREFIX):
            raise InputError(f"an actor is at most {MAX_NAME} characters, got {len(actor):,}: {shown(actor)}",
                             field="actor")
        for prefix in (JUDGE_PREFIX, SCOREKEEPER_PREFIX):
            if actor.startswith(prefix) and len(actor) > len(prefix):
                return
        raise InputError(f"unknown actor {shown(actor)}: a player ({', '.join(self.players)}), "
                         f"'judge:NAME', 'scorekeeper:NAME' or '-' for the table", field="actor")

    @staticmethod
    def _check_reference(name: str, position: int | None, kinds: tuple[str, ...], head: int,
                         kind_at: Callable[[int], str | None]) -> None:
        """A field naming an earlier event must name one of the right kind ("the call it answers")."""
        if position is None:
            return
        found = kind_at(position) if 1 <= position <= head else None
        if found is None:
            raise InputError(f"there is no event {position}: the log holds events 1..{head}",
                             field=f"payload.{name}")
        if found not in kinds:
            wanted = [a_kind(k) for k in kinds]  # "an attack, not a judge ruling, a backup or ..."
            raise InputError(f"event {position} is {a_kind(found)}, not "
                             + (", ".join(wanted[:-1]) + " or " if len(wanted) > 1 else "") + wanted[-1],
                             field=f"payload.{name}")

    @staticmethod
    def _check_judged(kind: str, data: dict, actor: str, head: int, kind_at: Callable[[int], str | None],
                      corrections: Corrections | None) -> dict[int, StandingCorrection]:
        """Once a judge's correction stands on an event, only a judge corrects it again or backs
        up past it: a scorekeeper's `void N` would otherwise overrule the judge (the latest
        correction decides). Returns the standing corrections it read."""
        low = data["voids"] - 1 if kind == "correction" else data["to"]
        stands = dict(corrections(low)) if corrections is not None else {}
        if judge_of(actor):
            return stands
        span = [data["voids"]] if kind == "correction" else [
            p for p in range(low + 1, head + 1) if p in stands and kind_at(p) not in OFF_TABLE_KINDS]
        for p in span:
            said = stands.get(p)
            judge = judge_of(said.actor) if said is not None else None
            if judge:
                did = "replaced" if said.instead is not None else "voided"
                doing = ("correct it again" if kind == "correction"
                         else f"back up past it (a backup to {low} would back it out)")
                raise InputError(f"event {p} was {did} by judge {judge}'s correction {said.position}: "
                                 f"only a judge can {doing}; call a judge",
                                 field="payload.voids" if kind == "correction" else "payload.to")
        return stands

    @staticmethod
    def _check_void_target(kind: str, data: dict, head: int,
                           kind_at: Callable[[int], str | None]) -> None:
        target = data["voids"] if kind == "correction" else data["to"]
        low = 2 if kind == "correction" else 1
        where = "payload.voids" if kind == "correction" else "payload.to"
        if target == 1 and low == 2:
            raise InputError("event 1 creates the match and cannot be voided", field=where)
        if not low <= target <= head:
            raise InputError(f"{kind} names event {target}, but the log holds events 1..{head}", field=where)
        if kind == "correction" and kind_at(target) in ("correction", "backup"):
            raise InputError(f"event {target} is itself a {kind_at(target)}; a correction cannot undo it "
                             "(record the events again instead)", field=where)


def _may_be_large(data: dict[str, Any]) -> bool:
    """Only a list, an object or a long text can take a payload past MAX_PAYLOAD_BYTES (each value
    is bounded): the common small event skips encoding itself once more (bulk import's hot path)."""
    for v in data.values():
        if isinstance(v, (list, dict)) or (isinstance(v, str) and len(v) > 1_000):
            return True
    return len(data) > 40


class Match:
    def __init__(self, store: EventStore, match_id: str):
        self.store = store
        self.id = match_id
        self.replayer = Replayer(store, match_id)
        self.ruleset: Ruleset = self.replayer.ruleset
        self.created = self.replayer.created
        self.players: list[str] = list(self.created.payload["players"])
        # The table after the last event this object recorded: lets a live recorder judge the next
        # event without replaying. Only trusted while the log still ends where it did.
        self._live: TableState | None = None
        self._head: RecordedEvent | None = None
        self._validator: EventValidator | None = None
        self._known_rules: set[str] | None = None

    @classmethod
    def open(cls, store: EventStore, ref: str) -> "Match":
        return cls(store, store.resolve(ref))

    @classmethod
    def create(cls, store: EventStore, ruleset: str, players: Sequence[str], *,
               event: str | None = None, round: str | None = None, table: str | None = None,
               options: dict[str, Any] | None = None, match_id: str | None = None,
               recorded_by: str | None = None) -> "Match":
        draft = creation_draft(ruleset, players, event=event, round=round, table=table,
                               options=options, recorded_by=recorded_by)
        mid = check_match_id(match_id, field="id") if match_id is not None else new_match_id()
        store.create(mid, [draft])
        return cls(store, mid)

    # --- recording ------------------------------------------------------------------------

    @property
    def validator(self) -> "EventValidator":
        """The match's input checker (its ruleset and players never change: made once)."""
        if self._validator is None or self._validator.ruleset is not self.ruleset:
            self._validator = EventValidator(self.ruleset, self.players)
        return self._validator

    def draft(self, kind: str, payload: Any, *, actor: str = TABLE_ACTOR,
              recorded_by: str | None = None, recorded_at: str | None = None,
              head: int | None = None) -> Draft:
        """Validate one event's input. Raises InputError naming the field."""
        return self.validator.draft(
            kind, payload, actor=actor, recorded_by=recorded_by, recorded_at=recorded_at,
            head=head if head is not None else self.head_position(), kind_at=self.kind_at,
            corrections=self.corrections_after)

    def corrections_after(self, position: int) -> dict[int, StandingCorrection]:
        """The standing correction of each event after `position` (its corrections come after it:
        the log from there is read; asked only as a correction or a backup is drafted)."""
        return standing((e.position, e) for e in self.store.read(self.id, after=position))

    def kind_at(self, position: int) -> str | None:
        """The kind of event `position` as recorded (None: no such event): one row read. What a
        correction's replacement is checked against (same kind), and what the card resolver narrows
        a replacement's names by, in every recorder."""
        events = self.store.read(self.id, after=position - 1, upto=position)
        return events[0].kind if events else None

    def record(self, kind: str, payload: Any, *, actor: str = TABLE_ACTOR,
               recorded_by: str | None = None, strict: bool = False,
               expected_position: int | None = None) -> Recorded:
        """Validate, judge and append one event after the log's current end (or only after event
        `expected_position`). Returns it with the findings it raised.

        Without `expected_position`, losing a race to another writer is not an error: the event is
        judged again against the table as the other writer left it (caught up from the events it
        added, not replayed from the start) while this writer holds the log's write lock, so the
        retry cannot lose again (EventStore.append_locked)."""
        self.store.check_writable()
        head_event = self._head_event(refresh=expected_position is not None)
        if expected_position is not None and expected_position != head_event.position:
            raise ConflictError.stale(self.id, expected_position, head_event.position)
        try:
            draft = self.draft(kind, payload, actor=actor, recorded_by=recorded_by,
                               head=head_event.position)
            before, findings = self._judge(head_event, draft, strict)
        except InputError:
            if expected_position is not None:
                raise
            # judged against the end of the log this object remembers: another writer may have
            # added the event it names (a correction's target, a ruling's call) or voided the
            # time call a second one would repeat. Look again, under the lock.
            return self._record_locked(kind, payload, actor, recorded_by, strict)
        try:
            # Judged against the log as it ends at `head`: the store's unique key lets this land
            # only if nobody else took the next position meanwhile.
            (event,) = self.store.append_after(self.id, head_event, [draft])
        except ConflictError:
            self._head = None
            if expected_position is not None:
                raise
            return self._record_locked(kind, payload, actor, recorded_by, strict)
        return self._recorded(event, before, findings)

    def _record_locked(self, kind: str, payload: Any, actor: str, recorded_by: str | None,
                       strict: bool) -> Recorded:
        """The retry: under the log's write lock, against the head as it is now."""
        judged: dict[str, Any] = {}

        def prepare(head_event: RecordedEvent) -> list[Draft]:
            draft = self.draft(kind, payload, actor=actor, recorded_by=recorded_by,
                               head=head_event.position)
            judged["before"], judged["findings"] = self._judge(head_event, draft, strict)
            return [draft]

        (event,) = self.store.append_locked(self.id, prepare)
        return self._recorded(event, judged["before"], judged["findings"])

    def _judge(self, head_event: RecordedEvent, draft: Draft,
               strict: bool) -> tuple[TableState, list[Finding]]:
        """The table at the head, and what the judge says of the draft as the next event.
        InputError: a second time call (DESK-12), refused against this head."""
        before = self._table_at(head_event)
        probe = new_tuple(RecordedEvent, (self.id, head_event.position + 1, draft.kind, draft.version, draft.actor,
                                           draft.payload, "", draft.recorded_by, head_event.hash, "", None))
        late = self._check_time_call(probe, before.voided, head_event.position)
        try:
            findings = self.ruleset.check(before, probe, self._history(head_event.position))
        except Exception as err:  # noqa: BLE001 - a ruleset bug: recorded and flagged (DESK-10)
            findings = [failure_finding(head_event.position + 1, f"the ruleset could not judge this "
                                        f"{draft.kind}: {type(err).__name__}: {str(err)[:120]}")]
        findings = findings + self._desk_findings(probe, before.voided) + late
        if strict and any(f.severity == "error" for f in findings):
            raise StrictRefusal(findings)
        return before, findings

    def _history(self, head: int, more: Sequence[RecordedEvent] = (), log: Log | None = None) -> History:
        """What a check may ask of the events before a probe (`History`): the log up to `head`, then
        `more` (a batch's earlier events), as they count on the table; read only if a check asks,
        so recording the same words as replay says them costs nothing otherwise."""
        return lambda: as_played(self._log_upto(head, log) + list(more))

    def _log_upto(self, head: int, log: Log | None) -> list[RecordedEvent]:
        """Events 2..`head`: from `log` (a batch's, read once for all its items and checks:
        Match.judge_batch; it may run past `head`, so it is cut there), else read now."""
        if log is None:
            return self.store.read(self.id, after=1, upto=head)
        return [e for e in log() if 1 < e.position <= head]

    def _desk_findings(self, probe: RecordedEvent, voided: Iterable[int],
                       earlier: Sequence[RecordedEvent] = (), log: Log | None = None) -> list[Finding]:
        """The desk's checks of one event on its own (DESK-4, -5, -8, -11, -16), said as it is recorded
        on every path; replay's desk_findings says them again over the whole log, not Validation.
        A penalty is read against the game's penalty guide with the match's earlier penalties
        that still count (`voided`: those that do not; `earlier`: a batch's items before it), the
        same reading desk_findings makes later, so the two agree."""
        if self._known_rules is None:
            self._known_rules = known_rule_ids(r.id for r in self.ruleset.rules)
        if probe.kind != "judge.penalty":
            return event_desk_findings(probe, self._known_rules, players=self.players)
        from engine.penalty_guide import guide_for  # a penalty's path only: not every command's start-up

        guide, p = guide_for(self.ruleset.name), probe.payload
        penalties: list[RecordedEvent] = []
        if p.get("deviation") is None and p.get("suggested") is None and guide.infraction_of(p) is not None:
            # read against the guide (the desk's own `judge penalty` stores its verdict): the earlier
            # penalties are needed, and only then is the log read
            void = set(voided)
            penalties = [e for e in [*self._log_upto(probe.position - len(earlier) - 1, log), *earlier]
                         if e.kind == "judge.penalty" and e.position not in void]
        return event_desk_findings(probe, self._known_rules, guide, penalties)

    def _check_time_call(self, probe: RecordedEvent, voided: Iterable[int], head: int,
                         earlier: Sequence[RecordedEvent] = (), log: Log | None = None) -> list[Finding]:
        """Time is called once in a match (DESK-12): a `time.called` after one that still counts at
        `head` (or among `earlier`, the batch's items before it) is refused, nothing stored; so is
        a second end of a policy's extra minutes, or one before the call. Part of judging against
        the head, so a writer retrying under the lock checks it again. Returned: what is said of
        one recorded anyway (an end of the extra minutes long after the call, DESK-14)."""
        if probe.kind != "time.called":
            return []
        void = set(voided)
        calls = [e for e in [*self._log_upto(head, log), *earlier]
                 if e.kind == "time.called" and e.position not in void]
        policies = self.ruleset.extra_minutes_policies
        verdict = time_call_verdict(calls, probe, head, ruleset=self.ruleset.name, extra_minutes=policies)
        if verdict.refusal:
            reason, words = verdict.refusal
            raise TimeCallRefused(words, reason=reason, extra_minutes=policies,
                                  field="extra_minutes_over" if ends_extra_minutes(probe) else "clock")
        return verdict.warnings

    def _recorded(self, event: RecordedEvent, before: TableState, findings: list[Finding]) -> Recorded:
        # Every live append ends here right after its commit's fsync, CPU caches cold: an event
        # with no findings builds no list of them, and only a correction or a backup calls
        # _staled_by (two comprehensions and a call less: Match.record's simulated cold cost,
        # cachegrind with the caches flushed before each append, medians of 3-4 runs: 604.4k -> 594.6k
        # cycles; issue 17)
        self._head = event
        if findings:
            findings = [_at(f, event.position) for f in findings]
        if event.kind in VOIDING_KINDS:
            self._live = None  # the table must be rebuilt from before the voided events
            findings += self._staled_by([event])
        else:
            try:
                self.ruleset.apply(before, event)
                before.position = event.position
                self._live = before
            except Exception:  # noqa: BLE001 - stored; replay flags it (DESK-10) and goes on
                self._live = None
        return Recorded(event, findings)

    def _staled_by(self, stored: Sequence[RecordedEvent]) -> list[Finding]:
        """DESK-15, said as a correction or backup is recorded: the time decisions it leaves out of
        date (engine/decisions.py), with the command that decides again. Only a log that holds a
        decision is read again for it."""
        mine = {e.position for e in stored if e.kind in VOIDING_KINDS}
        if not mine:
            return []
        if not self.store.read_kinds(self.id, ("time.decision",)):
            return []  # no decision to leave out of date: the whole log is not read
        events = self.store.read(self.id)
        try:
            stale = stale_decisions(self.replayer, events)
        except Exception:  # noqa: BLE001 - the event is stored: never a traceback after it; verify says the rest
            return []
        return stale_findings({p: s for p, s in stale.items() if mine & {at for at, _ in s.by}}, self.id)

    def _table_at(self, head_event: RecordedEvent) -> TableState:
        """The table right after `head_event`: the one this object keeps, caught up with the
        events other writers added since (no replay from a snapshot), else replayed."""
        live, head = self._live, head_event.position
        if live is not None and live.position == head:
            return live
        if live is not None and live.position < head:
            newer = self.store.read(self.id, after=live.position, upto=head)
            if (newer and newer[-1].hash == head_event.hash and len(newer) == head - live.position
                    and not any(e.kind in VOIDING_KINDS for e in newer)):
                try:
                    for e in newer:
                        self.ruleset.apply(live, e)
                        live.position = e.position
                    return live
                except Exception:  # noqa: BLE001 - replay decides what an odd event does (DESK-10)
                    pass
        self._live = None
        return self.state(at=head)

    def _head_event(self, *, refresh: bool) -> RecordedEvent:
        if refresh or self._head is None:
            self._head = self.store.head(self.id)
            if self._head is None:
                raise StoreError(f"match {self.id} has no events")
        return self._head

    def record_many(self, drafts: Iterable[Draft], *, expected_position: int | None = None) -> list[RecordedEvent]:
        """Append already-validated drafts as one atomic batch."""
        return self.store.append(self.id, list(drafts), expected_position=expected_position)

    # --- a batch judged whole, stored in one transaction (a live recorder's line) ---------------

    def judge_batch(self, items: Sequence[tuple[str, Any, str]], *, after: RecordedEvent,
                    recorded_by: str | None = None, table: TableState | None = None) -> "Batch":
        """Validate and judge `items` ((kind, payload, actor), in order) as if appended right after
        event `after`, on a copy of the table (`table`: the table after `after`, if the caller has
        it); nothing is stored. An item naming an earlier item of the batch (a ruling answering a
        call on the same line) is understood.

        Raises BatchInputError (an InputError saying which item) on malformed input."""
        head = after.position
        mine: dict[int, str] = {}

        def kind_at(position: int) -> str | None:
            return mine[position] if position in mine else self.kind_at(position)

        drafts: list[Draft] = []
        # the log before the batch, read once: a correction or a backup asks for the corrections after
        # its target (each read the log again from there: k long reads for k of them), and the batch
        # holding one is then judged on a fold of the whole log; a time call, a penalty read against
        # the guide and a check asking the history read the same events (each read them again)
        log: list[RecordedEvent] | None = None

        def logged() -> list[RecordedEvent]:
            nonlocal log
            if log is None:
                log = self.store.read(self.id, after=1, upto=head)
            return log

        corrections = StandingAfter(lambda: ((e.position, e) for e in logged()))  # the log's, then the batch's
        for k, (kind, payload, actor) in enumerate(items):
            try:
                d = self.validator.draft(kind, payload, actor=actor, recorded_by=recorded_by,
                                         head=head + k, kind_at=kind_at, corrections=corrections)
            except InputError as e:
                raise BatchInputError(e, k) from None
            drafts.append(d)
            corrections.note(head + k + 1, d)
            mine[head + k + 1] = d.kind
        probes = [RecordedEvent(self.id, head + k + 1, d.kind, d.version, d.actor, d.payload, "",
                                d.recorded_by, "", "") for k, d in enumerate(drafts)]
        findings: list[list[Finding]] = []
        turns: list[tuple[int, int]] = []
        if any(d.kind in VOIDING_KINDS for d in drafts):
            # a void's effect needs the log before it: fold the whole log, then the batch
            from engine.replay import Fold
            fold = Fold(self.ruleset, self.created)
            for e in logged():
                fold.push(e)
            for k, e in enumerate(probes):
                late = self._check_batch_time_call(probes, k, fold.state.voided, head, logged)
                before = fold.state.turn
                found = fold.push(e, check=True) + self._desk_findings(e, fold.state.voided, probes[:k], logged) + late
                findings.append([_at(f, e.position) for f in found])
                turns.append((before, fold.state.turn))
            return Batch(drafts, findings, turns, fold.state, cacheable=False)
        live = table if table is not None and table.position == head else self._live
        table = live.copy() if live is not None and live.position == head else self.state(at=head)
        for k, e in enumerate(probes):
            late = self._check_batch_time_call(probes, k, table.voided, head, logged)
            before = table.turn
            earlier = probes[:k]
            found = self.ruleset.check(table, e, self._history(head, earlier, logged)) \
                + self._desk_findings(e, table.voided, earlier, logged) + late
            findings.append([_at(f, e.position) for f in found])
            self.ruleset.apply(table, e)
            table.position = e.position
            turns.append((before, table.turn))
        return Batch(drafts, findings, turns, table, cacheable=True)

    def _check_batch_time_call(self, probes: list[RecordedEvent], k: int, voided: Iterable[int],
                               head: int, log: Log) -> list[Finding]:
        try:
            return self._check_time_call(probes[k], voided, head, probes[:k], log)
        except InputError as e:
            raise BatchInputError(e, k) from None

    def store_batch(self, batch: "Batch", *, after: RecordedEvent) -> list[Recorded]:
        """Append a judged batch right after event `after`, in one transaction: every event of it
        or none. ConflictError (nothing stored) if another writer appended after `after` first."""
        events = self.store.append_after(self.id, after, batch.drafts)
        self._head = events[-1] if events else after
        self._live = batch.state if batch.cacheable and events else None
        out = [Recorded(e, f) for e, f in zip(events, batch.findings)]
        if out:
            out[-1].findings.extend(self._staled_by(events))
        return out

    # --- reading --------------------------------------------------------------------------

    def head_position(self) -> int:
        head = self.store.head(self.id)
        if head is None:
            raise StoreError(f"match {self.id} has no events")
        return head.position

    def events(self, upto: int | None = None) -> list[RecordedEvent]:
        return self.replayer.events(upto)

    def state(self, at: int | None = None, *, turn: int | None = None) -> TableState:
        if turn is not None:
            return self.replayer.state_at_turn(turn)
        return self.replayer.state_at(at)

    def validate(self, upto: int | None = None) -> Validation:
        return self.replayer.validate(upto)

    def summary(self) -> dict[str, Any]:
        p = self.created.payload
        return {"id": self.id, "ruleset": p["ruleset"], "players": p["players"],
                "event": p.get("event"), "round": p.get("round"), "table": p.get("table"),
                "events": self.head_position(), "created_at": self.created.recorded_at}


class BatchInputError(InputError):
    """Malformed input in item `item` (0-based) of a batch: nothing of the batch is stored."""

    def __init__(self, error: InputError, item: int):
        super().__init__(error.message, field=error.field, where=error.where)
        self.item = item


@dataclass
class Batch:
    """A batch judged on a copy of the table: the drafts, each one's findings, the turn number
    before and after each, and the table after the last."""

    drafts: list[Draft]
    findings: list[list[Finding]]
    turns: list[tuple[int, int]]
    state: TableState
    cacheable: bool = True  # the table may serve as the match's cached live table once stored

    def errors(self) -> list[tuple[int, list[Finding]]]:
        """(item, its error findings) for every item the rules would flag as an error."""
        return [(k, [f for f in fs if f.severity == "error"]) for k, fs in enumerate(self.findings)
                if any(f.severity == "error" for f in fs)]


def _at(f: Finding, position: int) -> Finding:
    return replace(f, position=position)
