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


SIGN_IN_FAILURES_PER_ACCOUNT = 10
"""Wrong passwords for one account from one address per 5 minutes; then that pair waits (see :class:`SignInLimiter`)."""
SIGN_IN_FAILURES_PER_ADDRESS = 50
"""Wrong passwords from one address, all accounts together, per 5 minutes: five accounts' worth of guesses."""
_MAX_ACCOUNT_KEY = 200


@dataclass
class SignInLimiter:
    """Failed sign-ins counted per (account, address) and per address.

    Keyed by the pair, a flood of wrong passwords for one account from one address neither locks that account out
    at another address (the arbiter at the desk signs in while a phone guesses) nor another account at the same
    address. The per-address count still bounds an address that tries name after name: refused attempts do not
    count, so guessing one account to its limit costs 10 of the address's 50, and the address is blocked only
    after five accounts' worth. Guessing spread over many addresses is bounded per address only; an account-wide
    lock would hand every attacker a way to lock the arbiter out.

    >>> clock = [0.0]
    >>> limiter = SignInLimiter(clock=lambda: clock[0])
    >>> for _ in range(SIGN_IN_FAILURES_PER_ACCOUNT):
    ...     limiter.failed("Әлия", "10.0.0.7")
    >>> limiter.blocked("Әлия", "10.0.0.7"), limiter.blocked("ӘЛИЯ ", "10.0.0.7")
    (True, True)
    >>> limiter.blocked("Әлия", "10.0.0.8"), limiter.blocked("Ерлан", "10.0.0.7")
    (False, False)
    """

    clock: Callable[[], float] = time.monotonic
    account_attempts: int = SIGN_IN_FAILURES_PER_ACCOUNT
    address_attempts: int = SIGN_IN_FAILURES_PER_ADDRESS
    per_account: AttemptLimiter = field(init=False)
    per_address: AttemptLimiter = field(init=False)

    def __post_init__(self) -> None:
        self.per_account = AttemptLimiter(attempts=self.account_attempts, clock=self.clock)
        self.per_address = AttemptLimiter(attempts=self.address_attempts, clock=self.clock)

    def set_clock(self, clock: Callable[[], float]) -> None:
        self.clock = self.per_account.clock = self.per_address.clock = clock

    @staticmethod
    def _pair(account: str, address: str) -> str:
        # Names are compared as an arbiter would type them again: case and surrounding spaces do not make a new key.
        return f"{address}\n{account.strip().casefold()[:_MAX_ACCOUNT_KEY]}"

    def blocked(self, account: str, address: str) -> bool:
        return self.per_address.blocked(address) or self.per_account.blocked(self._pair(account, address))

    def failed(self, account: str, address: str) -> None:
        self.per_address.failed(address)
        self.per_account.failed(self._pair(account, address))


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
