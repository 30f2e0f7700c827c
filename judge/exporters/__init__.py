"""Exporters: write a match (or a whole log) in another format. A format is a module in this package
named after it with `EXTENSION` and `export_match(match, stream)` (text formats) or
`export_match_to_path(match, path)` (binary or database formats)."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from engine.match import InputError


def formats() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def exporter(fmt: str) -> ModuleType:
    if fmt not in formats():
        raise InputError(f"unknown export format {fmt!r} (formats: {', '.join(formats())})",
                         field="format")
    return importlib.import_module(f"{__name__}.{fmt}")
