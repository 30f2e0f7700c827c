"""A command for one match given the id of something else (a tournament): what to say instead.

`Env.match` is where every match command opens its match; the engine refuses a stream that is not
a match (engine.store.NotAMatch) and this module words the refusal for the command that was run,
naming the command that does for a tournament what the user asked of a match. Exit 2 (an input
error), never a replay of something that has no table.
"""
from __future__ import annotations

from engine.store import NotAMatch

# command -> (what the command needs, which a tournament has not; where to look instead).
# {t}: the tournament's id. Keep each one true: the commands named exist and take a tournament.
_TOURNAMENT: dict[str, str] = {
    "state": "it has no table of cards to show; its players and rounds: `tablejudge tournament show {t}`",
    "validate": "there are no moves to judge; `tablejudge verify {t}` checks its chain, its results and "
                "its round seals",
    "findings": "findings are raised on a match's moves; the tournament's own warnings: "
                "`tablejudge tournament warnings {t}`",
    "audit": "there is no table to look at a moment of; its events: `tablejudge events {t}`, "
             "its players and rounds: `tablejudge tournament show {t}`",
    "report": "a match report needs a match; the tournament's standings page: "
              "`tablejudge tournament standings {t} --html FILE`",
    "replay": "a replay shows one match's table; its events: `tablejudge events {t}`, its standings: "
              "`tablejudge tournament standings {t}`",
    "penalties": "penalties are given in its matches (`tablejudge penalties` with no id lists every "
                 "match's); the tournament: `tablejudge tournament show {t}`",
    "actions": "judge actions are recorded in its matches (`tablejudge actions` with no id lists every "
               "match's); the tournament: `tablejudge tournament show {t}`",
    "appeals": "an appeals file is made from one match's judge calls; the tournament: "
               "`tablejudge tournament show {t}`",
    "export": "a tournament exports only as `--format jsonl` (its event stream: "
              "`tablejudge export {t} --format jsonl`); its standings as CSV: "
              "`tablejudge tournament standings {t} --csv`",
    "timelimit": "time limits are decided per match; the tournament: `tablejudge tournament show {t}`",
    "log": "events are logged to a match; the tournament's results: `tablejudge tournament result {t} W-L-D --table N`",
    "live": "the live recorder records a match; the tournament: `tablejudge tournament show {t}`",
}
_DEFAULT = "see `tablejudge tournament show {t}`"


def refusal(e: NotAMatch, command: str | None) -> NotAMatch:
    """The same refusal, worded for `command` (a top-level command's name, e.g. "state")."""
    if e.created_kind != "tournament.created":
        return e  # the log's own stream: nothing better to point to than its words
    hint = _TOURNAMENT.get(command or "", _DEFAULT).format(t=e.stream)
    return NotAMatch(e.stream, e.created_kind, f"{e.stream} is a tournament, not a match: {hint}")


def command_name() -> str | None:
    """The top-level command being run (`judge penalty` -> "judge"), from click's context."""
    import click

    ctx = click.get_current_context(silent=True)
    names: list[str] = []
    while ctx is not None:
        if ctx.info_name:
            names.append(ctx.info_name)
        ctx = ctx.parent
    # [sub, ..., top-level command, "tablejudge"]
    return names[-2] if len(names) >= 2 else None


def is_tournament(e: NotAMatch) -> bool:
    return e.created_kind == "tournament.created"


def tournament_event_rows(store, stream: str, start: int, stop: int | None) -> list[dict]:
    """`tablejudge events TOURNAMENT`: each event's envelope, with its words (the tournament's
    audit trail's) and whether a correction voided it."""
    from judge.tournament.audit import describe

    events = store.read(stream)
    voided = {e.payload.get("voids") for e in events if e.kind == "correction"}
    return [dict(e.to_dict(), description=describe(e, events), voided=e.position in voided)
            for e in events if e.position >= start and (stop is None or e.position <= stop)]


def tournament_events_text(rows: list[dict]) -> str:
    from judge.report.text import event_row

    return "\n".join(event_row(r["position"], r["actor"], r["description"] + (" (void)" if r["voided"] else ""))
                     for r in rows)


class TournamentStream:
    """What the JSONL exporter reads of a match (its id and its events), for a tournament."""

    def __init__(self, store, stream: str):
        self.store = store
        self.id = stream

    def events(self):
        return self.store.read(self.id)
