"""Scenario tests of the live game, one or more per regulation clause (see docs/traceability.md)."""

from __future__ import annotations

import pytest

from toreshi.clock import BLITZ, CLASSICAL_40_2H_1H, CLASSICAL_60, ClockState, TimeControl, minutes
from toreshi.kit.refusal import Common
from toreshi.togyz import BLACK, WHITE, Position, Termination
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.events import Actor, ClockPressed, MovePlayed
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings, StartMode
from toreshi.togyz.match.state import EndNote, GameStatus

from .game_fixtures import find_playout, new_game, play, refusal, started

# --- start and clocks --------------------------------------------------------------------------------


def test_round_start_runs_the_bastaushy_clock() -> None:
    # TK-C5: when the round is announced, the бастаушы's clock starts.
    game = started(at=5_000)
    assert game.state.status is GameStatus.LIVE
    assert game.state.clock.running_side is WHITE
    assert game.state.clock.remaining(WHITE, 65_000) == minutes(7) - minutes(1)


def test_arbiter_starts_blitz_when_both_are_ready() -> None:
    # TK-B4: one arbiter per pair starts the clock once both players are ready (and have checked the set-up).
    game = new_game(settings=GameSettings(start_mode=StartMode.WHEN_READY))
    assert refusal(lambda: game.start(now_ms=0, absent=[BLACK])) == (TogyzCode.START_WHEN_READY, {"clause": "TK-B4"})
    game = game.confirm_setup(WHITE, now_ms=5).confirm_setup(BLACK, now_ms=6)
    assert game.start(now_ms=10).state.clock.running_side is WHITE


def test_both_players_check_the_setup_before_the_start_and_cannot_complain_after() -> None:
    # TK-B5: players check the starting set-up before the game; no complaint about it is accepted after the start.
    game = new_game(settings=GameSettings(start_mode=StartMode.WHEN_READY))
    assert refusal(lambda: game.start(now_ms=1)) == (
        TogyzCode.SETUP_NOT_CONFIRMED,
        {"player": "Abay", "clause": "TK-B5"},
    )
    game = game.confirm_setup(WHITE, now_ms=2)
    assert refusal(lambda: game.confirm_setup(WHITE, now_ms=3)) == (
        TogyzCode.SETUP_ALREADY_CONFIRMED,
        {"player": "Abay"},
    )
    assert refusal(lambda: game.start(now_ms=3)) == (
        TogyzCode.SETUP_NOT_CONFIRMED,
        {"player": "Bolat", "clause": "TK-B5"},
    )
    # A fault found before the start: it is put right and both check again.
    complained = game.complain_setup(BLACK, now_ms=4)
    assert complained.state.setup_confirmed == frozenset() and complained.state.setup_complaints == ((BLACK, 4),)
    ready = complained.confirm_setup(BLACK, now_ms=5).confirm_setup(WHITE, now_ms=6)
    live = ready.start(now_ms=7)
    assert live.state.status is GameStatus.LIVE
    assert refusal(lambda: live.complain_setup(BLACK, now_ms=8)) == (
        TogyzCode.SETUP_COMPLAINT_TOO_LATE,
        {"clause": "TK-B5"},
    )
    assert refusal(lambda: live.confirm_setup(BLACK, now_ms=8))[0] is TogyzCode.SETUP_COMPLAINT_TOO_LATE
    # At the round start (classical) the clock runs without waiting; the set-up still cannot be complained of after.
    assert refusal(lambda: started().complain_setup(WHITE, now_ms=10))[0] is TogyzCode.SETUP_COMPLAINT_TOO_LATE
    assert MatchGame.replay(live.events).state == live.state


def test_moves_only_by_the_player_to_move() -> None:
    game = started()
    assert refusal(lambda: game.move(BLACK, 1, now_ms=100)) == (
        TogyzCode.NOT_YOUR_TURN,
        {"player": "Bolat", "to_move": "Abay"},
    )
    assert refusal(lambda: new_game().move(WHITE, 1, now_ms=100)) == (TogyzCode.NOT_STARTED, {})
    game = game.move(WHITE, 7, now_ms=100)
    assert refusal(lambda: game.move(WHITE, 7, now_ms=200)) == (
        TogyzCode.NOT_YOUR_TURN,
        {"player": "Abay", "to_move": "Bolat"},
    )


