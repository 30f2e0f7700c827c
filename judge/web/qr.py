"""QR codes as inline SVG (segno): a table's player link on its slip, the LAN address."""
from __future__ import annotations

import segno


def svg(data: str, scale: int = 3) -> str:
    return segno.make(data, error="m").svg_inline(scale=scale, border=2)


def terminal(data: str) -> str:
    """The QR code drawn with block characters, for `serve --host 0.0.0.0`'s console."""
    import io

    out = io.StringIO()
    segno.make(data, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
