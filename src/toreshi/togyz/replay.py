"""Replaying a record with every annotation checked: the arbiter's score-sheet checker.

A record is *valid* when every move is legal and every landing digit, ``X`` mark and ``(n)`` total agrees with
the rules, when an ``{zero}`` (atsyz) comment matches the board, and when a written result does not contradict a
result the board decides. The first problem is reported with its 1-based ply and what was expected.

>>> import io
>>> from toreshi.togyz.pgn import read_game
>>> game = read_game(io.StringIO("1. 87(10) 87(11) 1-0"))
>>> report = replay(game)
>>> report.ok, str(report.error)
(False, "ply 2 (Black's move 1, '87(11)'): the mover's kazan after the capture is 10, not 11")
"""

from __future__ import annotations

from dataclasses import dataclass

from toreshi.togyz.fen import InvalidFenError, from_fen
from toreshi.togyz.notation import MoveToken, annotation_mismatch, format_token
from toreshi.togyz.pgn import PgnGame, RecordError
from toreshi.togyz.position import IllegalMoveError, Outcome, Position, Side, Termination

ATSYZ_COMMENT = "zero"


@dataclass(frozen=True)
class Replay:
    """What replaying a record found.

    ``position`` is the position after the last move that could be played (its move stack holds the game);
    ``outcome`` is decided by the board alone, ``None`` when the game is not over on the board.
    """

    position: Position
    plies: int
    error: RecordError | None
    outcome: Outcome | None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def result(self) -> str | None:
        """The board result token, or ``None`` when the board decides nothing."""
        return None if self.outcome is None else self.outcome.result()

    @property
    def score(self) -> tuple[int, int]:
        """The kazans after the end-of-game rules (the atsyz sweep included)."""
        return self.outcome.score if self.outcome is not None else self.position.kazans


def _describe(ply: int, side: Side, move: MoveToken) -> str:
    name = "White" if side is Side.WHITE else "Black"
    return f"{name}'s move {(ply + 1) // 2}, {format_token(move)!r}"


def start_position(game: PgnGame) -> Position:
    """The position a record starts from: its ``FEN`` tag, or the initial position."""
    fen = game.headers.get("FEN")
    return Position() if fen is None else from_fen(fen)


def replay(game: PgnGame) -> Replay:
    """Play a record through and check every annotation; stops at the first problem."""
    try:
        position = start_position(game)
    except InvalidFenError as error:
        return Replay(Position(), 0, RecordError(f"the FEN tag cannot be read: {error}"), None)
    first_ply = position.ply
    problem = next((error for error in game.errors), None)
    for number, move in enumerate(game.moves, start=1):
        side = position.turn
        where = _describe(first_ply + number, side, move)
        outcome = position.outcome()
        if outcome is not None:
            message = f"the game has already ended ({_ending(outcome)})"
            return Replay(position, number - 1, RecordError(message, number, move=where), outcome)
        try:
            played = position.play(move.hole)
        except IllegalMoveError:
            message = f"hole {move.hole} is empty"
            return Replay(position, number - 1, RecordError(message, number, move=where), None)
        mismatch = annotation_mismatch(move, played)
        if mismatch is not None:
            position.pop()
            return Replay(position, number - 1, RecordError(mismatch, number, move=where), None)
    outcome = position.outcome()
    if problem is None:
        problem = _check_ending(game, outcome)
    return Replay(position, len(game.moves), problem, outcome)


def _ending(outcome: Outcome) -> str:
    if outcome.termination is Termination.KAZAN:
        return f"a kazan holds 82 or more, {outcome.score[0]}:{outcome.score[1]}"
    return f"atsyz, {outcome.score[0]}:{outcome.score[1]} after the sweep"


def _check_ending(game: PgnGame, outcome: Outcome | None) -> RecordError | None:
    marked_atsyz = any(comment.strip().lower() == ATSYZ_COMMENT for comment in game.comments)
    is_atsyz = outcome is not None and outcome.termination is Termination.ATSYZ
    if marked_atsyz and not is_atsyz:
        return RecordError("the record marks atsyz {zero} but the side to move still has kumalaks")
    if outcome is not None and game.result not in (None, "*") and game.result != outcome.result():
        return RecordError(
            f"the result is written {game.result} but the board gives {outcome.result()} ({_ending(outcome)})"
        )
    return None
