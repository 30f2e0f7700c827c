"""The ruleset plug-in interface.

A ruleset is one package under engine/rulesets/ that sets `RULESET = <a Ruleset subclass>`. It declares
its zones, counters, event vocabulary (payload classes), its rule catalogue (every rule of its
rulebook with id, section, status and the rulebook's words) and named options; and it implements:

- `new_state(created)`: the table right after `match.created`;
- `apply(state, event)`: change the state by one event (never refuses: the event happened);
- `check(state, event, history=None) -> [Finding]`: judge the event against the state *before* it
  (`history`: see `History`; a `check_<kind>` gets it by naming a `history` parameter);
- `check_deck(...)`: deck-construction checks;
- `outcome(state)`: who won and how, once the game is over;
- `end_of_time(...)`: the ruleset's end-of-time procedure;
- `hide(kind, payload)`: the event as a scorekeeper records it without seeing hidden cards.

`apply` and `check` dispatch by kind to methods named `apply_<kind>` and `check_<kind>` (dots in the
kind become underscores), so a ruleset writes one small method per event kind.
"""
from __future__ import annotations

import hashlib
import inspect
import sys
from dataclasses import dataclass, field
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine.canonical import canonical_bytes
from engine.catalogue import Option  # noqa: F401 (a plug-in's import: engine.rulesets.base.Option)
from engine import replacing
from engine.desk import describe_desk_event
from engine.events import CORE_KINDS, RecordedEvent
from engine.findings import Finding, Rule, finding
from engine.schema import DEFAULT_MAX_CARDS, Payload, shown
from engine.state import STATE_FORMAT, TableState
from engine.timefacts import Fact
from engine.words import say

History = Callable[[], "Sequence[RecordedEvent] | None"]
"""What a check may ask of the events before the one it judges: called (only when a check needs it,
so judging pays nothing otherwise), it gives those events as they count on the table, in order (a
voided event left out, a correction's replacement in its target's place, at its position), or None
when they are not known (a fold started from a snapshot). Kept out of the table: `TableState` holds
no event positions, and giving it some would change every state hash that decisions and snapshots
stand on. A position is no hidden information (a viewer's log shows every event's), so a finding
may name one. (QA76 #6: the set-up check names the placement to correct.)"""


@dataclass
class Outcome:
    """How a game ended. `result` is "win", "draw" or "double-loss"; `explanation` is in words."""

    result: str
    winner: str | None
    how: str
    explanation: list[str] = field(default_factory=list)
    rule: str = ""  # the rule that ended it (a rule id of the ruleset), when there is one
    position: int | None = None  # the event that ended it
    # a match of several games (a ruleset whose log holds the whole match): the games each player
    # won and the games drawn, which a tournament result counts; None: the log is one game
    score: dict[str, int] | None = None
    drawn: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = {"result": self.result, "winner": self.winner, "how": self.how,
               "explanation": self.explanation, "rule": self.rule, "position": self.position}
        if self.score is not None:
            out.update(score=dict(self.score), drawn=self.drawn)
        return out


@dataclass
class Decision:
    """An end-of-time decision. `result`: "win", "draw", "double-loss", or "continue" (the procedure
    says play on, e.g. sudden death); `branch` names the procedure's case; `steps` explain it in
    words; `rule`/`quote` cite the rulebook (or the policy's source), `en` renders the quote in
    English when it is in another language, `source` says where the quote comes from."""

    result: str
    winner: str | None
    branch: str
    steps: list[str]
    rule: str
    quote: str = ""
    policy: str = ""
    en: str = ""
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "winner": self.winner, "branch": self.branch,
                "steps": self.steps, "rule": self.rule, "quote": self.quote, "policy": self.policy,
                "en": self.en, "source": self.source}


