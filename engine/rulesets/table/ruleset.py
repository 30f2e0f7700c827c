"""`table`: the generic ruleset. It knows cards, zones, counters and turns, and no game.

Use it for any card game the project has no ruleset for yet, and as the smallest complete example of
the plug-in interface. Its rules are the physical facts of a table (a card must be somewhere to be
moved), not a rulebook's, so their ids are TABLE-n and their source is this package's rules.toml.
"""
from __future__ import annotations

from engine.desk import OFF_TABLE_KINDS
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.state import MissingCard, TableState
from engine.rulesets.base import Outcome, Ruleset
from engine.catalogue import load_rules
from .vocab import (
    Concede, Counter, Draw, GameEnd, Move, Phase, Reveal, Setup, Shuffle, Turn,
)

RULES = load_rules(__package__)


class TableRuleset(Ruleset):
    name = "table"
    title = "Generic table (cards, zones, counters, turns)"
    rulebook = ""
    version = 1
    max_cards = 1000  # any count of cards; a generic table: as many cards as a list may hold
    zones = ("deck", "hand", "field", "trash", "life", "side")
    counters = {}
    kinds = (Setup, Turn, Phase, Draw, Move, Reveal, Shuffle, Counter, Concede, GameEnd)
    rules = RULES

    # --- apply ----------------------------------------------------------------------------

    def apply_setup(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        for _ in range(p.get("count", 0)):
            s.put(p["player"], p["zone"], s.new_card(p["player"]))
        for code in p.get("cards", ()):
            s.put(p["player"], p["zone"], s.new_card(p["player"], code))

    def apply_turn(self, s: TableState, e: RecordedEvent) -> None:
        s.turn = e.payload.get("number") or s.turn + 1
        s.active = e.payload["player"]
        s.phase = None

    def apply_phase(self, s: TableState, e: RecordedEvent) -> None:
        s.phase = e.payload["name"]

    def apply_draw(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        named = list(p.get("cards", ()))
        for i in range(p.get("count", 1)):
            card = _take_or_phantom(s, p["player"], "deck", where="top")
            if i < len(named):
                card.code = named[i]
            s.put(p["player"], "hand", card)

    def apply_move(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        dest = p.get("to_player") or p["player"]
        for _ in range(p.get("count", 1)):
            card = _take_or_phantom(s, p["player"], p["from_zone"], uid=p.get("uid"),
                                    code=p.get("card"), where=p.get("from_where", "top"))
            s.put(dest, p["to_zone"], card, p.get("to_where", "top"))

    def apply_reveal(self, s: TableState, e: RecordedEvent) -> None:
        card = _revealed_card(s, e.payload)
        if card is not None:
            card.code = e.payload["card"]

    def apply_counter(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        counters = s.counters[p["player"]] if p.get("player") else s.extra.setdefault("counters", {})
        counters[p["name"]] = p["set"] if p.get("set") is not None else counters.get(p["name"], 0) + p["add"]

    def apply_concede(self, s: TableState, e: RecordedEvent) -> None:
        others = [x for x in s.players if x != e.payload["player"]]
        s.result = {"result": "win", "winner": others[0] if len(others) == 1 else None,
                    "how": f"{e.payload['player']} conceded", "position": e.position}

    def apply_game_end(self, s: TableState, e: RecordedEvent) -> None:
        w = e.payload.get("winner")
        s.result = {"result": "win" if w else "draw", "winner": w, "how": e.payload["how"],
                    "position": e.position}

    # --- check ----------------------------------------------------------------------------

    def check(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        out = []
        if s.result is not None and e.kind not in OFF_TABLE_KINDS:
            out.append(self.flag("TABLE-3", e, f"{e.kind} recorded after the game ended "
                                 f"({s.result['how']}, event {s.result.get('position')})"))
        return out + super().check(s, e)

    def check_turn(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        n = e.payload.get("number")
        if n is not None and n != s.turn + 1:
            return [self.flag("TABLE-2", e, f"turn {n} follows turn {s.turn}")]
        return []

    def check_draw(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        have = len(s.zone(p["player"], "deck"))
        if have < p.get("count", 1):
            return [self.flag("TABLE-1", e, f"{p['player']} draws {p.get('count', 1)} but the deck holds {have}")]
        return []

    def check_move(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        cards = s.zone(p["player"], p["from_zone"])
        n = p.get("count", 1)
        where = f"{p['player']}'s {p['from_zone']}"
        if p.get("uid"):
            if not any(c.uid == p["uid"] for c in cards):
                return [self.flag("TABLE-1", e, f"card {p['uid']} is not in {where}")]
        elif p.get("card"):
            # a card by number: a known copy, or an unknown card that turns out to be it
            fits = sum(1 for c in cards if c.code in (p["card"], None))
            if fits < n:
                return [self.flag("TABLE-1", e, f"{where} holds {fits} card(s) that could be {p['card']}, {n} moved")]
        elif len(cards) < n:
            return [self.flag("TABLE-1", e, f"{where} holds {len(cards)} card(s), {n} moved")]
        return []

    def check_reveal(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        if p.get("uid"):
            where = s.find(p["uid"])
            if where is None:
                return [self.flag("TABLE-1", e, f"card {p['uid']} is nowhere on the table")]
            card = s.zone(where[0], where[1])[where[2]]
            if card.code is not None and card.code != p["card"]:
                return [self.flag("TABLE-4", e, f"card {p['uid']} is known as {card.code}, revealed as {p['card']}")]
            return []
        if _revealed_card(s, p) is None:
            return [self.flag("TABLE-1", e, f"no unknown card in {p['player']}'s {p['zone']} to reveal")]
        return []

    # --- outcome --------------------------------------------------------------------------

    def outcome(self, s: TableState) -> Outcome | None:
        if s.result is None:
            return None
        return Outcome(s.result["result"], s.result.get("winner"), s.result["how"],
                       [f"recorded at event {s.result.get('position')}"])

    def describe(self, e: RecordedEvent) -> str:
        p = e.payload
        if e.kind == "move":
            what = p.get("card") or (f"card {p['uid']}" if p.get("uid") else "a card")
            n = p.get("count", 1)
            what = what if n == 1 else f"{n} cards"
            dest = f"{p['to_player']}'s " if p.get("to_player") else ""
            return f"{p['player']} moves {what} from {p['from_zone']} to {dest}{p['to_zone']}"
        if e.kind == "draw":
            names = f" ({', '.join(p['cards'])})" if p.get("cards") else ""
            return f"{p['player']} draws {p.get('count', 1)}{names}"
        if e.kind == "turn":
            return f"turn {p.get('number') or ''} begins: {p['player']}".replace("  ", " ")
        if e.kind == "counter":
            change = f"= {p['set']}" if p.get("set") is not None else f"{p['add']:+d}"
            return f"{p.get('player') or 'table'} {p['name']} {change}"
        if e.kind == "concede":
            return f"{p['player']} concedes"
        if e.kind == "game.end":
            return f"game over: {p.get('winner') or 'no winner'} ({p['how']})"
        if e.kind == "reveal":
            return f"{p['player']} reveals {p['card']} in {p['zone']}"
        if e.kind == "setup":
            return f"{p['player']}: {p.get('count', 0) + len(p.get('cards', ()))} cards into {p['zone']}"
        if e.kind == "phase":
            return f"phase: {p['name']}"
        if e.kind == "shuffle":
            return f"{p['player']} shuffles the {p['zone']}"
        return super().describe(e)


def _take_or_phantom(s: TableState, player: str, zone: str, **how):
    """Take a card; if it is not there the move still happened at the table (record, then judge),
    so an unknown card appears from nowhere and check() has flagged it."""
    try:
        return s.take(player, zone, **how)
    except MissingCard:
        return s.new_card(player, how.get("code"))


def _revealed_card(s: TableState, p: dict):
    if p.get("uid"):
        where = s.find(p["uid"])
        return None if where is None else s.zone(where[0], where[1])[where[2]]
    for card in reversed(s.zone(p["player"], p["zone"])):
        if card.code is None:
            return card
    return None


RULESET = TableRuleset
