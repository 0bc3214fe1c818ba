"""Presses and time: who pressed, when the arbiter decides, and what the room's timer decides on its own.

A press is a room event of its own (:class:`~toreshi.quiz.play.events.PressReceived`) carrying what the server
measured: when it arrived (room time), the client's touch time and the connection's clock sync — trusted
:attr:`~toreshi.kit.core.Context.meta`, set by the socket only, never read from the client's message. When the
arbiter's collection window is over, the timer records the decision (:class:`~toreshi.quiz.play.events.BuzzDecided`,
the full order for the "lost button" display and appeals) and the game's ``buzzed``. A random pick (the random
window, a random tie rule) draws from the generator the room passes in, and the decision records what was drawn.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from toreshi.kit.refusal import Refused
from toreshi.quiz.buzzer import Arbiter, ArbitrationMode, ClockSync
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import AnswerTimeExpired, Buzzed, Event, TimeCalled
from toreshi.quiz.game import GameState, Phase
from toreshi.quiz.play.events import BuzzDecided, LateReason, PlacedEntry, PressLate, PressReceived
from toreshi.quiz.play.state import PendingPress, PlayState, checked

__all__ = ["STALE_PRESS_MS", "decision", "press", "received_ms", "sync_from_meta", "tick"]

STALE_PRESS_MS = 1_000
"""A phone's press that reaches the server more than this after its touch (by the phone's own clock and the
connection's sync) waited somewhere — the phone was offline: it is refused and the phone says so, never taken
seconds later as if it had been first. A press delayed less is placed by the arbiter, no earlier than the cap on
compensation allows (:attr:`toreshi.quiz.buzzer.ArbiterSettings.max_compensation_ms`)."""


def received_ms(meta: Mapping[str, Any], now: int) -> int:
    """When the server received the command (room time, never after ``now``)."""
    received = meta.get("received_ms")
    if isinstance(received, int) and not isinstance(received, bool):
        return min(received, now)
    return now


_SYNC_FIELDS = ("offset_ms", "offset_low_ms", "offset_high_ms", "rtt_median_ms", "rtt_max_ms")


def sync_from_meta(data: object) -> ClockSync | None:
    """The connection's clock sync that the socket measured; ``None`` when absent or malformed."""
    if not isinstance(data, Mapping):
        return None
    values: list[int] = []
    for key in _SYNC_FIELDS:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        values.append(value)
    offset, low, high, median, worst = values
    if median < 0 or worst < 0 or low > high:
        return None
    return ClockSync(offset, low, high, median, worst)


def press(
    state: PlayState,
    team: str,
    received: int,
    client_ms: int | None,
    *,
    source: str,
    sync: ClockSync | None,
    rng: random.Random | None,
) -> list[Event]:
    """A press of ``team`` received at ``received``: fed to the arbiter, or recorded as late once."""
    game = state.game
    if team not in game.teams:
        raise Refused(QuizCode.NOT_A_TEAM, team=team)
    if game.finished:
        raise Refused(QuizCode.FINISHED)
    at = max(received, game.last_ms)
    game = game.at(at)
    current = game.current
    number = state.question_number
    if current is not None and team in current.answered:
        raise Refused(QuizCode.ALREADY_ANSWERED, team=team, clause="SI-3.5")
    if any(pending.team == team for pending in state.pending):
        raise Refused(QuizCode.ALREADY_PRESSED)
    late = _late(game, received)
    if late is not None:
        if number == 0 or any(p.team == team and p.question == number and p.reason is late for p in state.late):
            return []  # one late record per team, question and reason is enough
        return [PressLate(at, team, number, late, received, source)]
    if client_ms is not None and sync is not None:
        delay = received - (client_ms - sync.offset_ms)
        if delay > STALE_PRESS_MS:
            raise Refused(QuizCode.PRESS_STALE, delay_ms=delay, limit_ms=STALE_PRESS_MS)
    pressed = PressReceived(at, team, number, received, client_ms, source, sync)
    if state.settings.mode is ArbitrationMode.ARRIVAL and not state.pending:
        # First come, first served: there is nothing to wait for, so the decision goes out with the press in
        # one commit, without a timer — every screen locks a step sooner.
        first = (PendingPress(team, received, client_ms, source),)
        arbiter = state.arbiter(first)
        if arbiter is not None:
            return [pressed, *decision(state, arbiter, at, rng, first)]
    return [pressed]


def _late(game: GameState, received: int) -> LateReason | None:
    """Why a press at ``received`` cannot count, or ``None`` when the buttons are open for it."""
    current = game.current
    opened = game.opened_ms
    if current is None:
        return LateReason.CLOSED
    if opened is None:
        return LateReason.ANSWERING if game.phase is Phase.ANSWERING else LateReason.CLOSED
    if received < opened:
        return LateReason.ANSWERING
    if game.phase is Phase.PRESS_WINDOW and received > opened + game._setup.press_window_ms:
        return LateReason.TIME
    return None


def decision(
    state: PlayState,
    arbiter: Arbiter,
    now: int,
    rng: random.Random | None,
    pending: Sequence[PendingPress] | None = None,
) -> list[Event]:
    """The arbiter's decision at ``now`` and the game's ``buzzed`` for its winner."""
    decided = arbiter.decide(now, rng)
    sources = {p.team: p.source for p in (state.pending if pending is None else pending)}
    order = tuple(
        PlacedEntry(
            team=placed.team,
            time_ms=placed.time_ms,
            received_ms=placed.press.received_ms,
            client_ms=placed.press.client_ms,
            uncertainty_ms=placed.uncertainty_ms,
            clamped=placed.clamped,
            source=sources.get(placed.team, ""),
            backdated=placed.backdated,
        )
        for placed in decided.order
    )
    press_ms = max(decided.order[0].time_ms, arbiter.open_ms)
    current = state.game.current
    record = BuzzDecided(
        now,
        question=current.number if current is not None else 0,
        winner=decided.winner,
        order=order,
        decided_ms=decided.decided_ms,
        first_arrival_ms=decided.first_arrival_ms,
        tie=decided.tie,
        mode=state.settings.mode,
    )
    return [record, *checked(state.game, [Buzzed(now, decided.winner, press_ms)])]


def tick(state: PlayState, now: int, rng: random.Random | None) -> list[Event]:
    """What time alone decides at ``now``: the arbiter's decision once it is due, «время» after the press window
    (SI-3.10), the end of the answer time (SI-3.7). Nothing when nothing is due yet."""
    arbiter = state.arbiter()
    if arbiter is not None:
        due = arbiter.decision_due_ms
        if due is None or now < due:
            return []
        return decision(state, arbiter, now, rng)
    game = state.game.at(now)
    current = game.current
    if current is None:
        return []
    closes = game.window_closes_ms
    if game.phase is Phase.PRESS_WINDOW and closes is not None and now >= closes:
        return checked(state.game, [TimeCalled(now)])
    answer = current.answer_deadline_ms
    if game.phase is Phase.ANSWERING and answer is not None and now >= answer:
        return checked(state.game, [AnswerTimeExpired(now)])
    return []
