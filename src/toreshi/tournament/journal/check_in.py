"""Check-in before a round, and the results the players of physical boards give from their own links (issue 28).

**Check-in.** With the setting ``check_in`` on, a player confirms before each round that they are present (from
their personal tournament link, or the arbiter checks them in or out by hand); every check-in is a ``checked_in``
event. What happens to those who have not checked in follows the regulation for absent players:

- in a Swiss, the pairing pairs only those checked in; the others are not paired and the round records them
  absent (``Z``, zero points: FIDE's known absence, as a Swiss player who is away is "not paired", TK-R10 (2)).
  Who is in is fixed by the pairing: check-in for a paired round is closed (the arbiter discards the pairing to
  change it);
- in a round robin the Berger tables pair everyone; when the round is published, every game of a player who has
  not checked in is lost by default, (+) for the player present and (−) for the absent one (TK-R4, TK-C6), and
  both absent is (− −). The arbiter corrects such a result like any other (with a reason).

**Players' results.** On a board without a live game room, each player gives the result from their link
(``result_reported``); the same result from both is the players' result, which counts only once the arbiter
confirms the round (one action, ``confirm_round``: a ``round_confirmed`` and a ``result_entered`` per board, source
``players``). Two different results flag the board for the arbiter, who enters the result (and can always enter
or correct any result, whatever the players gave).

**Kazans.** With the setting ``report_kazans`` on, a player gives the game's final kazans ``(White, Black)`` with
a result of a game played out, checked as the arbiter's typed kazans are (``check_kazans_typed`` of
:mod:`~toreshi.tournament.journal.results`: possible, and with the result); the players agree only when they give the
same result *and* the same kazans, which the confirmation then records with the result. With the setting off,
kazans are refused.

>>> from datetime import datetime
>>> from toreshi.kit.core import Actor, Context, fold
>>> from toreshi.tournament.model import TournamentSystem
>>> from toreshi.tournament.journal import commands as c, decide, evolve
>>> at = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
>>> arbiter = Context(Actor("arbiter", "chief"), now_ms=0, meta={"at": at})
>>> state = TournamentState()
>>> for command in [c.Create(name="Cup", rounds=3, check_in=True), c.AddParticipant(name="A"),
...                 c.AddParticipant(name="B"), c.AddParticipant(name="C"), c.CheckIn(number=1),
...                 c.CheckIn(number=3), c.PairRound()]:
...     state = fold(evolve, state, decide(state, command, arbiter))
>>> state.draft.pairs, state.absences[1]
(((1, 3),), (2,))
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as _replace
from datetime import datetime
from enum import Enum
from types import MappingProxyType

from toreshi.kit.refusal import Common, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import CheckIn, ConfirmRound, ReportResult
from toreshi.tournament.journal.events import CheckedIn, ResultEntered, ResultReported, RoundConfirmed, Stamp
from toreshi.tournament.journal.results import check_kazans_typed
from toreshi.tournament.journal.state import Board, DraftRound, GivenResult, ResultSource, TournamentState
from toreshi.tournament.journal.values import game_result
from toreshi.tournament.model import ByeRequest, GameResult, ResultCode, Tournament

PLAYER_BY = "player:"
"""How an event given from a player's link names who gave it: ``player:12`` (the pairing number)."""


def player_by(number: int) -> str:
    return f"{PLAYER_BY}{number}"


def player_of_by(by: str) -> int | None:
    """The pairing number of ``player:12``, or None for anyone else (an arbiter, the game room)."""
    if by.startswith(PLAYER_BY) and by[len(PLAYER_BY) :].isdigit():
        return int(by[len(PLAYER_BY) :])
    return None


# --- check-in -------------------------------------------------------------------------------------------------


def check_in_round(state: TournamentState) -> int:
    """The round players check in for: the next one to be published."""
    return state.next_round


def check_in_open(state: TournamentState) -> bool:
    """Whether check-in for the next round is still open: on, a round still to come, and (in a Swiss) not paired."""
    t = state.t
    if not state.check_in or (t.rounds and state.next_round > t.rounds_planned):
        return False
    return state.draft is None or t.system.is_round_robin


def decide_check_in(state: TournamentState, command: CheckIn, stamp: Stamp) -> list[CheckedIn]:
    t, number = state.t, check_in_round(state)
    if not state.check_in:
        raise Refused(Code.CHECK_IN_OFF)
    t.participant(command.number)
    if t.rounds and number > t.rounds_planned:
        raise Refused(Code.ALL_ROUNDS_PAIRED, rounds=t.rounds_planned)
    if state.draft is not None and not t.system.is_round_robin:
        raise Refused(Code.CHECK_IN_CLOSED, round=number)
    if command.number not in t.players_to_pair(number):
        raise Refused(Code.NOT_IN_ROUND, player=t.label(command.number), round=number)
    if (command.number in state.checked_in(number)) is command.present:
        return []  # already so (the same form sent twice)
    return [CheckedIn(at=stamp.at, by=stamp.by, number=command.number, round=number, present=command.present)]