def test_press_only_after_own_move() -> None:
    # TK-C7: after moving the player stops their own clock and starts the opponent's.
    # TK-C9: a player may not start the opponent's clock without having made a move.
    game = started()
    assert refusal(lambda: game.press(WHITE, now_ms=100)) == (
        TogyzCode.PRESS_WITHOUT_MOVE,
        {"player": "Abay", "opponent": "Bolat", "clause": "TK-C9"},
    )
    assert refusal(lambda: game.press(BLACK, now_ms=100)) == (
        TogyzCode.NOT_YOUR_CLOCK,
        {"player": "Bolat", "opponent": "Abay"},
    )
    game = game.move(WHITE, 7, now_ms=3_000, press=False)
    assert game.state.clock.running_side is WHITE and game.state.move_pending
    game = game.press(WHITE, now_ms=4_000)
    assert game.state.clock.running_side is BLACK
    assert game.state.plies[0].clock_after_ms == minutes(7) - 4_000


def test_a_player_moves_only_after_the_opponent_pressed() -> None:
    # TK-C17: a player moves only after the opponent has pressed the clock.
    game = started().move(WHITE, 7, now_ms=1_000, press=False)
    assert refusal(lambda: game.move(BLACK, 9, now_ms=1_500)) == (
        TogyzCode.OPPONENT_MUST_PRESS,
        {"player": "Bolat", "opponent": "Abay", "clause": "TK-C17"},
    )


def test_score_sheet_may_stop_with_five_minutes_left() -> None:
    # TK-C17: when 5 minutes remain of a player's time, the player may stop keeping the score sheet.
    assert not new_game().state.score_sheet_optional(WHITE, 0)
    game = started(BLITZ)
    assert not game.state.score_sheet_optional(WHITE, minutes(2) - 1)
    assert game.state.score_sheet_optional(WHITE, minutes(2))
    assert not game.state.score_sheet_optional(BLACK, minutes(2))


def test_illegal_move_is_refused_and_changes_nothing() -> None:
    game = started()
    assert refusal(lambda: game.move(WHITE, 10, now_ms=100)) == (TogyzCode.NO_SUCH_HOLE, {"hole": 10})
    assert len(game.events) == 2 and game.state.board == Position()


def test_time_never_goes_backwards_in_the_log() -> None:
    game = started(at=1_000)
    with pytest.raises(ValueError, match="time went backwards"):
        game.move(WHITE, 7, now_ms=999)


# --- endings and results -------------------------------------------------------------------------------


def test_board_win_with_82_ends_the_game() -> None:
    # TK-R1: the game is played until a kazan holds more than 81; TK-R3 (a).
    holes = find_playout(lambda _, pos: (o := pos.outcome()) is not None and o.termination is Termination.KAZAN)
    game, at = play(started(CLASSICAL_60), holes, at=0, step=10)
    outcome = Position()
    for hole in holes:
        outcome.push(hole)
    expected = outcome.outcome()
    assert expected is not None and expected.winner is not None
    assert game.state.is_over and game.state.result is GameResult.win_for(expected.winner)
    assert game.state.ending is not None and game.state.ending.termination is Termination.KAZAN
    assert max(game.state.board.kazans) >= 82
    assert game.state.clock.state is ClockState.STOPPED and game.state.clock.running_side is None
    assert refusal(lambda: game.resign(WHITE, now_ms=at + 1)) == (
        TogyzCode.GAME_OVER,
        {"result": game.state.result.symbol},
    )


def test_81_all_is_a_draw() -> None:
    # TK-R5: both kazans hold 81 at the end of the game: a draw; TK-R3 (b), (c).
    def drawn(_: list[int], pos: Position) -> bool:
        outcome = pos.outcome()
        return outcome is not None and outcome.winner is None

    holes = find_playout(drawn)
    game, _ = play(started(CLASSICAL_60), holes, at=0, step=10)
    assert game.state.result is GameResult.DRAW and game.state.result.points == (0.5, 0.5)
    assert game.state.ending is not None and game.state.ending.termination is Termination.ATSYZ


