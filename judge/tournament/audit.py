"""The tournament's audit trail in words: who changed what, when and why (every write is an
event; overrides and voided events are marked)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.events import RecordedEvent

OVERRIDE_KINDS = frozenset({"pairing.swapped", "decision.recorded", "correction"})


def _slip(p: dict[str, Any]) -> str:
    return f"{p['wins1']}-{p['wins2']}-{p.get('draws', 0)}"


def describe(e: RecordedEvent, events: Sequence[RecordedEvent] = ()) -> str:
    """One event in a sentence."""
    p = e.payload
    k = e.kind
    if k == "tournament.created":
        return f"created {p['name']} ({p['game']}, policy {p.get('policy', 'mtg')}, {p.get('rounds') or 'open'} rounds" + (
            f", top {p['top_cut']})" if p.get("top_cut") else ")")
    if k == "player.registered":
        return f"registered {p['player']}" + (f" (id {p['player_id']})" if p.get("player_id") else "") + (
            ", with a decklist" if p.get("decklist") else "")
    if k == "player.dropped":
        return f"dropped {p['player']}" + (f": {p['reason']}" if p.get("reason") else "")
    if k == "bye.granted":
        return f"bye for {p['player']} in round {p['round']}" + (f": {p['reason']}" if p.get("reason") else "")
    if k == "round.paired":
        return f"paired {p['name']} ({len(p['pairings'])} pairings)"
    if k == "result.recorded":
        how = {"slip": "", "match": " from recorded matches", "players": " (both players agreed)",
               "judge": " (a judge's decision)"}.get(p.get("source", "slip"), "")
        return (f"round {p['round']} table {p['table']}: {p['player1']} {_slip(p)} {p['player2']}{how}"
                + (" — format override" if p.get("format_override") else "")
                + (f" — {p['reason']}" if p.get("reason") else ""))
    if k == "result.reported":
        return f"round {p['round']} table {p['table']}: {p['player']} reported {_slip(p)} (table order)"
    if k == "round.closed":
        return f"closed round {p['round']}"
    if k == "pairing.swapped":
        return f"round {p['round']}: {p['players'][0]} and {p['players'][1]} swapped seats — {p['reason']}"
    if k == "clock.started":
        return f"round {p['round']} clock started: {p['minutes']} minutes"
    if k == "clock.extended":
        return f"round {p['round']} table {p['table']}: +{p['minutes']} min" + (f" ({p['reason']})" if p.get("reason") else "")
    if k == "clock.time_called":
        return f"round {p['round']} table {p['table']}: time called"
    if k == "decision.recorded":
        return f"answered warning {p['warning']}: {p['choice']} — {p['reason']}"
    if k == "access.granted":
        return f"minted a {p['role']} link for {p['name']} (link {p['token_id']})"
    if k == "access.revoked":
        return f"revoked link {p['token_id']}" + (f": {p['reason']}" if p.get("reason") else "")
    if k == "round.matches":
        return f"round {p['round']}: created {len(p['matches'])} recorded matches ({p['ruleset']})"
    if k == "correction":
        target = events[p["voids"] - 1] if 0 < p["voids"] <= len(events) else None
        what = f" ({describe(target, events)})" if target is not None else ""
        return f"voided event {p['voids']}{what} — {p['reason']}"
    if k == "note":
        return p.get("text", "")
    return k


def audit_rows(events: Sequence[RecordedEvent], *, round_no: int | None = None) -> list[dict[str, Any]]:
    """Every event as a row (newest last): position, when, actor, recorded_by, words, voided,
    override. `round_no`: only the events about that round."""
    voided = {e.payload["voids"] for e in events if e.kind == "correction"}
    rows = []
    for e in events:
        if round_no is not None:
            r = e.payload.get("round")
            if e.kind == "correction":
                t = events[e.payload["voids"] - 1] if 0 < e.payload["voids"] <= len(events) else None
                r = t.payload.get("round") if t is not None else None
            if r != round_no:
                continue
        rows.append({"position": e.position, "at": e.recorded_at, "kind": e.kind, "actor": e.actor,
                     "by": e.recorded_by, "text": describe(e, events), "voided": e.position in voided,
                     "override": e.kind in OVERRIDE_KINDS or (e.kind == "result.recorded" and (
                         e.payload.get("source") == "judge" or e.payload.get("format_override")
                         or bool(e.payload.get("reason"))))})
    return rows
