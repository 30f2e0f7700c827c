"""Generate the docs' rule tables from the catalogues (rules.toml), so the two never drift apart.

    python docs/generate.py          # rewrite the generated blocks in docs/
    python docs/generate.py --check  # exit 1 and name the pages whose blocks are out of date

A generated block sits between `<!-- BEGIN generated: KEY -->` and `<!-- END generated: KEY -->`; the rest of
each page is written by hand. tests/layout/test_docs_generated.py runs the check.
"""
from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from engine.catalogue import contradiction_table, load, rule_table  # noqa: E402
from engine.rulesets import available  # noqa: E402


def blocks() -> dict[str, dict[str, str]]:
    """page (relative to docs/) -> {block key: generated text}."""
    out: dict[str, dict[str, str]] = {}
    for name, cls in available().items():
        page = out.setdefault(f"rulesets/{name}.md", {})
        page["rules"] = rule_table(cls.rules)
        catalogue = load(cls.__module__.rpartition(".")[0])
        if catalogue.contradictions:
            page["contradictions"] = contradiction_table(catalogue.contradictions)
    out["judging.md"] = {"desk-rules": rule_table(load("engine", "desk_rules.toml").rules)}
    return out


def _pattern(key: str) -> re.Pattern:
    return re.compile(rf"(<!-- BEGIN generated: {re.escape(key)} [^\n]*-->\n)(.*?)(<!-- END generated: {re.escape(key)} -->)",
                      re.S)


def render(text: str, key: str, body: str, page: str) -> str:
    pattern = _pattern(key)
    if not pattern.search(text):
        raise SystemExit(f"docs/{page}: no generated block {key!r} (add <!-- BEGIN generated: {key} --> ... "
                         f"<!-- END generated: {key} -->)")
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def _regenerated() -> list[tuple[str, str, str]]:
    """(path, text, text with its generated blocks rendered anew) for every page that has blocks."""
    out = []
    for page, keys in blocks().items():
        path = os.path.join(HERE, page)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = text
        for key, body in keys.items():
            new = render(new, key, body, page)
        out.append((path, text, new))
    return out


def stale_pages() -> list[str]:
    return [os.path.relpath(path, HERE) for path, text, new in _regenerated() if new != text]


def write() -> list[str]:
    written = []
    for path, text, new in _regenerated():
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            written.append(os.path.relpath(path, HERE))
    return written


if __name__ == "__main__":
    if "--check" in sys.argv:
        stale = stale_pages()
        for page in stale:
            print(f"docs/{page}: generated block out of date (run: python docs/generate.py)")
        sys.exit(1 if stale else 0)
    for page in write():
        print(f"wrote docs/{page}")
