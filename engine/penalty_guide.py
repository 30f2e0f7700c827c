"""Penalty guides as data, and what a guide gives: which penalty an infraction gets, given the
player's earlier penalties, and whether the penalty a judge gave departs from it (DESK-11).

    guide = guide_for("optcg")                       # engine/penalty_guides/optcg.toml
    inf = guide.find("Looking at Unnecessary Cards")  # by id or name
    s = suggest(guide, inf, "Bob", earlier)          # earlier: the player's Prior penalties
    s.penalty, s.steps                                # "Game Loss" on a second offence; why, quoted
    s.deviation("Caution")                            # the desk's words: below the guide's Warning
    guide.unsaid_deviation(event, earlier_events)     # DESK-11 of a penalty recorded without the desk

The guides (`penalty_guides/`, with their sources in SOURCES.md): `optcg.toml` is the ONE PIECE CARD
GAME Tournament Rules Manual's chapter 7 (Bandai, 2025-10-17); `generic.toml`, modelled on the Magic
IPG, serves every other game. A guide says how repeats are counted (`count_scope`: across the
whole event, or per day) and how a deviation is read (`deviation`: `never-reduce`, the manual's
"can increase ... but never reduce"; `exact`, the IPG's, where only the Head Judge deviates).

They are the game's data, so they live in the engine: the desk's DESK-11 reads a penalty against
them on every path a penalty is recorded (`judge penalty`, `log`, `live`, the web desk and
recorder, an import). `judge penalty` (judge/desk/penalties.py) adds what needs the store: the
player's earlier penalties across the whole event, and the suggestion stored with the penalty.
"""
from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import resources
from typing import Any

from engine.desk import PENALTY_LADDER, PENALTY_POLICIES
from engine.schema import InputError, shown
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
    # (from the N-th offence, penalty, up to): the guide's upgrade and the highest penalty its repeat
    # rule names (the TRM's repeated Warning "can be upgraded to a Game Loss, Match Loss or
    # Disqualification": Game Loss, up to Disqualification); up to is the penalty itself by default
    upgrades: tuple[tuple[int, str, str], ...] = ()
    upgrade_mode: str = "none-stated"
    range: tuple[str, str] | None = None             # the guide's "Penalty: Warning – Game Loss"
    thresholds: tuple[tuple[int, str], ...] = ()     # tardiness: (from M minutes late, penalty)
    conditions: tuple[tuple[str, str], ...] = ()     # (when, penalty): for the judge to weigh

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "category": self.category, "section": self.section,
                "default": self.default, "description": self.description, "quote": self.quote,
                "source": self.source, "confidence": self.confidence,
                "upgrades": [{"after": a, "penalty": p, "up_to": u} for a, p, u in self.upgrades],
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

    def infraction_of(self, payload: Mapping[str, Any]) -> Infraction | None:
        """The guide's infraction a penalty names: its `guide` (as `judge penalty` stores it), else
        an `infraction` that is one of the guide's ids (`log M judge.penalty --infraction
        OPTCG-PG-MARKED-CARDS`). A free-text infraction or a category ("Event Error") names none:
        the payload's `infraction` is a category on every other path, and a category is no id."""
        if payload.get("guide"):
            return self.lookup(payload["guide"])
        ref = str(payload.get("infraction", "")).strip().casefold()
        return next((i for i in self.infractions if i.id.casefold() == ref), None)

    def unsaid_deviation(self, e: Any, earlier: Iterable[Any]) -> str | None:
        """DESK-11 of a penalty event (`e`) recorded without the desk's suggestion: the desk's words
        when it names an infraction of this guide and gives less than the guide allows, counting
        the player's earlier offences of it among `earlier` (the match's penalty events before `e`
        that still count; the same UTC day's only, if the guide counts per day). Only *below*:
        an offence in another match of the event may rightly raise a penalty above what this
        match's log shows, and `judge penalty`, which counts the whole event, stores its own verdict."""
        p = e.payload
        inf = self.infraction_of(p)
        if inf is None or p.get("penalty") not in PENALTY_LADDER:
            return None
        day = day_of(e.recorded_at) if self.count_scope == "day" else None
        priors = [Prior.of(x, self) for x in earlier
                  if x.kind == "judge.penalty" and x.payload.get("player") == p["player"]
                  and (day is None or day_of(x.recorded_at) == day)]
        return suggest(self, inf, p["player"], priors, minutes_late=p.get("minutes_late")).below(p["penalty"])

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
        text = resources.files("engine.penalty_guides").joinpath(name).read_text(encoding="utf-8")
        _CACHE[name] = parse_guide(name.removesuffix(".toml"), tomllib.loads(text))
    return _CACHE[name]


