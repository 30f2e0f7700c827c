"""The replay: a match event by event, the board after each, what was flagged and what the judges
did, as plain data (timeline.py, board.py, names.py) that the web's replay viewer and recorder show
and that `tablejudge replay` saves as one self-contained HTML file (export.py).

Hidden information: a viewer who may not see hands (anyone but a judge or an organizer, and the
saved file unless asked for the staff's view) gets the log as `Ruleset.hide(kind, payload)` leaves
it, folded again: boards, descriptions and findings then come from what a scorekeeper could see.
"""
