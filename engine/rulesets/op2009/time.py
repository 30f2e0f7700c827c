"""The end-of-time procedure of `op2009`: the rulebook's "Situazione Fine Tempo", case by case.

The procedure reads the whole log: the score and the table when time was called, then what
happened after (the turn in progress finished, a sudden-death phase or game). Each branch says
what it decided and quotes the rule. When the log does not yet hold what the procedure needs (the
turn in progress is not over, nobody has won the sudden death yet), the result is "continue" with
what the table must do next.

Policies (the one reading the rulebook leaves open, see docs/rulesets/op2009.md):
- `mm25` (default): the additional condition at the end of the turn in progress is the turn
  player's: "Al termine del proprio turno" - the player whose own turn just ended wins if their
  Captain's difference between printed and current Life Points is smaller.
- `mm25-entrambi`: at the end of the turn in progress, whichever Captain has the smaller
  difference wins, whoever's turn it was.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.desk import time_calls
from engine.events import RecordedEvent
from engine.replay import Fold, as_played
from engine.state import TableState
from engine.rulesets.base import Decision
from engine.timefacts import BOTH, Fact, FactsError, facts_text, parse_facts



class Op2009Rules(Protocol):
    """What the end-of-time procedure asks of the op2009 ruleset (ruleset.py implements it; this
    module does not import it, so the two do not import each other)."""

    opts: dict[str, Any]

    def new_state(self, created: RecordedEvent) -> TableState: ...
    def apply(self, state: TableState, event: RecordedEvent) -> None: ...
    def rule(self, rule_id: str) -> Any: ...
    def in_play(self, s: TableState) -> bool: ...
    def inflicter(self, s: TableState, payload: dict, hit: dict) -> str: ...

POLICIES = ("mm25", "mm25-entrambi")
SIDEBOARD_AWARD = "sideboard-1-0"  # the branch that awards each player a game win (OP09-TEMPO-SIDE-1)


def awarded_score(branch: str, score: dict[str, int]) -> dict[str, int]:
    """The match score a decision leaves: at 1-0 while sideboarding "viene assegnato 1 punto vittoria a
    testa concludendo l'incontro sul 2-1"; every other branch leaves the games won as they are. The
    decision's words and the recorded state both come from here, so they cannot disagree."""
    if branch == SIDEBOARD_AWARD:
        return {p: n + 1 for p, n in score.items()}
    return dict(score)


# The branches whose decision ends the game in progress (or the new game played after the call) by the
# end-of-time conditions, not by a regular victory condition: the first damage to the opposing Captain
# (OP09-TEMPO-PARI-4, VANT-2, SIDE-2), the Captains' tie (CAP-1), the smaller Captain difference
# (PARI-3), or both Captains at once (a draw, by analogy with VITT-4). The rulebook calls these
# "condizione di vittoria aggiuntiva", an additional victory condition, and its victory conditions are
# what wins a game (OP09-PARTITA-1: "vince la partita"); it states no game score after them (only
# SIDE-1's 2-1). The tool's reading, documented: that game counts for the match's winner (a draw: a
# drawn game), so the game counts agree with the decision (QA: 1-1 with the match won stayed 1-1).
DECIDING_GAME = ("/danno-al-capitano", "/capitani-pari", "/condizione-aggiuntiva", "/contemporaneo")


def decides_a_game(branch: str) -> bool:
    """Whether the decision `branch` ends the game in which its condition was reached."""
    return branch.endswith(DECIDING_GAME)


def facts_score(facts: str, players: list[str], branch: str, winner: str | None,
                state: TableState | None = None) -> tuple[dict[str, int], int] | None:
    """The match score and the drawn games a decision made from the judge's facts (`timelimit
    --facts`) leaves: the games won and drawn read off the table (`games=`, `drawn=`), the game a
    player won in the turn played out after the call (`won=`, with a game in progress and its turn
    over; a recorded match has that game in its log), what the decision awards (awarded_score) and
    the game its end-of-time condition decides (decides_a_game). None: the facts cannot be read (the
    log keeps them as typed; the state then counts the games its log holds). `state`: the table the
    decision is applied to; what its log had at the call (games won and drawn, a game in progress)
    stands in for what the judge left out (logged_facts: taken from the log, so not in the stored facts)."""
    try:
        read = parse_facts(facts, TIME_FACTS, players, complete=False)
    except FactsError:
        return None
    if state is not None and state.extra.get("time") is not None:
        # the judge left out what the log knows (it was taken from the log, and is not stored)
        read = {**at_call(state, state.extra["time"]), **read}
    if read.get("games") is None:
        return None
    final = awarded_score(branch, read["games"])
    drawn = read.get("drawn", 0)
    if read.get("in_game") and read.get("turn_over"):
        won = read.get("won")
        if won == BOTH:  # both reached a victory condition at once: a drawn game (OP09-VITT-4)
            drawn += 1
        elif won in final:
            final[won] += 1
    if decides_a_game(branch):
        if winner in final:
            final[winner] += 1
        else:
            drawn += 1
    return final, drawn


