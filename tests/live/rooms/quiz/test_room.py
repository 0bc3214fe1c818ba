"""The quiz game as a live room: roles, refusals by code, answer secrecy, presses and arbitration, timers, replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from toreshi.clock.timesource import FakeTime
from toreshi.kit.codec import CodecError
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.protocol import EventFrame
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.quiz import DECIDED, LATE, PRESS, QuizRoom
from toreshi.live.store_log import StoreLog
from toreshi.live.timeline import Clocks
from toreshi.quiz.board import VALUES, Board, BoardQuestion, BoardTheme
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.play.commands import COMMANDS, CreateGame
from toreshi.quiz.play.events import EVENTS
from toreshi.store import EventStore, RoomKind

HOST = Actor("host", "Жанна")
A, B, C = Actor("team", "Алтын"), Actor("team", "Барыс"), Actor("team", "Сұңқар")
SPECTATOR = Actor("spectator")


def board(themes: int = 5, reserve: int = 0) -> Board:
    def theme(t: int) -> BoardTheme:
        cells = tuple(BoardQuestion(v, f"Вопрос {t}.{v} о реке", (f"ответ-{t}-{v}",)) for v in VALUES)
        return BoardTheme(f"Тема {t}", cells)

    spare = tuple(BoardQuestion(v, f"Запасной {i}", (f"запас-{i}",)) for i, v in enumerate(range(1, reserve + 1)))
    return Board(tuple(theme(t) for t in range(themes)), spare)


def as_json(setup: GameSetup) -> dict[str, Any]:
    """A setup as the host's page sends it in ``create``."""
    data: dict[str, Any] = COMMANDS.encode(CreateGame(setup))["setup"]
    return data


def setup(**changes: Any) -> dict[str, Any]:
    return as_json(GameSetup((A.name, B.name, C.name), board(), assistant=Assistant("Ерлан", "Тұлпар"), **changes))


def refusal_of(room: QuizRoom, command: Command, now: int) -> Refusal:
    with pytest.raises(Refused) as refused:
        room.decide(command, now)
    return refused.value.refusal


def run(
    room: QuizRoom, actor: Actor, kind: str, now: int, meta: dict[str, Any] | None = None, **data: Any
) -> list[Decided]:
    decided = list(room.decide(Command(kind, actor, data, meta=meta or {}), now))
    for event in decided:
        room.apply(event, now)
    return decided


def types(decided: list[Decided]) -> list[str]:
    return [event.type for event in decided]


def fire(room: QuizRoom) -> list[str]:
    """Let the room's next timer fire exactly when it asks to."""
    due = room.deadline_ms()
    assert due is not None
    decided = list(room.on_deadline(due))
    for event in decided:
        room.apply(event, due)
    return types(decided)


def created(**changes: Any) -> QuizRoom:
    room = QuizRoom()
    notes = {"0:1": {"comment": "Река течёт на север", "sources": ["БСЭ"]}}
    run(room, HOST, "create", 0, setup=setup(**changes), notes=notes, keys={"1": A.name, "2": B.name}, title="Бой 1")
    return room


def chosen(**changes: Any) -> QuizRoom:
    room = created(**changes)
    run(room, HOST, "draw", 1_000, team=A.name)
    run(room, HOST, "choose", 2_000, theme=0, value=1)
    return room


def final_drawn() -> QuizRoom:
    """A final of Алтын and Барыс on 11 themes, Алтын drawn to strike first."""
    final = as_json(
        GameSetup((A.name, B.name), board(themes=11), kind=GameKind.FINAL, assistant=Assistant("Ерлан", "Тұлпар"))
    )
    room = QuizRoom()
    run(room, HOST, "create", 0, setup=final)
    run(room, HOST, "draw", 100, team=A.name)
    return room


def sync(rtt: int = 40, offset: int = 1_000_000) -> dict[str, int]:
    return {"offset_ms": offset, "offset_low_ms": offset - rtt // 2, "offset_high_ms": offset + rtt // 2,
            "rtt_median_ms": rtt, "rtt_max_ms": rtt}  # fmt: skip


