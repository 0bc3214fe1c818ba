"""What every request handler may use, opened once by the app's lifespan: one typed accessor for all of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from starlette.requests import HTTPConnection

from toreshi.live.bus import Bus
from toreshi.live.registry import RoomSource
from toreshi.services.engine import EngineService
from toreshi.services.fairplay import FairPlayService
from toreshi.services.practice import PracticeService
from toreshi.services.quiz_tours import QuizTourService
from toreshi.services.tournament import TournamentService
from toreshi.store import EventStore
from toreshi.store.accounts import Accounts
from toreshi.store.sessions import Sessions
from toreshi.web.common.settings import Settings

T = TypeVar("T")


@dataclass
class Services:
    """The app's services, kept on ``app.state.services`` for the app's lifetime."""

    settings: Settings
    store: EventStore
    accounts: Accounts
    bus: Bus
    rooms: RoomSource
    sessions: Sessions
    tournaments: TournamentService
    """Tournaments, and the results their finished live games push to them."""
    engine: EngineService
    """Reviews and practice moves, off the event loop."""
    practice: PracticeService
    """The engine's side of every practice game."""
    quiz_tours: QuizTourService
    """The club's «Своя игра» register and tours, and the results their quiz rooms push to them."""
    fairplay: FairPlayService | None = None
    """The arbiter's fair-play reports (their own engine worker processes)."""


def services_of(connection: HTTPConnection) -> Services:
    """The app's services, for a request or a WebSocket (typed, unlike ``app.state``)."""
    services = connection.app.state.services
    if not isinstance(services, Services):  # pragma: no cover - only if the lifespan did not run
        raise RuntimeError("the app's services are not open: was the lifespan started?")
    return services


def kept_on_app(connection: HTTPConnection, name: str, make: Callable[[], T]) -> T:
    """What the app keeps as ``app.state.<name>``: one per app, made by ``make`` on first use (a limiter's counts,
    a cache)."""
    state = connection.app.state
    if not hasattr(state, name):
        setattr(state, name, make())
    kept: T = getattr(state, name)
    return kept
