"""Serial-port buttons over a pseudo-terminal: the line protocol, device clocks, and presses into a quiz room."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from toreshi.devices.serial_buttons import (
    ButtonPress,
    DeviceClock,
    DeviceReset,
    LineError,
    SerialButtons,
    feed_owner,
    parse_line,
)
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.quiz import DECIDED, PRESS, QuizRoom
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameSetup
from toreshi.quiz.play.commands import COMMANDS, CreateGame

pytestmark = pytest.mark.anyio


@pytest.fixture
def pty() -> Iterator[tuple[int, str]]:
    """A pseudo-terminal: the test writes to the master end as a button box would, the reader opens the slave."""
    master, slave = os.openpty()
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_the_line_protocol() -> None:
    assert parse_line("P1\r\n") == ButtonPress(1)
    assert parse_line("P12 4294967295") == ButtonPress(12, 4_294_967_295)
    assert parse_line("R") == DeviceReset()
    assert parse_line("") is None and parse_line("# v1.0") is None
    for bad in ("P0", "P100", "X1", "P1 -5", "P1 4294967296", "p1"):
        with pytest.raises(LineError):
            parse_line(bad)


def test_the_device_clock_keeps_spacing_and_survives_a_wrap() -> None:
    clock = DeviceClock()
    assert clock.place(4_294_960_000, read_ms=10_000) == 10_000
    # The counter wrapped: 7,296 µs + 2^32 is 14.592 ms after the first line on the device.
    assert clock.place(7_296, read_ms=10_020) == 10_015
    clock.reset()
    assert clock.place(5_000, read_ms=20_000) == 20_000


async def test_presses_arrive_in_device_order_with_device_spacing(pty: tuple[int, str]) -> None:
    master, path = pty
    got: list[tuple[int, int]] = []
    done = asyncio.Event()

    async def on_press(button: int, at: int) -> None:
        got.append((button, at))
        if len(got) == 3:
            done.set()

    ticks = iter(range(1_000, 10_000_000, 1_000))
    buttons = SerialButtons(path, on_press, clock=lambda: next(ticks))
    task = asyncio.create_task(buttons.run())
    await asyncio.sleep(0.05)
    # Two presses in one write: the device says button 3 went down 2.5 ms before button 1.
    os.write(master, b"# box v2\nP3 1000000\nP1 1002500\nnonsense\n")
    await asyncio.sleep(0.05)
    os.write(master, b"P2\n")
    await asyncio.wait_for(done.wait(), 3)
    buttons.stop()
    await asyncio.wait_for(task, 3)
    assert [button for button, _ in got] == [3, 1, 2]
    (_, first), (_, second), (_, third) = got
    assert second - first in (2, 3) and third > second
    assert buttons.bad_lines == 1 and buttons.presses == 3


class MemoryLog:
    """An in-memory event log (the owner's persistence, without a database)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any], int]] = []

    async def append(
        self, room_id: str, expected_version: int, events: Sequence[Decided], at_ms: int, **_batch: object
    ) -> int:
        assert expected_version == len(self.events)
        self.events.extend((event.type, dict(event.payload), at_ms) for event in events)
        return len(self.events)

    async def load(self, room_id: str, after_version: int = 0) -> list[Any]:
        return []

    async def mark_finished(self, room_id: str) -> None:
        return None


async def test_serial_presses_feed_the_quiz_rooms_arbitration(pty: tuple[int, str]) -> None:
    log = MemoryLog()
    owner = RoomOwner("q", QuizRoom(), log, InProcessBus())
    host = Actor("host", "Жанна")
    setup = GameSetup(("Алтын", "Барыс"), Board.of("1", "2", "3", "4", "5"), assistant=Assistant("Е", "Тұлпар"))
    create = CreateGame(setup, buttons={"1": "Алтын", "2": "Барыс"})
    await owner.handle(Command("create", host, COMMANDS.encode(create)))
    await owner.handle(Command("draw", host, {"team": "Алтын"}))
    await owner.handle(Command("choose", host, {"theme": 0, "value": 1}))
    pressed = asyncio.Event()

    async def on_press(button: int, at: int) -> None:
        await feed(button, at)
        pressed.set()

    feed = feed_owner(owner)
    buttons = SerialButtons(pty[1], on_press)
    task = asyncio.create_task(buttons.run())
    await asyncio.sleep(0.05)
    os.write(pty[0], b"P2\n")
    await asyncio.wait_for(pressed.wait(), 3)
    buttons.stop()
    await asyncio.wait_for(task, 3)
    for _ in range(100):  # the arbiter decides after its collection window (a hardware team waits little)
        if any(kind == DECIDED for kind, _, _ in log.events):
            break
        await asyncio.sleep(0.02)
    kinds = [kind for kind, _, _ in log.events]
    assert PRESS in kinds and DECIDED in kinds and kinds[-1] == "buzzed"
    press = next(payload for kind, payload, _ in log.events if kind == PRESS)
    assert press["team"] == "Барыс" and press["source"] == "serial" and press["client_ms"] is None
    assert owner.snapshot(None).data["current"]["answering"] == "Барыс"
    # A button that is not wired to a team is refused by the room (quiz_unmapped_button): the feed drops it.
    count = len(log.events)
    await feed(7, owner.now_ms())
    assert len(log.events) == count
    with pytest.raises(Refused) as refused:
        await owner.handle(Command("press", Actor("buttons", "serial"), {"button": "7"}))
    assert refused.value.refusal == Refusal(QuizCode.UNMAPPED_BUTTON, {"button": "7"})
    await owner.close()


def test_a_serial_port_is_a_device_under_dev_once_its_path_is_resolved() -> None:
    """Issue 13 §4: the typed name is resolved (``..``, symbolic links) before it is checked."""
    import os
    import pty

    from toreshi.devices.serial_buttons import serial_port

    hostile_names = ("/dev/../etc/shadow", "/dev/pts/../../etc/passwd", "/dev/.", "/dev/shm/x", "socket://e:1")
    for hostile in hostile_names:
        assert serial_port(hostile) is None, hostile
    assert serial_port("/dev/null") == "/dev/null"  # a character device
    assert serial_port("/dev/ttyUSB9") == "/dev/ttyUSB9"  # not there: opening it says so
    assert serial_port("COM3") == "COM3"
    leader, follower = pty.openpty()
    try:
        name = os.ttyname(follower)
        assert serial_port(name) == os.path.realpath(name)
    finally:
        os.close(leader)
        os.close(follower)