def test_points_of_each_result() -> None:
    # TK-R2: win 1, loss 0, draw 0.5 each; TK-R4: (+) is worth 1 point.
    assert GameResult.WHITE_WINS.points == (1.0, 0.0) and GameResult.BLACK_WINS.points == (0.0, 1.0)
    assert GameResult.DRAW.points == (0.5, 0.5)
    assert GameResult.WHITE_FORFEIT_WIN.points == (1.0, 0.0) and GameResult.BLACK_FORFEIT_WIN.points == (0.0, 1.0)
    assert GameResult.DOUBLE_FORFEIT.points == (0.0, 0.0)
    assert GameResult.BLACK_FORFEIT_WIN.winner is BLACK and GameResult.DRAW.winner is None


def test_resignation() -> None:
    # TK-R3 (d).
    game = started().move(WHITE, 7, now_ms=1_000).resign(WHITE, now_ms=2_000)
    assert game.state.result is GameResult.BLACK_WINS
    assert game.state.ending is not None and game.state.ending.termination is Termination.RESIGNATION
    assert (game.state.ending.note, game.state.ending.side) == (EndNote.RESIGNED, WHITE)
    assert refusal(lambda: game.move(BLACK, 1, now_ms=3_000)) == (TogyzCode.GAME_OVER, {"result": "0–1"})


def test_arbiter_decision_ends_the_game() -> None:
    # TK-R3 (g): the arbiters decide.
    game = started()
    assert refusal(lambda: game.decide(GameResult.BLACK_WINS, " ", now_ms=10)) == (TogyzCode.DECISION_NEEDS_REASON, {})
    game = game.decide(GameResult.BLACK_WINS, "disqualified", now_ms=10)
    assert game.state.result is GameResult.BLACK_WINS
    assert game.state.ending is not None and game.state.ending.termination is Termination.ARBITER


# --- draw offers -------------------------------------------------------------------------------------


def test_draw_offer_between_move_and_press_is_marked() -> None:
    # TK-R8: the offer is made after one's own move and before pressing the clock; the record shows "=".
    game = started()
    assert refusal(lambda: game.offer_draw(WHITE, now_ms=100)) == (
        TogyzCode.DRAW_OFFER_TIMING,
        {"player": "Abay", "clause": "TK-R8"},
    )
    game = game.move(WHITE, 7, now_ms=1_000, press=False).offer_draw(WHITE, now_ms=1_100).press(WHITE, now_ms=1_200)
    assert game.state.plies[0].draw_offered and game.state.draw_offer is WHITE
    assert refusal(lambda: game.offer_draw(WHITE, now_ms=1_300)) == (
        TogyzCode.DRAW_OFFER_TIMING,
        {"player": "Abay", "clause": "TK-R8"},
    )
    game = game.accept_draw(BLACK, now_ms=5_000)
    assert game.state.result is GameResult.DRAW
    assert game.state.ending is not None and game.state.ending.termination is Termination.AGREEMENT


def test_agreed_draw() -> None:
    # TK-R6: a draw by mutual agreement; TK-R3 (f).
    game = started().move(WHITE, 7, now_ms=1_000, offer_draw=True)
    assert refusal(lambda: game.accept_draw(WHITE, now_ms=2_000)) == (TogyzCode.NO_DRAW_OFFER, {"player": "Abay"})
    assert game.accept_draw(BLACK, now_ms=2_000).state.result is GameResult.DRAW


def test_one_draw_offer_per_player_per_game() -> None:
    # TK-R9: a player may offer a draw only once in a game.
    game = started().move(WHITE, 7, now_ms=1_000, offer_draw=True).decline_draw(BLACK, now_ms=1_500)
    assert game.state.draw_offer is None
    game = game.move(BLACK, 9, now_ms=2_000, offer_draw=True)
    game = game.move(WHITE, 1, now_ms=3_000, press=False)  # moving declines Black's offer
    assert game.state.draw_offer is None
    assert refusal(lambda: game.offer_draw(WHITE, now_ms=3_100)) == (
        TogyzCode.DRAW_ALREADY_OFFERED,
        {"player": "Abay", "clause": "TK-R9"},
    )
    assert refusal(lambda: game.press(WHITE, now_ms=3_200).decline_draw(BLACK, now_ms=3_300)) == (
        TogyzCode.NO_DRAW_OFFER,
        {"player": "Bolat"},
    )


