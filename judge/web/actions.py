"""Every write the web desk can make, once: the HTML forms and the JSON API both come here. An
action checks the caller's grant (role and scope), reads its fields (strings from a form or JSON
values) with clear errors, and calls the same library function as the CLI.

    run_action(ctx, grant, "record_results", tid, {"lines": "12 2-1"})  -> {"message": ..., ...}
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.match import InputError
from engine.schema import direction_problem

from judge.tournament import Tournament
from judge.tournament import entry, placings, reports, rounds
from judge.tournament.aggregate import drop_words
from judge.tournament.registration import import_registrations
from judge.web.auth import (
    ACTION_WORDS, JUDGE, ORGANIZER, PLAYER, RECORDER, SCOREKEEPER, Forbidden, Grant, new_token_id, recorder_claims,
    staff_claims, who_can,
)

MAX_TEXT = 200_000


@dataclass
class Action:
    permission: str
    run: Callable[["Context", Tournament, Grant, dict[str, Any]], dict[str, Any]]
    player_scoped: bool = False


class Context:
    """What an action may need beyond the tournament: the desk, the token signer, and the browser's
    device id (judge/web/device.py; None: none sent), which a player's report keeps."""

    def __init__(self, desk, signer, base_url: Callable[[], str], device: str | None = None):
        self.desk, self.signer, self.base_url, self.device = desk, signer, base_url, device


# --- field readers: a form's strings or JSON values, refused with the field's name -------------


def required_words(name: str) -> str:
    """A missing field's refusal, naming it: a page shows the words alone, and has several boxes
    (QA86 #11: "this field is required" under an appeal's reason named none)."""
    return f"the {name.replace('_', ' ')} is required: it was empty"


def text(f: dict[str, Any], name: str, *, required: bool = True, limit: int = 500) -> str | None:
    v = f.get(name)
    if v is None or (isinstance(v, str) and not v.strip()):
        if required:
            raise InputError(required_words(name), field=name)
        return None
    if not isinstance(v, str):
        raise InputError("must be text", field=name)
    # a textarea's line breaks come as CR LF (the HTML form encoding), an old client's as a lone CR:
    # a line break, which free text may hold, where the schema refused the CR ("control character
    # U+000D", naming no field, for a ruling of two lines)
    v = v.replace("\r\n", "\n").replace("\r", "\n")
    if len(v) > limit or "\x00" in v:
        raise InputError(f"at most {limit} characters, no NUL", field=name)
    # a text direction control: the schema refuses it too, later, in words that name no box of the
    # page (QA86 #5); said here. (Not every control character: a textarea's lines end in CR LF.)
    if (problem := direction_problem(v)) is not None:
        raise InputError(f"the {name.replace('_', ' ')}: {problem}", field=name)
    return v.strip()


def number(f: dict[str, Any], name: str, *, required: bool = True, low: int = 1, high: int = 100_000) -> int | None:
    v = f.get(name)
    if v is None or v == "":
        if required:
            raise InputError(required_words(name), field=name)
        return None
    if isinstance(v, bool):
        raise InputError("must be a whole number", field=name)
    try:
        n = int(v) if isinstance(v, int) else int(str(v).strip())
    except ValueError:
        raise InputError(f"must be a whole number, got {str(v)[:20]!r}", field=name) from None
    if not low <= n <= high:
        raise InputError(f"must be between {low} and {high}", field=name)
    return n


def flag(f: dict[str, Any], name: str) -> bool:
    v = f.get(name)
    return v is True or (isinstance(v, str) and v.strip().lower() in ("1", "true", "on", "yes"))


# --- the actions ------------------------------------------------------------------------------


def _register(ctx, t, g, f):
    names = [n for n in (text(f, "names", limit=MAX_TEXT) or "").splitlines() if n.strip()]
    events = t.register_many(names, allow_similar=flag(f, "allow_similar"))
    return {"message": f"registered {len(events)} player{'s' if len(events) != 1 else ''}",
            "players": [e.payload["player"] for e in events]}


def _import_csv(ctx, t, g, f):
    events = import_registrations(t, text(f, "csv", limit=MAX_TEXT * 10), text(f, "filename", required=False)
                                  or "registrations.csv", allow_similar=flag(f, "allow_similar"))
    return {"message": f"registered {len(events)} players from the CSV file",
            "players": [e.payload["player"] for e in events]}


