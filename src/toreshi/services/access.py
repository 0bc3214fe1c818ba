"""How per-room secrets are kept: only their SHA-256 digest is stored, so a leaked database does not leak links.

>>> token_digest("7KDMX")[:16]
'4c9a97382523215e'
"""

from __future__ import annotations

import hashlib

__all__ = ["token_digest"]


def token_digest(token: str) -> str:
    """The stored form of a room's secret (a player's link, a quiz team's join code)."""
    return hashlib.sha256(token.encode()).hexdigest()
