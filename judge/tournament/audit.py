"""The tournament's audit trail in words: who changed what, when and why (every write is an
event; overrides and voided events are marked)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import RecordedEvent
from engine.words import plural, say

from judge.tournament.standings import slip_text
from judge.tournament.vocab import KINDS

OVERRIDE_KINDS = frozenset({"pairing.swapped", "decision.recorded", "correction"})


def _slip(p: dict[str, Any]) -> str:
    return slip_text(p) + (" (a match loss for both)" if p.get("double_loss") else "")


def _round_words(round_no: int, position: int, events: Sequence[RecordedEvent]) -> str:
    """`round 4`, or a top-cut round by its name: `Quarterfinals (round 9)` (from the pairing the
    result follows, looked for backwards from the result)."""
    for i in range(min(position, len(events)) - 2, -1, -1):
        x = events[i]
        if x.kind == "round.paired" and x.payload.get("round") == round_no:
            if x.payload.get("stage") == "elimination":
                return f"{x.payload.get('name')} (round {round_no})"
            break
    return f"round {round_no}"


def describe(e: RecordedEvent, events: Sequence[RecordedEvent] = ()) -> str:
    """One event in a sentence."""
    p = e.payload
    k = e.kind
    words = say(__package__, k, p, KINDS.get(k))
    if words is not None:
        return words
    if k == "tournament.created":
        return f"created {p['name']} ({p['game']}, policy {p.get('policy', 'mtg')}, {p.get('rounds') or 'open'} rounds" + (
            f", top {p['top_cut']})" if p.get("top_cut") else ")")
    if k == "player.registered":
        return f"registered {p['player']}" + (f" (id {p['player_id']})" if p.get("player_id") else "") + (
            ", with a decklist" if p.get("decklist") else "")
    if k == "round.paired":
        return f"paired {p['name']} ({len(p['pairings'])} pairings)"
    if k == "result.recorded":
        how = {"slip": "", "match": " from recorded matches", "players": " (both players agreed)",
               "judge": " (a judge's decision)"}.get(p.get("source", "slip"), "")
        return (f"{_round_words(p['round'], e.position, events)} table {p['table']}: "
                f"{p['player1']} {_slip(p)} {p['player2']}{how}"
                + (" — format override" if p.get("format_override") else "")
                + (f" — {p['reason']}" if p.get("reason") else ""))
    if k == "pairing.swapped":
        return f"round {p['round']}: {p['players'][0]} and {p['players'][1]} swapped seats — {p['reason']}"
    if k == "round.sealed":
        heads = p.get("heads") or []
        return (f"sealed round {p['round']} ({len(heads)} stream{'s' if len(heads) != 1 else ''}): "
                f"tj-seal:{e.match}/{p['round']}:{str(p.get('seal'))[:16]}...")
    if k == "round.matches":
        if p.get("source") == "match new":
            (m,) = p["matches"]
            return f"round {p['round']}: table {m['table']}'s recorded match {m['match']} linked (made with match new, {p['ruleset']})"
        linked = sum(1 for m in p["matches"] if m.get("linked"))  # an event before the mark: all read as created
        n = plural(len(p["matches"]), "recorded match", "recorded matches")
        if not linked:
            return f"round {p['round']}: created {n} ({p['ruleset']})"
        return f"round {p['round']}: {n} ({len(p['matches']) - linked} created, {linked} linked) ({p['ruleset']})"
    if k == "correction":
        target = events[p["voids"] - 1] if 0 < p["voids"] <= len(events) else None
        what = f" ({describe(target, events)})" if target is not None else ""
        return f"voided event {p['voids']}{what} — {p['reason']}"
    return k


def audit_rows(events: Sequence[RecordedEvent], *, round_no: int | None = None) -> list[dict[str, Any]]:
    """Every event as a row (newest last): position, when, actor, recorded_by, words, voided,
    override. `round_no`: only the events about that round.

    An override: a manual swap, a decision, a voided event, a judge's decision, a format override,
    a result recorded with a reason (an overwrite), and a result entered at the desk that differs
    from a player's report standing then (it overrides what a player said, or settles a dispute)."""
    voided = {e.payload["voids"] for e in events if e.kind == "correction"}
    said: dict[tuple[int, int], dict[str, str]] = {}  # (round, table) -> player -> report, table order
    rows = []
    for e in events:
        against: list[str] = []
        if e.kind == "result.reported" and e.position not in voided:
            said.setdefault((e.payload["round"], e.payload["table"]), {})[e.payload["player"]] = _slip(e.payload)
        elif e.kind == "result.recorded" and e.payload.get("source", "slip") == "slip":
            reported = said.get((e.payload["round"], e.payload["table"]), {})
            against = [f"{who} reported {s}" for who, s in reported.items() if s != _slip(e.payload)]
        if round_no is not None:
            r = e.payload.get("round")
            if e.kind == "correction":
                t = events[e.payload["voids"] - 1] if 0 < e.payload["voids"] <= len(events) else None
                r = t.payload.get("round") if t is not None else None
            if r != round_no:
                continue
        text = describe(e, events) + (f" — not as reported ({'; '.join(against)})" if against else "")
        rows.append({"position": e.position, "at": e.recorded_at, "kind": e.kind, "actor": e.actor,
                     "by": e.recorded_by, "text": text, "voided": e.position in voided,
                     "override": e.kind in OVERRIDE_KINDS or bool(against) or (e.kind == "result.recorded" and (
                         e.payload.get("source") == "judge" or e.payload.get("format_override")
                         or bool(e.payload.get("reason"))))})
    return rows
