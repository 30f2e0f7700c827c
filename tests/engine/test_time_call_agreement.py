"""DESK-12 has two readers: live input refuses a time call or an end of the extra minutes
(`time_call_problem`), a whole log flags them (desk_findings). They must agree: over any sequence
of calls and marks, the log flags exactly the events live input would have refused had each been
offered after the ones before it (an imported log goes on live, so its flagged events count)."""
from __future__ import annotations

from types import SimpleNamespace

from hypothesis import example, given, settings, strategies as st

from engine.desk import desk_findings, time_call_problem

clocks = st.one_of(st.none(), st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.integers(0, 59)))
steps = st.lists(st.tuples(st.booleans(), clocks), max_size=8)  # (an end of the extra minutes?, clock)


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
def test_the_whole_log_flags_exactly_what_live_input_refuses(seq):
    events = _events(seq)
    flagged = {f.position for f in desk_findings(events, (), ["Ann", "Bob"], None) if f.rule == "DESK-12"}
    refused = {e.position for i, e in enumerate(events)
               if time_call_problem(events[:i], e, head=e.position - 1, extra_minutes=["regional"], ruleset="optcg")}
    assert flagged == refused
