"""Plausible games of the grandline profile for property tests: `games()` -> (players, steps).

2 to 4 players set up (a Captain, 44 cards in the deck and 5 in the hand); each round the start
player passes clockwise; every player draws in the preparation phase, plays characters, items,
events and islands with Beli in the action phase, attacks up to twice in the combat phase (now and
then a third time, which the record shows as it happened), blocks or not; the hand is brought to six
at the end; islands are visited for victory points. Play stops when someone wins or after 12 rounds.
"""
from __future__ import annotations

from hypothesis import strategies as st

from tests.rulesets.tape import Table, Tape, tapes

NAMES = ("Ann", "Bob", "Cid", "Dee")
CAPTAINS = (("Luffy", 5, 7), ("Kaido", 4, 8), ("Shanks", 6, 6), ("Big Mom", 3, 9))
CARDS = (  # name, type, cost, attack, defence, life
    ("Zoro", "character", 1, 5, 4, None), ("Nami", "character", 1, 2, 2, None),
    ("Jack", "character", 2, 3, 5, 10), ("Sanji", "character", 2, 4, 3, None),
    ("Jinbe", "character", 3, 4, 6, 8), ("Wado Ichimonji", "item", 1, None, None, None),
    ("Gum-Gum Pistol", "event", 0, None, None, None), ("Thousand Sunny", "treasure", 2, None, None, None),
    ("Drum Island", "island", 1, None, None, None), ("Water 7", "location", 2, None, None, None),
)


def play_game(n_players: int, tape: Tape) -> tuple[list[str], list]:
    players = list(NAMES[:n_players])
    t = Table("grandline", players)
    for p, (captain, initiative, life) in zip(players, CAPTAINS):
        t.do("setup", actor=p, player=p, captain=captain, initiative=initiative, captain_life=life, deck=44, hand=5)
    start = tape.int(n_players)
    visited: dict[str, list[str]] = {p: [] for p in players}
    for number in range(1, 13):
        if t.over:
            break
        order = players[start:] + players[:start]
        # round 1: the start player rolled highest ("die höchste Zahl auf einem Würfelwurf")
        rolls = {p: 6 if p == order[0] else 1 + tape.int(5) for p in players} if number == 1 else None
        t.do("round", number=number, start_player=order[0], **({"rolls": rolls} if rolls else {}))
        t.do("phase", name="preparation")
        for p in order:
            t.do("draw", actor=p, player=p)
        t.do("phase", name="action")
        for p in order:
            for _ in range(tape.int(3)):
                beli = t.state.counters[p]["beli"]
                affordable = [c for c in CARDS if c[2] <= beli]
                if not affordable or not t.state.zone(p, "hand"):
                    break
                name, kind, cost, attack, defence, life = tape.pick(CARDS if tape.chance(5) else affordable)
                values = {k: v for k, v in (("attack", attack), ("defence", defence), ("life", life)) if v is not None}
                t.do("play", actor=p, player=p, card=name, type=kind, cost=cost, **values)
            if t.state.zone(p, "hand") and tape.chance(15):
                t.do("discard", actor=p, player=p, card=tape.pick([c[0] for c in CARDS]))
        t.do("phase", name="combat")
        for p in order:
            if t.over:
                break
            ready = [c.code for c in t.state.zone(p, "sea") if c.props.get("type") == "character"
                     and not c.props.get("exhausted")]
            for _ in range(min(len(ready), 3 if tape.chance(10) else tape.int(3))):
                foe = tape.pick([q for q in players if q != p and q not in t.rs._x(t.state)["out"]] or [p])
                blockers = [c.code for c in t.state.zone(foe, "sea") if c.props.get("type") == "character"]
                kw = {"blocker": tape.pick(blockers)} if blockers and tape.chance(40) else {}
                t.do("attack", actor=p, player=p, attacker=ready.pop(tape.int(len(ready))), target_player=foe, **kw)
                if t.over:
                    break
        if t.over:
            break
        t.do("phase", name="end")
        for p in order:
            extra = len(t.state.zone(p, "hand")) - 6
            if extra > 0:
                t.do("discard", actor=p, player=p, count=extra)
            island = f"Insel {number}"
            if tape.chance(30) and island not in visited[p]:
                visited[p].append(island)
                t.do("island.visit", actor=p, player=p, island=island, vp=1 + tape.int(3))
                if t.over:
                    break
        start = (start + 1) % n_players
    return players, t.steps


def games() -> st.SearchStrategy[tuple[list[str], list]]:
    """(players, steps) of a game of 2 to 4 players."""
    return st.tuples(st.integers(2, 4), tapes()).map(lambda args: play_game(*args))
