"""The appeals file: one A4 page per incident, then the match report as its appendix.

An incident starts where a judge is called (`judge.call`) or time is called (`time.called`); the
judge actions that follow it until the next call belong to it (a ruling names its call outright),
and a judge action with no call before it is an incident of its own. Each page holds the call, the
board at the moment named (as a scorekeeper sees it: hidden cards stay hidden), the ruling with the
rule in English and in the rulebook's own words, the penalty with what the guide suggested, the
head judge's decision on appeal (`judge.appeal`), a deep link to the event in the replay viewer
(`/m/ID#eN`) and the head hash of the log when the file was made (what the head judge signs).

    write_appeals(match, "exports/appeals-T47.html", base_url="http://desk.local:8000")
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from engine.desk import APPEALABLE_KINDS, DESK_RULES, JUDGE_PREFIX, ends_extra_minutes
from engine.events import RecordedEvent
from engine.match import Match
from engine.replay import Fold
from engine.store import anchor_token
from judge.desk.calls import call_about
from judge.io.cardnames import CardNames
from judge.replay.timeline import hide_event
from judge.report.files import write_file
from judge.report.match import match_context, rulebook_lang
from judge.report.templating import render
from judge.report.views import table_view

ROOTS = ("judge.call", "time.called")
ACTIONS = APPEALABLE_KINDS  # a judge's acts: the ones a player may appeal (one list, engine.desk)
APPEAL_KINDS = ("appeal.filed", "judge.appeal")  # a player's appeal, the head judge's decision: on the action's page
AROUND = 3  # events shown before the moment named


@dataclass
class Incident:
    root: RecordedEvent | None           # the call (None: a judge acted with no call before)
    actions: list[RecordedEvent] = field(default_factory=list)
    appeals: list[RecordedEvent] = field(default_factory=list)

    @property
    def at(self) -> int:
        """The event the incident is about: the one the call names, else the one before it."""
        if self.root is not None:
            return int(self.root.payload.get("at") or max(self.root.position - 1, 1))
        return max(self.actions[0].position - 1, 1)

    @property
    def positions(self) -> set[int]:
        return {e.position for e in ([self.root] if self.root else []) + self.actions}


def incidents(events: list[RecordedEvent]) -> list[Incident]:
    """The match's incidents in the order they began (module docstring)."""
    out: list[Incident] = []
    by_root: dict[int, Incident] = {}
    current: Incident | None = None
    filed: list[RecordedEvent] = []  # the appeals filed so far
    for e in events:
        judge_act = (e.kind in ACTIONS or ends_extra_minutes(e)) and (
            e.kind != "correction" or e.actor.startswith(JUDGE_PREFIX))
        if e.kind == "appeal.filed":
            filed.append(e)
        if any(call_about(e, f.payload["player"], f.payload["appealed"]) for f in filed):
            continue  # the head judge called with a player's appeal: the appeal's incident, no new one
        if e.kind in ROOTS and not ends_extra_minutes(e):  # the end of extra minutes: its call's act
            current = Incident(e)
            by_root[e.position] = current
            out.append(current)
        elif judge_act:
            named = by_root.get(e.payload.get("call")) if e.kind == "judge.ruling" else None
            target = named or current
            if target is None:
                target = Incident(None)
                out.append(target)
                current = target
            target.actions.append(e)
        elif e.kind in APPEAL_KINDS:
            for inc in out:
                if e.payload["appealed"] in inc.positions:
                    inc.appeals.append(e)
                    break
    return out


def compact(view: dict[str, Any], keep: int = 4) -> dict[str, Any]:
    """A board that fits a third of an A4 page: identical cards counted (DON!! ×8), and a long zone
    (a trash of 16) cut to its first cards and how many more; the counts stay exact."""
    for p in view["players"]:
        for z in p["zones"]:
            runs: dict[str, int] = {}
            for name in z["known"]:
                runs[name] = runs.get(name, 0) + 1
            shown = [f"{name} ×{n}" if n > 1 else name for name, n in runs.items()]
            z["known"] = shown[:keep] + ([f"+{len(shown) - keep} more"] if len(shown) > keep else [])
    return view


def _rule_words(m: Match, rule_id: str) -> dict[str, str] | None:
    """A cited rule's id, English and the rulebook's own words (ruleset or desk catalogue)."""
    if not rule_id:
        return None
    rules = {r.id: r for r in list(m.ruleset.rules) + list(DESK_RULES)}
    r = rules.get(rule_id.strip())
    if r is None:  # a section or free text: shown as the judge wrote it
        return {"id": rule_id, "en": "", "quote": "", "section": "", "title": ""}
    return {"id": r.id, "en": r.en, "quote": r.quote, "section": r.section, "title": r.title}


