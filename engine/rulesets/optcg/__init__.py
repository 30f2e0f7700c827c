"""`optcg`: ONE PIECE CARD GAME (Bandai rule manual v1.11), one plug-in package.

- hidden.py: what a scorekeeper records unseen (hide) and what a record naming cards must allow
- notation.py: its notation grammar
- rules.toml: the rule catalogue (id, section, status, quote, en)
- ruleset.py: apply/check, outcome, deck checks
- table.py: table helpers (zones, derived values)
- time.py: the end-of-time procedure
- vocab.py: the event kinds (payload schemas)
- words.py: plain words for its event kinds

The registry (engine/rulesets/__init__.py) finds `RULESET` here; the notation core finds the grammar in
notation.py beside it. docs/rulesets/optcg.md describes the game as the tool knows it.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