def _drop(ctx, t, g, f):
    e = t.drop(text(f, "player"), text(f, "reason", required=False))
    return {"message": drop_words(t.state(), e), "position": e.position}


def _bye(ctx, t, g, f):
    e = t.grant_bye(text(f, "player"), number(f, "round", required=False), text(f, "reason", required=False))
    return {"message": f"{e.payload['player']} has a bye in round {e.payload['round']}", "position": e.position}


def _pair(ctx, t, g, f):
    rp = t.pair(explain=True)
    return {"message": f"Round {rp.round} paired", "pairing": rp.to_dict()}


def _unpair(ctx, t, g, f):
    reason = text(f, "reason")
    if flag(f, "again"):
        rp = rounds.repair(t, reason=reason)
        return {"message": f"Round {rp.round} paired again", "pairing": rp.to_dict()}
    rounds.unpair(t, reason=reason)
    return {"message": "the last round's pairing is undone"}


def _swap(ctx, t, g, f):
    e = rounds.swap_players(t, text(f, "player_a"), text(f, "player_b"), reason=text(f, "reason"))
    return {"message": "{} and {} swapped seats".format(*e.payload["players"]), "position": e.position}


def _close(ctx, t, g, f):
    e = rounds.close_round(t)
    warning = rounds.close_warning(t, e)  # the desk's button asked first (its confirmation lists them)
    return {"message": f"round {e.payload['round']} closed" + (f"; {warning}" if warning else ""),
            "position": e.position, "warnings": [warning] if warning else []}


def _top_cut(ctx, t, g, f):
    # the library's rule, as the CLI's: refused while declared Swiss rounds remain, unless the
    # organizer ends Swiss early on purpose (the desk's confirmation sends end_swiss_early)
    rp = t.top_cut(number(f, "size", required=False, low=2, high=1024), end_swiss_early=flag(f, "end_swiss_early"))
    return {"message": f"{rp.notes[0]} paired" + (f" ({rp.notes[1]})" if len(rp.notes) > 1 else ""),
            "pairing": rp.to_dict()}


def _take_again(ctx, t, g, f):
    e = placings.take_again(t, text(f, "warning"), text(f, "reason"))
    p = e.payload
    taken = p.get("matches") or []  # an event that names none (not record_matches' shape): said so, not blank
    source = f"match{'es' if len(taken) > 1 else ''} {', '.join(taken)}" if taken else "its match"
    return {"message": f"round {p['round']} table {p['table']}: the result taken again from {source} "
                       f"(#{e.position})", "position": e.position}


def _decide(ctx, t, g, f):
    events = placings.decide(t, text(f, "warning"), text(f, "choice"), text(f, "reason"))
    return {"message": f"{f.get('choice')}: recorded", "positions": [e.position for e in events]}


GRID_ENTRY = re.compile(r"^\s*(\d+)\D+(\d+)\D+(\d+)(?:\D+(\d+))?\s*$")


def grid_entry(line: str, example: str = "2-1") -> tuple[int, str]:
    """The results grid's one line: the table, then the games, any separators (`12 2-1`, `12.2.1`
    from a phone's number pad, `12 2-1-0`): (table, 'W-L-D'). grid.js reads it the same way.
    `example`: a result in the round's format, for the refusal (`1-0` in a best of one)."""
    m = GRID_ENTRY.match(line)
    if not m:
        raise InputError(f"type the table and the result: 12 {example} (or 12.{example.replace('-', '.')}), got "
                         f"{line[:40]!r}", field="entry")
    return int(m.group(1)), f"{m.group(2)}-{m.group(3)}-{m.group(4) or 0}"