# --- flags -------------------------------------------------------------------------------------------


def test_automatic_flag_fall_loses_below_81() -> None:
    # TK-B10: at 00:00 the clock announces the flag; TK-C12: fewer than 81 loses; TK-R3 (e).
    game = started(TimeControl.sudden_death(10_000))
    deadline = game.state.clock.flag_deadline_ms()
    assert deadline == 10_000
    assert game.tick(now_ms=9_999) is game
    assert refusal(lambda: game.resign(BLACK, now_ms=10_000)) == (TogyzCode.FLAG_FALLEN, {"player": "Abay"})
    game = game.tick(now_ms=10_000)
    assert game.state.result is GameResult.BLACK_WINS
    assert game.state.ending is not None and game.state.ending.termination is Termination.TIME_FORFEIT
    assert game.state.clock.remaining(WHITE, 10_000) == 0


def _game_with_81_to_move(flag_with_81_draws: bool) -> tuple[MatchGame, int]:
    def reaches_81(holes: list[int], _: Position) -> bool:
        pos = Position()
        for hole in holes:
            if pos.kazans[pos.turn] == 81:
                return True
            pos.push(hole)
        return False

    holes = find_playout(reaches_81)
    pos, prefix = Position(), []
    for hole in holes:
        if pos.kazans[pos.turn] == 81:
            break
        pos.push(hole)
        prefix.append(hole)
    settings = GameSettings(flag_with_81_draws=flag_with_81_draws)
    game, at = play(started(TimeControl.sudden_death(minutes(10)), settings), prefix, at=0, step=10)
    return game, at


def test_flag_with_exactly_81_is_a_draw_by_default() -> None:
    # TK-C12: with exactly 81 the flagged player cannot lose on the board: a draw (project default).
    game, _ = _game_with_81_to_move(True)
    side = game.state.board.turn
    assert game.state.board.kazans[side] == 81
    deadline = game.state.clock.flag_deadline_ms()
    assert deadline is not None
    game = game.tick(now_ms=deadline)
    assert game.state.result is GameResult.DRAW
    assert game.state.ending is not None and (game.state.ending.note, game.state.ending.side) == (EndNote.FLAG_81, side)


def test_flag_with_81_loses_when_configured() -> None:
    game, _ = _game_with_81_to_move(False)
    side = game.state.board.turn
    deadline = game.state.clock.flag_deadline_ms()
    assert deadline is not None
    assert game.tick(now_ms=deadline).state.result is GameResult.win_for(side.other)


def test_move_completed_after_the_flag_fell_that_reaches_82_wins() -> None:
    # TK-B8: the player whose flag falls while moving completes the move; TK-R7: with 82 or more they win.
    def mover_wins(holes: list[int], pos: Position) -> bool:
        outcome, last = pos.outcome(), pos.last_played()
        return (
            outcome is not None
            and last is not None
            and outcome.termination is Termination.KAZAN
            and outcome.winner is last.side
        )

    holes = find_playout(mover_wins)
    game, _ = play(started(TimeControl.sudden_death(minutes(10))), holes[:-1], at=0, step=10)
    winner = game.state.board.turn
    deadline = game.state.clock.flag_deadline_ms()
    assert deadline is not None
    game = game.move(winner, holes[-1], now_ms=deadline + 500)
    assert game.state.result is GameResult.win_for(winner)
    assert game.state.ending is not None and game.state.ending.termination is Termination.KAZAN


def test_move_completed_after_the_flag_without_82_still_loses_on_time() -> None:
    # TK-B8: the move is completed (and recorded), then the flag fall decides (TK-C12).
    game = started(TimeControl.sudden_death(10_000))
    game = game.move(WHITE, 7, now_ms=10_400)
    assert [type(event).__name__ for event in game.events[-2:]] == ["MovePlayed", "FlagFell"]
    assert game.state.plies[-1].token == "76(10)"
    assert game.state.result is GameResult.BLACK_WINS


