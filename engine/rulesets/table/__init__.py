"""`table`: the generic table, one plug-in package.

- notation.py: its notation grammar
- rules.toml: the rule catalogue (id, section, status, quote, en)
- ruleset.py: apply/check, outcome, deck checks
- vocab.py: the event kinds (payload schemas)

The registry (engine/rulesets/__init__.py) finds `RULESET` here; the notation core finds the grammar in
notation.py beside it. docs/rulesets/table.md describes the game as the tool knows it.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
