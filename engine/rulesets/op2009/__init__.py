"""`op2009`: One Piece CardGame 2009 (MM25 rules), one plug-in package.

- cards.py: card facts the rules need
- notation.py: its notation grammar
- rules.toml: the rule catalogue (id, section, status, quote, en)
- ruleset.py: apply/check, outcome, deck checks
- time.py: the end-of-time procedure
- vocab.py: the event kinds (payload schemas)
- words.py: plain words for its event kinds

The registry (engine/rulesets/__init__.py) finds `RULESET` here; the notation core finds the grammar in
notation.py beside it. docs/rulesets/op2009.md describes the game as the tool knows it.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
