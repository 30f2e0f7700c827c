"""`table`: the generic table, one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py).

docs/rulesets/table.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
