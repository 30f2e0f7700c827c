"""`ken`: Ken il Guerriero, one plug-in package.

- cards.py: card facts the rules need
- damage.py: the damage distribution
- notation.py: its notation grammar
- rules.toml: the rule catalogue (id, section, status, quote, en)
- ruleset.py: apply/check, outcome, deck checks
- table.py: table helpers (zones, derived values)
- vocab.py: the event kinds (payload schemas)

The registry (engine/rulesets/__init__.py) finds `RULESET` here; the notation core finds the grammar in
notation.py beside it. docs/rulesets/ken.md describes the game as the tool knows it.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
