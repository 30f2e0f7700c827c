"""The match report: one self-contained HTML file (timeline, findings, judge actions, charts)."""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, NamedTuple

from engine.desk import JUDGE_ACTION_KINDS, judge_of
from engine.integrity import verify_match
from engine.match import Match
from engine.names import names_now, shown_players
from engine.state import TableState
from engine.store import VerifyReport, anchor_token

from judge import desk
from judge.report.templating import render
from judge.report.files import DEFAULT_DIR, report_path, write_file
from judge.io.cardnames import CardNames
from judge.replay.hiding import STAFF_WARNING
from judge.report.views import result_text, same_layout, table_view


PALETTE = ("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085")

# --- the match report ------------------------------------------------------------------------


class Verified(NamedTuple):
    """What report.html draws (`context`) and the log's verdict it shows (`verify`)."""
    context: dict[str, Any]
    verify: VerifyReport


def match_context(m: Match, verify: VerifyReport | None = None, *, staff: bool = False) -> dict[str, Any]:
    """What report.html draws. `verify`: the log's verdict, when the caller has it already (a
    round page verifies each match once: the chain is then not recomputed a second time). `staff`:
    every card the log names, hands included; otherwise hidden cards stay hidden, as in the replay
    (one notion of the viewer: judge.replay.hiding, through desk.review)."""
    return _context(m, verify, staff).context


def _context(m: Match, verify: VerifyReport | None, staff: bool) -> Verified:
    """The page's context, and the verdict it carries (verified here, after the review, on the
    review's log and stale decisions, when not given)."""
    r = desk.review(m, hidden=not staff)
    voided = r.voided
    ruleset = m.ruleset
    findings_at: dict[int, list[dict[str, Any]]] = {}
    findings = []
    for i, f in enumerate(r.findings, start=1):
        by = r.voided_by(f)  # a void finding is listed apart, with what voided it
        row = dict(f.to_dict(), backed_out=by is not None, voided_by=list(by or ()), anchor=f"finding-{i}")
        findings.append(row)
        findings_at.setdefault(f.position, []).append(row)

    # replay once, keeping the table right after every event (as it was at that moment)
    after: dict[int, TableState] = {}
    replayer = m.replayer
    events = r.events
    first = ruleset.new_state(m.created)
    after[1] = first.copy()
    # as corrected, the view validate's findings and the result stand on (engine/replay.py)
    replayer.corrected_fold(events[1:], after_each=lambda s: after.__setitem__(s.position, s.copy()))
    names = CardNames.for_state(after[events[-1].position], ruleset)  # numbers in the data, names to read
    for row in findings:
        row["message"] = names.text(row["message"])

    how = voided_how(events, voided)
    segments: list[dict[str, Any]] = []
    turn_end: list[tuple[str, TableState]] = []  # (turn label, table at its end), in play order
    for e in events:
        st = after[e.position]
        row = {
            "position": e.position, "anchor": f"event-{e.position}", "kind": e.kind, "actor": e.actor,
            "judge": judge_of(e.actor), "description": names.text(ruleset.describe_at(after.get(e.position - 1), st, e)
                                                                   if e.position not in voided else r.describe(e)),
            "judge_action": e.kind in JUDGE_ACTION_KINDS or e.actor.startswith("judge:"),
            "backed_out": e.position in voided, "void_how": how.get(e.position), "recorded_at": e.recorded_at,
            # a stale time decision a later one decided again (QA N7): said as a replaced event is
            "superseded_by": getattr(r.stale.get(e.position), "superseded_by", None),
            "recorded_by": e.recorded_by, "findings": findings_at.get(e.position, []),
            "state": table_view(st, ruleset, names),
        }
        label = ruleset.turn_label(st)
        if not segments or segments[-1]["label"] != label:
            segments.append({"turn": st.turn, "label": label, "active": st.active, "phases": []})
            turn_end.append((label, st))
        seg = segments[-1]
        seg["active"] = seg["active"] or st.active
        if not seg["phases"] or seg["phases"][-1]["name"] != st.phase:
            seg["phases"].append({"name": st.phase, "events": []})
        seg["phases"][-1]["events"].append(row)
        seg["end"] = st
        turn_end[-1] = (label, st)
    for seg in segments:
        seg["table"] = table_view(seg.pop("end"), ruleset, names)
        seg["anchor"] = f"turn-{seg['turn']}-{seg['phases'][0]['events'][0]['position']}"
    same_layout([seg["table"] for seg in segments]
                + [e["state"] for seg in segments for ph in seg["phases"] for e in ph["events"]])

    if verify is None:  # `verify`'s own verdict: the chain, and the replay (a stale decision fails it)
        verify = verify_match(m.store, m.id, events=r.log, stale=r.stale)  # the review's log as stored
    outcome = r.outcome
    decision = _with_source(m, r.time_decision())
    c = m.created.payload
    seats = names_now(r.state)  # the players as named now (a placeholder a later copy named)
    return Verified(context={
        "title": f"Match {m.id}",
        "staff": staff, "staff_warning": STAFF_WARNING,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "match": {"id": m.id, "event": c.get("event"), "round": c.get("round"), "table": c.get("table"),
                  "players": shown_players(seats), "ruleset": ruleset.name, "ruleset_title": ruleset.title,
                  "rulebook": ruleset.rulebook, "rulebook_lang": rulebook_lang(ruleset.rulebook), "events": len(events),
                  "created_at": m.created.recorded_at},
        "result": {
            "text": result_text(outcome.result, outcome.winner, seats) if outcome
            else r.not_decided() or "not decided by the log",
            "decided": outcome is not None,
            "how": outcome.how if outcome else "",
            "source": outcome.source if outcome else "",
            "position": outcome.position if outcome else None,
            "explanation": list(outcome.explanation) if outcome else [],
            # no outcome, but the record may say how the game stopped (a player left: uncertain)
            "unsettled": None if outcome else ruleset.unsettled(r.state),
        },
        "decision": decision,
        "slip": r.slip(),
        "clock": r.clock.to_dict(now=_clock_now(r)) if r.clock.running else None,
        "segments": segments,
        "chart": counter_chart(turn_end, ruleset),
        "findings": findings,
        "counts": {"errors": sum(1 for f in findings if f["severity"] == "error" and not f["backed_out"]),
                   "warnings": sum(1 for f in findings if f["severity"] == "warning" and not f["backed_out"]),
                   **void_counts(events, how), "judge_actions": sum(
                       1 for s in segments for ph in s["phases"] for e in ph["events"] if e["judge_action"])},
        "integrity": {"ok": verify.ok, "verdict": verify.verdict(), "chain_ok": verify.first_break is None, "head_hash": verify.head_hash, "events": verify.events,
                      "anchor": anchor_token(m.id, verify.head_position, verify.head_hash)
                      if verify.head_hash else None,
                      "guard": verify.guard_detail, "problems": verify.problems,
                      "first_break": verify.first_break.position if verify.first_break else None},
        "voided": sorted(voided),
        # the final table's note, each void said as what it is (a replaced event is played, as it should have read)
        "voided_said": _voids_said(voided, how),
        # the header lists every judge action and penalty (an appeal starts there, not on page 16)
        "judge_actions": [e for seg in segments for ph in seg["phases"] for e in ph["events"] if e["judge_action"]],
    }, verify=verify)