def _record_results(ctx, t, g, f):
    if f.get("entry") is not None:  # the grid's form without JavaScript
        st = t.state()
        rnd = st.round(number(f, "round", required=False) or 0) or st.current
        pairs = [grid_entry(text(f, "entry", limit=40), st.match_format(rnd.stage).example if rnd else "2-1")]
    elif f.get("lines") is not None:
        pairs = entry.parse_entries(text(f, "lines", limit=MAX_TEXT), "lines")
    else:
        pairs = [(number(f, "table"), text(f, "result", limit=20))]
    try:
        done = entry.record_results(t, pairs, round_no=number(f, "round", required=False),
                                    overwrite=flag(f, "overwrite"), reason=text(f, "reason", required=False),
                                    override_reports=g.role != SCOREKEEPER,
                                    settle_judges_warnings=g.role != SCOREKEEPER)
    except entry.JudgesWarning as e:  # QA86 1: a scorekeeper's entry settled the head judge's warning
        raise _judges_warning(e) from None
    except entry.ReportsDiffer as e:
        if g.role == SCOREKEEPER:  # a scorekeeper enters slips; judges and the organizer decide disputes
            c = e.conflicts[0]
            said = "; ".join(f"{p} reported {s}" for p, s in c["reports"].items())
            # "your entry": what the scorekeeper just typed (QA75 6: "the slip says" when no slip exists)
            raise Forbidden(f"table {c['table']} is disputed ({said}; your entry says {c['new']}): a judge or the "
                            "organizer decides it in the judges' queue, with a reason; call a judge") from None
        raise  # 409 with its conflicts (`said`, `needs_reason`): the grid asks for the reason
    return {"message": ", ".join(f"table {d.table}: {d.status}" for d in done[:5])
            + (f" and {len(done) - 5} more" if len(done) > 5 else ""), "entered": [d.to_dict() for d in done]}


def _judges_warning(e: entry.JudgesWarning) -> Forbidden:
    """A scorekeeper's entry or undo over a result with a warning a judge settles: who does, and how."""
    return Forbidden(f"{e.message}. A scorekeeper link does not enter it: a judge or the organizer enters the "
                     "head judge's result (overwrite, with a reason) or, once the match gives it, takes it from "
                     "the match (the desk's warnings say how); call a judge")


def _undo_result(ctx, t, g, f):
    try:
        ev, back = entry.undo_result(t, number(f, "table"), round_no=number(f, "round", required=False),
                                     reason=text(f, "reason", required=False) or f"undone by {g.actor}",
                                     settle_judges_warnings=g.role != SCOREKEEPER)
    except entry.JudgesWarning as e:  # undone, then entered again: the same as entering it over the warning
        raise _judges_warning(e) from None
    return {"message": f"table {number(f, 'table')}: undone; now " + (f"{back} again" if back else "pending"),
            "position": ev.position, "now": back}


def _resolve(ctx, t, g, f):
    ev = reports.resolve_dispute(t, number(f, "table"), text(f, "result", limit=20), reason=text(f, "reason"),
                                 round_no=number(f, "round", required=False))
    return {"message": f"table {ev.payload['table']} decided", "position": ev.position}


def _clock_start(ctx, t, g, f):
    rounds.start_clock(t, number(f, "minutes", high=600))
    return {"message": "the round clock started"}


def _clock_extend(ctx, t, g, f):
    rounds.extend(t, number(f, "table"), number(f, "minutes", high=120), text(f, "reason", required=False))
    return {"message": f"table {f.get('table')} extended"}


def _clock_call(ctx, t, g, f):
    n = len(rounds.call_time(t))
    return {"message": f"time called at {n} table{'s' if n != 1 else ''}"}


def _mint(ctx, t, g, f):
    role = text(f, "role")
    if role not in (JUDGE, SCOREKEEPER, ORGANIZER, RECORDER):
        raise InputError("a link is for a judge, a scorekeeper, an organizer or one match's recorder", field="role")
    name = text(f, "name", limit=64)
    tid = new_token_id()
    grant: dict = {"token_id": tid, "role": role, "name": name}
    if role == RECORDER:  # one recorded match of this tournament, named by its id
        mid = text(f, "match", limit=64)
        if mid not in {m for r in t.state().rounds for m in r.matches.values()}:
            raise InputError(f"{mid!r} is not a recorded match of this tournament (create the round's matches "
                             "first)", field="match")
        grant["match"] = mid
    st = t.state()
    same = [e for e in st.access.values() if e.payload["token_id"] not in st.revoked
            and e.payload["role"] == role and e.payload["name"].casefold() == name.casefold()]
    if same and role != RECORDER and not flag(f, "again"):  # the desk asks; a recorder's link is per match
        old = same[-1]
        raise LinkExists(f"{old.payload['name']} already has a {role} link (id {old.payload['token_id']}, made "
                         f"{old.recorded_at[11:16]} UTC) that still works. A link is shown only once: if it was "
                         "lost, revoke it and make a new one; to make a second link as well, send the form again "
                         "with `again`", field="again", existing=old.payload["token_id"])
    (e,) = t.append(t.state(), [t._draft("access.granted", grant)])
    if role == RECORDER:
        token = ctx.signer.sign(recorder_claims(t.id, grant["match"], tid, name))
        link = f"{ctx.base_url()}/m/{grant['match']}/record?k={token}"
    else:
        token = ctx.signer.sign(staff_claims(role, t.id, tid, name))
        link = f"{ctx.base_url()}/t/{t.id}?k={token}"
    return {"message": f"{role} link for {name}", "token_id": tid, "role": role, "name": name,
            "link": link, "position": e.position, **({"match": grant["match"]} if role == RECORDER else {})}


