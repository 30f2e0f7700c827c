"""Penalty guides as data, and the desk's suggestion: which penalty an infraction gets, given the
player's earlier penalties in the event, and whether the penalty a judge gives deviates from it.

    guide = guide_for("optcg")                       # judge/desk/penalty_guides/optcg.toml
    inf = guide.find("Looking at Unnecessary Cards")  # by id or name
    s = suggest_for(match, "Bob", inf)                # counts Bob's earlier penalties in the event
    s.penalty, s.steps                                # "Game Loss" on a second offence; why, quoted
    s.deviation("Caution")                            # the desk's words: below the guide's Warning
    give_penalty(match, player="Bob", infraction=inf, penalty="Warning", judge="judge:Kim")

The guides (`penalty_guides/`, with their sources in SOURCES.md): `optcg.toml` is the ONE PIECE CARD
GAME Tournament Rules Manual's chapter 7 (Bandai, 2025-10-17); `generic.toml`, modelled on the Magic
IPG, serves every other game. A guide says how repeats are counted (`count_scope`: across the
whole event, or per day) and how a deviation is read (`deviation`: `never-reduce`, the manual's
"can increase ... but never reduce"; `exact`, the IPG's, where only the Head Judge deviates).

What is stored: the `judge.penalty` event names the infraction's id (`guide`), the penalty the desk
suggested (`suggested`) and, when the judge's penalty departs from the guide, the desk's words
(`deviation`), which the desk's check DESK-11 shows as a finding. The suggestion is a fact of the
moment it was given: later penalties elsewhere do not change it.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from engine.desk import PENALTY_LADDER
from engine.match import InputError, Match, Recorded
from engine.schema import shown
from engine.store import EventStore
from engine.words import plural

NONE = "None"  # a guide's "no penalty" (the IPG's Missed Trigger)
GUIDE_FILES = {"optcg": "optcg.toml"}
GENERIC = "generic.toml"
UPGRADE_MODES = ("mandatory", "discretionary", "none-stated", "never")
DEVIATION_MODES = ("never-reduce", "exact")


def rank(penalty: str) -> int:
    """Severity: None (no penalty) lowest, then the desk's ladder, Caution .. Suspension."""
    return -1 if penalty == NONE else PENALTY_LADDER.index(penalty)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass(frozen=True)
class Infraction:
    id: str
    name: str
    category: str
    default: str
    description: str
    quote: str
    source: str
    confidence: str
    section: str = ""
    upgrades: tuple[tuple[int, str], ...] = ()       # (from the N-th offence, penalty)
    upgrade_mode: str = "none-stated"
    range: tuple[str, str] | None = None             # the guide's "Penalty: Warning – Game Loss"
    thresholds: tuple[tuple[int, str], ...] = ()     # tardiness: (from M minutes late, penalty)
    conditions: tuple[tuple[str, str], ...] = ()     # (when, penalty): for the judge to weigh

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "category": self.category, "section": self.section,
                "default": self.default, "description": self.description, "quote": self.quote,
                "source": self.source, "confidence": self.confidence,
                "upgrades": [{"after": a, "penalty": p} for a, p in self.upgrades],
                "upgrade_mode": self.upgrade_mode, "range": list(self.range) if self.range else None,
                "thresholds": [{"minutes_late": m, "penalty": p} for m, p in self.thresholds],
                "conditions": [{"when": w, "penalty": p} for w, p in self.conditions]}