def rulebook_lang(rulebook: str) -> str:
    """The language of a rulebook's words, from its file name (optcg-bandai-v1.11.zh.md -> zh-Hant)."""
    parts = rulebook.split(".")
    code = parts[-2] if len(parts) >= 3 else ""
    return {"zh": "zh-Hant"}.get(code, code)


def _with_source(m: Match, decision: dict[str, Any] | None) -> dict[str, Any] | None:
    """A recorded time decision with its policy's words and source (the event stores the decision;
    the citation comes from the ruleset's procedure, decided again the same way)."""
    if not decision:
        return decision
    try:
        from judge.desk import timelimit
        again = (timelimit.decide_from_facts(m, decision["facts"], decision.get("policy")) if decision.get("facts")
                 else timelimit.decide(m, decision.get("policy"))).decision
    except Exception:  # no procedure to cite (e.g. the time call was backed out later)
        return decision
    if (again.result, again.branch) != (decision.get("result"), decision.get("branch")):
        return decision
    return dict(decision, quote=again.quote, en=again.en, source=again.source)


def voided_how(events, voided) -> dict[int, str]:
    """Each voided position: "corrected away" (a correction voids it), "replaced" (the latest
    correction of it says what it should have read: replay plays that in its place) or "backed
    out" (a backup rewinds the game past it); an event both voided counts as corrected."""
    from engine.replacing import replacement_of
    from engine.replay import void_targets
    kinds = {e.position: e.kind for e in events}
    how: dict[int, str] = {}
    for e in sorted((e for e in events if e.kind in ("correction", "backup")), key=lambda e: e.kind == "correction"):
        said = "backed out" if e.kind == "backup" else \
            "replaced" if replacement_of(e) is not None else "corrected away"
        for p in void_targets(e, lambda p: kinds.get(p, "")):
            if p in voided:
                how[p] = said
    return how


