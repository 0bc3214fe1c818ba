"""What typing the socket's frames costs per message: the typed path against the dict path it replaced, same run.

Three operations of the room socket, each timed both ways on the same data (a togyz state as a player receives it):

- **personal event** — an event frame with this connection's own state in place of the public one, encoded to text
  (done once per player, arbiter or host connection for every command): before, ``{**message, "data": {…}}`` and
  orjson; now, ``EventFrame.with_state`` and ``wire.encode`` (the codec, then orjson);
- **read cmd** — a client's ``cmd`` object into what the socket hands on: before, the hand-written checks of ``id``,
  ``type`` and ``data``; now, ``read_client_frame`` (the kit's codec, every field through ``kit.payload``);
- **read pong** — the same for a ``pong`` (every connection answers a ping every 1–10 s).

    PYTHONPATH=src python benchmarks/socket_frames.py [--repeat 20000]

Printed: microseconds per operation, the fastest of five runs (the least disturbed by other processes), for both
paths and their ratio.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import orjson

from toreshi.live.protocol import EventFrame, read_client_frame
from toreshi.web.rooms.wire import encode

STATE: dict[str, Any] = {
    "kind": "togyz",
    "status": "running",
    "names": {"white": "Абай", "black": "Болат"},
    "board": {"white": [9, 10, 10, 10, 0, 11, 10, 10, 10], "black": [9, 9, 9, 9, 9, 9, 9, 9, 9]},
    "kazans": {"white": 10, "black": 0},
    "tuzdyks": {"white": None, "black": None},
    "turn": "black",
    "legal": [1, 2, 3, 4, 5, 6, 7, 8, 9],
    "previews": {str(h): {"landing": h, "side": "white", "captured": 0, "tuzdyk": False, "kazan": 0}
                 for h in range(1, 10)},
    "moves": [{"ply": p, "side": "white", "token": "76(10)", "draw_offer": False} for p in range(1, 41)],
    "clock": {"white": 420000, "black": 418000, "running": "black", "at": 61250, "flag": "automatic"},
    "can": ["move", "offer_draw", "resign"],
}  # fmt: skip
EVENT_DICT: dict[str, Any] = {
    "t": "event", "room": "g-7", "v": 41, "type": "clock_pressed",
    "data": {"event": {"type": "clock_pressed", "at_ms": 61250, "side": "white"}, "state": STATE}, "ts": 61250,
}  # fmt: skip
EVENT_FRAME = EventFrame("g-7", 41, "clock_pressed", EVENT_DICT["data"], 61250)
VIEW = {**STATE, "can": ["move", "resign"]}
CMD = {"t": "cmd", "id": "c-17", "type": "move", "data": {"hole": 7, "press": True}}
PONG = {"t": "pong", "id": 12, "tc": 1733300000123.4}


def personal_dict() -> str:
    message = {**EVENT_DICT, "data": {**EVENT_DICT["data"], "state": VIEW}}
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def personal_frame() -> str:
    return encode(EVENT_FRAME.with_state(VIEW), shared=False)


def read_cmd_dict() -> object:
    command_id = CMD.get("id")
    if not isinstance(command_id, str) or not 0 < len(command_id) <= 64:
        return None
    kind, data = CMD.get("type"), CMD.get("data", {})
    if not isinstance(kind, str) or not isinstance(data, dict):
        return None
    return command_id, kind, data


def read_pong_dict() -> object:
    ping_id, client_ms = PONG.get("id"), PONG.get("tc")
    if isinstance(ping_id, bool) or not isinstance(ping_id, int):
        return None
    if isinstance(client_ms, bool) or not isinstance(client_ms, int | float) or abs(client_ms) > 10**14:
        return None
    return ping_id, float(client_ms)


def per_call_us(operation: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(repeat):
            operation()
        runs.append((time.perf_counter() - started) / repeat * 1e6)
    return min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20_000)
    repeat = parser.parse_args().repeat
    assert orjson.loads(personal_dict()) == orjson.loads(personal_frame())
    pairs = [
        ("personal event", personal_dict, personal_frame),
        ("read cmd", read_cmd_dict, lambda: read_client_frame(CMD)),
        ("read pong", read_pong_dict, lambda: read_client_frame(PONG)),
    ]
    print(f"{'operation':<16}{'dicts µs':>10}{'typed µs':>10}{'typed/dicts':>13}")
    for name, before, after in pairs:
        old, new = per_call_us(before, repeat), per_call_us(after, repeat)
        print(f"{name:<16}{old:>10.2f}{new:>10.2f}{new / old:>13.2f}")


if __name__ == "__main__":
    main()
