"""The quiz room's "what may I do" lists (``can``), old and new in the same run (issue 32).

One qualifying game of 4 teams and 25 questions played through ``decide`` and ``evolve`` in process (each question:
chosen, read out by the host, then the teams press in turn by their USB keys and are ruled wrong until the fourth is
right; the assistant announces the score when due) — 25 questions, 100 presses, about 460 events. After every event
the host's list and one team's list are built by the probes asked of ``decide`` (the old way, kept here as the
reference) and by :func:`toreshi.quiz.play.probes.offered` (the new one), the two answers compared, and each timed
over ``--repeat`` passes of the whole game, the two kinds alternating pass by pass so both see the same load.
Printed: the median CPU µs per event of each list, old and new, and the ratio.

    python benchmarks/quiz_can.py [--repeat 7] [--seed 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.quiz.board import Board
from toreshi.quiz.events import Assistant, GameSetup
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.commands import Command
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.probes import offered, offered_by_decide
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алтын", "Барыс", "Сұңқар", "Тұлпар")
HOST, TEAM = Actor("host", "Жанна"), Actor("team", TEAMS[1])
KEYS = {str(i + 1): team for i, team in enumerate(TEAMS)}
Moment = tuple[PlayState, int]


probed = offered_by_decide
"""The list as the rooms built it before :func:`offered`: every probe asked of ``decide``."""


def game(seed: int) -> list[Moment]:
    """Every state of one 25-question game with the room time just after its event."""
    rng = random.Random(seed)
    state, now, moments = PlayState(), 0, []

    def do(command: Command, actor: Actor = HOST) -> None:
        nonlocal state, now
        now += rng.randint(50, 600)
        decided = decide(state, command, Context(actor, now, rng, {"received_ms": now}))
        assert not isinstance(decided, Refusal), (command, decided)
        for event in decided:
            state = evolve(state, event)
            moments.append((state, now))

    setup = GameSetup(TEAMS, Board.of(*"12345"), assistant=Assistant("Ерлан", "Қыран"))
    do(cmd.CreateGame(setup, keys=KEYS))
    do(cmd.Draw(TEAMS[0]))
    while not state.game.finished:
        if state.game.at(now).score_announcement_due:
            do(cmd.AnnounceScore(), Actor("assistant", "Ерлан"))
            continue
        do(cmd.Choose(*rng.choice(state.game.open_cells)))
        do(cmd.FinishReading())
        for index in range(len(TEAMS)):
            do(cmd.Key(str(index + 1)))
            do(cmd.TICK, Actor("timer"))  # the arbiter's decision
            do(cmd.Right() if index == len(TEAMS) - 1 else cmd.Wrong())
            if state.game.current is None:
                break
    return moments


def timed(moments: list[Moment], actor: Actor, build: Callable[[PlayState, Actor, int], list[str]]) -> float:
    """CPU µs per event to build ``actor``'s list after every event of the game."""
    started = time.process_time()
    for state, now in moments:
        build(state, actor, now)
    return (time.process_time() - started) / len(moments) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    moments = game(args.seed)
    for actor in (HOST, TEAM):
        for state, now in moments:
            assert offered(state, actor, now) == probed(state, actor, now), (actor, now)
    print(f"{len(moments)} events, {len(state_questions(moments))} questions; the lists equal after every event")
    for actor in (HOST, TEAM):
        old, new = [], []
        for _ in range(args.repeat):
            old.append(timed(moments, actor, probed))
            new.append(timed(moments, actor, offered))
        o, n = statistics.median(old), statistics.median(new)
        print(f"{actor.role:5} old {o:7.1f} µs/event (min {min(old):.1f})  new {n:6.1f} µs/event (min {min(new):.1f})"
              f"  ratio {o / n:5.1f}")  # fmt: skip


def state_questions(moments: list[Moment]) -> tuple[object, ...]:
    return moments[-1][0].game.played


if __name__ == "__main__":
    main()
