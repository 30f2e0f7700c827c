"""Plain words for the `optcg` event kinds that need code (a card by number or by instance, a zone, an
effect's costs), as a judge would read the log aloud ("Bob counters with OP06-038 (event, paid 1)");
the others are templates in words.toml. A card the event does not name is "a card"."""
from __future__ import annotations

from typing import Any

from engine.words import plural

ZONE_WORDS = {"deck": "the deck", "hand": "the hand", "leader": "the Leader area",
              "characters": "the Character area", "stage": "the Stage area", "trash": "the trash",
              "life": "the Life area", "don_deck": "the DON!! deck", "cost": "the cost area",
              "attached": "the attached DON!!"}

# The bracketed timing words printed on the cards.
TIMING_WORDS = {"main": "[Main]", "activate_main": "[Activate: Main]", "on_play": "[On Play]",
                "when_attacking": "[When Attacking]", "on_block": "[On Block]", "counter": "[Counter]",
                "trigger": "[Trigger]", "on_ko": "[On K.O.]", "end_of_turn": "[End of Your Turn]",
                "during_turn": "[Your Turn]", "opponent_turn": "[Opponent's Turn]",
                "battle_end": "(at the end of the battle)", "other": ""}

GAME_END_WORDS = {"life": "a Leader took damage with no Life left", "deck-out": "deck-out",
                  "concession": "concession", "time": "time", "other": "other"}


def zone(name: str) -> str:
    return ZONE_WORDS.get(name, name)


def card(p: dict[str, Any], code: str = "card", uid: str = "uid") -> str:
    """A card by number, else by instance, else "a card"."""
    if p.get(code):
        return str(p[code])
    if p.get(uid):
        return f"card {p[uid]}"
    return "a card"


def by(p: dict[str, Any]) -> str:
    return f" (by {p['by']})" if p.get("by") else ""


def cards_named(p: dict[str, Any]) -> str:
    return f" ({', '.join(p['cards'])})" if p.get("cards") else ""


