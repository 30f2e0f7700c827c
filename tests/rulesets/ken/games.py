"""Plausible Ken il Guerriero games for property tests: `games()` -> (players, steps).

A quick game (two 15-card decks) or a standard one (75 cards: the test library three times), recorded
*fully known*: every card drawn is named, as a game with the hands on camera would be; `Ruleset.hide`
makes the scorekeeper's record of it. The policy keeps its own copy of each Future and hand, plays
what is really there (Masters and Characters, a second Life on top of the first, an Inhabited
Location with its Army, Uninhabited Locations, Techniques and Equipment on a card in play, Events),
discards down to 7, searches the Future now and then, attacks the Locations in order (or the
Protagonists when there are none) with groups of its ready units, defends, deals damage, declares
victory when ahead (and sometimes when not). Slips a real table makes also happen: a card played that
the hand does not hold (KEN-PRES-1), a declaration out of time (KEN-ORDINE-2).
"""
from __future__ import annotations

from hypothesis import strategies as st

from engine.rulesets.ken import table as T
from tests.rulesets.ken.support import LIBRARY, deck
from tests.rulesets.tape import Table, Tape, tapes

ANN, BOB = "Ann", "Bob"
FACTS = {f["code"]: f for f in LIBRARY}


def _deck(quick: bool) -> list[dict]:
    return deck(15) if quick else [dict(f, count=3) for f in LIBRARY]


def _codes(entries: list[dict]) -> list[str]:
    return [e["code"] for e in entries for _ in range(e.get("count", 1))]


class Game:
    def __init__(self, tape: Tape, quick: bool):
        self.tape = tape
        self.t = Table("ken", [ANN, BOB], {"game": "quick"} if quick else {})
        self.future: dict[str, list[str]] = {}
        self.hand: dict[str, list[str]] = {ANN: [], BOB: []}
        for p in (ANN, BOB):
            entries = _deck(quick)
            self.t.do("deck.register", actor=p, player=p, cards=entries)
            self.future[p] = tape.shuffled(_codes(entries))

    @property
    def s(self):
        return self.t.state

    @property
    def over(self) -> bool:
        return self.s.result is not None

    def draw(self, p: str, n: int, **kw) -> None:
        named = [self.future[p].pop() for _ in range(min(n, len(self.future[p])))]
        if not named:
            return
        self.hand[p] += named
        self.t.do("draw", actor=p, player=p, count=len(named), cards=named, **kw)

    def play(self, p: str, entries: list[dict]) -> None:
        for e in entries:
            if e["code"] in self.hand[p]:
                self.hand[p].remove(e["code"])
            elif self.hand[p]:
                self.hand[p].pop()
        self.t.do("play", actor=p, player=p, cards=entries)

    def ready_units(self, p: str) -> list[str]:
        return [u for u in T.units(self.s, p) if not T.is_engaged(self.s, u)]

    # --- a turn -----------------------------------------------------------------------------

    def turn(self, p: str) -> None:
        t, tp = self.t, self.tape
        t.do("turn", actor=p, player=p)
        t.do("phase", name="order")
        if self.over:
            return
        if tp.chance(8):
            t.do("victory.declare", actor=p, player=p)  # legal when 10+ ahead, a slip otherwise
            if self.over:
                return
        if self.s.extra["turns"][p] > 1:
            t.do("phase", name="disengage")
            t.do("disengage", actor=p, player=p)
        t.do("phase", name="draw")
        self.draw(p, 1 + tp.int(3))
        if self.over:
            return
        t.do("phase", name="presentation")
        for _ in range(tp.int(4)):
            self.present(p)
        if tp.chance(10) and self.future[p]:  # an effect: search the Future for a card
            code = self.future[p].pop(tp.int(len(self.future[p])))
            self.hand[p].append(code)
            t.do("move", actor=p, player=p, from_zone="future", to_zone="hand", code=code, effect="Ricerca #")
            if tp.chance(50):
                self.future[p] = tp.shuffled(self.future[p])
                t.do("shuffle", actor=p, player=p, zone="future")
        while len(self.hand[p]) > 7:
            code = self.hand[p].pop(tp.int(len(self.hand[p])))
            t.do("move", actor=p, player=p, from_zone="hand", to_zone="past", code=code)
        t.do("phase", name="combat")
        if tp.chance(60):
            self.combat(p)
        if tp.chance(10):
            t.do("order.points", actor=p, player=p, add=1 + tp.int(6), effect="BATTAGLIA #")
        t.do("phase", name="epilogue")

    def present(self, p: str) -> None:
        t, tp = self.t, self.tape
        if not self.hand[p]:
            return
        code = tp.pick(self.hand[p])
        if tp.chance(5):  # a slip: the recorder names a card this hand does not hold
            code = tp.pick(sorted(FACTS))
        f = FACTS[code]
        kind = f["type"]
        if kind in ("master", "character"):
            same = [u for u in T.units(self.s, p) if (T.unit_facts(self.s, u) or {}).get("code") == code]
            self.play(p, [{"code": code, **({"stack": same[0]} if same else {})}])
        elif kind == "location" and f.get("inhabited"):
            armies = [c for c in self.hand[p] if FACTS[c]["type"] == "army"]
            if armies:
                self.play(p, [{"code": code}, {"code": tp.pick(armies)}])
        elif kind == "location":
            self.play(p, [{"code": code}])
        elif kind in ("technique", "spirit", "equipment", "special"):
            units = T.units(self.s, p)
            if units:
                self.play(p, [{"code": code, "host": tp.pick(units)}])
        elif kind == "event":
            self.play(p, [{"code": code}])

    def combat(self, p: str) -> None:
        t, tp = self.t, self.tape
        q = BOB if p == ANN else ANN
        ready = self.ready_units(p)
        if not ready:
            return
        locations = [c.uid for c in self.s.zone(q, "territory")]
        targets = list(reversed(locations)) or T.units(self.s, q)
        if not targets:
            return
        groups = []
        for target in targets[: 1 + tp.int(2)]:
            if not ready:
                break
            members = [ready.pop(tp.int(len(ready))) for _ in range(min(len(ready), 1 + tp.int(2)))]
            groups.append({"target": target, "cards": members})
        t.do("combat.attack", actor=p, player=p, groups=groups)
        if locations and tp.chance(60):
            defenders = self.ready_units(q)
            defence = []
            for g in groups:
                if defenders and tp.chance(70):
                    defence.append({"target": g["target"], "cards": [defenders.pop(tp.int(len(defenders)))]})
            t.do("combat.defend", actor=q, player=q, groups=defence)
        for g in groups:
            if self.over:
                return
            t.do("combat.damage", target=g["target"], attacker={"damage": tp.int(7)}, defender={"damage": tp.int(5)})
        if not self.over:
            t.do("combat.end")


def play_game(quick: bool, tape: Tape) -> tuple[list[str], list]:
    g = Game(tape, quick)
    for p in (ANN, BOB):
        g.draw(p, 7)
    p = tape.pick([ANN, BOB])
    for _ in range(12):
        if g.over:
            break
        g.turn(p)
        p = BOB if p == ANN else ANN
    return [ANN, BOB], g.t.steps


def games() -> st.SearchStrategy[tuple[list[str], list]]:
    """(players, steps) of a quick or a standard game, every card named."""
    return st.tuples(st.booleans(), tapes(min_size=60, max_size=500)).map(lambda args: play_game(*args))


def options(steps) -> dict | None:
    """A game dealt 15-card decks is the quick game (the match option the harness records)."""
    quick = any(k == "deck.register" and len(p["cards"]) == 15 for k, _, p in steps)
    return {"game": "quick"} if quick else None
