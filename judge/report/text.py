"""Plain-text renderings for the terminal: the table at a moment, an event list, findings."""
from __future__ import annotations

from engine.events import RecordedEvent
from engine.findings import Finding
from engine.names import names_now, shown as seat_shown
from engine.rulesets import Ruleset
from engine.state import TableState

from judge.io.cardnames import CardNames

LANGS = ("en", "orig", "both")  # English, the rulebook's own words, or both (`--lang`, $TABLEJUDGE_LANG)


def render_state(state: TableState, ruleset: Ruleset, *, head: int | None = None,
                 match_id: str = "", names: CardNames | None = None, view: str | None = None,
                 standing: tuple[dict | None, str | None] | None = None, appealed: str | None = None) -> str:
    """The table for a terminal; card numbers shown with their names (`OP01-078 Boa Hancock`).
    `view`: said in the heading ("as corrected", "as recorded then") for a moment before the end.
    `standing`: the result as it stands (engine.decisions.StandingTable.result), else the table's own.
    `appealed`: what the head judge decided on appeal of the decision that result came from, when
    they overturned or changed it (said beside the result, which counts until replaced)."""
    names = names or CardNames.for_state(state, ruleset)
    seats = names_now(state)  # a player named after the log began: "X (seat Player 2)"
    where = f"after event {state.position}" + (f" of {head}" if head else "") + (f" ({view})" if view else "")
    turn = f"turn {state.turn}" if state.turn else "before the first turn"
    lines = [f"match {match_id} ({ruleset.name}) · {where} · {turn}"
             + (f" · active {seat_shown(state.active, seats)}" if state.active else "")
             + (f" · phase {state.phase}" if state.phase else "")]
    # one column for every zone name of the ruleset (at least the 10 the short ones always had)
    width = max([10, *(len(z) for z in state.zone_names)])
    for p in state.players:
        counters = state.counters.get(p, {})
        lines.append(f"{seat_shown(p, seats)}" + (": " + ", ".join(f"{k} {v}" for k, v in counters.items()) if counters else ""))
        for z in state.zone_names:
            cards = state.zones[p][z]
            if not cards:
                continue
            known = [names.label(c.code) for c in cards if c.code is not None]
            unknown = len(cards) - len(known)
            shown = ", ".join(known + ([f"? ×{unknown}"] if unknown else []))
            lines.append(f"  {z:<{width}} {len(cards):>3}  {shown}")
    lines.extend(names.text(line) for line in ruleset.summary_lines(state))
    if state.voided:
        # the table alone cannot tell a replaced event from one voided outright (both leave the
        # recorded event unplayed): `events` says which, so the line names all three
        lines.append(f"not played as recorded (backed out, corrected away or replaced): events {_ranges(state.voided)}")
    r, waiting = standing or (state.result, None)
    if r:
        lines.append(f"result: {seat_shown(r.get('winner'), seats) or 'no winner'} ({r.get('how')})")
        if appealed:
            lines.append(f"  {appealed}")
    elif waiting:
        lines.append(f"result: {waiting}")
    lines.append(f"state hash {state.state_hash()}")
    return "\n".join(lines)


def event_row(position: int, actor: str, words: str) -> str:
    """One event of a listing: position, actor, its words; a text typed on several lines (a ruling
    from a form's text box) goes on under the words, never at column 0 where it reads as another
    row (QA87)."""
    return f"{position:>5}  {actor:<12} " + words.replace("\n", "\n" + " " * 20)


def render_events(events: list[RecordedEvent], ruleset: Ruleset, voided: set[int],
                  names: CardNames | None = None, broken: tuple[int, str] | None = None,
                  marks: dict[int, dict] | None = None) -> str:
    """`broken`: the chain's first broken link (position, reason), marked on its event. `marks`:
    replaced events and superseded corrections (engine.replacing.marks), said as such."""
    from engine.replacing import mark_words

    names = names or CardNames.for_state(None, ruleset)
    marks = marks or {}
    lines = []
    for e in events:
        mark = mark_words(marks.get(e.position), e.position in voided)
        if broken and e.position == broken[0]:
            mark += f"  !! BROKEN LINK: {broken[1]}"
        lines.append(event_row(e.position, e.actor, names.text(ruleset.describe(e)) + mark))
    return "\n".join(lines)


def rule_words(f: Finding, lang: str = "en") -> list[str]:
    """The rule's words under a finding: English (`en`), the rulebook's own (`orig`), or both."""
    out = []
    if lang in ("en", "both") and f.en:
        # the section is the rulebook's own words (Chinese for optcg): English first, it beside
        head = " ".join(w for w in (f.title, f"(§ {f.section})" if f.title and f.section else f.section) if w)
        out.append(f"{head}: {f.en}" if head else f.en)
    if f.quote and (lang in ("orig", "both") or not f.en):
        out.append(f"{f.section}: «{f.quote}»" if f.section and not out else f"«{f.quote}»")
    return out


def render_findings(findings: list[Finding], voided: set[int] = frozenset(), *,
                    names: CardNames | None = None, lang: str = "en") -> str:
    if not findings:
        return "no findings"
    names = names or CardNames()
    lines = []
    for f in findings:
        mark = " (event backed out)" if f.position in voided else ""
        lines.append(f"event {f.position}: {f.rule} [{f.severity}] {names.text(f.message)}{mark}")
        lines += [f"    {w}" for w in rule_words(f, lang)]
    return "\n".join(lines)


def render_judged(active: list[Finding], void: list[tuple[Finding, tuple[int, ...]]], *,
                  names: CardNames | None = None, lang: str = "en") -> str:
    """The findings that stand, then apart the ones that no longer do, each marked void with the
    correction or backup that took it away."""
    names = names or CardNames()
    out = render_findings(active, names=names, lang=lang)
    if void:
        out += "\nvoid (no longer standing: corrected away):"
        for f, by in void:
            taken = ", ".join(f"#{p}" for p in by) or "a correction"
            out += (f"\n  event {f.position}: {f.rule} [{f.severity}] {names.text(f.message)} "
                    f"(void: taken away by {taken})")
    return out


def _ranges(positions: list[int]) -> str:
    out, start, prev = [], None, None
    for p in positions:
        if start is None:
            start = prev = p
        elif p == prev + 1:
            prev = p
        else:
            out.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = prev = p
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}-{prev}")
    return ", ".join(out)