def apply_checked_in(state: TournamentState, event: CheckedIn) -> TournamentState:
    state.t.participant(event.number)
    present = set(state.checked_in(event.round))
    if event.present:
        present.add(event.number)
    else:
        present.discard(event.number)
    check_ins = {**state.check_ins, event.round: frozenset(present)}
    return _replace(state, check_ins=MappingProxyType(check_ins))


def absent_players(state: TournamentState, round_number: int) -> tuple[int, ...]:
    """The players to pair in ``round_number`` who have not checked in (none while check-in is off)."""
    if not state.check_in:
        return ()
    present = state.checked_in(round_number)
    return tuple(p for p in state.t.players_to_pair(round_number) if p not in present)


def with_absences(tournament: Tournament, round_number: int, absent: tuple[int, ...]) -> Tournament:
    """The tournament in which the ``absent`` players are not paired in ``round_number``: each a known absence
    (``Z``) of the round, as a zero-point bye is."""
    added = tuple(ByeRequest(player, round_number, ResultCode.ZERO_BYE) for player in absent)
    return _replace(tournament, bye_requests=(*tournament.bye_requests, *added))


def without_absences(state: TournamentState, draft: DraftRound) -> TournamentState:
    """The state of a discarded Swiss pairing: its round's absences are forgotten (check-in opens again)."""
    absent = set(state.absences.get(draft.round, ()))
    if not absent:
        return state
    t = state.t
    kept = tuple(
        b for b in t.bye_requests
        if not (b.round == draft.round and b.player in absent and b.code is ResultCode.ZERO_BYE)
    )  # fmt: skip
    absences = {key: value for key, value in state.absences.items() if key != draft.round}
    return _replace(state, tournament=_replace(t, bye_requests=kept), absences=MappingProxyType(absences))


def absent_forfeits(state: TournamentState, draft: DraftRound, stamp: Stamp) -> list[ResultEntered]:
    """A round robin published with check-in on: each game of a player who has not checked in is lost by default
    (TK-R4): (+ −) or (− +), and (− −) when neither came."""
    if not state.check_in or not state.t.system.is_round_robin:
        return []
    absent = set(absent_players(state, draft.round))
    entered = []
    for board, (white, black) in enumerate(draft.pairs, start=1):
        if white in absent and black in absent:
            result = GameResult.DOUBLE_FORFEIT
        elif white in absent:
            result = GameResult.BLACK_FORFEIT_WIN
        elif black in absent:
            result = GameResult.WHITE_FORFEIT_WIN
        else:
            continue
        entered.append(ResultEntered(at=stamp.at, by=stamp.by, round=draft.round, board=board, result=result,
                                     source=ResultSource.ABSENT, ended_at=stamp.at))  # fmt: skip
    return entered


# --- the players' results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What one player gave for a board (the result, and the kazans ``(White, Black)`` when asked), and when."""

    result: GameResult
    at: datetime
    kazans: tuple[int, int] | None = None


class Agreement(Enum):
    """Where the players' results of a board stand."""

    NONE = "none"
    ONE = "one"
    """One player gave a result; the other has not yet."""
    AGREED = "agreed"
    """Both gave the same result: it waits for the arbiter's confirmation."""
    DISAGREED = "disagreed"
    """They gave different results (or the same result with different kazans): the arbiter decides."""


@dataclass(frozen=True)
class BoardReports:
    white: Report | None = None
    black: Report | None = None

    @property
    def agreement(self) -> Agreement:
        if self.white is None and self.black is None:
            return Agreement.NONE
        if self.white is None or self.black is None:
            return Agreement.ONE
        same = self.white.result is self.black.result and self.white.kazans == self.black.kazans
        return Agreement.AGREED if same else Agreement.DISAGREED

    @property
    def agreed(self) -> GameResult | None:
        return self.white.result if self.agreement is Agreement.AGREED and self.white is not None else None

    @property
    def agreed_kazans(self) -> tuple[int, int] | None:
        """The kazans both players gave with the result they agree on (None: none were asked or given)."""
        return self.white.kazans if self.agreement is Agreement.AGREED and self.white is not None else None

    @property
    def only_kazans_differ(self) -> bool:
        """Both gave the same result but different kazans."""
        return (self.agreement is Agreement.DISAGREED and self.white is not None and self.black is not None
                and self.white.result is self.black.result)  # fmt: skip

    @property
    def last_at(self) -> datetime | None:
        times = [r.at for r in (self.white, self.black) if r is not None]
        return max(times) if times else None


