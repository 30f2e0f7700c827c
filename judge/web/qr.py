"""QR codes as inline SVG (segno): a table's player link on its slip, the LAN address."""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import segno


@lru_cache(maxsize=1024)
def svg(data: str, scale: int = 3) -> str:
    """Kept per link (QA75 1): encoding one is ~10 ms of pure Python, almost all of it segno trying
    the 8 masks (the standard's choice, kept for scanning), so 150 tables' slips took 2.4 s every
    print. A slip's link names its round and pairing and is the same on every print: the second
    print of a round is served from here. 1024 codes of ~5 KB: a few rounds of a 300-player event."""
    return segno.make(data, error="m").svg_inline(scale=scale, border=2)


def svgs(links: Iterable[str]) -> list[str]:
    """Many codes at once: what the slips page runs in a worker thread (it reads no library state,
    only its strings, so it is safe beside the event loop)."""
    return [svg(link) for link in links]


def terminal(data: str) -> str:
    """The QR code drawn with block characters, for `serve --host 0.0.0.0`'s console."""
    import io

    out = io.StringIO()
    segno.make(data, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
