"""The Starlette application: services opened for the app's lifetime, then pages, the JSON API and sockets."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import Response
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from toreshi.live import heap
from toreshi.live.bus import Bus, InProcessBus
from toreshi.live.cluster.redis_bus import RedisBus
from toreshi.live.cluster.rooms import ClusterRooms
from toreshi.live.owner import RoomOwner
from toreshi.live.registry import LogicFactory, Rooms, RoomSource
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.live.rooms.teams import TeamTournamentRoom
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.live.store_log import StoreLog
from toreshi.services.engine import EngineService
from toreshi.services.fairplay import FairPlayService
from toreshi.services.practice import PracticeService, is_practice
from toreshi.services.practice_quota import PracticeLimits
from toreshi.services.quiz_tours import QuizTourService
from toreshi.services.tournament import TournamentService
from toreshi.store import RoomStatus, open_store
from toreshi.store.accounts import Accounts, link_key
from toreshi.store.sessions import Sessions
from toreshi.togyz.engine import Limits
from toreshi.web.accounts import pages as account_pages
from toreshi.web.accounts.sessions import ServerSessionMiddleware
from toreshi.web.common import home as home_pages
from toreshi.web.common import installable, log_redaction
from toreshi.web.common.errors import EXCEPTION_HANDLERS
from toreshi.web.common.middleware import (
    BodySizeLimitMiddleware,
    LanguageMiddleware,
    SameOriginPostMiddleware,
    SecurityHeadersMiddleware,
)
from toreshi.web.common.private_pages import NoStoreSecretsMiddleware
from toreshi.web.common.proxies import ForwardedClientMiddleware, TrustedProxies
from toreshi.web.common.services import Services
from toreshi.web.common.settings import Settings
from toreshi.web.common.templates import STATIC_DIR
from toreshi.web.guide import pages as guide_pages
from toreshi.web.overlays import pages as overlay_pages
from toreshi.web.practice import pages as practice_pages
from toreshi.web.quiz import media as quiz_media
from toreshi.web.quiz import pages as quiz_pages
from toreshi.web.quiztours import pages as quiztour_pages
from toreshi.web.rooms import api as rooms_api
from toreshi.web.teams import pages as team_pages
from toreshi.web.togyz import exports, pages
from toreshi.web.togyz import replay as replay_pages
from toreshi.web.tournaments import broadcast as broadcast_pages
from toreshi.web.tournaments import calls as board_calls
from toreshi.web.tournaments import fairplay as fairplay_pages
from toreshi.web.tournaments import pages as tournament_pages
from toreshi.web.tournaments import players as tournament_players

ROOM_KINDS: dict[str, LogicFactory] = {
    "togyz": TogyzRoom,
    "quiz": QuizRoom,
    "tournament": TournamentRoom,
    "teams": TeamTournamentRoom,
}


def make_bus(url: str | None, prefix: str = "toreshi:") -> Bus:
    if url is None or url == "memory://":
        return InProcessBus()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBus(url, prefix=prefix)
    raise ValueError(f"unsupported bus URL {url!r}: use redis://host:port/db or leave it out")


class RevalidatedStaticFiles(StaticFiles):
    """Static files that browsers check on every use (``no-cache``; unchanged ones are answered 304 by their ETag):
    after an upgrade no page runs an old script against the server's newer protocol, which would make it reload
    over and over."""

    def file_response(
        self, full_path: PathLike[str] | str, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = "no-cache"
        return response


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        log_redaction.install()  # after the server configured its logging: no player's link in its lines
        async with open_store(settings.database_url, schema=settings.db_schema) as store:
            bus = make_bus(settings.bus_url, settings.bus_prefix)
            accounts = Accounts(store.engine, link_key(settings.secret_key()))
            # A game room that finishes pushes its result to its tournament, from the instance that owns the game.
            tournaments = TournamentService(store, accounts=accounts)
            quiz_tours = QuizTourService(store, accounts)

            def finished(room_id: str, kind: str) -> None:
                tournaments.game_room_finished(room_id, kind)
                quiz_tours.game_room_finished(room_id, kind)

            rooms: RoomSource
            resumed_games: list[str] = []
            if isinstance(bus, RedisBus):
                # Several instances: rooms are leased, commands forwarded; the cluster's scan resumes live rooms.
                cluster = ClusterRooms(store, bus, ROOM_KINDS, on_finished=finished)
                tournaments.attach(cluster)
                quiz_tours.attach(cluster)
                # Practice games this instance takes at start are watched once the practice service exists (below);
                # the ones it takes later, from an instance that died, at once (issue 32).
                cluster.on_taken = lambda room_id, owner: (
                    resumed_games.append(room_id) if is_practice(getattr(owner.logic, "game", None)) else None
                )
                await cluster.start()
                rooms = cluster
            else:
                rooms = Rooms(StoreLog(store), bus, dict(ROOM_KINDS), on_finished=finished)
                tournaments.attach(rooms)
                quiz_tours.attach(rooms)
                # Resume every live room: its state, clocks and timers come back from the log.
                for room in await store.rooms(status=RoomStatus.LIVE):
                    if room.kind in ROOM_KINDS:
                        await rooms.get(room.id, room.kind)
                        if room.kind == "togyz":
                            resumed_games.append(room.id)
            sessions = Sessions(store.engine)
            await sessions.purge()
            engine = EngineService(
                review_limits=Limits(depth=settings.review_depth, movetime=1.0), review_budget=settings.review_budget
            )
            practice = PracticeService(
                rooms,
                engine,
                PracticeLimits(
                    max_games=settings.practice_max_games,
                    per_browser=settings.practice_per_browser,
                    per_address=settings.practice_per_address,
                    idle_seconds=settings.practice_idle_minutes * 60,
                ),
                archive=lambda room_id: store.set_archived(room_id, True),
            )
            fairplay = FairPlayService(
                store,
                tournaments,
                limits=Limits(depth=settings.review_depth, movetime=1.0),
                workers=settings.fairplay_workers,
            )
            app.state.services = Services(
                settings, store, accounts, bus, rooms, sessions, tournaments, engine, practice, quiz_tours, fairplay
            )
            for room_id in resumed_games:  # resumed practice games: the engine takes its seat again
                owner = await rooms.get(room_id, "togyz")
                if is_practice(getattr(owner.logic, "game", None)):
                    practice.watch(room_id)
            if isinstance(rooms, ClusterRooms):
                watching = practice

                def follow_practice(room_id: str, owner: RoomOwner) -> None:
                    if is_practice(getattr(owner.logic, "game", None)):
                        watching.watch(room_id)

                rooms.on_taken = follow_practice
            # Results that finished games could not push (an instance died between the two): at start, then often.
            reconciler = asyncio.get_running_loop().create_task(tournaments.keep_reconciled())
            sweeper = asyncio.get_running_loop().create_task(practice.keep_swept())  # idle practice games end
            # Resumed rooms are long-lived: keep them out of the collector's full passes (toreshi.live.heap).
            gc.collect()
            heap.freeze_survivors()
            freezer = asyncio.get_running_loop().create_task(heap.keep_frozen())
            try:
                yield
            finally:
                for task in (freezer, reconciler, sweeper):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                await practice.close()
                await tournaments.settled()
                await quiz_tours.settled()
                await rooms.close()
                await bus.close()
                engine.close()
                fairplay.close()

    routes = [
        *home_pages.routes,
        *account_pages.routes,
        *pages.routes,
        *replay_pages.routes,
        *practice_pages.routes,
        *exports.routes,
        *quiztour_pages.routes,  # before the quiz pages: /quiz/teams is not a game's room id
        *quiz_media.routes,
        *quiz_pages.routes,
        *team_pages.routes,
        *rooms_api.routes,
        *tournament_pages.routes,
        *tournament_players.routes,
        *fairplay_pages.routes,
        *board_calls.routes,
        *broadcast_pages.routes,
        *overlay_pages.routes,
        *installable.routes,
        *guide_pages.routes,
        WebSocketRoute("/ws/rooms/{room_id}", rooms_api.room_socket),
        Mount("/static", RevalidatedStaticFiles(directory=STATIC_DIR), name="static"),
    ]
    middleware = [
        # First of all, who the client is: forwarded headers count only from the proxies the settings name.
        Middleware(
            ForwardedClientMiddleware,
            trusted=TrustedProxies.parse(settings.trusted_proxies),
            max_per_address=settings.max_connections_per_address,
        ),
        Middleware(SecurityHeadersMiddleware),
        # Bodies are limited before anything reads them: 1 MiB, the pack upload its own 64 MiB and its form fields.
        Middleware(
            BodySizeLimitMiddleware,
            overrides={
                "/quiz/new": quiz_pages.MAX_PACK_BYTES + 1024 * 1024,
                "/quiz/tours/new": 5 * quiz_pages.MAX_PACK_BYTES + 1024 * 1024,
            },
        ),
        # Sessions live in the database; the cookie holds a random id (toreshi.web.accounts.sessions).
        Middleware(ServerSessionMiddleware, https_only=settings.https_only),
        # Inside the session: a page with the session's form token or a player's link is never cached.
        Middleware(NoStoreSecretsMiddleware),
        Middleware(SameOriginPostMiddleware, extra_origins=settings.extra_origins),
        Middleware(LanguageMiddleware),
    ]
    # Unknown pages, wrong methods, refused requests and server errors: the app's own answers (web/common/errors.py).
    return Starlette(
        routes=routes, middleware=middleware, lifespan=lifespan, exception_handlers=dict(EXCEPTION_HANDLERS)
    )
