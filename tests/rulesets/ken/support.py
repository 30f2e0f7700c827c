"""Shared helpers for the Ken il Guerriero tests: a card library (printed facts) and an in-memory
game driver that judges and applies events exactly as replay does (check on the state before,
then apply). Tests that need the real log (SQLite, replay, hashes) use engine.match.Match."""
from __future__ import annotations

from typing import Any

from engine.events import RecordedEvent
from engine.rulesets.ken.ruleset import KenRuleset
from engine.schema import ParseContext

# --- a small card library: printed facts as a recorder would copy them off the cards ---------------

KEN = {"code": "M-KEN", "name": "Kenshiro", "type": "master", "morale": ["blue"], "schools": ["Hokuto"],
       "profile": "master", "attack": 3, "defence": 2, "resistance": "life", "green": 2, "ochre": 3}
RAOUL = {"code": "M-RAO", "name": "Raoul", "type": "master", "morale": ["red"], "schools": ["Hokuto"],
         "profile": "master", "attack": 4, "defence": 1, "resistance": "life", "green": 2, "ochre": 4}
SOUTHER = {"code": "M-SOU", "name": "Souther", "type": "master", "morale": ["red"], "schools": ["Nanto"],
           "profile": "master", "attack": 4, "defence": 2, "resistance": "life", "green": 2, "ochre": 4}
BAT = {"code": "P-BAT", "name": "Bat", "type": "character", "morale": ["blue"], "profile": "character",
       "attack": 1, "defence": 1, "resistance": 1, "ochre": 1}
REI = {"code": "P-REI", "name": "Rei", "type": "character", "morale": ["blue"], "schools": ["Nanto"],
       "profile": "character", "attack": 3, "defence": 2, "resistance": "life", "green": 1, "ochre": 2}
VILLAGERS = {"code": "E-VIL", "name": "Villaggi Liberi", "type": "army", "morale": ["blue"], "profile": "army",
             "attack": 2, "defence": 1, "resistance": 2, "ochre": 1}
GUARDS = {"code": "E-GUA", "name": "Guardie di Hokuto", "type": "army", "morale": ["blue"], "schools": ["Hokuto"],
          "profile": "army", "attack": 2, "defence": 2, "resistance": 2, "ochre": 2}
RAIDERS = {"code": "E-PRE", "name": "Predoni", "type": "army", "morale": ["red"], "profile": "army",
           "attack": 3, "defence": 1, "resistance": 1, "ochre": 1}
NOMADS = {"code": "E-NOM", "name": "Nomadi", "type": "army", "morale": ["grey"], "profile": "army",
          "attack": 1, "defence": 1, "resistance": 2, "ochre": 1}
COBRA = {"code": "E-COB", "name": "Banda Cobra", "type": "army", "morale": ["red"], "surnames": ["COBRA"],
         "profile": "army", "attack": 2, "defence": 1, "resistance": 1, "ochre": 1}
VILLAGE = {"code": "L-VIL", "name": "Villaggio", "type": "location", "morale": ["blue"], "inhabited": True,
           "profile": "location", "green": 1, "ochre": 2}
FORTRESS = {"code": "L-FOR", "name": "Fortezza", "type": "location", "morale": ["red"], "inhabited": True,
            "profile": "location", "green": 2, "ochre": 2}
TEMPLE = {"code": "L-TEM", "name": "Tempio di Hokuto", "type": "location", "morale": ["grey"], "schools": ["Hokuto"],
          "inhabited": True, "profile": "location", "green": 1, "ochre": 1}
DESERT = {"code": "L-DES", "name": "Deserto", "type": "location", "morale": ["grey"], "inhabited": False,
          "profile": "location", "ochre": 1}
WASTES = {"code": "L-WAS", "name": "Terre Desolate", "type": "location", "morale": ["grey"], "inhabited": False,
          "profile": "location"}
HYAKURETSU = {"code": "T-HYA", "name": "Hokuto Hyakuretsu Ken", "type": "technique", "morale": ["blue"],
              "schools": ["Hokuto"], "assign_to": ["M", "P"], "duration": "permanente", "attack": 2}
NANTO_TECH = {"code": "T-NAN", "name": "Nanto Suichoken", "type": "technique", "morale": ["grey"], "schools": ["Nanto"],
              "assign_to": ["M", "P"], "duration": "permanente", "attack": 2}
STRIKE = {"code": "T-COL", "name": "Colpo Improvviso", "type": "technique", "morale": ["grey"], "assign_to": ["M", "P"],
          "duration": "gioca-e-scarta", "attack": 1}
FURY = {"code": "S-FUR", "name": "Furia", "type": "spirit", "morale": ["grey"], "assign_to": ["M", "P"],
        "duration": "gioca-e-scarta", "attack": 1}
JACKET = {"code": "Q-GIU", "name": "Giubbotto", "type": "equipment", "morale": ["grey"], "assign_to": ["M", "P", "E"],
          "duration": "permanente", "defence": 1, "profile": "character"}
RED_BLADE = {"code": "Q-LAM", "name": "Lama Rossa", "type": "equipment", "morale": ["red"], "assign_to": ["M", "P", "E"],
             "duration": "permanente", "attack": 1}
WALLS = {"code": "Q-MUR", "name": "Mura", "type": "equipment", "morale": ["grey"], "assign_to": ["L"],
         "duration": "permanente", "green": 1}
