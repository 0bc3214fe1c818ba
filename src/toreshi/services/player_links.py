"""The players' personal tournament links (issue 28): one secret link per participant, with which the player checks
in before each round and gives the results of their physical boards.

A link is a grant on the tournament's room, role ``player<N>`` (N: the pairing number), derived from the app's key
as the game rooms' player links are (:mod:`toreshi.store.accounts`): the arbiter shows and prints them again at
any time, from any browser. Making the links is an arbiter's post (reading a page never writes); reissuing a
player's link moves its grant to the next generation, so the old link stops opening the player's page at once.
"""

from __future__ import annotations

from toreshi.services.tournament import TournamentService
from toreshi.store.accounts import Accounts, PlayerLink, UnknownGrantError, token_digest

ROLE = "player"


def role_of(number: int) -> str:
    return f"{ROLE}{number}"


def number_of(role: str) -> int | None:
    """The pairing number of a player's grant role (``player12`` → 12), None for any other role."""
    rest = role[len(ROLE) :] if role.startswith(ROLE) else ""
    return int(rest) if rest.isdigit() else None


def _accounts(service: TournamentService) -> Accounts:
    accounts = service.accounts
    if accounts is None or accounts.key is None:
        raise RuntimeError("no accounts store with the app's key: player links cannot be made")
    return accounts


async def player_links(service: TournamentService, tournament_id: str) -> dict[int, PlayerLink]:
    """Every player's current link, by pairing number (read only)."""
    if service.accounts is None:
        return {}
    found = {}
    for link in await service.accounts.links(tournament_id):
        number = number_of(link.role)
        if number is not None:
            found[number] = link
    return found


async def issue_player_links(service: TournamentService, tournament_id: str) -> int:
    """A link for every participant who has none yet; returns how many were made."""
    accounts = _accounts(service)
    state = await service.state(tournament_id)
    have = await player_links(service, tournament_id)
    made = 0
    for participant in state.t.participants:
        if participant.number not in have:
            await accounts.issue_link(tournament_id, role_of(participant.number), participant.name)
            made += 1
    return made


async def reissue_player_link(service: TournamentService, tournament_id: str, number: int) -> PlayerLink:
    """The player's link revoked and replaced (made, if the player had none). Refuses an unknown player."""
    accounts = _accounts(service)
    state = await service.state(tournament_id)
    participant = state.t.participant(number)
    try:
        return await accounts.reissue_link(tournament_id, role_of(number))
    except UnknownGrantError:
        return await accounts.issue_link(tournament_id, role_of(number), participant.name)


async def player_of(service: TournamentService, tournament_id: str, token: str) -> int | None:
    """The pairing number whose current link ``token`` is, or None (a forged link, or one revoked since)."""
    if service.accounts is None or not token:
        return None
    grant = await service.accounts.grant_for(tournament_id, token_digest(token))
    return number_of(grant.role) if grant is not None else None
