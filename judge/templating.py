"""Templates for reports: one jinja2 Environment with autoescape on, loading from the installed
package `tablejudge_templates` (the repo's templates/ folder, see pyproject.toml), or from the
repo's templates/ folder when running from a checkout."""
from __future__ import annotations

import importlib.resources
from functools import cache
from pathlib import Path

import jinja2

REPO_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _folder() -> Path:
    try:
        folder = Path(str(importlib.resources.files("tablejudge_templates")))
        if folder.is_dir():
            return folder
    except ModuleNotFoundError:
        pass
    return REPO_TEMPLATES


@cache
def environment() -> jinja2.Environment:
    # autoescape everywhere: names, notes and ruling texts come from users
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(_folder())), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True)


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