@dataclass
class Step:
    """One event of the log with the table before and after it."""

    event: RecordedEvent
    before: TableState
    after: TableState


class Procedure:
    def __init__(self, rs: Op2009Rules, events: list[RecordedEvent], policy: str):
        self.rs = rs
        self.policy = policy
        self.steps: list[Step] = []
        self.lines: list[str] = []
        self._replay(events)

    # --- replay ---------------------------------------------------------------------------

    def _replay(self, events: list[RecordedEvent]) -> None:
        """Each event as the corrected replay plays it (`as_played`: a void left out, a replacement in
        its target's place), applied by replay's own `Fold` (an event beyond the limits, or that the
        ruleset cannot apply, is kept and not replayed): one table, the one `state` shows."""
        created, *played = as_played(events)
        fold = Fold(self.rs, created)
        self.start = fold.state.copy()
        for e in played:
            before = fold.state.copy()
            fold.push(e)
            if e.position not in fold.inert:
                self.steps.append(Step(e, before, fold.state.copy()))

    def say(self, line: str) -> None:
        self.lines.append(line)

    def quote(self, rule_id: str) -> str:
        r = self.rs.rule(rule_id)
        return f"{rule_id} ({r.section}): \u00ab{r.quote}\u00bb"

    def decision(self, result: str, winner: str | None, branch: str, rule_id: str) -> Decision:
        if result != "continue" and decides_a_game(branch):
            # the rulebook names only the match's winner here: the game count is said as the tool's reading
            self.say((f"That game counts as won by {winner}" if winner else "That game counts as drawn")
                     + " (the tool's reading; the rulebook states no game score here: it names the match's "
                     "winner and calls what decided it a \u00abcondizione di vittoria\u00bb, a victory "
                     "condition, and its victory conditions win the game: " + self.quote("OP09-PARTITA-1") + ").")
        return Decision(result=result, winner=winner, branch=branch, steps=list(self.lines),
                        rule=rule_id, quote=self.rs.rule(rule_id).quote, policy=self.policy)

    # --- the procedure --------------------------------------------------------------------

    def run(self) -> Decision:
        calls = {id(e) for e in time_calls(st.event for st in self.steps)}  # not a mark (op2009 has none)
        called = [i for i, st in enumerate(self.steps) if id(st.event) in calls]
        if not called:
            raise ValueError("no time.called event in this match")
        i = called[-1]
        t = self.steps[i]
        s = t.after
        a, b = s.players
        score = s.extra["score"]
        score_text = f"{a} {score[a]} - {score[b]} {b}"
        self.say(f"Time was called at {t.event.payload['clock']} (event {t.event.position}); "
                 f"games won: {score_text}.")
        if t.before.result is not None:
            r = t.before.result
            self.say(f"The match was already over before time was called ({r['how']}, event {r['position']}).")
            return self.decision(r["result"], r.get("winner"), "incontro-concluso", "OP09-PARTITA-1")
        rest = self.steps[i:]  # rest[0] is the time.called step
        if not self.rs.in_play(s):
            return self.sideboarding(s, rest, score)
        if score[a] == score[b]:
            return self.tied(s, rest)
        return self.one_ahead(s, rest)

    # sideboarding (between games)

    def sideboarding(self, s: TableState, rest: list[Step], score: dict[str, int]) -> Decision:
        a, b = s.players
        games = s.extra["games"]
        if score[a] != score[b]:
            return self.sideboard_one_up(a, b, score)
        branch, rule_id = self.tied_between_games(score[a], started=bool(games))
        return self.sudden_death_game(rest, branch, rule_id)

    def tied_between_games(self, n: int, *, started: bool | None) -> tuple[str, str]:
        """Time called between games with the match tied n-n: the branch and rule that decide it, said.
        1-1 is the rulebook's sideboarding case (OP09-TEMPO-SIDE-2). Any other tie (0-0: before game 1,
        or after a drawn game) is covered by no words of the book (QA71: 0-0 was given the 1-1 rule):
        its tied case names 0-0 but starts by finishing "il turno in corso", which there is not, and
        its sideboarding cases are 1-0 and 1-1. The tool's assumption, said as one: the tied case with
        no turn to finish, so nobody reached a victory condition and its sudden death decides.
        `started`: whether a game was played (None: the judge's facts do not say)."""
        if n == 1:
            self.say("No game was in progress: the players were between games (sideboarding) at 1-1.")
            self.say(self.quote("OP09-TEMPO-SIDE-2"))
            return "sideboard-1-1", "OP09-TEMPO-SIDE-2"
        self.say(f"No game was in progress at {n}-{n} ("
                 + {True: "between games", False: "game 1 had not begun"}.get(started, "before game 1, or "
                                                                                  "between games after a drawn game")
                 + ").")
        self.say(f"The rulebook does not cover this case: its sideboarding cases are 1-0 and 1-1 only, and its "
                 f"tied case, which names {n}-{n}, begins by finishing the turn in progress, and there is none: "
                 + self.quote("OP09-TEMPO-PARI-1"))
        self.say("The tool assumes the tied case with no turn to finish (its documented choice, not the "
                 "rulebook's words): nobody has reached a victory condition, so the tied case's sudden death "
                 "decides: " + self.quote("OP09-TEMPO-PARI-4"))
        return "parita-tra-partite", "OP09-TEMPO-PARI-4"

    def sideboard_one_up(self, a: str, b: str, score: dict[str, int]) -> Decision:
        """Between games at 1-0: each player is given a game win and the one ahead wins (a recorded
        match and a table read by a judge alike)."""
        leader = a if score[a] > score[b] else b
        self.say("No game was in progress: the players were between games (sideboarding).")
        self.say(self.quote("OP09-TEMPO-SIDE-1"))
        final = awarded_score(SIDEBOARD_AWARD, score)
        self.say(f"Each player is given 1 game win: the match ends {a} {final[a]} - {final[b]} {b}; "
                 f"{leader}, who was ahead, wins the match.")
        return self.decision("win", leader, SIDEBOARD_AWARD, "OP09-TEMPO-SIDE-1")

    def additional_condition(self, a: str, b: str, diffs: dict[str, int], turn_player, turn_name: str) -> Decision | None:
        """OP09-TEMPO-PARI-3 at the end of the turn, by the policy: the Captain that lost fewer Life
        Points wins (mm25: only the player whose turn it was). None: not reached (sudden death next).
        `turn_player()` says whose turn it was, asked only under mm25."""
        if self.policy == "mm25":
            tp = turn_player()
            other = b if tp == a else a
            self.say(f"Policy mm25: the condition is considered at the end of the player's own turn; "
                     f"{turn_name} was {tp}'s.")
            if diffs[tp] < diffs[other]:
                self.say(f"{tp}'s difference ({diffs[tp]}) is smaller than {other}'s ({diffs[other]}): "
                         f"{tp} wins the match.")
                return self.decision("win", tp, "parita/condizione-aggiuntiva", "OP09-TEMPO-PARI-3")
            self.say(f"{tp}'s difference ({diffs[tp]}) is not smaller than {other}'s ({diffs[other]}): the "
                     "additional condition is not reached.")
            return None
        self.say("Policy mm25-entrambi: at the end of the turn, the smaller difference wins, whoever's turn it was.")
        if diffs[a] != diffs[b]:
            w = a if diffs[a] < diffs[b] else b
            self.say(f"{w}'s Captain has the smaller difference: {w} wins the match.")
            return self.decision("win", w, "parita/condizione-aggiuntiva", "OP09-TEMPO-PARI-3")
        self.say("The differences are equal: the additional condition is not reached.")
        return None

    # a game in progress

    def play_out_turn(self, s: TableState, rest: list[Step], score: str, branch: str,
                      rule_id: str) -> Decision | int:
        """The procedure's first step when the match is tied or one game ahead (`score` says which):
        the turn in progress is played out. The index in `rest` of the step that ended it, or the
        decision to play on."""
        target, who = max(s.turn, 1), s.active or s.extra["game"]["first"]
        self.say(f"{score}, game {s.extra['game']['n']} in progress, turn {target} ({who}).")
        self.say(self.quote(rule_id))
        j = self.finish_turn(s, rest)
        if j is None:
            self.say(f"Decision: play on. {who} finishes turn {target}; then run the procedure again.")
            return self.decision("continue", None, f"{branch}/turno-in-corso", rule_id)
        self.say(f"Turn {target} ended at event {rest[j].event.position}.")
        return j

    def finish_turn(self, s: TableState, rest: list[Step]) -> int | None:
        """Index in `rest` (rest[0] is the time.called step) of the step that ends the turn in
        progress: its Fase Finale, the game's end, or the step before the next turn's start when no
        Fase Finale was recorded. None when the log does not reach it yet."""
        game = s.extra["game"]["n"]
        target = max(s.turn, 1)  # the preparation is part of the first turn
        who = s.active or s.extra["game"]["first"]
        t = s.extra.get("turn")
        if t is not None and t.get("finale"):
            self.say(f"Turn {target} ({who}) had already reached its Fase Finale when time was called: "
                     "there is no turn left to finish.")
            return 0
        for j, st in enumerate(rest[1:], start=1):
            g = st.after.extra.get("game")
            if g is None or g["n"] != game or g.get("over"):
                return j
            if st.event.kind == "fase.finale" and st.after.turn == target:
                return j
            if st.event.kind == "turn.start" and st.after.turn > target:
                self.say(f"(turn {st.after.turn} began at event {st.event.position} with no Fase Finale "
                         f"recorded for turn {target}: turn {target} is taken as ended there)")
                return j - 1
        self.say(f"The log does not yet reach the end of turn {target} ({who}).")
        return None

    def tied(self, s: TableState, rest: list[Step]) -> Decision:
        a, b = s.players
        score = s.extra["score"]
        target, who = max(s.turn, 1), s.active or s.extra["game"]["first"]
        j = self.play_out_turn(s, rest, f"The match is tied ({score[a]}-{score[b]})", "parita", "OP09-TEMPO-PARI-1")
        if isinstance(j, Decision):
            return j
        end = rest[j].after
        self.say(self.quote("OP09-TEMPO-PARI-2"))
        g = end.extra["game"]
        if g.get("over"):
            r = g["result"]
            if r["winner"]:
                self.say(f"{r['winner']} reached a regular victory condition ({r['how']}, event "
                         f"{r['position']}, {r['rule']}): {r['winner']} wins the game and the match.")
                return self.decision("win", r["winner"], "parita/condizione-regolamentare", "OP09-TEMPO-PARI-2")
            self.say(f"Both players reached a victory condition at the same time ({r['how']}): the game is a "
                     "draw and the match stays tied; the match is a draw (documented choice).")
            return self.decision("draw", None, "parita/condizione-regolamentare", "OP09-VITT-4")
        self.say("Neither player reached a regular victory condition.")
        self.say(self.quote("OP09-TEMPO-PARI-3"))
        diffs = {p: captain_difference(end, p) for p in (a, b)}
        printed = {p: captain_printed(end, p) for p in (a, b)}
        for p in (a, b):
            self.say(f"{p}'s Captain: printed {printed[p]} Life Points, now {printed[p] - diffs[p]}: "
                     f"difference {diffs[p]}.")
        decided = self.additional_condition(a, b, diffs, lambda: end.active or who, f"turn {target}")
        if decided is not None:
            return decided
        self.say(self.quote("OP09-TEMPO-PARI-4"))
        return self.sudden_death(rest[j + 1:], end, "parita/morte-improvvisa", "OP09-TEMPO-PARI-4",
                                 same_game=True)

    def one_ahead(self, s: TableState, rest: list[Step]) -> Decision:
        a, b = s.players
        score = s.extra["score"]
        leader = a if score[a] > score[b] else b
        trailer = b if leader == a else a
        j = self.play_out_turn(s, rest, f"{leader} leads {score[leader]}-{score[trailer]}", "vantaggio",
                               "OP09-TEMPO-VANT-1")
        if isinstance(j, Decision):
            return j
        end = rest[j].after
        g = end.extra["game"]
        if g.get("over") and g["result"]["winner"] == trailer:
            r = g["result"]
            self.say(f"{trailer} won the game in that turn ({r['how']}, event {r['position']}): the match is 1-1.")
            self.say(self.quote("OP09-TEMPO-VANT-2"))
            self.say(self.quote("OP09-TEMPO-VANT-3"))
            return self.sudden_death_game(rest[j + 1:], "vantaggio/1-1-nuova-partita", "OP09-TEMPO-VANT-2")
        if g.get("over") and g["result"]["winner"] == leader:
            r = g["result"]
            self.say(f"{leader} won the game in that turn ({r['how']}, event {r['position']}): {leader} wins "
                     "the match.")
            return self.decision("win", leader, "vantaggio/condizione-regolamentare", "OP09-TEMPO-VANT-1")
        if g.get("over"):
            self.say(f"The game ended in a draw in that turn ({g['result']['how']}): nobody reached a victory "
                     "condition alone.")
        else:
            self.say("Neither player reached a regular victory condition in that turn.")
        self.say(f"{leader} won the previous game and wins the match.")
        return self.decision("win", leader, "vantaggio/vince-chi-e-avanti", "OP09-TEMPO-VANT-1")

    # sudden death

    def sudden_death_game(self, rest: list[Step], branch: str, rule_id: str) -> Decision:
        start = next((j for j, st in enumerate(rest) if st.event.kind == "game.start"), None)
        if start is None:
            self.say("Decision: play on. Start a new game (its loser-starts rule applies as usual); the first "
                     "player to reach a regular victory condition or to inflict damage on the opposing Captain "
                     "wins the match" + ("." if rule_id == "OP09-TEMPO-PARI-4" else
                                         "; the second player is the first who may attack."))
            return self.decision("continue", None, branch + "/da-giocare", rule_id)
        st = rest[start]
        g = st.after.extra["game"]
        second = next(p for p in st.after.players if p != g["first"])
        self.say(f"Game {g['n']} (sudden death) began at event {st.event.position}: {g['first']} starts, "
                 f"{second} is the first who may attack.")
        return self.sudden_death(rest[start + 1:], st.after, branch, rule_id, same_game=False)

    def sudden_death(self, rest: list[Step], s: TableState, branch: str, rule_id: str, *,
                     same_game: bool) -> Decision:
        game = s.extra["game"]["n"]
        for st in rest:
            g = st.after.extra.get("game")
            if g is None or g["n"] != game:
                break
            hit = self.captain_damage(st)
            if hit is not None:
                kind, who = hit
                if kind == "tie":
                    self.say(self.quote("OP09-TEMPO-CAP-1"))
                    self.say(f"Event {st.event.position}: the two Captains tied in power and both dealt damage; "
                             f"{who}, the attacker, wins the match.")
                    return self.decision("win", who, branch + "/capitani-pari", "OP09-TEMPO-CAP-1")
                if kind == "both":
                    self.say(f"Event {st.event.position}: both Captains were damaged by the opponent at the same "
                             "time, not in a Battle between the Captains: a draw (by analogy with OP09-VITT-4).")
                    return self.decision("draw", None, branch + "/contemporaneo", "OP09-VITT-4")
                self.say(f"Event {st.event.position}: {who} is the first to inflict damage on the opposing "
                         f"Captain and wins the match.")
                return self.decision("win", who, branch + "/danno-al-capitano", rule_id)
            if g.get("over"):
                r = g["result"]
                if r["winner"]:
                    self.say(f"Event {r['position']}: {r['winner']} is the first to reach a regular victory "
                             f"condition ({r['how']}) and wins the match.")
                    return self.decision("win", r["winner"], branch + "/condizione-regolamentare", rule_id)
                self.say(f"Event {r['position']}: both reached a victory condition at the same time: a draw.")
                return self.decision("draw", None, branch + "/condizione-regolamentare", "OP09-VITT-4")
        self.say("Decision: play on (sudden death). The first player to reach a regular victory condition or to "
                 "inflict damage on the opposing Captain wins the match.")
        return self.decision("continue", None, branch, rule_id)

    def captain_damage(self, st: Step) -> tuple[str, str] | None:
        """('one', winner), ('tie', attacker) or ('both', '') when a Captain took at least 1 damage
        inflicted by the opponent in this event."""
        e = st.event
        if e.kind != "damage":
            return None
        s = st.before
        damaged: dict[str, str] = {}
        for h in e.payload["hits"]:
            if h["space"] != "capitano" or int(h["amount"]) < 1:
                continue
            by = self.rs.inflicter(s, e.payload, h)
            if by != h["player"]:
                damaged[str(h["player"])] = by
        if not damaged:
            return None
        if len(damaged) == 1:
            return "one", next(iter(damaged.values()))
        b = s.extra.get("battle")
        if (b and e.payload.get("cause", "battaglia") == "battaglia"
                and b["attacker"]["space"] == "capitano" and b["defender"]["space"] == "capitano"):
            return "tie", b["attacker"]["player"]
        return "both", ""


