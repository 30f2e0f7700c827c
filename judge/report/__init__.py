"""HTML match and round reports: one self-contained file each (inline CSS and SVG, no scripts, no
network), rendered from plain data by jinja2 templates (templates/report.html, templates/round.html).

Everything game-specific comes through the generic Ruleset interface: `describe(event)` for the
timeline, `key_counters(state)` for the chart, `summary_lines(state)` for the table at the end of
each turn, and `outcome(state)` (through judge.desk.review) for the result. text.py renders the same
things for a terminal.
"""

from judge.faces import lazy_face

# The package's public face, imported on first use (PEP 562): `tablejudge log` imports
# judge.report.text and must not pay for jinja2 and the HTML modules (CLI start-up, issue 17).
__getattr__, __all__ = lazy_face(__name__, {
    "judge.report.views": ("GRID_MAX_ZONES", "GRID_MAX_COLUMNS", "table_view", "grid_layout",
                           "same_layout", "result_text"),
    "judge.report.match": ("PALETTE", "match_context", "counter_chart", "render_match",
                           "write_match_report"),
    "judge.report.round": ("round_context", "write_round_report"),
    "judge.report.files": ("DEFAULT_DIR", "slug", "natural_key", "write_file", "report_path"),
})