def test_only_the_host_creates_and_roles_are_enforced() -> None:
    room = QuizRoom()
    assert refusal_of(room, Command("create", A, {"setup": setup()}), 0) == Refusal(
        Common.FORBIDDEN, {"command": "create", "role": "team"}
    )
    assert refusal_of(room, Command("draw", HOST, {"team": A.name}), 0) == Refusal(QuizCode.NOT_CREATED)
    room = created()
    cases: list[tuple[Actor, str, dict[str, Any], Refusal]] = [
        (SPECTATOR, "press", {}, Refusal(Common.FORBIDDEN, {"command": "press", "role": "spectator"})),
        (A, "right", {}, Refusal(Common.FORBIDDEN, {"command": "right", "role": "team"})),
        (A, "choose", {"theme": 0, "value": 1}, Refusal(Common.FORBIDDEN, {"command": "choose", "role": "team"})),
        (Actor("projector"), "right", {}, Refusal(Common.FORBIDDEN, {"command": "right", "role": "projector"})),
        (  # nobody has drawn the first chooser yet
            HOST,
            "choose",
            {"theme": 0, "value": 1},
            Refusal(QuizCode.WRONG_PHASE, {"action_term": "quiz_action_choose", "phase_term": "quiz_phase_draw"}),
        ),
        (HOST, "choose", {"theme": "0", "value": 1}, Refusal(Common.FIELD_NOT_INTEGER, {"field": "theme"})),
        (HOST, "create", {"setup": setup()}, Refusal(QuizCode.ALREADY_CREATED)),
        (HOST, "teleport", {}, Refusal(Common.UNKNOWN_COMMAND, {"command": "teleport"})),
    ]
    before = room.view(None, 500)
    for actor, kind, data, expected in cases:
        assert refusal_of(room, Command(kind, actor, data), 500) == expected, kind
    assert room.view(None, 500) == before
    assert types(run(room, Actor("arbiter", "chief"), "draw", 600, team=B.name)) == ["first_chooser_drawn"]
    assert room.view(None, 600)["chooser"] == B.name


def test_a_bad_setup_is_refused_with_the_rule() -> None:
    room = QuizRoom()
    bad = setup()
    bad["teams"] = ["A", "B", "C", "D", "E"]
    assert refusal_of(room, Command("create", HOST, {"setup": bad}), 0) == Refusal(
        QuizCode.TEAM_COUNT, {"count": 5, "minimum": 2, "maximum": 4, "clause": "SI-3.0.1"}
    )
    bad["teams"] = ["A", "B\nforged"]  # a name with a line break never reaches the log
    assert refusal_of(room, Command("create", HOST, {"setup": bad}), 0) == Refusal(
        Common.FIELD_CONTROL_CHARACTERS, {"field": "setup.teams[1]"}
    )


def test_answers_comments_and_sources_are_for_the_host_until_the_question_is_over() -> None:
    room = chosen()
    host = room.view(HOST, 2_100)["current"]
    assert host["answers"] == ["ответ-0-1"] and host["comment"] == "Река течёт на север" and host["sources"] == ["БСЭ"]
    for actor in (None, A, Actor("projector"), Actor("assistant")):
        text = json.dumps(room.view(actor, 2_100), ensure_ascii=False)
        assert "ответ-" not in text and "Река течёт" not in text and "БСЭ" not in text
    published = [room.public(Decided(event.type, EVENTS.encode(event))) for event, _ in room.log]
    assert "ответ-" not in json.dumps(published, ensure_ascii=False)
    # "время": the host reads the answer out, so everyone sees it now; the comment stays with the host.
    run(room, HOST, "finish_reading", 3_000)
    assert fire(room) == ["time_called"]
    last = room.view(None, 8_000)["last"]
    assert last["answers"] == ["ответ-0-1"] and last["outcome"] == "time" and "comment" not in last
    assert room.view(HOST, 8_000)["last"]["comment"] == "Река течёт на север"


def test_a_press_during_reading_interrupts_it_and_a_wrong_answer_resumes_it() -> None:
    room = chosen()
    assert room.view(A, 2_100)["buzzer"] == "open"
    decided = run(room, B, "press", 2_600, meta={"received_ms": 2_590, "sync": sync()}, tc=1_002_570)
    assert types(decided) == [PRESS]
    assert room.view(B, 2_600)["buzzer"] == "pressed"
    # The press stops reading; it is not lost to the host's key.
    assert refusal_of(room, Command("finish_reading", HOST), 2_610) == Refusal(QuizCode.ARBITRATING)
    # Only the host and the projector learn that somebody pressed before the decision (issue 13 §1).
    assert room.view(HOST, 2_600)["current"]["arbitrating"] is True
    assert room.view(Actor("projector"), 2_600)["current"]["arbitrating"] is True
    assert room.view(None, 2_600)["current"]["arbitrating"] is False
    assert room.view(A, 2_600)["current"]["arbitrating"] is False
    assert fire(room) == [DECIDED, "buzzed"]
    state = room.view(B, 3_000)
    assert state["buzzer"] == "your_turn" and state["current"]["answering"] == B.name
    assert room.view(A, 3_000)["buzzer"] == "locked"
    assert types(run(room, HOST, "wrong", 4_000)) == ["answer_judged"]
    view = room.view(B, 4_000)
    assert view["buzzer"] == "answered" and view["status"] == "reading"
    assert room.view(A, 4_000)["buzzer"] == "open"
    assert refusal_of(room, Command("press", B, {"tc": 0}, meta={"received_ms": 4_100}), 4_100) == Refusal(
        QuizCode.ALREADY_ANSWERED, {"team": B.name, "clause": "SI-3.5"}
    )
    run(room, HOST, "finish_reading", 5_000)
    run(room, C, "press", 5_500, meta={"received_ms": 5_500, "sync": sync()}, tc=1_005_480)
    fire(room)
    run(room, HOST, "right", 7_000)
    scores = {team["name"]: team["score"] for team in room.view(None, 7_000)["teams"]}
    assert scores == {A.name: 0, B.name: -1, C.name: 1}
    assert room.view(None, 7_000)["chooser"] == C.name


