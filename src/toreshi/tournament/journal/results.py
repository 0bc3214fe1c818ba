"""Results: game rooms linked to boards, results entered by the arbiter or reported by a finished game room, and
corrections (with their reason). A game room's report never overwrites a result already there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from types import MappingProxyType

from toreshi.kit.refusal import Common, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import EnterResult, LinkGameRoom, RecordClockCorrection
from toreshi.tournament.journal.events import ClockCorrected, GameRoomLinked, ResultCorrected, ResultEntered, Stamp
from toreshi.tournament.journal.state import ResultOrigin, ResultSource, TournamentState
from toreshi.tournament.journal.values import game_result
from toreshi.tournament.model import GameResult, check_kazans


def decide_link(command: LinkGameRoom, stamp: Stamp) -> list[GameRoomLinked]:
    return [GameRoomLinked(at=stamp.at, by=stamp.by, round=command.round, board=command.board,
                           room_id=command.room_id)]  # fmt: skip


def apply_linked(state: TournamentState, event: GameRoomLinked) -> TournamentState:
    state.t.round(event.round).game(event.board)
    if (event.round, event.board) in state.game_rooms:
        raise Refused(Code.ROOM_ALREADY_LINKED, round=event.round, board=event.board)
    rooms = {**state.game_rooms, (event.round, event.board): event.room_id}
    return replace(state, game_rooms=MappingProxyType(rooms))


def decide_result(
    state: TournamentState, command: EnterResult, stamp: Stamp, source: ResultSource
) -> list[ResultEntered | ResultCorrected]:
    """The result as an event — none when it is already the board's, or when a game room reports a board that
    has a result (the arbiter's or a protest's stands)."""
    game = state.t.round(command.round).game(command.board)
    result = game_result(command.result, "result")
    kazans = command.kazans
    if kazans is not None and len(kazans) != 2:
        raise Refused(Common.BAD_REQUEST, field="kazans")  # White's and Black's
    if kazans is not None and source is not ResultSource.LIVE:
        check_kazans_typed(command.round, command.board, result, kazans)
    # A result without an end time ended when it was entered; a correction keeps the game's end time.
    ended = command.ended_at or game.ended_at or stamp.at
    entered = ResultEntered(at=stamp.at, by=stamp.by, round=command.round, board=command.board, result=result,
                            source=source, kazans=kazans, ended_at=ended)  # fmt: skip
    if game.result is None:
        return [entered]
    if (game.result is result and game.kazans == kazans) or source is ResultSource.LIVE:
        return []
    # A correction says why: a departure that needs a written reason (journal/departures.py, checked in decide).
    fields = {f.name: getattr(entered, f.name) for f in dataclasses.fields(entered)}
    return [ResultCorrected(**fields, previous=game.result, reason=command.reason)]


WINNING_KAZANS = 82
"""A player who has captured 82 kumalaks (more than half of 162) has won the game."""


def check_kazans_typed(round_number: int, board: int, result: GameResult, kazans: tuple[int, int]) -> None:
    """Kazans typed by hand (the arbiter's, or a player's from their link) must be possible and go with their result:
    the board's checks (:func:`~toreshi.tournament.model.check_kazans`), and the side with 82 or more won (a game
    played out)."""
    check_kazans(round_number, board, result, kazans)
    white, black = kazans
    winner = None
    if white >= WINNING_KAZANS:
        winner = GameResult.WHITE_WINS
    elif black >= WINNING_KAZANS:
        winner = GameResult.BLACK_WINS
    if winner is not None and result is not winner:
        raise Refused(Code.KAZANS_CONTRADICT_RESULT, round=round_number, board=board, white=white,
                      black=black, result=result.value)  # fmt: skip


def apply_result(state: TournamentState, event: ResultEntered) -> TournamentState:
    """A result entered or corrected (:class:`ResultCorrected` is a :class:`ResultEntered`)."""
    tournament = state.t.record_result(event.round, event.board, event.result, event.kazans, event.ended_at)
    sources = {**state.result_sources, (event.round, event.board): ResultOrigin(event.source)}
    return replace(state, tournament=tournament, result_sources=MappingProxyType(sources))


def decide_clock_correction(state: TournamentState, command: RecordClockCorrection) -> list[ClockCorrected]:
    """A game room's clock correction above the tournament's amount, carried in once (none when it already is),
    stamped with when and by whom it was made in the room."""
    if (command.round, command.board, command.at_ms) in state.clock_corrections:
        return []
    return [ClockCorrected(at=command.corrected_at, by=command.arbiter, round=command.round, board=command.board,
                           number=command.number, delta_ms=command.delta_ms, at_ms=command.at_ms,
                           reason=command.reason)]  # fmt: skip


def apply_clock_corrected(state: TournamentState, event: ClockCorrected) -> TournamentState:
    game = state.t.round(event.round).game(event.board)
    if event.number not in (game.white, game.black):
        raise Refused(Code.UNKNOWN_PLAYER, number=event.number)
    return replace(state, clock_corrections=state.clock_corrections | {(event.round, event.board, event.at_ms)})