def test_move_after_the_flag_refused_when_completion_is_off() -> None:
    game = started(TimeControl.sudden_death(10_000), GameSettings(complete_move_after_flag=False))
    assert refusal(lambda: game.move(WHITE, 7, now_ms=10_400)) == (TogyzCode.FLAG_FALLEN, {"player": "Abay"})


def test_claim_mode_flag_counts_only_when_announced() -> None:
    # TK-B9: only the arbiter or one of the two players may announce a flag fall.
    from toreshi.clock.flag import FlagMode

    game = started(TimeControl.sudden_death(10_000), GameSettings(flag_mode=FlagMode.CLAIM))
    assert game.tick(now_ms=50_000) is game
    assert refusal(lambda: game.claim_flag(Actor.BLACK, now_ms=9_000)) == (
        TogyzCode.FLAG_NOT_FALLEN,
        {"player": "Abay"},
    )
    # Unclaimed, White plays on at 00:00 (no increment) and Black's clock runs.
    game = game.move(WHITE, 7, now_ms=12_000)
    assert game.state.clock.remaining(WHITE, 12_000) == 0 and not game.state.is_over
    game = game.claim_flag(Actor.BLACK, now_ms=13_000)
    assert game.state.result is GameResult.BLACK_WINS
    assert game.events[-1].by is Actor.BLACK  # type: ignore[attr-defined]


def test_flag_fall_records_the_required_moves_check() -> None:
    # TK-C13: at a flag fall the arbiter checks whether the required number of moves was made.
    game, _ = play(started(CLASSICAL_40_2H_1H), [7, 9, 1], at=0, step=1000)
    deadline = game.state.clock.flag_deadline_ms()
    assert deadline is not None and game.state.board.turn is BLACK
    game = game.tick(now_ms=deadline)
    check = game.state.flag_check
    assert check is not None
    assert (check.side, check.period, check.moves_required, check.moves_made) == (BLACK, 1, 40, 1)
    assert not check.required_moves_made and game.state.result is GameResult.WHITE_WINS


def test_both_flags_down_gives_five_more_minutes_each() -> None:
    # TK-C14: both flags down and nobody can tell which fell first: the arbiter may give 5 more minutes each.
    from toreshi.clock.flag import FlagMode

    game = started(TimeControl.sudden_death(10_000), GameSettings(flag_mode=FlagMode.CLAIM))
    assert refusal(lambda: game.extend_both_flags(now_ms=5_000)) == (
        TogyzCode.NOT_BOTH_FLAGS_DOWN,
        {"clause": "TK-C14"},
    )
    game = game.move(WHITE, 7, now_ms=11_000).move(BLACK, 9, now_ms=22_000)
    assert game.state.clock.is_out(WHITE, 22_000) and game.state.clock.is_out(BLACK, 22_000)
    assert refusal(lambda: game.claim_flag(Actor.ARBITER, now_ms=22_500, side=WHITE)) == (
        TogyzCode.BOTH_FLAGS_DOWN,
        {"clause": "TK-C14"},
    )
    assert refusal(lambda: game.claim_flag(Actor.ARBITER, now_ms=22_500)) == (TogyzCode.FLAGGED_SIDE_UNKNOWN, {})
    game = game.extend_both_flags(now_ms=23_000)
    assert game.state.clock.remaining(WHITE, 23_000) == minutes(5)
    assert game.state.clock.remaining(BLACK, 23_000) == minutes(5)


# --- stops and arbiter corrections -------------------------------------------------------------------


def test_player_stops_the_clock_and_a_groundless_stop_is_penalised() -> None:
    # TK-C15: a player may stop the clock to address the arbiter; a groundless request is penalised.
    game = started().pause(Actor.WHITE, now_ms=60_000)
    assert game.state.status is GameStatus.PAUSED and game.state.paused_by is Actor.WHITE
    assert game.state.clock.running_side is None
    assert refusal(lambda: game.move(WHITE, 7, now_ms=61_000)) == (TogyzCode.CLOCK_PAUSED, {})
    game = game.penalise_groundless_stop(WHITE, now_ms=90_000)
    assert game.state.clock.remaining(WHITE, 90_000) == minutes(7) - minutes(1) - minutes(2)
    assert game.resume(now_ms=100_000).state.clock.running_side is WHITE


