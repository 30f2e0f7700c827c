"""End of time for `optcg`, policy `bandai` (Tournament Rules Manual §5.2, as summarised in
shared/reference/tournament-policies.md; secondary sources).

When time is called the turn in progress is "turn 0"; then N more turns are played (default 3). If the
game has not ended by then, the winner is decided by the first criterion that separates the players:

- `life`: more Life cards;
- `deck`: more cards left in the deck;
- `characters`: more Characters on the field;
- `last-life`: the player who did NOT take the last Life card.

If every criterion is equal: a double loss. Order and turn count are ruleset options
(`end_of_time_criteria`, `end_of_time_turns`).
"""
from __future__ import annotations

from engine.events import RecordedEvent
from engine.state import TableState
from engine.rulesets.base import Decision, Ruleset


CRITERIA = ("life", "deck", "characters", "last-life")
RULE = "Bandai Tournament Rules Manual §5.2 (policy bandai)"
QUOTE = ("When time is called the active player finishes the turn (turn 0), then 3 more turns are played; "
         "then more Life cards wins, then more cards in the deck, then more Characters on the field, then the "
         "player who did not take the last Life card; all equal: a double loss.")
LABEL = {"life": "Life cards", "deck": "cards in the deck", "characters": "Characters on the field"}


def decide_end_of_time(rs: Ruleset, s: TableState, events: list[RecordedEvent], *,
                       policy: str = "bandai") -> Decision:
    if policy != "bandai":
        raise ValueError(f"ruleset optcg has no end-of-time policy {policy!r} (policies: bandai)")

    def decision(result: str, winner: str | None, branch: str, steps: list[str]) -> Decision:
        return Decision(result, winner, branch, steps, RULE, QUOTE, policy)

    if s.result:
        r = s.result
        return decision(r["result"], r.get("winner"), "game-over",
                        [f"the game already ended at event {r.get('position')}: "
                         + (f"{r['winner']} won by {r.get('how')}" if r.get("winner") else f"{r['result']} ({r.get('how')})")])
    voided = set(s.voided)  # corrected away or backed out: as if it had not happened
    events = [e for e in events if e.position not in voided]
    called = [e for e in events if e.kind == "time.called"]
    if not called:
        return decision("continue", None, "time-not-called", ["time has not been called (no time.called event)"])
    at = called[-1].position
    turn0 = sum(1 for e in events if e.kind == "turn" and e.position < at)
    extra = int(rs.opts["end_of_time_turns"])
    last = turn0 + extra
    done_last = s.turn > last or (s.turn == last and s.phase == "end")
    steps = [f"time was called at event {at}, during turn {turn0} (turn 0 of the procedure)"
             if turn0 else f"time was called at event {at}, before the first turn (turn 0 is the first turn)"]
    if turn0 == 0:
        last = extra + 1
        done_last = s.turn > last or (s.turn == last and s.phase == "end")
    if not done_last:
        steps.append(f"{extra} more turns are played after turn 0: play on until turn {last} ends "
                     f"(now turn {s.turn}, {s.phase} phase)")
        return decision("continue", None, "extra-turns", steps)
    steps.append(f"turn 0 and {extra} more turns are over (turn {last} ended) and nobody has won")
    a, b = s.players[0], s.players[1]
    order = [c.strip() for c in str(rs.opts["end_of_time_criteria"]).split(",") if c.strip()]
    for crit in order:
        if crit == "last-life":
            took = (s.extra.get("last_life_taken") or {}).get("player")
            if took is None:
                steps.append("nobody took a Life card: equal")
                continue
            winner = b if took == a else a
            steps.append(f"{took} took the last Life card (event {s.extra['last_life_taken'].get('position')}), "
                         f"so {winner} wins")
            return decision("win", winner, "last-life", steps)
        if crit not in LABEL:
            raise ValueError(f"unknown end-of-time criterion {crit!r} (criteria: {', '.join(CRITERIA)})")
        zone = {"life": "life", "deck": "deck", "characters": "characters"}[crit]
        va, vb = len(s.zone(a, zone)), len(s.zone(b, zone))
        if va == vb:
            steps.append(f"{LABEL[crit]}: {a} {va}, {b} {vb}: equal")
            continue
        winner = a if va > vb else b
        steps.append(f"{LABEL[crit]}: {a} {va}, {b} {vb}: {winner} has more and wins")
        return decision("win", winner, crit, steps)
    steps.append("every criterion is equal: both players receive a loss (double loss)")
    return decision("double-loss", None, "double-loss", steps)
