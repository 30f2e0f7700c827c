"""`ken`: Ken il Guerriero, the Italian card game (Alchemia / Envisage), rulebook ken-il-guerriero.it.md.

Two players; Order points decide. The table: Future (deck), hand, Past (discard), removed (Tolte dal
gioco), and the Present: forces (Masters, Characters, Armies), territory (Locations, last played on
top = the Frontier), destiny (Events) and assigned (Techniques, Spirits, Equipment, Specials on
their card). Card facts arrive with the events (deck.register, play); card effects are recorded,
not simulated. Every rule of the book is in rules.toml; docs/rulesets/ken.md explains.
"""
from __future__ import annotations

from typing import Any

from engine.desk import OFF_TABLE_KINDS, time_calls
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.state import TableState
from engine.words import plural
from . import table as T
from engine.catalogue import load
from engine.rulesets.base import Decision, History, Outcome, Ruleset
from engine.timefacts import Fact
from .cards import (
    ASSIGNABLES,
    PLAY_ANYTIME,
    PROTAGONISTS,
    assignment_problems,
    defence_problems,
    group_problems,
    has_life,
    identity,
    normalise_facts,
    pairing_problems,
)
from .damage import Target, distribute
from engine.hidden import forget
from .vocab import KINDS, MAX_CARDS, PHASES

CATALOGUE = load(__package__)  # the rules and the options (rules.toml)
RULES = CATALOGUE.rules

ZONES = ("future", "hand", "past", "removed", "forces", "territory", "destiny", "assigned")
OWN_PRESENTATION_DURATIONS = ("permanente", "scartare-dopo-uso", "togliere-dopo-uso", "riprendi-dopo-uso",
                              "avvenimento")
NEUTRAL_KINDS = tuple(OFF_TABLE_KINDS)  # judge actions, slips, notes, corrections, the clock
LEAD = 10
HAND_LIMIT = 7
OPENING_HAND = 7


def _claimed_facts(s: TableState, player: str, entry: dict[str, Any]) -> dict[str, Any] | None:
    if "facts" in entry:
        return normalise_facts(entry["facts"])
    return s.extra.get("decks", {}).get(player, {}).get(entry.get("code"))