def test_game_continues_after_a_stop_by_the_arbiter() -> None:
    # TK-C18: if the clock was stopped through an arbiter's mistake, the game continues.
    game = started().move(WHITE, 7, now_ms=10_000).pause(Actor.ARBITER, now_ms=20_000)
    assert refusal(lambda: game.pause(Actor.ARBITER, now_ms=21_000)) == (TogyzCode.CLOCK_PAUSED, {})
    game = game.resume(now_ms=500_000)
    assert game.state.clock.remaining(BLACK, 500_000) == minutes(7) - 10_000
    game = game.move(BLACK, 9, now_ms=505_000)
    assert game.state.clock.remaining(BLACK, 505_000) == minutes(7) - 15_000
    assert not game.state.is_over


def test_faulty_clock_replaced_by_setting_both_dials() -> None:
    # TK-C10: a faulty clock is replaced: the arbiter stops, sets both dials, restarts.
    game = started().move(WHITE, 7, now_ms=10_000).pause(Actor.ARBITER, now_ms=20_000)
    game = game.set_clocks(minutes(6), minutes(5), now_ms=30_000, reason="clock replaced").resume(now_ms=40_000)
    assert game.state.clock.remaining(WHITE, 50_000) == minutes(6)
    assert game.state.clock.remaining(BLACK, 50_000) == minutes(5) - 10_000


def test_clock_set_late_splits_the_remaining_control() -> None:
    # TK-C11: a clock set late gets the rest of the control split equally, at least 15 minutes each.
    game = started(CLASSICAL_60).set_late_clock(minutes(50), now_ms=1_000)
    assert game.state.clock.remaining(WHITE, 1_000) == minutes(35)
    assert game.state.clock.remaining(BLACK, 1_000) == minutes(35)
    game = started(CLASSICAL_60).set_late_clock(minutes(100), now_ms=1_000)
    assert game.state.clock.remaining(BLACK, 1_000) == minutes(15)


def test_arbiter_adds_extra_time() -> None:
    # TK-B3: extra time is at the arbiter's discretion.
    game = started(BLITZ).add_time(BLACK, minutes(1), now_ms=5_000, reason="extra time")
    assert game.state.clock.remaining(BLACK, 5_000) == minutes(8)


def test_taking_more_time_than_is_left_is_refused() -> None:
    # A typo (−99999 s) must not empty a dial: White would show 0:00 and lose on time at once.
    game = started(BLITZ)
    assert refusal(lambda: game.add_time(WHITE, -99_999_000, now_ms=60_000)) == (
        TogyzCode.TIME_BELOW_ZERO,
        {"player": "Abay", "remaining": "6:00", "taken": "27:46:39"},
    )
    emptied = game.add_time(WHITE, -minutes(6), now_ms=60_000)  # exactly what is left: allowed
    assert emptied.state.clock.remaining(WHITE, 60_000) == 0


# --- late arrival and default ------------------------------------------------------------------------


def test_late_bastaushy_loses_the_time_on_the_running_clock() -> None:
    # TK-C6: the time a player is late is taken from their thinking time.
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[WHITE])
    assert refusal(lambda: game.move(WHITE, 7, now_ms=1_000)) == (
        TogyzCode.NOT_ARRIVED,
        {"player": "Abay", "clause": "TK-C6"},
    )
    game = game.arrive(WHITE, now_ms=minutes(10))
    assert game.state.clock.remaining(WHITE, minutes(10)) == minutes(50)
    assert refusal(lambda: game.arrive(WHITE, now_ms=minutes(10))) == (TogyzCode.ALREADY_PRESENT, {"player": "Abay"})


def test_late_qostaushy_loses_the_time_since_the_round_start() -> None:
    # TK-C6: Black's dial did not run before White's first press, so that part is deducted on arrival.
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[BLACK]).move(WHITE, 7, now_ms=minutes(2))
    game = game.arrive(BLACK, now_ms=minutes(12))
    # 10 minutes ran on Black's own dial after White's press, 2 minutes are deducted for the time before it.
    assert game.state.clock.remaining(BLACK, minutes(12)) == minutes(48)


