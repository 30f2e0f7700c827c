"""`optcg`: ONE PIECE CARD GAME (Bandai rule manual v1.11), one plug-in package.

The files follow every ruleset package's layout (engine/rulesets/__init__.py), and:

- hidden.py: what a scorekeeper records unseen (hide) and what a record naming cards must allow
- table.py: table helpers (zones, derived values)
- time.py: the end-of-time procedure
- words.py: plain words for its event kinds

docs/rulesets/optcg.md describes the game.
"""
from .ruleset import RULESET

__all__ = ["RULESET"]