NO_POLICY = "none"  # engine.desk's policy of a penalty no published policy applies to


def default_policy(ruleset: str) -> str:
    """The `policy` a new judge.penalty of this game is recorded under when none is given, on every
    path (EventValidator.draft fills it in: `judge penalty`, `log`, `live`, the web desk, imports).
    The game's guide's policy when it accepts whatever the desk's ladder and free text do (optcg's
    `bandai`): defaulting to it refuses nothing. Otherwise (the generic guide's `mtg-ipg`, which has
    no Caution and names three categories) `none`: the penalty is not said to follow a policy it was
    never checked against, and nothing accepted before is refused."""
    policy = PENALTY_POLICIES.get(guide_for(ruleset).policy)
    if policy is not None and not policy.categories and set(PENALTY_LADDER) <= set(policy.penalties):
        return policy.name
    return NO_POLICY


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
        upgrades = tuple(sorted((int(u["after"]), pen(u["penalty"], "upgrade"),
                                 pen(u.get("up_to", u["penalty"]), "upgrade's up_to")) for u in d.get("upgrades", [])))
        if any(a < 2 for a, _, _ in upgrades):
            raise ValueError(f"{where}: an upgrade applies from the 2nd offence on (after >= 2)")
        if any(rank(u) < rank(p) for _, p, u in upgrades):
            raise ValueError(f"{where}: an upgrade's up_to is below its penalty")
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

    @classmethod
    def of(cls, e: Any, guide: Guide, labels: Mapping[str, Any] | None = None) -> Prior:
        """A stored `judge.penalty` event as counted: its infraction read with its match's `guide`
        (a logged penalty naming a guide id is a repeat too); `labels`: its match's round, table."""
        return cls(e.match, e.position, e.payload["penalty"], e.payload["infraction"],
                   getattr(guide.infraction_of(e.payload), "id", None), e.recorded_at, dict(labels or {}))


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
    top: str                     # the highest penalty the guide names for this offence (range, repeat rule)
    steps: list[str]
    earlier: list[Prior]
    minutes_late: int | None = None
    linked: bool = True          # False: the match names no event, so other matches' penalties were not counted

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
        return self.below(penalty) or f"above the guide: {self._what()} gets {self.ceiling} at most in the " \
            f"{self.guide.game} guide"

    def below(self, penalty: str) -> str | None:
        """The desk's words when `penalty` is below what the guide allows (None: it is not)."""
        if self.allowed(penalty) or rank(penalty) >= rank(self.floor):
            return None
        rule = (f"the guide allows no penalty below it ({self.guide.quotes.get('deviation_quote', '')})"
                if self.guide.deviation_mode == "never-reduce" else "only the Head Judge deviates from the guide")
        return f"below the guide: {self._what()} gets {self.floor} at least; {rule}"

    def above(self, penalty: str) -> str | None:
        """The desk's words for a penalty above every one the guide names for this offence, where the
        guide lets a judge go higher (`never-reduce`: no ceiling, so no deviation): a judge's upgrade,
        said as one, never "within the guide" (QA: a Disqualification for a first Slow Play, whose
        range is Warning to Game Loss, was said "within the guide"). None: not above, or a deviation
        (`deviation` says it), or a penalty the guide names for a situation (`conditions`)."""
        if not self.allowed(penalty) or any(p == penalty for _, p in self.infraction.conditions):
            return None
        top = self.top
        if rank(penalty) <= rank(top):
            return None
        span = f"the guide gives {top}" if top == self.floor else f"the guide's range is {self.floor} to {top}"
        advice = self.guide.quotes.get("head_judge_quote")
        return f"above the guide (a judge's upgrade: {span})" + (f': "{advice}"' if advice else "")

    def _what(self) -> str:
        return f"the {ordinal(self.offence)} {self.infraction.name} ({self.infraction.id}) of {self.player}"

    def to_dict(self) -> dict[str, Any]:
        return {"infraction": self.infraction.to_dict(), "player": self.player, "offence": self.offence,
                "penalty": self.penalty, "floor": self.floor, "ceiling": self.ceiling, "top": self.top,
                "linked": self.linked, "steps": self.steps,
                "earlier": [p.to_dict() for p in self.earlier], "minutes_late": self.minutes_late,
                "guide": {"key": self.guide.key, "game": self.guide.game, "policy": self.guide.policy,
                          "document": self.guide.document, "document_date": self.guide.document_date,
                          "count_scope": self.guide.count_scope, "deviation": self.guide.deviation_mode}}


