"""The desk's suggestion from the penalty guide (engine/penalty_guide.py), with what needs the store:
the player's earlier penalties across the whole event, and a penalty given with its suggestion.

    s = suggest_for(match, "Bob", "Looking at Unnecessary Cards")  # Bob's earlier penalties in the event
    s.penalty, s.steps                                # "Game Loss" on a second offence; why, quoted
    give_penalty(match, player="Bob", infraction=s.infraction, penalty="Warning", actor="judge:Kim")

What is stored: the `judge.penalty` event names the infraction's id (`guide`), the penalty the desk
suggested (`suggested`) and, when the judge's penalty departs from the guide, the desk's words
(`deviation`), which the desk's check DESK-11 shows as a finding. The suggestion is a fact of the
moment it was given: later penalties elsewhere do not change it. A penalty recorded any other way
(`log`, `live`, the recorder, an import) has no suggestion stored: DESK-11 reads it against the
guide from the match's own log (engine.penalty_guide.Guide.unsaid_deviation).
"""
from __future__ import annotations

from typing import Any

from engine.match import InputError, Match, Recorded
from engine.penalty_guide import Infraction, Prior, Suggestion, day_of, guide_for, suggest
from engine.schema import shown
from engine.store import EventStore
from judge.desk.actions import record  # the desk's one way to record a desk event, with its notices

# --- the player's earlier penalties -------------------------------------------------------------


def earlier_penalties(store: EventStore, match: Match, player: str, *, day: str | None = None) -> list[Prior]:
    """The player's penalties that still count in the match's event: every match whose
    `match.created` names the same event (a tournament, by its id or its name: `same_event`; or the
    same free `--event` label), or this match
    alone when it names none. `day` (YYYY-MM-DD): only penalties recorded that UTC day (a guide that
    counts per day). A penalty voided by a correction or backed out does not count."""
    from judge.tournament.tablematch import same_event  # the tournament's labels, read as its tables read them
    event = match.created.payload.get("event")
    ours = None if event is None else same_event(store, event)
    found: dict[str, list[Any]] = {}
    start = 1
    while True:  # the notification log, penalties only (its topic is the kind: one indexed pass)
        page = store.notifications(start, 500, kinds=["judge.penalty"])
        for _, e in page:
            if e.payload.get("player") != player or (day and day_of(e.recorded_at) != day):
                continue
            same = e.match == match.id or (ours is not None and ours(store.created(e.match).payload.get("event")))
            if same:
                found.setdefault(e.match, []).append(e)
        if len(page) < 500:
            break
        start = page[-1][0] + 1
    out = []
    for mid, events in found.items():
        m = match if mid == match.id else Match(store, mid)
        voided = set(m.state().voided)
        labels = {k: m.created.payload.get(k) for k in ("round", "table")}
        guide = guide_for(m.ruleset.name)
        out += [Prior.of(e, guide, labels) for e in events if e.position not in voided]
    return sorted(out, key=lambda p: (p.recorded_at, p.match, p.position))


def suggest_for(match: Match, player: str, inf: Infraction | str, *, minutes_late: int | None = None,
                now: str | None = None) -> Suggestion:
    """The suggestion for `player` in `match`, their earlier penalties read from the log (across the
    match's event, or that day's, as the match's guide counts)."""
    guide = guide_for(match.ruleset.name)
    if isinstance(inf, str):
        inf = guide.find(inf)
    if player not in match.players:
        raise InputError(f"{shown(player)} does not play in match {match.id} ({', '.join(match.players)})",
                         field="player")
    day = day_of(now) if guide.count_scope == "day" else None
    return suggest(guide, inf, player, earlier_penalties(match.store, match, player, day=day),
                   minutes_late=minutes_late, linked=match.created.payload.get("event") is not None)


def give_penalty(match: Match, *, player: str, infraction: Infraction | str, penalty: str, actor: str,
                 reason: str | None = None, minutes_late: int | None = None,
                 recorded_by: str | None = None) -> tuple[Recorded, Suggestion]:
    """Record a penalty from the guide: the suggestion is computed now, and stored with it, with the
    deviation if the penalty departs from it (DESK-11)."""
    s = suggest_for(match, player, infraction, minutes_late=minutes_late)
    deviation = s.deviation(penalty)
    payload = {"player": player, "penalty": penalty, "infraction": s.infraction.category,
               "policy": s.guide.policy, "reason": reason or None, "minutes_late": minutes_late,
               "guide": s.infraction.id, "suggested": s.penalty, "deviation": deviation}
    return record(match, "judge.penalty", payload, actor=actor, recorded_by=recorded_by), s


def render_suggestion(s: Suggestion, given: str | None = None) -> str:
    """The suggestion in words, for the terminal."""
    lines = [f"{s.player}, {s.infraction.name} [{s.infraction.id}]: the guide suggests {s.penalty}"
             + ("" if s.penalty == s.floor else f" (at least {s.floor})"),
             f"  guide: {s.guide.document} ({s.guide.document_date})"]
    lines += [f"  {i}. {step}" for i, step in enumerate(s.steps, 1)]
    if given is not None:
        d, up = s.deviation(given), s.above(given)
        lines.append(f"  given: {given}" + (f" — DEVIATION (DESK-11): {d}" if d else f" — {up}" if up
                                             else " (within the guide)"))
    return "\n".join(lines)
