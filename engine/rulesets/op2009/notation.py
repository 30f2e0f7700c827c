"""The notation of `op2009` (One Piece CardGame 2009, MM25 rules). Spaces are written short:
`cap` (capitano), `m1`, `m2` (marinaio1/2); zones by their names (mano, oceano, forziere, ...).

    [Deck "A" "4xLK-C01 4xLK-C05 ..."]     deck.register (straw_hats=/sideboard= in a body line)
    game A "coin toss"                     game.start: A starts (game N, method)
    A: shuffle / A: shuffle B              (B shuffles again)
    A: logbook · A: deal                   logbook.deal (6), hand.deal (7)
    A: mulligan / A: redraw
    A: place cap LK-C01 Rufy 3 500 1 "Pirati di Rufy"   prep.place: space card name life power damage crew
    reveal                                 prep.reveal
    T3 A:                                  turn.start (the number is derived and checked)
    A: iniziale [CARD]                     the Fase Iniziale draw
    A: battle cap cap                      battle.start: attacker target [cost] [via]
    A: log · A: grow [CARD] · A: pass      logbook.update, hand.grow, pass
    A: sailor m2 LK-C09 Nami 1 200 1 "Pirati di Rufy"   sailor.call
    A: shift m1 m2                         sailor.move
    A: ability cap LK-C01 1 "text"         ability: space card cost effect
    A: tech LK-W01 Rufy +200/+2            technique: card usable_by effect (limit=, interrupt)
    A: mod cap LK-W01 200 2                modifier: space card power damage
    B: reinforce BA-C10 "Miss Valentine" "Ciurma Nemica"
    A: team PARTNER CARD NAME LIFE ...     team.call
    A: bpass                               battle.pass
    dmg B.cap 3 A.m1 1 cause=tecnica       damage: hits at the same time
    battle.end
    A: finale -2 / A: finale +1            fase.finale: discard 2 unnamed / draw 1
    A: mano>oceano LK-W01 by_card=LK-W05   a move by an effect
    end A "how" / end - "how" / A: concede
"""
from __future__ import annotations

import re
from typing import Any

from engine.notation import Grammar, NotationError, Verb
from engine.notation.forms import format_end_without_winner, format_move, is_end_without_winner, parse_move
from engine.schema import shown

SPACES = {"cap": "capitano", "m1": "marinaio1", "m2": "marinaio2"}
_HIT = re.compile(r"([A-Z])\.([a-z0-9]+)")
_SIGNED = re.compile(r"[+-]\d+")
CHARACTER = ("space", "card", "name", "life", "power", "damage", "crew")