class KenRuleset(Ruleset):
    name = "ken"
    title = "Ken il Guerriero (regolamento italiano)"
    rulebook = "ken-il-guerriero.it.md"
    version = 2
    max_cards = MAX_CARDS  # any count of cards: the standard game needs at least 75 and sets no maximum
    zones = ZONES
    counters = {"order": 0}
    kinds = KINDS
    rules = RULES
    options = CATALOGUE.options

    # =========================================================================================
    # apply: the table after the event, as it happened (never refuses)
    # =========================================================================================

    def new_state(self, created: RecordedEvent) -> TableState:
        s = super().new_state(created)
        s.extra = {"game": self.opts["game"], "turns": {p: 0 for p in s.players},
                   "opening": {p: 0 for p in s.players}, "turn_draws": 0, "removed_by_effect": []}
        return s

    def apply(self, s: TableState, e: RecordedEvent) -> None:
        super().apply(s, e)
        if self._lead_wins_now(s, e):
            p = s.active
            s.result = {"result": "win", "winner": p, "rule": "KEN-VITT-1", "position": e.position,
                        "how": f"{p} is {LEAD}+ Order points ahead in their own Order phase ({self._lead_text(s, p)})"}

    def _lead_wins_now(self, s: TableState, e: RecordedEvent) -> bool:
        """Option lead_victory=automatic: the game ends at the first event of the active player's
        Order phase after which they lead by 10 or more (KEN-VITT-1, L.831 'in questo momento del gioco')."""
        return (self.opts["lead_victory"] == "automatic" and s.result is None and s.phase == "order"
                and s.active is not None and e.kind not in NEUTRAL_KINDS
                and not self.victory_problems(s, s.active))

    def apply_deck_register(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        registry = s.extra.setdefault("decks", {}).setdefault(p, {})
        total = 0
        for entry in e.payload["cards"]:
            f = normalise_facts(entry)
            if f.get("code"):
                registry[f["code"]] = f
            total += entry.get("count", 1)
        s.extra.setdefault("deck_size", {})[p] = total
        for _ in range(total):
            s.put(p, "future", s.new_card(p))

    def apply_turn(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        s.turn = e.payload.get("number") or s.turn + 1
        s.active = p
        s.phase = None
        s.extra["turns"][p] = s.extra["turns"].get(p, 0) + 1
        s.extra["turn_draws"] = 0
        s.extra.pop("combat", None)
        s.extra.pop("attacked", None)

    def apply_phase(self, s: TableState, e: RecordedEvent) -> None:
        s.phase = e.payload["name"]
        if s.phase == "order" and s.active:
            s.counters[s.active]["order"] += T.green_points(s, s.active)
        if s.phase == "epilogue":
            self._epilogue(s)

    def _epilogue(self, s: TableState) -> None:
        for p in s.players:
            for zone in ("destiny", "assigned"):
                for c in list(s.zone(p, zone)):
                    dur = (T.facts(c) or {}).get("duration")
                    if dur == "puntata" or (dur in PLAY_ANYTIME and zone == "destiny"):
                        s.zone(p, zone).remove(c)
                        c.props.pop("host", None)
                        s.put(p, "past", c)

    def apply_draw(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        named = e.payload.get("cards", [])
        for i in range(e.payload.get("count", 1)):
            card = T.take_card(s, p, "future", by_position=True)
            if i < len(named):
                card.code = named[i]
            s.put(p, "hand", card)
        if s.turn == 0:
            s.extra["opening"][p] = s.extra["opening"].get(p, 0) + e.payload.get("count", 1)
        elif not e.payload.get("effect") and s.phase == "draw" and p == s.active:
            s.extra["turn_draws"] += e.payload.get("count", 1)
        self._deck_out(s, e)

    def _deck_out(self, s: TableState, e: RecordedEvent) -> None:
        if s.result is not None or s.turn == 0:
            return
        registered = s.extra.get("deck_size", {})
        if len(registered) < len(s.players):
            return
        empty = [p for p in s.players if not s.zone(p, "future")]
        if self.opts["game"] == "quick":
            if len(empty) == len(s.players):
                a, b = s.players
                pa, pb = s.counters[a]["order"], s.counters[b]["order"]
                winner = a if pa > pb else b if pb > pa else None
                s.result = {"result": "win" if winner else "draw", "winner": winner, "rule": "KEN-RAPIDO-1",
                            "how": f"both Future decks empty: Order points {a} {pa}, {b} {pb}"
                                   + ("" if winner else " (equal: a draw, our reading)"),
                            "position": e.position}
        elif e.payload["player"] in empty:
            loser = e.payload["player"]
            s.result = {"result": "win", "winner": T.opponent(s, loser), "rule": "KEN-PESCA-2",
                        "how": f"{loser} finished the Future deck", "position": e.position}

    def apply_disengage(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        for u in e.payload.get("units") or T.units(s, p):
            unit = T.resolve_unit(s, u)
            if unit:
                T.set_engaged(s, unit, False)

    def apply_play(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        placed: list[str] = []
        for entry in e.payload["cards"]:
            f = _claimed_facts(s, p, entry)
            code = entry.get("code") or (f or {}).get("code")
            card = T.take_card(s, p, "hand", code=code)
            if code:
                card.code = code
            if f is not None:
                card.props["f"] = f
            card.props["turn"] = s.turn
            placed.append(card.uid)
            ctype = (f or {}).get("type")
            if ctype in PROTAGONISTS:
                stack = T.resolve_unit(s, entry["stack"]) if entry.get("stack") else None
                if stack:
                    _, cards = T.unit_cards(s, stack)
                    card.props["unit"] = stack
                    if T.is_engaged(s, stack):
                        card.props["engaged"] = True
                    s.put(p, "forces", card)
                    if entry.get("top", True):
                        T.set_top(cards + [card], card)
                else:
                    card.props["top"] = True
                    s.put(p, "forces", card)
            elif ctype == "location":
                s.put(p, "territory", card)
            elif ctype in ASSIGNABLES:
                card.props["host"] = self._host_ref(s, entry.get("host"), placed)
                if s.extra.get("combat"):
                    card.props["combat"] = True
                s.put(p, "assigned", card)
            elif ctype == "event" and (f or {}).get("duration") == "avvenimento":
                s.put(p, "past", card)  # "si attiva nel momento in cui la si gioca e quindi viene scartata"
            else:  # events, and cards whose facts are unknown
                s.put(p, "destiny", card)

    @staticmethod
    def _host_ref(s: TableState, ref: str | None, placed: list[str]) -> str | None:
        if ref is None:
            return None
        if ref.startswith("#") and ref[1:].isdigit():
            i = int(ref[1:])
            ref = placed[i] if i < len(placed) else ref
        return T.resolve_unit(s, ref) or ref

    def apply_move(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        for _ in range(p.get("count", 1)):
            card = T.take_card(s, p["player"], p["from_zone"], uid=p.get("uid"), code=p.get("code"))
            if p["from_zone"] in T.PRESENT and p["to_zone"] not in T.PRESENT:
                moved = T.leave_play(s, p["player"], card, p["to_zone"])
            else:
                s.put(p["player"], p["to_zone"], card)
                moved = [card]
            if p.get("effect"):
                s.extra["removed_by_effect"].extend(c.uid for c in moved)

    def apply_shuffle(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        if p["zone"] in T.ORDERED:  # a shuffled Future: no card's place is known any more
            forget(s.zone(p["player"], p["zone"]))

    def apply_life_top(self, s: TableState, e: RecordedEvent) -> None:
        combat = s.extra.get("combat")
        if combat is not None and not combat["damaged"]:
            combat.setdefault("top_chosen", []).append(e.payload["player"])
        unit = T.resolve_unit(s, e.payload["uid"])
        if unit:
            _, cards = T.unit_cards(s, unit)
            top = next((c for c in cards if c.uid == e.payload["uid"]), None)
            if top is not None:
                T.set_top(cards, top)

    # --- combat -------------------------------------------------------------------------------

    def _group(self, s: TableState, g: dict[str, Any]) -> dict[str, Any]:
        return {"cards": [T.resolve_unit(s, c) or c for c in g.get("cards", [])],
                "commander": (T.resolve_unit(s, g["commander"]) or g["commander"]) if g.get("commander") else None}

    def apply_combat_attack(self, s: TableState, e: RecordedEvent) -> None:
        attacker = e.payload["player"]
        defender = T.opponent(s, attacker)
        locations = {c.uid for c in s.zone(defender, "territory")}
        groups = []
        for g in e.payload["groups"]:
            grp = self._group(s, g)
            target = g["target"] if g["target"] in locations else (T.resolve_unit(s, g["target"]) or g["target"])
            groups.append({"target": target, "kind": "location" if target in locations else "unit",
                           "attack": grp["cards"], "attack_commander": grp["commander"],
                           "defence": [], "defence_commander": None, "defended": False,
                           "drawn": [], "massacre": None})
        s.extra["combat"] = {"attacker": attacker, "defender": defender, "groups": groups,
                             "abilities": [], "damaged": False}
        s.extra["attacked"] = True

    def apply_combat_defend(self, s: TableState, e: RecordedEvent) -> None:
        combat = s.extra.get("combat")
        if not combat:
            return
        for g in e.payload["groups"]:
            grp = self._group(s, g)
            for group in combat["groups"]:
                if group["target"] == g["target"]:
                    group.update(defence=grp["cards"], defence_commander=grp["commander"], defended=True)

    def apply_ability(self, s: TableState, e: RecordedEvent) -> None:
        combat = s.extra.get("combat")
        if combat is not None:
            combat["abilities"].append(e.payload["uid"])

    def _sides(self, s: TableState, group: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The units that fight on each side of one clash (a commander only once drawn in)."""
        attack = [u for u in group["attack"] if T.unit_cards(s, u)[1]]
        if group["kind"] == "unit":
            defence = [group["target"]] if T.unit_cards(s, group["target"])[1] else []
        else:
            defence = [u for u in group["defence"] if T.unit_cards(s, u)[1]]
        if "attacker" in group["drawn"] and group["attack_commander"]:
            attack = [group["attack_commander"]]
        if "defender" in group["drawn"] and group["defence_commander"]:
            defence = [group["defence_commander"]]
        return attack, defence

    def _value(self, s: TableState, unit: str, key: str, uses: list[str]) -> int:
        """A unit's Attack/Defence/Resistance: the top card plus Equipment/Specials always in force
        (PERMANENTE, PUNTATA) plus the cards it `uses` in this combat."""
        f = T.unit_facts(s, unit) or {}
        base = f.get(key, 0)
        if key == "resistance" and has_life(f):
            return 0
        total = base if isinstance(base, int) else 0
        for _, a in T.assigned_to(s, unit):
            af = T.facts(a) or {}
            always = af.get("type") in ("equipment", "special") and af.get("duration") in ("permanente", "puntata")
            if always or a.uid in uses:
                v = af.get(key, 0)
                total += v if isinstance(v, int) else 0
        return total

    def _targets(self, s: TableState, members: list[str], uses: list[str]) -> list[Target]:
        out = []
        for u in members:
            f = T.unit_facts(s, u) or {}
            life = has_life(f)
            out.append(Target(u, self._value(s, u, "defence", uses),
                              None if life else self._value(s, u, "resistance", uses),
                              T.lives(s, u), character=life and f.get("type") == "character"))
        return out

    def _printed_attack(self, s: TableState, members: list[str], uses: list[str]) -> int:
        return sum(self._value(s, u, "attack", uses) for u in members)

    def _clash(self, s: TableState, e: RecordedEvent) -> dict[str, Any] | None:
        """Derive one combat.damage: per receiving side, its Distribution and the units to remove."""
        combat = s.extra.get("combat")
        group = next((g for g in (combat or {}).get("groups", []) if g["target"] == e.payload["target"]), None)
        if group is None:
            return None
        attack, defence = self._sides(s, group)
        atk, dfn = e.payload["attacker"], e.payload["defender"]
        uses = list(atk.get("uses", [])) + list(dfn.get("uses", []))
        return {
            "group": group, "attack": attack, "defence": defence, "uses": uses,
            # damage dealt BY the attacker lands on the defence, and vice versa (simultaneous)
            "to_defence": distribute(atk["damage"], self._targets(s, defence, uses), waves=atk.get("waves", 1),
                                     lives_as_resistance=bool(atk.get("lethal") or atk.get("massacre"))),
            "to_attack": distribute(dfn["damage"], self._targets(s, attack, uses), waves=dfn.get("waves", 1),
                                    lives_as_resistance=bool(dfn.get("lethal") or dfn.get("massacre"))),
        }

    def apply_combat_damage(self, s: TableState, e: RecordedEvent) -> None:
        clash = self._clash(s, e)
        if clash is None:
            return
        combat, group = s.extra["combat"], clash["group"]
        atk, dfn = e.payload["attacker"], e.payload["defender"]
        # Both distributions were computed on the table before either is applied: simultaneous.
        self._suffer(s, combat["defender"], clash["to_defence"], atk, group, "defender")
        self._suffer(s, combat["attacker"], clash["to_attack"], dfn, group, "attacker")
        if atk.get("massacre"):
            group["massacre"] = atk["massacre"]
        for uid in clash["uses"]:
            found = T.find_present(s, uid)
            if found:
                owner, zone, card = found
                dest = T.ONE_USE_DESTINATION.get((T.facts(card) or {}).get("duration"))
                if dest:
                    s.zone(owner, zone).remove(card)
                    card.props.pop("host", None)
                    s.put(owner, dest, card)
        combat["damaged"] = True

    def _suffer(self, s: TableState, owner: str, dist, dealer: dict[str, Any], group: dict[str, Any], side: str) -> None:
        """Apply one side's losses: the players' `vanquished` claim when given (what the table did),
        else the derived distribution. Ochre points go to the dealer's player."""
        scorer = T.opponent(s, owner)
        dest = "removed" if dealer.get("lethal") else "past"
        claim = dealer.get("vanquished")
        ochre_wave = {h.unit: h.wave for h in dist.hits}
        if claim is not None:
            gone = {T.resolve_unit(s, u) or u: None for u in claim}
            partial = {u: n for u, n in dist.lives_lost().items() if u not in gone}
        else:
            gone = {u: None for u in dist.vanquished()}
            partial = {u: n for u, n in dist.lives_lost().items() if u not in gone}
        for unit in gone:
            _, cards = T.unit_cards(s, unit)
            for c in list(cards):
                self._lose(s, owner, c, dest, scorer, ochre_wave.get(unit, 1))
        for unit, n in partial.items():
            for _ in range(n):
                _, cards = T.unit_cards(s, unit)
                if cards:
                    self._lose(s, owner, T.life_to_lose(cards), dest, scorer, ochre_wave.get(unit, 1))
        if dist.overflow > 0 and group.get(f"{'attack' if side == 'attacker' else 'defence'}_commander") \
                and side not in group["drawn"]:
            group["drawn"].append(side)  # KEN-MAESTRO-3: the Commander must fight a new combat

    def _lose(self, s: TableState, owner: str, card, dest: str, scorer: str, wave: int) -> None:
        zone = "territory" if card in s.zone(owner, "territory") else "forces"
        s.zone(owner, zone).remove(card)
        if wave <= 2:  # MULTIPLI DANNI: no ochre after the second distribution
            s.counters[scorer]["order"] += (T.facts(card) or {}).get("ochre", 0)
        T.leave_play(s, owner, card, dest)

    def _conquests(self, s: TableState) -> list[dict[str, Any]]:
        combat = s.extra.get("combat") or {}
        out = []
        for g in combat.get("groups", []):
            if g["kind"] != "location":
                continue
            attackers = [u for u in g["attack"] + [g["attack_commander"]] if u and T.unit_cards(s, u)[1]]
            defenders = [u for u in g["defence"] + [g["defence_commander"]] if u and T.unit_cards(s, u)[1]]
            if attackers and not defenders and any(c.uid == g["target"] for c in s.zone(combat["defender"], "territory")):
                out.append(g)
        return out

    def apply_combat_end(self, s: TableState, e: RecordedEvent) -> None:
        combat = s.extra.get("combat")
        if not combat:
            return
        for g in self._conquests(s):
            loc = s.take(combat["defender"], "territory", uid=g["target"])
            if self.opts["ochre_for_conquest"]:
                s.counters[combat["attacker"]]["order"] += (T.facts(loc) or {}).get("ochre", 0)
            T.leave_play(s, combat["defender"], loc, "removed" if g["massacre"] else "past")
        for g in combat["groups"]:
            for u in g["attack"] + g["defence"] + [g["attack_commander"], g["defence_commander"]]:
                if u:
                    T.set_engaged(s, u, True)
        s.extra.pop("combat", None)

    def apply_order_points(self, s: TableState, e: RecordedEvent) -> None:
        s.counters[e.payload["player"]]["order"] += e.payload["add"]

    def apply_victory_declare(self, s: TableState, e: RecordedEvent) -> None:
        """A declaration ends the game only when the book's conditions hold (KEN-ORDINE-2,
        KEN-VITT-1, KEN-RAPIDO-2): a declaration out of time, or without the lead, is flagged by
        check and the game goes on ("dovrà attendere la propria Fase di Ordine")."""
        p = e.payload["player"]
        if s.result is None and not self.victory_problems(s, p):
            s.result = {"result": "win", "winner": p, "rule": "KEN-VITT-1", "position": e.position,
                        "how": f"{p} declared victory in the Order phase ({self._lead_text(s, p)})"}

    def victory_problems(self, s: TableState, p: str) -> list[tuple[str, str]]:
        """Why `p` may not win by the Order-point lead now: (rule id, message) per broken condition.
        Empty: `p` is the active player, in their Order phase, 10 or more ahead, in a game where that
        lead wins. The one predicate behind the check, the declaration and the automatic victory."""
        out = []
        if self.opts["game"] == "quick" and not self.opts["quick_lead_victory"]:
            out.append(("KEN-RAPIDO-2", "in the quick game only empty Future decks end the game"))
        if p != s.active or s.phase != "order":
            out.append(("KEN-ORDINE-2", f"{p} declares victory outside their own Order phase"))
        o = T.opponent(s, p)
        if s.counters[p]["order"] - s.counters[o]["order"] < LEAD:
            out.append(("KEN-VITT-1", f"{p} is not {LEAD}+ Order points ahead ({self._lead_text(s, p)})"))
        return out

    def apply_concede(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload["player"]
        s.result = {"result": "win", "winner": T.opponent(s, p), "rule": "", "how": f"{p} conceded",
                    "position": e.position}

    @staticmethod
    def _lead_text(s: TableState, p: str) -> str:
        o = T.opponent(s, p)
        return f"Order points {p} {s.counters[p]['order']}, {o} {s.counters[o]['order']}"

    # =========================================================================================
    # what a scorekeeper records
    # =========================================================================================

    def hide(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A scorekeeper sees no card in the Future or in a hand. Hidden: the cards a draw names (only
        its count stays), and the card a move names when it goes from one face-down zone to another
        (a search of the Future into the hand, a card put back). Everything played or moved into the
        Present, the Past or out of the game is seen and stays; so do the registered deck (the
        organizer holds it), combats, damage, abilities, effects, Order points and declarations."""
        p = dict(payload)
        if kind == "draw":
            p.pop("cards", None)
        elif kind == "move" and p["from_zone"] in T.FACE_DOWN and p["to_zone"] in T.FACE_DOWN:
            p.pop("code", None)
        return p

    # =========================================================================================
    # check: the event against the table before it
    # =========================================================================================

    def check(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        out = []
        if self._confirms_victory(s, e):
            return []  # the winner announces the victory the Order phase already gave them
        if s.result is not None and e.kind not in NEUTRAL_KINDS:
            out.append(self.flag("KEN-T-2", e, f"{e.kind} recorded after the game ended ({s.result['how']}, "
                                               f"event {s.result.get('position')})"))
        return out + super().check(s, e, history)

    # --- deck -----------------------------------------------------------------------------------

    def check_deck_register(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        entries = [(normalise_facts(c), c.get("count", 1)) for c in e.payload["cards"]]
        return [self.flag(rule, e, msg) for rule, msg in self.deck_problems(entries)]

    def deck_problems(self, entries: list[tuple[dict[str, Any], int]]) -> list[tuple[str, str]]:
        """La sceneggiatura: (rule id, message) per broken rule. `entries`: (facts, count)."""
        out = []
        size = sum(n for _, n in entries)
        if self.opts["game"] == "quick" and size != 15:
            out.append(("KEN-MAZZO-5", f"a quick-game deck has {size} cards, not 15"))
        if self.opts["game"] == "standard" and size < 75:
            out.append(("KEN-MAZZO-6", f"a standard deck has {size} cards, fewer than 75"))
        copies: dict[tuple[str, str], list] = {}
        for f, n in entries:
            row = copies.setdefault(identity(f), [0, f, None])
            row[0] += n
            if f.get("max") is not None:
                row[2] = f["max"]
        for (_, _), (n, f, printed_max) in sorted(copies.items()):
            if f["type"] in ("master", "character") and has_life(f):
                continue  # KEN-MAZZO-2: no limit
            limit = printed_max if printed_max is not None else 5
            if n > limit:
                rule = "KEN-GLOSS-MAX" if printed_max is not None else (
                    "KEN-MAZZO-4" if f.get("unique") else "KEN-MAZZO-1")
                out.append((rule, f"{n} copies of {f['name']} ({f['type']}): at most {limit}"
                            + (" (MAX on the card)" if printed_max is not None else "")
                            + (" - Carta Unica is no exception" if f.get("unique") else "")))
        locations = sum(n for f, n in entries if f["type"] == "location")
        if size and locations * 4 > size:
            out.append(("KEN-MAZZO-3", f"{locations} Locations in {size} cards: more than a quarter"))
        return out

    def check_deck(self, player: str, cards: list[str], card_db: Any = None) -> list[Finding]:
        """Deck check outside a match: `card_db` maps each listed code to its facts."""
        counts: dict[str, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        entries = [(normalise_facts((card_db or {})[code]), n) for code, n in counts.items()]
        from engine.findings import finding
        return [finding(self.rule(r), 0, m, source=self.rulebook) for r, m in self.deck_problems(entries)]

    # --- turn and phases ----------------------------------------------------------------------

    def _end_of_phase_findings(self, s: TableState, e: RecordedEvent, new_idx: int) -> list[Finding]:
        """Leaving the Draw phase: at least one card drawn; leaving the Presentation: hand of 7 at most."""
        out = []
        if s.active is None or s.result is not None:
            return out
        cur = PHASES.index(s.phase) if s.phase in PHASES else -1
        draw_i, pres_i = PHASES.index("draw"), PHASES.index("presentation")
        if cur <= draw_i < new_idx and s.extra.get("turn_draws", 0) == 0 and s.zone(s.active, "future"):
            out.append(self.flag("KEN-PESCA-1", e, f"{s.active} drew no card in the Draw phase (at least 1)"))
        hand = len(s.zone(s.active, "hand"))
        if cur <= pres_i < new_idx and hand > HAND_LIMIT:
            out.append(self.flag("KEN-PRES-3", e, f"{s.active} ends the Presentation phase with {hand} cards in hand "
                                                  f"(at most {HAND_LIMIT})"))
        return out

    def check_turn(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        out = self._end_of_phase_findings(s, e, len(PHASES))
        p, n = e.payload["player"], e.payload.get("number")
        if s.active == p:
            out.append(self.flag("KEN-SEQ-2", e, f"{p} begins a second turn in a row"))
        if n is not None and n != s.turn + 1:
            out.append(self.flag("KEN-SEQ-2", e, f"turn {n} follows turn {s.turn}"))
        if s.turn == 0:
            for q in s.players:
                if s.extra["opening"].get(q, 0) != OPENING_HAND:
                    out.append(self.flag("KEN-GIOCO-2", e, f"{q} drew {s.extra['opening'].get(q, 0)} cards "
                                                           f"before the first turn, not {OPENING_HAND}"))
        return out

    def check_phase(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        name = e.payload["name"]
        new = PHASES.index(name)
        out = self._end_of_phase_findings(s, e, new)
        if s.active is None:
            return out + [self.flag("KEN-SEQ-1", e, f"phase {name} outside any turn")]
        if s.phase in PHASES and new <= PHASES.index(s.phase):
            out.append(self.flag("KEN-SEQ-1", e, f"phase {name} after phase {s.phase}"))
        if name == "disengage" and s.extra["turns"].get(s.active) == 1:
            out.append(self.flag("KEN-DISIMP-1", e, f"{s.active}'s first turn: the Disengage phase is skipped"))
        if name == "order" and e.payload.get("green") is not None:
            derived = T.green_points(s, s.active)
            if derived != e.payload["green"]:
                out.append(self.flag("KEN-ORDINE-1", e, f"{s.active} counted {e.payload['green']} green Order points; "
                                                        f"the cards in play show {derived} (a Life stack counts its top card)"))
        return out

    def check_draw(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p, n = e.payload["player"], e.payload.get("count", 1)
        out = []
        have = len(s.zone(p, "future"))
        if have < n:
            out.append(self.flag("KEN-T-1", e, f"{p} draws {n} but the Future holds {have}"))
        if s.result is None:
            after = s.copy()
            self.apply(after, e)
            if after.result is not None:  # the draw ends the game: say so, citing the rule
                out.append(self.flag(after.result["rule"], e, f"{after.result['how']}: the game is over",
                                     severity="info"))
        if s.turn == 0:
            if s.extra["opening"].get(p, 0) + n > OPENING_HAND:
                out.append(self.flag("KEN-GIOCO-2", e, f"{p} draws {s.extra['opening'].get(p, 0) + n} cards before "
                                                       f"the first turn (7)"))
            return out
        if e.payload.get("effect"):
            return out
        if p != s.active or s.phase != "draw":
            out.append(self.flag("KEN-PESCA-1", e, f"{p} draws outside their own Draw phase with no effect named"))
        elif s.extra.get("turn_draws", 0) + n > 3:
            out.append(self.flag("KEN-PESCA-1", e, f"{p} draws {s.extra.get('turn_draws', 0) + n} cards this Draw "
                                                   "phase (1 to 3)"))
        return out

    def check_disengage(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload["player"]
        if p != s.active or s.phase != "disengage":
            return [self.flag("KEN-DISIMP-1", e, f"{p} disengages outside their own Disengage phase")]
        if s.extra["turns"].get(p) == 1:
            return [self.flag("KEN-DISIMP-1", e, f"{p}'s first turn: the Disengage phase is skipped")]
        return []

    # --- playing cards ----------------------------------------------------------------------------

    def check_play(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload["player"]
        out: list[Finding] = []
        entries = e.payload["cards"]
        all_facts = [_claimed_facts(s, p, entry) for entry in entries]
        out += self._check_in_hand(s, e, p, entries, all_facts)
        own_presentation = s.active == p and s.phase == "presentation"
        by_effect = bool(e.payload.get("effect"))
        in_combat = bool(s.extra.get("combat")) or s.phase == "combat"
        pairs_l, pairs_a = [], []
        for i, (entry, f) in enumerate(zip(entries, all_facts)):
            label = f"card {i + 1} ({(f or {}).get('name') or entry.get('code')})"  # as a judge counts
            if f is None:
                out.append(self.flag("KEN-T-3", e, f"{label}: no facts recorded and no registered deck card "
                                                    f"{entry.get('code')!r}", severity="warning"))
                continue
            t, dur = f["type"], f.get("duration")
            if t in PROTAGONISTS and not own_presentation and not by_effect:
                out.append(self.flag("KEN-PROT-1", e, f"{label}: {'an' if t[0] in 'aeiou' else 'a'} {t} is played only in its owner's Presentation phase"))
            if t == "location" and not own_presentation and not by_effect:
                out.append(self.flag("KEN-LUOGO-1" if not f["inhabited"] else "KEN-LUOGO-2", e,
                                     f"{label}: a Location is played only in its owner's Presentation phase"))
            if t == "event" and not by_effect:
                out += self._event_timing(s, e, p, label, dur, own_presentation)
            if t == "event" and not f.get("cumulative"):
                destiny = [T.facts(c) for c in s.zone(p, "destiny")] + [g for j, g in enumerate(all_facts) if g and j < i]
                if any(g and g.get("type") == "event" and identity(g) == identity(f) for g in destiny):
                    out.append(self.flag("KEN-EVENTO-2", e, f"{label}: {f['name']} is already in {p}'s Destiny "
                                                            "(not Cumulabile)"))
            if t in ASSIGNABLES:
                if not by_effect:
                    if dur in PLAY_ANYTIME and not in_combat:
                        out.append(self.flag("KEN-TECNICA-2", e, f"{label}: a {dur.upper()} {t} is assigned during combat"))
                    if dur not in PLAY_ANYTIME and not own_presentation:
                        out.append(self.flag("KEN-TECNICA-2", e, f"{label}: a {dur.upper()} {t} is assigned in its owner's "
                                                                 "Presentation phase"))
                out += self._check_assignment(s, e, label, entry, f, entries, all_facts, i)
            if t == "location" and f["inhabited"] and not f.get("plays_alone"):
                pairs_l.append((label, f))
            if t == "army" and not f.get("plays_alone"):
                pairs_a.append((label, f))
            if t in ("master", "character") and has_life(f):
                out += self._check_life(s, e, p, label, entry, f)
            if f.get("unique") and not entry.get("stack"):
                present = [T.facts(c) for z in T.PRESENT for c in s.zone(p, z)]
                others = [g for j, g in enumerate(all_facts) if g and j < i]
                if any(g and identity(g) == identity(f) for g in present + others):
                    out.append(self.flag("KEN-UNICA-1", e, f"{label}: Carta Unica, and one is already in {p}'s Present"))
        if not by_effect:
            for j in range(max(len(pairs_l), len(pairs_a))):
                if j >= len(pairs_a):
                    out.append(self.flag("KEN-LUOGO-2", e, f"{pairs_l[j][0]}: an Inhabited Location enters play with no Army"))
                elif j >= len(pairs_l):
                    out.append(self.flag("KEN-ESERCITO-1", e, f"{pairs_a[j][0]}: an Army enters play with no Inhabited Location"))
                else:
                    for rule, msg in pairing_problems(pairs_l[j][1], pairs_a[j][1]):
                        out.append(self.flag(rule, e, f"{pairs_l[j][0]} + {pairs_a[j][0]}: {msg}"))
        return out

    def _check_in_hand(self, s, e, p, entries, all_facts) -> list[Finding]:
        hand = [c.code for c in s.zone(p, "hand")]
        out = []
        for i, (entry, f) in enumerate(zip(entries, all_facts)):
            code = entry.get("code") or (f or {}).get("code")
            if code and code in hand:
                hand.remove(code)
            elif None in hand:
                hand.remove(None)
            else:
                known = f": the record says it holds {', '.join(c or '?' for c in hand)}" if hand else ": it is empty"
                out.append(self.flag("KEN-PRES-1", e, f"card {i + 1} ({code or (f or {}).get('name')}) is not in "
                                                      f"{p}'s hand{known}"))
        return out

    def _event_timing(self, s, e, p, label, dur, own_presentation) -> list[Finding]:
        if dur in PLAY_ANYTIME:
            return []
        rule = "KEN-GLOSS-DURATA" if dur == "riprendi-dopo-uso" else "KEN-EVENTO-1"
        if dur == "puntata":
            if s.phase != "presentation":
                return [self.flag(rule, e, f"{label}: a PUNTATA Event is played in a Presentation phase")]
            return []
        if not own_presentation:
            return [self.flag(rule, e, f"{label}: a {dur.upper()} Event is played in its owner's Presentation phase")]
        return []

    def _check_assignment(self, s, e, label, entry, f, entries, all_facts, i) -> list[Finding]:
        ref = entry.get("host")
        out = []
        if ref is None:
            return [self.flag("KEN-ASSEGN-5", e, f"{label}: a {f['type']} must be assigned to a card (`host`)")]
        if ref.startswith("#") and ref[1:].isdigit():
            j = int(ref[1:])
            if j >= i or all_facts[j] is None:
                return [self.flag("KEN-ASSEGN-5", e, f"{label}: host {ref} is not an earlier card of this play")]
            host_unit, hf, existing = ref, all_facts[j], []
        else:
            found = T.host_facts(s, ref)
            if found is None:
                return [self.flag("KEN-ASSEGN-5", e, f"{label}: card {ref} is not in the Present")]
            host_unit, hf = found
            if hf is None:
                return out
            # one-use cards leave after damage (or at the Epilogue), so what is assigned now is what counts
            existing = [T.facts(c) or {} for _, c in T.assigned_to(s, host_unit)]
        for rule, msg in assignment_problems(f, hf, profile_rule=self.opts["profile_rule"]):
            out.append(self.flag(rule, e, f"{label} on {hf['name']}: {msg}"))
        same_event = [g for j, (ent, g) in enumerate(zip(entries, all_facts))
                      if j < i and g and ent.get("host") == ref]
        siblings = existing + same_event
        if not f.get("cumulative") and any(identity(g) == identity(f) for g in siblings):
            rule = "KEN-EQUIP-3" if f["type"] in ("equipment", "special") else "KEN-GLOSS-CUMULABILE"
            out.append(self.flag(rule, e, f"{label}: {hf['name']} already has a {f['name']} ({f['type']})"))
        elif f["type"] in ("technique", "spirit") and not f.get("cumulative"):
            group = lambda d: "one-use" if d in PLAY_ANYTIME else d  # noqa: E731
            if group(f["duration"]) in ("permanente", "puntata", "one-use") and any(
                    g.get("type") == f["type"] and group(g.get("duration")) == group(f["duration"]) for g in siblings):
                out.append(self.flag("KEN-TECNICA-1", e, f"{label}: {hf['name']} already has a "
                                                         f"{f['duration'].upper()} {f['type']}"))
        return out

    def _check_life(self, s, e, p, label, entry, f) -> list[Finding]:
        out = []
        same = [u for u in T.units(s, p) if (T.unit_facts(s, u) or {}) and identity(T.unit_facts(s, u)) == identity(f)]
        if entry.get("stack"):
            unit = T.resolve_unit(s, entry["stack"])
            uf = T.unit_facts(s, unit) if unit else None
            if unit is None or unit not in T.units(s, p) or not uf or identity(uf) != identity(f):
                out.append(self.flag("KEN-VITA-1", e, f"{label}: stacked on {entry['stack']}, which is not {f['name']} "
                                                      f"in {p}'s forces"))
        elif same:
            out.append(self.flag("KEN-VITA-1", e, f"{label}: {f['name']} is already in play ({same[0]}): the new Life "
                                                  "goes on top of it (`stack`)"))
        if self.opts["optional_rule_1"]:
            o = T.opponent(s, p)
            if any((T.unit_facts(s, u) or {}) and identity(T.unit_facts(s, u)) == identity(f) for u in T.units(s, o)):
                out.append(self.flag("KEN-OPZ-1", e, f"{label}: {f['name']} is already in {o}'s Present"))
        return out

    def check_move(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        cards = s.zone(p["player"], p["from_zone"])
        where = f"{p['player']}'s {p['from_zone']}"
        if p.get("uid"):
            if not any(c.uid == p["uid"] for c in cards):
                return [self.flag("KEN-T-1", e, f"card {p['uid']} is not in {where}")]
        elif p.get("code"):
            if sum(1 for c in cards if c.code in (p["code"], None)) < p.get("count", 1):
                return [self.flag("KEN-T-1", e, f"{where} holds no {p['code']}")]
        elif len(cards) < p.get("count", 1):
            return [self.flag("KEN-T-1", e, f"{where} holds {plural(len(cards), 'card')}")]
        return []

    def check_life_top(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p, uid = e.payload["player"], e.payload["uid"]
        unit = T.resolve_unit(s, uid)
        if unit is None or unit not in T.units(s, p) or not any(c.uid == uid for c in T.unit_cards(s, unit)[1]):
            return [self.flag("KEN-T-1", e, f"card {uid} is not a Life in {p}'s forces")]
        combat = s.extra.get("combat")
        at_combat_start = combat is not None and not combat["damaged"]
        if not (s.phase == "presentation" and s.active == p) and not at_combat_start:
            return [self.flag("KEN-VITA-3", e, "the top Life card is chosen when a Life is played, in one's "
                                               "Presentation phase, or at the start of a combat")]
        if at_combat_start:  # "una sola volta prima decide l'attaccante e poi il difensore"
            chosen = combat.get("top_chosen", [])
            if p in chosen:
                return [self.flag("KEN-VITA-3", e, f"{p} already chose a top Life card at the start of this combat: "
                                                   "once")]
            if p == combat["attacker"] and combat["defender"] in chosen:
                return [self.flag("KEN-VITA-3", e, "at the start of a combat the attacker chooses first, then the "
                                                   "defender")]
        return []

    # --- combat -----------------------------------------------------------------------------

    def _group_findings(self, s, e, owner: str, groups: list[dict[str, Any]], used: set[str]) -> list[Finding]:
        out = []
        for gi, g in enumerate(groups):
            refs = list(g.get("cards", [])) + ([g["commander"]] if g.get("commander") else [])
            members = []
            for ref in refs:
                unit = T.resolve_unit(s, ref)
                if unit is None or unit not in T.units(s, owner):
                    out.append(self.flag("KEN-T-1", e, f"group {gi + 1}: {ref} is not a Protagonist in {owner}'s forces"))
                    continue
                f = T.unit_facts(s, unit) or {}
                if unit in used:
                    out.append(self.flag("KEN-GRUPPO-6", e, f"group {gi + 1}: {f.get('name', unit)} is already in another group"))
                used.add(unit)
                if T.is_engaged(s, unit):
                    out.append(self.flag("KEN-GRUPPO-1", e, f"group {gi + 1}: {f.get('name', unit)} is Engaged"))
                if f:
                    members.append((f"{f['name']} ({unit})", f, unit, ref == g.get("commander")))
            for rule, msg in group_problems([(m[0], m[1]) for m in members]):
                out.append(self.flag(rule, e, f"group {gi + 1}: {msg}"))
            fighters = [m for m in members if not m[3]]
            for label, f, unit, is_commander in members:
                if is_commander and f["type"] != "master":
                    out.append(self.flag("KEN-MAESTRO-2", e, f"group {gi + 1}: {label} commands, but only a Master can"))
                if not is_commander and f["type"] == "master" and len(fighters) > 1:
                    out.append(self.flag("KEN-MAESTRO-2", e, f"group {gi + 1}: {label} fights, so no other Protagonist can "
                                                             "be in its group (a Commander goes at the bottom)"))
            if g.get("commander") and not fighters:
                out.append(self.flag("KEN-MAESTRO-2", e, f"group {gi + 1}: a Commander alone: a Master alone fights"))
        return out

    def check_combat_attack(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload["player"]
        out = []
        if p != s.active or s.phase != "combat":
            out.append(self.flag("KEN-COMB-1", e, f"{p} attacks outside their own Combat phase"))
        elif s.extra.get("attacked"):
            out.append(self.flag("KEN-COMB-1", e, f"{p} already declared the attack of this Combat phase"))
        d = T.opponent(s, p)
        territory = [c.uid for c in s.zone(d, "territory")]
        targets = []
        for gi, g in enumerate(e.payload["groups"]):
            t = g["target"]
            if territory:
                if t not in territory:
                    unit = T.resolve_unit(s, t)
                    if unit and unit in T.units(s, d):
                        out.append(self.flag("KEN-COMB-4", e, f"group {gi + 1}: {d} has Locations: their Protagonists "
                                                              "cannot be attacked singly"))
                    else:
                        out.append(self.flag("KEN-T-1", e, f"group {gi + 1}: {t} is not one of {d}'s Locations"))
                elif t in targets:
                    out.append(self.flag("KEN-COMB-2", e, f"group {gi + 1}: Location {t} is already attacked by another group"))
                else:
                    expected = territory[-(len(targets) + 1)] if len(targets) < len(territory) else None
                    if t != expected:
                        out.append(self.flag("KEN-COMB-2", e, f"group {gi + 1} attacks {t}, but the next Location in order "
                                                              f"is {expected} (from the one {d} played last)"))
                targets.append(t)
            else:
                unit = T.resolve_unit(s, t)
                if unit is None or unit not in T.units(s, d):
                    out.append(self.flag("KEN-COMB-4", e, f"group {gi + 1}: {d} has no Locations; attack one of their "
                                                          f"Protagonists, not {t}"))
            if not g.get("cards"):
                out.append(self.flag("KEN-COMB-3", e, f"group {gi + 1}: no Army, Character or Master attacks {t}"))
        return out + self._group_findings(s, e, p, e.payload["groups"], set())

    def check_combat_defend(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload["player"]
        combat = s.extra.get("combat")
        if combat is None or combat["defender"] != p:
            return [self.flag("KEN-DIFESA-1", e, f"{p} defends, but no attack against {p} was declared")]
        out = []
        by_target = {g["target"]: g for g in combat["groups"]}
        seen = set()
        used = {u for g in combat["groups"] if g["defended"] for u in g["defence"]}
        for gi, g in enumerate(e.payload["groups"]):
            group = by_target.get(g["target"])
            if group is None:
                out.append(self.flag("KEN-DIFESA-1", e, f"group {gi + 1}: {g['target']} is not under attack"))
                continue
            if group["kind"] == "unit":
                out.append(self.flag("KEN-COMB-4", e, f"group {gi + 1}: {p} has no Locations and cannot form defence groups"))
                continue
            if g["target"] in seen or group["defended"]:
                out.append(self.flag("KEN-DIFESA-1", e, f"group {gi + 1}: {g['target']} already has a defence group"))
            seen.add(g["target"])
            loc = next((T.facts(c) for c in s.zone(p, "territory") if c.uid == g["target"]), None)
            if loc:
                for ref in list(g.get("cards", [])) + ([g["commander"]] if g.get("commander") else []):
                    unit = T.resolve_unit(s, ref)
                    f = T.unit_facts(s, unit) if unit else None
                    if f:
                        for rule, msg in defence_problems(loc, f):
                            out.append(self.flag(rule, e, f"group {gi + 1}: {msg}"))
        return out + self._group_findings(s, e, p, e.payload["groups"], used)

    def _group_of(self, combat: dict[str, Any], unit: str) -> tuple[dict[str, Any], str] | None:
        for g in combat["groups"]:
            if unit in g["attack"] or unit == g["attack_commander"]:
                return g, "attack"
            if unit in g["defence"] or unit == g["defence_commander"] or (g["kind"] == "unit" and unit == g["target"]):
                return g, "defence"
        return None

    def check_ability(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        combat = s.extra.get("combat")
        uid, need, school = e.payload["uid"], e.payload.get("lives", 0), e.payload.get("school")
        if combat is None:
            return []
        out = []
        if uid in combat["abilities"]:
            out.append(self.flag("KEN-ABIL-1", e, f"the ability of {uid} was already activated in this combat"))
        found = T.find_present(s, uid)
        if found is None:
            return out + [self.flag("KEN-T-1", e, f"card {uid} is not in play")]
        card = found[2]
        unit = card.props.get("host") if found[1] == "assigned" else T.unit_of(card)
        place = self._group_of(combat, unit) if unit else None
        if need <= 0 or place is None:
            return out
        g, side = place
        candidates = [g[f"{side}_commander"]] if g[f"{side}_commander"] else []
        members = g[side] if side == "attack" else (g["defence"] or ([g["target"]] if g["kind"] == "unit" else []))
        candidates.append(unit)
        if school is None:
            candidates += [u for u in members if (T.unit_facts(s, u) or {}).get("type") == "character"]
        able = [u for u in dict.fromkeys(candidates) if u and T.lives(s, u) >= need]
        if not able:
            return out + [self.flag("KEN-ABIL-2", e, f"{e.payload['name']} needs {need} Lives of the Master commanding "
                                                     "the group (or a Life in it); none has that many")]
        if school and not any(school in (T.unit_facts(s, u) or {}).get("schools", []) for u in able):
            out.append(self.flag("KEN-VITA-7", e, f"{e.payload['name']} needs {need} Lives of the {school} School; "
                                                  "the Lives at hand are of another School"))
        return out

    def check_combat_damage(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        clash = self._clash(s, e)
        if clash is None:
            return [self.flag("KEN-COMB-1", e, f"damage at {e.payload['target']}, which no declared group attacks")]
        out = []
        combat = s.extra["combat"]
        for side_name, members, receiver, dist in (("attacker", clash["attack"], clash["defence"], clash["to_defence"]),
                                                   ("defender", clash["defence"], clash["attack"], clash["to_attack"])):
            side = e.payload[side_name]
            uses = side.get("uses", [])
            per_host: dict[tuple[str, str], int] = {}
            for uid in uses:
                found = T.find_present(s, uid)
                host = found[2].props.get("host") if found and found[1] == "assigned" else None
                if host not in members:
                    out.append(self.flag("KEN-T-1", e, f"{side_name}: {uid} is not assigned to a card of this group"))
                    continue
                t = (T.facts(found[2]) or {}).get("type")
                if t in ("technique", "spirit"):
                    per_host[(host, t)] = per_host.get((host, t), 0) + 1
                    if per_host[(host, t)] == 2:
                        out.append(self.flag("KEN-TECNICA-3", e, f"{side_name}: {host} uses more than one {t} in this combat"))
            printed = self._printed_attack(s, members, uses)
            bonus = sum(x.get("attack", 0) for x in side.get("effects", []))
            if side["damage"] != printed + bonus:
                out.append(self.flag("KEN-DANNI-1", e, f"{side_name}: {side['damage']} damage recorded; the group's printed "
                                                       f"Attack is {printed} and the recorded effects add {bonus:+d}",
                                     severity="warning"))
            owner = combat[side_name]
            for key, rule in (("lethal", "KEN-GLOSS-MORTALE"), ("massacre", "KEN-GLOSS-MASSACRATORE")):
                if side.get(key):
                    holder = T.resolve_unit(s, side[key])
                    found = T.find_present(s, side[key])
                    if holder is None and found and found[1] == "assigned":
                        holder = found[2].props.get("host")
                    if holder not in members:
                        out.append(self.flag(rule, e, f"{side_name}: {side[key]} is not part of this {owner}'s group"))
            if side.get("vanquished") is not None:
                out += self._claim_findings(s, e, side_name, side, receiver, dist)
        return out

    def _claim_findings(self, s, e, side_name, side, receiver, dist) -> list[Finding]:
        claimed = {T.resolve_unit(s, u) or u for u in side["vanquished"]}
        derived = set(dist.vanquished())
        out = []
        for unit in sorted(claimed ^ derived):
            f = T.unit_facts(s, unit) or {}
            name = f"{f.get('name', unit)} ({unit})"
            hits = [h for h in dist.hits if h.unit == unit]
            how = "; ".join(f"wave {h.wave}: {h.to_defence} to Defence, {h.to_resistance} to "
                            f"{'Lives' if h.lives_lost else 'Resistance'}" for h in hits) or "no damage reaches it"
            if unit not in receiver:
                out.append(self.flag("KEN-T-1", e, f"{side_name} claims {name} vanquished, but it is not in the opposing group"))
            elif has_life(f):
                rule = "KEN-PERS-2" if (side.get("lethal") or side.get("massacre")) and f["type"] == "character" else "KEN-VITA-5"
                lost = dist.lives_lost().get(unit, 0)
                out.append(self.flag(rule, e, f"{name}: {side['damage']} damage takes {lost} of its "
                                              f"{T.lives(s, unit)} Lives ({how}); the players said "
                                              f"{'vanquished' if unit in claimed else 'not vanquished'}"))
            elif unit in claimed:
                out.append(self.flag("KEN-DANNI-3", e, f"{name} is not vanquished: {how}; its Resistance is not zeroed, "
                                                       "so it stays in play"))
            else:
                out.append(self.flag("KEN-DANNI-2", e, f"{name} is vanquished: {how}"))
        return out

    def check_combat_end(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        combat = s.extra.get("combat")
        if combat is None:
            return [self.flag("KEN-COMB-1", e, "combat.end with no attack declared")]
        out = []
        derived = [g["target"] for g in self._conquests(s)]
        if e.payload.get("conquered") is not None and sorted(e.payload["conquered"]) != sorted(derived):
            out.append(self.flag("KEN-CONQ-1", e, f"the players conquered {sorted(e.payload['conquered'])}; the groups "
                                                  f"left standing conquer {sorted(derived)}"))
        if e.payload.get("order") is not None:
            after = s.copy()
            self.apply(after, e)
            for player, said in sorted(e.payload["order"].items()):
                if player in after.counters and after.counters[player]["order"] != said:
                    out.append(self.flag("KEN-OCRA-1", e, f"{player} has {said} Order points by the players' count; the "
                                                          f"vanquished cards give {after.counters[player]['order']}"))
        return out

    def check_order_points(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        card = e.payload.get("for_card")
        if card and card in s.extra.get("removed_by_effect", []):
            return [self.flag("KEN-OCRA-2", e, f"{card} left play by an effect, not by damage: it gives no Order points")]
        return []

    @staticmethod
    def _confirms_victory(s: TableState, e: RecordedEvent) -> bool:
        r = s.result
        return (e.kind == "victory.declare" and r is not None and r.get("rule") == "KEN-VITT-1"
                and r.get("winner") == e.payload["player"] == s.active and s.phase == "order")

    def check_victory_declare(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        problems = self.victory_problems(s, e.payload["player"])
        tail = ": the game goes on" if problems and s.result is None else ""
        return [self.flag(rule, e, msg + (tail if i == len(problems) - 1 else ""))
                for i, (rule, msg) in enumerate(problems)]

    # =========================================================================================
    # outcome, end of time, counters, words
    # =========================================================================================

    def outcome(self, s: TableState) -> Outcome | None:
        if s.result is None:
            return None
        r = s.result
        return Outcome(r["result"], r.get("winner"), r["how"],
                       [f"event {r.get('position')}" + (f", rule {r['rule']}" if r.get("rule") else "")],
                       r.get("rule", ""), r.get("position"))

    time_facts = (
        Fact("order", "each", "Order points of each player", 0, 999),
        Fact("turn", "count", "the turn in progress", 0, 999, required=False),
    )

    def table_from_facts(self, created: RecordedEvent, facts: dict[str, Any]) -> TableState:
        state = self.new_state(created)
        for p, n in facts["order"].items():
            state.counters[p]["order"] = n
        state.turn = facts.get("turn") or 0
        return state

    def end_of_time(self, state: TableState, events: list[RecordedEvent], *, policy: str | None = None) -> Decision:
        """Our policy (the rulebook has no time limit), from the quick game's rule:
        'order-points' (default): more Order points wins, equal is a draw.
        'lead-10': the standard game's margin: 10+ ahead wins, anything less is a draw."""
        policy = policy or "order-points"
        if policy not in ("order-points", "lead-10"):
            raise ValueError(f"ruleset 'ken' has no end-of-time policy {policy!r} (order-points, lead-10)")
        rule = self.rule("KEN-TEMPO-1")
        called = next(iter(time_calls(events)), None)
        steps = [f"time called at event {called.position} ({called.payload.get('clock')})" if called
                 else "time called; the judge read the table"]
        if state.result is not None:
            steps.append(f"the game was already over: {state.result['how']}")
            return Decision(state.result["result"], state.result.get("winner"), "already-decided", steps,
                            rule.id, rule.quote, policy)
        a, b = state.players[0], state.players[1]
        pa, pb = state.counters[a]["order"], state.counters[b]["order"]
        where = f" (turn {state.turn}, {state.active} active)" if state.turn and state.active else (
            f" (turn {state.turn})" if state.turn else "")  # a table read without its turn: nothing to say
        steps.append(f"Order points: {a} {pa}, {b} {pb}{where}")
        need = LEAD if policy == "lead-10" else 1
        if abs(pa - pb) >= need:
            winner = a if pa > pb else b
            steps.append(f"{winner} leads by {abs(pa - pb)} (needed {need}): {winner} wins")
            return Decision("win", winner, "more-order-points" if need == 1 else "lead-10", steps, rule.id, rule.quote, policy)
        # the draw is tablejudge's policy, not the book's (it has no time limit): said so (QA71)
        steps.append(("equal Order points: a draw" if pa == pb else
                      f"a lead of {abs(pa - pb)} is less than {need}: a draw")
                     + " (tablejudge's end-of-time policy: the rulebook has no time limit)")
        return Decision("draw", None, "equal" if pa == pb else "lead-short", steps, rule.id, rule.quote, policy)

    def key_counters(self, state: TableState) -> dict[str, dict[str, int]]:
        return {p: {"order": state.counters[p]["order"]} for p in state.players}

    def summary_lines(self, state: TableState) -> list[str]:
        """The cards in play with their instance ids: the notation names them by id (c20), so a
        scorekeeper or judge must be able to read them off the table."""
        lines = []
        for p in state.players:
            for zone in ("forces", "territory", "destiny", "assigned"):
                cards = state.zone(p, zone)
                if cards:
                    shown = ", ".join(f"{c.code or 'a card'} ({c.uid})" for c in cards)
                    lines.append(f"{p} {zone}: {shown}")
        return lines

    def describe(self, e: RecordedEvent) -> str:
        p = e.payload
        if e.kind == "deck.register":
            return f"{p['player']} registers a deck of {plural(sum(c.get('count', 1) for c in p['cards']), 'card')}"
        if e.kind == "play":
            names = ", ".join((c.get("facts") or {}).get("name") or c.get("code", "?") for c in p["cards"])
            return f"{p['player']} plays {names}"
        if e.kind == "combat.attack":
            return f"{p['player']} attacks with {plural(len(p['groups']), 'group')}: " + "; ".join(
                f"{', '.join(g.get('cards', []))} -> {g['target']}" for g in p["groups"])
        if e.kind == "combat.defend":
            if not p["groups"]:
                return f"{p['player']} does not defend"
            return f"{p['player']} defends: " + "; ".join(f"{g['target']} by {', '.join(g.get('cards', []))}" for g in p["groups"])
        if e.kind == "combat.damage":
            return f"clash at {p['target']}: attacker deals {p['attacker']['damage']}, defender deals {p['defender']['damage']}"
        if e.kind == "move":
            what = p.get("code") or p.get("uid") or "a card"
            return f"{p['player']} moves {what} from {p['from_zone']} to {p['to_zone']}" + (
                f" ({p['effect']})" if p.get("effect") else "")
        if e.kind == "disengage":
            units = f" {', '.join(p['units'])}" if p.get("units") else " all their cards"
            return f"{p['player']} disengages{units}"
        return super().describe(e)


RULESET = KenRuleset