def board_reports(state: TournamentState, round_number: int, board: int) -> BoardReports:
    """The two players' reports of a board (``BoardReports()`` when none was given)."""
    given = state.reports.get((round_number, board))
    if not given:
        return BoardReports()
    times = state.report_times.get((round_number, board), {})
    game = state.t.round(round_number).game(board)

    def report(player: int) -> Report | None:
        gave = given.get(player)
        return Report(gave.result, times[player], gave.kazans) if gave is not None and player in times else None

    return BoardReports(report(game.white), report(game.black))


def to_confirm(state: TournamentState, round_number: int) -> list[tuple[int, GameResult, datetime]]:
    """The boards of the round whose players agree on a result the tournament does not have yet: ``(board, result,
    when the second player gave it)``."""
    found = []
    for game in state.t.round(round_number).games:
        if game.result is not None or state.room_of(round_number, game.board) is not None:
            continue
        reports = board_reports(state, round_number, game.board)
        if reports.agreed is not None and reports.last_at is not None:
            found.append((game.board, reports.agreed, reports.last_at))
    return found


def disagreements(state: TournamentState, round_number: int) -> list[int]:
    """The boards of the round without a result whose players gave different results (the arbiter's to decide)."""
    return [
        g.board for g in state.t.round(round_number).games
        if g.result is None and board_reports(state, round_number, g.board).agreement is Agreement.DISAGREED
    ]  # fmt: skip


def _check_board(state: TournamentState, round_number: int, board: int, number: int) -> None:
    t = state.t
    game = t.round(round_number).game(board)
    if number not in (game.white, game.black):
        raise Refused(Code.NOT_YOUR_BOARD, player=t.label(number), round=round_number, board=board)
    if state.room_of(round_number, board) is not None:
        raise Refused(Code.LIVE_BOARD, round=round_number, board=board)
    if game.result is not None:
        raise Refused(Code.RESULT_ALREADY_RECORDED, round=round_number, board=board)


def decide_report(state: TournamentState, command: ReportResult, stamp: Stamp) -> list[ResultReported]:
    _check_board(state, command.round, command.board, command.number)
    result = game_result(command.result, "result")
    kazans = command.kazans
    if kazans is not None:
        if not state.report_kazans:
            raise Refused(Code.KAZANS_NOT_ASKED)
        if len(kazans) != 2:
            raise Refused(Common.BAD_REQUEST, field="kazans")  # White's and Black's
        check_kazans_typed(command.round, command.board, result, kazans)  # the arbiter's own checks
    elif state.report_kazans and result.played:
        raise Refused(Common.FIELD_REQUIRED, field="kazans")
    if state.reports.get((command.round, command.board), {}).get(command.number) == GivenResult(result, kazans):
        return []  # the same result again (a double submit)
    return [ResultReported(at=stamp.at, by=stamp.by, round=command.round, board=command.board,
                           number=command.number, result=result, kazans=kazans)]  # fmt: skip


def apply_reported(state: TournamentState, event: ResultReported) -> TournamentState:
    _check_board(state, event.round, event.board, event.number)
    key: Board = (event.round, event.board)
    board = {**state.reports.get(key, {}), event.number: GivenResult(event.result, event.kazans)}
    times = {**state.report_times.get(key, {}), event.number: event.at}
    reports = {**state.reports, key: MappingProxyType(board)}
    report_times = {**state.report_times, key: MappingProxyType(times)}
    return _replace(state, reports=MappingProxyType(reports), report_times=MappingProxyType(report_times))


def decide_confirm(state: TournamentState, command: ConfirmRound, stamp: Stamp) -> list[RoundConfirmed | ResultEntered]:
    agreed = to_confirm(state, command.round)
    if not agreed:
        raise Refused(Code.NOTHING_TO_CONFIRM, round=command.round)
    confirmed = RoundConfirmed(at=stamp.at, by=stamp.by, round=command.round, boards=tuple(b for b, _, _ in agreed))
    entered = [
        ResultEntered(at=stamp.at, by=stamp.by, round=command.round, board=board, result=result,
                      source=ResultSource.PLAYERS, ended_at=ended,
                      kazans=board_reports(state, command.round, board).agreed_kazans)
        for board, result, ended in agreed
    ]  # fmt: skip
    return [confirmed, *entered]


def apply_confirmed(state: TournamentState, event: RoundConfirmed) -> TournamentState:
    for board in event.boards:
        state.t.round(event.round).game(board)
    return state
