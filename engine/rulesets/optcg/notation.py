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
    A: gain OP01-013 rush         keyword.gain: card keyword (rush, blocker, double-attack or double attack, banish)
    A: ko OP01-016 / A: rest X / A: activate X / A: trash X
    A: trash>characters OP01-016 by="..."          a move (zone.bottom for the bottom)
    battle.end · A: pass          battle.end, turn.end
    end life A                    game.end: how, winner
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.notation import Grammar, NotationError, Suggestion, Verb, bare_ok, expand_cards, write_cards
from engine.notation.values import card_word
from engine.notation.forms import draw_payload, format_draw, format_move, parse_move
from engine.rulesets.optcg import table as T


KEYWORD_WORDS = {k.replace(" ", "-"): k for k in T.KEYWORDS}  # double-attack -> double attack


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
        Verb("gain", "keyword.gain", ("card", "keyword"),
             doc="A: gain CARD rush|blocker|double-attack|banish (by=): a keyword for the rest of the turn"),
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
    card_fields = frozenset({"card", "leader", "attacker", "target"})

    def parse_custom(self, toks, actor, ctx):
        head = toks[0]
        if head.type != "word":
            return None
        if head.value == "attack" and len(toks) > 1 and toks[1].type == "word" and ">" in toks[1].value:
            attacker, _, target = toks[1].value.partition(">")
            p: dict[str, Any] = self.parse_fields(Verb("attack", "attack"), toks[2:], actor, ctx, head.col)
            if attacker:
                p["attacker"] = card_word(ctx, attacker, toks[1].col, "attacker")
            if target:
                p["target"] = card_word(ctx, target, toks[1].col + len(attacker) + 1, "target")
            return "attack", p
        if head.value == "attack" and not any(t.type == "kv" for t in toks[1:]):
            where = toks[1].col if len(toks) > 1 else head.col + len(head.text) + 1
            raise NotationError("expected ATTACKER>TARGET (attack OP01-013>OP01-001)", col=where)
        if head.value == "draw" and len(toks) > 1 and all(t.type in ("word", "str") for t in toks[1:]) \
                and not (toks[1].type == "word" and toks[1].value.isdigit()):
            return "draw", draw_payload(toks[1:], actor, ctx)
        if ">" in head.value:
            return parse_move(toks, actor, ctx, extra={"by": str}, to_key="where")
        if head.value == "gain":  # double-attack (or the two words, as any several-word choice reads)
            words = [replace(t, value=KEYWORD_WORDS[t.value]) if t.type == "word" and t.value in KEYWORD_WORDS
                     else t for t in toks[1:]]
            return "keyword.gain", self.parse_fields(self.by_name["gain"], words, actor, ctx, head.col)
        return None

    def format_custom(self, e, ctx):
        p = e.payload
        if e.kind == "attack" and p.get("player") == e.actor and set(p) == {"player", "attacker", "target"} \
                and bare_ok(p["attacker"]) and bare_ok(p["target"]):
            return f"attack {p['attacker']}>{p['target']}"
        if e.kind == "draw":
            return format_draw(e, ctx, others=("by",))
        if e.kind == self.deck_kind:
            deck = self.deck_text(e, ctx)  # facts the card data gives are not written out
            return f"deck {deck}" if deck is not None else None
        if e.kind == "move" and e.actor in ctx.seat_of and "uid" not in p:
            return format_move(e, ctx, to_key="where", extra=("by",))
        if e.kind == "keyword.gain" and isinstance(p.get("keyword"), str):
            word = p["keyword"].replace(" ", "-")
            return self.format_fields(self.by_name["gain"], e._replace(payload={**p, "keyword": word}), ctx)
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
        if e.kind != self.deck_kind or e.actor != p.get("player") or e.actor not in ctx.seat_of or not p.get("deck"):
            return None
        tag = {k: p[k] for k in ("player", "leader", "deck") if k in p}
        if p == tag or (ctx.card_fill is not None and ctx.card_fill(e.kind, tag) == p):
            return " ".join(write_cards([p["leader"]]) + write_cards(p["deck"]))  # reads back as this event
        return None

    def deck_cards(self, e, ctx):
        if e.kind == self.deck_kind:
            return [e.payload["leader"]] + list(e.payload.get("deck", [])) + list(e.payload.get("cards", {}))
        return []

    # --- `?`: what is open now, from what the table knows ------------------------------------

    def suggestions(self, state, ctx):
        """Before the first turn, the preparation still to record, then the first turn; in a
        turn, the flow's next steps, the plays affordable from the known cards in hand, the DON!!
        attachments, the legal attacks (an active attacker, not played this turn unless [Rush];
        the opposing Leader or a rested Character), and in a battle the blocks and counters open in
        its current step, then the damage and its consequences."""
        players = ctx.players
        if not state.turn:
            return self._setup_options(state, ctx) + [
                Suggestion(f"T1 {ctx.seat_of[state.extra.get('first') or players[0]]}:", "the first turn", "turn")]
        active = state.active or players[0]
        a = ctx.seat_of[active]
        foe = T.opponent(state, active)
        f = ctx.seat_of[foe]
        battle = state.extra.get("battle")
        if battle and battle.get("step") != "damage":
            return self._battle_options(state, ctx, battle)
        if battle:
            return self._damage_options(state, ctx, battle)
        next_turn = Suggestion(f"T{state.turn + 1} {f}:", f"{foe}'s turn", "turn")
        if state.phase == "end" or state.result is not None:
            return [next_turn] if state.result is None else []
        out: list[Suggestion] = []
        ti = state.extra.get("turn_info", {})
        if state.phase in ("refresh", "draw", "don"):
            if not ti.get("refreshed"):
                out.append(Suggestion(f"{a}: refresh", "the refresh phase", "turn"))
            if state.turn > 1 and not ti.get("drawn"):
                out.append(Suggestion(f"{a}: draw", "the draw phase: 1 card", "turn"))
            if not ti.get("don"):
                n = min(2 if state.turn > 1 else 1, len(state.zone(active, "don_deck")))
                out.append(Suggestion(f"{a}: don", f"the DON!! phase: {n}", "turn"))
        active_don = len(T.cost_don(state, active, rested=False))
        for code in _known(state, active, "hand"):
            cost = T.facts(state, code).get("cost")
            cat = T.category(state, code)
            if cat == "event" and "counter" in [k.lower() for k in T.facts(state, code).get("keywords", [])] \
                    and "main" not in [k.lower() for k in T.facts(state, code).get("keywords", [])]:
                continue
            if isinstance(cost, int):
                if cost <= active_don:
                    out.append(Suggestion(f"{a}: play {code}", f"cost {cost}, {active_don} DON!! active", "plays"))
            else:
                out.append(Suggestion(f"{a}: play {code}", "cost unknown (no card data)", "plays"))
        if active_don:
            for z in ("leader", "characters"):
                for code in _known(state, active, z):
                    out.append(Suggestion(f"{a}: attach {code}", f"{active_don} DON!! active", "DON!!"))
        if T.pinfo(state, active).get("turns", 0) > 1:
            targets = _known(state, foe, "leader") + sorted({c.code for c in state.zone(foe, "characters")
                                                             if c.code and T.is_rested(c)})
            for z in ("leader", "characters"):
                for c in state.zone(active, z):
                    if not c.code or T.is_rested(c):
                        continue
                    fresh = c.props.get("played_turn") == state.turn and T.has_keyword(state, c.code, "rush") is not True
                    if fresh:
                        continue
                    power = T.power(state, active, c)
                    for t in targets:
                        out.append(Suggestion(f"{a}: attack {c.code}>{t}",
                                              f"power {power}" if power is not None else "", "attacks"))
        out.append(Suggestion(f"{a}: pass", "end the turn", "turn"))
        out.append(next_turn)
        return out

    def _setup_options(self, state, ctx):
        """The game's preparation still to record (rule manual, 遊戲的準備): who goes first, then
        per player, the first player first, the opening draw of 5, the mulligan decision, and the
        Life cards once the hand is final. A deck not registered (its list is registered at the
        desk) is offered as a line to complete: the Leader only the table shows, the size the
        manual builds every deck of (OPTCG-DECK-2), as the note under them says."""
        out = [Suggestion(_deck_line(ctx, p), f"{p}'s deck: type the Leader's card number for LEADER", "setup",
                          fill=True) for p in _unregistered(state, ctx)]
        first = state.extra.get("first")
        if not first:
            return out + [Suggestion(f"order {ctx.seat_of[p]}", f"{p} goes first", "setup") for p in ctx.players]
        for p in sorted(ctx.players, key=lambda q: q != first):
            s, info = ctx.seat_of[p], T.pinfo(state, p)
            hand, life = len(state.zone(p, "hand")), len(state.zone(p, "life"))
            if life:
                continue
            if hand < 5:
                out.append(Suggestion(f"{s}: draw {5 - hand}", "the opening hand: 5 cards", "setup"))
            elif not info.get("mulligan"):
                out.append(Suggestion(f"{s}: mulligan keep", "keep the opening hand", "setup"))
                out.append(Suggestion(f"{s}: mulligan mulligan", "a new hand of 5 (once)", "setup"))
            else:
                n = T.leader_life(state, p) or 5
                out.append(Suggestion(f"{s}: life {n}", "the Leader's Life, from the top of the deck", "setup"))
        return out

    def _battle_options(self, state, ctx, b):
        defender = b["defender"]
        d = ctx.seat_of[defender]
        out: list[Suggestion] = []
        if b.get("step") == "attack" and not b.get("blocked"):
            for c in state.zone(defender, "characters"):
                if c.code and not T.is_rested(c) and T.has_keyword(state, c.code, "blocker") is not False \
                        and c.uid != b.get("target"):
                    known = T.has_keyword(state, c.code, "blocker")
                    out.append(Suggestion(f"{d}: block {c.code}", "[Blocker]" if known else "[Blocker] unknown (no card data)",
                                          "blocks"))
        active_don = len(T.cost_don(state, defender, rested=False))
        for code in _known(state, defender, "hand"):
            facts = T.facts(state, code)
            if not facts:
                out.append(Suggestion(f"{d}: counter {code}", "counter value unknown (no card data)", "counters"))
            elif T.category(state, code) == "event":
                cost = facts.get("cost") if isinstance(facts.get("cost"), int) else 0
                if "counter" in [k.lower() for k in facts.get("keywords", [])] and cost <= active_don:
                    out.append(Suggestion(f"{d}: counter {code}", f"[Counter] Event, cost {cost}", "counters"))
            elif facts.get("counter"):
                out.append(Suggestion(f"{d}: counter {code}", f"+{facts['counter']}", "counters"))
        out.append(Suggestion("damage", "to the damage step", "battle"))
        return out

    def _damage_options(self, state, ctx, b):
        defender = b["defender"]
        d = ctx.seat_of[defender]
        out: list[Suggestion] = []
        if b.get("result") == "hit" and b.get("taken", 0) < b.get("damage", 1) and state.zone(defender, "life"):
            out.append(Suggestion(f"{d}: dmg", "a Life card to the hand", "battle"))
            top = state.zone(defender, "life")[-1].code
            if top and T.facts(state, top).get("trigger"):
                out.append(Suggestion(f"{d}: dmg trigger {top}", "its [Trigger]", "battle"))
        if b.get("result") == "ko" and not b.get("ko"):
            hit = T.where_is(state, b["target"]) if b.get("target") else None
            if hit and hit[1] == "characters" and hit[2].code:
                out.append(Suggestion(f"{d}: ko {hit[2].code}", "the attacked Character loses the battle", "battle"))
        out.append(Suggestion("battle.end", "the battle is over", "battle"))
        return out

    def suggestion_notes(self, state, ctx):
        """Before the first turn: the decks not registered (a deck's size and the Leader's Life are
        facts only a registration records: without it no deck-out is derived, and `life` needs a
        number). In a turn: unseen cards in the hands that matter now (their plays and counters are
        not listed)."""
        if not state.turn:
            return [f"{p}'s deck is not registered: record `{_deck_line(ctx, p)}` (the "
                    "Leader's card number; its Life is what `life` places) before the first draw; without it "
                    "the deck's size is unknown and no deck-out is derived"
                    for p in _unregistered(state, ctx)]
        active = state.active or ctx.players[0]
        b = state.extra.get("battle")
        who = b["defender"] if b and b.get("step") != "damage" else active
        unseen = sum(1 for c in state.zone(who, "hand") if c.code is None)
        if not unseen:
            return []
        what = "counters" if who != active else "plays"
        return [f"{who}'s hand holds {unseen} unseen card{'s' if unseen != 1 else ''}: {what} from "
                f"{'them' if unseen != 1 else 'it'} are not listed (the options come from the known cards only)"]


def _unregistered(state, ctx) -> list[str]:
    """The players whose deck no registration recorded (no Leader): of unknown size until one does."""
    return [p for p in ctx.players if not T.pinfo(state, p).get("leader")]


def _deck_line(ctx, player: str) -> str:
    """The line that registers `player`'s deck by its size, LEADER to replace with the card number
    (`?`'s note and the recorder's setup button say the same line)."""
    return f"{ctx.seat_of[player]}: deck LEADER deck_size=50"


def _known(state, player: str, zone: str) -> list[str]:
    """The distinct known card numbers in a zone, in order."""
    return list(dict.fromkeys(c.code for c in state.zone(player, zone) if c.code))


GRAMMAR = OptcgGrammar