def captain_printed(s: TableState, player: str) -> int:
    cap = s.zone(player, "capitano")
    return int(cap[-1].props.get("life") or 0) if cap else 0


def captain_difference(s: TableState, player: str) -> int:
    """Printed Life Points of the Captain minus its current Life Points."""
    return captain_printed(s, player) - len(s.zone(player, "vita_capitano"))


def decide(rs: Op2009Rules, state: TableState, events: list[RecordedEvent], *,
           policy: str | None = None) -> Decision:
    policy = policy or "mm25"
    if policy not in POLICIES:
        raise ValueError(f"ruleset op2009 has no end-of-time policy {policy!r} (policies: {', '.join(POLICIES)})")
    return Procedure(rs, events, policy).run()


# --- a match nobody recorded: the judge reads these facts off the table (engine/timefacts.py) ----
# The procedure follows the play after the call (finish the turn, then the additional condition,
# then sudden death), so the judge reads the table at each point the procedure stops at and runs it
# again with what has happened since: the decision says what to play and what to read next.

TIME_FACTS = (
    # the examples --help prints are possible best-of-three values (QA88 #3: it printed 3-3 and 3)
    Fact("games", "each", "games won by each player in this match", 0, 3, eg="1-0"),
    # drawn games: the rulebook has a game end in a draw (OP09-VITT-4) and says nothing of how one
    # counts in the match; the tool's choice: for nobody, so they only reach the result's drawn games
    Fact("drawn", "count", "games drawn in this match (they count for nobody)", 0, 3, required=False,
         optional="0 if left out", eg="1"),
    Fact("in_game", "flag", "a game is in progress (no: between games, sideboarding)"),
    Fact("turn_over", "flag", "the turn in progress at the call has ended", required=False,
         optional="asked for when a game was in progress"),
    # both: both reached one at once, a drawn game (OP09-VITT-4; QA88 #6: refused as "not a player")
    Fact("won", "player", "who reached a regular victory condition in that turn (none: nobody; both: both "
         "at once, a drawn game)", required=False, none_ok=True, both_ok=True,
         optional="asked for once the turn is over"),
    Fact("turn_of", "player", "whose turn it was", required=False,
         optional="asked for under mm25 when the match is tied"),
    Fact("damage", "each", "Life Points each Captain has lost (printed minus now)", 0, 99, required=False,
         optional="asked for when the match is tied and nobody won that turn"),
    Fact("sudden", "player", "sudden death: who first reached a victory condition or damaged the opposing "
         "Captain (none: nobody yet; both: both at once, a draw)", required=False, none_ok=True, both_ok=True,
         optional="asked for in sudden death"),
)


