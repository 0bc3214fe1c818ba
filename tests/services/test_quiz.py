"""Quiz rooms as a service: join codes, and a game's room created with its secrets (or nothing, if refused)."""

from __future__ import annotations

import pytest

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.registry import Rooms
from toreshi.live.rooms.quiz import KIND, QuizRoom
from toreshi.live.store_log import StoreLog
from toreshi.quiz.board import Board
from toreshi.quiz.events import Assistant, GameSetup
from toreshi.quiz.play.commands import CreateGame
from toreshi.services.quiz import (
    create_quiz_room,
    quiz_games,
    quiz_room_links,
    reissue_quiz_link,
    split_join_code,
)
from toreshi.store import EventStore
from toreshi.store.accounts import Accounts, link_key, token_digest

TEAMS = ("Алтын", "Барыс")
SETUP = GameSetup(TEAMS, Board.of(*"12345"), assistant=Assistant("Ерлан", "Тұлпар"))


def test_join_codes_are_read_leniently() -> None:
    assert split_join_code("7kdm-x4pqr") == ("q-7kdm", "X4PQR")
    assert split_join_code(" 7KDM X4PQR ") == ("q-7kdm", "X4PQR")
    assert split_join_code("7KDM-X4PQ") is None and split_join_code("7KD0-X4PQR") is None


@pytest.mark.anyio
async def test_a_game_gets_its_room_its_join_codes_and_the_screens_tokens(store: EventStore) -> None:
    accounts = Accounts(store.engine)
    rooms = Rooms(StoreLog(store), InProcessBus(), {KIND: QuizRoom})
    links = await create_quiz_room(store, accounts, rooms, "Жанна", CreateGame(SETUP, title="Бой 1"))
    assert set(links.teams) == set(TEAMS)
    for team, code in links.teams.items():
        parts = split_join_code(code)
        assert parts is not None and parts[0] == links.room_id
        grant = await accounts.grant_for(links.room_id, token_digest(parts[1]))
        assert grant is not None and (grant.role.startswith("team:"), grant.name) == (True, team)
    host = await accounts.grant_for(links.room_id, token_digest(links.host))
    assert host is not None and (host.role, host.name) == ("host", "Жанна")
    assert [(game.id, game.title, game.teams) for game in await quiz_games(store, rooms)] == [
        (links.room_id, "Бой 1", TEAMS)
    ]
    await rooms.close()


@pytest.mark.anyio
async def test_a_refused_game_leaves_no_room_behind(store: EventStore) -> None:
    rooms = Rooms(StoreLog(store), InProcessBus(), {KIND: QuizRoom})
    forged = GameSetup(("Алтын", "Барыс\r\nforged"), SETUP.board, assistant=SETUP.assistant)
    with pytest.raises(Refused) as refused:
        await create_quiz_room(store, Accounts(store.engine), rooms, "Жанна", CreateGame(forged))
    assert refused.value.refusal == Refusal(Common.FIELD_CONTROL_CHARACTERS, {"field": "setup.teams[1]"})
    assert await store.rooms() == []
    await rooms.close()


@pytest.mark.anyio
async def test_join_codes_are_derived_so_a_new_instance_shows_them_again_and_a_reissue_moves_them(
    store: EventStore,
) -> None:
    key = link_key("the app's secret key")
    rooms = Rooms(StoreLog(store), InProcessBus(), {KIND: QuizRoom})
    links = await create_quiz_room(store, Accounts(store.engine, key), rooms, "Жанна", CreateGame(SETUP))
    restarted = Accounts(store.engine, key)  # the same data folder after a restart
    assert await quiz_room_links(restarted, links.room_id) == links
    name, code = await reissue_quiz_link(restarted, links.room_id, "team:2")
    parts = split_join_code(code)
    assert name == "Барыс" and parts is not None and parts[0] == links.room_id
    shown = await quiz_room_links(Accounts(store.engine, key), links.room_id)
    assert shown is not None and shown.teams == {"Алтын": links.teams["Алтын"], "Барыс": code} != links.teams
    assert await restarted.grant_for(links.room_id, token_digest(links.teams["Барыс"][5:])) is None  # revoked
    assert await quiz_room_links(Accounts(store.engine, link_key("another key")), links.room_id) is None
    await rooms.close()
