"""Plausible One Piece CardGame 2009 matches for property tests: `games()` -> (players, steps).

A best-of-three between two registered 32-card decks, recorded *fully known*: every card drawn is
named (the opening hands, the Fase Iniziale, Aumentare la Mano, the Fase Finale), as a match streamed
with the hands on camera would be; `Ruleset.hide` then makes the scorekeeper's record of it. The
policy keeps its own copy of every face-down pile (the Forziere, the hands, the Giornale di Bordo,
the Life Points), so the cards it plays are the cards really there, including those that reached the
hand as Life Points, which no record names. Per game: the preparation (a Pirate Mulligan or a free
redraw now and then, a Captain and perhaps a Sailor face down, the reveal), turns of up to three
Actions (call a Sailor, grow the hand, update the Giornale, start a Battle with Reinforcements,
Techniques and the damage the powers give, or pass), the hand brought to 4. Between games a player
may sideboard; now and then time is called between games and decided. Slips a real table makes
also happen: a card played that the hand cannot hold (OP09-MANO-2), a wrong damage figure.
"""
from __future__ import annotations

from hypothesis import strategies as st

from tests.rulesets.op2009.builder import CROCO, MISS_MONDAY, MR1, NAMI, RUFY, ZORO
from tests.rulesets.tape import Table, Tape, tapes

ANN, BOB = "Ann", "Bob"
CHARACTERS = {c["card"]: c for c in (
    RUFY, ZORO, NAMI, CROCO, MR1, MISS_MONDAY,
    dict(card="LK-C10", name="Usop", life=1, crew="Pirati di Rufy", power=200, damage=1),
    dict(card="LK-C11", name="Sanji", life=2, crew="Pirati di Rufy", power=400, damage=1),
    dict(card="BA-C10", name="Mr. 3", life=1, crew="Ciurma Nemica", power=300, damage=1),
    dict(card="BA-C11", name="Bibi", life=2, crew="Cittadini", power=200, damage=1),
    dict(card="LK-C12", name="Chopper", life=1, crew="Pirati di Rufy", power=300, damage=1),
    dict(card="BA-C12", name="Mr. 5", life=1, crew="Ciurma Nemica", power=300, damage=1),
)}
TECHNIQUES = ("LK-W01", "LK-W02", "LK-W09", "BA-W01", "BA-W02", "BA-W09")
DECKS = {
    ANN: [c for c in ("LK-C01", "LK-C05", "LK-C09", "LK-C10", "LK-C11", "LK-C12", "LK-W01", "LK-W02") for _ in range(4)],
    BOB: [c for c in ("BA-C01", "BA-C03", "RG-C19", "BA-C10", "BA-C11", "BA-C12", "BA-W01", "BA-W02") for _ in range(4)],
}
SIDEBOARD = {ANN: ["LK-W09"], BOB: ["BA-W09"]}
SPACES = ("capitano", "marinaio1", "marinaio2")


