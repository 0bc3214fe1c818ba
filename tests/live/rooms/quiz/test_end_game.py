"""A game the host ends early, as a live room (issue 15 §3): the host's ``can`` list, the report's host tool with
its reason, and the room's end as at a normal end (the store's status, the rooms' ``on_finished`` hook)."""

from __future__ import annotations

import pytest

from toreshi.clock.timesource import FakeTime
from toreshi.kit.refusal import Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Command
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.live.store_log import StoreLog
from toreshi.live.timeline import Clocks
from toreshi.quiz.codes import QuizCode
from toreshi.store import EventStore
from toreshi.store.schema import RoomStatus

from .test_room import HOST, A, B, C, chosen, created, refusal_of, run, setup, store  # noqa: F401 - store: fixture
from .test_views import can


def decide_presses(room: QuizRoom) -> None:
    """Let the press window's deadlines pass until no press waits for the decision."""
    while room.state.pending:
        due = room.deadline_ms()
        assert due is not None
        for event in room.on_deadline(due):
            room.apply(event, due)


def played_one() -> QuizRoom:
    """Алтын chose the 1 of theme 0; Барыс answered wrong, Алтын right."""
    room = chosen()
    run(room, HOST, "finish_reading", 2_100)
    run(room, B, "press", 2_300, meta={"received_ms": 2_290})
    decide_presses(room)
    run(room, HOST, "wrong", 2_800)
    run(room, A, "press", 3_000, meta={"received_ms": 2_990})
    decide_presses(room)
    run(room, HOST, "right", 3_500)
    return room


def test_the_host_is_offered_the_end_once_the_game_has_started_and_until_it_is_over() -> None:
    room = created()
    assert "end_game" not in can(room, HOST, 500)
    assert refusal_of(room, Command("end_game", HOST, {}), 500).code is QuizCode.NOT_STARTED
    room = chosen()
    assert "end_game" in can(room, HOST, 2_050)
    assert "end_game" not in can(room, A, 2_050) and "end_game" not in can(room, None, 2_050)
    room = played_one()
    assert "end_game" in can(room, HOST, 4_000)
    assert room.finishes(list(room.decide(Command("end_game", HOST, {}), 4_000)))  # the owner stores "finished"
    run(room, HOST, "end_game", 4_000, reason="свет погас")
    assert room.is_finished() and "end_game" not in can(room, HOST, 4_100)
    assert refusal_of(room, Command("end_game", HOST, {}), 4_100).code is QuizCode.FINISHED
    assert room.view(None, 4_100)["status"] == "finished"


def test_the_report_lists_the_end_as_a_host_tool_with_its_reason() -> None:
    room = played_one()
    report = room.report()
    assert "ended" not in report
    run(room, HOST, "end_game", 4_000, reason="свет погас")
    report = room.report()
    assert report["status"] == "finished"
    assert report["scores"] == {A.name: 1, B.name: -1, C.name: 0}
    assert report["ended"] == {"at_ms": 4_000, "reason": "свет погас", "question": 1}
    last = report["questions"][-1]
    assert last["number"] == 1
    assert {"type": "game_ended", "at_ms": 4_000, "reason": "свет погас"} in last["host"]


@pytest.mark.anyio
async def test_the_room_ends_as_at_a_normal_end(store: EventStore) -> None:  # noqa: F811 - the fixture
    finished: list[tuple[str, str]] = []
    clocks = Clocks(FakeTime(0), FakeTime(1_700_000_000_000))
    owner = RoomOwner(
        "q1", QuizRoom(), StoreLog(store), InProcessBus(), clocks=clocks,
        on_finished=lambda room_id, kind: finished.append((room_id, kind)),
    )  # fmt: skip
    try:
        await owner.handle(Command("create", HOST, {"setup": setup()}))
        await owner.handle(Command("draw", HOST, {"team": A.name}))
        with pytest.raises(Refused):
            await owner.handle(Command("end_game", HOST, {}))
        await owner.handle(Command("choose", HOST, {"theme": 0, "value": 2}))
        assert finished == [] and (await store.room("q1")).status is RoomStatus.LIVE
        await owner.handle(Command("end_game", HOST, {"reason": "время зала вышло"}))
        assert finished == [("q1", "quiz")]
        assert (await store.room("q1")).status is RoomStatus.FINISHED
        assert [e.type for e in await store.load("q1")][-1] == "game_ended"
    finally:
        await owner.close()
    # A restart rebuilds the ended game from its log.
    restarted = await RoomOwner.load("q1", QuizRoom, StoreLog(store), InProcessBus(), clocks=clocks)
    try:
        assert isinstance(restarted.logic, QuizRoom) and restarted.logic.is_finished()
        assert restarted.logic.report()["ended"]["reason"] == "время зала вышло"
    finally:
        await restarted.close()
