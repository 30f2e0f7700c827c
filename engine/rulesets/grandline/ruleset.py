"""`grandline`: the German "One Piece Card Game - Umfassende Regeln" (grandline-umfassende-regeln.de.md).

The text describes two games at once (hand limit 5 or 6, deck-out loses or reshuffles, 10 life points
or the Captain's life, two turn structures, two combat systems). This ruleset implements one coherent
profile (the defaults: Beli, rotating start player, blocking combat, 10 life points, hand limit 6,
deck-out loses) and makes every contradiction a named option that selects the other reading. The list
is the `[[contradiction]]` list of rules.toml, documented in docs/rulesets/grandline.md.

Facts recorded: setup, rounds, phases, draws, cards played with their printed values, attacks (who
attacks whom, who blocks), discards, island visits. Derived: Beli/action points, life, what an attack
destroys, victory points, who won.
"""
from __future__ import annotations

from typing import Any

from engine.catalogue import load
from engine.desk import OFF_TABLE_KINDS
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.rulesets.base import Decision, History, Outcome, Ruleset
from engine.timefacts import Fact, FactsError
from engine.state import Card as TableCard
from engine.state import MissingCard, TableState

from .vocab import (
    KINDS,
)

CATALOGUE = load(__package__)
RULES, CONTRADICTIONS = CATALOGUE.rules, CATALOGUE.contradictions

PHASE_SLOT = {"preparation": 0, "main": 1, "action": 1, "combat": 2, "end": 3}
TYPES_BY_OPTION = {
    "all": {"character", "item", "event", "island", "location", "treasure"},
    "items-islands": {"character", "item", "event", "island"},
    "locations-treasures": {"character", "event", "location", "treasure"},
}
ZONE_OF = {"character": "sea", "item": "sea", "event": "discard", "island": "island",
           "location": "island", "treasure": "island"}


# --- vocabulary ---------------------------------------------------------------------------------


def _find(s: TableState, player: str, zone: str, ref: str) -> TableCard | None:
    """A card of a zone by uid, else the topmost with that name."""
    cards = s.zone(player, zone)
    for c in cards:
        if c.uid == ref:
            return c
    for c in reversed(cards):
        if c.code == ref:
            return c
    return None


# how a game ended (the words _lose/_win record) -> the rule that ended it
_END_RULES = (("empty deck", "GL-DECK-OUT"), ("life fell", "GL-LIFE"), ("Captain life", "GL-CAPTAIN-ATTACK"),
              ("victory points", "GL-VP-10"), ("conceded", "GL-END"))