def test_more_than_30_minutes_late_loses_by_default() -> None:
    # TK-R4, TK-C6: more than 30 minutes late: (+) for the player present, (−) for the absent one.
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[BLACK])
    assert refusal(lambda: game.arrive(BLACK, now_ms=minutes(31))) == (
        TogyzCode.ARRIVED_TOO_LATE,
        {"player": "Bolat", "minutes": 31, "limit": 30, "clause": "TK-R4"},
    )
    assert refusal(lambda: game.declare_default(now_ms=minutes(30))) == (
        TogyzCode.DEFAULT_TOO_EARLY,
        {"minutes": 30, "limit": 30, "clause": "TK-R4"},
    )
    game = game.declare_default(now_ms=minutes(30) + 1)
    assert game.state.result is GameResult.WHITE_FORFEIT_WIN and game.state.result.symbol == "+ −"
    assert game.state.ending is not None and game.state.ending.termination is Termination.FORFEIT
    assert (game.state.ending.note, game.state.ending.side) == (EndNote.ABSENT, BLACK)


def test_both_absent_is_a_double_forfeit() -> None:
    # TK-R4 with both players absent: (−) (−).
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[WHITE, BLACK]).declare_default(now_ms=minutes(31))
    assert game.state.result is GameResult.DOUBLE_FORFEIT and game.state.result.points == (0.0, 0.0)
    assert game.state.ending is not None and (game.state.ending.note, game.state.ending.side) == (EndNote.ABSENT, None)
    present = started(CLASSICAL_60)
    assert refusal(lambda: present.declare_default(now_ms=minutes(31))) == (TogyzCode.NOBODY_ABSENT, {})


def test_absent_qostaushy_defaults() -> None:
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[WHITE]).declare_default(now_ms=minutes(45))
    assert game.state.result is GameResult.BLACK_FORFEIT_WIN


# --- postponement ------------------------------------------------------------------------------------


def test_postponed_game_starts_later() -> None:
    # TK-A1: the chief arbiters' board may postpone a game for a recognised reason.
    game = new_game()
    assert refusal(lambda: game.postpone("", now_ms=10)) == (TogyzCode.POSTPONEMENT_NEEDS_REASON, {"clause": "TK-A1"})
    game = game.postpone("doctor's appointment", now_ms=10)
    assert game.state.status is GameStatus.POSTPONED
    game = game.start(now_ms=86_400_000)
    assert game.state.status is GameStatus.LIVE
    assert refusal(lambda: game.postpone("again", now_ms=86_400_001)) == (TogyzCode.ALREADY_STARTED, {})


# --- signing and protests ----------------------------------------------------------------------------


def _finished(control: TimeControl = CLASSICAL_60) -> MatchGame:
    """A game over at 2 s; classical by default: score sheets are kept and signed (not in blitz, TK-B2)."""
    return started(control).move(WHITE, 7, now_ms=1_000).resign(BLACK, now_ms=2_000)


def test_unsigned_result_gives_a_warning_after_30_minutes() -> None:
    # TK-P9: a player who has not signed within 30 minutes and filed no protest receives a warning.
    game = _finished()
    assert refusal(lambda: started(CLASSICAL_60).sign(WHITE, now_ms=10)) == (TogyzCode.SIGN_BEFORE_END, {})
    game = game.sign(WHITE, now_ms=60_000)
    assert refusal(lambda: game.sign(WHITE, now_ms=61_000)) == (TogyzCode.ALREADY_SIGNED, {"player": "Abay"})
    assert game.state.unsigned_warnings(2_000 + minutes(30) - 1) == []
    assert game.state.unsigned_warnings(2_000 + minutes(30)) == [BLACK]
    late = game.sign(BLACK, now_ms=2_000 + minutes(40))
    assert late.state.unsigned_warnings(2_000 + minutes(40)) == [BLACK]
    protested = game.file_protest(BLACK, now_ms=2_000 + minutes(20))
    assert protested.state.unsigned_warnings(2_000 + minutes(40)) == []


