"""Check-in before a round and the players' own results of physical boards (issue 28), in the journal."""

from __future__ import annotations

from datetime import timedelta

from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal import ResultSource, TournamentCommand, decide, replay
from toreshi.tournament.journal.check_in import Agreement, board_reports, check_in_open, disagreements, to_confirm
from toreshi.tournament.journal.commands import (
    PLAYER,
    AddParticipant,
    CheckIn,
    Configure,
    ConfirmRound,
    Create,
    DiscardPairing,
    EnterResult,
    LinkGameRoom,
    PairRound,
    PublishRound,
    ReportResult,
    Withdraw,
)
from toreshi.tournament.model import GameResult, ResultCode, TournamentSystem

from .refusals import assert_refusal
from .test_journal import Desk


def _desk(players: int, system: TournamentSystem = TournamentSystem.SWISS, check_in: bool = True) -> Desk:
    desk = Desk()
    desk.do(Create(name="Cup", system=system, rounds=3 if system is TournamentSystem.SWISS else 0, check_in=check_in))
    for index in range(players):
        desk.do(AddParticipant(name=f"P{index + 1}", rating=2000 - index))
    return desk


def _player_refused(
    desk: Desk, number: int, command: TournamentCommand, code: RefusalCode, **params: ParamValue
) -> None:
    before = desk.state
    decision = decide(desk.state, command, desk.context(str(number), PLAYER))
    assert isinstance(decision, Refusal), decision
    assert_refusal(decision, code, **params)
    assert desk.state is before


def _as_player(desk: Desk, number: int, command: TournamentCommand) -> None:
    desk.do(command, by=str(number), role=PLAYER)


def test_check_in_is_off_by_default_and_everyone_is_paired() -> None:
    desk = _desk(4, check_in=False)
    desk.refused(CheckIn(number=1), Code.CHECK_IN_OFF)
    desk.do(PairRound())
    assert desk.state.draft is not None and len(desk.state.draft.pairs) == 2
    assert not desk.state.absences


def test_a_swiss_pairs_only_those_checked_in_the_others_are_absent_zero() -> None:
    desk = _desk(5)
    for number in (1, 2, 4):
        _as_player(desk, number, CheckIn(number=number))
    desk.do(CheckIn(number=5))  # the arbiter checks a player in by hand
    desk.do(CheckIn(number=5, present=False))  # and out again
    desk.do(CheckIn(number=3))
    assert desk.state.checked_in(1) == frozenset({1, 2, 3, 4})
    desk.do(PairRound())
    assert desk.state.draft is not None
    paired = {p for pair in desk.state.draft.pairs for p in pair}
    assert paired == {1, 2, 3, 4} and desk.state.draft.bye is None
    assert desk.state.absences[1] == (5,)
    # Who is in was fixed by the pairing.
    desk.refused(CheckIn(number=5), Code.CHECK_IN_CLOSED, round=1)
    assert not check_in_open(desk.state)
    desk.do(PublishRound())
    byes = {b.player: b.code for b in desk.state.t.round(1).byes}
    assert byes == {5: ResultCode.ZERO_BYE}
    # Every check-in is an event of the log, by whom it was given.
    checks = [line for line in desk.state.audit if line.action == "checked_in"]
    assert [line.by for line in checks] == ["player:1", "player:2", "player:4", "chief", "chief", "chief"]


def test_a_discarded_pairing_opens_check_in_again_and_forgets_the_absences() -> None:
    desk = _desk(4)
    for number in (1, 2):
        desk.do(CheckIn(number=number))
    desk.do(PairRound())
    assert desk.state.absences[1] == (3, 4)
    desk.do(DiscardPairing())
    assert not desk.state.absences and not desk.state.t.bye_requests
    desk.do(CheckIn(number=3))
    desk.do(CheckIn(number=4))
    desk.do(PairRound())
    assert len(desk.state.draft.pairs) == 2  # type: ignore[union-attr]
    assert replay(desk.log) == desk.state


def test_check_in_is_per_round_and_only_for_players_still_to_pair() -> None:
    desk = _desk(4)
    for number in (1, 2, 3, 4):
        desk.do(CheckIn(number=number))
    desk.do(PairRound())
    desk.do(PublishRound())
    assert desk.state.checked_in(2) == frozenset()  # round 2 starts with nobody in
    desk.do(Withdraw(number=4))
    desk.refused(CheckIn(number=4), Code.NOT_IN_ROUND, round=2)
    desk.refused(CheckIn(number=9), Code.UNKNOWN_PLAYER)
    # The same check-in twice changes nothing (a double submit).
    desk.do(CheckIn(number=1))
    before = len(desk.log)
    desk.do(CheckIn(number=1))
    assert len(desk.log) == before


