"""A refused batch: every bad line of one input (a results file, a registrations CSV) said at
once, each naming its file:line and field, and nothing of the batch stored. The results desk
(judge/tournament/entry.py) and registration (Tournament.register_many) both refuse through
`refuse`, and the CLI's error boundary (judge/cli/common.py) says a BatchRefused the same way for
every command."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.match import InputError

from judge.tournament.results import OverwriteRefused
from judge.tournament.tables import ReportsDiffer

SHOWN_ERRORS = 50            # a refused batch lists this many bad lines, then "and N more"


class BatchRefused(InputError):
    """Two or more lines of a batch are wrong: nothing was stored. `errors`: every one, in line
    order, each an InputError naming its file:line and field; `lines()` the first SHOWN_ERRORS
    of them as text, then how many more. `summary`: the refusal in one sentence, naming the
    batch's `source` (its file) when known: what the CLI's error boundary says before the lines
    (judge/cli/common.py), the same for every command that refuses a batch."""

    def __init__(self, errors: Sequence[InputError], source: str = "", summary: str = ""):
        self.errors = list(errors)
        of = f" of {source}" if source else ""
        self.summary = summary or f"{len(self.errors)} lines{of} refused; nothing was stored"
        super().__init__("\n  ".join([f"{len(self.errors)} lines refused; nothing was stored:", *self.lines()]))

    @classmethod
    def overwrites(cls, e: OverwriteRefused, source: str = "") -> "BatchRefused":
        """OverwriteRefused's conflicts (ReportsDiffer's too) as a refused batch, one line each (its
        file:line, field `table`), for a command that names the options replacing them."""
        of, n = (f" of {source}" if source else ""), len(e.conflicts)
        what = (f"{n} table(s){of} differ from a player's report or are disputed; nothing was stored (to "
                "record them anyway: --overwrite --reason ...)" if isinstance(e, ReportsDiffer) else
                f"{n} table(s){of} already have a different result; nothing was stored (to replace them: "
                "--overwrite --reason ...)")
        return cls([conflict_error(c) for c in e.conflicts], summary=what)

    def lines(self, limit: int = SHOWN_ERRORS) -> list[str]:
        out = [str(e) for e in self.errors[:limit]]
        if len(self.errors) > limit:
            out.append(f"... and {len(self.errors) - limit} more")
        return out


def refuse(errors: Sequence[InputError], source: str = "") -> None:
    """Raise what a batch with these errors gets: nothing when none, the error itself when one
    (its words unchanged), BatchRefused listing them all when several (`source`: the batch's file)."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise BatchRefused(errors, source)


def conflict_error(c: dict[str, Any]) -> InputError:
    """A conflict of OverwriteRefused as one line's error (its file:line, field `table`); one of
    ReportsDiffer says the reports."""
    if c.get("needs_reason"):
        return InputError(f"{c['said']}; to record it anyway, --overwrite --reason ...", field="table",
                          where=c.get("where") or "")
    return InputError(f"round {c['round']} table {c['table']} already has {c['player1']} {c['old']} "
                      f"{c['player2']} (recorded by {c['by']}), not {c['new']}; to replace it, --overwrite",
                      field="table", where=c.get("where") or "")
