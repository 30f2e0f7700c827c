"""Access by link and token, no accounts: who may do what, and where.

A token is `base64url(claims).base64url(HMAC-SHA256(secret, claims))`. Claims:

- `r`: the role: `organizer`, `judge`, `scorekeeper`, `player`, `recorder` (one match's scorekeeper);
- `t`: the tournament (`*` for the organizer link `serve` prints: every tournament);
- `id`: the token's id (staff links: the `access.granted` event that minted it names it; a
  revoked id is refused);
- `nm`: the person's name (staff), recorded in every event they write;
- players only: `n` the round, `tb` the table, `p` the position of the round's pairing (a round
  undone and paired again under the same number gives its tables new links);
- recorders only: `m` the recorded match the link writes (nothing else).

A player's link is good for one table of one round, and only while that round is open: closing
the round (or pairing the next one) ends it. Staff links live until revoked.

Scope: a `Grant` (the token's claims, checked) answers `allows(action, round, table)`. Actions
and the roles that may take them are in ACTIONS; a player's actions are also bound to their
table and round, a recorder's to their match (`allows_match`). Who sees hidden information (hands,
Life cards, a deck's order) in a recorded match: judges and organizers (FULL_VIEW); everyone else,
scorekeepers included, sees what the ruleset's `hide` leaves.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any

ORGANIZER, JUDGE, SCOREKEEPER, PLAYER, RECORDER = "organizer", "judge", "scorekeeper", "player", "recorder"
STAFF = frozenset({ORGANIZER, JUDGE, SCOREKEEPER})
FULL_VIEW = frozenset({ORGANIZER, JUDGE})  # see a recorded match's hidden cards; a scorekeeper never sees hands
ROOT_TOKEN_ID = "serve"

# action -> roles that may take it (a player's are also scoped to their own table and round)
ORGANIZER_ONLY = frozenset({ORGANIZER})
JUDGING = frozenset({ORGANIZER, JUDGE})
ACTIONS: dict[str, frozenset[str]] = {
    # running the tournament
    **dict.fromkeys(("create", "register", "drop", "bye", "pair", "unpair", "swap", "close", "top_cut",
                     "decide", "mint", "revoke", "create_matches"), ORGANIZER_ONLY),
    # the desk: results and what is missing
    **dict.fromkeys(("view", "slips", "record_result", "undo_result"), STAFF),
    # disputes and the round clock; rulings, penalties, backups, extensions in a recorded match
    **dict.fromkeys(("resolve", "clock", "judge_match", "take_again"), JUDGING),
    # a player's own table
    **dict.fromkeys(("report", "play_view"), frozenset({PLAYER})),
    # a recorded match (part 2): a recorder's link is scoped to its one match, a player's to its table's.
    # A tournament's scorekeeper link names no match, so it writes none (QA70 #11: it could record
    # into every match of the tournament); the desk mints a recorder link per match for that
    **dict.fromkeys(("record_event", "undo_event"), JUDGING | {RECORDER}),
    "call_judge": JUDGING | {RECORDER, PLAYER},
    # a player appeals a floor judge's ruling to the head judge (the rules' appeal procedure): the
    # appeal is the player's own act, recorded as theirs; the head judge's decision is `judge_match`
    "appeal_ruling": frozenset({PLAYER}),
}


# What each action is, in the words of the person refused it (QA75 2: "cannot do this: resolve"
# named an internal action and gave no step). Every action of ACTIONS has its words: a test checks.
ACTION_WORDS: dict[str, str] = {
    "create": "create a tournament", "register": "register players", "drop": "drop a player",
    "bye": "give a player a bye", "pair": "pair a round", "unpair": "undo a round's pairing",
    "swap": "swap two players' seats", "close": "close a round", "top_cut": "pair the top cut",
    "decide": "decide a tie for a placing", "mint": "make staff links", "revoke": "revoke a link",
    "create_matches": "create the round's recorded matches", "view": "open the staff desk",
    "slips": "print the slips", "record_result": "enter results", "undo_result": "undo a result",
    "resolve": "decide a disputed table", "clock": "run the round clock", "judge_match": "rule in a recorded match",
    "take_again": "take a table's result from its match again",
    "report": "report a table's result", "play_view": "open a table's player page",
    # a recorded match's permissions: judge.web.match_actions.MATCH_ACTS says its acts that take one
    # whole (record a line, undo, call) in these words, the rest (each of a judge's) in their own
    "record_event": "record the game's events", "undo_event": "undo events", "call_judge": "call a judge",
    "appeal_ruling": "appeal a judge's ruling",
}


def who_can(action: str) -> str:
    """Who may take `action` and what the refused person does instead, after "cannot X: "."""
    roles = ACTIONS[action]
    if roles == ORGANIZER_ONLY:
        return "only the organizer can; ask the organizer"
    if roles <= JUDGING | {RECORDER}:
        return "a judge or the organizer does that; call a judge"
    if roles == STAFF:
        return "a staff link (organizer, judge or scorekeeper) can; ask the organizer for one"
    if roles == frozenset({PLAYER}):
        return "the table's players do that, with the link of their slip's QR code"
    return "a judge, the organizer or the table's players can"


class Forbidden(Exception):
    """The token does not allow this (HTTP 403); nothing is stored."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


