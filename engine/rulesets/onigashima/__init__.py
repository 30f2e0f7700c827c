"""`onigashima`: Raid sur Onigashima, one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py), and:

- characters.json: the character table as data
- characters.py: the character table (reads characters.json)
- combat.py: dice arithmetic of a fight

docs/rulesets/onigashima.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
