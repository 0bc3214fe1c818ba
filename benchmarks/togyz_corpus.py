"""The PlayOK corpus for the engine's tuning and benchmarks: games replayed into search states with their results.

Shared by ``benchmarks/tune_evaluation.py`` and ``benchmarks/engine.py`` (imported as ``benchmarks.togyz_corpus``,
as ``load.py`` imports ``benchmarks.live_games``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from toreshi.togyz import Position
from toreshi.togyz.engine.board import State, state_of
from toreshi.togyz.pgn import read_games

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO.parent / "shared" / "data" / "togyz" / "playok-2024-2025.pgn"

RESULT_FOR_WHITE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass(frozen=True)
class CorpusGame:
    """One game: the state before every ply (and after the last), the holes played, White's score (1, ½, 0)."""

    index: int
    states: list[State]
    holes: list[int]
    white_score: float | None


def corpus_games(path: Path) -> Iterator[CorpusGame]:
    """Every game of the file that replays without error (all 2,398 PlayOK games do)."""
    with path.open(encoding="utf-8", newline="") as handle:
        for index, game in enumerate(read_games(handle)):
            position = Position()
            states = [state_of(position)]
            holes = []
            try:
                for move in game.moves:
                    position.push(move.hole)
                    holes.append(move.hole)
                    states.append(state_of(position))
            except ValueError:
                continue
            yield CorpusGame(index, states, holes, RESULT_FOR_WHITE.get(game.result or ""))
