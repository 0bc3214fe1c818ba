"""QR codes of links (player links, team join codes), as inline SVG for the page and for print."""

from __future__ import annotations

import segno


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline ``<svg>`` of ``url``'s QR code (error correction M: readable off a printed, folded sheet)."""
    return segno.make(url, error="m").svg_inline(scale=scale, dark="#1b1b1b", light="#ffffff")
