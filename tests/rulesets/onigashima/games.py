"""Plausible Raid sur Onigashima games for property tests: `games()` -> (players, steps).

2 to 6 players split into the two camps (3 against 2 with five, 3 against 3 with six); each camp draws
the game's turns + 4 characters, named (the fully known record: `hide` turns the names into a count);
every player chooses a captain among them (with six players Kaido and Big Mom among the emperors');
each turn the camps' players take turns sending one character, face down then revealed; fighters may
transform, roll for equal initiative, attack in turn with the dice of their card, play up to three
cards, dodge with advanced haki; a fight ends when a fighter is out of energy, or a card ends it. Now
and then a camp sends a character it never drew (a slip the fully known record shows: ONI-HAND).
"""
from __future__ import annotations

from hypothesis import strategies as st

from engine.rulesets.onigashima import characters as data
from engine.rulesets.onigashima.ruleset import TURNS_BY_PLAYERS
from tests.rulesets.tape import Table, Tape, tapes

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


def _base_forms(camp: str) -> list[dict]:
    return [c for c in data.table()["characters"] if c["camp"] == camp and data.key(c["name"]) == data.key(c["base"])]


def _forms(base: str) -> list[dict]:
    return [c for c in data.table()["characters"] if data.key(c["base"]) == data.key(base)]


def play_game(n_players: int, tape: Tape) -> tuple[list[str], list]:
    players = list(NAMES[:n_players])
    camps = {"alliance": players[: (n_players + 1) // 2], "empereurs": players[(n_players + 1) // 2:]}
    t = Table("onigashima", players)
    turns = TURNS_BY_PLAYERS[n_players]
    t.do("camps", **camps)
    hands: dict[str, list[str]] = {}
    for camp in ("alliance", "empereurs"):
        pool = tape.shuffled([c["name"] for c in _base_forms(camp)])
        if camp == "empereurs" and n_players == 6:
            pool = ["Kaido", "Big Mom"] + [c for c in pool if c not in ("Kaido", "Big Mom")]
        hands[camp] = pool[: turns + 4]
        t.do("deal", camp=camp, characters=list(hands[camp]))
    for camp, members in camps.items():
        for i, p in enumerate(members):
            t.do("captain", actor=p, player=p, character=hands[camp][i % len(hands[camp])])
    unplayed = {camp: list(h) for camp, h in hands.items()}
    for number in range(1, turns + 1):
        t.do("turn", number=number)
        fighters = {}
        for camp, members in camps.items():
            player = members[(number - 1) % len(members)]
            undealt = [c["name"] for c in _base_forms(camp) if c["name"] not in hands[camp]]
            if undealt and tape.chance(5):  # a slip the record shows: a character the camp never drew
                fighters[player] = tape.pick(undealt)
                hands[camp].append(fighters[player])
            else:
                fighters[player] = unplayed[camp].pop(tape.int(len(unplayed[camp]) - 4) if len(unplayed[camp]) > 4 else 0)
        t.do("fight.start", fighters=fighters)
        _fight(t, tape, fighters)
    return players, t.steps


def _row(t: Table, name: str) -> dict | None:
    return data.lookup(name)


def _fight(t: Table, tape: Tape, fighters: dict[str, str]) -> None:
    a, b = list(fighters)
    forms = dict(fighters)
    for p in (a, b):  # transformations first ("Au début de son tour")
        others = [f["name"] for f in _forms(forms[p]) if f["name"] != forms[p]]
        if others and tape.chance(50):
            roll = 1 + tape.int(6)
            to = tape.pick(others)
            need = data.transfo_need(to) or 4
            t.do("transform", actor=p, player=p, roll=roll, **({"to": to} if roll >= need else {}))
            if roll >= need:
                forms[p] = to
    ini = {p: (_row(t, forms[p]) or {}).get("initiative", 0) for p in (a, b)}
    if ini[a] == ini[b]:
        rolls = {a: 1 + tape.int(6), b: 1 + tape.int(6)}
        while rolls[a] == rolls[b]:
            rolls[b] = rolls[b] % 6 + 1
        t.do("initiative.roll", rolls=rolls)
        first = a if rolls[a] > rolls[b] else b
    else:
        first = a if ini[a] > ini[b] else b
    attacker = first
    cards = {a: 0, b: 0}
    for _ in range(14):
        defender = b if attacker == a else a
        if t.state.counters[attacker]["energy"] <= 0 or t.state.counters[defender]["energy"] <= 0:
            break
        if cards[attacker] < 3 and tape.chance(15):
            cards[attacker] += 1
            t.do("card", actor=attacker, player=attacker, name=f"Attaque {cards[attacker]}", type="attaque",
                 damage=tape.int(15), instead_of_attack=True)
        else:
            row = _row(t, forms[attacker]) or {"dice": 5}
            dice = [1 + tape.int(6) for _ in range(row.get("dice") or 5)]
            faces = sorted({1 + tape.int(6) for _ in range(tape.int(3))})
            kw = {"ability_faces": faces, "ability_energy": 2 + tape.int(4)} if faces else {}
            t.do("attack", actor=attacker, player=attacker, dice=dice, **kw)
        drow = _row(t, forms[defender]) or {}
        if data.advanced_haki(drow) and tape.chance(30):
            t.do("dodge", actor=defender, player=defender, roll=1 + tape.int(6))
        if cards[defender] < 3 and tape.chance(10):
            cards[defender] += 1
            t.do("card", actor=defender, player=defender, name="Défense", type="defense", heal=tape.int(6))
        attacker = defender
    energy = {p: t.state.counters[p]["energy"] for p in (a, b)}
    out = [p for p in (a, b) if energy[p] <= 0]
    if out:
        winner = b if out[0] == a else a
        t.do("fight.end", winner=winner, how="energy")
    elif tape.chance(50):
        t.do("fight.end", winner=tape.pick([a, b]), how="card")
    else:
        t.do("fight.end", how="flee")


def games() -> st.SearchStrategy[tuple[list[str], list]]:
    """(players, steps) of a whole game, 2 to 6 players."""
    return st.tuples(st.integers(2, 6), tapes()).map(lambda args: play_game(*args))
