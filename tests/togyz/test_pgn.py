from __future__ import annotations

import io
from pathlib import Path

import pytest

from toreshi.togyz.notation import MoveToken
from toreshi.togyz.pgn import HeadersOnly, PgnGame, Visitor, read_game, read_games, write_game

GAME_1 = """[Event "9245757"]
[Site "PlayOK"]
[Date "2024.12.26"]
[Round "1"]
[White "abeke93"]
[Black "maks95"]
[Result "0-1"]
[Time "13:35:05"]
[TimeControl "600"]
[WhiteElo "1200"]
[BlackElo "1172"]

1. 87(10) 87(10) 2. 22 99(22) 3. 23 12(24) 4. 68X 25 5. 79
36(26) 6. 78 93(42) 7. 16 49(46) 8. 86 91X 9. 41 91 10. 53
16 11. 92 74(55) 12. 36 92(64) 13. 81 13 14. 89 29 15.
92(22) 49 16. 34 31 17. 91 34 18. 71(28) 46 19. 61 12 20.
56 23 21. 56 34 22. 78 45 23. 81 45 24. 92 23 25. 68 34 26.
78 12 27. 81(30) 23 28. 91 12 29. 91 12 30. 89 45 31. 91 34
32. 45 45 33. 78 23 34. 56 12 35. 45 23 36. 56 23 37. 68 35
38. 78 45 39. 81 34 40. 89 12 41. 91 12 42. 91 12 43. 67 24
44. 78 23 45. 89 34 46. 91 12 0-1 {zero}
"""


def test_reads_playok_game_1_with_line_breaks_anywhere() -> None:
    game = read_game(io.StringIO(GAME_1))
    assert game is not None
    assert game.errors == []
    assert game.headers["TimeControl"] == "600"
    assert len(game.moves) == 92
    assert game.moves[28] == MoveToken(9, 2, kazan=22)  # "15." ends one line, "92(22)" starts the next
    assert game.moves[6] == MoveToken(6, 8, tuzdyk=True)
    assert (game.result, game.comments) == ("0-1", ["zero"])


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_any_line_ending(newline: str) -> None:
    text = GAME_1.replace("\n", newline) * 2
    games = list(read_games(io.StringIO(text, newline="")))
    assert [len(game.moves) for game in games] == [92, 92]


def test_a_bad_game_does_not_stop_the_file_and_its_errors_are_collected() -> None:
    text = '[White "bad"]\n\n1. 76(10) 0x 2. 12 1-0\n\n' + GAME_1
    first, second = read_games(io.StringIO(text))
    assert [str(move) for move in first.moves] == ["76(10)"]
    assert len(first.errors) == 1
    assert first.errors[0].ply == 2 and first.errors[0].line == 3
    assert "hole played must be a digit 1-9" in str(first.errors[0])
    assert second.errors == [] and len(second.moves) == 92


def test_reader_reports_odd_structure() -> None:
    text = '[White "x"]\n[Broken tag\n\n1. 76 2. 12 1-0 87\n'
    (game,) = read_games(io.StringIO(text))
    messages = [str(error) for error in game.errors]
    assert any("unreadable tag pair" in message for message in messages)
    assert any("move number 2. where 1. was expected" in message for message in messages)
    assert any("'87' after the result" in message for message in messages)


def test_read_game_can_be_called_repeatedly_on_a_seekable_stream() -> None:
    handle = io.StringIO(GAME_1 + "\n" + GAME_1.replace("abeke93", "second"))
    first, second, third = read_game(handle), read_game(handle), read_game(handle)
    assert first is not None and second is not None and third is None
    assert second.headers["White"] == "second"


def test_headers_only_visitor_skips_the_movetext() -> None:
    (headers,) = read_games(io.StringIO(GAME_1), HeadersOnly)
    assert headers["White"] == "abeke93"


def test_custom_visitor_sees_moves_in_order() -> None:
    class CountTuzdyks(Visitor[int]):
        def begin_game(self) -> None:
            self.count = 0

        def visit_move(self, move: MoveToken, ply: int) -> None:
            self.count += move.tuzdyk

        def result(self) -> int:
            return self.count

    assert list(read_games(io.StringIO(GAME_1), CountTuzdyks)) == [2]


def test_writer_round_trip_keeps_moves_annotations_and_tags() -> None:
    game = read_game(io.StringIO(GAME_1))
    assert game is not None
    again = read_game(io.StringIO(write_game(game)))
    assert again == game


def test_writer_escapes_tag_values() -> None:
    game = PgnGame(headers={"White": 'Ким "Ақ"'}, moves=[MoveToken(7, 6, kazan=10)], result="*")
    again = read_game(io.StringIO(write_game(game)))
    assert again is not None and again.headers["White"] == 'Ким "Ақ"'


def test_corpus_round_trip(shared_data: Path) -> None:
    """Every game of the PlayOK file reads, writes and reads back to the same moves and annotations."""
    with (shared_data / "togyz" / "playok-2024-2025.pgn").open(encoding="utf-8", newline="") as handle:
        games = list(read_games(handle))
    assert len(games) == 2398
    text = "".join(write_game(game) for game in games)
    assert list(read_games(io.StringIO(text))) == games
