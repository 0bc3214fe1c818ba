"""Play a «Своя игра» game to its end through its room's owner, as the host, the teams and the assistant would:
the lot, the final's strikes, then for each cell the host chooses, reading ends, the planned team presses, the
room's arbitration recognises it, the host rules it right (the assistant announces the score when it is due).

``answers`` says which team answers each theme right, by the theme's position among those in play (after strikes).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from toreshi.kit.core import Actor
from toreshi.kit.refusal import Refused
from toreshi.live.room import Command
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.quiz.game import Phase

HOST = Actor("host", "Жүргізуші")


async def _send(owner: Any, actor: Actor, kind: str, data: Mapping[str, Any] | None = None, **meta: Any) -> None:
    await owner.handle(Command(kind, actor, dict(data or {}), meta=meta))


async def _until(owner: Any, phases: Sequence[Phase]) -> None:
    for _ in range(400):
        if owner.logic.game.phase in phases:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the room stayed at {owner.logic.game.phase}")


async def play_game(rooms: Any, room_id: str, answers: Sequence[str]) -> dict[str, int]:
    owner = await rooms.get(room_id, "quiz")
    logic = owner.logic
    assert isinstance(logic, QuizRoom)
    game = logic.game
    teams = game.teams
    setup = game.setup
    assert setup is not None
    await _send(owner, HOST, "draw", {"team": teams[0]})
    while logic.game.phase is Phase.STRIKING:
        await _send(owner, HOST, "strike", {"theme": logic.game.themes_in_play[0]})
    assistant = Actor("assistant", setup.assistant.name) if setup.assistant else None
    while not logic.game.finished:
        in_play = logic.game.themes_in_play
        theme, value = logic.game.open_cells[0]
        team = answers[in_play.index(theme)]
        try:
            await _send(owner, HOST, "choose", {"theme": theme, "value": value})
        except Refused as refused:
            if "score" not in refused.refusal.code.value or assistant is None:
                raise
            await _send(owner, assistant, "announce_score")
            await _send(owner, HOST, "choose", {"theme": theme, "value": value})
        await _send(owner, HOST, "finish_reading")
        await _send(owner, Actor(f"team:{teams.index(team) + 1}", team), "press", received_ms=owner.now_ms())
        await _until(owner, (Phase.ANSWERING,))
        await _send(owner, HOST, "right")
    return dict(logic.game.scores)