def _action_row(m: Match, e: RecordedEvent, describe, voided: set[int], link) -> dict[str, Any]:
    p = e.payload
    row: dict[str, Any] = {"position": e.position, "kind": e.kind, "actor": e.actor, "text": describe(e),
                           "recorded_at": e.recorded_at, "recorded_by": e.recorded_by,
                           "void": e.position in voided, "link": link(e.position)}
    if e.kind == "judge.ruling":
        row["ruling"] = p["text"]
        row["rule"] = _rule_words(m, p.get("rule", ""))
    elif e.kind == "judge.penalty":
        row["penalty"] = {k: p.get(k) for k in ("player", "penalty", "infraction", "reason", "guide", "suggested",
                                                "deviation", "policy")}
    elif e.kind == "time.decision":
        row["decision"] = {k: p.get(k) for k in ("result", "winner", "branch", "steps", "rule", "policy", "facts")}
        row["rule"] = _rule_words(m, p.get("rule", "")) if p.get("rule", "").isupper() else None
    return row


def appeals_context(m: Match, *, base_url: str = "", appendix: bool = True) -> dict[str, Any]:
    """What appeal.html draws: the incidents, each with its board, and (appendix) the report."""
    # the report: the appendix (the staff's view: the file is the judges'), and its result, names and integrity
    ctx = match_context(m, staff=True)
    events = m.events()
    voided = set(ctx["voided"])
    rs = m.ruleset
    # the boards as a scorekeeper saw them: the log folded with hidden cards hidden
    fold = Fold(rs, m.created)
    hidden_after = {1: fold.state.copy()}
    seen_as = {1: events[0]}  # each event as a scorekeeper recorded it (hide() once per event)
    for e in events[1:]:
        seen_as[e.position] = hide_event(m, e)
        fold.push(seen_as[e.position])
        hidden_after[e.position] = fold.state.copy()
    names = CardNames.for_state(m.state(), rs)
    describe_rows = {e["position"]: e["description"] for seg in ctx["segments"] for ph in seg["phases"]
                     for e in ph["events"]}

    def describe(e: RecordedEvent) -> str:
        """An event as the incident page shows it: as a scorekeeper recorded it, like the board
        beside it (a card drawn into a hand is not named there; the appendix has the full record)."""
        seen = seen_as[e.position]
        if seen.payload != e.payload:
            return rs.describe(seen)
        return describe_rows.get(e.position) or rs.describe(e)

    def link(pos: int) -> str:
        return f"{base_url.rstrip('/')}/m/{m.id}#e{pos}"

    pages = []
    for n, inc in enumerate(incidents(events), start=1):
        at = min(inc.at, events[-1].position)
        before = [e for e in events if at - AROUND <= e.position <= at]
        pages.append({
            "n": n, "at": at, "link": link(at),
            "call": _action_row(m, inc.root, describe, voided, link) | {
                "caller": inc.root.payload.get("caller") or inc.root.actor,
                "reason": inc.root.payload.get("reason", "") or inc.root.payload.get("note", "") or "",
                "clock": inc.root.payload.get("clock")} if inc.root else None,
            "moment": [{"position": e.position, "actor": e.actor, "text": describe(e), "void": e.position in voided,
                        "link": link(e.position)} for e in before],
            "board": compact(table_view(hidden_after[at], rs, names)),
            "actions": [_action_row(m, e, describe, voided, link) for e in inc.actions],
            "appeals": [_action_row(m, e, describe, voided, link) | {"decision": e.payload.get("decision"),
                                                                       "reason": e.payload.get("text")
                                                                       or e.payload.get("reason", ""),
                                                                       "filed": e.kind == "appeal.filed",
                                                                       "by": e.payload.get("by")
                                                                       or e.payload.get("player", ""),
                                                                       "appealed": e.payload["appealed"],
                                                                       "appealed_link": link(e.payload["appealed"])}
                        for e in inc.appeals],
        })
    head = events[-1]
    return dict(ctx, title=f"Appeals file · match {m.id}", incidents=pages, appendix=appendix,
                signed={"head_position": head.position, "head_hash": head.hash,
                        "anchor": anchor_token(m.id, head.position, head.hash),
                        "at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")},
                rulebook_lang=rulebook_lang(rs.rulebook), base_url=base_url)


def render_appeals(m: Match, *, base_url: str = "", appendix: bool = True) -> str:
    return render("appeal.html", **appeals_context(m, base_url=base_url, appendix=appendix))


def write_appeals(m: Match, path: str, *, base_url: str = "", appendix: bool = True) -> str:
    return write_file(path, render_appeals(m, base_url=base_url, appendix=appendix))
