"""Buzzer buttons on a serial port (pyserial): a small line protocol, read in a thread, fed to a room.

A button box (an Arduino, a USB-UART brain-ring controller) sends one ASCII line per message; 115200 baud 8N1 by
default. Lines end with ``\\n`` (a ``\\r`` before it is ignored):

=================  ==================================================================================================
``P<n>``           button ``n`` (1–99) went down; the press time is when the server read the line.
``P<n> <µs>``      the same with the device's own timestamp in microseconds (an unsigned 32-bit counter that wraps
                   after about 71 minutes). The server anchors the device clock to its own (the least delayed line
                   wins, as in NTP's clock filter), so presses that arrive in one read keep their device order and
                   spacing — one clock, microsecond resolution (docs/realtime.md §4.1).
``R``              the device restarted: its counter starts again, forget the anchor.
``# …``            a comment (firmware version, diagnostics); ignored, as are empty lines.
=================  ==================================================================================================

Anything else is counted in :attr:`SerialButtons.bad_lines` and skipped. Debouncing is the firmware's job; the room
refuses a second press of a team in one opening anyway. Button numbers are mapped to teams by the room
(``buttons`` in the quiz room's setup or its ``map_keys`` command), so rewiring needs no restart.

>>> parse_line("P3 1500")
ButtonPress(button=3, device_us=1500)
>>> parse_line("# firmware 1.2") is None
True
>>> clock = DeviceClock()
>>> clock.place(1_000_000, read_ms=5_004)
5004
>>> clock.place(1_002_000, read_ms=5_010)   # 2 ms later on the device, read 6 ms later: 4 ms of transit
5006
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import stat
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import serial

from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command
from toreshi.live.timeline import monotonic_ms

__all__ = [
    "BAUD_RATE",
    "SERIAL_PORT",
    "ButtonPress",
    "DeviceClock",
    "DeviceReset",
    "LineError",
    "SerialButtons",
    "feed_owner",
    "parse_line",
    "serial_port",
]

BAUD_RATE = 115_200
MAX_LINE = 64
WRAP_US = 1 << 32
_PRESS = re.compile(r"P([1-9][0-9]?)(?: ([0-9]{1,10}))?")


class LineError(ValueError):
    """A line that is not in the protocol."""


@dataclass(frozen=True, slots=True)
class ButtonPress:
    button: int
    device_us: int | None = None


@dataclass(frozen=True, slots=True)
class DeviceReset:
    pass


def parse_line(line: str) -> ButtonPress | DeviceReset | None:
    """One protocol line; ``None`` for a comment or an empty line; :class:`LineError` for anything else."""
    text = line.rstrip("\r\n").strip()
    if not text or text.startswith("#"):
        return None
    if text == "R":
        return DeviceReset()
    match = _PRESS.fullmatch(text)
    if match is None:
        raise LineError(f"not a button line: {text[:MAX_LINE]!r}")
    stamp = match.group(2)
    device_us = None if stamp is None else int(stamp)
    if device_us is not None and device_us >= WRAP_US:
        raise LineError(f"device time {device_us} does not fit 32 bits")
    return ButtonPress(int(match.group(1)), device_us)


class DeviceClock:
    """Maps a device's microsecond counter onto the server's milliseconds.

    ``anchor = min(read_ms - device_ms)`` over the lines seen: transmission only ever adds delay, so the smallest
    difference is the best estimate. A placed press is never later than the moment its line was read.
    """

    def __init__(self) -> None:
        self.anchor_ms: float | None = None
        self._last_us: int | None = None
        self._wraps = 0

    def reset(self) -> None:
        self.anchor_ms = None
        self._last_us = None
        self._wraps = 0

    def observe(self, device_us: int, read_ms: int) -> float:
        """Note a line's device time and when it was read; returns the device time in (unwrapped) ms."""
        if self._last_us is not None and device_us < self._last_us - WRAP_US // 2:
            self._wraps += 1  # the 32-bit counter wrapped
        self._last_us = device_us
        device_ms = (device_us + self._wraps * WRAP_US) / 1000
        difference = read_ms - device_ms
        if self.anchor_ms is None or difference < self.anchor_ms:
            self.anchor_ms = difference
        return device_ms

    def to_server(self, device_ms: float, read_ms: int) -> int:
        anchor = self.anchor_ms if self.anchor_ms is not None else read_ms - device_ms
        return min(read_ms, round(device_ms + anchor))

    def place(self, device_us: int, read_ms: int) -> int:
        return self.to_server(self.observe(device_us, read_ms), read_ms)