STORM = {"code": "V-TEM", "name": "Tempesta", "type": "event", "morale": ["grey"], "duration": "gioca-e-scarta"}
WAR = {"code": "V-GUE", "name": "Guerra", "type": "event", "morale": ["grey"], "duration": "permanente", "green": 1}
BET = {"code": "V-PUN", "name": "Scommessa", "type": "event", "morale": ["grey"], "duration": "puntata"}

LIBRARY = [KEN, RAOUL, SOUTHER, BAT, REI, VILLAGERS, GUARDS, RAIDERS, NOMADS, COBRA, VILLAGE, FORTRESS, TEMPLE,
           DESERT, WASTES, HYAKURETSU, NANTO_TECH, STRIKE, FURY, JACKET, RED_BLADE, WALLS, STORM, WAR, BET]


def deck(size: int = 75) -> list[dict[str, Any]]:
    """A legal deck holding every library card (so any can be played by code), padded with fillers;
    size 15: a quick-game deck of fifteen different cards, two of them Locations."""
    if size == 15:
        return [dict(f, count=1) for f in (KEN, RAOUL, BAT, REI, VILLAGERS, GUARDS, RAIDERS, NOMADS, COBRA, VILLAGE,
                                           DESERT, HYAKURETSU, STRIKE, JACKET, STORM)]
    entries = [dict(f, count=2) for f in LIBRARY]
    n = sum(e["count"] for e in entries)
    i = 0
    while n < size:
        take = min(5, size - n)
        entries.append({"name": f"Predone {i}", "type": "army", "morale": ["red"], "attack": 1, "defence": 1,
                        "resistance": 1, "count": take})
        n += take
        i += 1
    return entries


def side(damage: int, **kw) -> dict:
    """One side of a combat.damage payload."""
    return {"damage": damage, **kw}


def ids(findings) -> set[str]:
    return {f.rule for f in findings}


class Game:
    """Drive the ruleset event by event, as replay does: check against the state before, then apply."""

    def __init__(self, players=("Ann", "Bob"), **options):
        self.rs = KenRuleset(options)
        self.players = list(players)
        created = self._seal(1, "match.created", {"ruleset": "ken", "players": self.players,
                                                   **({"options": options} if options else {})})
        self.state = self.rs.new_state(created)
        self.events = [created]
        self.findings = []
        self.last = []

    def _seal(self, position: int, kind: str, payload: dict[str, Any], actor: str = "-") -> RecordedEvent:
        return RecordedEvent.seal(match="m", position=position, kind=kind, version=1, actor=actor,
                                  payload=payload, recorded_at="", recorded_by="test", prev_hash="")

    def do(self, kind: str, **payload) -> set[str]:
        cls = self.rs.vocabulary()[kind]
        data = cls.parse(payload, ParseContext(tuple(self.players), tuple(self.rs.zones))).to_dict()
        e = self._seal(len(self.events) + 1, kind, data)
        self.last = self.rs.check(self.state, e)
        self.rs.apply(self.state, e)
        self.state.position = e.position
        self.events.append(e)
        self.findings += self.last
        return ids(self.last)

    # --- shortcuts --------------------------------------------------------------------------

    def setup(self, size: int = 75):
        for p in self.players:
            self.do("deck.register", player=p, cards=deck(size))
        for p in self.players:
            self.do("draw", player=p, count=7)
        return self

    def turn(self, player: str, *, upto: str = "presentation", draw: int = 1, discard: bool = True):
        """Begin `player`'s turn and go through the phases up to `upto` (skipping Disengage on the
        first turn, drawing `draw`, and discarding down to 7 before leaving the Presentation)."""
        if discard and self.state.active:
            self.discard_to_7(self.state.active)
        self.do("turn", player=player)
        for name in ("order", "disengage", "draw", "presentation", "combat", "epilogue"):
            if name == "disengage" and self.state.extra["turns"][player] == 1:
                continue
            if name == "combat" and discard:
                self.discard_to_7(player)
            self.do("phase", name=name)
            if name == "draw" and draw:
                self.do("draw", player=player, count=draw)
            if name == upto:
                return self
        return self

    def discard_to_7(self, player: str) -> None:
        while len(self.state.zone(player, "hand")) > 7:
            self.do("move", player=player, from_zone="hand", to_zone="past")

    def play(self, player: str, *cards, **kw) -> set[str]:
        entries = []
        for c in cards:
            entries.append(c if "code" in c and "name" not in c or "facts" in c else {"code": c["code"]})
        return self.do("play", player=player, cards=entries, **kw)

    def uid_of(self, player: str, zone: str, name: str) -> str:
        for c in reversed(self.state.zone(player, zone)):
            if (c.props.get("f") or {}).get("name") == name:
                return c.uid
        raise KeyError(f"no {name} in {player}'s {zone}")

    def order(self, player: str) -> int:
        return self.state.counters[player]["order"]


def test_library_facts_are_valid():
    from engine.rulesets.ken.cards import normalise_facts
    for f in LIBRARY:
        assert normalise_facts(f)["name"] == f["name"]


def test_support_deck_is_legal():
    g = Game().setup()
    assert g.findings == []
    assert len(g.state.zone("Ann", "future")) == 75 - 7