def describe(kind: str, p: dict[str, Any]) -> str | None:
    """The words for an optcg kind, or None for a kind this module does not know (core kinds)."""
    who = p.get("player", "")
    if kind == "deck.registered":
        size = len(p["deck"]) if p.get("deck") else p.get("deck_size")
        deck = plural(size, "card") if size is not None else "deck size not given"
        source = f", from {p['source']}" if p.get("source") else ""
        return f"{who} registers a deck: Leader {p['leader']}, {deck}, {p.get('don', 10)} DON!!{source}"
    if kind == "mulligan":
        if p.get("decision", "mulligan") == "keep":
            return f"{who} keeps the opening hand"
        back = ": the hand goes back into the deck" if p.get("return_hand", True) else ""
        return f"{who} takes a mulligan{back}"
    if kind == "life.placed":
        n = p.get("count") if p.get("count") is not None else (len(p["cards"]) if p.get("cards") else None)
        what = plural(n, "Life card") if n is not None else "the Leader's Life in Life cards"
        return f"{who} places {what}{cards_named(p)}{by(p)}"
    if kind == "phase":
        name = "DON!!" if p["name"] == "don" else p["name"]
        return f"{who}: {name} phase"
    if kind == "don":
        rested = " (rested)" if p.get("rested") else ""
        n = p.get("count")
        what = f"{n} DON!!" if n is not None else "the DON!! phase's DON!! (2; 1 in turn 1)"
        return f"{who} takes {what}{rested}{by(p)}"
    if kind == "don.attach":
        rested = " rested" if p.get("rested") else ""
        return f"{who} attaches {p.get('count', 1)}{rested} DON!! to {card(p, 'card', 'to')}{by(p)}"
    if kind == "don.detach":
        state = "rested" if p.get("rested", True) else "active"
        source = f" from {card(p)}" if p.get("card") or p.get("uid") else ""
        return f"{who} returns {p.get('count', 1)} attached DON!!{source} to the cost area, {state}{by(p)}"
    if kind == "don.minus":
        source = "the attached DON!!" if p.get("source") == "attached" else "the cost area"
        return f"{who}: DON!! -{p.get('count', 1)} (from {source} back to the DON!! deck){by(p)}"
    if kind == "effect":
        return effect(p)
    if kind == "rest":
        return f"{who}'s {card(p)} is rested{by(p)}"
    if kind == "set.active":
        return f"{who}'s {card(p)} is set active{by(p)}"
    if kind == "power.mod":
        lasting = {"battle": "during this battle", "turn": "this turn",
                   "permanent": "while on the field"}[p.get("duration", "turn")]
        return f"{who}'s {card(p)} gets {p['amount']:+d} power {lasting}{by(p)}"
    if kind == "player.left":
        return left_words(p)
    if kind == "player.named":
        return f"{p['player']} is named {p['name']} ({p['reason']})"
    if kind == "log.count":
        at = f" (line {p['line']})" if p.get("line") is not None else ""
        return f"the log's {p.get('source') or 'RZ1|CHK'}{at} says {who}'s {p['zone']} holds {p['count']} card(s)"
    if kind == "keyword.gain":
        return f"{who}'s {card(p)} gains [{p['keyword'].title()}] this turn{by(p)}"
    if kind == "attack":
        return (f"{who} attacks {p.get('target') or p.get('target_uid')} "
                f"with {p.get('attacker') or p.get('attacker_uid')}")
    if kind == "block":
        return f"{who} blocks with {card(p)}"
    if kind == "counter":
        parts = [p["kind"]] if p.get("kind") else []
        if p.get("amount") is not None:
            parts.append(f"{p['amount']:+d}")
        if p.get("target") or p.get("target_uid"):
            parts.append(f"on {card(p, 'target', 'target_uid')}")
        if p.get("paid") is not None:
            parts.append(f"paid {p['paid']}")
        return f"{who} counters with {p['card']}" + (f" ({', '.join(parts)})" if parts else "")
    if kind == "damage.step":
        a, t = p.get("attacker_power"), p.get("target_power")
        if a is None and t is None:
            return "damage step"
        return f"damage step: attacker {a if a is not None else '?'} power against {t if t is not None else '?'}"
    if kind == "life.taken":
        life = p.get("card") or "a Life card"
        to = p.get("to", "hand")
        where = {"hand": f"{life} to the hand", "trigger": f"{life} revealed for its [Trigger]",
                 "trash": f"{life} to the trash"}[to]
        return f"{who} takes 1 damage: {where}{by(p)}"
    if kind == "ko":
        return f"{who}'s {card(p)} is K.O.'d{by(p)}"
    if kind == "trash":
        return f"{who} trashes {card(p)} from {zone(p.get('from_zone', 'hand'))}{by(p)}"
    if kind == "move":
        to = zone(p["to_zone"])
        if p.get("where") == "bottom":
            to = f"the bottom of {to.removeprefix('the ')}"
        return f"{who} moves {card(p)} from {zone(p['from_zone'])} to {to}{by(p)}"
    if kind == "reveal":
        n = p.get("count", 1)
        return f"{who} reveals {p['card'] if n == 1 else f'{n} x ' + p['card']} in {zone(p['zone'])}"
    if kind == "shuffle":
        return f"{who} shuffles {zone(p.get('zone', 'deck'))}{by(p)}"
    if kind == "game.end":
        how = GAME_END_WORDS.get(p["how"], p["how"])
        winner = f"{p['winner']} wins" if p.get("winner") else "no winner"
        return f"game over: {winner} ({how})"
    return None


def effect(p: dict[str, Any]) -> str:
    """`Ann activates OP01-001 [Activate: Main] [Once Per Turn] (cost: rest 1 DON!!): +2000 ...`."""
    tags = [TIMING_WORDS.get(p.get("timing", "other"), "")]
    if p.get("once_per_turn"):
        tags.append("[Once Per Turn]")
    if p.get("don_req"):
        tags.append(f"[DON!! x{p['don_req']}]")
    costs = []
    if p.get("rest_don"):
        costs.append(f"rest {p['rest_don']} DON!!")
    if p.get("don_minus"):
        costs.append(f"DON!! -{p['don_minus']}")
    words = f"{p['player']} activates {card(p)}" + "".join(f" {t}" for t in tags if t)
    if costs:
        words += f" (cost: {', '.join(costs)})"
    if p.get("text"):
        words += f": {p['text']}"
    return words


def left_words(p: dict[str, Any]) -> str:
    """`player.left` in words (the event, and `state`/the report when the log shows no result)."""
    who = p.get("player") or "a player the log does not name"
    how = "quit" if p["how"] == "quit" else "disconnected"
    said = f", the log's line {p['line']}" if p.get("line") is not None else ""
    return f"{who} left the game ({how}{said}) with no result before it: an uncertain loss, as the simulator recorded it"
