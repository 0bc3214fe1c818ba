"""The broadcast's evaluation bar, decided on the server (issue 19 §2, fair play).

Who may see the engine's verdict on a game, and on which position of it:

- a game that is **over**: anyone (the review of the replay, the bar of the round's page) unless the event's
  arbiter switched the evaluation off;
- a **live tournament game**: its spectators, on the last position that was reached at least the arbiter's delay
  ago (``EvaluationPolicy.delay_minutes``), never a newer one; nothing when the arbiter switched it off;
- a **live game outside a tournament**: nobody (no arbiter sets a delay for it).

The players' own views (the room's state on their sockets and their game page) never carry an evaluation: it is
served only by the broadcast's own JSON routes, which compute it from these rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toreshi.services.engine import EngineService
from toreshi.togyz.engine import expected_score
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.state import GameState, GameStatus
from toreshi.tournament.journal.state import EvaluationPolicy

__all__ = ["ShownEvaluation", "evaluation_for_spectators", "shown_ply"]

MS_PER_MINUTE = 60_000


@dataclass(frozen=True)
class ShownEvaluation:
    ply: int
    """The position evaluated: after this many plies (0 the start)."""
    white_expectation: float
    white_score: int | None
    """Centi-kumalaks for White; None when the game is over (its result is the verdict)."""
    delayed: bool
    """True when newer moves exist that spectators are not shown an evaluation of yet."""

    def to_json(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "move": (self.ply + 1) // 2,
            "white": round(self.white_expectation, 4),
            "score": self.white_score,
            "delayed": self.delayed,
        }


def shown_ply(state: GameState, policy: EvaluationPolicy | None, now_ms: int) -> int | None:
    """The ply whose position spectators may see evaluated now, or None (see the module's rules)."""
    if policy is not None and not policy.shown:
        return None
    if state.status is GameStatus.FINISHED:
        return len(state.plies)
    if policy is None or state.status in (GameStatus.SCHEDULED, GameStatus.POSTPONED):
        return None
    cutoff = now_ms - policy.delay_minutes * MS_PER_MINUTE
    shown = 0
    for number, ply in enumerate(state.plies, start=1):
        if ply.at_ms > cutoff:
            break
        shown = number
    return shown or None  # not one move old enough yet: nothing (the start position tells nobody anything)


_RESULTS = {
    GameResult.WHITE_WINS: 1.0,
    GameResult.WHITE_FORFEIT_WIN: 1.0,
    GameResult.BLACK_WINS: 0.0,
    GameResult.BLACK_FORFEIT_WIN: 0.0,
}


def _result_expectation(result: GameResult | None) -> float:
    return _RESULTS.get(result, 0.5) if result is not None else 0.5


def evaluation_for_spectators(
    engine: EngineService, state: GameState, policy: EvaluationPolicy | None, now_ms: int
) -> ShownEvaluation | None:
    """What the bar shows now; None when nothing may be shown or the engine has not answered yet (ask again)."""
    ply = shown_ply(state, policy, now_ms)
    if ply is None:
        return None
    delayed = ply < len(state.plies)
    if state.status is GameStatus.FINISHED and not delayed:
        return ShownEvaluation(ply, _result_expectation(state.result), None, delayed=False)
    analysis = engine.evaluation_of([record.hole for record in state.plies[:ply]])
    if analysis is None:
        return None
    white = analysis.white_score
    return ShownEvaluation(ply, expected_score(white, draw=analysis.draw), white, delayed)
