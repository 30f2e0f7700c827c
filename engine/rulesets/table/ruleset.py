"""`table`: the generic ruleset. It knows cards, zones, counters and turns, and no game.

Use it for any card game the project has no ruleset for yet, and as the smallest complete example of
the plug-in interface. Its rules are the physical facts of a table (a card must be somewhere to be
moved), not a rulebook's, so their ids are TABLE-n and their source is this package's rules.toml.
"""
from __future__ import annotations

from engine.desk import OFF_TABLE_KINDS
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.hidden import FaceDown, forget, shown
from engine.state import Card, MissingCard, TableState
from engine.rulesets.base import History, Outcome, Ruleset
from engine.catalogue import load_rules
from .vocab import (
    Concede, Counter, Draw, GameEnd, Move, Phase, Reveal, Setup, Shuffle, Turn,
)

RULES = load_rules(__package__)

# Face down: a deck and a Life pile (ordered: the top is the last card), a hand and the side zone
# (unordered). The field and the trash are open. See engine/hidden.py and docs/rulesets/table.md.
FACE_DOWN = FaceDown.zones(ordered=("deck", "life"), unordered=("hand", "side"))


class TableRuleset(Ruleset):
    name = "table"
    title = "Generic table (cards, zones, counters, turns)"
    rulebook = ""
    version = 2  # 2: cards out of face-down zones (engine/hidden.py)
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
        for i in range(p.get("count", 1)):  # always the top card; a name identifies it
            code = named[i] if i < len(named) else None
            s.put(p["player"], "hand", _take(s, p["player"], "deck", "hand", code=code, by_position=True))

    def apply_move(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        dest = p.get("to_player") or p["player"]
        # `from_where: bottom` names a place: the bottom card moves, whatever the record knows of it
        bottom = p.get("from_where") == "bottom"
        for _ in range(p.get("count", 1)):
            card = _take(s, p["player"], p["from_zone"], p["to_zone"], uid=p.get("uid"), code=p.get("card"),
                         where=p.get("from_where", "top"), by_position=bottom and not p.get("uid"))
            s.put(dest, p["to_zone"], card, p.get("to_where", "top"))

    def apply_reveal(self, s: TableState, e: RecordedEvent) -> None:
        for card in _revealed_cards(s, e.payload)[0]:
            card.code = e.payload["card"]

    def apply_shuffle(self, s: TableState, e: RecordedEvent) -> None:
        # A shuffled zone's order is unknown: which card is where is no longer known either.
        if e.payload["zone"] in FACE_DOWN:
            forget(s.zone(e.payload["player"], e.payload["zone"]))

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

    def check(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        out = []
        if s.result is not None and e.kind not in OFF_TABLE_KINDS:
            out.append(self.flag("TABLE-3", e, f"{e.kind} recorded after the game ended "
                                 f"({s.result['how']}, event {s.result.get('position')})"))
        return out + super().check(s, e, history)

    def check_turn(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        n = e.payload.get("number")
        if n is not None and n != s.turn + 1:
            return [self.flag("TABLE-2", e, f"turn {n} follows turn {s.turn}")]
        return []

    def check_draw(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        have = len(s.zone(p["player"], "deck"))
        out = self._named_draw_findings(s, e)
        if have < p.get("count", 1):
            out.append(self.flag("TABLE-1", e, f"{p['player']} draws {p.get('count', 1)} but the deck holds {have}"))
        return out

    def check_move(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        cards = s.zone(p["player"], p["from_zone"])
        n = p.get("count", 1)
        where = f"{p['player']}'s {p['from_zone']}"
        if p.get("from_where") == "bottom" and p.get("card") and not p.get("uid") and p["from_zone"] in FACE_DOWN:
            wrong = [c.code for c in cards[:n] if FACE_DOWN.contradicts(c, p["card"])]
            if wrong:
                return [self.flag("TABLE-4", e, f"the bottom card of {where} is known as {wrong[0]}; the record "
                                  f"names {p['card']}")]
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

    def _named_draw_findings(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        """Named draws take the top cards: one already revealed as another card contradicts the record."""
        deck = list(s.zone(e.payload["player"], "deck"))
        out = []
        for code in e.payload.get("cards", ()):
            top = deck.pop() if deck else None
            if FACE_DOWN.contradicts(top, code):
                out.append(self.flag("TABLE-4", e, f"the top card of {e.payload['player']}'s deck is known as "
                                     f"{top.code}; the record names {code}"))
        return out

    def check_reveal(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        if p.get("uid"):
            where = s.find(p["uid"])
            if where is None:
                return [self.flag("TABLE-1", e, f"card {p['uid']} is nowhere on the table")]
            card = s.zone(where[0], where[1])[where[2]]
            if FACE_DOWN.contradicts(card, p["card"]):
                return [self.flag("TABLE-4", e, f"card {p['uid']} is known as {card.code}, revealed as {p['card']}")]
            return []
        cards, missing = _revealed_cards(s, p)
        if missing:
            held = s.zone(p["player"], p["zone"])
            if len(held) < p.get("count", 1):
                return [self.flag("TABLE-1", e, f"{p['player']}'s {p['zone']} holds {len(held)} card(s): "
                                  f"{p.get('count', 1)} cannot be revealed")]
            return [self.flag("TABLE-4", e, f"{p.get('count', 1)} x {p['card']} revealed in {p['player']}'s "
                              f"{p['zone']}, where only {len(cards)} card(s) could be it")]
        return []

    # --- hidden information -----------------------------------------------------------------

    def hide(self, kind: str, payload: dict) -> dict:
        """What a recorder writes without seeing face-down cards (deck, hand, life, side): cards drawn,
        set up face down, or moved between face-down zones become counts; instance ids inside those zones
        are dropped; moves into the open (field, trash), reveals and counters stay."""
        p = dict(payload)
        if kind == "draw":
            p.pop("cards", None)
        elif kind == "setup" and p["zone"] in FACE_DOWN and p.get("cards"):
            p["count"] = p.get("count", 0) + len(p.pop("cards"))
        elif kind == "move":
            p = FACE_DOWN.hide_move(p, p["from_zone"], p["to_zone"])
        elif kind == "reveal" and p["zone"] in FACE_DOWN:
            p.pop("uid", None)
        return p

    # --- outcome --------------------------------------------------------------------------

    def outcome(self, s: TableState) -> Outcome | None:
        if s.result is None:
            return None
        return Outcome(s.result["result"], s.result.get("winner"), s.result["how"],
                       [f"recorded at event {s.result.get('position')}"], position=s.result.get("position"))

    def describe(self, e: RecordedEvent) -> str:
        p = e.payload
        if e.kind == "move":
            what = p.get("card") or (f"card {p['uid']}" if p.get("uid") else "a card")
            n = p.get("count", 1)
            what = what if n == 1 else f"{n} cards"
            dest = f"{p['to_player']}'s " if p.get("to_player") else ""
            return f"{p['player']} moves {what} from {p['from_zone']} to {dest}{p['to_zone']}"
        if e.kind == "reveal":
            n = p.get("count", 1)
            return f"{p['player']} reveals {p['card'] if n == 1 else f'{n} x ' + p['card']} in {p['zone']}"
        if e.kind == "setup":
            return f"{p['player']}: {p.get('count', 0) + len(p.get('cards', ()))} cards into {p['zone']}"
        return super().describe(e)


def _take(s: TableState, player: str, zone: str, dst: str, *, code: str | None = None, uid: str | None = None,
          where: str = "top", by_position: bool = False) -> Card:
    """Take a card. Out of a face-down zone, engine/hidden.py decides which (never by what the record
    knows) and a card reaching an open zone gets a fresh id. If it is not there the move still happened
    at the table (record, then judge), so a card appears from nowhere and check() has flagged it."""
    if zone in FACE_DOWN:
        card = FACE_DOWN.take(s, player, zone, code=code, uid=uid, where=where, by_position=by_position)
        if card is None:
            return s.new_card(player, code)
        return FACE_DOWN.move_out(s, player, zone, dst, card)
    try:
        return s.take(player, zone, uid=uid, code=code, where=where)
    except MissingCard:
        return s.new_card(player, code)


def _revealed_cards(s: TableState, p: dict) -> tuple[list[Card], int]:
    """The cards a reveal shows (the one with `uid`, else engine/hidden.py `shown`), and how many it
    could not find. (A reveal by uid is judged by check_reveal itself.)"""
    if p.get("uid"):
        where = s.find(p["uid"])
        return ([], 1) if where is None else ([s.zone(where[0], where[1])[where[2]]], 0)
    return shown(s.zone(p["player"], p["zone"]), p["card"], p.get("count", 1))


RULESET = TableRuleset
