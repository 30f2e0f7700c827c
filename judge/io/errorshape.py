"""Where an input error is, and a refused batch's lines, as JSON: one shape for the CLI's `--json`
(judge/cli/common.py, the README's "Errors as JSON") and the web API's 422 (judge/web/routes/common.py).
QA82 2: the API's refusal of a results batch had no `errors` array, so a client had to take the
message apart; both now build it here. Only `os` and `re` at import: the CLI imports this at
start-up, where `tablejudge --version` must not load the engine (tests/cli/test_startup_imports.py)."""
from __future__ import annotations

import os
import re
from typing import Any

LINE_MESSAGE = 500  # characters of one line's message in `errors`
_FILE_POSITION = re.compile(r"(?s)(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?")


def short(text: str, limit: int) -> str:
    """`text` cut to `limit` characters by engine.schema.cut, the one shortening helper (a cut
    message and a cut quoted value end the same way: "… (5,000 characters)"). Imported when a
    message is said (an error), never at start-up."""
    from engine.schema import cut

    return cut(text, limit)


def location(e: BaseException, *, local_files: bool = False) -> dict[str, Any]:
    """Where an input error is, as the error carries it: a notation error its path, line and
    column; any other its `where` ("FILE:LINE[:COLUMN]", a file, or words such as "Ann's
    decklist in M1") and its field. Only the keys known are there. `local_files`: the CLI's, where
    a bare `where` naming a file on this machine is the user's own file; a server never asks the
    disk (an error's words must not tell a client which paths exist there)."""
    out: dict[str, Any] = {}
    path, line, col = getattr(e, "path", ""), getattr(e, "line", 0), getattr(e, "col", 0)
    where = getattr(e, "where", "")
    m = _FILE_POSITION.fullmatch(where) if isinstance(where, str) and where else None
    if isinstance(path, str) and path:
        out["file"] = path
    elif m:
        out["file"] = m.group("file")
        line, col = line or int(m.group("line")), col or int(m.group("column") or 0)
    elif isinstance(where, str) and where:
        out["file" if local_files and os.path.isfile(where) else "where"] = short(where, LINE_MESSAGE)
    if isinstance(line, int) and line > 0:
        out["line"] = line
    if isinstance(col, int) and col > 0:
        out["column"] = col
    fld = getattr(e, "field", "")
    if isinstance(fld, str) and fld:
        out["field"] = fld
    return out


def line_errors(errors: list[BaseException], *, local_files: bool = False) -> list[dict[str, Any]]:
    """A refused batch's `errors`: one object a line, its `file`, `line`, `column`, `field` as
    known and `message`, the line as the terminal says it. `local_files`: as `location`."""
    return [{**location(x, local_files=local_files), "message": short(str(x), LINE_MESSAGE)} for x in errors]
