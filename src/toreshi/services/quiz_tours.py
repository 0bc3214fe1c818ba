"""The club's «Своя игра» register and tours: teams that last across tours, tours as stored logs, their game rooms.

Store-backed (``quiz_teams``, ``quiz_tours``, ``quiz_tour_events``, ``quiz_tour_packs``; revision 0007; a tour's
packs kept once in ``quiz_pack_contents`` and referred to by their digest, revision 0013): a tour is
an append-only log of the pure core's events (:mod:`toreshi.quiz.tour.core`), decided here under a per-tour lock
and written at the next version (the primary key refuses a second writer); reading is the folded state, kept in
memory and caught up from the log. Reading never writes.

Game rooms are made by :func:`toreshi.services.quiz.create_quiz_room` with the tour's teams, a suggested assistant
from a team not in the game (SI-4.1) and a board cut from the next unused themes of the tour's packs. When a quiz
room ends, the rooms' ``on_finished`` hook (:meth:`QuizTourService.game_room_finished`) pushes its scores to its
tour as the ``system`` actor; a tie across an advancing place then gets its shootout room at once (SI-2.2).
:meth:`QuizTourService.reconcile` makes a push that could not be made (run at start-up and by the host's button).
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.registry import RoomSource
from toreshi.live.room import Command as RoomCommand
from toreshi.live.rooms.quiz import KIND as QUIZ_KIND
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.quiz.events import Assistant
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import Package, Round, Theme
from toreshi.quiz.play.commands import CreateGame
from toreshi.quiz.play.setup import fitted_themes, setup_from_pack
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.quiz.tour.core import (
    EVENTS,
    HOST,
    SYSTEM,
    Command,
    CreateTour,
    Formula,
    GameLink,
    LinkGame,
    PackInfo,
    RecordResult,
    TourState,
    closed_links,
    decide,
    evolve,
    read_event,
    suggest_assistant,
)
from toreshi.quiz.tournament import LeagueRow, LeagueTable, Rating, TeamRatings
from toreshi.services.common import AttachedRooms, Pushes, utc_now
from toreshi.services.quiz import GameLinks, create_quiz_room
from toreshi.store import EventStore
from toreshi.store.accounts import Accounts
from toreshi.store.packs import QuizPacks, keep_content, stored_bytes
from toreshi.store.schema import quiz_teams, quiz_tour_events, quiz_tour_packs, quiz_tours

log = logging.getLogger(__name__)

__all__ = ["ClubTeam", "QuizTeams", "QuizTourService", "RatingPoint", "TourRef", "UnknownTourError"]


class UnknownTourError(LookupError):
    """No tour with that id."""


# --- the register --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubTeam:
    id: int
    name: str
    players: tuple[str, ...]
    contact: str
    active: bool


class QuizTeams:
    """The club's team register (lasts across tours)."""

    def __init__(self, store: EventStore, clock: Callable[[], datetime] = utc_now) -> None:
        self.engine = store.engine
        self.clock = clock

    async def all(self, *, active_only: bool = False) -> list[ClubTeam]:
        query = select(quiz_teams).order_by(quiz_teams.c.name)
        if active_only:
            query = query.where(quiz_teams.c.active.is_(True))
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [ClubTeam(r.id, r.name, tuple(r.players), r.contact, bool(r.active)) for r in rows]

    async def get(self, team_id: int) -> ClubTeam | None:
        return next((t for t in await self.all() if t.id == team_id), None)

    async def named(self, name: str) -> ClubTeam | None:
        return next((t for t in await self.all() if t.name == name), None)

    async def save(self, name: str, players: Sequence[str], contact: str, active: bool = True) -> tuple[int, bool]:
        """Add a team, or update the one with this name; returns its id and whether it is new."""
        name = " ".join(name.split())[:80]
        cleaned = [" ".join(p.split())[:80] for p in players if p.strip()][:20]
        values = {"players": cleaned, "contact": contact.strip()[:200], "active": active}
        async with self.engine.begin() as connection:
            found = (await connection.execute(select(quiz_teams.c.id).where(quiz_teams.c.name == name))).first()
            if found is not None:
                await connection.execute(update(quiz_teams).where(quiz_teams.c.id == found.id).values(**values))
                return int(found.id), False
            result = await connection.execute(insert(quiz_teams).values(name=name, created_at=self.clock(), **values))
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0]), True

    async def set_active(self, team_id: int, active: bool) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(update(quiz_teams).where(quiz_teams.c.id == team_id).values(active=active))

    async def import_csv(self, text: str) -> tuple[int, int, list[int]]:
        """Teams from CSV (a header ``name,players,contact,active``; players separated by ``;``): returns how many
        were added, how many updated, and the line numbers skipped (no name)."""
        added = updated = 0
        skipped: list[int] = []
        sample = text[:2048]
        try:
            dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
        except csv.Error:
            dialect = csv.excel
        reader = csv.DictReader(io.StringIO(text), dialect=dialect)
        for line, row in enumerate(reader, start=2):
            fields = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items() if isinstance(v, str)}
            name = fields.get("name", "")
            if not name:
                skipped.append(line)
                continue
            players = fields.get("players", "").replace("|", ";").split(";")
            active = fields.get("active", "yes").lower() not in ("0", "no", "false", "нет", "жоқ")
            _, new = await self.save(name, players, fields.get("contact", ""), active)
            added, updated = added + new, updated + (not new)
        return added, updated, skipped