class Match:
    """The table as the policy knows it (every face-down card's name), beside the recorded one."""

    def __init__(self, tape: Tape):
        self.tape = tape
        self.t = Table("op2009", [ANN, BOB])
        self.deck = {p: list(DECKS[p]) for p in (ANN, BOB)}
        self.side = {p: list(SIDEBOARD[p]) for p in (ANN, BOB)}

    # --- the piles --------------------------------------------------------------------------

    def new_game(self) -> None:
        self.forziere = {p: self.tape.shuffled(self.deck[p]) for p in (ANN, BOB)}
        self.hand: dict[str, list[str]] = {ANN: [], BOB: []}
        self.giornale: dict[str, list[str]] = {ANN: [], BOB: []}
        self.vita = {p: {sp: [] for sp in SPACES} for p in (ANN, BOB)}
        self.ponte: dict[str, dict[str, str]] = {ANN: {}, BOB: {}}

    def draw(self, p: str, n: int) -> list[str]:
        drawn = [self.forziere[p].pop() for _ in range(min(n, len(self.forziere[p])))]
        self.hand[p] += drawn
        return drawn

    def from_hand(self, p: str, code: str) -> None:
        if code in self.hand[p]:
            self.hand[p].remove(code)
        elif self.hand[p]:
            self.hand[p].pop()  # the record names a card the hand did not hold: one card still leaves

    def lives(self, p: str, sp: str, n: int) -> None:
        for _ in range(min(n, len(self.giornale[p]))):
            self.vita[p][sp].append(self.giornale[p].pop())

    def hit(self, p: str, sp: str, n: int) -> None:
        pile = self.vita[p][sp]
        for _ in range(min(n, len(pile))):
            self.hand[p].append(pile.pop())
        if not pile and n > 0:
            self.ponte[p].pop(sp, None)

    def chars_in_hand(self, p: str) -> list[str]:
        return [c for c in self.hand[p] if c in CHARACTERS]

    @property
    def state(self):
        return self.t.state

    def game_over(self) -> bool:
        g = self.state.extra.get("game")
        return g is None or bool(g.get("over"))

    # --- a game -------------------------------------------------------------------------------

    def prepare(self, first: str) -> None:
        tp, t = self.tape, self.t
        self.new_game()
        t.do("game.start", first=first)
        for p in (first, other(first)):
            t.do("shuffle", actor=p, player=p)
            self.giornale[p] = [self.forziere[p].pop() for _ in range(6)]
            t.do("logbook.deal", actor=p, player=p)
            t.do("hand.deal", actor=p, player=p, cards=self.draw(p, 7))
        for p in (first, other(first)):
            if tp.chance(15) and not self.state.extra["mulligans"][p]:
                self.forziere[p] = tp.shuffled(self.forziere[p] + self.hand[p])
                self.hand[p] = []
                t.do("mulligan.pirate", actor=p, player=p, cards=self.draw(p, 7))
            tries = 0
            while not self.chars_in_hand(p) and tries < 2 and len(self.forziere[p]) >= 7:
                tries += 1
                old, self.hand[p] = self.hand[p], []
                t.do("redraw", actor=p, player=p, discarded=old, cards=self.draw(p, 7))
        for p in (first, other(first)):
            chars = self.chars_in_hand(p) or [tp.pick(sorted(c for c in CHARACTERS if c in DECKS[p]))]
            placed = tp.pick(chars)
            total = 0
            for sp in SPACES[: 1 + tp.int(3)]:
                if sp != "capitano":
                    fits = [c for c in self.chars_in_hand(p) if c != placed and
                            CHARACTERS[c]["name"] not in [CHARACTERS[x]["name"] for x in self.ponte[p].values()]]
                    if not fits:
                        break
                    placed = tp.pick(fits)
                if total + CHARACTERS[placed]["life"] > 6:
                    break
                total += CHARACTERS[placed]["life"]
                self.from_hand(p, placed)
                self.ponte[p][sp] = placed
                t.do("prep.place", actor=p, player=p, space=sp, **CHARACTERS[placed])
        t.do("prep.reveal")
        for p in (ANN, BOB):
            for sp, code in self.ponte[p].items():
                self.lives(p, sp, CHARACTERS[code]["life"])

    def turn(self, p: str, n_turn: int) -> None:
        tp, t = self.tape, self.t
        t.do("turn.start", actor=p, player=p)
        card = self.draw(p, 1)
        t.do("fase.iniziale", actor=p, player=p, **({"card": card[0]} if card else {}))
        if self.game_over():
            return
        for _ in range(3):
            choice = tp.int(6)
            empty = [sp for sp in ("marinaio1", "marinaio2") if sp not in self.ponte[p]]
            if choice == 0 and empty and self.chars_in_hand(p):
                code = tp.pick(self.chars_in_hand(p))
                if tp.chance(8):  # a slip: the recorder names a Character the hand does not hold
                    code = tp.pick(sorted(c for c in CHARACTERS if c in DECKS[p]))
                if CHARACTERS[code]["life"] <= len(self.giornale[p]):
                    sp = tp.pick(empty)
                    self.from_hand(p, code)
                    self.ponte[p][sp] = code
                    t.do("sailor.call", actor=p, player=p, space=sp, **CHARACTERS[code])
                    self.lives(p, sp, CHARACTERS[code]["life"])
                    continue
            if choice == 1 and len(self.hand[p]) <= 4:
                drawn = self.draw(p, 1)
                t.do("hand.grow", actor=p, player=p, **({"card": drawn[0]} if drawn else {}))
            elif choice == 2 and self.forziere[p]:
                self.giornale[p].append(self.forziere[p].pop())
                t.do("logbook.update", actor=p, player=p)
            elif choice in (3, 4) and n_turn > 1 and self.ponte[p] and self.ponte[other(p)]:
                self.battle(p)
            elif choice == 5 and tp.chance(20) and self.hand[p]:  # an effect: a card from the hand to the bottom
                code = tp.pick(self.hand[p])
                self.from_hand(p, code)
                self.forziere[p].insert(0, code)
                t.do("move", actor=p, player=p, from_zone="mano", to_zone="forziere", card=code, to_where="bottom",
                     by_card="LK-C11")
            if self.game_over():
                return
        t.do("pass", actor=p, player=p)
        n = len(self.hand[p])
        if n < 4:
            t.do("fase.finale", actor=p, player=p, draw=4 - n, drawn=self.draw(p, 4 - n))
        elif n > 4:
            dropped = [self.hand[p][i] for i in range(n - 4)]
            for c in dropped:
                self.from_hand(p, c)
            t.do("fase.finale", actor=p, player=p, discard=dropped)
        else:
            t.do("fase.finale", actor=p, player=p)

    def battle(self, p: str) -> None:
        tp, t = self.tape, self.t
        q = other(p)
        att = tp.pick(sorted(self.ponte[p]))
        targets = [sp for sp in SPACES if sp in self.ponte[q]]
        facing = [sp for sp in targets if sp == att or (att == "capitano" and sp != "capitano")]
        target = tp.pick(facing or targets)
        t.do("battle.start", actor=p, player=p, attacker=att, target=target)
        side = {p: att, q: target}
        mover, passes = p, 0
        for _ in range(6):
            if passes == 2:
                break
            alive = side[mover] in self.ponte[mover]
            reinf = self.chars_in_hand(mover) if alive else []
            techs = [c for c in self.hand[mover] if c in TECHNIQUES]
            if reinf and tp.chance(30):
                code = tp.pick(reinf)
                fighter = CHARACTERS[self.ponte[mover][side[mover]]]
                cost = 0 if CHARACTERS[code]["crew"] == fighter["crew"] else 1
                self.from_hand(mover, code)
                info = {k: CHARACTERS[code][k] for k in ("name", "crew")}
                t.do("reinforce", actor=mover, player=mover, card=code, damage=cost, **info)
                self.hit(mover, side[mover], cost)
                passes = 0
            elif techs and alive and tp.chance(30):
                code = tp.pick(techs)
                self.from_hand(mover, code)
                t.do("technique", actor=mover, player=mover, card=code)
                passes = 0
            else:
                t.do("battle.pass", actor=mover, player=mover)
                passes += 1
            if self.game_over():
                return
            mover = other(mover)
        b = self.state.extra.get("battle")
        if b is None or self.game_over():
            return
        want = t.rs.expected_battle_hits(self.state, b) or {q: 1}
        if tp.chance(10):  # a slip: the table dealt one damage too many
            want = {k: v + 1 for k, v in want.items()}
        hits = [{"player": who, "space": side[who], "amount": n} for who, n in sorted(want.items()) if n]
        if passes == 2 and hits:
            t.do("damage", hits=hits)
            for h in hits:
                self.hit(h["player"], h["space"], h["amount"])
        if not self.game_over():
            t.do("battle.end")

    def game(self, first: str) -> None:
        self.prepare(first)
        p = first
        for n in range(1, 13):
            if self.game_over():
                return
            self.turn(p, (n + 1) // 2)
            p = other(p)
        if not self.game_over():
            self.t.do("concede", actor=p, player=p)

    def between_games(self) -> None:
        tp, t = self.tape, self.t
        for p in (ANN, BOB):
            if tp.chance(30) and self.side[p]:
                into = self.side[p][0]
                out = tp.pick([c for c in self.deck[p] if c in TECHNIQUES])
                self.deck[p].remove(out)
                self.deck[p].append(into)
                self.side[p] = [out]
                t.do("sideboard", actor=p, player=p, out=[out], into=[into])

    def time_called(self) -> None:
        t = self.t
        t.do("time.called", actor="judge:Carla", clock="15:40")
        d = t.rs.end_of_time(self.state, t.events())
        t.do("time.decision", actor="judge:Carla", result=d.result, branch=d.branch, steps=d.steps, rule=d.rule,
             **({"winner": d.winner} if d.winner else {}))


def other(p: str) -> str:
    return BOB if p == ANN else ANN


def play_match(tape: Tape) -> tuple[list[str], list]:
    m = Match(tape)
    for p in (ANN, BOB):
        m.t.do("deck.register", actor=p, player=p, cards=list(DECKS[p]), sideboard=list(SIDEBOARD[p]))
    first = tape.pick([ANN, BOB])
    while m.state.result is None:
        m.game(first)
        if m.state.result is not None:
            break
        last = m.state.extra["games"][-1]
        first = other(last["winner"]) if last["winner"] else first
        m.between_games()
        if tape.chance(20):
            m.time_called()
            break
    return [ANN, BOB], m.t.steps


def games() -> st.SearchStrategy[tuple[list[str], list]]:
    """(players, steps) of a best-of-three match, every card named."""
    return tapes(min_size=80, max_size=600).map(play_match)
