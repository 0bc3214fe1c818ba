"""The "what may I do" lists (issue 32): :func:`~toreshi.quiz.play.probes.offered` answers, without running the
rules on most probes, exactly what ``decide`` answers for the probes — checked at every step of random games of
every kind (a qualifying game with special and media questions, a final with its strikes, a shootout with its
reserve), for every role, at the moment of the event and a little later (simulated reading may have ended)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.quiz.board import VALUES, Board, BoardItem, BoardQuestion, BoardTheme
from toreshi.quiz.events import Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.pack import ContentType
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.commands import Command
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.probes import offered, offered_by_decide, probes
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алтын", "Барыс", "Сұңқар")
HOST = Actor("host", "Жанна")
ARBITER = Actor("arbiter", "chief")
ASSISTANT = Actor("assistant", "Ерлан")
PROJECTOR = Actor("projector")
TIMER = Actor("timer")
KEYS = {"1": TEAMS[0], "2": TEAMS[1], "3": TEAMS[2]}
ACTORS = (HOST, ARBITER, ASSISTANT, PROJECTOR, *(Actor("team", t) for t in TEAMS), Actor("team", "Бөтен"),
          Actor("spectator"), Actor("buttons"), TIMER)  # fmt: skip
KINDS = ("", "stake", "secret", "noRisk", "forAll")
AUDIO = BoardItem(ContentType.AUDIO, "song.mp3", ref=True)

AROUND = frozenset(
    {
        "announce",
        "correct",
        "warn",
        "sanction",
        "map_keys",
        "request_score",
        "end_game",
        "undo_to",
        "restore_theme",
        "replace",
    }
)
"""Probes the rules take at almost any moment, which do not move a question on (or end the game): picked less often."""

SEEN: Counter[str] = Counter()
"""Every kind offered over a run (to see what the random games reach)."""


reference = offered_by_decide
"""The list as the rooms built it before :func:`offered`: every probe asked of ``decide``."""


def board(themes: int, reserve: tuple[int, ...]) -> Board:
    special = tuple(BoardQuestion(v, f"Сұрақ {v}", ("жауап",), kind=k) for v, k in zip(VALUES, KINDS, strict=True))
    media = tuple(
        BoardQuestion(v, f"Ән {v}", items=(AUDIO,) if v == 2 else (), answer_items=(AUDIO,) if v == 3 else (),
                      empty=v == 4)
        for v in VALUES
    )  # fmt: skip
    plain = Board.of(*(str(i) for i in range(themes)), reserve_values=reserve)
    return Board((BoardTheme("Ерекше", special), BoardTheme("Медиа", media), *plain.themes[2:]), plain.reserve)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    kind = draw(st.sampled_from(GameKind))
    reading = draw(st.sampled_from(ReadingMode))
    special = draw(st.booleans())
    assistant = Assistant("Ерлан", "Тұлпар")
    if kind is GameKind.SHOOTOUT:
        shootout = Board((BoardTheme.simple("Тай"),), Board.of("x", reserve_values=(1, 2, 3)).reserve)
        return GameSetup(TEAMS, shootout, kind=kind, reading=reading, shootout_cuts=(1,),
                         assistant=draw(st.sampled_from((None, assistant))))  # fmt: skip
    if kind is GameKind.FINAL:
        return GameSetup(TEAMS, board(4, ()), kind=kind, assistant=assistant, reading=reading, final_themes=4,
                         final_themes_kept=2, special_questions=special)  # fmt: skip
    return GameSetup(TEAMS, board(5, (1, 2)), assistant=assistant, reading=reading, special_questions=special,
                     press_window_ms=draw(st.sampled_from((1_000, 5_000))))  # fmt: skip


def moves(data: st.DataObject, state: PlayState, now: int) -> tuple[Actor, Command]:
    """A command of some role: mostly one of its own probes the rules take, else one the probes do not give (other
    cells, stakes, teams) or one the rules may refuse."""
    game = state.game.at(now)
    actor = data.draw(
        st.sampled_from((HOST, HOST, HOST, TIMER, TIMER, ASSISTANT, PROJECTOR, *(Actor("team", t) for t in TEAMS)))
    )
    if actor == TIMER:
        return actor, cmd.TICK
    context = Context(actor, now)
    own = [p for p in probes(state, actor.role, game) if not isinstance(decide(state, p, context), Refusal)]
    extra: list[Command] = [cmd.Warn(data.draw(st.sampled_from(("Әнші", "Көрермен"))))]
    if game.setup is not None:
        cells = [(t, v) for t in range(len(game._setup.board.themes)) for v in VALUES]
        extra += [
            cmd.Choose(*data.draw(st.sampled_from(cells))),
            cmd.AnnounceTheme(data.draw(st.integers(0, len(cells) // 5 - 1))),
            cmd.Strike(data.draw(st.integers(0, len(cells) // 5 - 1))),
            cmd.Stake(data.draw(st.sampled_from((None, 1, 2, 3, 5, 8)))),
            cmd.Give(data.draw(st.sampled_from(TEAMS))),
            cmd.Correct(data.draw(st.sampled_from(TEAMS)), data.draw(st.integers(-5, 5)) or 1, "түзету"),
            cmd.Replace(reserve=data.draw(st.integers(0, 2))),
            cmd.Key(data.draw(st.sampled_from(sorted(KEYS)))),
            cmd.MediaFinished(state.question_number),
            cmd.UndoTo(data.draw(st.sampled_from([p.step for p in state.points] or [0]))),
        ]
        counted = [r for r in game.answers if not r.void]
        if counted:
            record = data.draw(st.sampled_from(counted))
            extra.append(cmd.Reverse(record.question, record.team))
        if actor.role == "team":
            extra = [cmd.PressBuzzer(), cmd.PressBuzzer(), cmd.RequestScore(), cmd.Stake(None), extra[3], extra[4]]
    moving = [p for p in own if p.type not in AROUND]
    if data.draw(st.integers(0, 7)) > 0 and moving:  # mostly what the rules take and moves the game on
        probe = data.draw(st.sampled_from(moving))
        if isinstance(probe, cmd.Choose):  # any open cell, not the first one the probe asks about
            rare = [cell for cell in game.open_cells if cell[0] < 2] if data.draw(st.booleans()) else []
            return actor, cmd.Choose(*data.draw(st.sampled_from(rare or game.open_cells)))
        return actor, probe
    if data.draw(st.booleans()) and own:
        return actor, data.draw(st.sampled_from(own))
    return actor, data.draw(st.sampled_from(extra))


def check(state: PlayState, now: int, later: int) -> None:
    """Every role's list at ``now`` and ``later`` ms on is the one the probes asked of ``decide`` give."""
    for at in (now, now + later):
        for actor in ACTORS:
            found = offered(state, actor, at)
            assert found == reference(state, actor, at), (actor, at, state.game)
            SEEN.update(found)
    game = state.game.at(now)
    for actor in ACTORS[:5]:
        assert offered(state, actor, now, game) == reference(state, actor, now)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_offered_is_what_decide_accepts_of_the_probes_at_every_step_for_every_role(data: st.DataObject) -> None:
    setup = data.draw(setups(), label="setup")
    rng = random.Random(data.draw(st.integers(0, 9), label="seed"))
    state, now = PlayState(), 0
    created = cmd.CreateGame(setup, keys=KEYS, projector_keys=data.draw(st.booleans()))
    for event in decide(state, created, Context(HOST, 0, rng)):  # type: ignore[union-attr]
        state = evolve(state, event)
    for _ in range(data.draw(st.integers(1, 150), label="moves")):
        check(state, now, data.draw(st.sampled_from((1, 700, 4_000, 20_000)), label="later"))
        now += data.draw(st.integers(0, 6_000), label="wait")
        actor, command = moves(data, state, now)
        decided = decide(state, command, Context(actor, now, rng, {"received_ms": now - data.draw(st.integers(0, 50))}))
        if not isinstance(decided, Refusal):
            for event in decided:
                state = evolve(state, event)
    assert offered(PlayState(), HOST, now) == reference(PlayState(), HOST, now) == []


