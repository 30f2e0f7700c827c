"""Audit: one moment of a match for a dispute (the table then, the events around it, who recorded each)."""
from __future__ import annotations

from typing import Any

from engine.desk import (
    JUDGE_ACTION_KINDS,
    describer,
)
from engine.events import RecordedEvent
from engine.match import InputError, Match
from judge.desk.clock import parse_time
from judge.desk.review import review
from judge.io.cardnames import CardNames


# --- audit: one moment ------------------------------------------------------------------------


def event_link(match_id: str, position: int) -> str:
    """The replay viewer's deep link to one event, on the server's address (`tablejudge serve`):
    /m/MATCH#e41. A saved replay file (`tablejudge replay`) takes the same #e41."""
    return f"/m/{match_id}#e{position}"


def audit(match: Match, at: int, around: int = 3) -> dict[str, Any]:
    """The table right after event `at`, the events around it (who recorded them and when), every
    finding up to there, and the clock at that moment."""
    head = match.head_position()
    if not 1 <= at <= head:
        raise InputError(f"match {match.id} has events 1..{head}; there is no event {at}", field="at")
    r = review(match, upto=at)
    state = match.state(at=at)
    final_voided = set(match.state().voided)  # what a later backup/correction voided
    window = match.store.read(match.id, after=max(0, at - around - 1), upto=min(head, at + around))
    names = CardNames.for_state(state, match.ruleset)
    plain = describer(match.ruleset.describe)

    def describe(e: RecordedEvent) -> str:
        return names.text(plain(e))

    event_at = next(e for e in window if e.position == at)
    view = state.view()
    return {
        "match": match.id, "at": at, "head": head,
        "labels": {k: match.created.payload.get(k) for k in ("event", "round", "table")},
        "ruleset": match.ruleset.name, "players": match.players,
        "event": _event_row(event_at, describe, final_voided),
        "state": view, "summary": [names.text(s) for s in match.ruleset.summary_lines(state)],
        "events": [dict(_event_row(e, describe, final_voided), current=e.position == at) for e in window],
        "findings": [dict(f.to_dict(), backed_out=r.is_void(f) or f.position in final_voided,
                          voided_by=list(r.voided_by(f) or ())) for f in r.findings],
        "clock": r.clock.to_dict(now=parse_time(event_at.recorded_at)) if r.clock.running else None,
        "outcome": r.outcome.to_dict() if r.outcome else None,
        # card numbers stay numbers in the data; their names, for the people reading it
        "names": {n: names.name(n) for n in sorted(_numbers(view)) if names.name(n)},
        "link": event_link(match.id, at),
    }


def _numbers(view: dict[str, Any]) -> set[str]:
    return {c for pv in view["players"].values() for zv in pv["zones"].values() for c in zv["known"] if c}


def _event_row(e: RecordedEvent, describe, voided: set[int]) -> dict[str, Any]:
    return {"position": e.position, "kind": e.kind, "actor": e.actor, "description": describe(e),
            "recorded_at": e.recorded_at, "recorded_by": e.recorded_by, "hash": e.hash,
            "backed_out": e.position in voided, "judge_action": e.kind in JUDGE_ACTION_KINDS}


def render_audit(a: dict[str, Any], lang: str = "en") -> str:
    """The audit as text for the terminal (`lang`: the rule words in English, orig or both)."""
    from judge.report.text import render_judged
    names = CardNames(a.get("names") or {})
    lab = ", ".join(f"{k} {v}" for k, v in a["labels"].items() if v)
    lines = [f"audit of match {a['match']} ({a['ruleset']}) at event {a['at']} of {a['head']}"
             + (f" · {lab}" if lab else ""),
             f"replay at this event: {a['link']} (tablejudge serve), or #e{a['at']} after a file of "
             f"`tablejudge replay {a['match']}`"]
    st = a["state"]
    lines.append(f"table after event {a['at']}: turn {st['turn']}"
                 + (f", active {st['active']}" if st["active"] else "")
                 + (f", phase {st['phase']}" if st["phase"] else ""))
    for p, pv in st["players"].items():
        ctr = ", ".join(f"{k} {v}" for k, v in pv["counters"].items())
        lines.append(f"  {p}" + (f": {ctr}" if ctr else ""))
        for z, zv in pv["zones"].items():
            if zv["count"]:
                shown = ", ".join(names.cards(zv["known"]) + ([f"? ×{zv['unknown']}"] if zv["unknown"] else []))
                lines.append(f"    {z:<10} {zv['count']:>3}  {shown}")
    lines.extend("  " + s for s in a["summary"])
    if st["voided"]:
        lines.append(f"  not played as recorded so far (backed out, corrected away or replaced): "
                     f"{', '.join(map(str, st['voided']))}")
    if a["clock"]:
        c = a["clock"]
        lines.append(f"clock at that moment: {c['time_left']} left (round {c['minutes']} min"
                     + (f" + {c['extra_minutes']} min extensions" if c["extra_minutes"] else "") + ")")
    lines.append("")
    lines.append("events around it (position, actor, recorded by, at):")
    for e in a["events"]:
        mark = ">" if e["current"] else " "
        void = " [backed out]" if e["backed_out"] else ""
        lines.append(f"{mark}{e['position']:>5}  {e['actor']:<14} {e['description']}{void}")
        lines.append(f"        recorded by {e['recorded_by']} at {e['recorded_at']}")
    lines.append("")
    lines.append(f"findings up to event {a['at']}:")
    from engine.findings import Finding
    def finding(row: dict[str, Any]) -> Finding:
        return Finding(**{k: v for k, v in row.items() if k not in ("backed_out", "voided_by")})
    active = [finding(f) for f in a["findings"] if not f["backed_out"]]
    void = [(finding(f), tuple(f["voided_by"])) for f in a["findings"] if f["backed_out"]]
    lines.append(render_judged(active, void, names=names, lang=lang))
    return "\n".join(lines)
