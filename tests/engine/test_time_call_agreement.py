"""DESK-12 has two readers: live input refuses a time call or an end of the extra minutes
(`time_call_verdict`), a whole log flags them (desk_findings). They must agree: over any sequence
of calls and marks, the log flags exactly the events live input would have refused had each been
offered after the ones before it (an imported log goes on live, so its flagged events count). An
end of the extra minutes long after the call is not refused but flagged (DESK-14): the log flags
exactly the ones live input warns of."""
from __future__ import annotations

from types import SimpleNamespace

from hypothesis import example, given, settings, strategies as st

from engine.desk import LATE_MARGIN, desk_findings, time_call_verdict

MINUTES = {"regional": 5}
clocks = st.one_of(st.none(), st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.integers(0, 59)))
# a call at a clock, then marks near it: within the minutes, just past the margin, hours later
near = st.builds(lambda call, after: (call, f"{(call + after) // 60 % 24:02d}:{(call + after) % 60:02d}"),
                 st.integers(0, 24 * 60 - 1),
                 st.sampled_from([0, 5, 5 + LATE_MARGIN, 6 + LATE_MARGIN, 245, 12 * 60, 12 * 60 + 1]))
steps = st.one_of(
    st.lists(st.tuples(st.booleans(), clocks), max_size=8),  # (an end of the extra minutes?, clock)
    st.builds(lambda cm, rest: [(False, f"{cm[0] // 60:02d}:{cm[0] % 60:02d}"), (True, cm[1]), *rest],
              near, st.lists(st.tuples(st.booleans(), clocks), max_size=4)))


def _events(seq) -> list[SimpleNamespace]:
    out = []
    for position, (mark, clock) in enumerate(seq, start=2):
        payload = {"clock": clock} if clock is not None else {}
        if mark:
            payload["extra_minutes_over"] = True
        out.append(SimpleNamespace(kind="time.called", position=position, payload=payload, actor="judge:Kim"))
    return out


@settings(max_examples=400, deadline=None)
@given(steps)
# found on the old code: live input took the mark before the call for the end of the extra minutes
# and refused the later one ("already ran out"); the log flags only the first
@example([(True, "14:30"), (False, "14:35"), (True, "14:40")])
# QA71: a mark 4 hours after the call was taken in silence; the log must flag what live input warns of
@example([(False, "14:35"), (True, "18:40")])
def test_the_whole_log_flags_exactly_what_live_input_refuses(seq):
    events = _events(seq)
    found = desk_findings(events, (), ["Ann", "Bob"], None, extra_minutes=MINUTES)
    flagged = {f.position for f in found if f.rule == "DESK-12"}
    said = [time_call_verdict(events[:i], e, head=e.position - 1, extra_minutes=MINUTES, ruleset="optcg")
            for i, e in enumerate(events)]
    refused = {e.position for e, v in zip(events, said) if v.refusal}
    assert flagged == refused
    late = {f.position: f.message for f in found if f.rule == "DESK-14"}
    warned = {w.position: w.message for v in said for w in v.warnings}
    assert late == warned
    assert not late.keys() & refused  # a late mark is a warning, never a refusal
