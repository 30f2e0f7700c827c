"""The hidden-information invariant (tests/rulesets/hidden.py) as each game's tests run it: on one
example file read through the importers, and on one generated game in a folder of its own (hypothesis
runs many games in one test, so pytest's tmp_path would be shared between them)."""
from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.rulesets.example_logs import read_example
from tests.rulesets.hidden import Step, assert_hiding_adds_nothing


def assert_example_hides_nothing(ruleset: str, path: Path, folder: Path) -> None:
    log = read_example(path, folder / "imported")
    assert_hiding_adds_nothing(ruleset, log.steps, folder, players=log.players, options=log.options)


def assert_game_hides_nothing(ruleset: str, players: Sequence[str], steps: Sequence[Step],
                              options: dict | None = None) -> None:
    with tempfile.TemporaryDirectory() as d:
        assert_hiding_adds_nothing(ruleset, steps, Path(d), players=players, options=options)