def logged_facts(rs: Op2009Rules, s: TableState) -> dict[str, Any]:
    """Of TIME_FACTS, those a recorded log knows (Ruleset.logged_facts): the games won and drawn, and
    whether a game was in progress, when time was called (the last call the table `s` holds), or
    now where the log holds no call (the judge calls it with the facts). A log of no game knows
    none (a match nobody recorded: the judge's facts are all there is). What follows the call (the
    turn played out, who won it, the sudden death) is the table's, read by the judge (QA88 #2: on a
    log at 1-0 with game 2 under way, games=0-0 in_game=no was recorded and the match ended 3-1)."""
    if s.extra.get("game") is None and not s.extra.get("games"):
        return {}
    call = s.extra.get("time")
    if call is None:
        return {"games": dict(s.extra["score"]), "drawn": drawn_before(s, None), "in_game": rs.in_play(s)}
    return at_call(s, call)


def at_call(s: TableState, call: dict[str, Any]) -> dict[str, Any]:
    """The games won and drawn the log held when time was called (`call`: the state's `time`), and
    whether a game was in progress then."""
    return {"games": dict(call["score"]), "drawn": drawn_before(s, call["position"]),
            "in_game": not call["sideboarding"]}


def drawn_before(s: TableState, position: int | None) -> int:
    """The drawn games the log holds that ended before `position` (None: all of them)."""
    return sum(1 for g in s.extra["games"] if not g["winner"] and not g.get("awarded")
               and (position is None or (g.get("position") or 0) < position))


