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
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
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


def verify_password(hashed: str | None, password: str) -> bool:
    """Whether ``password`` matches; an unknown name (``hashed`` is ``None``) costs the same time and never matches,
    so that the answer's timing does not tell which arbiter names exist."""
    try:
        return _hasher.verify(hashed or _dummy_hash(), password) and hashed is not None
    except (VerificationError, InvalidHashError):
        return False


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    if not _DUMMY:
        _DUMMY.append(_hasher.hash(new_token()))
    return _DUMMY[0]


@dataclass
class AttemptLimiter:
    """Failed sign-in attempts per client: after ``attempts`` failures within ``window_s`` seconds, that client is
    refused (without checking the password, which costs a hash) until the oldest failure leaves the window.

    Kept in memory per instance: enough against a guessing script on the club network, and nothing to clean up.

    >>> clock = [0.0]
    >>> limiter = AttemptLimiter(attempts=2, window_s=60, clock=lambda: clock[0])
    >>> limiter.failed("10.0.0.7"); limiter.failed("10.0.0.7")
    >>> limiter.blocked("10.0.0.7"), limiter.blocked("10.0.0.8")
    (True, False)
    >>> clock[0] = 61.0
    >>> limiter.blocked("10.0.0.7")
    False
    """

    attempts: int = 10
    window_s: float = 300.0
    max_clients: int = 10_000
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, client: str) -> deque[float] | None:
        failures = self._failures.get(client)
        if failures is None:
            return None
        now = self.clock()
        while failures and now - failures[0] >= self.window_s:
            failures.popleft()
        if not failures:
            del self._failures[client]
            return None
        return failures

    def blocked(self, client: str) -> bool:
        failures = self._recent(client)
        return failures is not None and len(failures) >= self.attempts

    def failed(self, client: str) -> None:
        failures = self._recent(client)
        if failures is None:
            if len(self._failures) >= self.max_clients:  # forget the stale ones first, then the oldest
                for known in list(self._failures):
                    self._recent(known)
                while len(self._failures) >= self.max_clients:
                    del self._failures[next(iter(self._failures))]
            failures = self._failures[client] = deque()
        failures.append(self.clock())


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