class Ruleset:
    name: ClassVar[str]
    title: ClassVar[str]
    rulebook: ClassVar[str] = ""  # file name under shared/rulebooks/, or "" for none
    version: ClassVar[int] = 1  # bump when apply() or the state layout changes (invalidates snapshots)
    zones: ClassVar[tuple[str, ...]] = ()
    # The most cards any count in this game's events may name (a draw, a deck's size, a setup):
    # the cards a player brings to the table, with a margin. Input beyond it is refused; a stored
    # event beyond it (from an older version) is kept but not replayed (engine/replay.py).
    max_cards: ClassVar[int] = DEFAULT_MAX_CARDS
    counters: ClassVar[dict[str, int]] = {}
    kinds: ClassVar[tuple[type[Payload], ...]] = ()
    rules: ClassVar[tuple[Rule, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, options: dict[str, Any] | None = None):
        self.opts = self.resolve_options(options or {})
        self._rules_by_id = {r.id: r for r in self.rules}
        self._appliers: dict[str, Any] = {}  # kind -> its apply_ method (or None): replay's hot path
        self._checkers: dict[str, Any] = {}  # kind -> (its check_ method or None, takes history?): recording's

    # --- declarations ---------------------------------------------------------------------

    @classmethod
    def vocabulary(cls) -> dict[str, type[Payload]]:
        vocab = dict(CORE_KINDS)
        for k in cls.kinds:
            vocab[k.kind] = k
        return vocab

    @classmethod
    def resolve_options(cls, given: dict[str, Any]) -> dict[str, Any]:
        known = {o.name: o for o in cls.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            names = ", ".join(known) or "none"
            raise ValueError(f"ruleset {shown(cls.name)} has no option {shown(unknown[0])} (options: {names})")
        out = {}
        for name, opt in known.items():
            value = given.get(name, opt.default)
            if opt.choices and value not in opt.choices:
                raise ValueError(f"option {shown(name)} of ruleset {shown(cls.name)} must be one of "
                                 f"{', '.join(map(str, opt.choices))}, got {shown(value)}")
            out[name] = value
        return out

    def snapshot_key(self) -> str:
        """Snapshots are only valid for the same ruleset code, state layout and options."""
        opts = hashlib.sha256(canonical_bytes(self.opts)).hexdigest()[:8]
        return f"{self.name}@{self.version}.{STATE_FORMAT}.{opts}"

    @classmethod
    def limit_checks(cls) -> dict[str, type[Payload]]:
        """The kinds whose stored payloads replay must check against the limits: those with counts
        (or a check of their own). Computed once per ruleset class."""
        checks = cls.__dict__.get("_limit_checks")
        if checks is None:
            checks = {k: c for k, c in cls.vocabulary().items()
                      if c.count_fields or c.stored_limit_problem.__func__ is not Payload.stored_limit_problem.__func__}
            cls._limit_checks = checks
        return checks

    @classmethod
    def limit_problem(cls, event: RecordedEvent) -> str | None:
        """Why a stored event is beyond this game's limits (it was recorded by an older version that
        did not check them), or None. Cheap: only kinds with counts are looked at."""
        kind_cls = cls.limit_checks().get(event.kind)
        if kind_cls is None or not isinstance(event.payload, dict):
            return None
        return kind_cls.stored_limit_problem(event.payload, cls.max_cards)

    def rule(self, rule_id: str) -> Rule:
        return self._rules_by_id[rule_id]

    def flag(self, rule_id: str, event: RecordedEvent, message: str, *,
             severity: str = "error") -> Finding:
        """A finding citing one of this ruleset's rules."""
        return finding(self.rule(rule_id), event.position, message, severity=severity,  # type: ignore[arg-type]
                       source=self.rulebook)

    # --- the game -------------------------------------------------------------------------

    def new_state(self, created: RecordedEvent) -> TableState:
        p = created.payload
        labels = {k: p[k] for k in ("event", "round", "table") if p.get(k) is not None}
        state = TableState.new(self.name, p["players"], list(self.zones), dict(self.counters), labels)
        state.position = created.position
        return state

    def apply(self, state: TableState, event: RecordedEvent) -> None:
        try:
            handler = self._appliers[event.kind]
        except KeyError:
            handler = self._appliers[event.kind] = getattr(self, "apply_" + event.kind.replace(".", "_"), None)
        if handler is not None:
            handler(state, event)

    def check(self, state: TableState, event: RecordedEvent, history: History | None = None) -> list[Finding]:
        try:
            handler, wants = self._checkers[event.kind]
        except KeyError:
            handler = getattr(self, "check_" + event.kind.replace(".", "_"), None)
            wants = handler is not None and "history" in inspect.signature(handler).parameters
            self._checkers[event.kind] = handler, wants
        if handler is None:
            return []
        return list((handler(state, event, history) if wants else handler(state, event)) or [])

    def check_deck(self, player: str, cards: list[str], card_db: Any = None) -> list[Finding]:
        return []

    def outcome(self, state: TableState) -> Outcome | None:
        return None

    def unsettled(self, state: TableState) -> str | None:
        """When there is no outcome: how the record says the game stopped anyway (a player left the
        game, an uncertain loss), in words, for `state` and the report's header. None: it does not say."""
        return None

    def games_per_match(self) -> int:
        """How many games a match may hold (a best of three: 3)."""
        return 1

    def game_ends(self, state: TableState) -> list[Outcome]:
        """Every game of the match that is over, in order (the live recorder announces each as it
        happens). One game per match by default: the outcome, once there is one; a best-of-three
        (op2009) lists each game."""
        o = self.outcome(state)
        return [o] if o is not None else []

    # The end-of-time policies that give extra minutes after the call, whose end the judge records
    # (a `time.called` marked `extra_minutes_over`), each with how many minutes it gives (an end
    # recorded long after them is flagged, DESK-14); none: such a mark is refused when recorded.
    extra_minutes_policies: ClassVar[Mapping[str, int]] = {}

    @property
    def has_end_of_time(self) -> bool:
        """Whether this ruleset decides a match at the end of time (overrides `end_of_time`)."""
        return type(self).end_of_time is not Ruleset.end_of_time

    def end_of_time(self, state: TableState, events: list[RecordedEvent], *,
                    policy: str | None = None) -> Decision:
        """Decide the match when time is called. `state` is the table now, `events` the whole log
        (a `time.called` event among them marks when), as recorded: a procedure reads it as
        corrected through `engine.replay.as_played` (a void left out, a replaced event as its
        correction has it read), so it judges the table `state` is. Rulesets override this."""
        raise NotImplementedError(f"ruleset {shown(self.name)} has no end-of-time procedure")

    # What the judge reads off the table when time is called on a match nobody recorded event by
    # event (engine/timefacts.py): the facts the procedure needs, and the table they describe. The
    # decision then comes from `end_of_time` itself, so a recorded match and a table read by a judge
    # are decided by one piece of code.
    time_facts: ClassVar[tuple[Fact, ...]] = ()
    # The end-of-time policies a judge may choose (`timelimit --policy`), the default first; the web
    # offers them (none: the ruleset's one procedure)
    time_policies: ClassVar[tuple[str, ...]] = ()

    def table_from_facts(self, created: RecordedEvent, facts: dict[str, Any]) -> TableState:
        """The table the facts describe (the match's players and options from `created`)."""
        raise NotImplementedError(f"ruleset {shown(self.name)} cannot decide from facts read off the table")

    def logged_facts(self, state: TableState, events: Sequence[RecordedEvent] = (),
                     given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Of `time_facts`, those the log knows on `state` (the recorded table now; `events`: the
        game's log, decisions left out, for what the table alone does not say, such as the turns
        since the time call), as parsed facts are ("each": {player: n}, a player known alone where
        another's count is not): a judge's --facts that say otherwise are refused (record, then
        judge), before the decision asks for any fact it lacks. Hidden or unrecorded counts are left
        out, and so accepted as read. `given`: the judge's facts, where they say the table is past
        the point the log stops at (optcg: more turns played), so that the log's counts are not that
        table's; a sentence saying so goes under `timefacts.LOG_NOTE`. By default the log knows none."""
        return {}

    def end_of_time_from_facts(self, created: RecordedEvent, facts: dict[str, Any], *,
                               policy: str | None = None) -> Decision:
        """The end-of-time decision for a table the judge read (`facts`, parsed against
        `time_facts`). By default the procedure of a recorded match on the table they describe."""
        return self.end_of_time(self.table_from_facts(created, facts), [], policy=policy)

    def hide(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """The payload as a scorekeeper who cannot see hidden cards would record it: every card
        identity nobody at the table shows (draws, hands, Life cards, deck order, face-down cards)
        becomes an unknown card (a count), and everything visible stays (plays, reveals, attacks,
        damage, counts). The invariant every ruleset keeps: replaying the hidden log never adds a
        finding and never changes the outcome. Used by the hidden-information tests, and by any
        output shown to someone who may not see hands. The default hides nothing: a ruleset whose
        events name hidden cards overrides it."""
        return payload

    def turn_label(self, state: TableState) -> str:
        """How reports name the turn in progress ("3"; a best-of-three says "G2 T3")."""
        return str(state.turn)

    def summary_lines(self, state: TableState) -> list[str]:
        """Extra lines for `tablejudge state` (DON!!, derived power, scores...): ruleset-specific."""
        return []

    def key_counters(self, state: TableState) -> dict[str, dict[str, int]]:
        """The counters a report charts across turns, per player (Life, points, ...)."""
        return {p: dict(state.counters[p]) for p in state.players}

    def describe_at(self, before: TableState | None, after: TableState | None, event: RecordedEvent) -> str:
        """The event in words with what the table knew around it (a damage step with both powers and
        its outcome, say), for reports and appeals. By default what the payload alone says."""
        return self.describe(event)

    def describe(self, event: RecordedEvent) -> str:
        """The event in plain words, for timelines and reports. A game's simple words are the
        templates of its package's words.toml (engine/words.py); its describe() says the rest in
        code and ends with super().describe()."""
        p = event.payload
        words = say(sys.modules[type(self).__module__].__package__ or "", event.kind, p,
                    self.vocabulary().get(event.kind))
        if words is not None:
            return words
        if event.kind == "match.created":
            return f"match created ({self.title}): {' vs '.join(p['players'])}"
        replaced = replacing.describe(event, self.describe)  # a correction saying what N should read
        if replaced is not None:
            return replaced
        desk_words = describe_desk_event(event.kind, p, event.actor)  # judge actions, clock, slips
        if desk_words is not None:
            return desk_words
        fields = ", ".join(f"{k}={v}" for k, v in p.items())
        return f"{event.kind} {fields}".strip()
