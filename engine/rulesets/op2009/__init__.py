"""`op2009`: One Piece CardGame 2009 (MM25 rules), one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py), and:

- cards.py: card facts the rules need
- time.py: the end-of-time procedure
- words.py: plain words for its event kinds

docs/rulesets/op2009.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
