"""`optcg`: ONE PIECE CARD GAME (Bandai rule manual v1.11), one plug-in package.

Files: notation.py, rules.toml, ruleset.py, table.py, time.py, vocab.py, words.py. The registry (engine/rulesets/__init__.py) finds `RULESET` here; the
notation core finds the grammar in `notation.py`; the catalogue is `rules.toml`.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
