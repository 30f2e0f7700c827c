"""Plug-in folders: a format (an importer, an exporter) is a module named after it in a package,
found with no registration. One lookup serves every such folder."""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

from engine.match import InputError
from engine.schema import shown


def names(package_path: Iterable[str]) -> list[str]:
    """The plug-in modules of a package (modules starting with "_" are helpers, not formats)."""
    return sorted(m.name for m in pkgutil.iter_modules(package_path) if not m.name.startswith("_"))


def load(package: str, package_path: Iterable[str], name: str, what: str) -> ModuleType:
    """The plug-in `name`, or an InputError listing the ones there are."""
    known = names(package_path)
    if name not in known:
        raise InputError(f"unknown {what} {shown(name)} ({what}s: {', '.join(known)})", field="format")
    return importlib.import_module(f"{package}.{name}")