A, B, C = (Actor("team", team) for team in TEAMS)
SHOOTOUT = Board((BoardTheme.simple("Тай"),), Board.of("x", reserve_values=(1, 2)).reserve)
SCRIPTS: dict[str, tuple[dict[str, Any], list[tuple[Actor, Command]]]] = {
    "a stake question, a secret one, media, an ended and closed game": (
        {"special_questions": True},
        [(HOST, cmd.Draw(TEAMS[0])), (HOST, cmd.Choose(0, 2)), (A, cmd.Stake(2)), (B, cmd.Stake(None)),
         (C, cmd.Stake(None)), (HOST, cmd.Right()), (HOST, cmd.Choose(0, 3)), (A, cmd.Give(TEAMS[1])),
         (HOST, cmd.Wrong()), (HOST, cmd.Choose(1, 2)), (HOST, cmd.Media(cmd.MediaAction.PLAY)),
         (PROJECTOR, cmd.MediaFinished(3)), (B, cmd.PressBuzzer()), (TIMER, cmd.TICK), (HOST, cmd.Right()),
         (HOST, cmd.Choose(1, 3)), (HOST, cmd.FinishReading()), (TIMER, cmd.TICK), (HOST, cmd.EndGame()),
         (HOST, cmd.CloseGame())],
    ),
    "a shootout's theme runs out with the tie standing: reserve questions": (
        {"kind": GameKind.SHOOTOUT, "board": SHOOTOUT, "shootout_cuts": (1,), "assistant": None},
        [(HOST, cmd.Draw(TEAMS[0])),
         *(step for value in VALUES for step in ((HOST, cmd.Choose(0, value)), (HOST, cmd.FinishReading()),
                                                 (TIMER, cmd.TICK))),
         (HOST, cmd.Reserve(0)), (HOST, cmd.Correct(TEAMS[0], 1, "·")),
         (HOST, cmd.FinishReading()), (A, cmd.PressBuzzer()), (TIMER, cmd.TICK),
         (HOST, cmd.Right()), (HOST, cmd.CloseGame())],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_offered_is_what_decide_accepts_through_the_rare_moments(name: str) -> None:
    """Moments the random games reach only now and then: stakes, a secret question's handing over, media, a closed
    game, a shootout's reserve (and its end, once a correction broke the tie). Every step of the script is taken,
    and the lists match at every step."""
    changes, steps = SCRIPTS[name]
    setup = GameSetup(TEAMS, board(5, (1, 2)), assistant=Assistant("Ерлан", "Тұлпар"), press_window_ms=1_000)
    setup = dataclasses.replace(setup, **changes)
    state, now, reached = PlayState(), 0, Counter[str]()
    for actor, command in [(HOST, cmd.CreateGame(setup, keys=KEYS)), *steps]:
        check(state, now, 2_000)
        reached.update(offered(state, actor, now))
        now += 100 if actor != TIMER else 2_000
        decided = decide(state, command, Context(actor, now, random.Random(1), {"received_ms": now}))
        assert not isinstance(decided, Refusal), (command, decided)
        for event in decided:
            state = evolve(state, event)
    check(state, now, 2_000)
    expected = {"stake", "give", "media", "close_game"} if "stake" in name else {"reserve", "end_game", "close_game"}
    assert expected <= set(reached) | set(offered(state, HOST, now))