def test_every_role_shares_one_view_per_event_and_the_next_event_renews_it() -> None:
    room = chosen()
    seen_by_a, seen_by_b, projector = room.view(A, 2_100), room.view(B, 2_100), room.view(Actor("projector"), 2_100)
    assert seen_by_a["board"] is seen_by_b["board"]  # built once for the teams (the projector sees presses too)
    assert (seen_by_a["you"], seen_by_b["you"]) == (A.name, B.name) and "you" not in projector
    assert seen_by_a["can"] == ["press", "request_score"] and projector["can"] == ["key"]
    host = room.view(HOST, 2_100)
    assert host["current"]["answers"] == ["ответ-0-1"] and "answers" not in seen_by_a["current"]
    pressed = run(room, B, "press", 2_100, meta={"received_ms": 2_100, "sync": sync()}, tc=1_002_090)
    assert types(pressed) == [PRESS]
    after = room.view(A, 2_100)  # the same moment, but after the event
    assert [team["pressed"] for team in after["teams"]] == [False, False, False]  # A is not told B pressed
    shown = room.view(Actor("projector"), 2_100)
    assert [team["pressed"] for team in shown["teams"]] == [False, True, False]
    press = EventFrame("q-1", 9, PRESS, {"event": {"team": B.name}}, ts=0)
    assert room.withholds(A, press)
    assert not room.withholds(B, press)  # its own press
    assert not room.withholds(Actor("projector"), press)
    assert [team["pressed"] for team in seen_by_a["teams"]] == [False, False, False]  # what was sent stays as sent
    assert "state" not in room.public(pressed[0], with_state=False)  # another event of the command brings it
    assert room.public(pressed[0])["state"]["teams"] == after["teams"]


def test_compensated_arbitration_prefers_the_earlier_touch_over_the_earlier_arrival() -> None:
    room = chosen()
    run(room, HOST, "finish_reading", 3_000)
    # A's link is slower (4 ms one way, B's 2): it touched at 3,345 (its clock +1,000,000) but arrived at 3,349;
    # B touched at 3,346 and arrived first, at 3,348.
    run(room, B, "press", 3_348, meta={"received_ms": 3_348, "sync": sync(rtt=4)}, tc=1_003_346)
    run(room, A, "press", 3_349, meta={"received_ms": 3_349, "sync": sync(rtt=8)}, tc=1_003_345)
    decided = room.on_deadline(room.deadline_ms() or 0)
    decision = next(event for event in decided if event.type == DECIDED)
    assert decision.payload["winner"] == A.name
    assert [entry["team"] for entry in decision.payload["order"]] == [A.name, B.name]
    buzzed = next(event for event in decided if event.type == "buzzed")
    assert buzzed.payload["press_ms"] == 3_345


def test_a_client_cannot_forge_what_the_server_measured() -> None:
    room = chosen()
    forged = {"tc": 1, "received_ms": 0, "sync": sync(), "meta": {"received_ms": 0}}
    decided = room.decide(Command("press", A, forged, meta={"received_ms": 2_500}), 2_500)
    assert decided[0].payload["received_ms"] == 2_500
    assert decided[0].payload["client_ms"] is None and decided[0].payload["sync"] is None


def test_keyboard_buzzers_press_for_their_team_and_unmapped_keys_are_refused() -> None:
    room = chosen()
    assert types(run(room, Actor("projector"), "key", 2_400, meta={"received_ms": 2_390}, key="2")) == [PRESS]
    pressed, _at = room.log[-1]
    assert EVENTS.encode(pressed)["source"] == "keyboard" and EVENTS.encode(pressed)["team"] == B.name
    assert refusal_of(room, Command("key", HOST, {"key": "9"}), 2_500) == Refusal(QuizCode.UNMAPPED_KEY, {"key": "9"})
    assert fire(room) == [DECIDED, "buzzed"]
    assert room.view(None, 2_500)["current"]["answering"] == B.name


