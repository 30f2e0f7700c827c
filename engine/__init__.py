"""tablejudge engine: the event-sourced core (event vocabulary, the log, table state, replay, rulesets).

Nothing in engine/ imports judge/.
"""

__version__ = "0.1.0"
