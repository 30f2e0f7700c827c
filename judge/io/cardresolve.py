"""A card name said at the table -> the one card number meant, or a refusal that helps.

A scorekeeper rarely has the decklists, so a bare name ("nami": 35 cards) is narrowed by what the match
itself holds, in this order, and the first step that leaves any card decides:
1. the cards already seen in this match for the player the card belongs to (their Leader, their
   registered deck, every named card in their zones);
2. without a player (a scorekeeper's line with no seat): every card seen in this match;
3. the cards that player's deck may hold: OPTCG-DECK-3 "構築卡組時，只能放入含有領航卡顏色的卡片" (only
   cards that have the Leader's colour), and OPTCG-DECK-2 (a deck holds Characters, Events and Stages).
A field that names a card of one category (a deck's `leader`: a Leader, OPTCG-DECK-1) is first
narrowed to that category, and step 3 (a deck's cards) does not apply to it.
A card picked by narrowing is never picked silently: `Resolved.note` says how ("nami -> OP09-050, the
only Nami in Ann's deck colours (Blue)"), and every caller shows it in these words: the recorders
(terminal and web) with the line, a notation file's import in its summary with the file's line.

A name that matches nothing gets the nearest names (difflib over the same folded names the look-up
uses: cardsnapshot.name_key, one folding), narrowed the same way, with the numbers to type.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.match import InputError
from engine.schema import shown
from judge.io import cardformats
from judge.io.cardsnapshot import match_names, name_key

MAX_CANDIDATES = 8  # listed in a refusal: a person reads them at the table
MAX_SUGGESTIONS = 3  # names offered for a misspelling
CLOSE = 0.75  # difflib ratio: "hancok"/"hancock" 0.92, "namy"/"nami" 0.75, "zoro"/"nami" 0.25
TIE = 0.05  # suggestions scoring this close to the best are offered with it
DECK_CATEGORIES = ("character", "event", "stage")  # OPTCG-DECK-2


class UnknownCard(InputError):
    """A card name that matches no card."""


class AmbiguousCard(InputError):
    """A card name that matches more than one card: `candidates` lists them (number, name)."""

    def __init__(self, message: str, candidates: list[tuple[str, str]], **kw: Any):
        super().__init__(message, **kw)
        self.candidates = candidates


class Cards(Protocol):
    def find(self, text: str) -> list[tuple[str, str]]: ...
    def name(self, number: str) -> str | None: ...
    def get(self, number: str) -> dict[str, Any] | None: ...
    def folded_names(self) -> dict[str, list[str]]: ...


@dataclass
class Seat:
    """What the match knows about the player a card word belongs to."""

    player: str
    seen: list[str] = field(default_factory=list)  # card numbers seen in this match as theirs
    colours: list[str] = field(default_factory=list)  # their Leader's colours (empty: not known)


@dataclass
class Resolved:
    code: str
    note: str | None = None  # how a name was narrowed to this card (None: it was the only one)


def resolve(db: Cards, word: str, among: Iterable[str] = (), seat: Seat | None = None,
            role: str | None = None) -> Resolved:
    """What a player said -> the card number to store (see the module's doc). A card number is itself
    (known or not). `role`: the category the field's card must be ("leader"; carddb.FIELD_ROLES
    names the fields). UnknownCard / AmbiguousCard, each saying what to type instead."""
    word = word.strip()
    code = cardformats.card_number(word)
    if code is not None:
        return Resolved(code)
    key = name_key(word.replace("_", " "))
    if not key:
        raise UnknownCard(f"{shown(word)} is not a card number or a card name")
    hits = db.find(key)
    if not hits and cardformats.numberlike(word):
        raise UnknownCard(_not_a_number(word))
    if not hits:
        raise UnknownCard(f"no card is called {shown(word)}" + _suggest(db, key, seat))
    kind = ""  # "Leader ": the cards left are of the field's category (said in a note or refusal)
    if role is not None:
        of_role = [h for h in hits if (db.get(h[0]) or {}).get("category") == role]
        if not of_role:
            raise UnknownCard(f"{shown(word)} names no {role.title()} card (it fits {len(hits)}, none a "
                              f"{role.title()}: {_listed(hits)}); type the {role.title()}'s number in its place")
        # a Character picked for a Leader field is never right, and never picked silently
        kind, cut, hits = f"{role.title()} ", len(of_role) < len(hits), of_role
        one = _only(key, hits)
        if one and cut:
            return Resolved(one, f"{word} \u2192 {one}, the only {db.name(one) or word} that is a {role.title()}")
    one = _only(key, hits)
    if one:
        return Resolved(one)
    narrowed, missed = False, None
    for pool, why in _steps(db, hits, among, seat, role):
        if not pool:
            missed = why  # said in the refusal: a card outside the Leader's colours is worth a look
            continue
        one = _only(key, pool)
        if one:
            return Resolved(one, f"{word} \u2192 {one}, the only {kind}{db.name(one) or word} {why}")
        hits, narrowed = pool, True
        break
    raise _ambiguous(word, hits, why if narrowed else f"(none {missed})" if missed and seat else None, kind)


def _steps(db: Cards, hits: list[tuple[str, str]], among: Iterable[str], seat: Seat | None,
           role: str | None = None):
    """(the hits a step keeps, how to say it) for each narrowing step, in order. The deck-colour
    step is for a deck's cards: not for a field of one category (a Leader)."""
    if seat is not None:
        seen = set(seat.seen)
        yield [h for h in hits if h[0] in seen], f"seen in this match for {seat.player}"
        if seat.colours and role is None:
            yield (_in_deck_colours(db, hits, seat.colours),
                   f"in {seat.player}'s deck colours ({'/'.join(seat.colours)})")
    else:
        pool = set(among)
        yield [h for h in hits if h[0] in pool], "seen in this match"