def _voids_said(voided, how: dict[int, str]) -> list[tuple[str, list[int]]]:
    """The voided positions grouped by how (replaced, corrected away, backed out), in that order."""
    by: dict[str, list[int]] = {}
    for p in sorted(voided):
        by.setdefault(how.get(p, "corrected away"), []).append(p)
    return [(h, by[h]) for h in ("replaced", "corrected away", "backed out") if h in by]


def void_counts(events, how: dict[int, str]) -> dict[str, int]:
    """What the header says of voids: the events corrected away, those replaced and those backed
    out, each with how many corrections and backups there were (two corrections are not "2 events
    backed out"; a replaced event is not "corrected away": replay plays what it should have read)."""
    return {"corrected": sum(1 for h in how.values() if h == "corrected away"),
            "replaced": sum(1 for h in how.values() if h == "replaced"),
            "corrections": sum(1 for e in events if e.kind == "correction"),
            "backed_out": sum(1 for h in how.values() if h == "backed out"),
            "backups": sum(1 for e in events if e.kind == "backup")}


def _clock_now(r: desk.Review):
    """The clock as it stood at the last event (a report is about the log, not about today)."""
    if r.clock.called:
        return desk.parse_time(r.clock.called["recorded_at"])
    return desk.parse_time(r.events[-1].recorded_at)


def counter_chart(turn_end: list[tuple[str, TableState]], ruleset, *, width: int = 640,
                  height: int = 170) -> dict[str, Any] | None:
    """One small line chart per key counter (Life, points...), a line per player, x = the turns in
    play order (labelled by the ruleset: a best-of-three's games do not share an axis).
    Coordinates are computed here so the template only draws."""
    labels = [label for label, _ in turn_end]
    turns = list(range(len(turn_end)))
    series: dict[str, dict[str, list[tuple[int, int]]]] = {}
    players: list[str] = []
    for t in turns:
        for player, values in ruleset.key_counters(turn_end[t][1]).items():
            if player not in players:
                players.append(player)
            for name, v in values.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    series.setdefault(name, {}).setdefault(player, []).append((t, v))
    if not series:
        return None
    left, right, top, bottom = 44, 16, 14, 30
    pw, ph = width - left - right, height - top - bottom
    t0, t1 = turns[0], turns[-1]
    span = max(1, t1 - t0)

    def x(t: int) -> float:
        return round(left + (t - t0) * pw / span, 1)

    colors = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(players)}
    panels = []
    for name, per_player in series.items():
        values = [v for pts in per_player.values() for _, v in pts]
        lo, hi = min(0, min(values)), max(values)
        if hi == lo:
            hi = lo + 1

        def y(v: float) -> float:
            return round(top + ph - (v - lo) * ph / (hi - lo), 1)

        step = _nice_step(hi - lo)
        yticks, v = [], lo - lo % step if lo % step else lo
        while v <= hi:
            if v >= lo:
                yticks.append({"y": y(v), "label": _num(v)})
            v += step
        xstep = max(1, round(span / 12))
        xticks = [{"x": x(t), "label": labels[t]} for t in range(t0, t1 + 1, xstep)]
        lines = []
        for player, pts in per_player.items():
            lines.append({"player": player, "color": colors[player],
                          "points": " ".join(f"{x(t)},{y(v)}" for t, v in pts),
                          "dots": [{"x": x(t), "y": y(v), "turn": labels[t], "value": _num(v)} for t, v in pts]})
        panels.append({"name": name, "lines": lines, "yticks": yticks, "xticks": xticks,
                       "width": width, "height": height, "left": left, "right": width - right,
                       "top": top, "bottom": top + ph})
    return {"panels": panels, "legend": [{"player": p, "color": colors[p]} for p in players],
            "turns": labels}


def _nice_step(span: float) -> int:
    for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / s <= 6:
            return s
    return int(span / 5) or 1


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.1f}"


def render_match(m: Match, verify: VerifyReport | None = None, *, staff: bool = False) -> str:
    return render("report.html", **match_context(m, verify, staff=staff))


def render_match_verified(m: Match, *, staff: bool = False) -> tuple[str, VerifyReport]:
    """The page and the verdict it shows (the CLI's exit code says it too): the match reviewed and
    verified once, the verification on the review's log."""
    page = _context(m, None, staff)
    return render("report.html", **page.context), page.verify


def write_match_report(m: Match, out_dir: str = DEFAULT_DIR, path: str | None = None,
                       verify: VerifyReport | None = None, *, staff: bool = False) -> str:
    return write_file(path or report_path(out_dir, m.id, staff), render_match(m, verify, staff=staff))
