"""HTML match and round reports: one self-contained file each (inline CSS and SVG, no scripts, no
network), rendered from plain data by jinja2 templates (templates/report.html, templates/round.html).

Everything game-specific comes through the generic Ruleset interface: `describe(event)` for the
timeline, `key_counters(state)` for the chart, `summary_lines(state)` for the table at the end of
each turn, and `outcome(state)` (through judge.desk.review) for the result. text.py renders the same
things for a terminal.
"""

from judge.report.views import (
    GRID_MAX_ZONES, GRID_MAX_COLUMNS, table_view, grid_layout, same_layout, result_text,
)
from judge.report.match import PALETTE, match_context, counter_chart, render_match, write_match_report
from judge.report.round import round_context, write_round_report
from judge.report.files import DEFAULT_DIR, slug, natural_key, write_file
