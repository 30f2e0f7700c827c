"""A judge's "Decide again" on the web (`/m/ID/decide`): for a recorded match whose time decision a
later correction left out of date (engine/decisions.py), or whose time was called and never
decided, what `tablejudge timelimit --dry-run` decides — the same `run(..., dry_run=True)` and the
same `text_report` — shown as a page; the judge's confirm is the `decide` match action
(judge.web.match_actions), which records it with that same `run`. One decision path: the web only
shows and confirms.

    p = preview(match, policy=None)
    p.result.decision.result, p.report      # as `timelimit M --dry-run` prints it
    p.refusal                               # an InputError (facts the log lacks, no time call)
    p.needs_facts, p.facts_to_read          # it asks for facts read off the table: the line to fill in
    policy_of(form)                         # the `policy` sent, checked as the actions check it
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.match import InputError, Match
from judge.web.actions import text

POLICY_LIMIT = 40  # characters of a `policy` field: no ruleset's policy name comes near it


def policy_of(fields: Any) -> str | None:
    """The end-of-time policy a decide page (`?policy=`) or a `time`/`decide` action was sent; None:
    the ruleset's default. One check for the page and the actions: a name too long is refused the
    same way on both (InputError, field `policy`), never cut to a name nobody sent."""
    try:
        return text(fields, "policy", required=False, limit=POLICY_LIMIT) or None
    except InputError as e:
        raise InputError(f"no end-of-time policy is named that: {e.message}", field="policy") from None


@dataclass(frozen=True)
class Preview:
    head: int                 # the log's head the preview was decided on: the confirm sends it
    result: Any = None        # judge.desk.timelimit.TimeLimitResult (a dry run), or None when refused
    report: str = ""          # text_report(result): the terminal's words
    refusal: InputError | None = None
    # where the log alone lacks counts: the decision recorded after the call that stands, said first
    # (judge.desk.timelimit.recorded_standing), as a preview with a decision says its `standing`
    standing: Any = None

    @property
    def recordable(self) -> bool:
        """A confirm would record it: not already recorded, not contradicting a standing decision,
        not a match decided before time was called."""
        r = self.result
        return r is not None and not r.moot and r.already_recorded is None and r.contradicts is None

    @property
    def needs_facts(self) -> bool:
        """The refusal asks for counts the log does not have (read off the table)."""
        from judge.desk.timelimit import needs_facts
        return self.refusal is not None and needs_facts(self.refusal)

    @property
    def facts_to_read(self) -> str:
        """The facts line the refusal asks to be read off the table (each `?` a value), where it asks
        for facts: what the page's facts form starts from; '' otherwise."""
        return self.refusal.facts if self.needs_facts else ""

    @property
    def bad_policy(self) -> bool:
        """The refusal is of the policy asked for (`?policy=`): the page offers the ones there are."""
        return self.refusal is not None and self.refusal.field == "policy"

    @property
    def no_time_call(self) -> bool:
        from judge.desk.timelimit import NoTimeCalled
        return isinstance(self.refusal, NoTimeCalled)


def preview(m: Match, policy: str | None = None, refusal: InputError | None = None) -> Preview:
    """The dry run of `tablejudge timelimit M [--policy P]`: never stores anything. `refusal`: the
    page's input was refused already (policy_of): shown as the preview's refusal, nothing run."""
    # the desk's time module loads only when a judge uses it
    from judge.desk.timelimit import needs_facts, recorded_standing, run, text_report
    head = m.head_position()  # read first: an event landing meanwhile makes the confirm look again
    if refusal is not None:
        return Preview(head, refusal=refusal)
    try:
        r = run(m, policy, dry_run=True)
    except InputError as e:
        # the standing decision is said where the refusal asks for facts: the rule Preview.needs_facts reads
        return Preview(head, refusal=e, standing=recorded_standing(m) if needs_facts(e) else None)
    return Preview(head, r, text_report(r))


def offer(tl: Any) -> str | None:
    """The label of a link to the decide page for a timeline (judge.replay.timeline.walk): "Decide
    again" where its time decision is out of date, "Decide the end of time" where time was called
    (the call `timelimit` finds: engine.desk.find_time_called, not the end of a policy's extra
    minutes) and nothing decided the match; None otherwise."""
    if tl.match.get("not_decided"):
        return "Decide again"
    if tl.match.get("outcome") is None and tl.time_called is not None:
        return "Decide the end of time"
    return None