@dataclass(frozen=True)
class Guide:
    key: str                  # the file's name without .toml: optcg, generic
    game: str
    policy: str               # the judge.penalty policy its penalties belong to (bandai, mtg-ipg)
    document: str
    document_date: str
    url: str
    penalties: tuple[str, ...]
    categories: tuple[str, ...]
    count_scope: str          # "event" or "day"
    deviation_mode: str       # "never-reduce" or "exact"
    quotes: dict[str, str]    # the [guide] table's *_quote and *_source entries
    infractions: tuple[Infraction, ...]

    def find(self, ref: str) -> Infraction:
        """An infraction by its id or its name (case and spaces ignored). InputError otherwise,
        naming the closest ones."""
        key = " ".join(str(ref).split()).casefold()
        for inf in self.infractions:
            if key in (inf.id.casefold(), " ".join(inf.name.split()).casefold()):
                return inf
        close = [i for i in self.infractions if key and key in f"{i.id} {i.name}".casefold()]
        hint = "; ".join(f"{i.id} ({i.name})" for i in close[:5]) or \
            f"see `tablejudge judge infractions` ({len(self.infractions)} in the {self.game} guide)"
        raise InputError(f"no infraction {shown(ref)} in the {self.game} penalty guide: {hint}",
                         field="infraction")

    def lookup(self, ref: str | None) -> Infraction | None:
        if not ref:
            return None
        try:
            return self.find(ref)
        except InputError:
            return None

    def upgrade_quote(self, inf: Infraction) -> str:
        """The guide's own words for repeats of this infraction's kind."""
        if "upgrade_quote" in self.quotes:
            return self.quotes["upgrade_quote"]
        by_category = {"Game Play Error": "gpe_upgrade_quote", "Tournament Error": "te_upgrade_quote"}
        return self.quotes.get(by_category.get(inf.category, ""), "")

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "game": self.game, "policy": self.policy, "document": self.document,
                "document_date": self.document_date, "url": self.url, "penalties": list(self.penalties),
                "categories": list(self.categories), "count_scope": self.count_scope,
                "deviation": self.deviation_mode, "quotes": self.quotes,
                "infractions": [i.to_dict() for i in self.infractions]}


# --- loading ------------------------------------------------------------------------------------

_CACHE: dict[str, Guide] = {}


def guide_file(ruleset: str) -> str:
    return GUIDE_FILES.get(ruleset, GENERIC)


def guide_for(ruleset: str) -> Guide:
    """The penalty guide of a game: its own (optcg) or the IPG-style generic one."""
    name = guide_file(ruleset)
    if name not in _CACHE:
        text = resources.files("judge.desk.penalty_guides").joinpath(name).read_text(encoding="utf-8")
        _CACHE[name] = parse_guide(name.removesuffix(".toml"), tomllib.loads(text))
    return _CACHE[name]


def parse_guide(key: str, data: dict[str, Any]) -> Guide:
    """A guide from its TOML data; ValueError naming the infraction and field on anything the desk
    could not use (the tests load both shipped guides through here)."""
    g = data["guide"]
    allowed = set(g["penalties"]) | {NONE}
    for p in g["penalties"]:
        if p not in PENALTY_LADDER:
            raise ValueError(f"{key}: [guide] penalties: {p!r} is not a penalty of the desk's ladder")
    if g.get("deviation") not in DEVIATION_MODES:
        raise ValueError(f"{key}: [guide] deviation must be one of {', '.join(DEVIATION_MODES)}")
    if g.get("count_scope") not in ("event", "day"):
        raise ValueError(f"{key}: [guide] count_scope must be event or day")
    infractions = []
    seen: set[str] = set()
    for i, d in enumerate(data.get("infraction", []), start=1):
        where = f"{key}: infraction {i} ({d.get('id', '?')})"

        def pen(value: Any, what: str) -> str:
            if value not in allowed:
                raise ValueError(f"{where}: {what} {value!r} is not one of {', '.join(sorted(allowed))}")
            return value

        for name in ("id", "name", "category", "default", "description", "quote", "source", "confidence"):
            if not isinstance(d.get(name), str) or not d[name].strip():
                raise ValueError(f"{where}: {name} is missing")
        if d["id"] in seen:
            raise ValueError(f"{where}: the id is used twice")
        seen.add(d["id"])
        if d["category"] not in g["categories"]:
            raise ValueError(f"{where}: category {d['category']!r} is not a category of the guide")
        upgrades = tuple(sorted((int(u["after"]), pen(u["penalty"], "upgrade")) for u in d.get("upgrades", [])))
        if any(a < 2 for a, _ in upgrades):
            raise ValueError(f"{where}: an upgrade applies from the 2nd offence on (after >= 2)")
        mode = d.get("upgrade_mode", "none-stated" if not upgrades else "mandatory")
        if mode not in UPGRADE_MODES:
            raise ValueError(f"{where}: upgrade_mode {mode!r} is not one of {', '.join(UPGRADE_MODES)}")
        rng = d.get("range")
        if rng is not None and (len(rng) != 2 or rank(pen(rng[0], "range")) > rank(pen(rng[1], "range"))):
            raise ValueError(f"{where}: range must be [lowest, highest]")
        infractions.append(Infraction(
            d["id"], d["name"], d["category"], pen(d["default"], "default"), d["description"], d["quote"],
            d["source"], d["confidence"], d.get("section", ""), upgrades, mode,
            tuple(rng) if rng else None,
            tuple(sorted((int(t["minutes_late"]), pen(t["penalty"], "threshold")) for t in d.get("thresholds", []))),
            tuple((c["when"], pen(c["penalty"], "condition")) for c in d.get("conditions", []))))
    quotes = {k: v for k, v in g.items() if k.endswith(("_quote", "_source")) and isinstance(v, str)}
    return Guide(key, g["game"], g["policy"], g["document"], g["document_date"], g["url"],
                 tuple(g["penalties"]), tuple(g["categories"]), g["count_scope"], g["deviation"], quotes,
                 tuple(infractions))


