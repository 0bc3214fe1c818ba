"""What each role may do, as its view says (``can``): asked of the rules themselves, once per event and group."""

from __future__ import annotations

import pytest

from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.live.rooms.quiz.views import Views

from .test_room import HOST, A, B, created, fire, run

ASSISTANT = Actor("assistant", "Ерлан")
PROJECTOR = Actor("projector")


def can(room: QuizRoom, actor: Actor | None, now: int) -> list[str]:
    found: list[str] = room.view(actor, now)["can"]
    return found


def accepted(room: QuizRoom, actor: Actor, kind: str, now: int) -> bool:
    try:
        room.decide(Command(kind, actor, {}, meta={"received_ms": now}), now)
    except Refused:
        return False
    return True


def test_the_host_is_offered_what_the_game_is_at() -> None:
    room = created()
    assert {"draw", "correct", "warn", "map_keys"} <= set(can(room, HOST, 500))
    assert not {"choose", "right", "finish_reading", "undo", "sanction"} & set(can(room, HOST, 500))
    run(room, HOST, "draw", 1_000, team=A.name)
    assert "choose" in can(room, HOST, 1_000) and "draw" not in can(room, HOST, 1_000)
    run(room, HOST, "choose", 2_000, theme=0, value=1)
    reading = can(room, HOST, 2_100)
    assert {"finish_reading", "replace"} <= set(reading) and not {"right", "wrong", "choose"} & set(reading)
    run(room, B, "press", 2_600, meta={"received_ms": 2_590})
    assert "finish_reading" not in can(room, HOST, 2_600)  # a press is being decided: reading has stopped
    fire(room)
    answering = can(room, HOST, 3_000)
    assert {"right", "wrong", "clarify", "extend", "cancel_press"} <= set(answering)
    assert "finish_reading" not in answering


def test_every_offered_tool_is_accepted_and_the_others_refused() -> None:
    room = created()
    run(room, HOST, "draw", 1_000, team=A.name)
    run(room, HOST, "choose", 2_000, theme=0, value=1)
    run(room, HOST, "finish_reading", 2_500)
    run(room, B, "press", 2_600, meta={"received_ms": 2_600})
    fire(room)
    offered = set(can(room, HOST, 3_000))
    for kind in ("right", "wrong", "clarify", "extend", "cancel_press", "finish_reading", "undo", "draw"):
        assert accepted(room, HOST, kind, 3_000) is (kind in offered), kind


def test_a_sanction_is_offered_once_someone_was_warned_and_undo_once_a_question_was_ruled() -> None:
    room = created()
    run(room, HOST, "draw", 1_000, team=A.name)
    assert "sanction" not in can(room, HOST, 1_000)
    run(room, HOST, "warn", 1_100, person="Зритель в третьем ряду")
    assert "sanction" in can(room, HOST, 1_100)
    run(room, HOST, "choose", 2_000, theme=0, value=1)
    run(room, A, "press", 2_500, meta={"received_ms": 2_500})
    fire(room)
    run(room, HOST, "right", 3_000)
    assert {"undo", "reverse"} <= set(can(room, HOST, 3_000))


def test_a_team_is_offered_the_press_until_it_has_answered_and_nothing_once_the_game_is_over() -> None:
    room = created()
    run(room, HOST, "draw", 1_000, team=A.name)
    run(room, HOST, "choose", 2_000, theme=0, value=1)
    assert can(room, A, 2_100) == can(room, B, 2_100) == ["press", "request_score"]
    run(room, B, "press", 2_600, meta={"received_ms": 2_590})
    assert can(room, B, 2_600) == ["request_score"]  # its press is in
    fire(room)
    run(room, HOST, "wrong", 4_000)
    assert can(room, B, 4_000) == ["request_score"] and can(room, A, 4_000) == ["press", "request_score"]
    assert can(room, ASSISTANT, 4_000) == ["announce_score", "request_score"]
    assert can(room, PROJECTOR, 4_000) == ["key"] and can(room, None, 4_000) == []


def test_the_lists_are_built_once_per_group_and_event() -> None:
    room = created()
    run(room, HOST, "draw", 1_000, team=A.name)
    first, again = can(room, A, 1_000), can(room, Actor("team", A.name), 1_000)
    assert first is again  # two phones of one team share their team's list
    assert can(room, HOST, 1_000) is can(room, Actor("arbiter", "chief"), 1_000)  # a signed-in arbiter hosts too
    run(room, HOST, "warn", 1_100, person="Зритель")
    assert can(room, A, 1_100) is not first  # the next event asks the rules again


@pytest.mark.parametrize("role", ["spectator", "buttons", "nobody"])
def test_watchers_and_machines_are_offered_nothing(role: str) -> None:
    room = created()
    assert can(room, Actor(role), 500) == []


def test_views_kept_across_events_are_the_views_built_afresh() -> None:
    """The host's lists (undo points, rulings) are kept across events and the board is built once for every audience
    of a moment (issue 32: the press path's CPU): after each step of a game that is ruled, reversed, undone to an
    earlier moment, finished and closed, every role's view is the one a room with nothing kept builds."""
    room = created()
    roles = (HOST, A, B, PROJECTOR, ASSISTANT, None)

    def same(now: int) -> None:
        for actor in roles:
            fresh = Views().view(room.state, actor, now)
            assert room.view(actor, now) == fresh, actor
            assert room.view(actor, now + 700) == Views().view(room.state, actor, now + 700), actor

    now = 1_000
    run(room, HOST, "draw", now, team=A.name)
    same(now)
    for theme, value, wrong in ((0, 1, True), (0, 2, False), (1, 1, True), (1, 2, False)):
        now += 1_000
        run(room, HOST, "choose", now, theme=theme, value=value)
        same(now)
        for team in (B, A) if wrong else (B,):
            now += 400
            run(room, team, "press", now, meta={"received_ms": now})
            same(now)
            if room.state.pending:  # the arbiter decides after its window
                fire(room)
                now = room.state.game.last_ms + 100
                same(now)
            run(room, HOST, "wrong" if wrong and team is B else "right", now)
            same(now)
    run(room, HOST, "reverse", now, question=1, team=B.name)
    same(now)
    step = room.view(HOST, now)["host"]["points"][-2]["step"]  # back before the last question
    run(room, HOST, "undo_to", now + 10, step=step)
    same(now + 10)
    run(room, HOST, "end_game", now + 20, reason="время вышло")
    same(now + 20)
    run(room, HOST, "close_game", now + 30)
    same(now + 30)
    assert room.view(HOST, now + 30)["host"]["points"] == []