BEST_OF_THREE = "incontri al meglio delle tre partite"  # the book's words for the format (OP09-PREP-5)


class FactsProcedure(Procedure):
    """Situazione Fine Tempo on what the judge read off the table: the same branches, quotes and
    decisions as a recorded match's `Procedure`, each step taken from a fact instead of the log."""

    def __init__(self, rs: Op2009Rules, players: list[str], facts: dict, policy: str):
        self.rs, self.policy, self.steps, self.lines = rs, policy, [], []
        self.players, self.facts = players, facts
        # the facts the branch taken reads (drawn always: it reaches the result's drawn games)
        self.used = {"games", "drawn", "in_game"}

    def unused(self) -> list[str]:
        """The facts given that the branch taken did not read (QA88 #7: won=A between games was said
        as read and recorded with no word that nothing read it)."""
        return [k for k in self.facts if k not in self.used]

    def reachable(self, score: dict[str, int], drawn: int) -> None:
        """FactsError (key games or drawn) unless the games won and drawn are a position a match still
        under way can reach (QA88 #3: games=2-0 got the 1-0 sideboarding rule and ended 3-1; 3-3 and a
        fourth game after 1-1 with a drawn game were decided). A best of three ends at two wins or
        after three games (the ruleset's `games` option: 1, a single game); the book names the format,
        «al meglio delle tre partite» (OP09-PREP-5), and the tool ends a match as its log does."""
        best_of = int(self.rs.opts.get("games", 3))
        need, played = best_of // 2 + 1, sum(score.values()) + drawn
        fmt = (f"a best of three (\u00ab{BEST_OF_THREE}\u00bb, OP09-PREP-5)" if best_of == 3
               else "a single game (the ruleset's option games=1)" if best_of == 1 else f"a best of {best_of}")
        said = "-".join(str(n) for n in score.values())
        ahead = [p for p, n in score.items() if n >= need]
        if len(ahead) > 1:
            raise FactsError(f"games={said} is no score of {fmt}: it ends when a player has won {need}, so "
                             f"both players cannot have won {need}", 0, "games")
        if ahead:
            raise FactsError(f"games={said}: {ahead[0]} has won {score[ahead[0]]} games, and {fmt} ends at "
                             f"{need} wins: the match is over, not decided by time; record its result (its "
                             f"games, or the tournament's result)", 0, "games")
        if played >= best_of:
            key = "drawn" if drawn else "games"
            over = ("the match is over, not decided by time; record its result" if played == best_of
                    else "no match gets there")
            raise FactsError(f"games={said} drawn={drawn} make {played} games played, and {fmt} has at most "
                             f"{best_of}: {over}", 0, key)

    def need(self, key: str, why: str):
        self.used.add(key)
        if key not in self.facts:
            f = next(f for f in TIME_FACTS if f.key == key)
            raise FactsError(f"the decision needs {key}= ({f.what}): {why}", 0, key)
        return self.facts[key]

    def run(self) -> Decision:
        a, b = self.players
        score = self.facts["games"]
        self.reachable(score, self.facts.get("drawn") or 0)
        self.say(f"Time was called; games won: {a} {score[a]} - {score[b]} {b}.")
        if not self.facts["in_game"]:
            if score[a] != score[b]:
                return self.sideboard_one_up(a, b, score)
            # a game was played if one was won or drawn; at 0-0 without drawn= the facts do not say
            drawn = self.facts.get("drawn")
            started = True if score[a] > 0 or drawn else (False if drawn == 0 else None)
            branch, rule_id = self.tied_between_games(score[a], started=started)
            return self.sudden(branch, rule_id, new_game=True)
        tied = score[a] == score[b]
        rule = "OP09-TEMPO-PARI-1" if tied else "OP09-TEMPO-VANT-1"
        self.say(f"The match is tied ({score[a]}-{score[b]}), a game in progress." if tied else
                 f"{max(score, key=score.get)} leads {max(score.values())}-{min(score.values())}, a game in progress.")
        self.say(self.quote(rule))
        branch = "parita" if tied else "vantaggio"
        if not self.need("turn_over", "a game was in progress when time was called"):
            self.say("Decision: play on. The player whose turn it is finishes it; then read the table again.")
            return self.decision("continue", None, f"{branch}/turno-in-corso", rule)
        won = self.need("won", "the turn in progress has ended")
        return self.tied_turn_over(won) if tied else self.ahead_turn_over(won, score)

    def tied_turn_over(self, won: str | None) -> Decision:
        a, b = self.players
        self.say(self.quote("OP09-TEMPO-PARI-2"))
        if won == BOTH:  # as a recorded game drawn in that turn (Procedure.tied)
            self.say("Both players reached a victory condition at the same time: the game is a draw and the match "
                     "stays tied; the match is a draw (documented choice).")
            self.say(self.quote("OP09-VITT-4"))
            return self.decision("draw", None, "parita/condizione-regolamentare", "OP09-VITT-4")
        if won:
            self.say(f"{won} reached a regular victory condition in that turn: {won} wins the game and the match.")
            return self.decision("win", won, "parita/condizione-regolamentare", "OP09-TEMPO-PARI-2")
        self.say("Neither player reached a regular victory condition.")
        self.say(self.quote("OP09-TEMPO-PARI-3"))
        diffs = self.need("damage", "the match is tied and nobody won the turn")
        self.say(f"Life Points lost by the Captains: {a} {diffs[a]}, {b} {diffs[b]}.")
        decided = self.additional_condition(
            a, b, diffs, lambda: self.need("turn_of", "policy mm25 looks at the end of the player's own turn"),
            "the turn")
        if decided is not None:
            return decided
        self.say(self.quote("OP09-TEMPO-PARI-4"))
        return self.sudden("parita/morte-improvvisa", "OP09-TEMPO-PARI-4", new_game=False)

    def ahead_turn_over(self, won: str | None, score: dict[str, int]) -> Decision:
        a, b = self.players
        leader = a if score[a] > score[b] else b
        trailer = b if leader == a else a
        if won == trailer:
            self.say(f"{trailer} won the game in that turn: the match is 1-1.")
            self.say(self.quote("OP09-TEMPO-VANT-2"))
            self.say(self.quote("OP09-TEMPO-VANT-3"))
            return self.sudden("vantaggio/1-1-nuova-partita", "OP09-TEMPO-VANT-2", new_game=True)
        if won == leader:
            self.say(f"{leader} won the game in that turn: {leader} wins the match.")
            return self.decision("win", leader, "vantaggio/condizione-regolamentare", "OP09-TEMPO-VANT-1")
        if won == BOTH:  # as a recorded game drawn in that turn (Procedure.one_ahead)
            self.say("The game ended in a draw in that turn (both reached a victory condition at once): nobody "
                     "reached a victory condition alone.")
        else:
            self.say("Neither player reached a regular victory condition in that turn.")
        self.say(f"{leader} won the previous game and wins the match.")
        return self.decision("win", leader, "vantaggio/vince-chi-e-avanti", "OP09-TEMPO-VANT-1")

    def sudden(self, branch: str, rule_id: str, *, new_game: bool) -> Decision:
        first = self.facts.get("sudden")
        self.used.add("sudden")
        if first == BOTH:  # as a recorded sudden death's `both` (Procedure.sudden_death)
            self.say("Both players reached a victory condition or damaged the opposing Captain at the same time, "
                     "not in a Battle between the Captains: a draw (by analogy with OP09-VITT-4).")
            return self.decision("draw", None, branch + "/contemporaneo", "OP09-VITT-4")
        if first:
            self.say(f"{first} is the first to reach a regular victory condition or to inflict damage on the "
                     "opposing Captain and wins the match.")
            return self.decision("win", first, branch + "/danno-al-capitano", rule_id)
        self.say(("Decision: play on. Start a new game (its loser-starts rule applies as usual); "
                  if new_game else "Decision: play on (sudden death). ")
                 + "the first player to reach a regular victory condition or to inflict damage on the opposing "
                 "Captain wins the match; then read the table again with sudden=PLAYER.")
        return self.decision("continue", None, branch + ("/da-giocare" if new_game else ""), rule_id)


def decide_from_facts(rs: Op2009Rules, players: list[str], facts: dict, *, policy: str | None = None) -> Decision:
    policy = policy or "mm25"
    if policy not in POLICIES:
        raise ValueError(f"ruleset op2009 has no end-of-time policy {policy!r} (policies: {', '.join(POLICIES)})")
    procedure = FactsProcedure(rs, players, facts, policy)
    decision = procedure.run()
    unused = procedure.unused()
    if unused:
        decision.steps.append(f"Not used: {facts_text({k: facts[k] for k in unused}, players)}: the branch taken "
                              f"({decision.branch}) does not read {'it' if len(unused) == 1 else 'them'}; "
                              "recorded with the facts as read.")
    return decision
