"""The game notation: a short, human-writable line per action, like chess's SAN/PGN for card games.

    [Ruleset "table"]
    [Event "Regional Milano"]
    [A "Ann"]
    [B "Bob"]
    [Deck "A" "4xOP01-016 2xOP01-013"]

    {Ann won the coin toss}
    A: setup deck 40
    T1 A: draw · hand>field OP01-016
    B: counter life -1
    judge Kim: ruling "the attack stands" rule=OPTCG-BATTLE-2

This package is the shared core, with no game in it:

- lexer.py: a line into tokens, with columns; NotationError says where;
- values.py: payload values <-> text, by the payload field's type;
- grammar.py: verbs, the generic form every kind can be written in (`A: kind field=value ...`, or
  `@kind ...` when a short verb shadows the kind's name), and how a ruleset's grammar is found: the
  `notation.py` module of the ruleset's own package (engine/rulesets/<game>/notation.py);
- forms.py: shapes several games share (moves FROM>TO, draws, phases, seat scores);
- lines.py: turn headers, actor prefixes, separators, trailing comments;
- header.py: the tag pairs;
- game.py: whole games in and out. Exporting writes each event in exactly one canonical way, so
  export(import(text)) == text up to whitespace for canonical text.

Parsing refuses the whole file on the first problem: `InputError` with where="FILE:LINE:COL" and
what was expected there.
"""
from engine.notation.game import ReadGame, check_turn_number, format_game, normalise, probe, read_game
from engine.notation.grammar import (
    CORE_VERBS,
    Action,
    Grammar,
    Suggestion,
    Verb,
    grammar_for,
    has_grammar,
    make_ctx,
)
from engine.notation.header import TAGS, Header, format_header, parse_header, parse_tag
from engine.notation.lexer import DECKLIST_NOTE, SEATS, SEPARATORS, NotationError, Token, tokenize
from engine.notation.lines import parse_line
from engine.notation.values import (
    Ctx,
    Mismatch,
    bare_ok,
    expand_cards,
    quote,
    read_value,
    write_cards,
    write_value,
)

__all__ = [
    "CORE_VERBS", "DECKLIST_NOTE", "SEATS", "SEPARATORS", "TAGS", "Action", "Ctx", "Grammar", "Header",
    "Mismatch", "NotationError", "ReadGame", "Suggestion", "Token", "Verb", "bare_ok", "check_turn_number", "expand_cards",
    "format_game", "format_header", "grammar_for", "has_grammar", "make_ctx", "normalise", "parse_header",
    "parse_line", "parse_tag", "probe", "quote", "read_game", "read_value", "tokenize", "write_cards",
    "write_value",
]