def test_the_press_window_and_the_answer_time_are_deadlines() -> None:
    room = chosen()
    assert room.deadline_ms() is None  # the host reads: nothing is due until reading ends
    run(room, HOST, "finish_reading", 3_000)
    assert room.deadline_ms() == 8_000
    assert room.on_deadline(7_999) == []
    run(room, A, "press", 4_000, meta={"received_ms": 4_000})
    fire(room)
    view = room.view(None, 4_100)
    deadline = view["current"]["answer_deadline"]
    assert room.deadline_ms() == deadline
    run(room, HOST, "extend", 5_000, ms=3_000)
    assert room.deadline_ms() == deadline + 3_000
    assert fire(room) == ["answer_time_expired"]
    assert room.view(A, deadline + 3_000)["buzzer"] == "answered"


def test_simulated_reading_wakes_the_room_only_for_time() -> None:
    room = chosen(reading=ReadingMode.SIMULATED, chars_per_second=10)
    text = room.view(HOST, 2_000)["current"]["text"]
    reading_ms = -(-len(text) * 1000 // 10)
    assert room.deadline_ms() == 2_000 + reading_ms + 5_000
    assert 0 < room.view(None, 2_500)["current"]["revealed"] < len(text)
    assert fire(room) == ["time_called"]


def test_late_presses_are_recorded_once_for_the_host() -> None:
    room = chosen()
    run(room, HOST, "finish_reading", 3_000)
    fire(room)  # "время" at 8,000
    decided = run(room, A, "press", 8_050, meta={"received_ms": 8_050})
    assert types(decided) == [LATE] and decided[0].payload["reason"] == "closed"
    assert run(room, A, "press", 8_060, meta={"received_ms": 8_060}) == []
    assert room.view(HOST, 8_100)["late"] == [{"team": A.name, "reason": "closed"}]


def test_undo_reverses_the_last_ruling_once_the_question_is_over() -> None:
    room = chosen()
    run(room, A, "press", 2_500, meta={"received_ms": 2_500})
    fire(room)
    assert refusal_of(room, Command("undo", HOST), 3_000) == Refusal(QuizCode.NOTHING_TO_UNDO)
    run(room, HOST, "right", 3_000)
    assert types(run(room, HOST, "undo", 4_000)) == ["decision_reversed"]
    assert {t["name"]: t["score"] for t in room.view(None, 4_000)["teams"]}[A.name] == -1


def test_a_replaced_question_starts_afresh_and_cancelled_presses_reopen() -> None:
    room = chosen()
    run(room, A, "press", 2_500, meta={"received_ms": 2_500})
    fire(room)
    assert types(run(room, HOST, "cancel_press", 3_000)) == ["press_cancelled"]
    assert room.view(A, 3_000)["buzzer"] == "open"
    assert room.view(HOST, 3_000)["current"]["replacements"] == [1, 2, 3, 4]
    assert types(run(room, HOST, "replace", 3_500, theme=2, reason="audience_prompt")) == ["question_replaced"]
    current = room.view(HOST, 3_600)["current"]
    assert current["text"] == "Вопрос 2.1 о реке" and current["answers"] == ["ответ-2-1"]


def test_final_theme_elimination_and_the_assistant_announcement() -> None:
    room = final_drawn()
    assert room.view(None, 100)["striker"] == A.name
    for step in range(6):
        run(room, HOST, "strike", 200 + step, theme=step)
    view = room.view(None, 300)
    assert view["status"] == "choosing" and [t["struck"] for t in view["board"]].count(True) == 6
    run(room, A, "request_score", 400)
    assert room.view(None, 400)["score_due"] is True
    assert types(run(room, Actor("assistant", "Ерлан"), "announce_score", 500)) == ["score_announced"]
    assert room.view(None, 500)["score_due"] is False


def test_replay_of_the_log_gives_the_same_room_and_the_report_tells_the_story() -> None:
    room = chosen()
    run(room, B, "press", 2_600, meta={"received_ms": 2_590, "sync": sync()}, tc=1_002_570)
    run(room, C, "press", 2_610, meta={"received_ms": 2_610})
    fire(room)
    run(room, HOST, "wrong", 4_000)
    run(room, HOST, "finish_reading", 5_000)
    fire(room)
    again = QuizRoom()
    for event, at in room.log:  # through the stored JSON, as a restart reads it
        again.apply(Decided(event.type, json.loads(json.dumps(EVENTS.encode(event)))), at)
    for actor in (None, HOST, A, B):
        assert again.view(actor, 9_000) == room.view(actor, 9_000)
    assert again.deadline_ms() == room.deadline_ms()
    report = again.report()
    first = report["questions"][0]
    assert [p["team"] for p in first["presses"]] == [B.name, C.name]
    assert first["decisions"][0]["winner"] == B.name
    assert [o["team"] for o in first["decisions"][0]["order"]] == [B.name, C.name]
    assert first["rulings"][0]["team"] == B.name and first["rulings"][0]["correct"] is False
    assert first["outcome"] == "time" and first["answers"] == ["ответ-0-1"]


# --- durability: through the owner and a real log ---------------------------------------------------------


@pytest.fixture
async def store(store: EventStore) -> EventStore:
    """The shared fresh store, with the room ``q1``."""
    await store.create_room("q1", RoomKind.QUIZ)
    return store


@pytest.mark.anyio
async def test_a_restart_resumes_the_game_with_its_timers(store: EventStore) -> None:
    mono, wall = FakeTime(0), FakeTime(1_700_000_000_000)
    owner = RoomOwner("q1", QuizRoom(), StoreLog(store), InProcessBus(), clocks=Clocks(mono, wall))
    await owner.handle(Command("create", HOST, {"setup": setup()}))
    await owner.handle(Command("draw", HOST, {"team": A.name}))
    await owner.handle(Command("choose", HOST, {"theme": 0, "value": 2}))
    mono.advance(1_000)
    await owner.handle(Command("press", B, {}, meta={"received_ms": 990}))
    before = {role: owner.snapshot(role).data for role in (None, HOST, B)}
    deadline = owner.logic.deadline_ms()
    await owner.close()
    wall.now_ms = int((await store.load("q1"))[-1].created_at.timestamp() * 1000)
    restarted = await RoomOwner.load("q1", QuizRoom, StoreLog(store), InProcessBus(), clocks=Clocks(FakeTime(5), wall))
    try:
        assert {role: restarted.snapshot(role).data for role in (None, HOST, B)} == before
        assert restarted.logic.deadline_ms() == deadline
    finally:
        await restarted.close()


# --- randomness and programming errors -----------------------------------------------------------------------


def test_the_room_draws_from_its_own_seeded_generator_never_from_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    def system_random(*_args: object) -> None:
        raise AssertionError("a decision drew from SystemRandom")

    monkeypatch.setattr(random, "SystemRandom", system_random)
    lots = set()
    for seed in range(12):
        room = QuizRoom(rng=random.Random(seed))
        run(room, HOST, "create", 0, setup=setup(), arbitration={"mode": "random_window"})
        run(room, HOST, "draw", 100)  # by lot (SI-3.2)
        lots.add(room.game.first_chooser)
        run(room, HOST, "choose", 200, theme=0, value=1)
        run(room, A, "press", 300, meta={"received_ms": 300})
        run(room, B, "press", 310, meta={"received_ms": 310})
        assert fire(room) == [DECIDED, "buzzed"]
        again = QuizRoom(rng=random.Random(seed + 100))  # a replay needs no generator: the events hold the draws
        for event, at in room.log:
            again.apply(Decided(event.type, EVENTS.encode(event)), at)
        assert again.view(HOST, 400) == room.view(HOST, 400)
    assert lots == {A.name, B.name, C.name}


def test_a_programming_error_is_raised_not_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    room = chosen()

    def broken(*_args: object, **_kwargs: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr("toreshi.quiz.play.presses.press", broken)
    with pytest.raises(ValueError, match="a bug"):
        room.decide(Command("press", A, {}, meta={"received_ms": 2_500}), 2_500)
    with pytest.raises(CodecError, match="unknown fields"):  # a stored event that this program did not write
        room.apply(Decided("press_late", {"team": A.name, "question": 1, "reason": "closed", "received_ms": 0,
                                          "at_ms": 2_500, "forged": True}), 2_500)  # fmt: skip


def test_who_asks_is_checked_before_what_they_sent() -> None:
    room = chosen()
    forged = Command("press", SPECTATOR, {"tc": "soon"}, meta={"received_ms": 2_500})
    assert refusal_of(room, forged, 2_500) == Refusal(Common.FORBIDDEN, {"command": "press", "role": "spectator"})
    assert refusal_of(room, Command("press", A, {"tc": "soon"}), 2_500) == Refusal(
        Common.FIELD_NOT_NUMBER, {"field": "tc"}
    )
