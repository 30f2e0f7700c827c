"""Builds hand-written op2009 match logs for the tests: a real SQLite file per test, events recorded
one by one through engine.match.Match (record, then judge), findings kept per event."""
from __future__ import annotations

from pathlib import Path

from engine.match import Match
from engine.store import EventStore

ANN, BOB = "Ann", "Bob"

# Printed values read off the cards (the project ships no card database).
RUFY = dict(card="LK-C01", name="Rufy", life=3, crew="Pirati di Rufy", power=500, damage=1)
ZORO = dict(card="LK-C05", name="Zoro", life=2, crew="Pirati di Rufy", power=400, damage=1)
NAMI = dict(card="LK-C09", name="Nami", life=1, crew="Pirati di Rufy", power=200, damage=1)
CROCO = dict(card="BA-C01", name="Crocodile", life=3, crew="Ciurma Nemica", power=500, damage=1)
MR1 = dict(card="BA-C03", name="Mr. 1", life=2, crew="Ciurma Nemica", power=400, damage=1)
MISS_MONDAY = dict(card="RG-C19", name="Miss Monday", life=1, crew="Ciurma Nemica", power=300, damage=1)

DECK_ANN = [c for c in ("LK-C01", "LK-C05", "LK-C09", "LK-W01", "LK-W02", "LK-C10", "LK-C11", "LK-C12")
            for _ in range(4)]
DECK_BOB = [c for c in ("BA-C01", "BA-C03", "RG-C19", "BA-W01", "BA-W02", "BA-C10", "BA-C11", "BA-C12")
            for _ in range(4)]


class Log:
    def __init__(self, tmp_path: Path, *, options: dict | None = None, name: str = "m.db"):
        self.store = EventStore.open(str(tmp_path / name))
        self.m = Match.create(self.store, "op2009", [ANN, BOB], options=options)
        self.findings: dict[int, list] = {}

    def ev(self, kind: str, actor: str | None = None, **payload):
        """Record one event; return its findings."""
        if actor is None:
            actor = payload.get("player", "-") if isinstance(payload.get("player"), str) else "-"
        rec = self.m.record(kind, payload, actor=actor)
        self.findings[rec.event.position] = rec.findings
        return rec.findings

    def rules(self, kind: str, actor: str | None = None, **payload) -> list[str]:
        """Record one event; return the ids of the rules it broke."""
        return [f.rule for f in self.ev(kind, actor, **payload)]

    def state(self):
        return self.m.state()

    def all_findings(self) -> list:
        return [f for fs in self.findings.values() for f in fs]

    def hand(self, player: str) -> int:
        return len(self.state().zone(player, "mano"))

    # --- building blocks --------------------------------------------------------------------

    def register(self) -> None:
        self.ev("deck.register", player=ANN, cards=DECK_ANN, sideboard=["LK-W09"])
        self.ev("deck.register", player=BOB, cards=DECK_BOB, sideboard=["BA-W09"])

    def prepare(self, first: str = ANN, ann=(RUFY, ZORO), bob=(CROCO, MR1)) -> None:
        """game.start and a legal preparation: Captain (and Sailor in marinaio1) for each player."""
        self.ev("game.start", first=first)
        for player, chars in ((ANN, ann), (BOB, bob)):
            self.ev("shuffle", player=player)
            self.ev("logbook.deal", player=player)
            self.ev("hand.deal", player=player, cards=[c["card"] for c in chars])
        for player, chars in ((ANN, ann), (BOB, bob)):
            for space, c in zip(("capitano", "marinaio1", "marinaio2"), chars):
                self.ev("prep.place", player=player, space=space, **c)
        self.ev("prep.reveal")

    def begin(self, player: str) -> None:
        self.ev("turn.start", player=player)
        self.ev("fase.iniziale", player=player)

    def finale(self, player: str) -> list:
        n = self.hand(player)
        if n < 4:
            return self.ev("fase.finale", player=player, draw=4 - n)
        if n > 4:
            return self.ev("fase.finale", player=player, discard_count=n - 4)
        return self.ev("fase.finale", player=player)

    def quiet_turn(self, player: str) -> None:
        """A turn of no consequence: draw, pass, hand to 4."""
        self.begin(player)
        self.ev("pass", player=player)
        self.finale(player)

    def both_pass(self, player: str, attacker: str, target: str, *, modifier: dict | None = None,
                  **start) -> None:
        """A Battle declared (with the attacker's `modifier` card, if any), and both players pass:
        what comes next is its damage."""
        self.ev("battle.start", player=player, attacker=attacker, target=target, **start)
        if modifier:
            self.ev("modifier", player=player, **modifier)
        self.ev("battle.pass", player=player)
        self.ev("battle.pass", player=BOB if player == ANN else ANN)

    def battle(self, player: str, attacker: str, target: str, hits: list[dict], *,
               modifier: dict | None = None, **start) -> None:
        """A whole Battle: declare (a modifier card at most), both pass, the damage, the end."""
        self.both_pass(player, attacker, target, modifier=modifier, **start)
        if hits:
            self.ev("damage", hits=hits)
        self.ev("battle.end")

    def time(self, clock: str = "15:40") -> None:
        self.ev("time.called", actor="judge:Carla", clock=clock)


def hit(player: str, space: str, amount: int) -> dict:
    return {"player": player, "space": space, "amount": amount}
