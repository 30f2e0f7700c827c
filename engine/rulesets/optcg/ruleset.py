"""`optcg`: ONE PIECE CARD GAME (Bandai), rule manual v1.11.

The table: per player a deck, hand, Leader area, Character area, Stage area, trash, Life area,
DON!! deck, cost area and the DON!! attached to cards (zone `attached`, each DON!! remembering its
card in `props.on`). Rested cards carry `props.rested`; a Character remembers the turn it was played.
Card facts come from `deck.registered` (copied from the card database at registration), so replay
never needs a database. Power, Life, whose turn and phase: derived by replay.

Vocabulary: vocab.py. Rules: rules.toml. Docs:
docs/rulesets/optcg.md.
"""
from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping, Sequence
from typing import Any

from engine.desk import OFF_TABLE_KINDS
from engine.events import RecordedEvent
from engine.findings import Finding
from engine.hidden import forget
from engine.names import NAMES, name_seat, names_now, shown as shown_seat
from engine.state import Card, TableState
from . import hidden as H
from . import table as T
from . import words as words
from engine.catalogue import load
from engine.rulesets.base import Decision, History, Outcome, Ruleset
from .time import TIME_FACTS, decide_end_of_time, decide_from_facts, logged_facts, policies as policy_catalogue
from .vocab import KINDS

CATALOGUE = load(__package__)  # the rules and the options (rules.toml)
RULES = CATALOGUE.rules

PRE_MAIN = ("refresh", "draw", "don")
AFTER_END_OK = tuple(OFF_TABLE_KINDS) + ("annotation", "log.count", "player.left", "player.named", "game.end",
                                         "concede")
MAIN_ACTIONS = ("play", "don.attach", "attack")


