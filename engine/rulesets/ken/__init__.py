"""`ken`: Ken il Guerriero, one plug-in package.

Files: cards.py, damage.py, notation.py, rules.toml, ruleset.py, table.py, vocab.py. The registry (engine/rulesets/__init__.py) finds `RULESET` here; the
notation core finds the grammar in `notation.py`; the catalogue is `rules.toml`.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
