"""Where templates come from: the `tablejudge_templates` package (the repo's templates/ folder,
shipped in the wheel), or the repo's templates/ folder when running from a checkout.

    render("standings.html", title=..., rows=...)   # autoescaped: user text stays text
"""
from __future__ import annotations

import importlib.resources
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.events import recorder_words
from engine.words import plural

if TYPE_CHECKING:
    import jinja2

REPO_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"  # judge/report/ -> the repo


def _is_checkout(folder: Path) -> bool:
    """The repo's own templates folder beside this code (a checkout or a git worktree)."""
    marker = folder / "__init__.py"
    return marker.is_file() and "tablejudge" in marker.read_text(encoding="utf-8", errors="replace")


def template_dir() -> Path:
    # a checkout renders with the templates beside its own code: an editable install made from
    # another checkout (or worktree) of the repo would otherwise serve that one's templates
    if _is_checkout(REPO_TEMPLATES):
        return REPO_TEMPLATES
    try:
        folder = Path(str(importlib.resources.files("tablejudge_templates")))
        if folder.is_dir():
            return folder
    except (ModuleNotFoundError, TypeError):
        pass
    return REPO_TEMPLATES


@lru_cache(maxsize=1)
def environment() -> "jinja2.Environment":
    import jinja2  # here, not at the top: only what renders pays for it (CLI start-up, issue 17)

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        autoescape=True,  # every template: user text (names, decklists) is escaped
        # optional fields (a slip's game score, a match's table label) may be absent: they render
        # as nothing, which the templates test for with `{% if %}`
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_visible,
    )
    env.filters["plural"] = plural  # {{ n | plural("event") }} -> "1 event", "2 events"
    env.filters["recorder"] = recorder_words  # {{ e.recorded_by | recorder }}: "root, at a terminal"
    # a served page's link to a file the server serves: the web desk sets its own, which adds the
    # file's content hash (judge/web/app.py); rendered anywhere else, the link as written
    env.globals["asset"] = str
    return env


def _visible(value: Any) -> Any:
    """Every `{{ }}` of every page: control characters written out (`\\u001b`), never raw.
    Autoescaping leaves them be, and a log stored before they were refused may hold them (an ESC
    in a card number rewrites the screen of a judge who `cat`s the report). `|tojson` output
    (Markup) stays Markup: the written-out form is JSON's own."""
    from markupsafe import Markup

    from engine.schema import visible

    if isinstance(value, str):
        text = visible(value)
        return value if text is value else (Markup(text) if isinstance(value, Markup) else text)
    return value


def render(name: str, **data: Any) -> str:
    return environment().get_template(name).render(**data)