class LinkExists(InputError):
    """The same role and name already hold a working link: made again only when confirmed."""

    def __init__(self, message: str, *, field: str, existing: str):
        super().__init__(message, field=field)
        self.existing = existing


def _create_matches(ctx, t, g, f):
    """A recorded match per table of the round (the recorder pages and the players' judge calls)."""
    made = rounds.create_matches(t, round_no=number(f, "round", required=False))  # the tournament's game
    return {"message": f"{len(made)} recorded match{'es' if len(made) != 1 else ''} for the round", "matches": made}


def _revoke(ctx, t, g, f):
    tid = text(f, "token_id", limit=40)
    if tid not in t.state().access:
        raise InputError(f"no link {tid!r} was minted for this tournament", field="token_id")
    t.append(t.state(), [t._draft("access.revoked", {"token_id": tid, "reason": text(f, "reason", required=False)})])
    return {"message": f"link {tid} revoked"}


def _report(ctx, t, g, f):
    player = text(f, "player", limit=200)
    for name, own in (("round", g.round), ("table", g.table)):
        if f.get(name) not in (None, "") and number(f, name) != own:
            raise Forbidden(f"this link is for round {g.round} table {g.table}, not {name} {f.get(name)}")
    rnd = t.state().round(g.round)
    seat = next((p for p in rnd.tables() if p.table == g.table), None) if rnd else None
    if seat is None or player not in (seat.player1, seat.player2):
        raise Forbidden(f"{player!r} does not play at table {g.table} of round {g.round}")
    events, view = reports.report_result(t.with_actor(player, g.recorded_by), player, text(f, "result", limit=20),
                                         round_no=g.round, table=g.table, device=ctx.device)
    return {"message": {"pending": "reported", "reported": "reported: waiting for your opponent",
                        "confirmed": "confirmed", "disputed": "the reports differ: a judge is coming"}[view.status],
            "status": view.status, "stored": len(events), "table": view.to_dict()}


ACTIONS: dict[str, Action] = {
    "register": Action("register", _register),
    "import_csv": Action("register", _import_csv),
    "drop": Action("drop", _drop),
    "bye": Action("bye", _bye),
    "pair": Action("pair", _pair),
    "unpair": Action("unpair", _unpair),
    "swap": Action("swap", _swap),
    "close": Action("close", _close),
    "top_cut": Action("top_cut", _top_cut),
    "decide": Action("decide", _decide),
    "take_again": Action("take_again", _take_again),
    "record_results": Action("record_result", _record_results),
    "undo_result": Action("undo_result", _undo_result),
    "resolve": Action("resolve", _resolve),
    "clock_start": Action("clock", _clock_start),
    "clock_extend": Action("clock", _clock_extend),
    "clock_call": Action("clock", _clock_call),
    "mint": Action("mint", _mint),
    "revoke": Action("revoke", _revoke),
    "create_matches": Action("create_matches", _create_matches),
    "report": Action("report", _report, player_scoped=True),
}


def run_action(ctx: Context, grant: Grant, name: str, tid: str, fields: dict[str, Any]) -> dict[str, Any]:
    """Check, then write. Forbidden (403) or InputError (422) store nothing."""
    action = ACTIONS.get(name)
    if action is None:
        raise InputError(f"no action {name!r}", field="action")
    if action.player_scoped:
        # a player's link names its round and table; the action is checked against them
        grant.require(action.permission, tid, grant.round, grant.table)
    else:
        grant.require(action.permission, tid)
    if grant.role == PLAYER and not action.player_scoped:
        raise Forbidden(f"a player link cannot {ACTION_WORDS[action.permission]}: {who_can(action.permission)}")
    return ctx.desk.write(tid, grant, lambda t: action.run(ctx, t, grant, fields))
