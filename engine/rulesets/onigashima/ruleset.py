"""`onigashima`: Raid sur Onigashima (rulebook: raid-sur-onigashima.fr.md).

Two camps (the alliance of Luffy, the emperors Kaido and Big Mom) send one character each per turn
into a one-against-one dice fight; the winner's camp keeps the defeated card and scores its victory
points; after 6, 10 or 12 turns (by player count) the camp with most points wins.

What is a fact and what is derived: dice, rolls and the cards played are recorded; the energy each
fighter loses, who is at 0, the victory points, whose turn it is: derived by replay. The cards'
texts (abilities, Attack/Defence/Weakness cards) are not in the rulebook, so events record what a
card or ability did (faces and energy per die, damage, cancel) and the tool does the arithmetic.
Rule catalogue: rules.toml; docs: docs/rulesets/onigashima.md.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from engine.catalogue import load
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.rulesets.base import Decision, History, Outcome, Ruleset
from engine.timefacts import Fact
from engine.state import TableState

from . import characters as data
from .combat import dodge_needs, energy_lost
from .vocab import (
    KINDS,
)

CATALOGUE = load(__package__)  # the rules and the options (rules.toml)
RULES = CATALOGUE.rules

TURNS_BY_PLAYERS = {2: 6, 3: 10, 4: 10, 5: 12, 6: 12}


def _by_a_fighter(check: Callable[..., list[Finding]]) -> Callable[..., list[Finding]]:
    """A check of an event a fighter makes (a transformation, a card, an attack, a dodge): without a
    fight in progress, or from a player with no character in it, that is the only finding; else the
    check gets the payload, the fight and the player's fighter."""

    @functools.wraps(check)
    def checked(self: "OnigashimaRuleset", s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        return self._no_fight(s, e, p["player"]) or check(self, s, e, p, self._x(s)["fight"],
                                                          self._fighter(s, p["player"]))
    return checked


class OnigashimaRuleset(Ruleset):
    name = "onigashima"
    title = "Raid sur Onigashima"
    rulebook = "raid-sur-onigashima.fr.md"
    version = 2
    max_cards = 100  # any count of cards; the character table holds fewer than 100 characters
    zones = ("fighting", "spent", "won")
    counters = {"energy": 0, "vp": 0}
    kinds = KINDS
    rules = RULES
    options = CATALOGUE.options

    # --- helpers ------------------------------------------------------------------------------

    def max_turns(self, s: TableState) -> int:
        t = self.opts["turns"]
        return TURNS_BY_PLAYERS.get(len(s.players), 12) if t == "by-players" else int(t)

    @staticmethod
    def _x(s: TableState) -> dict[str, Any]:
        return s.extra.setdefault("oni", {"camps": {}, "captains": {}, "hands": {}, "stats": {},
                                          "fought": [], "fights_by_player": {}, "fight": None,
                                          "fight_turns": [], "fights": []})

    def _row(self, s: TableState, name: str) -> dict[str, Any] | None:
        return data.lookup(name, self._x(s)["stats"])

    def _camp_of(self, s: TableState, player: str) -> str | None:
        for camp, members in self._x(s)["camps"].items():
            if player in members:
                return camp
        return None

    def _fighter(self, s: TableState, player: str) -> dict[str, Any] | None:
        f = self._x(s)["fight"]
        return None if f is None else f["fighters"].get(player)

    def _opponent(self, s: TableState, player: str) -> str | None:
        f = self._x(s)["fight"]
        if f is None:
            return None
        others = [p for p in f["order"] if p != player]
        return others[0] if others else None

    def _energy(self, s: TableState, player: str) -> int:
        ft = self._fighter(s, player)
        if ft is None:
            return 0
        row = self._row(s, ft["form"])
        return (row["energy"] if row else 0) - ft["damage"]

    def victory_points(self, s: TableState, form: str) -> int:
        """What defeating this form is worth to the winner's camp (ONI-VP, option vp_from)."""
        row = self._row(s, form)
        value = row.get(self.opts["vp_from"]) if row else None
        return value if isinstance(value, int) else 0

    def _sync_energy(self, s: TableState) -> None:
        f = self._x(s)["fight"]
        if f is not None:
            for p in f["order"]:
                if p in s.counters:  # energy below 0 shows as 0 (the loss beyond 0 changes nothing)
                    s.counters[p]["energy"] = max(0, self._energy(s, p))

    def _game_over(self, s: TableState) -> bool:
        x = self._x(s)
        n = self.max_turns(s)
        return x["fight"] is None and s.turn >= n and n in x["fight_turns"]

    def _severity(self, row: dict[str, Any] | None, field_name: str) -> str:
        """A finding that rests on a guessed value of the scanned table is a warning."""
        return "warning" if row is None or field_name in row.get("guessed", ()) else "error"

    # --- apply --------------------------------------------------------------------------------

    def apply_camps(self, s: TableState, e: RecordedEvent) -> None:
        self._x(s)["camps"] = {"alliance": list(e.payload["alliance"]),
                               "empereurs": list(e.payload["empereurs"])}

    def apply_captain(self, s: TableState, e: RecordedEvent) -> None:
        self._x(s)["captains"][e.payload["player"]] = e.payload["character"]

    def apply_deal(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        self._x(s)["hands"][p["camp"]] = {"count": p.get("count") or len(p.get("characters", ())),
                                          "characters": list(p.get("characters", ()))}

    def apply_character_stats(self, s: TableState, e: RecordedEvent) -> None:
        p = dict(e.payload)
        self._x(s)["stats"][data.key(p["name"])] = p

    def apply_turn(self, s: TableState, e: RecordedEvent) -> None:
        s.turn = e.payload.get("number") or s.turn + 1
        s.active = None
        s.phase = None

    def apply_fight_start(self, s: TableState, e: RecordedEvent) -> None:
        x = self._x(s)
        fighters = e.payload["fighters"]
        x["fight"] = {"turn": s.turn, "order": list(fighters), "attacks": 0, "last_attacker": None,
                      "first": None, "tie_winner": None, "pending": None,
                      "fighters": {p: {"form": c, "sent": c, "damage": 0, "cards": 0, "transfo_rolls": 0}
                                   for p, c in fighters.items()}}
        x["fight_turns"].append(s.turn)
        for p, c in fighters.items():
            if p in s.zones:
                s.put(p, "fighting", s.new_card(p, c))
                x["fights_by_player"][p] = x["fights_by_player"].get(p, 0) + 1
            x["fought"].append(data.base_of(c, x["stats"]))
        s.phase = "fight"
        self._sync_energy(s)

    def apply_initiative_roll(self, s: TableState, e: RecordedEvent) -> None:
        f = self._x(s)["fight"]
        rolls = e.payload["rolls"]
        if f is not None and rolls:
            best = max(rolls.values())
            top = [p for p, r in rolls.items() if r == best]
            f["tie_winner"] = top[0] if len(top) == 1 else None

    def apply_transform(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        ft = self._fighter(s, p["player"])
        if ft is None:
            return
        ft["transfo_rolls"] += 1
        if p.get("to"):
            ft["form"] = p["to"]
            for card in s.zone(p["player"], "fighting"):
                card.code = p["to"]
        self._sync_energy(s)

    def _start_attack(self, f: dict[str, Any], player: str) -> None:
        f["attacks"] += 1
        f["last_attacker"] = player

    def _hit(self, s: TableState, by: str, lost: int) -> None:
        f = self._x(s)["fight"]
        target = self._opponent(s, by)
        f["pending"] = {"by": by, "target": target, "lost": lost, "dodges": 0, "undone": False}
        if target is not None:
            f["fighters"][target]["damage"] += lost

    def _undo_pending(self, s: TableState) -> None:
        f = self._x(s)["fight"]
        pend = f["pending"]
        if pend and not pend["undone"]:
            pend["undone"] = True
            if pend["target"] is not None:
                f["fighters"][pend["target"]]["damage"] -= pend["lost"]

    def apply_card(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        f = self._x(s)["fight"]
        ft = self._fighter(s, p["player"])
        if f is None or ft is None:
            return
        ft["cards"] += 1
        if p.get("take_initiative"):
            f["first"] = p["player"]
        pend = f["pending"]
        if p.get("cancel") and pend and pend["by"] != p["player"]:
            self._undo_pending(s)
        if p.get("heal"):
            ft["damage"] = max(0, ft["damage"] - p["heal"])
        if p.get("instead_of_attack"):
            self._start_attack(f, p["player"])
        if p.get("damage") is not None or p.get("instead_of_attack"):
            self._hit(s, p["player"], p.get("damage") or 0)
        self._sync_energy(s)

    def computed_loss(self, s: TableState, p: dict[str, Any]) -> int | None:
        """The energy a dice attack removes, from its dice and the defender's defence (None when no
        dice were recorded or the defender is unknown)."""
        target = self._opponent(s, p["player"])
        ft = self._fighter(s, target) if target else None
        row = self._row(s, ft["form"]) if ft else None
        if not p.get("dice") or row is None or row.get("defence") is None:
            return None
        return energy_lost(p["dice"], row["defence"], ability_faces=p.get("ability_faces", ()),
                           ability_energy=p.get("ability_energy", 0), bonus=p.get("bonus", 0),
                           defence_minus=p.get("defence_minus", 0),
                           cancelled_dice=p.get("cancelled_dice", ()))

    def apply_attack(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        f = self._x(s)["fight"]
        if f is None or self._fighter(s, p["player"]) is None:
            return
        self._start_attack(f, p["player"])
        computed = self.computed_loss(s, p)
        recorded = p.get("energy_lost")
        if self.opts["energy_from"] == "table" and recorded is not None:
            lost = recorded
        else:
            lost = computed if computed is not None else (recorded or 0)
        self._hit(s, p["player"], lost)
        self._sync_energy(s)

    def dodge_succeeds(self, s: TableState, player: str, roll: int) -> bool:
        ft = self._fighter(s, player)
        row = self._row(s, ft["form"]) if ft else None
        need = dodge_needs(data.advanced_haki(row)) if row else None
        return need is not None and roll >= need

    def apply_dodge(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        f = self._x(s)["fight"]
        if f is None or not f["pending"] or f["pending"]["target"] != p["player"]:
            return
        f["pending"]["dodges"] += 1
        if f["pending"]["dodges"] == 1 and self.dodge_succeeds(s, p["player"], p["roll"]):
            self._undo_pending(s)
        self._sync_energy(s)

    def apply_fight_end(self, s: TableState, e: RecordedEvent) -> None:
        x = self._x(s)
        f = x["fight"]
        if f is None:
            return
        self._sync_energy(s)
        winner = e.payload.get("winner")
        loser = self._opponent(s, winner) if winner in f["fighters"] else None
        summary = {"turn": f["turn"], "winner": winner, "how": e.payload.get("how", "energy"),
                   "forms": {p: ft["form"] for p, ft in f["fighters"].items()}, "vp": 0}
        for p in f["order"]:
            if p not in s.zones:
                continue
            for card in list(s.zone(p, "fighting")):
                s.take(p, "fighting", uid=card.uid)
                if p == loser and winner in s.zones:
                    vp = self.victory_points(s, card.code or "")
                    s.counters[winner]["vp"] += vp
                    summary["vp"] = vp
                    s.put(winner, "won", card)
                else:
                    s.put(p, "spent", card)
        x["fights"].append(summary)
        x["fight"] = None
        s.phase = None

    # --- what a scorekeeper records --------------------------------------------------------------

    def hide(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Raid sur Onigashima hides little. The one thing a scorekeeper never sees is which character
        cards a camp drew ("Chaque camp pioche un total de 16 Cartes Personnage qu'il se partage"; four
        stay in hand unplayed): a `deal` keeps its count, not its names. Everything else is shown:
        the two fighters are turned face up before the fight ("retournez-les et le combat démarre":
        `fight.start` is that reveal), transformations take the new card openly, Attack, Defence and
        Weakness cards are played face up with what they did, dice are rolled on the table, and the
        printed values of a character (`character.stats`) are read off a card in play. Captains are
        declared to the table (the 6-player rule names them). The Attack/Defence/Weakness card a
        winner draws is not recorded at all."""
        p = dict(payload)
        if kind == "deal" and p.get("characters"):
            p["count"] = p.get("count") or len(p["characters"])
            p["characters"] = []
        return p

    # --- check --------------------------------------------------------------------------------

    def check(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        out = []
        if self._game_over(s) and e.kind in ("turn", "fight.start", "attack", "card", "dodge",
                                             "transform", "fight.end"):
            out.append(self.flag("ONI-END", e, f"{e.kind} after the last turn ({self.max_turns(s)}) "
                                 "was fought: the game is over"))
        return out + super().check(s, e, history)

    def check_camps(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        a, b = e.payload["alliance"], e.payload["empereurs"]
        out = []
        n = len(s.players)
        if not 2 <= n <= 6:
            out.append(self.flag("ONI-PLAYERS", e, f"{n} players: the game is for 2 to 6"))
        both = set(a) & set(b)
        missing = [p for p in s.players if p not in a and p not in b]
        if both:
            out.append(self.flag("ONI-CAMPS", e, f"{', '.join(sorted(both))} in both camps"))
        if missing:
            out.append(self.flag("ONI-CAMPS", e, f"{', '.join(missing)} in no camp"))
        if len(set(a)) != len(a) or len(set(b)) != len(b):
            out.append(self.flag("ONI-CAMPS", e, "a player is listed twice in a camp"))
        sizes = sorted((len(a), len(b)))
        expected = {5: [2, 3], 6: [3, 3]}.get(n)
        if not a or not b:
            out.append(self.flag("ONI-CAMPS", e, "each camp needs at least one player"))
        elif expected and sizes != expected:
            out.append(self.flag("ONI-CAMPS", e, f"{n} players play {expected[1]} against {expected[0]}, "
                                 f"not {sizes[1]} against {sizes[0]}"))
        elif sizes[1] - sizes[0] > 1:
            out.append(self.flag("ONI-CAMPS", e, f"camps of {sizes[1]} and {sizes[0]}: they differ by "
                                 "at most one player"))
        return out

    def check_captain(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        x = self._x(s)
        out = []
        if p["player"] in x["captains"]:
            out.append(self.flag("ONI-CAPTAIN", e, f"{p['player']} already chose "
                                 f"{x['captains'][p['player']]} as captain: one captain per player"))
        camp = self._camp_of(s, p["player"])
        row = self._row(s, p["character"])
        if camp and row and row.get("camp") and row["camp"] != camp:
            out.append(self.flag("ONI-CAPTAIN", e, f"{p['character']} belongs to the {row['camp']} "
                                 f"camp, {p['player']} plays for the {camp}"))
        hand = x["hands"].get(camp or "", {}).get("characters")
        if hand and data.base_of(p["character"], x["stats"]) not in {data.base_of(c, x["stats"]) for c in hand}:
            out.append(self.flag("ONI-CAPTAIN", e, f"{p['character']} is not among the {camp}'s drawn "
                                 "characters"))
        return out

    def check_deal(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        n = p.get("count") or len(p.get("characters", ()))
        want = self.max_turns(s) + 4
        out = []
        if n != want:
            out.append(self.flag("ONI-DEAL", e, f"the {p['camp']} drew {n} characters; a game of "
                                 f"{want - 4} turns deals {want} (4 stay unplayed)"))
        for c in p.get("characters", ()):
            row = self._row(s, c)
            if row and row.get("camp") and row["camp"] != p["camp"]:
                out.append(self.flag("ONI-DEAL", e, f"{c} belongs to the {row['camp']} camp"))
        return out

    def check_turn(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        x = self._x(s)
        n = e.payload.get("number") or s.turn + 1
        out = []
        if n != s.turn + 1:
            out.append(self.flag("ONI-TURNS", e, f"turn {n} follows turn {s.turn}"))
        if n > self.max_turns(s) and not self._game_over(s):
            out.append(self.flag("ONI-TURNS", e, f"turn {n}: a game of {len(s.players)} players lasts "
                                 f"{self.max_turns(s)} turns"))
        if x["fight"] is not None:
            out.append(self.flag("ONI-TURN-FIGHT", e, f"turn {n} begins while the fight of turn "
                                 f"{x['fight']['turn']} is not over"))
        elif s.turn >= 1 and s.turn not in x["fight_turns"]:
            out.append(self.flag("ONI-TURN-FIGHT", e, f"turn {s.turn} ended without a fight"))
        return out

    def check_fight_start(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        x = self._x(s)
        fighters = e.payload["fighters"]
        out = []
        if s.turn < 1:
            out.append(self.flag("ONI-TURN-FIGHT", e, "a fight before the first turn began"))
        if x["fight"] is not None:
            out.append(self.flag("ONI-TURN-FIGHT", e, f"the fight of turn {x['fight']['turn']} is not over"))
        elif s.turn in x["fight_turns"]:
            out.append(self.flag("ONI-TURN-FIGHT", e, f"turn {s.turn} already had its fight"))
        unknown = [p for p in fighters if p not in s.players]
        if unknown:
            out.append(self.flag("ONI-ONE-ON-ONE", e, f"{', '.join(unknown)} is not a player of this match"))
        if not x["camps"]:
            out.append(self.flag("ONI-CAMPS", e, "no camps recorded before the fight"))
        camps = [self._camp_of(s, p) for p in fighters]
        if len(fighters) != 2:
            out.append(self.flag("ONI-ONE-ON-ONE", e, f"{len(fighters)} fighters: a fight is one against one"))
        elif x["camps"] and camps[0] == camps[1]:
            out.append(self.flag("ONI-ONE-ON-ONE", e, "both fighters are of the same camp"))
        seen: set[str] = set()
        for p, c in fighters.items():
            row = self._row(s, c)
            camp = self._camp_of(s, p)
            base = data.base_of(c, x["stats"])
            if row is None:
                out.append(self.flag("ONI-FIGHT-CAMP", e, f"{c} is not in the character table; record "
                                     "its values with character.stats", severity="warning"))
            elif camp and row.get("camp") and row["camp"] != camp:
                out.append(self.flag("ONI-FIGHT-CAMP", e, f"{c} belongs to the {row['camp']} camp, "
                                     f"{p} plays for the {camp}"))
            if base in x["fought"] or base in seen:
                out.append(self.flag("ONI-FIGHT-ONCE", e, f"{c} has already fought in this game"))
            seen.add(base)
            hand = x["hands"].get(camp or "", {}).get("characters")
            if hand and base not in {data.base_of(h, x["stats"]) for h in hand}:
                out.append(self.flag("ONI-HAND", e, f"{c} is not among the {camp}'s drawn characters"))
            members = x["camps"].get(camp or "", [])
            if members:
                quota = math.ceil(self.max_turns(s) / len(members))
                done = x["fights_by_player"].get(p, 0)
                if done + 1 > quota:
                    out.append(self.flag("ONI-QUOTA", e, f"{p}'s fight number {done + 1}: each player of "
                                         f"the {camp} ({len(members)} players) fights {quota} times"))
        if len(s.players) == 6 and not x["fight_turns"]:
            emp = x["camps"].get("empereurs", [])
            caps = {data.base_of(x["captains"][p], x["stats"]) for p in emp if p in x["captains"]}
            for must in ("Kaido", "Big Mom"):
                if data.key(must) not in caps:
                    out.append(self.flag("ONI-CAPTAIN-6P", e, f"with 6 players {must} must be a captain "
                                         "of the emperors' camp"))
        return out

    def _no_fight(self, s: TableState, e: RecordedEvent, player: str) -> list[Finding]:
        if self._x(s)["fight"] is None:
            return [self.flag("ONI-TURN-FIGHT", e, f"{e.kind} with no fight in progress")]
        if self._fighter(s, player) is None:
            return [self.flag("ONI-ONE-ON-ONE", e, f"{player} has no character in this fight")]
        return []

    def check_initiative_roll(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        f = self._x(s)["fight"]
        if f is None:
            return [self.flag("ONI-TURN-FIGHT", e, "initiative roll with no fight in progress")]
        a, b = f["order"][:2] if len(f["order"]) >= 2 else (None, None)
        ini = [self._row(s, f["fighters"][p]["form"]) for p in (a, b)] if a else []
        if len(ini) == 2 and all(ini) and ini[0]["initiative"] != ini[1]["initiative"]:
            return [self.flag("ONI-INITIATIVE", e, "the initiatives differ: no roll is needed, the higher "
                              "attacks first", severity="warning")]
        return []

    @_by_a_fighter
    def check_transform(self, s: TableState, e: RecordedEvent, p: dict[str, Any], f: dict[str, Any],
                        ft: dict[str, Any]) -> list[Finding]:
        out = []
        if f["attacks"] > 0:
            out.append(self.flag("ONI-TRANSFO-TIME", e, "a transformation after the attacks began"))
        if ft["transfo_rolls"] >= 1:
            out.append(self.flag("ONI-TRANSFO-TIME", e, f"{p['player']} already rolled for "
                                 "transformation in this fight"))
        to = p.get("to")
        if to:
            x = self._x(s)
            if self._row(s, to) is None:
                out.append(self.flag("ONI-TRANSFO-FORM", e, f"{to} is not in the character table",
                                     severity="warning"))
            elif data.base_of(to, x["stats"]) != data.base_of(ft["form"], x["stats"]) or \
                    data.key(to) == data.key(ft["form"]):
                out.append(self.flag("ONI-TRANSFO-FORM", e, f"{ft['form']} cannot transform into {to}"))
            need = p.get("need") or data.transfo_need(to)
            if need is not None and p["roll"] < need:
                out.append(self.flag("ONI-TRANSFO-ROLL", e, f"rolled {p['roll']}, TRANSFO {need}+: the "
                                     f"character keeps its form, it cannot become {to}"))
        return out

    def _check_attack_turn(self, s: TableState, e: RecordedEvent, player: str) -> list[Finding]:
        """Initiative (first attack), alternation, and no attack from or against a fighter at 0."""
        f = self._x(s)["fight"]
        out = []
        opp = self._opponent(s, player)
        if f["attacks"] == 0:
            first = f["first"] or self._initiative_first(s)
            if first is not None and first != player:
                out.append(self.flag("ONI-INITIATIVE", e, f"{first}'s character has the initiative and "
                                     f"attacks first, not {player}'s"))
            if first is None and opp is not None and f["tie_winner"] is None:
                out.append(self.flag("ONI-INITIATIVE", e, "equal initiative: roll a die first "
                                     "(initiative.roll)", severity="warning"))
        elif f["last_attacker"] == player:
            out.append(self.flag("ONI-ALTERNATE", e, f"{player} attacks twice in a row: the defender "
                                 "attacks in turn"))
        if self._energy(s, player) <= 0:
            out.append(self.flag("ONI-ENERGY-ZERO", e, f"{player}'s character has no energy left: it "
                                 "has lost the fight"))
        elif opp is not None and self._energy(s, opp) <= 0:
            out.append(self.flag("ONI-ENERGY-ZERO", e, f"{opp}'s character has no energy left: the fight "
                                 "is over"))
        return out

    def _initiative_first(self, s: TableState) -> str | None:
        f = self._x(s)["fight"]
        rows = {p: self._row(s, ft["form"]) for p, ft in f["fighters"].items()}
        if len(rows) != 2 or not all(rows.values()):
            return None
        (a, ra), (b, rb) = rows.items()
        if ra["initiative"] == rb["initiative"]:
            return f["tie_winner"]
        return a if ra["initiative"] > rb["initiative"] else b

    @_by_a_fighter
    def check_card(self, s: TableState, e: RecordedEvent, p: dict[str, Any], f: dict[str, Any],
                   ft: dict[str, Any]) -> list[Finding]:
        out = []
        if ft["cards"] >= 3:
            out.append(self.flag("ONI-CARDS-3", e, f"{p['player']}'s card number {ft['cards'] + 1} in this "
                                 "fight: 3 at most"))
        row = self._row(s, ft["form"])
        if p.get("haki") and row is not None and not data.has_haki(row, p["haki"]):
            out.append(self.flag("ONI-HAKI-CARD", e, f"{ft['form']} has no {p['haki']} symbol for "
                                 f"{p['name']}", severity=self._severity(row, "haki")))
        if p["type"] == "faiblesse":
            if f["attacks"] > 0:
                out.append(self.flag("ONI-WEAKNESS-TIME", e, f"{p['name']} after the attacks began: "
                                     "Weakness cards are played before the attacks"))
            opp = self._opponent(s, p["player"])
            orow = self._row(s, f["fighters"][opp]["form"]) if opp else None
            weak = orow.get("weaknesses") if orow else None
            if weak is not None and p["weakness"] not in weak:
                out.append(self.flag("ONI-WEAKNESS", e, f"{f['fighters'][opp]['form']} is not sensitive "
                                     f"to {p['weakness']} (weaknesses: {', '.join(weak) or 'none'})",
                                     severity=self._severity(orow, "weaknesses")))
        if p.get("instead_of_attack"):
            out.extend(self._check_attack_turn(s, e, p["player"]))
        return out

    @_by_a_fighter
    def check_attack(self, s: TableState, e: RecordedEvent, p: dict[str, Any], f: dict[str, Any],
                     ft: dict[str, Any]) -> list[Finding]:
        out = self._check_attack_turn(s, e, p["player"])
        row = self._row(s, ft["form"])
        if p.get("dice") and row is not None and row.get("dice") is not None:
            want = row["dice"] - p.get("dice_removed", 0)
            if len(p["dice"]) != want:
                out.append(self.flag("ONI-DICE", e, f"{len(p['dice'])} dice rolled; {ft['form']} rolls "
                                     f"{want}", severity=self._severity(row, "dice")))
        computed = self.computed_loss(s, p)
        recorded = p.get("energy_lost")
        if computed is not None and recorded is not None and computed != recorded:
            opp = self._opponent(s, p["player"])
            orow = self._row(s, self._fighter(s, opp)["form"]) if opp else None
            out.append(self.flag("ONI-DAMAGE", e, f"the dice {p['dice']} remove {computed} energy, "
                                 f"the table recorded {recorded}",
                                 severity=self._severity(orow, "defence")))
        return out

    @_by_a_fighter
    def check_dodge(self, s: TableState, e: RecordedEvent, p: dict[str, Any], f: dict[str, Any],
                    ft: dict[str, Any]) -> list[Finding]:
        out = []
        pend = f["pending"]
        if not pend or pend["target"] != p["player"]:
            return [self.flag("ONI-DODGE", e, f"no attack of the opponent for {p['player']} to dodge")]
        if pend["dodges"] >= 1:
            out.append(self.flag("ONI-DODGE", e, "this attack was already dodged once"))
        elif pend["lost"] <= 0:  # "Lorsqu'une attaque cause la perte d'Énergie, le défenseur peut lancer un D6"
            out.append(self.flag("ONI-DODGE", e, "the attack removed no energy: there is nothing to dodge"))
        row = self._row(s, f["fighters"][p["player"]]["form"])
        if row is not None and data.advanced_haki(row) == 0:
            out.append(self.flag("ONI-DODGE", e, f"{row['name']} has no advanced haki to dodge with",
                                 severity=self._severity(row, "haki")))
        return out

    def check_fight_end(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        f = self._x(s)["fight"]
        if f is None:
            return [self.flag("ONI-TURN-FIGHT", e, "fight.end with no fight in progress")]
        w = p.get("winner")
        if w is not None and w not in f["fighters"]:
            return [self.flag("ONI-ONE-ON-ONE", e, f"{w} has no character in this fight")]
        if p.get("how", "energy") == "energy":
            loser = self._opponent(s, w)
            left = self._energy(s, loser) if loser else 0
            if left > 0:
                return [self.flag("ONI-ENERGY-ZERO", e, f"{loser}'s {f['fighters'][loser]['form']} still "
                                  f"has {left} energy: the fight is not lost")]
        return []

    # --- outcome ------------------------------------------------------------------------------

    def camp_points(self, s: TableState) -> dict[str, int]:
        camps = self._x(s)["camps"] or {p: [p] for p in s.players}
        return {c: sum(s.counters[p]["vp"] for p in members if p in s.counters)
                for c, members in camps.items()}

    def _camp_label(self, s: TableState, camp: str) -> str:
        members = (self._x(s)["camps"] or {camp: [camp]}).get(camp, [camp])
        return members[0] if len(members) == 1 else camp

    def _by_points(self, s: TableState) -> tuple[str, str | None, list[str]]:
        pts = self.camp_points(s)
        steps = ["victory points: " + ", ".join(f"{c} {v}" for c, v in pts.items())]
        ranked = sorted(pts.items(), key=lambda kv: -kv[1])
        if len(ranked) >= 2 and ranked[0][1] == ranked[1][1]:
            if self.opts["tie"] == "fights-won":
                won = {c: sum(1 for f in self._x(s)["fights"] if f["winner"] in
                              (self._x(s)["camps"] or {c: [c]}).get(c, [c])) for c in pts}
                steps.append("equal points; fights won: " + ", ".join(f"{c} {v}" for c, v in won.items()))
                wr = sorted(won.items(), key=lambda kv: -kv[1])
                if wr[0][1] != wr[1][1]:
                    winner = self._camp_label(s, wr[0][0])
                    return "win", winner, steps + [f"{winner} has won more fights and wins"]
            steps.append("equal: a draw")
            return "draw", None, steps
        # the step that decides, said (QA71: the steps stopped at the points, the winner only in the header)
        winner = self._camp_label(s, ranked[0][0])
        return "win", winner, steps + [f"{winner} has the most victory points and wins"]

    def outcome(self, s: TableState) -> Outcome | None:
        if not self._game_over(s):
            return None
        result, winner, steps = self._by_points(s)
        how = f"most victory points after {self.max_turns(s)} turns" if winner else "equal victory points"
        return Outcome(result, winner, how, steps, "ONI-END")

    time_facts = (
        Fact("vp", "each", "victory points of each player", 0, 999),
        Fact("turn", "count", "the turn in progress", 0, 99, required=False),
        Fact("fight", "flag", "a fight is in progress (it does not count)", required=False),
    )

    def table_from_facts(self, created: RecordedEvent, facts: dict[str, Any]) -> TableState:
        s = self.new_state(created)
        for p, n in facts["vp"].items():
            s.counters[p]["vp"] = n
        s.turn = facts.get("turn") or 0
        if facts.get("fight"):
            self._x(s)["fight"] = {"read off the table": True}
        return s

    def end_of_time(self, s: TableState, events: list[RecordedEvent], *,
                    policy: str | None = None) -> Decision:
        """Policies (the rulebook has no time rule, these are ours):
        - "vp-lead" (default): the camp with more victory points when time is called wins, as the
          game's own end rule would decide now; a fight in progress does not count; equal is a draw
          (or option `tie`).
        - "unfinished-draw": a game not over when time is called is a draw."""
        policy = policy or "vp-lead"
        if policy not in ("vp-lead", "unfinished-draw"):
            raise ValueError(f"onigashima end-of-time policy must be vp-lead or unfinished-draw, got {policy!r}")
        rule = self.rule("ONI-END")
        done = self.outcome(s)
        if done is not None:
            return Decision(done.result, done.winner, "game-over", [done.how] + done.explanation,
                            rule.id, rule.quote, policy)
        steps = [f"time called at turn {s.turn} of {self.max_turns(s)}" if s.turn else "time called"]
        if self._x(s)["fight"] is not None:
            steps.append("the fight in progress is not counted")
        if policy == "unfinished-draw":
            return Decision("draw", None, "unfinished", steps + ["an unfinished game is a draw"],
                            rule.id, rule.quote, policy)
        result, winner, more = self._by_points(s)
        return Decision(result, winner, "vp-lead", steps + more, rule.id, rule.quote, policy)

    def key_counters(self, s: TableState) -> dict[str, dict[str, int]]:
        return {p: {"energy": s.counters[p]["energy"], "vp": s.counters[p]["vp"]} for p in s.players}

    def describe(self, e: RecordedEvent) -> str:
        p = e.payload
        if e.kind == "fight.start":
            return "fight: " + " vs ".join(f"{c} ({pl})" for pl, c in p["fighters"].items())
        if e.kind == "attack":
            lost = f", {p['energy_lost']} energy recorded" if p.get("energy_lost") is not None else ""
            return f"{p['player']} attacks: dice {p.get('dice') or '-'}{lost}"
        if e.kind == "deal":
            camp = "the alliance" if p["camp"] == "alliance" else "the emperors"
            if p.get("characters"):
                return f"{camp} draw their characters: {', '.join(p['characters'])}"
            return f"{camp} draw {p.get('count', 0)} character cards"
        if e.kind == "character.stats":
            stats = [f"{label} {p[k]}" for k, label in (("base", "base"), ("camp", "camp"),
                     ("initiative", "initiative"), ("dice", "dice"), ("defence", "defence"),
                     ("energy", "energy")) if p.get(k) is not None]
            for k, label in (("haki", "haki"), ("weaknesses", "weaknesses")):
                if p.get(k):
                    stats.append(f"{label} {', '.join(p[k])}")
            return f"printed values of {p['name']}" + (f": {'; '.join(stats)}" if stats else "")
        if e.kind == "initiative.roll":
            rolls = ", ".join(f"{pl} rolls {r}" for pl, r in p["rolls"].items())
            return f"initiative roll: {rolls or 'no rolls'}"
        return super().describe(e)


RULESET = OnigashimaRuleset