def test_blitz_and_rapid_keep_no_score_sheets_so_nobody_signs_and_nobody_is_warned() -> None:
    # TK-B2: no score sheets in blitz and rapid; the record of the moves is kept all the same.
    for control in (BLITZ, TimeControl.sudden_death(minutes(20))):
        game = _finished(control)
        assert not game.state.keeps_score_sheets
        assert refusal(lambda game=game: game.sign(WHITE, now_ms=3_000)) == (  # type: ignore[misc]
            TogyzCode.NO_SCORE_SHEETS,
            {"clause": "TK-B2"},
        )
        assert game.state.unsigned_warnings(2_000 + minutes(31)) == []  # no TK-P9 warning
        assert [ply.token for ply in game.state.plies] == ["76(10)"]
    organiser_says_kept = started(BLITZ, GameSettings(score_sheets=True)).move(WHITE, 7, now_ms=1)
    organiser_says_kept = organiser_says_kept.resign(BLACK, now_ms=2)
    assert organiser_says_kept.state.unsigned_warnings(2 + minutes(31)) == [WHITE, BLACK]
    assert organiser_says_kept.sign(WHITE, now_ms=3).state.signed_at[WHITE] == 3
    assert not _finished(CLASSICAL_60).state.unsigned_warnings(2_000) and _finished().state.keeps_score_sheets


def test_one_protest_per_game_and_side() -> None:
    # Issue 13: a repeated protest is refused, never stored a second time (the tournament's desk decides it).
    game = _finished().file_protest(BLACK, now_ms=3_000)
    assert refusal(lambda: game.file_protest(BLACK, now_ms=4_000)) == (
        TogyzCode.PROTEST_ALREADY_FILED,
        {"player": "Bolat"},
    )
    assert len(game.file_protest(WHITE, now_ms=4_000).state.protests) == 2


def test_the_two_players_must_have_different_names() -> None:
    assert refusal(lambda: MatchGame.create("Асқар  Бек", "асқар бек", BLITZ, now_ms=0)) == (
        TogyzCode.SAME_NAMES,
        {"name": "Асқар  Бек"},
    )


def test_protest_after_signing_is_accepted_but_not_considered() -> None:
    # TK-P2: signatures mean the player acknowledged the result.
    game = _finished().sign(WHITE, now_ms=10_000).file_protest(WHITE, now_ms=20_000).file_protest(BLACK, now_ms=21_000)
    assert [(p.side, p.considered) for p in game.state.protests] == [(WHITE, False), (BLACK, True)]


def test_protest_window_is_30_minutes() -> None:
    # TK-P1: a protest is filed within 30 minutes after the end of the game.
    assert refusal(lambda: _finished().file_protest(WHITE, now_ms=2_000 + minutes(31))) == (
        TogyzCode.PROTEST_TOO_LATE,
        {"minutes": 31, "limit": 30, "clause": "TK-P1"},
    )
    assert refusal(lambda: started().file_protest(WHITE, now_ms=10)) == (TogyzCode.PROTEST_BEFORE_END, {})


# --- replay --------------------------------------------------------------------------------------------


def test_replay_rebuilds_state_and_clocks() -> None:
    game = started().move(WHITE, 7, now_ms=3_000, offer_draw=True).decline_draw(BLACK, now_ms=4_000)
    game = game.move(BLACK, 9, now_ms=9_000).pause(Actor.ARBITER, now_ms=10_000).resume(now_ms=20_000)
    again = MatchGame.replay(game.events)
    assert again.state == game.state and again.events == game.events
    assert MatchGame.from_dicts(game.to_dicts()).state == game.state


def test_a_corrupt_log_is_refused() -> None:
    game = started()
    assert refusal(lambda: MatchGame.replay([*game.events, MovePlayed(10, BLACK, 1)])) == (
        TogyzCode.NOT_YOUR_TURN,
        {"player": "Bolat", "to_move": "Abay"},
    )
    assert refusal(lambda: MatchGame.replay([*game.events, ClockPressed(10, WHITE)])) == (
        TogyzCode.PRESS_WITHOUT_MOVE,
        {"player": "Abay", "opponent": "Bolat", "clause": "TK-C9"},
    )
    with pytest.raises(ValueError, match="starts with game_created"):
        MatchGame.replay(game.events[1:])
    assert refusal(lambda: game.apply(game.events[0])) == (TogyzCode.ALREADY_CREATED, {})
    assert refusal(lambda: MatchGame.create(" ", "b", BLITZ, now_ms=0)) == (Common.FIELD_EMPTY, {"field": "white"})
