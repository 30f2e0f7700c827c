"""The notation of `optcg` (ONE PIECE CARD GAME, Bandai rule manual v1.11).

    [Deck "A" "OP01-001 4xOP01-013 4xOP01-016 ..."]   deck.registered: the Leader first, then the deck
    A: order A                    turn.order: A goes first (chosen_by second)
    A: draw 5 / A: draw OP01-013 OP01-016 ?           (seen cards first, ? for unseen)
    A: mulligan keep              mulligan (keep / mulligan)
    A: life 5                     life.placed
    T3 A: refresh · don 2         turn (number derived and checked), refresh, DON!! phase
    A: play OP01-016 3            play: card [paid] (area=, rested, by=)
    A: attach 2 OP01-001          don.attach: [count] card (to=UID)
    A: attack OP01-013>OP01-001   attack: attacker>target
    B: block ST01-006 · B: counter OP01-024 [2000]
    damage 5000 5000              damage.step: attacker power, target power
    B: dmg / B: dmg trigger OP01-016               life.taken: where the Life card goes, which card
    B: effect OP01-016 trigger "Play this card."   effect: card timing text
    A: power OP01-013 2000 turn   power.mod: card amount duration
    A: ko OP01-016 / A: rest X / A: activate X / A: trash X
    A: trash>characters OP01-016 by="..."          a move (zone.bottom for the bottom)
    battle.end · A: pass          battle.end, turn.end
    end life A                    game.end: how, winner
"""
from __future__ import annotations

from typing import Any

from engine.notation import Grammar, NotationError, Verb, bare_ok, expand_cards, write_cards
from engine.notation.forms import draw_payload, format_draw, format_move, parse_move