MIN_SECRET = 16  # characters: a shorter secret is guessed (serve refuses one in words: judge.cli.serve)


class Signer:
    def __init__(self, secret: str):
        if len(secret) < MIN_SECRET:
            raise ValueError(f"the server secret must be at least {MIN_SECRET} characters")
        self.key = hashlib.sha256(("tablejudge-serve:" + secret).encode()).digest()

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self.key, body.encode("ascii"), hashlib.sha256).digest()[:18])

    def sign(self, claims: dict[str, Any]) -> str:
        body = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
        return f"{body}.{self._mac(body)}"

    def verify(self, token: str) -> dict[str, Any]:
        """The claims of a token this server signed; Forbidden otherwise."""
        if not isinstance(token, str) or len(token) > 2000 or token.count(".") != 1:
            raise Forbidden("not a tablejudge link")
        body, mac = token.split(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            raise Forbidden("this link was not made by this server (or was altered)")
        try:
            claims = json.loads(_unb64(body))
        except ValueError:
            raise Forbidden("not a tablejudge link") from None
        if not isinstance(claims, dict) or claims.get("r") not in ACTIONS["view"] | {PLAYER, RECORDER}:
            raise Forbidden("not a tablejudge link")
        return claims

    def csrf(self, token: str) -> str:
        """The form token that goes with an access token (double-submit: a page holds both)."""
        return self._mac("csrf:" + token)

    def flash(self, text: str) -> str:
        """The seal of a message this server says after a form (it travels in the redirect's URL):
        a page shows `?msg=` only with it, so a crafted link cannot put words in the desk's mouth."""
        return self._mac("flash:" + _b64(text.encode()))

    def flash_text(self, text: str | None, seal: str | None) -> str | None:
        """`text` if this server sealed it (`flash`), else None (shown as nothing)."""
        if not text or not isinstance(seal, str) or not hmac.compare_digest(seal, self.flash(text)):
            return None
        return text


def new_token_id() -> str:
    return secrets.token_hex(6)


@dataclass(frozen=True)
class Grant:
    """What a checked token allows."""

    role: str
    tournament: str           # "*" for the organizer link of `serve`
    token_id: str
    name: str
    round: int | None = None
    table: int | None = None
    paired_at: int | None = None
    token: str = ""
    match: str | None = None  # a recorder's one match

    @property
    def actor(self) -> str:
        """The actor written in the events this grant makes."""
        if self.role == ORGANIZER:
            return ORGANIZER
        if self.role == PLAYER:
            return self.name or f"player of table {self.table}"
        return f"{self.role}:{self.name}"

    @property
    def recorded_by(self) -> str:
        if self.role == PLAYER:
            return f"player link, round {self.round} table {self.table}"
        who = self.role if self.name in ("", self.role) else f"{self.role} {self.name}"
        return f"{who} (link {self.token_id})"

    @property
    def full_view(self) -> bool:
        """May see what the table hides (hands, Life cards): judges and organizers only."""
        return self.role in FULL_VIEW

    @property
    def match_actor(self) -> str:
        """The actor of this link's own acts in a recorded match (an undo, a call, a ruling): a judge
        or an organizer acts as judge:NAME, a scorekeeper or a recorder as scorekeeper:NAME."""
        from engine.events import JUDGE_PREFIX, SCOREKEEPER_PREFIX
        name = (self.name or self.role)[:64]
        return (JUDGE_PREFIX if self.role in FULL_VIEW else SCOREKEEPER_PREFIX) + name

    def allows_match(self, action: str, tournament: str, match: str, table: tuple[int, int] | None) -> bool:
        """`action` on recorded match `match` of `tournament`; `table`: the (round, table) that match
        is played at, if the tournament created it from a pairing."""
        if action not in ACTIONS or self.role not in ACTIONS[action] or not self.covers(tournament):
            return False
        if self.role == RECORDER:
            return self.match == match
        if self.role == PLAYER:
            return table is not None and table == (self.round, self.table)
        return True

    def covers(self, tournament: str) -> bool:
        return self.tournament in ("*", tournament)

    def allows(self, action: str, tournament: str, round_no: int | None = None,
               table: int | None = None) -> bool:
        if action not in ACTIONS or self.role not in ACTIONS[action] or not self.covers(tournament):
            return False
        if self.role == PLAYER:
            return round_no == self.round and table == self.table
        if self.role == RECORDER:
            return False  # a recorder's link acts on its match only (allows_match)
        return True

    def require(self, action: str, tournament: str, round_no: int | None = None,
                table: int | None = None) -> None:
        """Forbidden, in words, unless `allows`. The routes take the grant for `tournament` first
        (routes.common.grant_of refuses a link for another one), so the words here are about the role
        and the table; `allows` still refuses another tournament's link."""
        if self.allows(action, tournament, round_no, table):
            return
        if self.role == PLAYER and self.role in ACTIONS[action]:  # the right role, another table
            raise Forbidden(f"this link is for round {self.round} table {self.table}: scan the QR code on "
                            "your own table's slip")
        raise Forbidden(f"a {self.role} link cannot {ACTION_WORDS[action]}: {who_can(action)}")


def grant_from_claims(c: dict[str, Any], token: str) -> Grant:
    try:
        if c["r"] == PLAYER:
            return Grant(PLAYER, str(c["t"]), str(c.get("id", "")), "", int(c["n"]), int(c["tb"]), int(c["p"]),
                         token)
        if c["r"] == RECORDER:
            return Grant(RECORDER, str(c["t"]), str(c["id"]), str(c.get("nm", RECORDER)), token=token,
                         match=str(c["m"]))
        return Grant(str(c["r"]), str(c["t"]), str(c["id"]), str(c.get("nm", c["r"])), token=token)
    except (KeyError, TypeError, ValueError):
        raise Forbidden("not a tablejudge link") from None


def organizer_claims() -> dict[str, Any]:
    return {"r": ORGANIZER, "t": "*", "id": ROOT_TOKEN_ID, "nm": "organizer"}


def staff_claims(role: str, tournament: str, token_id: str, name: str) -> dict[str, Any]:
    return {"r": role, "t": tournament, "id": token_id, "nm": name}


def recorder_claims(tournament: str, match: str, token_id: str, name: str) -> dict[str, Any]:
    return {"r": RECORDER, "t": tournament, "m": match, "id": token_id, "nm": name}


def player_claims(tournament: str, round_no: int, table: int, paired_at: int) -> dict[str, Any]:
    return {"r": PLAYER, "t": tournament, "n": round_no, "tb": table, "p": paired_at}
