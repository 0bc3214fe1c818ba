"""Who may start a practice game, and which game makes room for them (issue 26): a pure decision.

The practice form is open to anyone, so one browser must not hold every game of the instance. A browser (its
session) holds at most ``per_browser`` games at once, an address at most ``per_address`` (several browsers of a
club's network share one address, so it is higher); a game with no move for ``idle_seconds`` is reclaimed. When
the instance is full, the longest-idle game of whoever holds the most is reclaimed for the newcomer, so a flooder
never shuts a newcomer out; only when nobody holds more than one game is the instance truly full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

__all__ = ["Admission", "PracticeLimits", "Refusal", "Seat", "admit", "idle_rooms"]


@dataclass(frozen=True)
class PracticeLimits:
    max_games: int = 50
    """Practice games played at once on this instance (each takes an engine's turn in the shared worker)."""
    per_browser: int = 3
    """Practice games one browser (its session) holds at once."""
    per_address: int = 10
    """Practice games one network address holds at once (a club's Wi-Fi puts many browsers behind one)."""
    idle_seconds: float = 15 * 60
    """A practice game with no move for this long is reclaimed: the absent person resigns it."""


@dataclass(frozen=True)
class Seat:
    """Who holds a practice game being played, and when its last move was made (monotonic seconds)."""

    room_id: str
    browser: str
    """The holder's browser (an id kept in its session); empty for a game resumed after a restart."""
    address: str
    last_move: float


class Refusal(Enum):
    BROWSER = "browser"
    """This browser holds its quota: it may continue one of its games or end its oldest."""
    ADDRESS = "address"
    FULL = "full"
    """Every game is held by someone holding only that one."""


@dataclass(frozen=True)
class Admission:
    """The answer to a newcomer: start a game after reclaiming ``reclaim`` (room ids), or ``refused`` (idle games
    are in ``reclaim`` either way)."""

    reclaim: tuple[str, ...] = ()
    refused: Refusal | None = None


def idle_rooms(seats: Iterable[Seat], limits: PracticeLimits, now: float) -> list[str]:
    """The games with no move for ``limits.idle_seconds``, the longest idle first."""
    idle = [seat for seat in seats if now - seat.last_move >= limits.idle_seconds]
    return [seat.room_id for seat in sorted(idle, key=lambda seat: seat.last_move)]


def _holder(seat: Seat) -> str:
    return seat.browser or f"room:{seat.room_id}"  # a resumed game's holder is unknown: it counts alone


def admit(
    seats: Iterable[Seat], browser: str, address: str, limits: PracticeLimits, now: float, *, end_oldest: bool = False
) -> Admission:
    """Whether ``browser`` at ``address`` may start a practice game now, and which games to reclaim first.

    ``end_oldest``: the browser asked to end its own longest-idle game to make room for a new one."""
    playing = list(seats)
    reclaim = set(idle_rooms(playing, limits, now))
    playing = [seat for seat in playing if seat.room_id not in reclaim]
    own = sorted((seat for seat in playing if seat.browser == browser), key=lambda seat: seat.last_move)
    if len(own) >= limits.per_browser:
        if not end_oldest:
            return Admission(tuple(sorted(reclaim)), Refusal.BROWSER)
        for seat in own[: len(own) - limits.per_browser + 1]:
            reclaim.add(seat.room_id)
        playing = [seat for seat in playing if seat.room_id not in reclaim]
    if sum(seat.address == address for seat in playing) >= limits.per_address:
        return Admission(tuple(sorted(reclaim)), Refusal.ADDRESS)
    while len(playing) >= limits.max_games:
        if not playing:
            return Admission(tuple(sorted(reclaim)), Refusal.FULL)
        held = Counter(_holder(seat) for seat in playing)
        greediest, count = held.most_common(1)[0]
        if count <= 1:
            return Admission(tuple(sorted(reclaim)), Refusal.FULL)
        victim = min((seat for seat in playing if _holder(seat) == greediest), key=lambda seat: seat.last_move)
        reclaim.add(victim.room_id)
        playing.remove(victim)
    return Admission(reclaim=tuple(sorted(reclaim)))
