"""Check-in before a round and the players' own results of physical boards (issue 28), in the journal."""

from __future__ import annotations

from datetime import timedelta

import pytest

from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal import ResultSource, TournamentCommand, decide, replay
from toreshi.tournament.journal.check_in import Agreement, board_reports, check_in_open, disagreements, to_confirm
from toreshi.tournament.journal.commands import (
    COMMANDS,
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
from toreshi.tournament.journal.events import TournamentConfigured
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


# --- the final kazans the players give with their results (the setting report_kazans) --------------------------


def _kazans_desk(players: int = 6) -> Desk:
    desk = _published(players)
    desk.do(Configure(report_kazans=True))
    return desk


def _report(desk: Desk, board: int, white: bool, result: str, kazans: tuple[int, int] | None) -> None:
    game = desk.state.t.round(1).game(board)
    number = game.white if white else game.black
    _as_player(desk, number, ReportResult(round=1, board=board, number=number, result=result, kazans=kazans))


def test_the_kazans_setting_is_off_by_default_and_kazans_are_then_refused() -> None:
    desk = _published(4)
    assert not desk.state.report_kazans
    game = desk.state.t.round(1).game(1)
    _player_refused(desk, game.white, ReportResult(round=1, board=1, number=game.white, result="1-0",
                                                   kazans=(90, 50)), Code.KAZANS_NOT_ASKED)  # fmt: skip
    # Off, the result alone is a report, as before.
    _report(desk, 1, True, "1-0", None)
    assert board_reports(desk.state, 1, 1).white is not None
    # The setting is a settings event of the log, like any other, and can be turned off again.
    desk.do(Configure(report_kazans=True))
    configured = desk.log[-1]
    assert isinstance(configured, TournamentConfigured) and configured.report_kazans is True
    assert desk.state.report_kazans
    desk.do(Configure(name="Cup"))  # a change that does not name it leaves it as it is
    assert desk.state.report_kazans
    desk.do(Configure(report_kazans=False))
    assert not desk.state.report_kazans
    assert replay(desk.log) == desk.state


def test_players_agree_on_result_and_kazans_and_the_confirmation_records_the_kazans() -> None:
    desk = _kazans_desk(6)
    _report(desk, 1, True, "1-0", (90, 50))
    _report(desk, 1, False, "1-0", (90, 50))
    _report(desk, 2, True, "½-½", (81, 81))
    _report(desk, 2, False, "½-½", (81, 81))
    reports = board_reports(desk.state, 1, 1)
    assert reports.agreement is Agreement.AGREED and reports.agreed_kazans == (90, 50)
    assert desk.state.t.round(1).game(1).kazans is None  # not counted until confirmed
    desk.do(ConfirmRound(round=1))
    first, second = desk.state.t.round(1).game(1), desk.state.t.round(1).game(2)
    assert (first.result, first.kazans) == (GameResult.WHITE_WINS, (90, 50))
    assert (second.result, second.kazans) == (GameResult.DRAW, (81, 81))
    assert desk.state.origin(1, 1).source is ResultSource.PLAYERS
    # The audit log keeps the kazans of every report and of the confirmed results.
    reported = [line.params for line in desk.state.audit if line.action == "result_reported"]
    assert [params["kazans"] for params in reported] == ["90:50", "90:50", "81:81", "81:81"]
    entered = [line.params for line in desk.state.audit if line.action == "result_entered"]
    assert [params["kazans"] for params in entered] == ["90:50", "81:81"]
    assert replay(desk.log) == desk.state


def test_a_disagreement_on_the_kazans_alone_flags_the_board_for_the_arbiter() -> None:
    desk = _kazans_desk(4)
    _report(desk, 1, True, "1-0", (90, 50))
    _report(desk, 1, False, "1-0", (88, 50))
    reports = board_reports(desk.state, 1, 1)
    assert reports.agreement is Agreement.DISAGREED and reports.only_kazans_differ
    assert reports.agreed is None and reports.agreed_kazans is None
    assert disagreements(desk.state, 1) == [1] and to_confirm(desk.state, 1) == []
    desk.refused(ConfirmRound(round=1), Code.NOTHING_TO_CONFIRM, round=1)
    # A different result is a disagreement too, and not "only the kazans".
    _report(desk, 2, True, "1-0", (90, 50))
    _report(desk, 2, False, "0-1", (50, 90))
    assert not board_reports(desk.state, 1, 2).only_kazans_differ
    assert disagreements(desk.state, 1) == [1, 2]
    # The player corrects the kazans: now they agree and the arbiter can confirm.
    _report(desk, 1, False, "1-0", (90, 50))
    assert board_reports(desk.state, 1, 1).agreement is Agreement.AGREED
    desk.do(ConfirmRound(round=1))
    assert desk.state.t.round(1).game(1).kazans == (90, 50)
    assert desk.state.t.round(1).game(2).result is None  # the arbiter enters it, with the kazans
    desk.do(EnterResult(round=1, board=2, result="1-0", kazans=(90, 60)))
    assert desk.state.t.round(1).game(2).kazans == (90, 60)


def test_kazans_out_of_range_or_against_the_result_are_refused_with_the_arbiters_checks() -> None:
    desk = _kazans_desk(4)
    game = desk.state.t.round(1).game(1)

    def refused(given: str, kazans: tuple[int, int] | None, code: RefusalCode, **params: ParamValue) -> None:
        command = ReportResult(round=1, board=1, number=game.white, result=given, kazans=kazans)
        _player_refused(desk, game.white, command, code, **params)

    refused("1-0", (100, 90), Code.IMPOSSIBLE_KAZANS, round=1, board=1, white=100, black=90)
    refused("1-0", (-1, 90), Code.IMPOSSIBLE_KAZANS, white=-1, black=90)
    refused("1-0", (40, 90), Code.KAZANS_CONTRADICT_RESULT, round=1, board=1, white=40, black=90, result="1-0")
    refused("½-½", (82, 70), Code.KAZANS_CONTRADICT_RESULT, result="½-½")
    refused("+ −", (1, 0), Code.FORFEIT_HAS_NO_KAZANS, round=1, board=1)
    refused("1-0", None, Common.FIELD_REQUIRED, field="kazans")  # asked for: a game played out gives them
    # The same checks as the arbiter's entry: the arbiter is refused the same kazans with the same codes.
    desk.refused(EnterResult(round=1, board=1, result="1-0", kazans=(100, 90)), Code.IMPOSSIBLE_KAZANS)
    desk.refused(EnterResult(round=1, board=1, result="1-0", kazans=(40, 90)), Code.KAZANS_CONTRADICT_RESULT)
    # A command read from JSON is bounded by its fields (0–162 each) before the journal sees it.
    with pytest.raises(Refused) as raised:
        COMMANDS.read("report_result", {"round": 1, "board": 1, "number": 1, "result": "1-0", "kazans": [163, 0]})
    assert raised.value.code == Common.FIELD_TOO_LARGE.value and raised.value.refusal.params["field"] == "kazans[0]"
    assert not desk.state.reports  # nothing refused was recorded
    # 162 in all, and the boundaries, are fine; the same report twice is one event, other kazans a new one.
    _report(desk, 1, True, "1-0", (162, 0))
    before = len(desk.log)
    _report(desk, 1, True, "1-0", (162, 0))
    assert len(desk.log) == before
    _report(desk, 1, True, "1-0", (82, 80))
    assert len(desk.log) == before + 1
    assert board_reports(desk.state, 1, 1).white.kazans == (82, 80)  # type: ignore[union-attr]