# --- tours ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TourRef:
    id: str
    state: TourState
    created_at: datetime
    host: str


@dataclass(frozen=True)
class RatingPoint:
    tour: str
    name: str
    date: str
    rating: Rating


@dataclass
class _Held:
    state: TourState
    version: int
    created_at: datetime
    host: str


def playable_themes(package: Package) -> list[Theme]:
    """A pack's themes on the regulation's grid, in pack order: the pool tours cut games from (themes of any shape,
    :func:`~toreshi.quiz.play.setup.fitted_themes`)."""
    return fitted_themes(package)


class QuizTourService(AttachedRooms):
    """Tours over the store and the live rooms (attached after the rooms are made)."""

    def __init__(
        self,
        store: EventStore,
        accounts: Accounts,
        rooms: RoomSource | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.engine = store.engine
        self.accounts = accounts
        self._rooms = rooms
        self.clock = clock
        self.teams = QuizTeams(store, clock)
        self._held: dict[str, _Held] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._pushes = Pushes(log, "the result of quiz room %s could not be pushed to its tour")
        self._packs: dict[str, list[tuple[str, list[Theme]]]] = {}

    def _lock(self, tour_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tour_id, asyncio.Lock())

    # --- reading ---------------------------------------------------------------------------------------------

    async def _catch_up(self, tour_id: str) -> _Held:
        held = self._held.get(tour_id)
        async with self.engine.connect() as connection:
            if held is None:
                row = (await connection.execute(select(quiz_tours).where(quiz_tours.c.id == tour_id))).first()
                if row is None:
                    raise UnknownTourError(tour_id)
                held = _Held(TourState(), 0, row.created_at, "")
            rows = (
                await connection.execute(
                    select(quiz_tour_events)
                    .where(quiz_tour_events.c.tour_id == tour_id, quiz_tour_events.c.version > held.version)
                    .order_by(quiz_tour_events.c.version)
                )
            ).all()
        held = self._held.setdefault(tour_id, held)
        for row in rows:  # no await in this loop: a reader that fetched the same rows meanwhile skips them here
            if row.version <= held.version:
                continue
            held.state = evolve(held.state, read_event(row.payload))
            held.version = int(row.version)
            if held.version == 1:
                held.host = row.by
        self._held[tour_id] = held
        return held

    async def state(self, tour_id: str) -> TourState:
        return (await self._catch_up(tour_id)).state

    async def tours(self) -> list[TourRef]:
        """Every tour, by date then creation."""
        async with self.engine.connect() as connection:
            ids = [r.id for r in (await connection.execute(select(quiz_tours.c.id))).all()]
        found = []
        for tour_id in ids:
            held = await self._catch_up(tour_id)
            found.append(TourRef(tour_id, held.state, held.created_at, held.host))
        return sorted(found, key=lambda t: (t.state.date, t.created_at))

    # --- deciding --------------------------------------------------------------------------------------------

    async def command(self, tour_id: str, command: Command, by: str, role: str = HOST) -> TourState:
        """Decide and persist one command (raises :class:`Refused`); returns the new state."""
        async with self._lock(tour_id):
            for _attempt in range(3):
                held = await self._catch_up(tour_id)
                context = Context(Actor(role, by), 0, secrets.SystemRandom(), {"at": self.clock().isoformat()})
                result = decide(held.state, command, context)
                if isinstance(result, Refusal):
                    raise Refused(result)
                try:
                    async with self.engine.begin() as connection:
                        for offset, event in enumerate(result, start=1):
                            await connection.execute(
                                insert(quiz_tour_events).values(
                                    tour_id=tour_id, version=held.version + offset, type=event.type,
                                    payload=EVENTS.encode(event), created_at=self.clock(), by=by[:80],
                                )
                            )  # fmt: skip
                except IntegrityError:  # another instance wrote first: catch up and decide again
                    continue
                state = (await self._catch_up(tour_id)).state
                break
            else:
                raise RuntimeError(f"tour {tour_id}: the log kept moving")
        await self._close_rooms(state)
        return state

    async def _close_rooms(self, state: TourState) -> None:
        """Close the rooms whose results became final (SI-6): their undo, reversals and corrections are refused
        from now on. A room closed already answers with nothing new."""
        if self._rooms is None:
            return
        for room_id in closed_links(state):
            owner = await self.rooms.get(room_id, QUIZ_KIND)
            logic = owner.logic
            if isinstance(logic, QuizRoom) and not logic.state.closed:
                try:
                    await owner.handle(RoomCommand("close_game", Actor("arbiter", "tour"), {"reason": "stage"}))
                except Refused as refused:  # a room reopened by an undo: it closes once it is over again
                    log.info("quiz room %s not closed: %s", room_id, refused.refusal)

    async def create(
        self, by: str, name: str, date: str, teams: Sequence[str], packs: Sequence[tuple[str, bytes]], formula: Formula
    ) -> str:
        """A new tour with its packs (read here: a pack that cannot be read is refused); returns its id."""
        infos = []
        for pack_name, data in packs:
            package = read_pack(data, name=pack_name)
            infos.append(PackInfo((package.name or pack_name)[:200], len(playable_themes(package))))
        command = CreateTour(name, date, tuple(teams), tuple(infos), formula)
        problem = decide(TourState(), command, Context(Actor(HOST, by), 0))
        if isinstance(problem, Refusal):
            raise Refused(problem)
        tour_id = f"qt-{secrets.token_hex(5)}"
        async with self.engine.begin() as connection:
            await connection.execute(insert(quiz_tours).values(id=tour_id, created_at=self.clock()))
            for number, (pack_name, data) in enumerate(packs):
                digest = await keep_content(connection, data)  # once, shared with the tour's rooms
                await connection.execute(
                    insert(quiz_tour_packs).values(tour_id=tour_id, number=number, name=pack_name[:200], digest=digest)
                )
        await self.command(tour_id, command, by)
        return tour_id

    async def _pool(self, tour_id: str) -> list[Theme]:
        if tour_id not in self._packs:
            async with self.engine.connect() as connection:
                data = stored_bytes(quiz_tour_packs.c.data, quiz_tour_packs.c.digest)
                rows = (
                    await connection.execute(
                        select(quiz_tour_packs.c.name, data.label("data"))
                        .where(quiz_tour_packs.c.tour_id == tour_id)
                        .order_by(quiz_tour_packs.c.number)
                    )
                ).all()
            self._packs[tour_id] = [(r.name, playable_themes(read_pack(bytes(r.data), name=r.name))) for r in rows]
        return [t for _, themes in self._packs[tour_id] for t in themes]

    async def _keep_media(self, tour_id: str, room_id: str, start: int, count: int) -> None:
        """Store the pack the room's themes come from, so that its images, sounds and videos reach the screens
        (:mod:`toreshi.web.quiz.media` serves a room's media from its stored pack). Where a room's themes span two
        packs of the tour, the pack of its first theme is kept and the other's media are not shown (logged)."""
        numbers: list[int] = []
        for number, (_name, themes) in enumerate(self._packs[tour_id]):
            numbers.extend([number] * len(themes))
        used = sorted(set(numbers[start : start + count]))
        if not used:
            return
        if len(used) > 1:
            log.warning("room %s of tour %s takes themes of packs %s: only the first one's media are served",
                        room_id, tour_id, used)  # fmt: skip
        async with self.engine.begin() as connection:
            row = (
                await connection.execute(
                    select(quiz_tour_packs.c.data, quiz_tour_packs.c.digest).where(
                        quiz_tour_packs.c.tour_id == tour_id, quiz_tour_packs.c.number == used[0]
                    )
                )
            ).one()
            # A tour made before packs were kept once holds its own copy: it is kept once now, for all its rooms.
            digest = row.digest if row.digest is not None else await keep_content(connection, bytes(row.data))
        await QuizPacks(self.engine).refer(room_id, digest)

    async def _assistant(self, team: str) -> Assistant | None:
        if not team:
            return None
        found = await self.teams.named(team)
        person = found.players[0] if found is not None and found.players else team
        return Assistant(person, team)

    async def create_rooms(self, tour_id: str, by: str) -> list[GameLinks]:
        """A room for every game of the current stage and every pending shootout that has none (SI-2.2)."""
        made: list[GameLinks] = []
        async with self._lock(tour_id):
            held = await self._catch_up(tour_id)
        state = held.state
        for game in state.games_to_link():
            teams = state.tour.stages[-1].games[game]
            made.append(await self._make_room(tour_id, by, state, game, teams, shootout=False))
            state = await self.state(tour_id)
        for need in state.shootouts_to_link():
            game = -1 if need.game is None else need.game
            made.append(await self._make_room(tour_id, by, state, game, need.tie.teams, shootout=True))
            state = await self.state(tour_id)
        return made  # their secrets are derived: the host's links page shows them again (quiz_room_links)

    async def _make_room(
        self, tour_id: str, by: str, state: TourState, game: int, teams: tuple[str, ...], *, shootout: bool
    ) -> GameLinks:
        kind = state.kind_to_link(shootout)
        start, count = state.allotment(kind)
        pool = await self._pool(tour_id)
        if start + count > len(pool):
            raise Refused(Refusal(QuizTourCode.PACKS_EXHAUSTED, {"needed": count, "left": max(0, len(pool) - start)}))
        assistant_team = suggest_assistant(state, teams)
        package = Package(state.name, (Round(state.name, tuple(pool[start : start + count])),))
        cuts: tuple[int, ...] = ()
        if shootout:
            need = next(n for n in state.shootouts_to_link() if n.tie.teams == teams)
            cuts = need.tie.cuts
        setup, notes = setup_from_pack(
            package, kind=kind, teams=teams, assistant=await self._assistant(assistant_team),
            advancing=cuts[0] if cuts else 1,
        )  # fmt: skip
        if cuts:
            setup = replace(setup, shootout_cuts=cuts)
        stage = state.stage_index + 1
        title = f"{state.name} · {stage}.{game + 1}" if game >= 0 else f"{state.name} · {stage}"
        create = CreateGame(
            setup, title=title[:100], notes=notes, keys={str(i): t for i, t in enumerate(teams, start=1)},
            buttons={str(i): t for i, t in enumerate(teams, start=1)},
        )  # fmt: skip
        links = await create_quiz_room(self.store, self.accounts, self.rooms, by or "host", create)
        await self._keep_media(tour_id, links.room_id, start, count)
        link = LinkGame(links.room_id, state.stage_index, game, start, assistant_team, shootout, teams)
        await self.command(tour_id, link, by)
        return links

    # --- results pushed from the rooms' ends ------------------------------------------------------------------

    def game_room_finished(self, room_id: str, kind: str) -> None:
        """The rooms' ``on_finished`` hook: a quiz room ended; its scores go to its tour in the background."""
        if kind == QUIZ_KIND:
            self._pushes.start(room_id, self.push_result(room_id))

    async def settled(self) -> None:
        await self._pushes.settled()

    async def tour_of(self, room_id: str) -> str | None:
        for ref in await self.tours():
            if ref.state.link(room_id) is not None:
                return ref.id
        return None

    async def push_result(self, room_id: str) -> bool:
        """Record the finished room's scores in its tour and make the shootouts that result calls for."""
        tour_id = await self.tour_of(room_id)
        if tour_id is None:
            return False
        state = await self.state(tour_id)
        link = state.link(room_id)
        if link is None:
            return False
        owner = await self.rooms.get(room_id, QUIZ_KIND)
        logic = owner.logic
        if not isinstance(logic, QuizRoom) or not logic.is_finished():
            return False
        scores = logic.game.scores
        if link.scores is not None and dict(link.scores) == scores:
            return False  # recorded as it stands
        # A first result, or one amended in the room (an undo, a reversal after the game) while the stage is open;
        # the tour refuses an amendment once the stage is closed (SI-6), and the room refuses it from then on.
        await self.command(tour_id, RecordResult(room_id, scores), "", role=SYSTEM)
        state = await self.state(tour_id)
        if state.shootouts_to_link():
            held = self._held[tour_id]
            await self.create_rooms(tour_id, held.host)
        return True

    async def reconcile(self, tour_id: str) -> int:
        """Push every finished linked room's result that its tour lacks; returns how many."""
        state = await self.state(tour_id)
        pushed = 0
        for link in state.links:
            if link.scores is None and await self.push_result(link.room_id):
                pushed += 1
        return pushed

    # --- the club's tables --------------------------------------------------------------------------------------

    async def finished_tours(self) -> list[TourRef]:
        return [t for t in await self.tours() if t.state.finished]

    async def league(self) -> tuple[LeagueTable, list[TourRef]]:
        """The league table over the finished tours (SI-5)."""
        table = LeagueTable()
        done = await self.finished_tours()
        for ref in done:
            table = table.add(replace(ref.state.tour, name=ref.id))
        return table, done

    async def ratings(self) -> tuple[TeamRatings, dict[str, list[RatingPoint]]]:
        """Team ratings (OpenSkill, SI-5) after every finished tour, and each team's history."""
        ratings = TeamRatings()
        history: dict[str, list[RatingPoint]] = {}
        for ref in await self.finished_tours():
            ratings = ratings.rate_tour(ref.state.tour)
            for team in ref.state.tour.teams:
                history.setdefault(team, []).append(
                    RatingPoint(ref.id, ref.state.name, ref.state.date, ratings.get(team))
                )
        return ratings, history

    async def rating_order(self) -> list[str]:
        """Teams best first by their current rating (seeding by rating)."""
        ratings, _ = await self.ratings()
        return [team for team, _ in ratings.table()]

    async def team_record(self, name: str) -> dict[str, Any]:
        """A team's games, tours (with its place), league row and rating history."""
        games: list[tuple[TourRef, GameLink]] = []
        tours: list[tuple[TourRef, int | None]] = []
        for ref in await self.tours():
            if name not in ref.state.teams:
                continue
            place = None
            if ref.state.finished:
                start = 1
                for group in ref.state.tour.final_places():
                    if name in group:
                        place = start
                    start += len(group)
            tours.append((ref, place))
            games.extend((ref, link) for link in ref.state.links if name in link.teams)
        table, _ = await self.league()
        row: LeagueRow | None = next((r for r in table.rows() if r.team == name), None)
        _, history = await self.ratings()
        return {"games": games, "tours": tours, "league": row, "history": history.get(name, [])}


async def read_tour(store: EventStore, tour_id: str) -> TourState:
    """A tour's state from its stored log alone (``toreshi publish`` reads a database no app serves); raises
    :class:`UnknownTourError`."""
    async with store.engine.connect() as connection:
        if (await connection.execute(select(quiz_tours.c.id).where(quiz_tours.c.id == tour_id))).first() is None:
            raise UnknownTourError(tour_id)
        rows = (
            await connection.execute(
                select(quiz_tour_events.c.payload)
                .where(quiz_tour_events.c.tour_id == tour_id)
                .order_by(quiz_tour_events.c.version)
            )
        ).all()
    state = TourState()
    for row in rows:
        state = evolve(state, read_event(row.payload))
    return state


def scores_text(scores: Mapping[str, int] | None) -> str:
    return "" if scores is None else ", ".join(f"{t} {s}" for t, s in scores.items())
