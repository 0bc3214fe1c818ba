"""PlayOK PGN with clock times, and the printable score sheet."""

from __future__ import annotations

import io
import re
from itertools import islice
from pathlib import Path

from toreshi.clock import CLASSICAL_40_2H_1H, CLASSICAL_60, TimeControl, minutes, seconds
from toreshi.togyz import BLACK, WHITE, Termination
from toreshi.togyz.match.export import SheetMove, format_clock, pgn_time_control, score_sheet, to_pgn
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.pgn import read_game, read_games
from toreshi.togyz.replay import replay

from .game_fixtures import find_playout, new_game, play, started


def _atsyz_game() -> list[int]:
    return find_playout(lambda _, pos: (o := pos.outcome()) is not None and o.termination is Termination.ATSYZ)


def test_pgn_reads_back_with_the_same_moves_result_and_clocks() -> None:
    holes = _atsyz_game()
    game, _ = play(started(TimeControl.sudden_death(minutes(20))), holes, at=0, step=1_500)
    text = to_pgn(game.state, {"Event": "Club", "Date": "2026.11.30", "Round": "3"})
    record = read_game(io.StringIO(text))
    assert record is not None and not record.errors
    assert [move.hole for move in record.moves] == holes
    assert [str(move) for move in record.moves] == [ply.token for ply in game.state.plies]
    assert game.state.result is not None
    assert record.result == game.state.result.value == record.headers["Result"]
    assert record.headers["TimeControl"] == "1200" and record.headers["Round"] == "3"
    assert record.comments[-1] == "zero"
    clocks = [c for c in record.comments if c.startswith("[%clk")]
    pressed = [ply for ply in game.state.plies if ply.clock_after_ms is not None]
    assert clocks == [f"[%clk {format_clock(ply.clock_after_ms or 0)}]" for ply in pressed]
    assert len(pressed) == len(holes) - 1  # the move that ended the game stops the clock without a press
    # The rules engine's own replay of the exported record agrees with the live game.
    checked = replay(record)
    assert checked.ok and checked.position == game.state.board and checked.result == record.result


def test_pgn_of_a_forfeit_and_a_draw_offer() -> None:
    game = new_game(CLASSICAL_60).start(now_ms=0, absent=[BLACK]).declare_default(now_ms=minutes(31))
    text = to_pgn(game.state)
    assert '[Result "1-0"]' in text and '[Forfeit "+-"]' in text and '[Termination "forfeit"]' in text
    offered = started().move(WHITE, 7, now_ms=1_000, offer_draw=True).accept_draw(BLACK, now_ms=2_000)
    text = to_pgn(offered.state)
    assert re.search(r"1\. 76\(10\) \{\[%clk 0:06:59\]\} \{=\} 1/2-1/2", text)
    assert '[Termination "agreement"]' in text


def test_pgn_time_control_tags() -> None:
    assert pgn_time_control(CLASSICAL_40_2H_1H) == "40/7200:3600"
    assert pgn_time_control(TimeControl.sudden_death(minutes(3), increment_ms=seconds(2))) == "180+2"
    assert pgn_time_control(TimeControl.sudden_death(minutes(5), delay_ms=seconds(5))) == "300d5"
    assert format_clock(0) == "0:00:00" and format_clock(minutes(135) + 999) == "2:15:00"


def test_score_sheet_has_the_columns_marks_result_and_signatures() -> None:
    g = MatchGame.create("Abay", "Bolat", CLASSICAL_60, now_ms=0, event="Club cup", round="3", board=2).start(now_ms=0)
    g = g.move(WHITE, 7, now_ms=1_000, offer_draw=True).move(BLACK, 9, now_ms=2_000).move(WHITE, 1, now_ms=2_500)
    g = g.resign(WHITE, now_ms=3_000).sign(BLACK, now_ms=4_000)
    sheet = score_sheet(g.state)
    third = g.state.plies[2].token
    assert sheet.moves == (SheetMove(1, "76(10)", "98", white_offer=True), SheetMove(2, third, ""))
    assert (sheet.event, sheet.round, sheet.board) == ("Club cup", "3", 2)
    assert sheet.result is GameResult.BLACK_WINS and sheet.kept and sheet.signed == (False, True)
    assert '[Event "Club cup"]' in to_pgn(g.state) and '[Round "3"]' in to_pgn(g.state)


def test_no_score_sheet_is_kept_in_blitz_and_rapid_but_the_record_is() -> None:
    # TK-B2: the sheet of a blitz game is the record only (nobody signs it); the moves are all there.
    g = new_game().start(now_ms=0).move(WHITE, 7, now_ms=1_000).resign(BLACK, now_ms=2_000)
    sheet = score_sheet(g.state)
    assert not sheet.kept and sheet.moves == (SheetMove(1, "76(10)", ""),)


def test_playok_games_replayed_live_export_to_the_same_movetext(shared_data: Path) -> None:
    # Real records: each of the first PlayOK games is played through a live game with its own time control, and
    # the exported PGN carries exactly the moves and annotations PlayOK wrote.
    path = shared_data / "togyz" / "playok-2024-2025.pgn"
    with path.open(encoding="utf-8") as handle:
        records = list(islice(read_games(handle), 150))
    board_endings = 0
    for record in records:
        control = TimeControl.sudden_death(seconds(int(record.headers["TimeControl"])))
        game = MatchGame.create(record.headers["White"], record.headers["Black"], control, now_ms=0).start(now_ms=0)
        game, _ = play(game, [move.hole for move in record.moves], at=0, step=100)
        exported = read_game(io.StringIO(to_pgn(game.state, {"Event": record.headers["Event"]})))
        assert exported is not None and not exported.errors
        assert [str(move) for move in exported.moves] == [str(move) for move in record.moves]
        if game.state.is_over:
            board_endings += 1
            assert exported.result == record.result
            assert ("zero" in exported.comments) == ("zero" in record.comments)
        else:
            assert exported.result == "*"
    assert board_endings > 50
