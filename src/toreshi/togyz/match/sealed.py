"""The sealed move of an adjourned game, as a commitment (TK-A2, TK-A3, TK-A4).

On paper the sealed move sits in an envelope that nobody may open until the game resumes, and the arbiter shows
both players that it is intact before opening it. The digital form: when sealing, only a commitment — a SHA-256
hash over the hole and a long random salt — is stored and shown to both players; the hole and the salt stay with
the sealer (or in storage nobody reads, arbiters included) until resumption. Opening reveals both; anyone can
recompute the hash and see that the "envelope" was not tampered with. The salt makes the nine possible holes
impossible to guess from the hash.

>>> salt = "00112233445566778899aabbccddeeff"
>>> commitment = commit(5, salt)
>>> verify(commitment, 5, salt), verify(commitment, 6, salt)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from toreshi.kit.refusal import Refused
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.position import Side

MIN_SALT_CHARS = 32
"""At least 128 bits as hex, so that the commitment reveals nothing about the hole."""


def new_salt() -> str:
    """A fresh random salt (128 bits, hex)."""
    return secrets.token_hex(16)


def _check_salt(salt: str) -> None:
    if len(salt) < MIN_SALT_CHARS:
        raise Refused(TogyzCode.SALT_TOO_SHORT, minimum=MIN_SALT_CHARS)


def commit(hole: int, salt: str) -> str:
    """The commitment to ``hole``: hex SHA-256 of a domain tag, the hole and the salt; refuses
    (:class:`~toreshi.kit.refusal.Refused`) a short salt or a hole that is not 1–9."""
    _check_salt(salt)
    if not 1 <= hole <= 9:
        raise Refused(TogyzCode.NO_SUCH_HOLE, hole=hole)
    return hashlib.sha256(f"toreshi/togyz/sealed-move:{hole}:{salt}".encode()).hexdigest()


def verify(commitment: str, hole: int, salt: str) -> bool:
    """True when ``hole`` and ``salt`` open ``commitment``."""
    try:
        expected = commit(hole, salt)
    except Refused:
        return False
    return hmac.compare_digest(expected, commitment)


@dataclass(frozen=True, slots=True)
class Envelope:
    """What the envelope records (TK-A3): names, the sealer, the position before the sealed move, the move number,
    each player's used time, and the commitment in place of the move itself."""

    white: str
    black: str
    sealer: Side
    fen: str
    move_number: int
    white_used_ms: int
    black_used_ms: int
    commitment: str