class GrandlineRuleset(Ruleset):
    name = "grandline"
    title = "One Piece Card Game - Umfassende Regeln (German, profile)"
    rulebook = "grandline-umfassende-regeln.de.md"
    version = 2
    max_cards = 100  # any count of cards; a 50-card deck (Captain + 49): 100 leaves room for what a recorder may mistype
    zones = ("deck", "hand", "sea", "island", "discard")
    counters = {"life": 10, "vp": 0, "beli": 0, "ap": 0}
    kinds = KINDS
    rules = RULES
    contradictions = CONTRADICTIONS
    options = CATALOGUE.options

    # --- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _x(s: TableState) -> dict[str, Any]:
        return s.extra.setdefault("gl", {"initiative": {}, "captain": {}, "round_start": None,
                                         "drawn": [], "attacks": {}, "visited": {}, "out": [],
                                         "reached_end": False})

    def _resource(self) -> str:
        return "beli" if self.opts["resource"] == "beli" else "ap"

    def _opponent(self, s: TableState, player: str) -> str:
        others = [p for p in s.players if p != player and p not in self._x(s)["out"]]
        return others[0] if others else player

    def _lose(self, s: TableState, player: str, how: str, position: int) -> None:
        x = self._x(s)
        if s.result is not None or player in x["out"]:
            return
        x["out"].append(player)
        left = [p for p in s.players if p not in x["out"]]
        if len(left) == 1:
            s.result = {"result": "win", "winner": left[0], "how": how, "position": position}

    def _win(self, s: TableState, player: str, how: str, position: int) -> None:
        if s.result is None:
            s.result = {"result": "win", "winner": player, "how": how, "position": position}

    def _destroy(self, s: TableState, owner: str, card: TableCard) -> None:
        s.take(owner, "sea", uid=card.uid)
        card.props["exhausted"] = False
        s.put(owner, "discard", card)

    # --- apply --------------------------------------------------------------------------------

    def apply_setup(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        x = self._x(s)
        x["initiative"][p["player"]] = p.get("initiative", 0)
        x["captain"][p["player"]] = p["captain"]
        for zone, n in (("deck", p.get("deck", 49)), ("hand", p.get("hand", 0))):
            for _ in range(n):
                s.put(p["player"], zone, s.new_card(p["player"]))
        if self.opts["life"] == "captain" and p.get("captain_life") is not None:
            s.counters[p["player"]]["life"] = p["captain_life"]

    def apply_round(self, s: TableState, e: RecordedEvent) -> None:
        x = self._x(s)
        s.turn = e.payload.get("number") or s.turn + 1
        s.active = e.payload["start_player"]
        s.phase = None
        x["round_start"] = e.payload["start_player"]
        x["drawn"] = []
        x["attacks"] = {}
        x["reached_end"] = False

    def apply_phase(self, s: TableState, e: RecordedEvent) -> None:
        x = self._x(s)
        name = e.payload["name"]
        s.phase = name
        if name == "preparation":
            for p in s.players:
                if self.opts["resource"] == "beli":
                    s.counters[p]["beli"] += 1
                else:
                    s.counters[p]["ap"] = x["initiative"].get(p, 0) + (2 if p == x["round_start"] else 0)
        elif name == "combat":
            x["attacks"] = {}  # per player: "Jeder Spieler kann bis zu zwei Angriffe pro Kampfphase ausführen"
        elif name == "end":
            x["reached_end"] = True
            for p in s.players:
                for c in s.zone(p, "sea"):
                    c.props["exhausted"] = False
                if self.opts["resource"] == "action-points":
                    s.counters[p]["ap"] = 0

    def apply_draw(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        x = self._x(s)
        x["drawn"].append(p["player"])
        for _ in range(p.get("count", 1)):
            deck = s.zone(p["player"], "deck")
            if not deck:
                if self.opts["deck_out"] == "lose":
                    self._lose(s, p["player"], f"{p['player']} had to draw from an empty deck", e.position)
                    return
                discard = s.zone(p["player"], "discard")
                while discard:  # shuffled: the order is unknown, so are the cards
                    card = discard.pop()
                    card.code = None
                    deck.append(card)
                if not deck:
                    return
            s.put(p["player"], "hand", deck.pop())

    def apply_play(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        res = self._resource()
        s.counters[p["player"]][res] -= p.get("cost", 0)
        try:
            card = s.take(p["player"], "hand", code=p["card"])
        except MissingCard:
            card = s.new_card(p["player"], p["card"])
        card.props = {k: p[k] for k in ("type", "attack", "defence", "life", "typ") if p.get(k) is not None}
        card.props["exhausted"] = False
        zone = ZONE_OF[p["type"]]
        if zone != "discard":
            for old in list(s.zone(p["player"], zone)):
                same_name = old.code == card.code
                same_type = (self.opts["same_type_rule"] == "enforce" and
                             (old.props.get("typ") or old.props.get("type")) ==
                             (card.props.get("typ") or card.props.get("type")))
                if same_name or same_type:
                    s.take(p["player"], zone, uid=old.uid)
                    s.put(p["player"], "discard", old)
        s.put(p["player"], zone, card)

    def _hit_character(self, card: TableCard, attack: int, *, ties_destroy: bool) -> bool:
        """Whether an attack destroys a character (option character_life)."""
        defence = card.props.get("defence", 0)
        beaten = attack >= defence if ties_destroy else attack > defence
        if self.opts["character_life"] == "combat-only":
            return beaten
        if card.props.get("life") is not None:
            card.props["life"] -= attack
            return card.props["life"] <= 0
        return True  # "wird er zerstört, sobald er einen Angriff überlebt"

    def apply_attack(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        x = self._x(s)
        me = p["player"]
        foe = p.get("target_player") or self._opponent(s, me)
        attacker = _find(s, me, "sea", p["attacker"])
        x["attacks"][me] = x["attacks"].get(me, 0) + 1
        if attacker is None:
            return
        power = attacker.props.get("attack", 0)
        if self.opts["combat"] == "block":
            attacker.props["exhausted"] = True
            blocker = _find(s, foe, "sea", p["blocker"]) if p.get("blocker") else None
            if blocker is not None:
                if power == blocker.props.get("defence", 0) and self.opts["character_life"] == "combat-only":
                    self._destroy(s, foe, blocker)
                    self._destroy(s, me, attacker)
                elif self._hit_character(blocker, power, ties_destroy=False):
                    self._destroy(s, foe, blocker)
            elif p.get("target", "direct") == "direct":
                s.counters[foe]["life"] -= power
                if s.counters[foe]["life"] <= 0:
                    self._lose(s, foe, f"{foe}'s life fell to {s.counters[foe]['life']}", e.position)
            else:
                target = _find(s, foe, "sea", p["target"])
                if target is not None:
                    self._destroy(s, foe, target)
            return
        # compare (A): costs 1 (character) or 2 (Captain) in the resource
        direct = p.get("target", "direct") == "direct"
        s.counters[me][self._resource()] -= 2 if direct else 1
        if direct:
            life = s.counters[foe]["life"]
            if power >= life:
                s.counters[foe]["life"] = 0
                self._win(s, me, f"{me}'s attack {power} >= {foe}'s Captain life {life}", e.position)
            else:
                loss = power if self.opts["captain_damage"] == "attack" else life - power
                s.counters[foe]["life"] = life - loss
        else:
            target = _find(s, foe, "sea", p["target"])
            if target is not None and self._hit_character(target, power, ties_destroy=True):
                self._destroy(s, foe, target)

    def apply_discard(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        for _ in range(p.get("count", 1)):
            try:
                card = s.take(p["player"], "hand", code=p.get("card"))
            except MissingCard:
                card = s.new_card(p["player"], p.get("card"))
            s.put(p["player"], "discard", card)

    def apply_destroy(self, s: TableState, e: RecordedEvent) -> None:
        card = _find(s, e.payload["player"], "sea", e.payload["card"])
        if card is not None:
            self._destroy(s, e.payload["player"], card)

    def apply_damage(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        s.counters[p["player"]]["life"] -= p["amount"]
        if s.counters[p["player"]]["life"] <= 0:
            self._lose(s, p["player"], f"{p['player']}'s life fell to {s.counters[p['player']]['life']}",
                       e.position)

    def _gain_vp(self, s: TableState, player: str, n: int, position: int) -> None:
        s.counters[player]["vp"] += n
        if s.counters[player]["vp"] >= 10:
            self._win(s, player, f"{player} reached {s.counters[player]['vp']} victory points", position)

    def apply_island_visit(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        self._x(s)["visited"].setdefault(p["player"], []).append(p["island"])
        self._gain_vp(s, p["player"], p["vp"], e.position)

    def apply_vp(self, s: TableState, e: RecordedEvent) -> None:
        self._gain_vp(s, e.payload["player"], e.payload["add"], e.position)

    def apply_concede(self, s: TableState, e: RecordedEvent) -> None:
        self._lose(s, e.payload["player"], f"{e.payload['player']} conceded", e.position)

    # --- what a scorekeeper records --------------------------------------------------------------

    def hide(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """Nothing to hide: this vocabulary never names a card a scorekeeper cannot see. A draw, the
        set-up's deck and hand are counts only; a card is named when it is played (face up into its
        zone), discarded (into the Abwurfzone, where destroyed, used and discarded cards lie in the
        open), destroyed, or visited. The hand's cards stay unknown until played."""
        return dict(payload)

    # --- check --------------------------------------------------------------------------------

    def check(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        out = []
        if s.result is not None and e.kind not in OFF_TABLE_KINDS:
            out.append(self.flag("GL-END", e, f"{e.kind} after the game ended ({s.result['how']})"))
        elif e.kind not in OFF_TABLE_KINDS:
            gone = self._x(s)["out"]
            for field in ("player", "target_player", "start_player"):
                who = e.payload.get(field)
                if who in gone and e.kind != "concede":
                    out.append(self.flag("GL-OUT", e, f"{who} has lost and is out of the game ({e.kind}, {field})"))
        return out + super().check(s, e, history)

    def _next_start(self, s: TableState, after: str) -> str:
        """Clockwise from `after`, skipping players who have lost."""
        gone = self._x(s)["out"]
        i = s.players.index(after)
        for k in range(1, len(s.players) + 1):
            cand = s.players[(i + k) % len(s.players)]
            if cand not in gone:
                return cand
        return after

    def check_setup(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        out = []
        if p.get("deck", 49) + p.get("hand", 0) != 49:
            out.append(self.flag("GL-DECK", e, f"{p.get('deck', 49)} cards in the deck and {p.get('hand', 0)} "
                                 "in hand: the deck is the Captain and 49 other cards"))
        if self.opts["life"] == "captain" and p.get("captain_life") is None:
            out.append(self.flag("GL-DECK", e, "option life=captain: record the Captain's life value "
                                 "(captain_life)", severity="warning"))
        return out

    def check_round(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        x = self._x(s)
        out = []
        n = p.get("number") or s.turn + 1
        if n != s.turn + 1:
            out.append(self.flag("GL-PHASE-ORDER", e, f"round {n} follows round {s.turn}"))
        start = p["start_player"]
        if self.opts["turn_structure"] == "initiative":
            ini = x["initiative"]
            best = max((ini.get(q, 0) for q in s.players), default=0)
            if ini and ini.get(start, 0) != best:
                out.append(self.flag("GL-START", e, f"{start} has initiative {ini.get(start, 0)}; the "
                                     f"highest ({best}) starts"))
        elif x["round_start"] is not None:
            want = self._next_start(s, x["round_start"])
            if start != want and want == x["round_start"]:  # the others are out of the game
                out.append(self.flag("GL-START", e, f"only {want} is still in the game (the others are out), "
                                     f"so {want} starts, not {start}"))
            elif start != want:
                out.append(self.flag("GL-START", e, f"the start player passes clockwise: {want} after "
                                     f"{x['round_start']}, not {start}"))
        elif p.get("rolls"):
            best = max(p["rolls"].values())
            if p["rolls"].get(start) != best:
                out.append(self.flag("GL-START", e, f"{start} rolled {p['rolls'].get(start)}; the highest "
                                     f"roll ({best}) starts"))
        if x["reached_end"]:
            limit = self.opts["hand_limit"]
            for q in s.players:
                held = len(s.zone(q, "hand"))
                if held > limit and q not in x["out"]:
                    out.append(self.flag("GL-HAND-LIMIT", e, f"{q} ended the round with {held} cards in "
                                         f"hand: the limit is {limit}"))
        if s.turn >= 1 and s.phase != "end":
            out.append(self.flag("GL-PHASE-ORDER", e, f"round {s.turn} ended in phase {s.phase or 'none'}, "
                                 "not the end phase"))
        return out

    def check_phase(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        x = self._x(s)
        name = e.payload["name"]
        out = []
        if s.turn < 1:
            return [self.flag("GL-PHASE-ORDER", e, f"phase {name} before the first round")]
        want = 0 if s.phase is None else PHASE_SLOT[s.phase] + 1
        if PHASE_SLOT[name] != want:
            out.append(self.flag("GL-PHASE-ORDER", e, f"{name} after {s.phase or 'the start of the round'}"))
        if s.phase == "preparation":
            for q in s.players:
                if q not in x["drawn"] and q not in x["out"]:
                    out.append(self.flag("GL-DRAW", e, f"{q} did not draw in the preparation phase"))
        return out

    def check_draw(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        if s.phase != "preparation":
            return [self.flag("GL-DRAW", e, f"a draw in phase {s.phase or 'none'}: the draw is in the "
                              "preparation phase", severity="warning")]
        if p["player"] in self._x(s)["drawn"] or p.get("count", 1) != 1:
            return [self.flag("GL-DRAW", e, f"{p['player']} draws more than one card this preparation phase")]
        return []

    def check_play(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        out = []
        if p["type"] not in TYPES_BY_OPTION[self.opts["card_types"]]:
            out.append(self.flag("GL-CARD-TYPE", e, f"no card type {p['type']!r} with card_types="
                                 f"{self.opts['card_types']}"))
        if s.phase not in ("main", "action") and not p.get("quick"):
            out.append(self.flag("GL-PLAY-PHASE", e, f"{p['card']} played in phase {s.phase or 'none'}"))
        res = self._resource()
        have = s.counters[p["player"]][res]
        if p.get("cost", 0) > have:
            out.append(self.flag("GL-COST", e, f"{p['card']} costs {p.get('cost', 0)}; {p['player']} has {have} {res}"))
        return out

    def check_attack(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        x = self._x(s)
        me = p["player"]
        foe = p.get("target_player") or self._opponent(s, me)
        out = []
        if s.phase != "combat":
            out.append(self.flag("GL-ATTACK-PHASE", e, f"an attack in phase {s.phase or 'none'}"))
        attacker = _find(s, me, "sea", p["attacker"])
        if attacker is None or attacker.props.get("type", "character") != "character":
            out.append(self.flag("GL-ATTACKER", e, f"{p['attacker']} is not a character on {me}'s field"))
        limit = self.opts["attacks_per_phase"]
        done = x["attacks"].get(me, 0)
        if limit and done >= limit:
            out.append(self.flag("GL-ATTACK-LIMIT", e, f"{me}'s attack number {done + 1} in this combat "
                                 f"phase: at most {limit} per player"))
        if p.get("target", "direct") != "direct" and _find(s, foe, "sea", p["target"]) is None:
            out.append(self.flag("GL-ATTACKER", e, f"{p['target']} is not on {foe}'s field"))
        if self.opts["combat"] == "block":
            if attacker is not None and attacker.props.get("exhausted"):
                out.append(self.flag("GL-EXHAUSTED", e, f"{p['attacker']} is exhausted"))
            if p.get("blocker"):
                if p.get("unblockable"):
                    out.append(self.flag("GL-BLOCK", e, "an unblockable (Unausweichlich) attack was blocked"))
                if _find(s, foe, "sea", p["blocker"]) is None:
                    out.append(self.flag("GL-BLOCK", e, f"{p['blocker']} is not a character of {foe}'s field"))
        else:
            if p.get("blocker"):
                out.append(self.flag("GL-BLOCK", e, "combat=compare has no blocking"))
            cost = 2 if p.get("target", "direct") == "direct" else 1
            res = self._resource()
            if s.counters[me][res] < cost:
                out.append(self.flag("GL-COST", e, f"the attack costs {cost} {res}; {me} has "
                                     f"{s.counters[me][res]}"))
        return out

    def check_island_visit(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        if p["island"] in self._x(s)["visited"].get(p["player"], []):
            return [self.flag("GL-VISIT", e, f"{p['player']} already visited {p['island']}")]
        return []

    # --- outcome ------------------------------------------------------------------------------

    def outcome(self, s: TableState) -> Outcome | None:
        if s.result is None:
            return None
        how = s.result["how"]
        rule = next((r for words, r in _END_RULES if words in how), "")
        return Outcome(s.result["result"], s.result.get("winner"), how, [f"event {s.result.get('position')}"],
                       rule, s.result.get("position"))

    time_facts = (
        Fact("vp", "each", "victory points of each player", 0, 99),
        Fact("life", "each", "life of each player", 0, 99, required=False,
             optional="needed only if the victory points are equal"),
        Fact("round", "count", "the round in progress", 0, 999, required=False),
    )

    def table_from_facts(self, created: RecordedEvent, facts: dict[str, Any]) -> TableState:
        s = self.new_state(created)
        for counter in ("vp", "life"):
            for p, n in facts.get(counter, {}).items():
                s.counters[p][counter] = n
        s.turn = facts.get("round") or 0
        return s

    def end_of_time_from_facts(self, created: RecordedEvent, facts: dict[str, Any], *,
                               policy: str | None = None) -> Decision:
        """As a recorded match, asking for `life` only when the decision reaches it (QA71: vp=4-5 was
        refused for a missing life, though the victory points decide)."""
        if "life" not in facts and (policy or "vp-then-life") == "vp-then-life" \
                and len(set(facts["vp"].values())) < len(facts["vp"]):
            raise FactsError("the decision needs life= (life of each player): the victory points are equal", 0,
                             "life")
        return super().end_of_time_from_facts(created, facts, policy=policy)

    def end_of_time(self, s: TableState, events: list[RecordedEvent], *,
                    policy: str | None = None) -> Decision:
        """The text has no time rule. Policies (ours):
        - "vp-then-life" (default): more victory points wins (the text's race to 10); equal: more
          life; equal: a draw.
        - "draw": an unfinished game is a draw."""
        policy = policy or "vp-then-life"
        if policy not in ("vp-then-life", "draw"):
            raise ValueError(f"grandline end-of-time policy must be vp-then-life or draw, got {policy!r}")
        rule = self.rule("GL-VP-10")
        done = self.outcome(s)
        if done is not None:
            return Decision(done.result, done.winner, "game-over", [done.how], rule.id, rule.quote, policy)
        steps = [f"time called in round {s.turn}" if s.turn else "time called"]
        if policy == "draw":
            return Decision("draw", None, "unfinished", steps + ["an unfinished game is a draw"],
                            rule.id, rule.quote, policy)
        alive = [p for p in s.players if p not in self._x(s)["out"]]
        # the rulebook has no time rule: the policy is ours, resting on its race to 10 victory points
        source = (f"tablejudge's end-of-time policy {policy} (the rulebook has no time rule; GL-VP-10, its "
                  "race to 10 victory points, is what it extends)")
        for counter, words in (("vp", "victory points"), ("life", "life")):
            values = {p: s.counters[p][counter] for p in alive}
            steps.append(f"{counter}: " + ", ".join(f"{p} {v}" for p, v in values.items()))
            best = max(values.values())
            top = [p for p, v in values.items() if v == best]
            if len(top) == 1:
                return Decision("win", top[0], f"more-{counter}", steps + [f"{top[0]} has the most {words}: "
                                                                           f"{top[0]} wins"],
                                rule.id, rule.quote, policy, rule.en, source)
            steps.append(f"equal {words}" + (": the next criterion decides" if counter == "vp" else ""))
        return Decision("draw", None, "equal", steps + ["equal victory points and life: a draw"],
                        rule.id, rule.quote, policy, rule.en, source)

    def key_counters(self, s: TableState) -> dict[str, dict[str, int]]:
        res = self._resource()
        return {p: {"life": s.counters[p]["life"], "vp": s.counters[p]["vp"], res: s.counters[p][res]}
                for p in s.players}

    def describe(self, e: RecordedEvent) -> str:
        p = e.payload
        if e.kind == "discard":
            what = p["card"] if p.get("card") else f"{p.get('count', 1)} card" + ("" if p.get("count", 1) == 1 else "s")
            return f"{p['player']} discards {what}"
        return super().describe(e)


RULESET = GrandlineRuleset
