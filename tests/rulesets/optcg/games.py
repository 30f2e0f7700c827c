"""Plausible `optcg` games, recorded by someone who sees every card, for the hidden-information tests.

Two red decks (tests/fixtures/optcg/cards.json) are shuffled and a true game is played out: the hidden
zones (deck, hand, Life) are kept here as they really are, the open ones are read off the known table
(`Shadow`), and every event names its cards. The games have what real ones have: mulligans, Life set
up, draws, plays (Characters, Stages, Events; a 6th Character trashing one), DON!! attached, attacks on
Leaders and rested Characters, [Blocker]s, counters from the hand and [Counter] Events, [Double Attack],
[Banish], [Trigger]s (one that plays itself, one that adds a Life card between two points of damage),
K.O.s, and effects that hide or show cards: searches, discards, cards returned to the hand or the bottom
of the deck, reveals, cards added to or taken from Life, shuffles. Instance ids are used where a
recorder reading `tablejudge state` would. About one act in twenty breaks a rule without lying about a
card (a rested attacker, a counter by the attacker, an unpaid play, an extra draw...), so findings and
hidden cards meet. Games end by Life, deck-out, concession, or stop where they are.

    games()              a hypothesis strategy of (players, steps)
    game_for_seed(seed)  one game, the same for the same seed
"""
from __future__ import annotations

import random

from hypothesis import strategies as st

from engine.rulesets.optcg import table as T
from tests.rulesets.hidden import Shadow
from tests.rulesets.optcg.support import RED_DECK, card_facts, registration

PLAYERS = ("Ann", "Bob")
LEADER = "OP01-001"
EXAMPLES = 15  # hypothesis examples per run of the invariant
FACTS = card_facts()


def fact(code: str, key: str):
    return FACTS.get(code, {}).get(key)


class Over(Exception):
    """The game ended (by Life or deck-out): stop playing."""