# --- the player's earlier penalties -------------------------------------------------------------


@dataclass(frozen=True)
class Prior:
    """One earlier penalty of the player, as counted."""

    match: str
    position: int
    penalty: str
    infraction: str
    guide: str | None
    recorded_at: str
    labels: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.match, "position": self.position, "penalty": self.penalty,
                "infraction": self.infraction, "guide": self.guide, "recorded_at": self.recorded_at,
                **{k: v for k, v in self.labels.items() if v is not None}}


def earlier_penalties(store: EventStore, match: Match, player: str, *, day: str | None = None) -> list[Prior]:
    """The player's penalties that still count in the match's event: every match whose
    `match.created` names the same event (a tournament's id, or the `--event` label), or this match
    alone when it names none. `day` (YYYY-MM-DD): only penalties recorded that UTC day (a guide that
    counts per day). A penalty voided by a correction or backed out does not count."""
    event = match.created.payload.get("event")
    found: dict[str, list[Any]] = {}
    start = 1
    while True:  # the notification log, penalties only (its topic is the kind: one indexed pass)
        page = store.notifications(start, 500, kinds=["judge.penalty"])
        for _, e in page:
            if e.payload.get("player") != player or (day and not e.recorded_at.startswith(day)):
                continue
            same = e.match == match.id or (event is not None and store.created(e.match).payload.get("event") == event)
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
        out += [Prior(mid, e.position, e.payload["penalty"], e.payload["infraction"], e.payload.get("guide"),
                      e.recorded_at, labels) for e in events if e.position not in voided]
    return sorted(out, key=lambda p: (p.recorded_at, p.match, p.position))


# --- the suggestion -----------------------------------------------------------------------------


@dataclass
class Suggestion:
    """What the guide gives for this infraction now, and what a judge may give without deviating."""

    guide: Guide
    infraction: Infraction
    player: str
    offence: int                 # this is the player's n-th offence of this infraction (counted per the guide)
    penalty: str                 # the desk's suggestion
    floor: str                   # below this: a deviation
    ceiling: str | None          # above this: a deviation (None: a judge may always go higher)
    steps: list[str]
    earlier: list[Prior]
    minutes_late: int | None = None

    def allowed(self, penalty: str) -> bool:
        if any(p == penalty for _, p in self.infraction.conditions):
            return True  # the guide names this penalty for a situation only the judge can weigh
        if rank(penalty) < rank(self.floor):
            return False
        return self.ceiling is None or rank(penalty) <= rank(self.ceiling)

    def deviation(self, penalty: str) -> str | None:
        """The desk's words when `penalty` departs from the guide (None: it does not)."""
        if penalty not in PENALTY_LADDER:
            raise InputError(f"{shown(penalty)} is not a penalty ({', '.join(PENALTY_LADDER)})", field="penalty")
        if self.allowed(penalty):
            return None
        what = f"the {ordinal(self.offence)} {self.infraction.name} ({self.infraction.id}) of {self.player}"
        if rank(penalty) < rank(self.floor):
            rule = (f"the guide allows no penalty below it ({self.guide.quotes.get('deviation_quote', '')})"
                    if self.guide.deviation_mode == "never-reduce" else "only the Head Judge deviates from the guide")
            return f"below the guide: {what} gets {self.floor} at least; {rule}"
        return f"above the guide: {what} gets {self.ceiling} at most in the {self.guide.game} guide"

    def to_dict(self) -> dict[str, Any]:
        return {"infraction": self.infraction.to_dict(), "player": self.player, "offence": self.offence,
                "penalty": self.penalty, "floor": self.floor, "ceiling": self.ceiling, "steps": self.steps,
                "earlier": [p.to_dict() for p in self.earlier], "minutes_late": self.minutes_late,
                "guide": {"key": self.guide.key, "game": self.guide.game, "policy": self.guide.policy,
                          "document": self.guide.document, "document_date": self.guide.document_date,
                          "count_scope": self.guide.count_scope, "deviation": self.guide.deviation_mode}}


