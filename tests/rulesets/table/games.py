"""Plausible `table` games, recorded by someone who sees every card, for the hidden-information tests.

A small true game is simulated (each player's deck, hand, field, trash and life as they really are) and
written as events naming every card: draws, plays to the field, knock-outs, cards returned to the hand
or the deck, searches, discards, reveals, shuffles, counters, moves to the other player's field, and
instance ids where a recorder reading `tablejudge state` would use them. A few events break the table's
rules without lying about cards (a turn number skipped, a draw from too small a deck, an act after the
game ended), so findings and hidden cards meet.

    games()              a hypothesis strategy of (players, steps)
    game_for_seed(seed)  one game, the same for the same seed
"""
from __future__ import annotations

import random

from hypothesis import strategies as st

from tests.rulesets.hidden import Shadow

PLAYERS = ("Ann", "Bob")
POOL = ("OP01-016", "OP01-013", "ST01-006", "OP01-024", "OP01-025", "OP01-029")
EXAMPLES = 25  # hypothesis examples per run of the invariant


class Game:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.rec = Shadow("table", PLAYERS)
        self.zones = {p: {"deck": [], "hand": [], "field": [], "trash": [], "life": []} for p in PLAYERS}
        self.turn = 0
        self.over = False

    def log(self, kind: str, actor: str, **payload) -> None:
        self.rec.push(kind, actor, payload)

    # --- moving a true card, and recording it ---------------------------------------------------

    def move(self, p: str, src: str, dst: str, *, i: int | None = None, to: str | None = None, bottom=False,
             name: bool = True, by_uid: bool = False, src_bottom: bool = False) -> None:
        cards = self.zones[p][src]
        if not cards:
            return
        i = (0 if src_bottom else len(cards) - 1) if i is None else i
        code = cards[i]
        uid = self.rec.uid(p, src, code) if by_uid else None
        payload: dict = {"player": p, "from_zone": src, "to_zone": dst}
        if uid:
            payload["uid"] = uid
        elif name:
            payload["card"] = code
        if src_bottom:
            payload["from_where"] = "bottom"
        if bottom:
            payload["to_where"] = "bottom"
        if to and to != p:
            payload["to_player"] = to
        cards.pop(i)
        dest = self.zones[to or p][dst]
        dest.insert(0, code) if bottom else dest.append(code)
        self.log("move", p, **payload)

    # --- a game ---------------------------------------------------------------------------------

    def setup(self) -> None:
        for p in PLAYERS:
            deck = [self.rng.choice(POOL) for _ in range(self.rng.randint(10, 18))]
            self.zones[p]["deck"] = list(deck)
            self.log("setup", p, player=p, zone="deck", cards=deck)
            life = [self.zones[p]["deck"].pop() for _ in range(2)]
            self.zones[p]["life"] = life
            self.log("move", p, player=p, from_zone="deck", to_zone="life", count=1, card=life[0])
            self.log("move", p, player=p, from_zone="deck", to_zone="life", count=1, card=life[1])
            self.log("counter", p, name="life", player=p, set=len(life))

    def draw(self, p: str, n: int) -> None:
        deck = self.zones[p]["deck"]
        if n > len(deck):  # a draw from too small a deck (TABLE-1); the game ends there
            self.log("draw", p, player=p, count=n, cards=list(reversed(deck)))
            self.zones[p]["hand"] += deck
            self.zones[p]["deck"] = []
            self.over = True
            return
        cards = [deck.pop() for _ in range(n)]
        self.zones[p]["hand"] += cards
        self.log("draw", p, player=p, count=n, cards=cards)

    def turn_of(self, p: str) -> None:
        self.turn += 1
        if self.rng.random() < 0.05:
            self.log("turn", p, player=p, number=self.turn + 1)  # a skipped number (TABLE-2)
            self.turn += 1
        else:
            self.log("turn", p, player=p, **({"number": self.turn} if self.rng.random() < 0.5 else {}))
        self.draw(p, 1 if self.rng.random() < 0.85 else 2)
        for _ in range(self.rng.randint(1, 5)):
            self.act(p)

    def act(self, p: str) -> None:
        rng, z = self.rng, self.zones[p]
        other = PLAYERS[1] if p == PLAYERS[0] else PLAYERS[0]
        roll = rng.random()
        if roll < 0.3 and z["hand"]:
            self.move(p, "hand", "field", i=rng.randrange(len(z["hand"])))
        elif roll < 0.4 and self.zones[other]["field"]:  # a knock-out of the other player's card
            f = self.zones[other]["field"]
            self.move(other, "field", "trash", i=rng.randrange(len(f)), by_uid=rng.random() < 0.5)
        elif roll < 0.47 and z["field"]:  # returned to the hand
            self.move(p, "field", "hand", i=rng.randrange(len(z["field"])), by_uid=rng.random() < 0.3)
        elif roll < 0.52 and z["field"]:  # to the bottom of the deck
            self.move(p, "field", "deck", i=rng.randrange(len(z["field"])), bottom=True)
        elif roll < 0.58 and z["deck"]:  # a search: any card of the deck, then a shuffle
            self.move(p, "deck", "hand", i=rng.randrange(len(z["deck"])))
            if rng.random() < 0.6:
                rng.shuffle(z["deck"])
                self.log("shuffle", p, player=p, zone="deck")
        elif roll < 0.62 and z["deck"]:  # the bottom card of the deck to the hand
            self.move(p, "deck", "hand", src_bottom=True)
        elif roll < 0.67 and z["hand"]:  # a discard
            self.move(p, "hand", "trash", i=rng.randrange(len(z["hand"])))
        elif roll < 0.71 and z["hand"]:  # a card of the hand to the bottom of the deck
            self.move(p, "hand", "deck", i=rng.randrange(len(z["hand"])), bottom=True)
        elif roll < 0.77 and z["hand"]:  # an effect shows a card of the hand
            self.log("reveal", p, player=p, zone="hand", card=rng.choice(z["hand"]))
        elif roll < 0.81 and z["deck"]:  # the top card of the deck is shown, then maybe drawn
            self.log("reveal", p, player=p, zone="deck", card=z["deck"][-1])
            if rng.random() < 0.5:
                self.draw(p, 1)
        elif roll < 0.86 and z["life"]:  # damage: a life card to the hand
            self.move(p, "life", "hand")
            self.log("counter", p, name="life", player=p, add=-1)
        elif roll < 0.9 and z["hand"]:  # a card given to the other player's field
            self.move(p, "hand", "field", i=rng.randrange(len(z["hand"])), to=other)
        elif roll < 0.93 and z["trash"]:  # back from the trash
            self.move(p, "trash", "hand", i=rng.randrange(len(z["trash"])))
        elif roll < 0.96 and z["hand"]:  # an unseen card of the hand to the life pile
            self.move(p, "hand", "life", i=rng.randrange(len(z["hand"])))
            self.log("counter", p, name="life", player=p, add=1)
        else:
            self.log("phase", "-", name=rng.choice(["main", "battle", "end"]))

    def play(self, turns: int) -> list:
        self.setup()
        for t in range(turns):
            self.turn_of(PLAYERS[t % 2])
            if self.over:
                break
        end = self.rng.random()
        loser = self.rng.choice(PLAYERS)
        if end < 0.4:
            self.log("concede", loser, player=loser)
        elif end < 0.7:
            winner = PLAYERS[1] if loser == PLAYERS[0] else PLAYERS[0]
            self.log("game.end", "-", winner=winner, how="life")
        if end < 0.7 and self.rng.random() < 0.2:  # an act after the end (TABLE-3)
            self.log("phase", "-", name="extra")
        return self.rec.steps


def simulate(rng: random.Random, turns: int) -> tuple[list[str], list]:
    return list(PLAYERS), Game(rng).play(turns)


def games():
    return st.builds(simulate, st.randoms(use_true_random=False), st.integers(1, 12))


def game_for_seed(seed: int) -> tuple[list[str], list]:
    rng = random.Random(seed)
    return simulate(rng, rng.randint(4, 12))