SERIAL_PORT = re.compile(r"/dev/[\w.+-]+(?:/[\w.+-]+)*|COM[0-9]{1,3}")
"""What a host may type: a device path (``/dev/ttyUSB0``, ``/dev/serial/by-id/…``) or a Windows port."""


def serial_port(port: str) -> str | None:
    """The port to open for what the host typed, or ``None`` when it is not a serial device's name.

    A path is resolved first (``..``, symbolic links) and must still be a device under ``/dev``: the typed name
    is only a way to reach a device, never a file elsewhere.

    >>> serial_port("COM3"), serial_port("/dev/../etc/shadow"), serial_port("socket://evil:1")
    ('COM3', None, None)
    """
    if not SERIAL_PORT.fullmatch(port):
        return None
    if port.startswith("COM"):
        return port
    real = os.path.realpath(port)
    if not real.startswith("/dev/") or real.startswith(("/dev/shm/", "/dev/mqueue/")) or ".." in real.split("/"):
        return None
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return real  # not there: opening it says so
    return real if stat.S_ISCHR(mode) else None


OnPress = Callable[[int, int], Awaitable[None]]
"""Called with (button, press time in server monotonic ms)."""


class SerialButtons:
    """Reads a serial port in a thread and hands each press to ``on_press`` on the event loop.

    ``url`` is anything :func:`serial.serial_for_url` opens: ``/dev/ttyUSB0``, ``COM3``, a pseudo-terminal,
    ``loop://`` for tests.
    """

    def __init__(
        self, url: str, on_press: OnPress, *, baudrate: int = BAUD_RATE, clock: Callable[[], int] = monotonic_ms
    ):
        self.url = url
        self.on_press = on_press
        self.baudrate = baudrate
        self.clock = clock
        self.device = DeviceClock()
        self.bad_lines = 0
        self.presses = 0
        self._stop = threading.Event()
        self._port: Any = None

    def open(self) -> None:
        self._port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0.05)

    def stop(self) -> None:
        self._stop.set()

    def handle_lines(self, lines: list[bytes], read_ms: int) -> list[tuple[int, int]]:
        """The (button, server time) presses that lines read together stand for; updates the device clock with
        all of them first, so that presses in one read keep their device spacing."""
        observed: list[tuple[int, float | None]] = []
        for raw in lines:
            try:
                message = parse_line(raw[:MAX_LINE].decode("ascii", errors="replace"))
            except LineError:
                self.bad_lines += 1
                continue
            if isinstance(message, DeviceReset):
                self.device.reset()
            elif message is not None:
                stamp = None if message.device_us is None else self.device.observe(message.device_us, read_ms)
                observed.append((message.button, stamp))
        return [
            (button, read_ms if stamp is None else self.device.to_server(stamp, read_ms)) for button, stamp in observed
        ]

    async def run(self) -> None:
        """Read until :meth:`stop`; the port is opened here unless :meth:`open` was called."""
        if self._port is None:
            self.open()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[int, int] | None] = asyncio.Queue()

        def reader() -> None:
            port = self._port
            buffer = b""
            try:
                while not self._stop.is_set():
                    chunk = port.read(port.in_waiting or 1)
                    if not chunk:
                        continue
                    read_ms = self.clock()
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    if len(buffer) > MAX_LINE:
                        buffer = b""  # a runaway line without an end: drop it
                        self.bad_lines += 1
                    for press in self.handle_lines(lines, read_ms):
                        loop.call_soon_threadsafe(queue.put_nowait, press)
            except (OSError, serial.SerialException):
                pass
            finally:
                with contextlib.suppress(RuntimeError):  # the event loop has closed already
                    loop.call_soon_threadsafe(queue.put_nowait, None)

        thread = threading.Thread(target=reader, name=f"buttons {self.url}", daemon=True)
        thread.start()
        try:
            while (press := await queue.get()) is not None:
                self.presses += 1
                await self.on_press(*press)
        finally:
            self._stop.set()
            await asyncio.to_thread(thread.join, 1.0)
            with contextlib.suppress(OSError, serial.SerialException):
                self._port.close()


def feed_owner(owner: Any, *, source: str = "serial", clock: Callable[[], int] = monotonic_ms) -> OnPress:
    """An ``on_press`` that sends each press to a quiz room as a ``buttons`` press at its exact room time."""

    async def on_press(button: int, at_mono_ms: int) -> None:
        room_ms = at_mono_ms + (owner.now_ms() - clock())
        command = Command(
            "press", Actor("buttons", source), {"button": str(button)}, meta={"received_ms": room_ms, "source": source}
        )
        with contextlib.suppress(Refused):  # a press when the game is over, an unmapped button: nothing to do
            await owner.handle(command)

    return on_press
