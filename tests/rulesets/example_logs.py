"""Every example log of a game (examples/<game>/), read the way a user reads one: through the project's
importers (JSONL, the text notation) into a real SQLite file, then back out of the store as the steps
`tests.rulesets.hidden` records again known and hidden.

    for log in example_logs("ken", tmp_path):
        assert_hiding_adds_nothing("ken", log.steps, tmp_path / log.name, players=log.players,
                                   options=log.options)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.store import EventStore
from judge.io.importers import guess_format, importer
from tests.conftest import ROOT

EXAMPLES = Path(ROOT) / "examples"
FORMATS = ("jsonl", "notation")  # the importers that read a whole game written by hand


@dataclass
class ExampleLog:
    name: str  # file name, e.g. "quick-game.jsonl"
    players: list[str]
    steps: list[tuple[str, str, dict[str, Any]]]  # (kind, actor, payload) after match.created
    options: dict[str, Any] = field(default_factory=dict)


def example_files(game: str) -> list[Path]:
    return sorted(p for p in (EXAMPLES / game).iterdir()
                  if p.is_file() and guess_format(str(p)) in FORMATS and p.suffix in (".jsonl", ".txt"))


def read_example(path: Path, folder: Path) -> ExampleLog:
    """Import one example file into a fresh SQLite store in `folder` and read its events back."""
    folder.mkdir(parents=True, exist_ok=True)
    with EventStore.open(str(folder / f"{path.name}.db")) as store:
        summary = importer(guess_format(str(path))).import_file(store, str(path))
        events = store.read(summary.match)
    created = events[0].payload
    return ExampleLog(path.name, list(created["players"]),
                      [(e.kind, e.actor, dict(e.payload)) for e in events[1:]],
                      dict(created.get("options") or {}))


def example_logs(game: str, folder: Path) -> list[ExampleLog]:
    return [read_example(p, folder / p.stem) for p in example_files(game)]
