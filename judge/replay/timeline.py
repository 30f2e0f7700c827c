"""A match walked event by event, as a replay shows it: each event in words (who recorded it, and
when), the board after it, the findings it raised, judge actions marked, voided events struck.

    tl = walk(match, hidden=True)    # what a scorekeeper or a spectator may see
    tl.to_data()                     # plain JSON for the viewer (web page or saved file)

`hidden=True` folds the log as `Ruleset.hide(kind, payload)` leaves each event: a card nobody at
the table shows is "a card" on every board, in every description and in every finding (the
findings are those of the hidden log: hiding never adds one, per each ruleset's invariant). The
staff's view (`hidden=False`) shows the log as recorded."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.decisions import not_decided_words
from engine.desk import DESK_RULES, JUDGE_ACTION_KINDS, describer, find_time_called
from engine.events import RecordedEvent, recorder_words
from engine.findings import Finding
from engine.match import Match
from engine.names import names_now, shown_players
from engine.notation.lexer import SEATS
from engine.replay import Fold
from engine.state import TableState
from judge.desk.review import review
from judge.replay.board import board, codes_on
from judge.replay.hiding import hide_event
from judge.replay.names import card_names

_DESK_RULES = {r.id: r for r in DESK_RULES}


@dataclass
class Timeline:
    match: dict[str, Any]
    events: list[dict[str, Any]]
    boards: list[dict[str, Any]]            # boards[i]: the table right after events[i]
    findings: list[dict[str, Any]]
    names: dict[str, str] = field(default_factory=dict)
    state: Any = None                       # the table after the last event (not in to_data)
    # not in to_data either: the desk's reads of the walk, kept so a re-render asks the log nothing
    time_called: int | None = None          # the time call that counts (engine.desk.find_time_called)
    stale: dict[int, Any] = field(default_factory=dict)  # the stale time decisions (review's)

    @property
    def head(self) -> int:
        return self.events[-1]["p"] if self.events else 0

    def turns(self) -> list[dict[str, Any]]:
        """The first event of each turn (for "jump to a turn")."""
        out: list[dict[str, Any]] = []
        for e, b in zip(self.events, self.boards):
            if b["turn"] and (not out or out[-1]["turn"] != b["turn"]):
                out.append({"turn": b["turn"], "label": b["turn_label"], "position": e["p"], "active": b["active"]})
        return out

    def to_data(self) -> dict[str, Any]:
        return self.data_from(1)

    def data_from(self, position: int) -> dict[str, Any]:
        """The viewer's data from event `position` on (a live page asks only for what is new; the
        findings, the voided events and the names are whole: a later event may change them)."""
        k = max(position, 1) - 1
        return {"format": 1, "from": k + 1, "match": self.match, "events": self.events[k:],
                "boards": self.boards[k:], "findings": self.findings, "names": self.names,
                "voided": [e["p"] for e in self.events if e["void"]], "turns": self.turns()}


def as_known_to(match: Match, recorded_by: str, log: list[RecordedEvent]) -> list[RecordedEvent]:
    """The log as one recorder's link knows it: hidden cards hidden (hide_event), except in the
    events that link recorded itself: it typed the cards they name (a draw it saw), so it may see
    them again. What others recorded of hidden cards never comes through."""
    return [e if e.recorded_by == recorded_by else hide_event(match, e) for e in log]


def table_known_to(match: Match, recorded_by: str, log: list[RecordedEvent] | None = None) -> TableState:
    """The table now as one recorder's link knows it (as_known_to folded): what its buttons offer
    and what a card name it types may be narrowed by, so neither learns another link's hidden cards."""
    log = log if log is not None else match.events()
    return match.replayer.fold(None, 1, as_known_to(match, recorded_by, log)[1:])[0]


def walk(match: Match, *, hidden: bool, boards: bool = True, event_db: str | None = None,
         events: list[RecordedEvent] | None = None) -> Timeline:
    rs = match.ruleset
    r = review(match, hidden=hidden, events=events)  # the viewer's log, findings and outcome
    log, validation, standing, outcome = r.events, r.validation, r.standing, r.outcome
    players = match.players
    seats = {p: SEATS[i] for i, p in enumerate(players)}
    state = validation.state
    snaps: list[dict[str, Any]] = []
    if boards:
        fold = Fold(rs, match.created)
        snaps.append(board(fold.state, rs, seats))
        for e in log[1:]:
            fold.push(e)
            b = board(fold.state, rs, seats)
            # a step's table holds the decision it applied; from the correction that left it out
            # of date on, it is no result (QA74 N3)
            b["result"], b["not_decided"] = standing.result(b["result"], match.id, at=e.position)
            snaps.append(b)
    voided = set(state.voided)
    desk = r.desk
    judged = [(f, validation.is_void(f)) for f in validation.findings] + [(f, f.position in voided) for f in desk]
    findings = [_finding_row(rs, f, void) for f, void in sorted(judged, key=lambda fv: (fv[0].position, fv[0].rule))]
    describe = describer(rs.describe)
    rows = []
    for e in log:
        try:
            text = describe(e)
        except Exception:  # noqa: BLE001 - words are not worth a failed page
            text = e.kind
        rows.append({"p": e.position, "kind": e.kind, "actor": e.actor, "seat": seats.get(e.actor, ""),
                     "text": text, "by": recorder_words(e.recorded_by), "at": e.recorded_at,
                     "judge": e.kind in JUDGE_ACTION_KINDS or e.actor.startswith("judge:"),
                     "void": e.position in voided})
    p = match.created.payload
    info = {"id": match.id, "ruleset": rs.name, "title": rs.title, "players": players, "seats": seats,
            "shown": shown_players(names_now(state)),  # as named now: "X (seat Player 2)"
            "labels": {k: p.get(k) for k in ("event", "round", "table") if p.get(k) is not None},
            "head": log[-1].position, "hidden": hidden, "zones": list(rs.zones),
            "outcome": outcome.to_dict() if outcome else None,
            "not_decided": None if outcome else not_decided_words(r.stale, match.id)}
    codes = set().union(*(codes_on(b) for b in snaps)) if snaps else set()
    called = find_time_called(log, voided)
    return Timeline(info, rows, snaps, findings, card_names(codes, state, rs, event_db), state,
                    called.position if called else None, r.stale)


def _finding_row(rs: Any, f: Finding, void: bool) -> dict[str, Any]:
    rule = rs._rules_by_id.get(f.rule) or _DESK_RULES.get(f.rule)
    return {"rule": f.rule, "severity": f.severity, "p": f.position, "message": f.message,
            "section": f.section, "quote": f.quote, "en": getattr(rule, "en", "") or "",
            "title": getattr(rule, "title", "") or "", "void": void}
