"""`grandline`: One Piece "Umfassende Regeln" (German profile), one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py).

docs/rulesets/grandline.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