class Game:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.rec = Shadow("optcg", PLAYERS)
        self.deck: dict[str, list[str]] = {}
        self.hand: dict[str, list[str]] = {p: [] for p in PLAYERS}
        self.life: dict[str, list[str]] = {p: [] for p in PLAYERS}
        self.turns = {p: 0 for p in PLAYERS}

    # --- recording ------------------------------------------------------------------------------

    @property
    def s(self):
        return self.rec.state

    def log(self, kind: str, actor: str, **payload) -> None:
        self.rec.push(kind, actor, payload)
        if self.s.result is not None and kind not in ("game.end", "concede"):
            raise Over

    def maybe(self, chance: float) -> bool:
        return self.rng.random() < chance

    def other(self, p: str) -> str:
        return PLAYERS[1] if p == PLAYERS[0] else PLAYERS[0]

    def active_don(self, p: str) -> int:
        return len(T.cost_don(self.s, p, rested=False))

    def chars(self, p: str):
        return list(self.s.zone(p, "characters"))

    # --- hidden zones, kept true here -----------------------------------------------------------

    def draw(self, p: str, n: int = 1, by: str | None = None) -> None:
        if len(self.deck[p]) < n:
            n = len(self.deck[p])
        if n == 0:
            return
        cards = [self.deck[p].pop() for _ in range(n)]
        self.hand[p] += cards
        self.log("draw", p, player=p, count=n, cards=cards, **({"by": by} if by else {}))

    def from_hand(self, p: str, code: str) -> None:
        self.hand[p].remove(code)

    # --- setup ----------------------------------------------------------------------------------

    def setup(self) -> None:
        for p in PLAYERS:
            self.log("deck.registered", p, **registration(p))
            self.deck[p] = list(RED_DECK)
            self.rng.shuffle(self.deck[p])
        first = self.rng.choice(PLAYERS)
        self.order = [first, self.other(first)]
        self.log("turn.order", first, first=first, chosen_by=first)
        for p in self.order:
            self.draw(p, 5)
        for p in self.order:
            if self.maybe(0.3):
                self.log("mulligan", p, player=p)
                self.deck[p] += self.hand[p]
                self.hand[p] = []
                self.rng.shuffle(self.deck[p])
                self.draw(p, 5)
            else:
                self.log("mulligan", p, player=p, decision="keep")
        for p in self.order:
            cards = [self.deck[p].pop() for _ in range(5)]
            self.life[p] = list(cards)  # the first taken from the deck ends at the bottom
            self.log("life.placed", p, player=p, count=5, cards=cards)

    # --- a turn ---------------------------------------------------------------------------------

    def turn(self, p: str, number: int) -> None:
        self.turns[p] += 1
        self.log("turn", p, player=p)
        if not self.maybe(0.03):  # now and then the refresh phase is forgotten (OPTCG-FLOW-1)
            self.log("refresh", p, player=p)
        if number > 1:
            if not self.deck[p]:
                raise Over
            self.draw(p, 2 if self.maybe(0.03) else 1)  # an extra card now and then (OPTCG-FLOW-2)
        left = len(self.s.zone(p, "don_deck"))
        if left:
            self.log("don", p, player=p, count=min(1 if number == 1 else 2, left))
        for _ in range(self.rng.randint(1, 7)):
            self.main_action(p)
        self.log("turn.end", p, player=p)

    def main_action(self, p: str) -> None:
        roll = self.rng.random()
        if roll < 0.25:
            self.play(p)
        elif roll < 0.45:
            self.attach(p)
        elif roll < 0.77 and self.turns[p] > 1:
            self.attack(p)
        elif roll < 0.94:
            self.effect(p)
        else:
            self.mistake(p)

    def play(self, p: str) -> None:
        playable = [c for c in self.hand[p] if (fact(c, "cost") or 0) <= self.active_don(p)]
        if not playable:
            return
        code = self.rng.choice(playable)
        category = fact(code, "category").lower()
        self.from_hand(p, code)
        payload = {"player": p, "card": code}
        if category == "character" and len(self.chars(p)) >= 5:
            payload["trash_uid"] = self.rng.choice(self.chars(p)).uid
        self.log("play", p, **payload)
        if code == "OP01-026":  # [Main] K.O. up to 1 of the opponent's Characters with 6000 power or less
            self.log("effect", p, player=p, card=code, timing="main")
            targets = self.chars(self.other(p))
            if targets:
                self.log("ko", p, player=self.other(p), uid=self.rng.choice(targets).uid, by="OP01-026 [Main]")

    def attach(self, p: str) -> None:
        n = self.active_don(p)
        if not n:
            return
        to = self.rng.choice(list(self.s.zone(p, "leader")) + self.chars(p))
        where = {"to": to.uid} if self.maybe(0.5) else {"card": to.code}
        self.log("don.attach", p, player=p, count=self.rng.randint(1, n), **where)

    # --- battles --------------------------------------------------------------------------------

    def attackers(self, p: str):
        out = [c for c in self.s.zone(p, "leader") if not T.is_rested(c)]
        for c in self.chars(p):
            fresh = c.props.get("played_turn") == self.s.turn
            if not T.is_rested(c) and (not fresh or T.has_keyword(self.s, c.code, "rush")):
                out.append(c)
        return out

    def attack(self, p: str, attacker=None, target=None) -> None:
        o = self.other(p)
        if attacker is None:
            ready = self.attackers(p)
            if not ready:
                return
            attacker = self.rng.choice(ready)
            if self.active_don(p) and self.maybe(0.6):  # DON!! to the attacker first
                self.log("don.attach", p, player=p, to=attacker.uid, count=self.rng.randint(1, self.active_don(p)))
        if target is None:
            rested = [c for c in self.chars(o) if T.is_rested(c)]
            target = self.rng.choice(rested) if rested and self.maybe(0.4) else self.s.zone(o, "leader")[0]
        named = self.maybe(0.5)
        self.log("attack", p, player=p, **({"attacker": attacker.code} if named and attacker.code != LEADER
                                             else {"attacker_uid": attacker.uid}),
                 **({"target": target.code} if target.code == LEADER else {"target_uid": target.uid}))
        self.defend(o)
        self.log("damage.step", "-")
        b = self.s.extra["battle"]
        if b["result"] == "hit":
            for point in range(b["damage"]):
                self.damage_point(o, attacker)
        elif b["result"] == "ko":
            self.log("ko", o, player=o, uid=b["target"])
        if self.maybe(0.8):
            self.log("battle.end", "-")

    def defend(self, o: str) -> None:
        blockers = [c for c in self.chars(o) if not T.is_rested(c) and T.has_keyword(self.s, c.code, "blocker")]
        if blockers and self.maybe(0.4):
            self.log("block", o, player=o, uid=self.rng.choice(blockers).uid)
        for _ in range(self.rng.choice((0, 0, 1, 1, 2))):
            counters = [c for c in self.hand[o] if fact(c, "counter")]
            events = [c for c in self.hand[o] if c == "OP01-029"] if self.active_don(o) else []
            if events and self.maybe(0.3):
                self.from_hand(o, "OP01-029")
                self.log("counter", o, player=o, card="OP01-029", amount=2000)
            elif counters:
                code = self.rng.choice(counters)
                self.from_hand(o, code)
                self.log("counter", o, player=o, card=code)

    def damage_point(self, o: str, attacker) -> None:
        if not self.life[o]:
            self.log("game.end", "-", how="life", winner=self.other(o))
            raise Over
        code = self.life[o].pop()
        if T.has_keyword(self.s, attacker.code, "banish"):
            self.log("life.taken", o, player=o, card=code, to="trash")
            return
        if fact(code, "trigger") and self.maybe(0.7):
            self.log("life.taken", o, player=o, card=code, to="trigger")
            self.log("effect", o, player=o, card=code, timing="trigger", text=fact(code, "trigger"))
            if code == "OP01-016" and len(self.chars(o)) < 5:  # "Play this card."
                self.log("move", o, player=o, from_zone="trash", to_zone="characters", card=code,
                         by="OP01-016 [Trigger]")
            elif code == "OP01-026" and self.deck[o]:  # here: its effect adds a Life card
                top = self.deck[o].pop()
                self.life[o].append(top)
                self.log("move", o, player=o, from_zone="deck", to_zone="life", card=top, by="OP01-026 [Trigger]")
            return
        self.hand[o].append(code)
        self.log("life.taken", o, player=o, **({"card": code} if self.maybe(0.6) else {}))

    # --- effects that move hidden cards -----------------------------------------------------------

    def effect(self, p: str) -> None:
        o, rng = self.other(p), self.rng
        by = "an effect"
        roll = rng.random()
        if roll < 0.12 and self.chars(o):  # back to its owner's hand
            c = rng.choice(self.chars(o))
            self.hand[o].append(c.code)
            self.log("move", p, player=o, from_zone="characters", to_zone="hand", uid=c.uid, by=by)
        elif roll < 0.2 and self.chars(p):  # to the bottom of its owner's deck
            c = rng.choice(self.chars(p))
            self.deck[p].insert(0, c.code)
            self.log("move", p, player=p, from_zone="characters", to_zone="deck", card=c.code, where="bottom", by=by)
        elif roll < 0.3 and self.hand[p]:  # a discard
            code = rng.choice(self.hand[p])
            self.from_hand(p, code)
            self.log("trash", p, player=p, card=code, by=by)
        elif roll < 0.42 and self.deck[p]:  # look at the top 5, add 1 to the hand, maybe shown
            top5 = self.deck[p][-5:]
            code = rng.choice(top5)
            self.deck[p].remove(code)
            self.hand[p].append(code)
            self.log("move", p, player=p, from_zone="deck", to_zone="hand", card=code, by=by)
            if rng.random() < 0.5:
                self.log("reveal", p, player=p, zone="hand", card=code)
            if rng.random() < 0.4:
                rng.shuffle(self.deck[p])
                self.log("shuffle", p, player=p, by=by)
        elif roll < 0.5 and self.deck[p]:  # draw by an effect
            self.draw(p, rng.randint(1, 2), by=by)
        elif roll < 0.6 and self.deck[p]:  # the top card is shown, then drawn or trashed
            top = self.deck[p][-1]
            self.log("reveal", p, player=p, zone="deck", card=top)
            if rng.random() < 0.5:
                self.draw(p, 1, by=by)
            else:
                self.deck[p].pop()
                self.log("move", p, player=p, from_zone="deck", to_zone="trash", card=top, by=by)
        elif roll < 0.68 and self.hand[p]:  # an effect shows a card of the hand
            self.log("reveal", p, player=p, zone="hand", card=rng.choice(self.hand[p]))
        elif roll < 0.74 and self.life[p]:  # the top Life card to the hand, by an effect
            code = self.life[p].pop()
            self.hand[p].append(code)
            self.log("move", p, player=p, from_zone="life", to_zone="hand", card=code, by=by)
        elif roll < 0.8 and self.deck[p]:  # the top card of the deck to the top of the Life area
            code = self.deck[p].pop()
            self.life[p].append(code)
            self.log("move", p, player=p, from_zone="deck", to_zone="life", card=code, by=by)
        elif roll < 0.86:  # a card back from the trash
            trash = [c for c in self.s.zone(p, "trash") if c.code]
            if trash:
                code = rng.choice(trash).code
                self.hand[p].append(code)
                self.log("move", p, player=p, from_zone="trash", to_zone="hand", card=code, by=by)
        elif roll < 0.92 and self.hand[p]:  # a card of the hand to the bottom of the deck
            code = rng.choice(self.hand[p])
            self.from_hand(p, code)
            self.deck[p].insert(0, code)
            self.log("move", p, player=p, from_zone="hand", to_zone="deck", card=code, where="bottom", by=by)
        else:
            self.log("effect", p, player=p, card=LEADER, timing="activate_main", once_per_turn=True)

    def mistake(self, p: str) -> None:
        """A rule broken without lying about any card."""
        o, rng = self.other(p), self.rng
        roll = rng.random()
        rested = [c for c in list(self.s.zone(p, "leader")) + self.chars(p) if T.is_rested(c)]
        if roll < 0.25 and rested and self.turns[p] > 1:  # a rested attacker (OPTCG-BATTLE-1)
            self.attack(p, attacker=rng.choice(rested))
        elif roll < 0.45 and self.hand[p] and [c for c in self.hand[p] if fact(c, "counter")]:
            code = rng.choice([c for c in self.hand[p] if fact(c, "counter")])
            self.from_hand(p, code)
            self.log("counter", p, player=p, card=code)  # no battle, or the attacker's own (OPTCG-BATTLE-5)
        elif roll < 0.65 and [c for c in self.hand[p] if str(fact(c, "category")).lower() == "character"]:
            code = rng.choice([c for c in self.hand[p] if str(fact(c, "category")).lower() == "character"])
            self.from_hand(p, code)
            self.log("play", p, player=p, card=code, paid=0, **({"trash_uid": self.chars(p)[0].uid}
                                                                   if len(self.chars(p)) >= 5 else {}))
        elif roll < 0.8 and self.deck[p]:
            self.draw(p, 1)  # a draw in the main phase without an effect (OPTCG-FLOW-2)
        elif self.chars(o) and self.turns[p] > 1 and self.attackers(p):
            active = [c for c in self.chars(o) if not T.is_rested(c)]
            if active:  # an attack on an active Character (OPTCG-BATTLE-2)
                self.attack(p, target=rng.choice(active))

    # --- a game ---------------------------------------------------------------------------------

    def play_game(self, turns: int) -> list:
        try:
            self.setup()
            for n in range(1, turns + 1):
                self.turn(self.order[(n - 1) % 2], n)
            if self.maybe(0.3):
                loser = self.rng.choice(PLAYERS)
                self.log("concede", loser, player=loser)
        except Over:
            pass
        r = self.s.result
        if r and r.get("how") in ("life", "deck-out") and self.rec.steps[-1][0] != "game.end":
            self.rec.push("game.end", "-", {"how": r["how"], "winner": r["winner"]})
        return self.rec.steps


def simulate(rng: random.Random, turns: int) -> tuple[list[str], list]:
    return list(PLAYERS), Game(rng).play_game(turns)


def games():
    return st.builds(simulate, st.randoms(use_true_random=False), st.integers(2, 17))


def game_for_seed(seed: int) -> tuple[list[str], list]:
    rng = random.Random(seed)
    return simulate(rng, rng.randint(6, 17))
