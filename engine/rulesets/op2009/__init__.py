"""`op2009`: One Piece CardGame 2009 (MM25 rules), one plug-in package.

Files: cards.py, notation.py, rules.toml, ruleset.py, time.py, vocab.py, words.py. The registry (engine/rulesets/__init__.py) finds `RULESET` here; the
notation core finds the grammar in `notation.py`; the catalogue is `rules.toml`.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
