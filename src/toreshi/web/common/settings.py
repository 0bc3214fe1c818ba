"""Where the app keeps its data and which services it uses; the embedded defaults need no server."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path


def default_fairplay_workers(cores: int | None) -> int:
    """The fair-play report's engine processes on a machine of ``cores`` cores (``None``: not known).

    >>> [default_fairplay_workers(n) for n in (None, 2, 4, 8, 32)]
    [1, 1, 1, 2, 8]
    """
    return 1 if not cores or cores <= 4 else cores // 4


@dataclass(frozen=True)
class Settings:
    """``db_url`` defaults to SQLite in ``data_dir``; ``bus_url`` to the in-process bus (``redis://…`` to scale out)."""

    data_dir: Path = Path("data")
    db_url: str | None = None
    db_schema: str | None = None
    """PostgreSQL only: the schema of toreshi's tables (it must exist); default: the connection's search path."""
    bus_url: str | None = None
    bus_prefix: str = "toreshi:"
    """Prefix of every Redis key and channel, so that several installs (or test runs) can share one Redis."""
    allow_remote_setup: bool = False
    """Whether the first arbiter password may be set from another machine (by default only from this one)."""
    https_only: bool = False
    extra_origins: tuple[str, ...] = field(default_factory=tuple)
    timezone: str = "Asia/Almaty"
    """The club's time zone (IANA name): pages show dates and times in it; everything is stored in UTC."""
    review_depth: int = 8
    """The post-game review's search depth per position (the replay page's curve and worst moves)."""
    review_budget: float = 60.0
    """Seconds a whole review may take: past it, the remaining positions get the depth already reached."""
    fairplay_workers: int = field(default_factory=lambda: default_fairplay_workers(os.cpu_count()))
    """Worker processes of the fair-play report's engine (each reviews one game at a time): 1 on a small machine
    (four cores or fewer), a quarter of the cores on a bigger one, so that play and practice keep theirs."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.5``, ``10.0.0.0/24``) of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed; from anyone else those headers are ignored. Default: none."""
    header_timeout: float | None = 10.0
    """Seconds a connection may take to send a whole request head (after connecting, or after the previous
    response); past it, it is closed, so slow-header sockets cannot pile up. ``None``: no limit."""
    max_connections_per_address: int | None = 128
    """Open connections (HTTP and WebSocket) one client address may hold; the next ones get 503. Behind a trusted
    proxy it is counted per forwarded address. ``None``: no cap."""
    practice_max_games: int = 50
    """Practice games played at once on this instance (when full, the longest-idle game of whoever holds the
    most is reclaimed for a newcomer)."""
    practice_per_browser: int = 3
    """Practice games one browser holds at once."""
    practice_per_address: int = 10
    """Practice games one network address holds at once (a club's Wi-Fi puts many browsers behind one)."""
    practice_idle_minutes: float = 15.0
    """A practice game with no move for this long is reclaimed (the absent person resigns it)."""

    @property
    def database_url(self) -> str:
        return self.db_url or f"sqlite+aiosqlite:///{(self.data_dir / 'toreshi.db').resolve()}"

    def secret_key(self) -> str:
        """The key that signs session cookies: made once, kept in ``data_dir/secret.key`` (mode 0600)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / "secret.key"
        if not path.exists():
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "w") as handle:
                handle.write(secrets.token_urlsafe(48))
        return path.read_text().strip()
