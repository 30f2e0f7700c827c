"""Hidden information in `optcg`: what a scorekeeper records without seeing hands, the deck or the Life
cards (`hide`), and what a record that names cards must allow (OPTCG-REVEAL-1).

How unknown cards move is engine/hidden.py (shared with `table`); docs/rulesets/optcg.md, "Hidden
information", says it kind by kind.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from engine.events import RecordedEvent
from engine.findings import Finding
from engine.hidden import known_copies, shown
from engine.rulesets.base import Ruleset
from engine.state import Card, TableState
from . import table as T


def hide(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The event as a scorekeeper records it: drawn cards, Life cards placed or taken into the hand,
    cards moved between face-down zones, and instance ids inside them become unknown; plays, counters,
    [Trigger] cards revealed, cards reaching an open zone, attacks, damage and every count stay."""
    p = dict(payload)
    if kind in ("draw", "life.placed"):
        if kind == "life.placed" and p.get("count") is None and p.get("cards"):
            p["count"] = len(p["cards"])  # the count the names gave stays (no count: the Leader's Life)
        p.pop("cards", None)
    elif kind == "play":
        p.pop("uid", None)  # an instance in the hand
    elif kind == "life.taken" and p.get("to", "hand") == "hand":
        p.pop("card", None)
    elif kind in ("move", "trash"):
        p = T.FACE_DOWN.hide_move(p, p.get("from_zone", "hand"), p.get("to_zone", "trash"))
    elif kind == "reveal" and p.get("zone") in T.FACE_DOWN:
        p.pop("uid", None)
    return p


def revealed(s: TableState, p: dict) -> tuple[list[Card], int]:
    """The cards a reveal shows, and how many it shows that the record has no room for: the card with
    `uid`; else copies of the zone already known as that card (a reveal confirms them), then its topmost
    unknown cards (engine/hidden.py `shown`)."""
    if p.get("uid"):
        hit = T.where_is(s, p["uid"])
        return ([hit[2]], 0) if hit else ([], 1)
    return shown(s.zone(p["player"], p["zone"]), p["card"], p.get("count", 1))


def reveal_findings(rs: Ruleset, s: TableState, e: RecordedEvent) -> list[Finding]:
    """A reveal shows cards: they must fit what the record says is there."""
    p = e.payload
    cards, missing = revealed(s, p)
    if p.get("uid") and missing:
        return [rs.flag("OPTCG-REVEAL-1", e, f"card {p['uid']} is nowhere on the table")]
    if missing:
        held = s.zone(p["player"], p["zone"])
        what = ", ".join(sorted(c.code for c in held if c.code)) or "nothing"
        return [rs.flag("OPTCG-REVEAL-1", e, f"{p.get('count', 1)} x {p['card']} revealed in {p['player']}'s "
                        f"{p['zone']}, which holds {len(held)} card(s), {len(cards)} of which could be it "
                        f"(known: {what})")]
    if cards and T.FACE_DOWN.contradicts(cards[0], p["card"]):
        return [rs.flag("OPTCG-REVEAL-1", e, f"card {cards[0].uid} was recorded as {cards[0].code}, revealed "
                        f"as {p['card']}")]
    return []


def top_cards_findings(rs: Ruleset, s: TableState, e: RecordedEvent) -> list[Finding]:
    """Cards taken from the top of the deck and named (a draw, Life placed): a top card already revealed
    as another card contradicts the record."""
    deck = list(s.zone(e.payload["player"], "deck"))
    out = []
    for code in e.payload.get("cards", ()):
        top = deck.pop() if deck else None
        if T.FACE_DOWN.contradicts(top, code):
            out.append(rs.flag("OPTCG-REVEAL-1", e, f"the top card of {e.payload['player']}'s deck was revealed "
                               f"as {top.code}; the record names {code}"))
    return out


def copies_findings(rs: Ruleset, s: TableState, e: RecordedEvent) -> list[Finding]:
    """Cards named by this event that the registered deck cannot hold: more copies of a number than its
    decklist has are then known to be among the player's cards. In a hidden record this is how a reveal
    (or a play) contradicts what was recorded before; unknown cards never count."""
    out = []
    for (player, code), n in Counter(newly_named(s, e)).items():
        have = T.pinfo(s, player).get("decklist") or []
        if not have or T.category(s, code) == "leader":
            continue
        allowed = have.count(code)
        known = known_copies(s, player, code, T.CARD_ZONES)
        if known + n > allowed:
            out.append(rs.flag("OPTCG-REVEAL-1", e, f"{code} is named as {n} more card(s) of {player}'s: "
                               f"{known} already known, and the registered deck holds {allowed}"))
    return out


def newly_named(s: TableState, e: RecordedEvent) -> list[tuple[str, str]]:
    """(player, card number) for each card this event identifies that was not known as it before."""
    p = e.payload
    player = p.get("player")
    if player not in s.zones:
        return []
    fresh: list[tuple[str, str]] = []
    if e.kind in ("draw", "life.placed"):
        deck = list(s.zone(player, "deck"))
        for code in p.get("cards", ()):
            top = deck.pop() if deck else None
            if top is None or top.code != code:
                fresh.append((player, code))
    elif e.kind in ("play", "counter"):
        if not T.locate(s, player, ("hand",), code=p["card"]):
            fresh.append((player, p["card"]))
    elif e.kind == "life.taken" and p.get("card"):
        life = s.zone(player, "life")
        if life and life[-1].code != p["card"]:
            fresh.append((player, p["card"]))
    elif e.kind in ("move", "trash") and p.get("card") and p.get("from_zone", "hand") in T.FACE_DOWN:
        zone = (p.get("from_zone", "hand"),)
        hit = T.locate(s, player, zone, uid=p["uid"]) if p.get("uid") else T.locate(s, player, zone, code=p["card"])
        if hit is None or hit[1].code != p["card"]:
            fresh.append((player, p["card"]))
    elif e.kind == "reveal":
        fresh += [(player, p["card"]) for c in revealed(s, p)[0] if c.code != p["card"]]
    return fresh
