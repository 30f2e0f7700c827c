"""The notation's lexer: a line becomes tokens (words, strings, key=value, comments, separators), each
with its column, and the error type that says where a line went wrong."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from engine.match import InputError
from engine.schema import control_at, control_name

SEATS = "ABCDEFGHIJKLMNOPQRSUVWXYZ"  # no T: it starts a turn header
SEPARATORS = ("·", ";")
DECKLIST_NOTE = "decklist: "  # how a Deck tag is stored where a ruleset has no deck kind

# --- the lexer ---------------------------------------------------------------------------------


@dataclass
class Token:
    type: str  # word | str | kv | comment | sep
    text: str  # the source text of the token
    col: int  # 1-based column
    value: Any = None  # str: the string; kv: the value; comment: its text
    key: str = ""  # kv only
    vtype: str = ""  # kv only: word | str | json | list
    colon: bool = False  # a quoted string directly followed by ':' (an actor)


class NotationError(InputError):
    """A parse error: `line`/`col` say where, the message says what was expected."""

    def __init__(self, message: str, *, line: int = 0, col: int = 0, path: str = "", action: int = 0,
                 action_text: str = ""):
        self.line, self.col, self.path = line, col, path
        self.action, self.action_text = action, action_text  # which action of the line, as written
        super().__init__(message, where=_where(path, line, col))

    def at(self, path: str, line: int) -> "NotationError":
        return NotationError(self.message, line=self.line or line, col=self.col, path=path,
                             action=self.action, action_text=self.action_text)


def _where(path: str, line: int, col: int) -> str:
    parts = [p for p in (path, str(line) if line else "", str(col) if col else "") if p]
    return ":".join(parts)


_KEY = re.compile(r"[a-z_][a-z0-9_]*=")
_STOP = set(' \t{}"') | set(SEPARATORS)


def refuse_controls(line: str, lineno: int) -> None:
    """A NotationError at the first control character of `line` but a tab (a word's separator) or
    the CR of a CRLF line end: read as part of a word, `draw 2<NUL>` named a card "2<NUL>" (the
    schema refuses what reaches a payload; here the column is still known)."""
    i = control_at(line.rstrip("\r"), prose=True)  # prose: a tab is text; a line holds no LF
    if i >= 0:
        raise NotationError(f"control character {control_name(line[i])} (a card number, a name or a "
                            "note never holds one: leave it out)", line=lineno, col=i + 1)


def tokenize(line: str, lineno: int = 0) -> list[Token]:
    """Split one line into tokens. Raises NotationError with the column."""
    refuse_controls(line, lineno)
    toks: list[Token] = []
    i, n = 0, len(line)
    dec = json.JSONDecoder()
    while i < n:
        c = line[i]
        if c in " \t\r":
            i += 1
            continue
        col = i + 1
        if c == "{":
            end = line.find("}", i + 1)
            if end < 0:
                raise NotationError("expected '}' to close the comment", line=lineno, col=col)
            toks.append(Token("comment", line[i:end + 1], col, line[i + 1:end].strip()))
            i = end + 1
            continue
        if c == "}":
            raise NotationError("'}' without a '{' before it", line=lineno, col=col)
        if c in SEPARATORS:
            toks.append(Token("sep", c, col))
            i += 1
            continue
        if c == '"':
            try:
                value, end = dec.raw_decode(line, i)
            except json.JSONDecodeError as e:
                raise NotationError("expected a closed \"string\"" + _json_reason(e), line=lineno,
                                    col=e.colno) from None
            tok = Token("str", line[i:end], col, value)
            if end < n and line[end] == ":":
                tok.colon = True
                end += 1
            toks.append(tok)
            i = end
            continue
        m = _KEY.match(line, i)
        if m and m.end() < n and line[m.end()] in '"[{':
            key = m.group()[:-1]
            j = m.end()
            try:
                value, end = dec.raw_decode(line, j)
                vtype = "str" if line[j] == '"' else "json"
            except json.JSONDecodeError as e:
                if line[j] != "[":
                    raise NotationError(f"expected a JSON value after '{key}='" + _json_reason(e),
                                        line=lineno, col=e.colno) from None
                end = line.find("]", j)
                if end < 0:
                    raise NotationError("expected ']' to close the list", line=lineno, col=j + 1)
                inner = line[j + 1:end]
                value = [w.strip() for w in inner.split(",") if w.strip()] if inner.strip() else []
                vtype = "list"
                end += 1
            if end < n and line[end] not in " \t" and line[end] not in SEPARATORS:
                raise NotationError("expected a space after the value", line=lineno, col=end + 1)
            toks.append(Token("kv", line[i:end], col, value, key=key, vtype=vtype))
            i = end
            continue
        j = i
        while j < n and line[j] not in _STOP:
            j += 1
        word = line[i:j]
        if m and len(m.group()) <= len(word):
            toks.append(Token("kv", word, col, word[len(m.group()):], key=m.group()[:-1], vtype="word"))
        else:
            toks.append(Token("word", word, col, word))
        i = j
    return toks


def _json_reason(e: json.JSONDecodeError) -> str:
    """The parser's reason beside a column the error already points at: none for a string left
    open (the column says where it starts), else "(Expecting ',' delimiter)"."""
    return "" if e.msg.startswith("Unterminated string") else f" ({e.msg})"