class OptcgGrammar(Grammar):
    turn_kind = "turn"
    deck_kind = "deck.registered"
    verbs = (
        Verb("deck", "deck.registered", ("leader",), rest="deck", doc="A: deck LEADER CARD... (cards={...} don=10)"),
        Verb("order", "turn.order", ("first", "chosen_by"), doc="order A [B]: A goes first (chosen by B)"),
        Verb("draw", "draw", ("count",), rest="cards", doc="A: draw [N] [CARD... ?] (by=)"),
        Verb("mulligan", "mulligan", ("decision",), doc="A: mulligan keep|mulligan"),
        Verb("life", "life.placed", ("count",), rest="cards", doc="A: life [N] [CARD...]"),
        Verb("refresh", "refresh", doc="A: refresh: the refresh phase"),
        Verb("phase", "phase", ("name",), doc="A: phase refresh|draw|don|main|end"),
        Verb("don", "don", ("count",), doc="A: don [N]: DON!! from the DON!! deck (none: the phase's 2, 1 in turn 1)"),
        Verb("play", "play", ("card", "paid"), doc="A: play CARD [PAID] (area= rested by=)"),
        Verb("don.rest", "don.rest", ("count",), doc="A: don.rest N"),
        Verb("don.activate", "don.activate", ("count",), doc="A: don.activate N"),
        Verb("attach", "don.attach", ("count", "card"), doc="A: attach [N] CARD (to=UID rested)"),
        Verb("detach", "don.detach", ("count", "card"), doc="A: detach [N] CARD"),
        Verb("don.minus", "don.minus", ("count", "source"), doc="A: don.minus N [cost|attached]"),
        Verb("effect", "effect", ("card", "timing", "text"), doc="A: effect CARD [TIMING] [\"text\"]"),
        Verb("rest", "rest", ("card",), doc="A: rest CARD"),
        Verb("activate", "set.active", ("card",), doc="A: activate CARD"),
        Verb("power", "power.mod", ("card", "amount", "duration"), doc="A: power CARD +N [battle|turn|permanent]"),
        Verb("block", "block", ("card",), doc="B: block CARD"),
        Verb("counter", "counter", ("card", "amount"), doc="B: counter CARD [AMOUNT]"),
        Verb("damage", "damage.step", ("attacker_power", "target_power"), doc="damage [ATTACKER_POWER TARGET_POWER]"),
        Verb("dmg", "life.taken", ("to", "card"), doc="B: dmg [hand|trigger|trash] [CARD]: a Life card is taken"),
        Verb("ko", "ko", ("card",), doc="B: ko CARD"),
        Verb("trash", "trash", ("card", "from_zone"), doc="A: trash CARD [ZONE]"),
        Verb("reveal", "reveal", ("zone", "card"), doc="A: reveal ZONE CARD"),
        Verb("shuffle", "shuffle", ("zone",), doc="A: shuffle [ZONE]"),
        Verb("pass", "turn.end", doc="A: pass: the end of the turn"),
        Verb("end", "game.end", ("how", "winner"), doc="end life|deck-out|concession|time|other [A]"),
    )
    custom_verbs = {"attack": "A: attack ATTACKER>TARGET", "FROM>TO": "A: trash>characters CARD (by=)"}

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        if head.type != "word":
            return None
        if head.value == "attack" and len(toks) > 1 and toks[1].type == "word" and ">" in toks[1].value:
            attacker, _, target = toks[1].value.partition(">")
            p: dict[str, Any] = self.parse_fields(Verb("attack", "attack"), toks[2:], actor, ctx, head.col)
            if attacker:
                p["attacker"] = attacker
            if target:
                p["target"] = target
            return "attack", p
        if head.value == "attack" and not any(t.type == "kv" for t in toks[1:]):
            where = toks[1].col if len(toks) > 1 else head.col + len(head.text) + 1
            raise NotationError("expected ATTACKER>TARGET (attack OP01-013>OP01-001)", col=where)
        if head.value == "draw" and len(toks) > 1 and all(t.type in ("word", "str") for t in toks[1:]) \
                and not (toks[1].type == "word" and toks[1].value.isdigit()):
            return "draw", draw_payload(toks[1:], actor, ctx)
        if ">" in head.value:
            return parse_move(toks, actor, ctx, extra={"by": str}, to_key="where")
        return None

    def format_custom(self, e, ctx):
        p = e.payload
        if e.kind == "attack" and p.get("player") == e.actor and set(p) == {"player", "attacker", "target"} \
                and bare_ok(p["attacker"]) and bare_ok(p["target"]):
            return f"attack {p['attacker']}>{p['target']}"
        if e.kind == "draw":
            return format_draw(e, ctx, others=("by",))
        if e.kind == "move" and e.actor in ctx.seat_of and "uid" not in p:
            return format_move(e, ctx, to_key="where", extra=("by",))
        return None

    # the [Deck] tag: the Leader, then the 50 cards
    def deck_event(self, player, toks, ctx):
        if not toks:
            raise NotationError("expected the Leader, then the deck's cards", col=1)
        leader, *deck = expand_cards(toks, ctx)
        if not deck:
            raise NotationError("expected the deck's cards after the Leader", col=toks[0].col)
        return self.deck_kind, player, {"player": player, "leader": leader, "deck": deck}

    def deck_text(self, e, ctx):
        p = e.payload
        if e.kind == self.deck_kind and e.actor == p.get("player") and e.actor in ctx.seat_of \
                and set(p) == {"player", "leader", "deck"} and p["deck"]:
            return " ".join(write_cards([p["leader"]]) + write_cards(p["deck"]))
        return None

    def deck_cards(self, e, ctx):
        if e.kind == self.deck_kind:
            return [e.payload["leader"]] + list(e.payload.get("deck", [])) + list(e.payload.get("cards", {}))
        return []

    def suggestions(self, state, ctx):
        players = ctx.players
        a = ctx.seat_of[state.active or players[0]]
        others = [ctx.seat_of[p] for p in players if ctx.seat_of[p] != a]
        nxt = others[0] if state.active else a
        out = [f"T{state.turn + 1} {nxt}:", f"{a}: refresh", f"{a}: draw", f"{a}: don 2", f"{a}: don 1",
               "damage", "battle.end", f"{a}: pass"]
        for o in others:
            out += [f"{o}: dmg"]
        active = state.active or players[0]
        for c in {c.code for c in state.zones.get(active, {}).get("hand", []) if c.code}:
            out.append(f"{a}: play {c}")
        return out


GRAMMAR = OptcgGrammar
