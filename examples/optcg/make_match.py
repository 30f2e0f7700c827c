"""Writes examples/optcg/match.jsonl: a tabletop game of ONE PIECE CARD GAME, Ann vs Bob, recorded
event by event, with eight deliberate mistakes a judge should catch (see README.md).

The events are written out by hand below; this script only adds the card facts copied from the
test card data (tests/fixtures/optcg/cards.json) and the JSONL envelope. Run from the repository root:
    python examples/optcg/make_match.py
"""
import json
import os
import sys

sys.path[:0] = [".", "tests"]
from optcg_support import registration  # noqa: E402

A, B = "Ann", "Bob"
L = "OP01-001"
E = []


def add(kind, payload=None, actor=None):
    payload = payload or {}
    E.append({"kind": kind, "actor": actor or payload.get("player", "-"), "payload": payload})


def turn(p, draw=True, don=2):
    add("turn", {"player": p})
    add("refresh", {"player": p})
    if draw:
        add("draw", {"player": p})
    add("don", {"player": p, "count": don})


E.append({"kind": "match.created", "payload": {"ruleset": "optcg", "players": [A, B], "event": "Example Cup", "round": "1", "table": "7"}})
add("deck.registered", registration(A))
add("deck.registered", registration(B))
add("turn.order", {"first": A, "chosen_by": A}, A)
add("draw", {"player": A, "count": 5, "cards": ["OP01-013", "OP01-016", "OP01-025", "ST01-006", "OP01-029"]})
add("draw", {"player": B, "count": 5, "cards": ["ST01-006", "OP01-016", "OP01-013", "OP01-029", "OP01-024"]})
add("mulligan", {"player": A, "decision": "keep"})
add("mulligan", {"player": B, "decision": "keep"})
add("life.placed", {"player": A, "count": 5})
add("life.placed", {"player": B, "count": 5})
# turn 1, Ann: one DON!!, and (mistake 1) a draw the first player does not get
turn(A, draw=False, don=1)
add("draw", {"player": A, "cards": ["OP01-024"]})                                     # OPTCG-FLOW-2
add("play", {"player": A, "card": "OP01-016"})
add("turn.end", {"player": A})
# turn 2, Bob
turn(B)
add("play", {"player": B, "card": "ST01-006"})
add("turn.end", {"player": B})
# turn 3, Ann
turn(A)
add("play", {"player": A, "card": "OP01-013"})
add("attack", {"player": A, "attacker": "OP01-013", "target": L})                    # OPTCG-TERM-12 (no Rush)
add("damage.step", {}, "-")                                                           # 3000 < 5000: fails
add("battle.end", {}, "-")
add("attack", {"player": A, "attacker": "OP01-016", "target": "ST01-006"})           # OPTCG-BATTLE-2 (active)
add("counter", {"player": B, "card": "OP01-024"})
add("block", {"player": B, "card": "ST01-006"})                                       # OPTCG-BATTLE-4 (after a counter)
add("counter", {"player": A, "card": "OP01-024"})                                     # OPTCG-BATTLE-5 (the attacker)
add("damage.step", {"attacker_power": 2000, "target_power": 5000}, "-")
add("life.taken", {"player": B})                                                      # OPTCG-BATTLE-10 (attack failed)
add("battle.end", {}, "-")
add("turn.end", {"player": A})
# turn 4, Bob
turn(B)
add("play", {"player": B, "card": "OP01-016"})
add("play", {"player": B, "card": "OP01-013"})
add("turn.end", {"player": B})
# turn 5, Ann: 5 DON!!
turn(A)
add("play", {"player": A, "card": "OP01-025"})
add("play", {"player": A, "card": "ST01-006"})
add("play", {"player": A, "card": "OP01-029", "area": "event", "paid": 1})
add("draw", {"player": A, "cards": ["OP01-024"], "by": "OP01-029 [Trigger]"})
add("play", {"player": A, "card": "OP01-024"})                                        # OPTCG-COST-1 (no active DON!!)
add("draw", {"player": A, "cards": ["OP01-016"], "by": "OP01-001 [Activate: Main]"})
add("play", {"player": A, "card": "OP01-016", "by": "OP01-001 [Activate: Main]"})     # OPTCG-PLAY-2 (a 6th)
add("attack", {"player": A, "attacker": "OP01-025", "target": L})                    # [Rush]: fine
add("damage.step", {"attacker_power": 5000, "target_power": 5000}, "-")
add("life.taken", {"player": B})
add("battle.end", {}, "-")
add("attack", {"player": A, "attacker": L, "target": L})
add("damage.step", {}, "-")
add("life.taken", {"player": B, "card": "OP01-016", "to": "trigger"})
add("effect", {"player": B, "card": "OP01-016", "timing": "trigger", "text": "Play this card."})
add("move", {"player": B, "from_zone": "trash", "to_zone": "characters", "card": "OP01-016", "by": "OP01-016 [Trigger]"})
add("battle.end", {}, "-")
add("effect", {"player": A, "card": L, "timing": "activate_main", "once_per_turn": True, "text": "+2000 to a Character"})
add("power.mod", {"player": A, "card": "OP01-013", "amount": 2000, "duration": "turn", "by": "OP01-001 [Activate: Main]"})
add("attack", {"player": A, "attacker": "OP01-013", "target": L})
add("damage.step", {"attacker_power": 5000, "target_power": 5000}, "-")
add("life.taken", {"player": B})
add("battle.end", {}, "-")
add("turn.end", {"player": A})
# turn 6, Bob passes
turn(B)
add("turn.end", {"player": B})
# turn 7, Ann
turn(A)
add("attack", {"player": A, "attacker": "OP01-025", "target": L})
add("damage.step", {}, "-")
add("life.taken", {"player": B})                                                      # Bob's last Life card
add("battle.end", {}, "-")
add("attack", {"player": A, "attacker": "OP01-013", "target": L})
add("block", {"player": B, "card": "ST01-006"})
add("damage.step", {}, "-")
add("ko", {"player": B, "card": "ST01-006"})
add("battle.end", {}, "-")
add("attack", {"player": A, "attacker": L, "target": L})
add("damage.step", {}, "-")                                                           # 0 Life: Ann wins
add("game.end", {"how": "life", "winner": A}, "-")

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "match.jsonl")
with open(out, "w", encoding="utf-8") as f:
    for e in E:
        f.write(json.dumps(e, ensure_ascii=False) + "\n")
print(out, len(E))
