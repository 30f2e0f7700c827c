"""`table`: the generic table, one plug-in package.

Files: notation.py, rules.toml, ruleset.py, vocab.py. The registry (engine/rulesets/__init__.py) finds `RULESET` here; the
notation core finds the grammar in `notation.py`; the catalogue is `rules.toml`.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
