"""The table at one moment: derived by replay, never stored as truth.

Per player: ordered zones holding card references, and named counters. Zones are ordered bottom to
top: the last element is the top (of a deck, of a Life pile). A card reference is known (`code` is a
card number) or unknown (`code` is None: "a card" - only its existence and place are known), so a
scorekeeper who cannot see a hand still records a faithful table. Ruleset-specific facts live in
`extra` (plain JSON data) and per-card `props`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.canonical import canonical_bytes, sha256_hex

STATE_FORMAT = 1


@dataclass(slots=True)
class Card:
    uid: str
    code: str | None = None  # None: not known to the recorder
    owner: str = ""
    props: dict[str, Any] = field(default_factory=dict)

    @property
    def known(self) -> bool:
        return self.code is not None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"uid": self.uid, "code": self.code, "owner": self.owner}
        if self.props:
            d["props"] = self.props
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Card":
        return cls(d["uid"], d.get("code"), d.get("owner", ""), dict(d.get("props", {})))


class MissingCard(LookupError):
    pass


@dataclass
class TableState:
    ruleset: str
    players: list[str]
    zone_names: list[str]
    zones: dict[str, dict[str, list[Card]]] = field(default_factory=dict)
    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    turn: int = 0
    active: str | None = None
    phase: str | None = None
    position: int = 0
    result: dict[str, Any] | None = None
    voided: list[int] = field(default_factory=list)
    labels: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    next_uid: int = 1

    @classmethod
    def new(cls, ruleset: str, players: list[str], zone_names: list[str],
            counters: dict[str, int] | None = None, labels: dict[str, Any] | None = None) -> "TableState":
        s = cls(ruleset=ruleset, players=list(players), zone_names=list(zone_names),
                labels=dict(labels or {}))
        for p in players:
            s.zones[p] = {z: [] for z in zone_names}
            s.counters[p] = dict(counters or {})
        return s

    # --- cards ----------------------------------------------------------------------------

    def new_card(self, owner: str, code: str | None = None) -> Card:
        card = Card(f"c{self.next_uid}", code, owner)
        self.next_uid += 1
        return card

    def zone(self, player: str, name: str) -> list[Card]:
        return self.zones[player][name]

    def find(self, uid: str) -> tuple[str, str, int] | None:
        for player, zones in self.zones.items():
            for zname, cards in zones.items():
                for i, c in enumerate(cards):
                    if c.uid == uid:
                        return player, zname, i
        return None

    def find_code(self, player: str, zone: str, code: str) -> int | None:
        """Index of the topmost card with this number in a zone, else None."""
        cards = self.zone(player, zone)
        for i in range(len(cards) - 1, -1, -1):
            if cards[i].code == code:
                return i
        return None

    def take(self, player: str, zone: str, *, uid: str | None = None, code: str | None = None,
             where: str = "top") -> Card:
        """Remove one card from a zone and return it.

        By uid; else by card number (the topmost with that number, or else an unknown card, which
        is then identified as that number); else from `where` (top/bottom). Raises MissingCard when
        the zone holds no such card: the caller decides what an impossible move means.
        """
        cards = self.zone(player, zone)
        if uid is not None:
            for i, c in enumerate(cards):
                if c.uid == uid:
                    return cards.pop(i)
            raise MissingCard(f"card {uid} is not in {player}'s {zone}")
        if code is not None:
            i = self.find_code(player, zone, code)
            if i is None:
                for j in range(len(cards) - 1, -1, -1):
                    if cards[j].code is None:
                        i = j
                        break
            if i is None:
                raise MissingCard(f"no {code} (and no unknown card) in {player}'s {zone}")
            card = cards.pop(i)
            card.code = code
            return card
        if not cards:
            raise MissingCard(f"{player}'s {zone} is empty")
        return cards.pop() if where == "top" else cards.pop(0)

    def put(self, player: str, zone: str, card: Card, where: str = "top") -> None:
        cards = self.zone(player, zone)
        if where == "top":
            cards.append(card)
        else:
            cards.insert(0, card)

    # --- serialisation ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "ruleset": self.ruleset,
            "players": self.players,
            "zone_names": self.zone_names,
            "zones": {p: {z: [c.to_dict() for c in cards] for z, cards in zones.items()}
                      for p, zones in self.zones.items()},
            "counters": self.counters,
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "position": self.position,
            "result": self.result,
            "voided": self.voided,
            "labels": self.labels,
            "extra": self.extra,
            "next_uid": self.next_uid,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TableState":
        return cls(
            ruleset=d["ruleset"], players=list(d["players"]), zone_names=list(d["zone_names"]),
            zones={p: {z: [Card.from_dict(c) for c in cards] for z, cards in zones.items()}
                   for p, zones in d["zones"].items()},
            counters={p: dict(c) for p, c in d["counters"].items()},
            turn=d["turn"], active=d["active"], phase=d["phase"], position=d["position"],
            result=d["result"], voided=list(d["voided"]), labels=dict(d["labels"]),
            extra=_deep_copy(d["extra"]), next_uid=d["next_uid"],
        )

    def copy(self) -> "TableState":
        return TableState.from_dict(self.to_dict())

    def state_hash(self) -> str:
        """sha256 of the canonical state: same log in, same hash out."""
        return sha256_hex(canonical_bytes(self.to_dict()))

    def view(self) -> dict[str, Any]:
        """What is known and what is not: per zone the count, the known cards, the unknown count."""
        out: dict[str, Any] = {
            "ruleset": self.ruleset, "position": self.position, "turn": self.turn,
            "active": self.active, "phase": self.phase, "result": self.result,
            "voided": self.voided, "players": {}, "state_hash": self.state_hash(),
        }
        for p in self.players:
            zones = {}
            for z in self.zone_names:
                cards = self.zones[p][z]
                zones[z] = {
                    "count": len(cards),
                    "known": [c.code for c in cards if c.code is not None],
                    "unknown": sum(1 for c in cards if c.code is None),
                    "cards": [c.to_dict() for c in cards],
                }
            out["players"][p] = {"zones": zones, "counters": self.counters[p]}
        if self.extra:
            out["extra"] = self.extra
        return out


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value