def _in_deck_colours(db: Cards, hits: list[tuple[str, str]], colours: list[str]) -> list[tuple[str, str]]:
    """The hits a deck of a Leader of `colours` may hold: a Character, Event or Stage with one of the
    Leader's colours (OPTCG-DECK-2, -3; a two-colour card has both, OPTCG-COLOR-1)."""
    want = {c.lower() for c in colours}
    out = []
    for number, name in hits:
        card = db.get(number) or {}
        mine = {c.lower() for c in card.get("colors") or ()}
        if card.get("category") in DECK_CATEGORIES and mine & want:
            out.append((number, name))
    return out


def _only(key: str, hits: list[tuple[str, str]]) -> str | None:
    """The one card `hits` leave: a single hit, or the only one whose whole name is `key`."""
    if len(hits) == 1:
        return hits[0][0]
    whole = {h[0] for h in hits if name_key(h[1]) == key}
    return whole.pop() if len(whole) == 1 else None


def _listed(hits: list[tuple[str, str]]) -> str:
    """`OP01-078 Boa Hancock, … and 9 more`: the first MAX_CANDIDATES of `hits`."""
    more = f" and {len(hits) - MAX_CANDIDATES} more" if len(hits) > MAX_CANDIDATES else ""
    return ", ".join(f"{n} {name}" for n, name in hits[:MAX_CANDIDATES]) + more


def _ambiguous(word: str, hits: list[tuple[str, str]], why: str | None, kind: str = "") -> AmbiguousCard:
    which = f"{len(hits)} {kind}cards {why}" if why else f"{len(hits)} {kind}cards"
    return AmbiguousCard(f"{shown(word)} could be {which}: {_listed(hits)}; type the card number in its place "
                         f"(e.g. {hits[0][0]})", hits)


def _not_a_number(word: str) -> str:
    """A word that starts like a card number but is none (QA81 L6): bad input, refused with the form,
    and for the start of one (`OP01-00`) the command that lists the numbers starting so."""
    start = cardformats.number_start(word)
    hint = (f"; `tablejudge cards find {start}` lists the card numbers that start so" if start
            else "; `tablejudge cards find NAME` finds a card's number")
    return f"{shown(word)} is not a card number (a card number is {cardformats.NUMBER_FORM}){hint}"


def _suggest(db: Cards, key: str, seat: Seat | None) -> str:
    """`: did you mean 'Boa Hancock' (OP01-078, OP07-051)? type ...` for a name no card has, or the
    plain hint when no name is close."""
    names = _nearest(db.folded_names(), key)
    if not names:
        return " (give the card number, e.g. OP01-016)"
    said, offered = [], []
    for name in names:
        hits = match_names([(name, n) for n in db.folded_names()[name]], name, db.name)
        kept, why = hits, ""
        for pool, step in _steps(db, hits, (), seat):
            if pool:
                kept, why = pool, f"{step}: "
                break
        numbers = [n for n, _ in kept]
        offered += numbers
        listed = ", ".join(numbers[:MAX_CANDIDATES]) + (", …" if len(numbers) > MAX_CANDIDATES else "")
        said.append(f"{shown(db.name(numbers[0]) or name)} ({why}{listed})")
    todo = f"type {offered[0]} in its place" if len(offered) == 1 else "type the card number in its place"
    return f": did you mean {' or '.join(said)}? {todo}"


def _nearest(folded: dict[str, list[str]], key: str) -> list[str]:
    """The folded names closest to a misspelt `key`: a whole name or one of its words, by difflib's
    ratio; only the best-scoring few (a near tie, a whole name first), so "hancok" offers Boa Hancock
    and not also "Hack"."""
    words: dict[str, set[str]] = {}  # each word of a name (and the whole name) -> the names holding it
    for name in folded:
        words.setdefault(name, set()).add(name)
        for w in name.split():
            if len(w) > 2:
                words.setdefault(w, set()).add(name)
    best: dict[str, tuple[float, bool]] = {}
    for close in difflib.get_close_matches(key, list(words), n=20, cutoff=CLOSE):
        ratio = difflib.SequenceMatcher(None, key, close).ratio()
        for name in words[close]:
            best[name] = max(best.get(name, (0.0, False)), (ratio, name == close))
    if not best:
        return []
    top = max(r for r, _ in best.values())
    ranked = sorted((n for n, (r, _) in best.items() if r >= top - TIE),
                    key=lambda n: (-best[n][0], not best[n][1], len(n), n))
    return ranked[:MAX_SUGGESTIONS]
