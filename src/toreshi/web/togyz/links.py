"""The players' links of a togyz game, as the arbiter shows, prints, revokes and reissues them.

Links are derived from the app's key (:mod:`toreshi.store.accounts`), so they are kept on the server and shown again
from any browser at any time; nothing of them is kept in a session. Reissuing a player's link moves the grant to its
next generation: the old link stops opening the game at once, and every socket still open with it is closed (a
notice on the room's channel, :class:`~toreshi.live.protocol.AccessNotice`, makes each connection check its link again).

What a tournament's round sheet needs (one card per game, with the players' names, the board and both QR codes) is
:func:`links_of_games`; its template includes ``togyz/_link_cards.html``.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.requests import HTTPConnection

from toreshi.live.owner import channel_of
from toreshi.live.protocol import AccessNotice
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.store.accounts import PlayerLink
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.services import services_of

PLAYER_ROLES = ("white", "black")


@dataclass(frozen=True)
class ShownLink:
    """One player's link as a page shows it: ``url`` and ``qr`` are empty when the link cannot be shown again (a
    link made before links were derived), which the arbiter replaces by reissuing it."""

    role: str
    name: str
    generation: int
    url: str
    qr: str


@dataclass(frozen=True)
class GameLinks:
    """Everything a links page or a round's sheet prints for one game."""

    room_id: str
    white: str
    black: str
    event: str
    round: str
    board: int | None
    players: tuple[ShownLink, ...]
    spectator_url: str
    spectator_qr: str
    shared_query: str
    """The query of the one-device links (``token=…&token=…``), empty unless both links can be shown."""

    def player(self, role: str) -> ShownLink | None:
        return next((link for link in self.players if link.role == role), None)


def base_url(connection: HTTPConnection) -> str:
    return str(connection.base_url).rstrip("/")


def player_url(base: str, room_id: str, secret: str) -> str:
    return f"{base}/games/{room_id}?{urlencode({'token': secret})}"


def _shown(base: str, link: PlayerLink) -> ShownLink:
    if link.secret is None:
        return ShownLink(link.role, link.name, link.generation, "", "")
    url = player_url(base, link.room_id, link.secret)
    return ShownLink(link.role, link.name, link.generation, url, qr_svg(url))


async def links_of_game(connection: HTTPConnection, room_id: str) -> GameLinks | None:
    """The links of the game ``room_id`` (``None`` when it is not a created togyz game)."""
    found = await links_of_games(connection, [room_id])
    return found[0] if found else None


async def links_of_games(connection: HTTPConnection, room_ids: list[str]) -> list[GameLinks]:
    """The links of each created togyz game among ``room_ids``, in their order (a round's sheet passes its boards'
    games). Read only: nothing is written, no link is made."""
    from toreshi.web.rooms.api import owner_of  # the API module imports this one for its link routes

    services = services_of(connection)
    base = base_url(connection)
    shown = []
    for room_id in room_ids:
        owner = await owner_of(connection, room_id)
        logic = owner.logic if owner is not None else None
        game = logic.game if isinstance(logic, TogyzRoom) else None
        if game is None:
            continue
        state = game.state
        grants = {link.role: link for link in await services.accounts.links(room_id)}
        players = tuple(_shown(base, grants[role]) for role in PLAYER_ROLES if role in grants)
        secrets = [grants[role].secret for role in PLAYER_ROLES if role in grants]
        both = "" if len(secrets) != 2 or None in secrets else urlencode([("token", s) for s in secrets if s])
        spectator = f"{base}/games/{room_id}"
        shown.append(
            GameLinks(
                room_id,
                state.white,
                state.black,
                state.event,
                state.round,
                state.board_number,
                players,
                spectator,
                qr_svg(spectator),
                both,
            )
        )
    return shown


async def reissue(connection: HTTPConnection, room_id: str, role: str) -> PlayerLink:
    """Revoke ``role``'s link in the game and give it a new one; sockets open with the old link are closed.

    Raises :class:`~toreshi.store.accounts.UnknownGrantError` for a role the game has no link for."""
    services = services_of(connection)
    link = await services.accounts.reissue_link(room_id, role)
    await services.bus.publish(channel_of(room_id), AccessNotice(room_id, role))
    return link
