"""«Своя игра» games as rooms: creating one with its secrets, the teams' join codes, the list of games.

A join code is ``RRRR-TTTTT``: the room's short id and the team's secret. The secret is stored only as a digest, as
every per-room token is (:func:`toreshi.store.accounts.token_digest`). The team secrets and the screens' tokens are
*derived* from the app's link key, as the players' links of a togyz game are (:mod:`toreshi.store.accounts`): the
host's links page shows them again after a restart (:func:`quiz_room_links`), e.g. for a tour's shootout that was
made by itself when a tie was recorded. Rooms made before that keep their random secrets (shown once).

>>> room_id_of("7KDM")
'q-7kdm'
>>> split_join_code("7kdm x4pqr")
('q-7kdm', 'X4PQR')
>>> split_join_code("7KDM-X4PQ0") is None   # no 0 in a code: it reads as O on a projector
True
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from toreshi.kit.core import Actor
from toreshi.kit.refusal import Refused
from toreshi.live.registry import RoomSource
from toreshi.live.room import Command
from toreshi.live.rooms.quiz import KIND, QuizRoom
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.play.commands import COMMANDS, CreateGame
from toreshi.store import EventStore, RoomExistsError, RoomKind, UnknownRoomError
from toreshi.store.accounts import LINK_SHAPE, Accounts, SecretShape, UnknownGrantError, token_digest

__all__ = [
    "CODE_ALPHABET",
    "GameLinks",
    "GameSummary",
    "create_quiz_room",
    "end_quiz_game",
    "quiz_games",
    "quiz_room_links",
    "reissue_quiz_link",
    "room_id_of",
    "split_join_code",
]

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O, 1/I that people misread on a projector."""
ROOM_CODE_LENGTH = 4
TEAM_CODE_LENGTH = 5
CODE_ATTEMPTS = 20
TEAM_CODE = SecretShape(CODE_ALPHABET, TEAM_CODE_LENGTH)
"""A team's secret as derived from the link key: 5 letters of the join-code alphabet."""
SCREENS = ("host", "projector", "assistant")


def _code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def room_id_of(room_code: str) -> str:
    return f"q-{room_code.lower()}"


def split_join_code(code: str) -> tuple[str, str] | None:
    """``"7KDM-X4PQR"`` (any case, spaces or no dash) → (room id, team secret); ``None`` if it is not one."""
    cleaned = "".join(ch for ch in code.upper() if ch.isalnum())
    if len(cleaned) != ROOM_CODE_LENGTH + TEAM_CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in cleaned):
        return None
    return room_id_of(cleaned[:ROOM_CODE_LENGTH]), cleaned[ROOM_CODE_LENGTH:]


@dataclass(frozen=True)
class GameLinks:
    """A new game's secrets, shown once to the host: each team's join code and the screens' tokens."""

    room_id: str
    teams: dict[str, str] = field(default_factory=dict)
    """Team → join code ``RRRR-TTTTT``."""
    host: str = ""
    projector: str = ""
    assistant: str = ""

    def to_session(self) -> dict[str, object]:
        return {"teams": dict(self.teams), "host": self.host, "projector": self.projector, "assistant": self.assistant}


async def create_quiz_room(
    store: EventStore, accounts: Accounts, rooms: RoomSource, host: str, create: CreateGame
) -> GameLinks:
    """Create the game's room, its team join codes and the host's, projector's and assistant's tokens.

    The game is decided once on a blank room first, so that a refused game (raises
    :class:`~toreshi.kit.refusal.Refused`) leaves no empty room behind in the store."""
    command = Command("create", Actor("host", host), COMMANDS.encode(create))
    QuizRoom().decide(command, 0)
    for _attempt in range(CODE_ATTEMPTS):
        room_code = _code(ROOM_CODE_LENGTH)
        room_id = room_id_of(room_code)
        try:
            await store.create_room(room_id, RoomKind.QUIZ)
        except RoomExistsError:
            continue
        break
    else:  # pragma: no cover - 20 collisions among a million codes
        raise Refused(QuizCode.NO_FREE_CODE)
    owner = await rooms.get(room_id, KIND)
    try:
        await owner.handle(command)
    except Refused:
        await rooms.drop(room_id)
        raise
    teams: dict[str, str] = {}
    for seat, team in enumerate(create.setup.teams, start=1):
        secret = await _grant(accounts, room_id, f"team:{seat}", team, TEAM_CODE)
        teams[team] = f"{room_code}-{secret}"
    assistant = create.setup.assistant
    tokens: dict[str, str] = {}
    for role, name in zip(SCREENS, (host, "", assistant.name if assistant else ""), strict=True):
        tokens[role] = await _grant(accounts, room_id, role, name, LINK_SHAPE)
    return GameLinks(room_id, teams, **tokens)


