"""Passwords, cross-site request protection and WebSocket origin checks.

Passwords are hashed with Argon2id (argon2-cffi, the password-hashing competition's winner). Form posts carry a
per-session token (the synchroniser-token pattern) and must come from this site's own origin; WebSockets must come
from this site's origin too, so another page opened in the same browser cannot act with the user's cookies.

>>> hashed = hash_password("тұздық-82")
>>> verify_password(hashed, "тұздық-82"), verify_password(hashed, "wrong")
(True, False)
>>> same_origin("http://192.168.1.5:8000", "192.168.1.5:8000", "http")
True
>>> same_origin("https://evil.example", "192.168.1.5:8000", "http")
False
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_PASSWORD_LENGTH = 8

_hasher = PasswordHasher()


class WeakPasswordError(ValueError):
    """A password too short to protect an arbiter account."""


def hash_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise WeakPasswordError(f"a password needs at least {MIN_PASSWORD_LENGTH} characters")
    return _hasher.hash(password)


def verify_password(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


def new_token(nbytes: int = 24) -> str:
    """An unguessable URL-safe secret (per-game player links, CSRF tokens)."""
    return secrets.token_urlsafe(nbytes)


def tokens_match(expected: str | None, given: str | None) -> bool:
    """Constant-time comparison; an absent token never matches."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode())


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """Whether an ``Origin`` header names this site (scheme and host:port as the request reached us)."""
    if not origin or not host:
        return False
    parts = urlsplit(origin)
    expected_scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return parts.scheme == expected_scheme and parts.netloc.lower() == host.lower()
