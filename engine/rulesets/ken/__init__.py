"""`ken`: Ken il Guerriero, one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py), and:

- cards.py: card facts the rules need
- damage.py: the damage distribution
- table.py: table helpers (zones, derived values)

docs/rulesets/ken.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