class Op2009Grammar(Grammar):
    turn_kind = "turn.start"
    deck_kind = "deck.register"
    value_aliases = SPACES
    verbs = (
        Verb("deck", "deck.register", rest="cards", doc="deck CARD... (straw_hats={...} sideboard=[...])"),
        Verb("game", "game.start", ("first", "game", "method"), doc="game A \"coin toss\": a game begins, A first"),
        Verb("end", "game.end", ("winner", "how"), doc="end A \"how\" / end - \"how\""),
        Verb("shuffle", "shuffle", ("by",), doc="A: shuffle [B]"),
        Verb("logbook", "logbook.deal", ("count",), doc="A: logbook [N]: the Giornale di Bordo (6)"),
        Verb("deal", "hand.deal", ("count",), rest="cards", doc="A: deal [N] [CARD...]: the opening hand (7)"),
        Verb("mulligan", "mulligan.pirate", rest="cards", doc="A: mulligan [CARD...]"),
        Verb("redraw", "redraw", rest="cards", doc="A: redraw [CARD...] (discarded=[...])"),
        Verb("place", "prep.place", CHARACTER, doc="A: place SPACE CARD NAME LIFE [POWER DAMAGE CREW] (team)"),
        Verb("reveal", "prep.reveal", doc="reveal: both players turn their Characters face up"),
        Verb("iniziale", "fase.iniziale", ("card",), doc="A: iniziale [CARD]: the Fase Iniziale draw"),
        Verb("battle", "battle.start", ("attacker", "target", "cost", "via"), doc="A: battle cap m1 [COST] [VIA]"),
        Verb("prevented", "battle.prevented", ("attacker", "card", "cost"), doc="A: prevented SPACE CARD"),
        Verb("ability", "ability", ("space", "card", "cost", "effect"), doc="A: ability SPACE CARD [COST] [\"effect\"]"),
        Verb("log", "logbook.update", doc="A: log: the top of the Forziere onto the Giornale"),
        Verb("sailor", "sailor.call", CHARACTER, doc="A: sailor m1 CARD NAME LIFE [POWER DAMAGE CREW] (cost=0)"),
        Verb("shift", "sailor.move", ("from_space", "to_space"), doc="A: shift m1 m2"),
        Verb("grow", "hand.grow", ("card",), doc="A: grow [CARD]: Action 6, draw"),
        Verb("pass", "pass", doc="A: pass: Action 7"),
        Verb("reinforce", "reinforce", ("card", "name", "crew", "damage"), doc="B: reinforce CARD NAME [CREW] [DAMAGE]"),
        Verb("tech", "technique", ("card", "usable_by", "effect"), doc="A: tech CARD [USABLE_BY] [EFFECT] (limit=N interrupt)"),
        Verb("team", "team.call", ("partner",) + CHARACTER[1:], doc="A: team PARTNER CARD NAME LIFE ..."),
        Verb("bpass", "battle.pass", doc="A: bpass: pass in the Battle"),
        Verb("mod", "modifier", ("space", "card", "power", "damage"), doc="A: mod SPACE CARD POWER [DAMAGE]"),
        Verb("draw", "draw", ("count",), rest="cards", doc="A: draw [N] [CARD...] (card=EFFECT)"),
        Verb("effect", "effect", ("card", "text", "actions"), doc="A: effect CARD \"text\" [ACTIONS]"),
    )
    custom_verbs = {"dmg": "dmg B.cap 3 [A.m1 1 ...] [cause=... card=... by=A]: damage",
                    "finale": "A: finale -N (discard N) / finale +N (draw N)",
                    "FROM>TO": "A: mano>oceano CARD (by_card=CARD): a move by an effect"}

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        if head.type != "word":
            return None
        if is_end_without_winner(toks):
            return "game.end", self.parse_fields(Verb("end", "game.end", ("how",)), toks[2:], actor, ctx, head.col)
        if head.value == "dmg":
            return "damage", self._parse_damage(toks, ctx)
        if head.value == "finale" and len(toks) > 1 and toks[1].type == "word" and _SIGNED.fullmatch(toks[1].value):
            n = int(toks[1].value)
            p = self.parse_fields(Verb("finale", "fase.finale"), toks[2:], actor, ctx, head.col)
            p["draw" if n > 0 else "discard_count"] = abs(n)
            return "fase.finale", p
        if ">" in head.value:
            kind, p = parse_move(toks, actor, ctx, extra={"by_card": str})  # type: ignore[misc]
            return kind, p
        return None

    def _parse_damage(self, toks, ctx) -> dict[str, Any]:
        hits: list[dict[str, Any]] = []
        verb = Verb("dmg", "damage")
        rest = []
        i = 1
        while i < len(toks):
            t = toks[i]
            m = _HIT.fullmatch(t.value) if t.type == "word" else None
            if not m:
                rest.append(t)
                i += 1
                continue
            player = ctx.player(m.group(1))
            if player is None:
                raise NotationError(f"unknown seat {shown(m.group(1))}", col=t.col)
            if i + 1 >= len(toks) or toks[i + 1].type != "word" or not toks[i + 1].value.isdigit():
                raise NotationError("expected the amount of damage after the space (B.cap 3)",
                                    col=t.col + len(t.text) + 1)
            hits.append({"player": player, "space": SPACES.get(m.group(2), m.group(2)),
                         "amount": int(toks[i + 1].value)})
            i += 2
        if not hits:
            raise NotationError("expected a hit: SEAT.SPACE AMOUNT (B.cap 3)", col=toks[0].col + 4)
        p = self.parse_fields(verb, rest, "-", ctx, toks[0].col)
        p["hits"] = hits
        return p

    def format_custom(self, e, ctx):
        p = e.payload
        if e.kind == "game.end" and "winner" not in p:
            return format_end_without_winner(p)
        if e.kind == "damage":
            parts = ["dmg"]
            for h in p["hits"]:
                if set(h) != {"player", "space", "amount"} or h["player"] not in ctx.seat_of \
                        or not isinstance(h["amount"], int) or isinstance(h["amount"], bool):
                    return None
                parts.append(f"{ctx.seat_of[h['player']]}.{ctx.alias_of.get(h['space'], h['space'])} {h['amount']}")
            rest = {k: v for k, v in p.items() if k != "hits"}
            if rest:
                parts.append(self.format_fields(Verb("dmg", "damage"), with_event(e, rest), ctx)[len("dmg "):])
            return " ".join(parts)
        if e.kind == "fase.finale" and p.get("player") == e.actor:
            draw, discard = p.get("draw", 0), p.get("discard_count", 0)
            if bool(draw) == bool(discard):
                return None
            rest = {k: v for k, v in p.items() if k not in ("draw", "discard_count")}
            tail = self.format_fields(Verb("finale", "fase.finale"), with_event(e, rest), ctx)[len("finale"):]
            return f"finale {'+' + str(draw) if draw else '-' + str(discard)}{tail}"
        if e.kind == "move" and e.actor in ctx.seat_of:
            return format_move(e, ctx, extra=("by_card",))
        return None

    def suggestions(self, state, ctx):
        players = ctx.players
        active = state.active or players[0]
        other = [p for p in players if p != active]
        a = ctx.seat_of[active]
        out = []
        nxt = other[0] if state.active else players[0]
        out.append(f"T{state.turn + 1} {ctx.seat_of[nxt]}:")
        out += [f"{a}: iniziale", f"{a}: log", f"{a}: grow", f"{a}: pass", f"{a}: finale -1",
                f"{a}: finale +1", "battle.end", "reveal"]
        for att in ("cap", "m1", "m2"):
            for tgt in ("cap", "m1", "m2"):
                out.append(f"{a}: battle {att} {tgt}")
        for p in players:
            out.append(f"{ctx.seat_of[p]}: bpass")
        return out


def with_event(e, payload):
    from engine.notation import probe
    return probe(e.match, e.position, e.kind, e.version, e.actor, payload)


GRAMMAR = Op2009Grammar
