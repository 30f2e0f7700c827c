"""A package's public face, imported on first use (PEP 562).

`judge.report` and `judge.tournament` name many things from many modules; importing them all up
front made every CLI command pay for jinja2 and the HTML modules (issue 17). A package lists its
face once and gets a module `__getattr__` that imports a name's module when the name is first read:

    __getattr__, __all__ = lazy_face(__name__, {"judge.report.match": ("render_match", ...), ...})
"""
from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_face(package: str, face: dict[str, tuple[str, ...]]) -> tuple[Callable[[str], Any], list[str]]:
    where = {name: module for module, names in face.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        setattr(sys.modules[package], name, value)  # the next read is a plain attribute
        return value

    return __getattr__, sorted(where)