def suggest(guide: Guide, inf: Infraction, player: str, earlier: list[Prior], *,
            minutes_late: int | None = None, linked: bool = True) -> Suggestion:
    """The guide's penalty for `player`'s offence of `inf`, given their earlier penalties (already
    counted per the guide's scope; those of other infractions are ignored here). `linked` False: the
    earlier penalties are this match's only, because it names no event to find the others by; the
    count is said as this match's, never as the event's (QA71: "in this event: none: this is the 1st
    offence" for a player penalised in another match that day)."""
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
    if not linked:
        scope = "this match" + ("" if guide.count_scope == "event" else " today")
    counted = (f"{player}'s earlier penalties for it in {scope}: "
               + (", ".join(f"{p.penalty} (match {p.match} event {p.position})" for p in same) if same else "none"))
    steps.append(counted + f": this is the {ordinal(offence)} offence" + ("" if linked else
                 " in this match. This match names no tournament or event label, so penalties in other "
                 "matches cannot be linked and were not counted: ask the player, as the guide does "
                 "(record matches with `match new --event LABEL` to count them)"))
    suggested, floor = base, base
    if inf.range and guide.deviation_mode == "never-reduce" and rank(inf.range[0]) < rank(floor):
        floor = inf.range[0]
    up = [(p, u) for after, p, u in inf.upgrades if offence >= after]
    top = max([base] + ([inf.range[1]] if inf.range else []), key=rank)
    if up and rank(up[-1][0]) > rank(base):
        quote = guide.upgrade_quote(inf)
        word = {"mandatory": "is upgraded", "discretionary": "can be upgraded"}.get(inf.upgrade_mode, "is upgraded")
        to = up[-1][0] if up[-1][1] == up[-1][0] else f"{up[-1][0]} (the desk's suggestion) up to {up[-1][1]}"
        steps.append(f"a repeat {word} to {to}" + (f': "{quote}"' if quote else ""))
        suggested = up[-1][0]
        top = max(top, up[-1][1], key=rank)
        if inf.upgrade_mode == "mandatory":
            floor = up[-1][0]
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
        ceiling = max(suggested, top, key=rank)
    top = max(suggested, top, key=rank)
    if suggested == NONE:
        steps.append("the guide gives no penalty: record a ruling instead, unless a condition above applies")
    return Suggestion(guide, inf, player, offence, suggested, floor, ceiling, top, steps, same, minutes_late,
                      linked)


def day_of(recorded_at: str | None = None) -> str:
    """The UTC day (YYYY-MM-DD) of a recorded time (every append stamps one in UTC); today for an
    event being recorded (no time yet). The one cut of "the same day" for a guide counting per day."""
    return (recorded_at or datetime.now(timezone.utc).isoformat())[:10]
