"""Every room kind that ends tells beforehand whether events end it (``Foreseeing.finishes``), so the owner stores the
final event and the room's "finished" in one transaction (issue 18 §4: a kill between two writes left a finished
game "live" forever). A tournament room never ends: results can be corrected after its last game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from toreshi.clock.presets import BLITZ
from toreshi.kit.refusal import Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Actor, Command, Decided, Finishing, Foreseeing
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.live.store_log import StoreLog
from toreshi.quiz.board import VALUES
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameSetup
from toreshi.store import EventStore, RoomKind, RoomStatus

from .quiz.test_room import HOST, A, B, C, as_json, board
from .quiz.test_room import run as run_quiz
from .test_togyz import ARBITER, WHITE, created, run

ASSISTANT = Actor("assistant", "Ерлан")


def test_the_room_kinds_that_end_foresee_their_end() -> None:
    assert isinstance(TogyzRoom(), Foreseeing) and isinstance(TogyzRoom(), Finishing)
    assert isinstance(QuizRoom(), Foreseeing) and isinstance(QuizRoom(), Finishing)
    assert not isinstance(TournamentRoom(), Finishing)  # nothing to foresee: it never ends


def test_togyz_foresees_a_resignation_and_not_a_move_without_changing_the_state() -> None:
    room = created()
    run(room, ARBITER, "start", 0)
    move = room.decide(Command("move", WHITE, {"hole": 7}), 1_000)
    before = room.view(None, 1_000)
    assert room.finishes(move) is False
    assert room.view(None, 1_000) == before  # foreseeing changes nothing
    resign = room.decide(Command("resign", WHITE, {}), 1_000)
    assert room.finishes(resign) is True
    assert room.view(None, 1_000) == before and not room.is_finished()
    for event in resign:
        room.apply(event, 1_000)
    assert room.is_finished() and room.view(None, 1_000)["result"] == "0-1"


def test_togyz_applies_foreseen_events_as_a_replay_would() -> None:
    foreseen, replayed = created(), created()
    for room in (foreseen, replayed):
        run(room, ARBITER, "start", 0)
    for hole, at in ((7, 1_000), (3, 2_000), (5, 3_000)):
        actor = Actor(foreseen.view(None, at)["turn"], "")
        decided = foreseen.decide(Command("move", actor, {"hole": hole}), at)
        assert foreseen.finishes(decided) is False
        for event in decided:
            foreseen.apply(event, at)  # folded by `finishes` already
            replayed.apply(Decided(event.type, dict(event.payload)), at)  # as read back from the log
    assert foreseen.view(None, 3_000) == replayed.view(None, 3_000)


def _choose(room: QuizRoom, theme: int, value: int, at: int) -> int:
    """Choose a question, announcing the theme or the score first when the rules say so; the time after."""
    for _ in range(3):
        try:
            run_quiz(room, HOST, "choose", at, theme=theme, value=value)
            return at + 100
        except Refused as refused:
            if refused.refusal.code is QuizCode.SCORE_FIRST:
                run_quiz(room, ASSISTANT, "announce_score", at)
            elif refused.refusal.code is QuizCode.THEME_NOT_ANNOUNCED:
                run_quiz(room, HOST, "announce", at, theme=theme)
            else:
                raise
            at += 10
    raise AssertionError("the question could not be chosen")


def test_a_quiz_game_foresees_its_last_event() -> None:
    room = QuizRoom()
    setup = as_json(GameSetup((A.name, B.name, C.name), board(themes=5), assistant=Assistant("Ерлан", "Тұлпар")))
    run_quiz(room, HOST, "create", 0, setup=setup)
    run_quiz(room, HOST, "draw", 100, team=A.name)
    at, seen = 1_000, []
    for theme, value in [(theme, value) for theme in range(5) for value in VALUES]:
        at = _choose(room, theme, value, at)
        run_quiz(room, HOST, "finish_reading", at)
        due = room.deadline_ms()
        assert due is not None
        timed = list(room.on_deadline(due))
        before = room.view(None, due)
        seen.append(room.finishes(timed))
        assert room.view(None, due) == before  # foreseeing changes nothing
        for event in timed:
            room.apply(event, due)
        at = room.game.last_ms + 100
    assert room.is_finished()
    assert seen == [False] * (len(seen) - 1) + [True]  # only the last question's «время» ends the game


class RecordingLog(StoreLog):
    """The store's log, remembering how each append marked the room and whether a second write did."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store)
        self.finished_flags: list[bool] = []
        self.second_writes = 0

    async def append(
        self, room_id: str, expected_version: int, events: Sequence[Decided], at_ms: int, **kw: Any
    ) -> int:
        self.finished_flags.append(kw["batch"].finished)
        return await super().append(room_id, expected_version, events, at_ms, **kw)

    async def mark_finished(self, room_id: str) -> None:
        self.second_writes += 1
        await super().mark_finished(room_id)


@pytest.fixture
async def store(store: EventStore) -> EventStore:
    """The shared fresh store, with the room ``g1``."""
    await store.create_room("g1", RoomKind.TOGYZ)
    return store


@pytest.mark.anyio
async def test_a_togyz_games_final_event_and_finished_are_one_write(store: EventStore) -> None:
    log = RecordingLog(store)
    owner = RoomOwner("g1", TogyzRoom(), log, InProcessBus())
    await owner.handle(Command("create", ARBITER, created_data()))
    await owner.handle(Command("start", ARBITER, {}))
    await owner.handle(Command("move", WHITE, {"hole": 7}))
    assert (await store.room("g1")).status is RoomStatus.LIVE
    await owner.handle(Command("resign", Actor("black", "Bolat"), {}))
    assert log.finished_flags == [False, False, False, True] and log.second_writes == 0
    assert (await store.room("g1")).status is RoomStatus.FINISHED
    await owner.close()


def created_data() -> dict[str, Any]:
    return {"white": "Абай", "black": "Болат", "control": BLITZ.to_dict()}