class OptcgRuleset(Ruleset):
    name = "optcg"
    title = "ONE PIECE CARD GAME (Bandai rule manual v1.11)"
    rulebook = "optcg-bandai-v1.11.zh.md"
    # 2: cards out of face-down zones (engine/hidden.py); damage point by point
    # 3: what was never recorded is unknown, not zero: a deck never registered (no deck-out), Life
    #    never placed at the set-up (no win by Life); `life` with no count places the Leader's Life
    version = 3
    max_cards = 100  # any count of cards; a 50-card deck, a Leader and 10 DON!! (61 cards)
    zones = T.ZONES
    counters: dict[str, int] = {}
    kinds = KINDS
    rules = RULES
    options = CATALOGUE.options

    # ============================================================================ apply

    def new_state(self, created: RecordedEvent) -> TableState:
        s = super().new_state(created)
        s.phase = "setup"
        s.extra = {"facts": {}, "players": {p: {} for p in s.players}, "mods": [], "battle": None,
                   "turn_info": {}, "battles": 0}
        return s

    def apply(self, s: TableState, e: RecordedEvent) -> None:
        due = self._pending_loss(s, e)
        if due is not None:  # the next point of damage came, and found no Life card
            self._leader_loses(s, due, e)
        super().apply(s, e)
        self._deck_out(s, e)

    def _deck_out(self, s: TableState, e: RecordedEvent) -> None:
        # 勝利條件: the moment a player's deck is empty (after the game began) that player loses.
        if s.result is not None or s.turn < 1:
            return
        for p in s.players:
            if T.deck_known(s, p) and not s.zone(p, "deck"):
                s.result = {"result": "win", "winner": T.opponent(s, p), "how": "deck-out",
                            "loser": p, "position": e.position}
                return

    def apply_deck_registered(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        s.extra["facts"].update({k: dict(v) for k, v in p.get("cards", {}).items()})
        info = T.pinfo(s, player)
        info.update({"leader": p["leader"], "decklist": list(p.get("deck", [])), "don": p.get("don", 10)})
        for z in ("deck", "leader", "don_deck"):
            s.zones[player][z] = []
        s.put(player, "leader", s.new_card(player, p["leader"]))
        size = p.get("deck_size") if p.get("deck_size") is not None else len(p.get("deck", []))
        if p.get("deck_size") is None and not p.get("deck"):
            info["deck_unknown"] = True  # a Leader alone: the deck's size was not recorded
            size = 0
        else:
            info.pop("deck_unknown", None)
        for _ in range(size):
            s.put(player, "deck", s.new_card(player))
        for _ in range(p.get("don", 10)):
            s.put(player, "don_deck", s.new_card(player, T.DON))

    def apply_turn_order(self, s: TableState, e: RecordedEvent) -> None:
        s.extra["first"] = e.payload["first"]
        if e.payload.get("chosen_by"):
            s.extra["chosen_by"] = e.payload["chosen_by"]

    def apply_draw(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        named = list(p.get("cards", ()))
        for i in range(p.get("count", 1)):  # always the top card; a name identifies it
            code = named[i] if i < len(named) else None
            s.put(p["player"], "hand", T.take_hidden(s, p["player"], "deck", "hand", code=code, by_position=True))
        if s.turn and not p.get("by") and s.phase in PRE_MAIN:
            s.phase = "draw"
            s.extra["turn_info"]["drawn"] = s.extra["turn_info"].get("drawn", 0) + p.get("count", 1)

    def apply_mulligan(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        T.pinfo(s, p["player"])["mulligan"] = p.get("decision", "mulligan")
        if p.get("decision", "mulligan") == "mulligan" and p.get("return_hand", True):
            for card in s.zones[p["player"]]["hand"]:
                card.code = None  # shuffled back: no longer known
                s.put(p["player"], "deck", card)
            s.zones[p["player"]]["hand"] = []

    @staticmethod
    def life_count(s: TableState, p: dict) -> int | None:
        """A `life.placed` event's Life cards: as recorded, else as many as it names, else the
        Leader's Life (遊戲的準備 ⑥: 和自己領航卡生命值相同的卡片張數), else unknown (None)."""
        if p.get("count") is not None:
            return p["count"]
        if p.get("cards"):
            return len(p["cards"])
        return T.leader_life(s, p["player"])

    def apply_life_placed(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        named = list(p.get("cards", ()))
        n = self.life_count(s, p)
        if n is None:  # flagged by check: how many is not known, so neither is the Life from now on
            T.pinfo(s, p["player"])["life_unknown"] = True
            return
        T.pinfo(s, p["player"]).pop("life_unknown", None)
        for i in range(n):
            code = named[i] if i < len(named) else None
            card = T.take_hidden(s, p["player"], "deck", "life", code=code, by_position=True)
            s.put(p["player"], "life", card)  # each on top: the deck's first card ends at the bottom

    def apply_turn(self, s: TableState, e: RecordedEvent) -> None:
        player = e.payload["player"]
        self._close_battle(s)
        T.expire_mods(s, "turn")
        if s.turn == 0:
            for p in s.players:
                if not s.zone(p, "life"):
                    # no Life placed at the set-up (none recorded, or voided): unknown, not 0
                    T.pinfo(s, p)["life_unknown"] = True
        s.turn += 1
        s.active = player
        s.phase = "refresh"
        info = T.pinfo(s, player)
        info["turns"] = info.get("turns", 0) + 1
        s.extra["turn_info"] = {"player": player, "don": 0, "drawn": 0, "refreshed": False,
                                "don_deck": len(s.zone(player, "don_deck")), "own_turn": info["turns"],
                                "once": [], "triggers": []}

    def apply_refresh(self, s: TableState, e: RecordedEvent) -> None:
        player = e.payload["player"]
        for don in list(s.zone(player, "attached")):
            T.detach(s, player, don, rested=self.opts["refresh_don"] == "rested")
        for z in ("leader", "characters", "stage", "cost"):
            for c in s.zone(player, z):
                T.set_rested(c, False)
        s.phase = "refresh"
        s.extra["turn_info"]["refreshed"] = True

    def apply_phase(self, s: TableState, e: RecordedEvent) -> None:
        s.phase = e.payload["name"]

    @staticmethod
    def phase_don(s: TableState) -> int:
        """DON!! the DON!! phase gives: 2, and 1 in the first player's first turn (game turn 1)."""
        return 1 if s.turn == 1 else 2

    def don_due(self, s: TableState, player: str) -> int | None:
        """The DON!! this turn's DON!! phase gives `player`: the manual's count, fewer when the DON!!
        deck runs out; None when the deck is not registered: its DON!! deck is unknown, so only the
        manual's count bounds it (QA76: every DON!! phase read "the manual gives 0")."""
        if not s.extra.get("players", {}).get(player, {}).get("leader"):  # read only: a check changes no state
            return None
        return min(self.phase_don(s), s.extra.get("turn_info", {}).get("don_deck", 0))

    def don_count(self, s: TableState, p: dict) -> int:
        """A `don` event's DON!!: as recorded, or (no count) what the DON!! phase gives now."""
        return p["count"] if p.get("count") is not None else self.phase_don(s)

    def apply_don(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        n = self.don_count(s, p)
        for _ in range(n):
            if not s.zone(p["player"], "don_deck"):
                break
            don = s.take(p["player"], "don_deck")
            T.set_rested(don, p.get("rested", False))
            s.put(p["player"], "cost", don)
        if not p.get("by") and s.phase in PRE_MAIN:
            s.phase = "don"
            s.extra["turn_info"]["don"] = s.extra["turn_info"].get("don", 0) + n

    def _enter_main(self, s: TableState, e: RecordedEvent) -> None:
        if s.phase in PRE_MAIN and e.payload.get("player") == s.active:
            s.phase = "main"

    def apply_play(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        if not p.get("by"):
            self._enter_main(s, e)
        self._close_battle_if_done(s)
        area = self._area(s, p)
        dest = {"event": "trash", "stage": "stage"}.get(area, "characters")
        card = T.take_hidden(s, player, "hand", dest, uid=p.get("uid"), code=p["card"])
        T.rest_don(s, player, self._paid(s, p))
        if area == "event":
            s.put(player, "trash", card)
            return
        if area == "stage":
            for old in list(s.zone(player, "stage")):
                s.zone(player, "stage").remove(old)
                T.leave_field(s, player, old)
                s.put(player, "trash", old)
        if p.get("trash_uid"):
            hit = T.locate(s, player, ("characters",), uid=p["trash_uid"])
            if hit:
                s.zone(player, "characters").remove(hit[1])
                T.leave_field(s, player, hit[1])
                s.put(player, "trash", hit[1])
        card.props["played_turn"] = s.turn
        T.set_rested(card, p.get("rested", False))
        s.put(player, dest, card)

    def _paid(self, s: TableState, p: dict) -> int:
        if p.get("paid") is not None:
            return p["paid"]
        if p.get("by"):
            return 0
        cost = T.facts(s, p.get("card")).get("cost")
        return cost if isinstance(cost, int) else 0

    def _area(self, s: TableState, p: dict) -> str:
        cat = T.category(s, p.get("card"))
        if cat in ("character", "stage", "event"):
            return cat
        return p.get("area") or "character"

    def apply_don_rest(self, s: TableState, e: RecordedEvent) -> None:
        T.rest_don(s, e.payload["player"], e.payload.get("count", 1))

    def apply_don_activate(self, s: TableState, e: RecordedEvent) -> None:
        for c in T.cost_don(s, e.payload["player"], rested=True)[: e.payload.get("count", 1)]:
            T.set_rested(c, False)

    def apply_don_attach(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        if not p.get("by"):
            self._enter_main(s, e)
        target = self._own_field_card(s, player, p.get("to"), p.get("card"))
        pool = T.cost_don(s, player, rested=bool(p.get("rested")))
        for _ in range(p.get("count", 1)):
            don = pool.pop(0) if pool else (T.cost_don(s, player) or [None])[0]
            if don is None:
                don = s.new_card(player, T.DON)  # flagged by check: no DON!! to attach
            else:
                s.zone(player, "cost").remove(don)
            T.set_rested(don, False)
            don.props["on"] = target.uid if target else None
            s.put(player, "attached", don)

    def apply_don_detach(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        carrier = self._own_field_card(s, player, p.get("uid"), p.get("card"))
        pool = T.attached_to(s, player, carrier.uid) if carrier else []
        pool = pool or list(s.zone(player, "attached"))
        for don in pool[: p.get("count", 1)]:
            T.detach(s, player, don, rested=p.get("rested", True))

    def apply_don_minus(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        first = ["cost", "attached"] if p.get("source", "cost") == "cost" else ["attached", "cost"]
        for _ in range(p.get("count", 1)):
            for z in first:
                if s.zone(player, z):
                    don = s.zone(player, z).pop()
                    don.props.clear()
                    s.put(player, "don_deck", don)
                    break

    def apply_effect(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        if p.get("timing") in ("main", "activate_main") and s.active == player:
            self._enter_main(s, e)
        T.rest_don(s, player, p.get("rest_don", 0))
        if p.get("don_minus"):
            self.apply_don_minus(s, RecordedEvent.seal(
                match=e.match, position=e.position, kind="don.minus", version=1, actor=e.actor,
                payload={"player": player, "count": p["don_minus"]}, recorded_at="", recorded_by="", prev_hash=""))
        if p.get("once_per_turn"):
            s.extra["turn_info"].setdefault("once", []).append(self._once_key(p))

    @staticmethod
    def _once_key(p: dict) -> str:
        return f"{p['player']}:{p.get('uid') or p['card']}:{p.get('timing', 'other')}"

    def apply_rest(self, s: TableState, e: RecordedEvent) -> None:
        hit = self._field_card(s, e.payload["player"], e.payload.get("uid"), e.payload.get("card"), rested=False)
        if hit:
            T.set_rested(hit, True)

    def apply_set_active(self, s: TableState, e: RecordedEvent) -> None:
        hit = self._field_card(s, e.payload["player"], e.payload.get("uid"), e.payload.get("card"), rested=True)
        if hit:
            T.set_rested(hit, False)

    def apply_power_mod(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        card = self._field_card(s, p["player"], p.get("uid"), p.get("card"))
        if card is not None:
            s.extra["mods"].append({"uid": card.uid, "amount": p["amount"], "duration": p.get("duration", "turn"),
                                    "by": p.get("by"), "position": e.position})

    def apply_keyword_gain(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        card = self._field_card(s, p["player"], p.get("uid"), p.get("card"))
        if card is not None:
            # for the rest of this turn: T.card_has_keyword compares the turn
            card.props["gained"] = {**card.props.get("gained", {}), p["keyword"]: s.turn}

    def apply_attack(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        self._enter_main(s, e)
        self._close_battle(s)
        attacker = self._own_field_card(s, player, p.get("attacker_uid"), p.get("attacker"), rested=False)
        defender = T.opponent(s, player)
        target = self._target(s, defender, p.get("target_uid"), p.get("target"))
        if attacker:
            T.set_rested(attacker, True)
        s.extra["battles"] = s.extra.get("battles", 0) + 1
        s.extra["battle"] = {"id": s.extra["battles"], "attacker": attacker.uid if attacker else None,
                             "attacker_code": attacker.code if attacker else p.get("attacker"),
                             "attacker_player": player, "target": target.uid if target else None,
                             "target_code": target.code if target else p.get("target"),
                             "defender": defender, "step": "attack", "blocked": False,
                             "result": None, "damage": 0, "taken": 0, "ko": False, "position": e.position}

    def apply_block(self, s: TableState, e: RecordedEvent) -> None:
        b = s.extra.get("battle")
        blocker = self._field_card(s, e.payload["player"], e.payload.get("uid"), e.payload.get("card"), rested=False,
                                   zones=("characters",))
        if blocker:
            T.set_rested(blocker, True)
        if b:
            b.update({"blocked": True, "step": "block"})
            if blocker:
                b.update({"target": blocker.uid, "target_code": blocker.code})

    def apply_counter(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        b = s.extra.get("battle")
        s.put(player, "trash", T.take_hidden(s, player, "hand", "trash", code=p["card"]))
        kind = self._counter_kind(s, p)
        if kind == "event":
            T.rest_don(s, player, self._counter_paid(s, p))
        amount = p.get("amount")
        if amount is None and kind == "character":
            amount = T.facts(s, p["card"]).get("counter")
        target = self._field_card(s, player, p.get("target_uid"), p.get("target")) if (p.get("target_uid") or p.get("target")) \
            else (T.where_is(s, b["target"])[2] if b and b.get("target") and T.where_is(s, b["target"]) else None)
        if amount and target is not None:
            s.extra["mods"].append({"uid": target.uid, "amount": amount, "duration": "battle",
                                    "by": f"counter {p['card']}", "position": e.position})
        if b:
            b["step"] = "counter"

    def _counter_kind(self, s: TableState, p: dict) -> str:
        if p.get("kind"):
            return p["kind"]
        return "event" if T.category(s, p["card"]) == "event" else "character"

    def _counter_paid(self, s: TableState, p: dict) -> int:
        if p.get("paid") is not None:
            return p["paid"]
        cost = T.facts(s, p["card"]).get("cost")
        return cost if isinstance(cost, int) else 0

    def apply_damage_step(self, s: TableState, e: RecordedEvent) -> None:
        b = s.extra.get("battle")
        if not b:
            return
        a_pow, t_pow = self._battle_powers(s, b, e.payload)
        b["step"] = "damage"
        b["damage_at"] = e.position
        if a_pow is None or t_pow is None:
            b["result"] = "unknown"
            return
        target = T.where_is(s, b["target"]) if b.get("target") else None
        hits_leader = target is not None and target[1] == "leader"
        if a_pow < t_pow:
            b["result"] = "fails"
        elif hits_leader:
            b["result"] = "hit"
            b["damage"] = 2 if T.battle_attacker_has(s, b, "double attack") else 1
            if not s.zone(b["defender"], "life"):
                # 若對手的領航卡的生命值卡 0 張…進行攻擊的玩家即遊戲獲勝: a battle won against a Leader
                # with 0 Life. (With Life left, each point of damage is its own step: life.taken.)
                self._leader_loses(s, b, e)
        else:
            b["result"] = "ko"

    def _battle_powers(self, s: TableState, b: dict, p: dict) -> tuple[int | None, int | None]:
        derived = self._derived_powers(s, b)
        a = p.get("attacker_power") if p.get("attacker_power") is not None else derived[0]
        t = p.get("target_power") if p.get("target_power") is not None else derived[1]
        return a, t

    def _derived_powers(self, s: TableState, b: dict) -> tuple[int | None, int | None]:
        out: list[int | None] = []
        for key in ("attacker", "target"):
            hit = T.where_is(s, b[key]) if b.get(key) else None
            out.append(T.power(s, hit[0], hit[2]) if hit and hit[1] in T.FIELD else None)
        return out[0], out[1]

    def apply_life_taken(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        player = p["player"]
        b = self._damage_point(s, e)
        if b is not None:
            due = b.get("result") == "unknown" or self._points_left(b)
            b["taken"] = b.get("taken", 0) + 1
            if due and not s.zone(player, "life"):
                # 在生命值卡0張時，若領航卡受到傷害，即輸掉遊戲: this point of damage finds no Life card
                self._leader_loses(s, b, e)
                return
        if not s.zone(player, "life"):
            return  # no Life card to take (flagged): nothing moves
        dest = "hand" if p.get("to", "hand") == "hand" else "trash"
        card = T.take_hidden(s, player, "life", dest, code=p.get("card"), by_position=True)  # the top card
        s.put(player, dest, card)
        s.extra["last_life_taken"] = {"player": player, "turn": s.turn, "position": e.position}
        if p.get("to") == "trigger":
            s.extra["turn_info"].setdefault("triggers", []).append(card.code)

    def _damage_point(self, s: TableState, e: RecordedEvent) -> dict | None:
        """The battle whose damage this `life.taken` deals, if it is one (not an effect's `by`)."""
        b = s.extra.get("battle")
        if b and b.get("defender") == e.payload["player"] and not e.payload.get("by") and b.get("step") == "damage":
            return b
        return None

    @staticmethod
    def _points_left(b: dict) -> bool:
        """Has this battle damage still to deal? (A hit deals 1 or 2; an unknown result: as recorded.)"""
        return b.get("result") == "hit" and b.get("taken", 0) < b.get("damage", 1)

    def _leader_loses(self, s: TableState, b: dict, e: RecordedEvent) -> None:
        # a Leader whose Life count was never recorded is not known to have 0 Life: no result
        if s.result is None and T.life_known(s, b["defender"]):
            s.result = {"result": "win", "winner": b["attacker_player"], "how": "life",
                        "loser": b["defender"], "position": e.position}

    def _pending_loss(self, s: TableState, e: RecordedEvent) -> dict | None:
        """A point of damage still due to a Leader with 0 Life, when `e` moves the game past it (the
        damage procedure runs once per point, 每1傷害反覆進行; a [Trigger] may add a Life card in
        between, so the loss is decided when the next point comes, not when the last card is taken)."""
        b = s.extra.get("battle")
        if s.result is not None or not b or b.get("step") != "damage" or not self._points_left(b):
            return None
        if not T.life_known(s, b["defender"]):
            return None
        if s.zone(b["defender"], "life") or not self._moves_on(e):
            return None
        return b

    @staticmethod
    def _moves_on(e: RecordedEvent) -> bool:
        """Does this event come after the damage is resolved? A Life card taken, a [Trigger] or any
        effect's result (`by`), a reveal, a note or a judge's act may still belong to it."""
        if e.kind in OFF_TABLE_KINDS or e.kind in ("life.taken", "effect", "reveal", "annotation", "log.count",
                                                   "shuffle", "player.named"):
            return False
        return not e.payload.get("by")

    def apply_ko(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        card = self._field_card(s, p["player"], p.get("uid"), p.get("card"), zones=("characters",))
        if card is None:
            return
        s.zone(p["player"], "characters").remove(card)
        T.leave_field(s, p["player"], card)
        s.put(p["player"], "trash", card)
        b = s.extra.get("battle")
        if b and b.get("target") == card.uid and not p.get("by"):
            b["ko"] = True

    def apply_trash(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        self._move(s, p["player"], p.get("from_zone", "hand"), "trash", p.get("uid"), p.get("card"), "top")

    def apply_move(self, s: TableState, e: RecordedEvent) -> None:
        p = e.payload
        self._move(s, p["player"], p["from_zone"], p["to_zone"], p.get("uid"), p.get("card"), p.get("where", "top"))

    def _move(self, s: TableState, player: str, src: str, dst: str, uid: str | None, code: str | None,
              where: str) -> None:
        if src in T.FIELD:
            hit = T.locate(s, player, (src,), uid=uid, code=code, prefer=lambda c: not T.is_rested(c))
            card = hit[1] if hit else T.take(s, player, src)
            if hit:
                s.zone(player, src).remove(card)
            T.leave_field(s, player, card)
        elif src in T.FACE_DOWN:
            card = T.take_hidden(s, player, src, dst, uid=uid, code=code)
        else:
            card = T.take(s, player, src, uid=uid, code=code)
            if code and not card.code:
                card.code = code
        if dst in ("characters", "stage") and src not in T.FIELD:
            card.props["played_turn"] = s.turn  # it comes onto the field (登場) now: [Rush] counts from here
        # Into the Life area or a hand the card keeps its name (whoever saw it go there knows it); into
        # the deck it does not (T.FACE_DOWN.put: effects rearrange the deck without a record).
        T.FACE_DOWN.put(s, player, dst, card, where)

    def apply_reveal(self, s: TableState, e: RecordedEvent) -> None:
        for card in H.revealed(s, e.payload)[0]:
            card.code = e.payload["card"]

    def apply_shuffle(self, s: TableState, e: RecordedEvent) -> None:
        # A shuffled zone's order is unknown: which card is where is no longer known either.
        p = e.payload
        zone = p.get("zone", "deck")
        if zone in T.FACE_DOWN:
            forget(s.zone(p["player"], zone))
        s.extra.setdefault("shuffles", {})[p["player"]] = e.position

    def apply_battle_end(self, s: TableState, e: RecordedEvent) -> None:
        self._close_battle(s)

    def apply_turn_end(self, s: TableState, e: RecordedEvent) -> None:
        self._close_battle(s)
        s.phase = "end"
        T.expire_mods(s, "turn")

    def apply_concede(self, s: TableState, e: RecordedEvent) -> None:
        if s.result is None:
            loser = e.payload["player"]
            s.result = {"result": "win", "winner": T.opponent(s, loser), "how": "concession",
                        "loser": loser, "position": e.position}

    def apply_game_end(self, s: TableState, e: RecordedEvent) -> None:
        if s.result is None:
            w = e.payload.get("winner")
            s.result = {"result": "win" if w else "draw", "winner": w, "how": e.payload["how"],
                        "position": e.position, "announced": True}

    def apply_time_decision(self, s: TableState, e: RecordedEvent) -> None:
        if s.result is None:
            p = e.payload
            if p["result"] != "continue":
                s.result = {"result": p["result"], "winner": p.get("winner"), "how": "time",
                            "position": e.position, "branch": p.get("branch")}

    # --- battle bookkeeping ------------------------------------------------------------------

    def _close_battle(self, s: TableState) -> None:
        if s.extra.get("battle"):
            s.extra["last_battle"] = s.extra["battle"]
            s.extra["battle"] = None
            T.expire_mods(s, "battle")

    def _close_battle_if_done(self, s: TableState) -> None:
        b = s.extra.get("battle")
        if b and b.get("step") == "damage":
            self._close_battle(s)

    # --- finding cards -----------------------------------------------------------------------

    def _own_field_card(self, s: TableState, player: str, uid: str | None, code: str | None,
                        rested: bool | None = None) -> Card | None:
        hit = T.locate(s, player, ("leader", "characters"), uid=uid, code=code,
                       prefer=None if rested is None else (lambda c: T.is_rested(c) == rested))
        return hit[1] if hit else None

    def _field_card(self, s: TableState, player: str, uid: str | None, code: str | None,
                    rested: bool | None = None, zones: tuple[str, ...] = T.FIELD) -> Card | None:
        hit = T.locate(s, player, zones, uid=uid, code=code,
                       prefer=None if rested is None else (lambda c: T.is_rested(c) == rested))
        return hit[1] if hit else None

    def _target(self, s: TableState, defender: str, uid: str | None, code: str | None) -> Card | None:
        if uid:
            hit = T.locate(s, defender, ("leader", "characters"), uid=uid)
            return hit[1] if hit else None
        leader = s.zone(defender, "leader")
        if leader and leader[0].code == code:
            return leader[0]
        hit = T.locate(s, defender, ("characters",), code=code, prefer=T.is_rested)
        return hit[1] if hit else None

    # ============================================================================ check

    def check(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        out: list[Finding] = []
        r = self._result_by(s, e)
        if r is not None and e.kind not in AFTER_END_OK and r.get("how") in ("life", "deck-out") \
                and not (r.get("position") == e.position and e.kind == "battle.end"):
            rule = "OPTCG-WIN-1" if r["how"] == "life" else "OPTCG-WIN-2"
            b = s.extra.get("battle")
            if e.kind == "life.taken" and b and r.get("position") == b.get("damage_at"):
                rule = "OPTCG-BATTLE-14"  # hit with 0 Life: the game ended at the damage step
            when = "at this point" if r.get("position") == e.position else f"at event {r.get('position')}"
            out.append(self.flag(rule, e, f"{e.kind} recorded after the game ended: {r['winner']} won "
                                          f"by {r['how']} {when}"))
        if e.kind in MAIN_ACTIONS or e.kind == "turn.end":
            out += self._phase_findings(s, e)
        out += H.copies_findings(self, s, e)
        return out + super().check(s, e, history)

    def _result_by(self, s: TableState, e: RecordedEvent) -> dict | None:
        """The game's result as it stands when `e` happens: decided already, or decided by `e` moving
        past a point of damage due to a Leader with 0 Life."""
        if s.result is not None:
            return s.result
        b = self._pending_loss(s, e)
        if b is None:
            return None
        return {"result": "win", "winner": b["attacker_player"], "how": "life", "loser": b["defender"],
                "position": e.position}

    def check_reveal(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        return H.reveal_findings(self, s, e)
    def _phase_findings(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        """Leaving the refresh/draw/DON!! phases: were they done as the manual says?"""
        p = e.payload
        player = p.get("player")
        out: list[Finding] = []
        if p.get("by") or s.phase not in PRE_MAIN or player != s.active:
            return out
        ti = s.extra.get("turn_info", {})
        if not ti.get("refreshed") and (s.zone(player, "attached") or self._rested_cards(s, player)):
            out.append(self.flag("OPTCG-FLOW-1", e, f"{player}'s refresh phase was skipped: "
                                 f"{len(s.zone(player, 'attached'))} DON!! still attached, "
                                 f"{self._rested_cards(s, player)} card(s) still rested"))
        if s.turn > 1 and ti.get("drawn", 0) == 0 and s.zone(player, "deck"):
            out.append(self.flag("OPTCG-FLOW-2", e, f"{player} did not draw in the draw phase of turn {s.turn}"))
        expected = self.don_due(s, player)  # None: fewer may be all an unknown DON!! deck had
        if expected is not None and ti.get("don", 0) < expected:
            out.append(self.flag("OPTCG-FLOW-3", e, f"{player} took {ti.get('don', 0)} DON!! in the DON!! phase "
                                 f"of turn {s.turn}; the manual gives {expected}"))
        return out

    def _rested_cards(self, s: TableState, player: str) -> int:
        return sum(1 for z in ("leader", "characters", "stage", "cost") for c in s.zone(player, z) if T.is_rested(c))

    def _main_findings(self, s: TableState, e: RecordedEvent, what: str, rule: str = "OPTCG-FLOW-4") -> list[Finding]:
        player = e.payload["player"]
        if s.turn < 1:
            return [self.flag(rule, e, f"{what} before the game began (no turn has started)")]
        if player != s.active:
            return [self.flag(rule, e, f"{what} by {player} during {s.active}'s turn")]
        if s.phase == "end":
            return [self.flag(rule, e, f"{what} after {player}'s main phase ended")]
        b = s.extra.get("battle")
        if b and b.get("step") != "damage" and e.kind != "attack":
            return [self.flag(rule, e, f"{what} in the middle of a battle (before its damage step)")]
        return []

    # --- setup ------------------------------------------------------------------------------

    def check_deck_registered(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        out = []
        if T.pinfo(s, p["player"]).get("leader"):
            out.append(self.flag("OPTCG-ZONE-1", e, f"{p['player']} registers a second Leader/deck"))
        if s.turn >= 1:
            out.append(self.flag("OPTCG-ZONE-1", e, "a deck registered after the game began"))
        out += [self._relocate(f, e) for f in
                check_deck(self, p["player"], p["leader"], list(p.get("deck", [])), p.get("cards", {}),
                           deck_size=p.get("deck_size"), don=p.get("don", 10))]
        return out

    @staticmethod
    def _relocate(f: Finding, e: RecordedEvent) -> Finding:
        from dataclasses import replace
        return replace(f, position=e.position)

    def check_turn_order(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        return []

    def check_draw(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player, n = p["player"], p.get("count", 1)
        out = H.top_cards_findings(self, s, e)
        if not T.deck_known(s, player):
            if s.turn < 1 and not s.zone(player, "hand") and not T.pinfo(s, player).get("mulligan"):
                out.append(self._unregistered(s, e, player))  # said once, at the opening draw
        elif len(s.zone(player, "deck")) < n:
            out.append(self.flag("OPTCG-WIN-2", e, f"{player} draws {n} from a deck of {len(s.zone(player, 'deck'))}"))
        if p.get("by"):
            return out
        if s.turn < 1:
            if len(s.zone(player, "hand")) + n > 5:
                out.append(self.flag("OPTCG-SETUP-4", e, f"{player}'s opening hand would be "
                                     f"{len(s.zone(player, 'hand')) + n} cards; it is 5"))
            return out
        if player != s.active:
            out.append(self.flag("OPTCG-FLOW-2", e, f"{player} draws during {s.active}'s turn"))
        elif s.turn == 1:
            out.append(self.flag("OPTCG-FLOW-2", e, "the first player does not draw in the first turn"))
        elif s.phase not in PRE_MAIN:
            out.append(self.flag("OPTCG-FLOW-2", e, f"{player} draws in the {s.phase} phase without an effect"))
        elif s.extra["turn_info"].get("drawn", 0) + n > 1:
            out.append(self.flag("OPTCG-FLOW-2", e, f"{player} draws {s.extra['turn_info'].get('drawn', 0) + n} "
                                 "cards in the draw phase; the manual says 1"))
        ti = s.extra.get("turn_info", {})
        if player == s.active and not ti.get("refreshed") and (s.zone(player, "attached") or self._rested_cards(s, player)):
            out.append(self.flag("OPTCG-FLOW-1", e, f"{player} draws without the refresh phase: "
                                 f"{len(s.zone(player, 'attached'))} DON!! attached, "
                                 f"{self._rested_cards(s, player)} card(s) rested"))
        return out

    def _unregistered(self, s: TableState, e: RecordedEvent, player: str) -> Finding:
        """A deck whose size was never recorded: no deck-out is derived from it (a warning, not an
        error: the table may be right; the record does not say)."""
        why = "the Leader alone was registered" if T.pinfo(s, player).get("leader") else "it was never registered"
        return self.flag("OPTCG-DECK-2", e, f"{player}'s deck size is unknown ({why}): no deck-out is derived; "
                         f"record `deck LEADER deck_size=50` for {player} before the first turn",
                         severity="warning")

    def check_mulligan(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        out = []
        if s.turn >= 1:
            return [self.flag("OPTCG-SETUP-5", e, f"{player}'s mulligan decision after the game began")]
        if T.pinfo(s, player).get("mulligan"):
            out.append(self.flag("OPTCG-SETUP-5", e, f"{player} already decided ({T.pinfo(s, player)['mulligan']}); "
                                 "each player has one mulligan"))
        first = s.extra.get("first")
        if first and player != first and not T.pinfo(s, first).get("mulligan"):
            out.append(self.flag("OPTCG-SETUP-5", e, f"{player} decides before the first player {first}"))
        if s.zone(player, "life"):
            out.append(self.flag("OPTCG-SETUP-6", e, f"{player} decides on a mulligan after placing Life"))
        return out

    def check_life_placed(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        life = T.leader_life(s, player)
        have = len(s.zone(player, "life"))
        n = self.life_count(s, p)
        out = H.top_cards_findings(self, s, e)
        if s.turn >= 1 and not p.get("by"):
            out.append(self.flag("OPTCG-SETUP-6", e, f"{player} places Life after the game began (a judge's fix "
                                 "of the Life area names itself in 'by')"))
        if n is None:
            out.append(self.flag("OPTCG-SETUP-6", e, f"how many Life cards {player} placed is not recorded, and the "
                                 "Leader's Life is not known (no Leader registered, or no card data): record "
                                 "`life N`; until then no win by Life is derived against " + player))
        elif life is not None and have + n > life:
            out.append(self.flag("OPTCG-SETUP-6", e, f"{player} would have {have + n} Life; "
                                 f"the Leader's Life is {life}"))
        return out

    def check_turn(self, s: TableState, e: RecordedEvent, history: History | None = None) -> list[Finding]:
        player = e.payload["player"]
        out = []
        if s.turn == 0:
            first = s.extra.get("first")
            if first and player != first:
                out.append(self.flag("OPTCG-SETUP-7", e, f"{player} takes the first turn, but {first} goes first"))
            for p in s.players:
                life = T.leader_life(s, p)
                if not T.deck_known(s, p) and not T.pinfo(s, p).get("leader"):
                    out.append(self._unregistered(s, e, p))
                if not s.zone(p, "life"):
                    out.append(self.flag("OPTCG-SETUP-6", e, f"no Life placed by {p} at the set-up (none recorded, or "
                                         f"voided): {p}'s Life is unknown, so no win by Life is derived against "
                                         f"{p}", severity="warning"))
                elif life is not None and len(s.zone(p, "life")) != life:
                    # said here, not at the placement: placing fewer is no fault until the game
                    # starts with them (a second placement may follow); the words send the judge
                    # to the placement to correct (QA76 #6)
                    out.append(self.flag("OPTCG-SETUP-6", e, f"{p} starts with {len(s.zone(p, 'life'))} Life; "
                                         f"the Leader's Life is {life} (the set-up is checked as the first "
                                         f"turn begins: correct {self._placements(p, history)}, not this turn)"))
                if T.pinfo(s, p).get("leader") and len(s.zone(p, "hand")) != 5:
                    out.append(self.flag("OPTCG-SETUP-4", e, f"{p} starts with {len(s.zone(p, 'hand'))} cards in hand"))
        elif player == s.active:
            out.append(self.flag("OPTCG-END-3", e, f"{player} takes two turns in a row"))
        return out

    @staticmethod
    def _placements(player: str, history: History | None) -> str:
        """`player`'s Life placements as the words name them: by position when the events before
        are known (the table keeps no positions), else as 'the life.placed before this event'."""
        events = history() if history is not None else None
        at = [x.position for x in events or () if x.kind == "life.placed" and x.payload.get("player") == player]
        if not at:
            return f"{player}'s Life placement, the life.placed before this event"
        if len(at) == 1:
            return f"{player}'s Life placement at event {at[0]}"
        return f"{player}'s Life placements at events {', '.join(map(str, at[:-1]))} and {at[-1]}"

    def check_refresh(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        player = e.payload["player"]
        if player != s.active or s.phase != "refresh":
            return [self.flag("OPTCG-FLOW-1", e, f"{player}'s refresh outside the start of their own turn "
                              f"(active {s.active}, phase {s.phase})")]
        return []

    def check_don(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player, n = p["player"], self.don_count(s, p)
        out = []
        due = self.don_due(s, player)
        unregistered = f" ({player}'s deck is not registered: its DON!! deck is unknown)" if due is None else ""
        if due is not None and len(s.zone(player, "don_deck")) < n:  # unregistered: OPTCG-DECK-2 says so
            out.append(self.flag("OPTCG-DECK-5", e, f"{player} takes {n} DON!! from a DON!! deck of "
                                 f"{len(s.zone(player, 'don_deck'))}"))
        if p.get("by"):
            return out
        ti = s.extra.get("turn_info", {})
        expected = self.phase_don(s) if due is None else due
        if player != s.active or s.phase not in PRE_MAIN:
            out.append(self.flag("OPTCG-FLOW-3", e, f"{player} takes DON!! outside their DON!! phase"))
        elif ti.get("don", 0) + n > expected:
            out.append(self.flag("OPTCG-FLOW-3", e, f"{player} takes {ti.get('don', 0) + n} DON!! in turn {s.turn}; "
                                 f"the manual gives {expected}{unregistered}"))
        if p.get("rested"):
            out.append(self.flag("OPTCG-FLOW-3", e, "DON!! from the DON!! phase are placed active"))
        return out

    # --- main phase --------------------------------------------------------------------------

    def check_play(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        area = self._area(s, p)
        out = []
        if not p.get("by"):
            out += self._main_findings(s, e, f"playing {p['card']}")
        # From a hand the recorder cannot see (unknown cards), any card may be the one played.
        in_hand = (T.locate(s, player, ("hand",), uid=p["uid"]) if p.get("uid")
                   else T.FACE_DOWN.could_be(s, player, "hand", p["card"]))
        if not in_hand:
            rule = {"stage": "OPTCG-PLAY-3", "event": "OPTCG-PLAY-4"}.get(area, "OPTCG-PLAY-1")
            out.append(self.flag(rule, e, f"{p['card']} is not in {player}'s hand"))
        if p.get("rested") and not p.get("by"):
            out.append(self.flag("OPTCG-STATE-1", e, f"{p['card']} is played rested; cards enter active"))
        cost = T.facts(s, p["card"]).get("cost")
        if not p.get("by"):
            paid = self._paid(s, p)
            if isinstance(cost, int) and paid < cost:
                out.append(self.flag("OPTCG-CARD-1", e, f"{p['card']} costs {cost}; {paid} paid"))
            active = len(T.cost_don(s, player, rested=False))
            if paid > active:
                out.append(self.flag("OPTCG-COST-1", e, f"{player} pays {paid} with {active} active DON!! "
                                     "in the cost area"))
        if area == "character":
            n = len(s.zone(player, "characters"))
            room = p.get("trash_uid") and T.locate(s, player, ("characters",), uid=p["trash_uid"])
            if n >= 5 and not room:
                out.append(self.flag("OPTCG-PLAY-2", e, f"{player} already has {n} Characters; "
                                     "one must be trashed first (trash_uid)"))
        if T.category(s, p["card"]) == "leader":
            out.append(self.flag("OPTCG-PLAY-1", e, f"{p['card']} is a Leader; it cannot be played"))
        return out

    def check_don_rest(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        active = len(T.cost_don(s, p["player"], rested=False))
        if p.get("count", 1) > active:
            return [self.flag("OPTCG-COST-1", e, f"{p['player']} rests {p.get('count', 1)} DON!! with {active} active")]
        return []

    def check_don_activate(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        return self._active_only_by_effect(e, "DON!! become")

    def check_don_attach(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        out = []
        if not p.get("by"):
            out += self._main_findings(s, e, "attaching DON!!")
        pool = T.cost_don(s, player, rested=bool(p.get("rested")))
        if len(pool) < p.get("count", 1):
            out.append(self.flag("OPTCG-DON-1", e, f"{player} attaches {p.get('count', 1)} DON!! with "
                                 f"{len(pool)} {'rested' if p.get('rested') else 'active'} in the cost area"))
        if p.get("rested") and not p.get("by"):
            out.append(self.flag("OPTCG-DON-1", e, "only active DON!! are attached (unless an effect says so)"))
        if self._own_field_card(s, player, p.get("to"), p.get("card")) is None:
            out.append(self.flag("OPTCG-DON-1", e, f"{p.get('to') or p.get('card')} is not {player}'s Leader "
                                 "or Character"))
        return out

    def check_don_detach(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        out = []
        if not s.zone(p["player"], "attached"):
            out.append(self.flag("OPTCG-LEAVE-1", e, f"{p['player']} has no attached DON!!"))
        if not p.get("rested", True) and not p.get("by") and s.phase != "refresh":
            out.append(self.flag("OPTCG-LEAVE-1", e, "attached DON!! return to the cost area rested "
                                 "(active only in the refresh phase)"))
        return out

    def check_don_minus(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        have = len(s.zone(p["player"], "cost")) + len(s.zone(p["player"], "attached"))
        if p.get("count", 1) > have:
            return [self.flag("OPTCG-TERM-10", e, f"DON!! −{p.get('count', 1)} with {have} DON!! on the field")]
        return []

    def check_effect(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player, timing = p["player"], p.get("timing", "other")
        out: list[Finding] = []
        b = s.extra.get("battle")
        card = self._field_card(s, player, p.get("uid"), p.get("card"))
        if timing in ("activate_main", "main"):
            rule = "OPTCG-TERM-2" if timing == "activate_main" else "OPTCG-TERM-5"
            out += self._main_findings(s, e, f"[{'Activate: Main' if timing == 'activate_main' else 'Main'}] of {p['card']}", rule)
        elif timing == "on_play":
            if card is None or card.props.get("played_turn") != s.turn:
                if T.category(s, p["card"]) != "event":
                    out.append(self.flag("OPTCG-TERM-1", e, f"[On Play] of {p['card']}, which was not played this turn"))
        elif timing == "when_attacking":
            if not b or b.get("step") != "attack" or b.get("attacker_player") != player or \
                    (b.get("attacker_code") and b.get("attacker_code") != p["card"] and not p.get("uid")):
                out.append(self.flag("OPTCG-BATTLE-3", e, f"[When Attacking] of {p['card']} outside its attack declaration"))
        elif timing == "counter":
            if not b or b.get("defender") != player or b.get("step") == "damage":
                out.append(self.flag("OPTCG-TERM-6", e, f"[Counter] of {p['card']} outside the defender's counter step"))
        elif timing == "trigger":
            revealed = s.extra.get("turn_info", {}).get("triggers", [])
            if p["card"] not in revealed and None not in revealed:  # an unnamed one could be it
                out.append(self.flag("OPTCG-CARD-3", e, f"[Trigger] of {p['card']}, which was not revealed from Life"))
        elif timing == "end_of_turn":
            if player != s.active:
                out.append(self.flag("OPTCG-TERM-4", e, f"[End of Your Turn] of {p['card']} in {s.active}'s turn"))
        elif timing == "during_turn":
            if player != s.active:
                out.append(self.flag("OPTCG-TERM-3", e, f"[Your Turn] effect of {p['card']} in {s.active}'s turn"))
        elif timing == "opponent_turn" and player == s.active:
            out.append(self.flag("OPTCG-TERM-3", e, f"[Opponent's Turn] effect of {p['card']} in {player}'s own turn"))
        if p.get("once_per_turn") and self._once_key(p) in s.extra.get("turn_info", {}).get("once", []):
            out.append(self.flag("OPTCG-TERM-7", e, f"[Once Per Turn] effect of {p['card']} used again this turn"))
        if p.get("don_req"):
            have = len(T.attached_to(s, player, card.uid)) if card else 0
            if have < p["don_req"]:
                out.append(self.flag("OPTCG-TERM-8", e, f"[DON!! x{p['don_req']}] of {p['card']} with {have} attached"))
        if p.get("rest_don"):
            active = len(T.cost_don(s, player, rested=False))
            if active < p["rest_don"]:
                out.append(self.flag("OPTCG-TERM-9", e, f"cost ({p['rest_don']}) with {active} active DON!!"))
        if p.get("don_minus"):
            have = len(s.zone(player, "cost")) + len(s.zone(player, "attached"))
            if have < p["don_minus"]:
                out.append(self.flag("OPTCG-TERM-10", e, f"DON!! −{p['don_minus']} with {have} DON!! on the field"))
        return out

    def check_keyword_gain(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        """Only a Leader or Character on its player's field gains a keyword (the effect names it)."""
        p = e.payload
        player = p["player"]
        if self._own_field_card(s, player, p.get("uid"), p.get("card")) is not None:
            return []
        name = p.get("card") or p.get("uid")
        if p.get("uid"):
            at = T.where_is(s, p["uid"])
            owner, zone = (at[0], at[1]) if at else (None, None)
        else:
            at2 = T.locate(s, player, T.ZONES, code=p.get("card"))
            owner, zone = (player, at2[0]) if at2 else (None, None)
        where = f" (it is in {owner}'s {zone})" if owner else ""
        return [self.flag("OPTCG-CARD-6", e, f"{name} gains [{str(p['keyword']).title()}] but is not a Leader or "
                                             f"Character on {player}'s field{where}")]

    def check_set_active(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        return self._active_only_by_effect(e, "cards become")

    def _active_only_by_effect(self, e: RecordedEvent, what: str) -> list[Finding]:
        """Outside the refresh phase, rested cards (DON!! or others) turn active only by an effect."""
        if not e.payload.get("by"):
            return [self.flag("OPTCG-FLOW-1", e, f"{what} active in the refresh phase, or by an effect "
                              "(name it in 'by')")]
        return []

    def check_move(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        if p["to_zone"] == "stage" and s.zone(p["player"], "stage"):
            return [self.flag("OPTCG-ZONE-2", e, f"{p['player']} already has a Stage")]
        if p["to_zone"] == "leader" or p["from_zone"] == "leader":
            return [self.flag("OPTCG-ZONE-1", e, "the Leader stays in the Leader area")]
        return []

    # --- battle ------------------------------------------------------------------------------

    def check_attack(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        out = self._battle_close_findings(s, e)
        out += self._main_findings(s, e, "an attack")
        if T.pinfo(s, player).get("turns", 0) <= 1 and s.turn >= 1:
            out.append(self.flag("OPTCG-BATTLE-0", e, f"{player} attacks in their first turn"))
        attacker = self._own_field_card(s, player, p.get("attacker_uid"), p.get("attacker"), rested=False)
        name = p.get("attacker") or p.get("attacker_uid")
        if attacker is None:
            out.append(self.flag("OPTCG-BATTLE-1", e, f"{name} is not {player}'s Leader or Character"))
        else:
            if T.is_rested(attacker):
                out.append(self.flag("OPTCG-BATTLE-1", e, f"{name} is rested; the attacker must be active"))
            if attacker.props.get("played_turn") == s.turn and T.card_has_keyword(s, attacker, "rush") is False:
                out.append(self.flag("OPTCG-TERM-12", e, f"{name} was played this turn and has no [Rush]"))
        defender = T.opponent(s, player)
        target = self._target(s, defender, p.get("target_uid"), p.get("target"))
        tname = p.get("target") or p.get("target_uid")
        if target is None:
            out.append(self.flag("OPTCG-BATTLE-2", e, f"{tname} is not {defender}'s Leader or Character"))
        elif target not in s.zone(defender, "leader") and not T.is_rested(target):
            out.append(self.flag("OPTCG-BATTLE-2", e, f"{tname} is an active Character; only rested ones can be attacked"))
        return out

    def check_block(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        b = s.extra.get("battle")
        name = p.get("card") or p.get("uid")
        if not b:
            return [self.flag("OPTCG-BATTLE-4", e, "a block with no attack declared")]
        out = []
        if player != b["defender"]:
            out.append(self.flag("OPTCG-BATTLE-4", e, f"{player} is not the attacked player"))
        if b.get("blocked"):
            out.append(self.flag("OPTCG-BATTLE-4", e, "this attack was already blocked: one [Blocker] per attack"))
        elif b.get("step") not in ("attack",):
            out.append(self.flag("OPTCG-BATTLE-4", e, f"a block in the {b.get('step')} step; blocks come right "
                                 "after the attack declaration"))
        blocker = self._field_card(s, player, p.get("uid"), p.get("card"), rested=False, zones=("characters",))
        if blocker is None:
            out.append(self.flag("OPTCG-BATTLE-4", e, f"{name} is not {player}'s Character"))
        else:
            if T.is_rested(blocker):
                out.append(self.flag("OPTCG-STATE-1", e, f"{name} is rested; a blocker rests to block"))
            if T.card_has_keyword(s, blocker, "blocker") is False:
                out.append(self.flag("OPTCG-TERM-11", e, f"{name} has no [Blocker]"))
        return out

    def check_counter(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        kind = self._counter_kind(s, p)
        rule = "OPTCG-BATTLE-6" if kind == "event" else "OPTCG-BATTLE-5"
        b = s.extra.get("battle")
        out = []
        if not b:
            out.append(self.flag(rule, e, f"counter {p['card']} with no battle going on"))
        else:
            if player != b["defender"]:
                out.append(self.flag(rule, e, f"{player} is not the attacked player; only the defender counters"))
            if b.get("step") == "damage":
                out.append(self.flag(rule, e, f"counter {p['card']} after the damage step"))
        if not T.FACE_DOWN.could_be(s, player, "hand", p["card"]):
            out.append(self.flag(rule, e, f"{p['card']} is not in {player}'s hand"))
        f = T.facts(s, p["card"])
        if f:
            if kind == "character" and not f.get("counter"):
                out.append(self.flag("OPTCG-CARD-2", e, f"{p['card']} has no counter value"))
            if kind == "event":
                if f.get("keywords") is not None and "counter" not in [k.lower() for k in f["keywords"]]:
                    out.append(self.flag("OPTCG-TERM-6", e, f"{p['card']} has no [Counter] effect"))
                cost = f.get("cost") if isinstance(f.get("cost"), int) else 0
                paid = self._counter_paid(s, p)
                active = len(T.cost_don(s, player, rested=False))
                if paid < cost:
                    out.append(self.flag("OPTCG-CARD-1", e, f"{p['card']} costs {cost}; {paid} paid"))
                if paid > active:
                    out.append(self.flag("OPTCG-COST-1", e, f"{player} pays {paid} with {active} active DON!!"))
        return out

    def check_damage_step(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        b = s.extra.get("battle")
        if not b:
            return [self.flag("OPTCG-BATTLE-7", e, "a damage step with no attack declared")]
        if b.get("step") == "damage":
            return [self.flag("OPTCG-BATTLE-7", e, "this battle already had its damage step")]
        out = []
        p = e.payload
        for key in ("attacker", "target"):
            stated = p.get(f"{key}_power")
            hit = T.where_is(s, b[key]) if b.get(key) else None
            if stated is None or not hit or hit[1] not in T.FIELD:
                continue
            label = f"{key} {hit[2].code}"  # the number: the finding shows its name beside it
            derived = T.power(s, hit[0], hit[2])
            if derived is None or derived == stated:
                continue
            expired = sum(m["amount"] for m in s.extra.get("expired", []) if m["uid"] == hit[2].uid)
            # a bonus that ended, still counted; (a cut that ended proves nothing: the stated power
            # may be lower for an effect the record does not name)
            if expired > 0 and stated == derived + expired:
                last = s.extra["expired"][0]["duration"]
                rule = "OPTCG-BATTLE-13" if last == "battle" else "OPTCG-END-2"
                out.append(self.flag(rule, e, f"the {label}'s power is stated as {stated}, counting a +{expired} that "
                                     f"ended with the last {'battle' if last == 'battle' else 'turn'}; derived {derived}"))
            else:
                out.append(self.flag("OPTCG-DON-2", e, f"the {label}'s power is stated as {stated}; replay derives "
                                     f"{derived} (base + 1000 per attached DON!! in its owner's turn + the recorded "
                                     "power changes): an effect the record does not name (a Leader's or a "
                                     "Character's continuous effect, say) may explain it", severity="warning"))
        return out

    def check_life_taken(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        player = p["player"]
        out = []
        life = s.zone(player, "life")
        b = s.extra.get("battle")
        point = self._damage_point(s, e)
        due = point is not None and (point.get("result") == "unknown" or self._points_left(point))
        if not life and not due and T.life_known(s, player):
            # (a point of battle damage due at 0 Life is no mistake: the Leader loses, OPTCG-ZONE-3)
            out.append(self.flag("OPTCG-ZONE-3", e, f"{player} has no Life card to take"))
        if life and T.FACE_DOWN.contradicts(life[-1], p.get("card")):
            out.append(self.flag("OPTCG-BATTLE-11", e, f"only the top Life card is taken: it was known as "
                                 f"{life[-1].code}, the record names {p['card']}"))
        if not p.get("by"):
            if not b or b.get("defender") != player or b.get("step") != "damage":
                out.append(self.flag("OPTCG-BATTLE-11", e, f"{player} takes a Life card with no damage dealt"))
            elif b.get("result") == "fails":
                out.append(self.flag("OPTCG-BATTLE-10", e, "the attack failed (lower power): nothing happens"))
            elif b.get("result") == "ko":
                out.append(self.flag("OPTCG-BATTLE-9", e, "the attack hit a Character, not the Leader"))
            elif b.get("result") == "hit" and b.get("taken", 0) >= b.get("damage", 1):
                out.append(self.flag("OPTCG-BATTLE-12", e, f"{b.get('taken')} point(s) of damage already dealt "
                                     f"of {b.get('damage', 1)}"))
            banish = b and T.battle_attacker_has(s, b, "banish")
            if banish and p.get("to", "hand") != "trash":
                out.append(self.flag("OPTCG-TERM-14", e, "the attacker has [Banish]: the Life card goes to the trash"))
            if not banish and p.get("to") == "trash":
                out.append(self.flag("OPTCG-TERM-14", e, "a Life card goes to the trash only with [Banish] "
                                     "(or an effect named in 'by')"))
        if p.get("to") == "trigger":
            code = p.get("card") or (life[-1].code if life else None)
            trig = T.facts(s, code).get("trigger")
            if T.facts(s, code) and not trig:
                out.append(self.flag("OPTCG-CARD-3", e, f"{code} has no [Trigger]"))
        return out

    def check_ko(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        card = self._field_card(s, p["player"], p.get("uid"), p.get("card"), zones=("characters",))
        name = p.get("card") or p.get("uid")
        if card is None:
            return [self.flag("OPTCG-BATTLE-9", e, f"{name} is not one of {p['player']}'s Characters")]
        if p.get("by"):
            return []
        b = s.extra.get("battle")
        if not b or b.get("step") != "damage":
            return [self.flag("OPTCG-BATTLE-9", e, f"{name} K.O.'d with no battle won against it (name the effect in 'by')")]
        if b.get("result") == "fails":
            return [self.flag("OPTCG-BATTLE-10", e, "the attack failed (lower power): nothing happens")]
        if b.get("target") != card.uid:
            return [self.flag("OPTCG-BATTLE-9", e, f"{name} is not the Character that was attacked")]
        if b.get("ko"):
            return [self.flag("OPTCG-BATTLE-9", e, "the attacked Character was already K.O.'d")]
        return []

    def check_battle_end(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        return self._battle_close_findings(s, e)

    def check_turn_end(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        out = self._battle_close_findings(s, e)
        if e.payload["player"] != s.active:
            out.append(self.flag("OPTCG-FLOW-5", e, f"{e.payload['player']} ends {s.active}'s turn"))
        return out

    def _battle_close_findings(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        """When a battle closes: did its damage step's consequences happen?"""
        b = s.extra.get("battle")
        if not b or b.get("step") != "damage" or s.result is not None:
            return []
        if self._points_left(b) and s.zone(b["defender"], "life"):
            # (with 0 Life left, the point still due is the Leader's loss: _pending_loss)
            rule = "OPTCG-TERM-13" if b.get("damage", 1) > 1 else "OPTCG-BATTLE-8"
            return [self.flag(rule, e, f"the battle won against {b['defender']}'s Leader dealt "
                              f"{b.get('taken', 0)} of {b.get('damage', 1)} damage")]
        if b.get("result") == "ko" and not b.get("ko") and b.get("target") and T.where_is(s, b["target"]) \
                and T.where_is(s, b["target"])[1] == "characters":
            return [self.flag("OPTCG-BATTLE-9", e, f"the attacked Character {b.get('target_code')} was not K.O.'d")]
        return []

    def apply_player_left(self, s: TableState, e: RecordedEvent) -> None:
        # said, not decided: no result; `unsettled` puts it in words for `state` and the report
        if s.result is None and "left" not in s.extra:
            s.extra["left"] = dict(e.payload, position=e.position)

    def apply_player_named(self, s: TableState, e: RecordedEvent) -> None:
        # the seat keeps its name in the events; what it is called now is said beside it
        name_seat(s.extra.setdefault(NAMES, {}), e)

    def unsettled(self, s: TableState) -> str | None:
        left = s.extra.get("left") if s.result is None else None
        return f"{words.left_words(left)} (event {left['position']})" if left else None

    def check_log_count(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        """The log's own count of a zone against replay's: a warning (the log is the simulator's
        record; replay may have missed or misread a move, or the file was altered)."""
        p = e.payload
        have = len(s.zone(p["player"], p["zone"]))
        if have == p["count"]:
            return []
        at = f"line {p['line']}" if p.get("line") is not None else "the log"
        return [self.flag("OPTCG-SIM-1", e, f"{at} ({p.get('source') or 'RZ1|CHK'}): {p['player']}'s {p['zone']} "
                          f"holds {p['count']} card(s) by the log, {have} by replay of the moves before it",
                          severity="warning")]

    def check_game_end(self, s: TableState, e: RecordedEvent) -> list[Finding]:
        p = e.payload
        r = self._result_by(s, e)
        if r and r.get("winner") != p.get("winner") and r.get("how") in ("life", "deck-out"):
            rule = "OPTCG-WIN-1" if r["how"] == "life" else "OPTCG-WIN-2"
            return [self.flag(rule, e, f"announced winner {p.get('winner')}, but {r['winner']} won by {r['how']} "
                              f"at event {r.get('position')}")]
        if not r and p["how"] == "life" and not self._may_have_won_by_life(s, p.get("winner")) \
                and all(T.life_known(s, q) for q in s.players):
            return [self.flag("OPTCG-WIN-1", e, "a win by Life announced, but no battle was won against a Leader "
                              "with 0 Life")]
        if not r and p["how"] == "deck-out" and all(T.deck_known(s, q) for q in s.players):
            return [self.flag("OPTCG-WIN-2", e, "a deck-out announced, but both decks still hold cards")]
        return []

    def _may_have_won_by_life(self, s: TableState, winner: str | None) -> bool:
        """A battle whose powers replay cannot derive (card facts unknown), won by `winner` against a
        Leader with 0 Life as far as the record says: the table's word stands."""
        b = s.extra.get("battle") or s.extra.get("last_battle")
        return bool(b and b.get("result") == "unknown" and b.get("attacker_player") == winner
                    and T.where_is(s, b["target"] or "") and T.where_is(s, b["target"])[1] == "leader"
                    and not s.zone(b["defender"], "life"))

    # ============================================================================ judging

    def check_deck(self, player: str, cards: list[str], card_db: Any = None) -> list[Finding]:
        """`cards`: the Leader first, then the deck. `card_db`: {number: facts} (a CardDB works too)."""
        facts = card_db.facts_for(cards) if hasattr(card_db, "facts_for") else dict(card_db or {})
        return check_deck(self, player, cards[0] if cards else "", cards[1:], facts)

    def outcome(self, s: TableState) -> Outcome | None:
        r = s.result
        if not r:
            return None
        words = {
            "life": f"{r.get('winner')} won a battle against {r.get('loser')}'s Leader with no Life left "
                    "(勝利條件: 在對手的生命值卡 0 張時，和對手的領航卡對戰獲勝)",
            "deck-out": f"{r.get('loser')}'s deck is empty, so {r.get('loser')} loses "
                        "(勝利條件: 卡組沒有卡片的玩家即戰敗)",
            "concession": f"{r.get('loser')} conceded",
            "time": f"decided at the end of time ({r.get('branch')})",
        }
        rule = {"life": "OPTCG-WIN-1", "deck-out": "OPTCG-WIN-2"}.get(r["how"], r.get("rule", ""))
        return Outcome(r["result"], r.get("winner"), r["how"],
                       [words.get(r["how"], r["how"]), f"event {r.get('position')}"], rule, r.get("position"))

    def end_of_time(self, state: TableState, events: list[RecordedEvent], *,
                    policy: str | None = None) -> Decision:
        return decide_end_of_time(self, state, events, policy=policy or "bandai")

    time_facts = TIME_FACTS

    def logged_facts(self, s: TableState, events: Sequence[RecordedEvent] = (),
                     given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return logged_facts(s, list(events), given)
    time_policies = tuple(policy_catalogue())  # bandai (the default), store, regional, asia
    extra_minutes_policies = {p.name: p.extra_minutes for p in policy_catalogue().values()
                              if p.overtime_ends == "turns-or-call"}

    def end_of_time_from_facts(self, created: RecordedEvent, facts: dict[str, Any], *,
                               policy: str | None = None) -> Decision:
        return decide_from_facts(self, created, facts, policy=policy or "bandai")

    def hide(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """What a scorekeeper records without seeing hands, the deck or the Life cards: hidden.py."""
        return H.hide(kind, payload)
    def key_counters(self, s: TableState) -> dict[str, dict[str, int]]:
        # None: not recorded (the chart draws no point rather than a false 0)
        return {p: {"life": len(s.zone(p, "life")) if T.life_known(s, p) else None, "hand": len(s.zone(p, "hand")),
                    "deck": len(s.zone(p, "deck")) if T.deck_known(s, p) else None,
                    "don": len(s.zone(p, "cost")) + len(s.zone(p, "attached"))} for p in s.players}

    def summary_lines(self, s: TableState) -> list[str]:
        lines = [f"{p} is {n['name']} (named by event {n['position']})" for p, n in s.extra.get(NAMES, {}).items()]
        now = names_now(s)
        for p in s.players:
            cost = s.zone(p, "cost")
            rested = sum(1 for c in cost if T.is_rested(c))
            life = len(s.zone(p, "life")) if T.life_known(s, p) else "? (not recorded)"
            deck = "" if T.deck_known(s, p) else " · deck size unknown (not registered: no deck-out derived)"
            lines.append(f"{shown_seat(p, now)}: Life {life}{deck} · DON!! deck {len(s.zone(p, 'don_deck'))}, "
                         f"cost area {len(cost) - rested} active + {rested} rested, "
                         f"attached {len(s.zone(p, 'attached'))}")
            for z in ("leader", "characters", "stage"):
                for c in s.zone(p, z):
                    don = len(T.attached_to(s, p, c.uid))
                    pw = T.power(s, p, c) if z != "stage" else None
                    lines.append(f"  {z:<10} {c.code or '?'} ({c.uid})"
                                 + (f" power {pw}" if pw is not None else (" power ?" if z != "stage" else ""))
                                 + (f" +{don} DON!!" if don else "")
                                 + (" rested" if T.is_rested(c) else " active"))
        b = s.extra.get("battle")
        if b:
            lines.append(f"battle: {b.get('attacker_code')} attacks {b.get('target_code')} ({b.get('step')} step)")
        unsettled = self.unsettled(s)
        if unsettled:
            lines.append(f"no result: {unsettled}")
        return lines

    def describe(self, e: RecordedEvent) -> str:
        return words.describe(e.kind, e.payload) or super().describe(e)

    def describe_at(self, before: TableState | None, after: TableState | None, e: RecordedEvent) -> str:
        """A damage step in words: both powers (as stated, or derived from the table before it) and
        what came of it, from the table after it (apply_damage_step decides hit / K.O. / fails)."""
        if e.kind != "damage.step" or before is None or after is None or not before.extra.get("battle"):
            return self.describe(e)
        b = before.extra["battle"]
        a_pow, t_pow = self._battle_powers(before, b, e.payload)
        attacker = b.get("attacker_code") or "the attacker"
        target = b.get("target_code") or "the target"
        shown = lambda n: f"{n:,}" if n is not None else "? (no card data)"  # noqa: E731
        done = (after.extra.get("battle") or {}).get("result")
        outcome = {"hit": f"the attack hits: {b.get('defender')} takes damage",
                   "ko": f"the attack succeeds: {target} is K.O.'d",
                   "fails": "the attack fails",
                   "unknown": "the outcome is not known without both powers"}.get(done, "")
        return (f"damage step: {attacker} {shown(a_pow)} against {target} {shown(t_pow)}"
                + (f" — {outcome}" if outcome else ""))


def not_in_card_data(codes: list[str]) -> str:
    """OPTCG-DATA-1's words for card numbers the card data did not hold (a deck's, a move's)."""
    one = len(codes) == 1
    return (f"{', '.join(codes)} {'is' if one else 'are'} not in the card data (cards.db or the card snapshot): "
            f"{'a typo' if one else 'typos'}? see `tablejudge cards find`")


def check_deck(rs: Ruleset, player: str, leader: str, deck: list[str], facts: dict[str, dict],
               *, deck_size: int | None = None, don: int = 10) -> list[Finding]:
    """The deck rules (關於牌組) on a Leader, a deck list and card facts. Unknown card numbers are
    reported as warnings, not errors: the check still runs on what is known."""
    from engine.events import RecordedEvent as _E
    probe = _E("", 0, "deck.check", 1, player, {}, "", "", "", "")
    out: list[Finding] = []
    lf = facts.get(leader, {})
    if lf and str(lf.get("category", "")).lower() != "leader":
        out.append(rs.flag("OPTCG-DECK-1", probe, f"{leader} is a {lf.get('category')}, not a Leader"))
    size = len(deck) if deck else (deck_size if deck_size is not None else 0)
    if size != 50:
        out.append(rs.flag("OPTCG-DECK-2", probe, f"the deck of {player} has {size} cards; it must have 50"))
    if don != 10:
        out.append(rs.flag("OPTCG-DECK-5", probe, f"the DON!! deck of {player} has {don} cards; it must have 10"))
    for code, n in sorted(Tally(deck).items()):
        if n > 4:
            out.append(rs.flag("OPTCG-DECK-4", probe, f"{n} copies of {code}; at most 4"))
    unknown = sorted({c for c in deck if c not in facts} | ({leader} if leader and leader not in facts else set()))
    if unknown and not facts:  # nothing was recorded about any card: not the same as a number no one knows,
        # and no breach of the deck rules either (bug QA78 LOW-4: this cited the 50-card rule)
        out.append(rs.flag("OPTCG-DATA-2", probe, f"not judged: no card data: {player}'s registration carries no "
                           f"card facts, so the Leader, card types and colours are not checked: {', '.join(unknown)}",
                           severity="info"))
    elif unknown:
        out.append(rs.flag("OPTCG-DATA-1", probe, f"unknown card number(s), not checked: {not_in_card_data(unknown)}",
                           severity="warning"))
    colours = {c.lower() for c in lf.get("colors", [])}
    for code in sorted(set(deck)):
        f = facts.get(code)
        if not f:
            continue
        cat = str(f.get("category", "")).lower()
        if cat in ("leader", "don"):
            out.append(rs.flag("OPTCG-DECK-2", probe, f"{code} is a {f.get('category')}; the deck holds "
                               "Characters, Events and Stages"))
        mine = {c.lower() for c in f.get("colors", [])}
        if colours and mine and not (mine & colours):
            rule = "OPTCG-COLOR-1" if len(mine) > 1 else "OPTCG-DECK-3"
            out.append(rs.flag(rule, probe, f"{code} ({'/'.join(f.get('colors', []))}) has none of the Leader's "
                               f"colours ({'/'.join(lf.get('colors', []))})"))
    return out


RULESET = OptcgRuleset
