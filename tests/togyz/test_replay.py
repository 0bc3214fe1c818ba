from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from toreshi.togyz import BLACK, WHITE, Position, Termination
from toreshi.togyz.pgn import read_game, read_games
from toreshi.togyz.replay import Replay, replay

from .test_pgn import GAME_1

# Kazakhstan championship 2022, Kabiyev N. – Kaiyrzhanov A. (rules §9.2), with the booklet's Cyrillic х.
KZ_2022 = """[White "Kabiyev N."]
[Black "Kaiyrzhanov A."]
[Result "1-0"]

1. 76 98   2. 66 87   3. 12 76   4. 25 78   5. 48 36х
6. 94 16   7. 84 82   8. 91х 97  9. 18 26  10. 91 23
11. 78 89 12. 81 63  13. 55 23  14. 78 31  15. 36 54
16. 27 77 17. 47 23  18. 93 23  19. 45 84  20. 14 98
21. 12 23 22. 31 47   Result 1-0
"""


def _replay(text: str) -> Replay:
    game = read_game(io.StringIO(text))
    assert game is not None
    return replay(game)


def test_playok_game_1_facts() -> None:
    report = _replay(GAME_1)
    assert report.ok and report.plies == 92
    pos = report.position
    assert (pos.tuzdyk(WHITE), pos.tuzdyk(BLACK)) == (8, 1)
    assert pos.kazans == (30, 65) and pos.turn is WHITE
    assert pos.holes(WHITE) == (0,) * 9
    assert pos.holes(BLACK) == (0, 1, 1, 3, 30, 24, 4, 0, 4)
    assert report.outcome is not None and report.outcome.termination is Termination.ATSYZ
    assert report.score == (30, 132) and report.result == "0-1"


def _booklet_row(cells: str) -> list[str]:
    return cells.split()


def _as_booklet(pos: Position) -> tuple[list[str], list[str]]:
    def cell(side: int, hole: int, count: int) -> str:
        if pos.tuzdyk(BLACK if side == WHITE else WHITE) == hole:
            return "Х"
        return str(count) if count else "-"

    black = [cell(BLACK, hole, count) for hole, count in enumerate(pos.holes(BLACK), 1)][::-1]
    white = [cell(WHITE, hole, count) for hole, count in enumerate(pos.holes(WHITE), 1)]
    return black, white


@pytest.mark.parametrize(
    ("move", "black_kazan", "black_row", "white_row", "white_kazan"),
    [
        (10, 24, "1 1 5 7 6 18 6 - Х", "1 2 20 7 19 Х 1 2 -", 42),
        (20, 41, "1 1 - 6 2 22 6 1 Х", "2 5 8 3 9 Х 5 - 1", 49),
        (22, 43, "2 2 2 8 4 2 8 1 Х", "2 7 2 5 11 Х 7 2 3", 51),
    ],
)
def test_kazakhstan_2022_reproduces_the_booklet_diagrams(
    move: int, black_kazan: int, black_row: str, white_row: str, white_kazan: int
) -> None:
    game = read_game(io.StringIO(KZ_2022))
    assert game is not None
    game.moves = game.moves[: 2 * move]
    report = replay(game)
    assert report.ok
    assert _as_booklet(report.position) == (_booklet_row(black_row), _booklet_row(white_row))
    assert report.position.kazans == (white_kazan, black_kazan)


def test_kazakhstan_2022_result_comes_from_off_the_board() -> None:
    report = _replay(KZ_2022)
    assert report.ok and report.plies == 44
    assert report.outcome is None and report.result is None  # the 1-0 was decided off the board


@pytest.mark.parametrize(
    ("movetext", "ply", "expected"),
    [
        ("1. 75(10)", 1, "lands in hole 6, not 5"),
        ("1. 76(11)", 1, "kazan after the capture is 10, not 11"),
        ("1. 19X", 1, "'X' is written but the move creates no tuzdyk"),
        ("1. 76(10) 66", 2, "hole 6 is empty"),
        ("1. 19(9)", 1, "claims a capture but the move captures nothing"),
    ],
)
def test_invalid_records_name_the_ply_and_what_was_expected(movetext: str, ply: int, expected: str) -> None:
    report = _replay(movetext + " *")
    assert not report.ok and report.error is not None
    assert report.error.ply == ply
    assert str(report.error).startswith(f"ply {ply} (")
    assert expected in str(report.error)
    assert report.plies == ply - 1


def test_a_missing_tuzdyk_mark_is_a_mismatch() -> None:
    text = GAME_1.replace("4. 68X", "4. 68")
    report = _replay(text)
    assert report.error is not None and report.error.ply == 7
    assert "creates a tuzdyk on hole 8 but 'X' is missing" in str(report.error)


def test_a_move_after_the_end_is_refused() -> None:
    report = _replay(GAME_1.replace("0-1 {zero}", "12 0-1"))
    assert report.error is not None and report.error.ply == 93
    assert "already ended (atsyz, 30:132" in str(report.error)


def test_a_false_atsyz_mark_or_result_is_reported() -> None:
    assert "marks atsyz" in str(_replay("1. 76(10) 1-0 {zero}").error)
    assert "written 1-0 but the board gives 0-1" in str(_replay(GAME_1.replace("0-1 {zero}", "1-0 {zero}")).error)


def test_every_corpus_game_replays_with_its_annotations_confirmed(shared_data: Path) -> None:
    """All 2,398 PlayOK games: every landing digit, X and (n) confirmed; the corpus facts of rules §9 hold."""
    endings: Counter[str] = Counter()
    plies = tuzdyks = 0
    with (shared_data / "togyz" / "playok-2024-2025.pgn").open(encoding="utf-8", newline="") as handle:
        for game in read_games(handle):
            report = replay(game)
            assert report.ok, f"{game.headers}: {report.error}"
            assert report.position.total() == 162
            plies += report.plies
            tuzdyks += sum(move.tuzdyk for move in game.moves)
            if report.outcome is None:
                endings["off the board"] += 1
            elif report.outcome.termination is Termination.KAZAN:
                endings["kazan"] += 1
            else:
                endings["atsyz draw" if report.outcome.winner is None else "atsyz loss"] += 1
                assert "zero" in game.comments
    assert plies == 222_045
    assert tuzdyks == 3_474
    assert endings == {"kazan": 531, "atsyz loss": 603, "atsyz draw": 43, "off the board": 1_221}
