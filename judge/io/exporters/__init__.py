"""Exporters: write a match (or a whole log) in another format. A format is a module in this package
named after it with `EXTENSION` and `export_match(match, stream)` (text formats) or
`export_match_to_path(match, path)` (binary or database formats)."""
from __future__ import annotations

from types import ModuleType

from judge.io import plugins


def formats() -> list[str]:
    return plugins.names(__path__)


def exporter(fmt: str) -> ModuleType:
    return plugins.load(__name__, __path__, fmt, "export format")