async def _grant(accounts: Accounts, room_id: str, role: str, name: str, shape: SecretShape) -> str:
    """Grant ``role`` in the room to ``name``; returns its secret, derived wherever the accounts have the link key
    (so it can be shown again), else random (shown once)."""
    if accounts.derives:
        secret = (await accounts.issue_link(room_id, role, name, shape)).secret
        assert secret is not None  # just derived
        return secret
    secret = _code(shape.length) if shape.alphabet else secrets.token_urlsafe(shape.length)
    await accounts.grant(room_id, role, name, token_digest(secret))
    return secret


async def quiz_room_links(accounts: Accounts, room_id: str) -> GameLinks | None:
    """A game's join codes and screens' tokens as the store gives them again (derived from the link key): the
    current generation of each, so a reissued code shows its new value. ``None`` when the room has no secret that
    can be derived (a room made before secrets were derived, or no link key)."""
    if not accounts.derives:
        return None
    room_code = room_id.removeprefix("q-").upper()
    seats: list[tuple[int, str, str]] = []
    tokens: dict[str, str] = {}
    for found in await accounts.links(room_id, (TEAM_CODE, LINK_SHAPE)):
        if found.secret is None:
            return None
        if found.role.startswith("team:"):
            seats.append((int(found.role.partition(":")[2]), found.name, f"{room_code}-{found.secret}"))
        elif found.role in SCREENS:
            tokens[found.role] = found.secret
    if not seats:
        return None
    return GameLinks(room_id, {team: code for _, team, code in sorted(seats)}, **tokens)


async def end_quiz_game(rooms: RoomSource, room_id: str, by: str, reason: str = "") -> None:
    """The host (a signed-in arbiter ``by``) ends the game ``room_id`` with the scores as they stand: the room's
    ``end_game`` command, so the room finishes as at a normal end (its status, the rooms' ``on_finished`` hook that
    takes a tour game's result to its tour). Raises :class:`~toreshi.kit.refusal.Refused` when the game is over
    already or has not started."""
    owner = await rooms.get(room_id, KIND)
    await owner.handle(Command("end_game", Actor("arbiter", by), {"reason": reason[:500]}))


REISSUABLE = ("projector", "assistant")
"""The screens whose tokens the host may revoke and reissue, besides each team's join code (``team:N``)."""


async def reissue_quiz_link(accounts: Accounts, room_id: str, role: str) -> tuple[str, str]:
    """Revoke the join code of team ``team:N`` (or the ``projector``'s or ``assistant``'s token) and make a new one;
    returns (the grant's name, the new code or token). The caller closes the sockets still open with the old one.
    Raises :class:`~toreshi.store.accounts.UnknownGrantError` for a role the game has no grant for."""
    if role.startswith("team:"):
        name, secret = await _reissue(accounts, room_id, role, TEAM_CODE)
        return name, f"{room_id.removeprefix('q-').upper()}-{secret}"
    if role not in REISSUABLE:
        raise UnknownGrantError(f"the {role!r} link of a quiz cannot be reissued")
    return await _reissue(accounts, room_id, role, LINK_SHAPE)


async def _reissue(accounts: Accounts, room_id: str, role: str, shape: SecretShape) -> tuple[str, str]:
    if accounts.derives:
        link = await accounts.reissue_link(room_id, role, shape)
        assert link.secret is not None  # just derived
        return link.name, link.secret
    secret = _code(shape.length) if shape.alphabet else secrets.token_urlsafe(shape.length)
    grant = await accounts.replace_token(room_id, role, token_digest(secret))
    return grant.name, secret


@dataclass(frozen=True)
class GameSummary:
    """A game as the list of games shows it."""

    id: str
    title: str
    teams: tuple[str, ...]
    status: str
    """The game's stage (:class:`toreshi.quiz.game.Phase` value): ``finished`` once it is over."""
    archived: bool = False
    played: int = 0
    """Questions played so far."""
    scores: tuple[tuple[str, int], ...] = ()
    """Each team's score as it stands."""


async def quiz_games(store: EventStore, rooms: RoomSource) -> list[GameSummary]:
    """Every created quiz game, in the order they were created."""
    games = []
    for room in await store.rooms(kind=RoomKind.QUIZ):
        try:
            owner = await rooms.get(room.id, KIND)
        except (UnknownRoomError, LookupError):  # pragma: no cover - a room of another build
            continue
        logic = owner.logic
        if isinstance(logic, QuizRoom) and logic.created:
            game = logic.game
            archived, played, scores = room.archived_at is not None, len(game.played), tuple(game.scores.items())
            summary = GameSummary(room.id, logic.title, game.teams, game.phase.value, archived, played, scores)
            games.append(summary)
    return games
