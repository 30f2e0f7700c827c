"""Plain words for the `op2009` event kinds that need code (a choice, a count, a walk over hits); the
others are templates in words.toml. English, with the rulebook's Italian names for the
places on the table (Forziere, Giornale di Bordo, Oceano, ...). A card not named is "a card"."""
from __future__ import annotations

from typing import Any

from engine.words import plural

ZONE_WORDS = {"forziere": "the Forziere", "mano": "the hand", "giornale": "the Giornale di Bordo",
              "oceano": "the Oceano", "trofei": "the Trophies", "capitano": "the capitano space",
              "marinaio1": "the marinaio1 space", "marinaio2": "the marinaio2 space",
              "vita_capitano": "the capitano's Life Points", "vita_marinaio1": "the marinaio1's Life Points",
              "vita_marinaio2": "the marinaio2's Life Points", "rinforzi": "the Reinforcement space",
              "tecniche": "the Technique space", "sideboard": "the sideboard"}


def zone(name: str) -> str:
    return ZONE_WORDS.get(name, name)


def named(cards: list[str] | None) -> str:
    return f" ({', '.join(cards)})" if cards else ""


def describe(kind: str, p: dict[str, Any]) -> str | None:
    """The words for an op2009 kind, or None for a kind this module does not know (core kinds)."""
    who = p.get("player", "")
    if kind == "damage":
        hits = ", ".join(f"{h['player']}'s {h['space']} -{h['amount']}" for h in p["hits"])
        return f"damage ({p.get('cause', 'battaglia')}): {hits}"
    if kind == "deck.register":
        side = f", sideboard of {plural(len(p['sideboard']), 'card')}" if p.get("sideboard") else ""
        return f"{who} registers a deck of {plural(len(p['cards']), 'card')}{side}"
    if kind == "sideboard":
        out = ", ".join(p.get("out") or []) or "nothing"
        into = ", ".join(p.get("into") or []) or "nothing"
        return f"{who} sideboards: out {out}; in {into}"
    if kind == "game.end":
        winner = f"{p['winner']} wins" if p.get("winner") else "no winner"
        return f"game over: {winner} ({p['how']})"
    if kind == "shuffle":
        if p.get("by") and p["by"] != who:
            return f"{p['by']} shuffles {who}'s Forziere"
        return f"{who} shuffles the Forziere"
    if kind == "logbook.deal":
        return f"{who} deals {plural(p.get('count', 6), 'card')} face down to the Giornale di Bordo"
    if kind == "fase.finale":
        discarded = len(p.get("discard") or []) + p.get("discard_count", 0)
        if p.get("draw"):
            does = f"draws {p['draw']}{named(p.get('drawn'))}"
        elif discarded:
            does = f"discards {discarded} to the Oceano{named(p.get('discard'))}"
        else:
            does = "the hand is already at 4"
        return f"{who}: Fase Finale, {does}"
    if kind == "battle.prevented":
        return (f"{who}: the Battle of the {p['attacker']} is prevented by {p['card']} "
                f"({plural(p.get('cost', 1), 'Action')} spent)")
    if kind == "ability":
        effect = f": {p['effect']}" if p.get("effect") else ""
        return (f"{who}: the {p['space']}'s Special Ability ({p['card']}, "
                f"{plural(p.get('cost', 0), 'Action')}){effect}")
    if kind == "reinforce":
        crew = f", {p['crew']}" if p.get("crew") else ""
        team = ", Team card" if p.get("team") else ""
        hurt = f"; the fighting Character takes {p['damage']} damage" if p.get("damage") else ""
        return f"{who} reinforces with {p['name']} ({p['card']}{crew}{team}){hurt}"
    if kind == "technique":
        usable = p.get("usable_by", "Chiunque")
        notes = [f"usable by {usable}"] if usable != "Chiunque" else []
        if p.get("limit") is not None:
            notes.append(f"Limitato {p['limit']}")
        if p.get("interrupt"):
            notes.append("in the opponent's battle turn")
        effect = f": {p['effect']}" if p.get("effect") else ""
        return f"{who} plays the Technique {p['card']}" + (f" ({', '.join(notes)})" if notes else "") + effect
    if kind == "modifier":
        changes = [f"{p[k]:+d} {k}" for k in ("power", "damage") if p.get(k)]
        return f"{who}'s {p['space']} gets {', '.join(changes) or 'no change'} ({p['card']})"
    if kind == "draw":
        cards = p.get("cards") or ([p["card"]] if p.get("card") else [])
        return f"{who} draws {p.get('count', 1)}{named(cards)}"
    if kind == "move":
        what = p.get("card") or "a card"
        what = what if p.get("count", 1) == 1 else f"{p['count']} cards"
        to = zone(p["to_zone"]) + (" (bottom)" if p.get("to_where") == "bottom" else "")
        source = f" (by {p['by_card']})" if p.get("by_card") else ""
        return f"{who} moves {what} from {zone(p['from_zone'])} to {to}{source}"
    return None
