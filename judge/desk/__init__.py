"""The judge's desk as a library: record judge actions, read the match clock, review a match (its
findings, the desk's findings, how it ended, the result slip), audit one moment of it, and decide a match
when time is called (timelimit.py, imported on its own).

The CLI (`judge/cli/desk.py`) is a thin shell over these functions; reports and exports use `review()`
so every output shows the same findings.
"""

from judge.desk.actions import (appeal_to_head_judge, call_answered_words, decide_appeal, judge_actor,
                                last_game_event, not_current_mark, record)
from judge.desk.clock import parse_time, Clock, format_left, clock_of, started_at_clock
from judge.desk.review import SEVERITY_ORDER, Review, review, finding_rows, action_rows, penalty_rows
from judge.desk.audit import audit, render_audit