def suggest(guide: Guide, inf: Infraction, player: str, earlier: list[Prior], *,
            minutes_late: int | None = None) -> Suggestion:
    """The guide's penalty for `player`'s offence of `inf`, given their earlier penalties (already
    counted per the guide's scope; those of other infractions are ignored here)."""
    same = [p for p in earlier if p.guide == inf.id]
    offence = len(same) + 1
    steps = [f"{inf.name} ({inf.category}, {inf.section or inf.id}): {inf.default}"
             + (f" ({inf.range[0]} to {inf.range[1]})" if inf.range else "") + f'. "{inf.quote}" ({inf.source})']
    base = inf.default
    if inf.thresholds:
        if minutes_late is None:
            steps.append("how many minutes late? (" + ", ".join(f"{p} from {m} min" for m, p in inf.thresholds) + ")")
        else:
            base = [p for m, p in inf.thresholds if minutes_late >= m][-1] if minutes_late >= inf.thresholds[0][0] \
                else inf.default
            steps.append(f"{plural(minutes_late, 'minute')} late: {base}")
    scope = "this event" if guide.count_scope == "event" else "this event today (the count resets between days)"
    counted = (f"{player}'s earlier penalties for it in {scope}: "
               + (", ".join(f"{p.penalty} (match {p.match} event {p.position})" for p in same) if same else "none"))
    steps.append(counted + f": this is the {ordinal(offence)} offence")
    suggested, floor = base, base
    if inf.range and guide.deviation_mode == "never-reduce" and rank(inf.range[0]) < rank(floor):
        floor = inf.range[0]
    up = [p for after, p in inf.upgrades if offence >= after]
    if up and rank(up[-1]) > rank(base):
        quote = guide.upgrade_quote(inf)
        word = {"mandatory": "is upgraded", "discretionary": "can be upgraded"}.get(inf.upgrade_mode, "is upgraded")
        steps.append(f"a repeat {word} to {up[-1]}" + (f': "{quote}"' if quote else ""))
        suggested = up[-1]
        if inf.upgrade_mode == "mandatory":
            floor = up[-1]
        else:
            steps.append(f"the upgrade is the judge's choice: {base} is not a deviation")
    elif inf.upgrade_mode == "never" and same:
        steps.append("never upgraded for a repeat")
    for when, p in inf.conditions:
        steps.append(f"if {when}: {p}")
    if guide.deviation_mode == "never-reduce":
        ceiling = None
        steps.append(f'a judge may give more, never less: "{guide.quotes.get("deviation_quote", "")}"')
    else:
        ceiling = suggested if not inf.range else max(suggested, inf.range[1], key=rank)
    if suggested == NONE:
        steps.append("the guide gives no penalty: record a ruling instead, unless a condition above applies")
    return Suggestion(guide, inf, player, offence, suggested, floor, ceiling, steps, same, minutes_late)


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
    day = (now or _now())[:10] if guide.count_scope == "day" else None
    return suggest(guide, inf, player, earlier_penalties(match.store, match, player, day=day),
                   minutes_late=minutes_late)


def _now() -> str:
    from engine.events import now_iso
    return now_iso()


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
    rec = match.record("judge.penalty", {k: v for k, v in payload.items() if v is not None}, actor=actor,
                       recorded_by=recorded_by)
    return rec, s


def render_suggestion(s: Suggestion, given: str | None = None) -> str:
    """The suggestion in words, for the terminal."""
    lines = [f"{s.player}, {s.infraction.name} [{s.infraction.id}]: the guide suggests {s.penalty}"
             + ("" if s.penalty == s.floor else f" (at least {s.floor})"),
             f"  guide: {s.guide.document} ({s.guide.document_date})"]
    lines += [f"  {i}. {step}" for i, step in enumerate(s.steps, 1)]
    if given is not None:
        d = s.deviation(given)
        lines.append(f"  given: {given}" + (f" — DEVIATION (DESK-11): {d}" if d else " (within the guide)"))
    return "\n".join(lines)