def test_a_player_link_checks_in_and_reports_only_for_its_own_player() -> None:
    desk = _desk(4)
    _player_refused(desk, 2, CheckIn(number=1), Code.PLAYER_LINK_ONLY)
    _player_refused(desk, 2, PairRound(), Code.PLAYER_LINK_ONLY)
    _player_refused(desk, 2, Configure(check_in=False), Code.PLAYER_LINK_ONLY)
    desk.refused(ReportResult(round=1, board=1, number=1, result="1-0"), Code.PLAYER_LINK_ONLY)


def test_a_round_robin_forfeits_the_games_of_players_not_checked_in_when_published() -> None:
    desk = _desk(4, TournamentSystem.ROUND_ROBIN)
    desk.do(CheckIn(number=1))
    desk.do(CheckIn(number=2))
    desk.do(PairRound())
    assert desk.state.draft is not None and not desk.state.absences  # the Berger tables pair everyone
    desk.do(CheckIn(number=3))  # a round robin's check-in stays open until the round is published
    desk.do(PublishRound())
    games = {(g.white, g.black): g for g in desk.state.t.round(1).games}
    for (white, black), game in games.items():
        absent = {white, black} & {4}
        if not absent:
            assert game.result is None
        else:
            expected = GameResult.BLACK_FORFEIT_WIN if white == 4 else GameResult.WHITE_FORFEIT_WIN
            assert game.result is expected  # TK-R4: (+) for the player present, (−) for the absent one
            assert desk.state.origin(1, game.board).source is ResultSource.ABSENT


def _published(players: int = 4) -> Desk:
    desk = _desk(players, check_in=False)
    desk.do(PairRound())
    desk.do(PublishRound())
    return desk


def test_both_players_agree_then_the_arbiter_confirms_the_round_in_one_action() -> None:
    desk = _published(6)
    games = desk.state.t.round(1).games
    for game in games[:2]:
        _as_player(desk, game.white, ReportResult(round=1, board=game.board, number=game.white, result="1-0"))
    desk.now += timedelta(minutes=5)
    _as_player(desk, games[0].black, ReportResult(round=1, board=1, number=games[0].black, result="1-0"))
    _as_player(desk, games[1].black, ReportResult(round=1, board=2, number=games[1].black, result="½-½"))
    assert board_reports(desk.state, 1, 1).agreement is Agreement.AGREED
    assert board_reports(desk.state, 1, 2).agreement is Agreement.DISAGREED
    assert disagreements(desk.state, 1) == [2]
    # Agreed is not counted until the arbiter confirms.
    assert desk.state.t.round(1).game(1).result is None
    assert all(row.points == 0 for row in desk.state.standings().rows)
    assert [board for board, _, _ in to_confirm(desk.state, 1)] == [1]
    desk.do(ConfirmRound(round=1))
    game = desk.state.t.round(1).game(1)
    assert game.result is GameResult.WHITE_WINS and game.ended_at == desk.now  # when the second player gave it
    assert desk.state.origin(1, 1).source is ResultSource.PLAYERS
    assert desk.state.t.round(1).game(2).result is None  # the disagreement stays the arbiter's
    desk.refused(ConfirmRound(round=1), Code.NOTHING_TO_CONFIRM, round=1)
    # Once recorded, the players cannot change it; the arbiter can always override.
    _player_refused(desk, games[0].black, ReportResult(round=1, board=1, number=games[0].black, result="0-1"),
                    Code.RESULT_ALREADY_RECORDED, round=1, board=1)  # fmt: skip
    desk.do(EnterResult(round=1, board=2, result="0-1"))
    desk.do(EnterResult(round=1, board=1, result="0-1", reason="score sheets checked", confirmed=True))
    assert desk.state.t.round(1).game(1).result is GameResult.BLACK_WINS
    assert replay(desk.log) == desk.state


def test_players_report_only_their_own_physical_board() -> None:
    desk = _published(4)
    game, other = desk.state.t.round(1).games
    _player_refused(desk, game.white, ReportResult(round=1, board=other.board, number=game.white, result="1-0"),
                    Code.NOT_YOUR_BOARD, round=1, board=other.board)  # fmt: skip
    _player_refused(desk, game.white, ReportResult(round=1, board=1, number=game.white, result="2-0"),
                    Common.FIELD_NOT_CHOICE, field="result")  # fmt: skip
    desk.do(LinkGameRoom(round=1, board=2, room_id="g-1"))
    _player_refused(desk, other.white, ReportResult(round=1, board=2, number=other.white, result="1-0"),
                    Code.LIVE_BOARD, round=1, board=2)  # fmt: skip
    # The same report twice is one event.
    _as_player(desk, game.white, ReportResult(round=1, board=1, number=game.white, result="1-0"))
    before = len(desk.log)
    _as_player(desk, game.white, ReportResult(round=1, board=1, number=game.white, result="1-0"))
    assert len(desk.log) == before
