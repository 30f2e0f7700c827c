"""What the table needs to hear when a game ends: who won, how, and the rule that ended it."""
from __future__ import annotations

from engine.rulesets import Ruleset
from engine.rulesets.base import Outcome


def ending_lines(ruleset: Ruleset, o: Outcome, *, games: int = 1, number: int = 1) -> list[str]:
    who = f"{o.winner} wins" if o.winner else ("a draw" if o.result == "draw" else o.result)
    game = f"game {number} over" if games > 1 else "game over"
    at = f" (event {o.position})" if o.position else ""
    lines = [f"  *** {game}: {who}: {o.how}{at}"]
    rule = None
    if o.rule:
        try:
            rule = ruleset.rule(o.rule)
        except KeyError:
            rule = None
    if rule is not None:
        lines.append(f"      {rule.id} ({rule.section}): {rule.title}")
        if rule.quote:
            lines.append(f"      «{rule.quote}»")
        if rule.en and rule.en != rule.title:
            lines.append(f"      {rule.en}")
    elif o.rule:
        lines.append(f"      rule {o.rule}")
    else:
        lines.append("      (ended as recorded at the table: no rule of the rulebook decides it)")
    return lines


def new_endings(ruleset: Ruleset, before: int, state) -> tuple[int, list[str]]:
    """Lines announcing every game that ended since `before` games were over; the new count."""
    ends = ruleset.game_ends(state)
    lines: list[str] = []
    for n, o in enumerate(ends[before:], start=before + 1):
        lines += ending_lines(ruleset, o, games=ruleset.games_per_match(), number=n)
    match_over = ruleset.outcome(state)
    if len(ends) > before and match_over is not None and len(ends) > 1:
        winner = f"{match_over.winner} wins the match" if match_over.winner else f"the match is a {match_over.result}"
        lines.append(f"  *** match over: {winner} ({match_over.how})")
    return len(ends), lines
