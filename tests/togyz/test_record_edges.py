"""The edges of reading and writing records and admitting commands: what a message quotes from hostile input is
clipped, clocks are written h:mm:ss, an unnamed round is "-", and before a game exists only the arbiter's create is
admitted."""

from __future__ import annotations

import io

import pytest

from toreshi.clock import BLITZ
from toreshi.kit.refusal import Common, Refusal
from toreshi.togyz.fen import STARTING_FEN, InvalidFenError, from_fen
from toreshi.togyz.match import core
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.export import format_clock, to_pgn
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.pgn import read_game, write_game


@pytest.mark.parametrize(
    ("ms", "shown"),
    [(999, "0:00:00"), (59_999, "0:00:59"), (61_000, "0:01:01"), (3_599_999, "0:59:59"), (36_061_000, "10:01:01")],
)
def test_a_clock_is_written_hours_minutes_seconds_rounded_down(ms: int, shown: str) -> None:
    assert format_clock(ms) == shown


def test_an_unreadable_fen_token_is_quoted_up_to_20_characters() -> None:
    token = "7" * 30 + "Q"
    with pytest.raises(InvalidFenError) as caught:
        from_fen(STARTING_FEN.replace("9S,9S/", f"9S,{token}/", 1))
    assert str(caught.value).endswith(f"unreadable token {token[:20]!r}")


def test_a_long_move_number_is_quoted_up_to_20_characters() -> None:
    number = "1" * 30 + "."
    game = read_game(io.StringIO(f'[White "a"]\n\n{number} 76 *\n'))
    assert game is not None
    (error,) = game.errors
    assert f"move number {number[:20]} where 1. was expected" in str(error)
    assert (error.ply, error.line) == (1, 3)  # the ply the number stands before, on the record's third line


def test_a_game_without_a_round_is_written_with_round_dash() -> None:
    game = MatchGame.create("Абай", "Бекзат", BLITZ, now_ms=0)
    assert '[Round "-"]' in to_pgn(game.state)
    assert '[Round "3"]' in to_pgn(game.state, {"Round": "3"})
    assert '[Event "?"]' in to_pgn(game.state)


def test_before_a_game_exists_only_the_arbiters_create_is_admitted() -> None:
    empty = core.Match()
    assert core.admit(empty, core.ARBITER, "create") is None
    assert core.admit(empty, "white", "create") == Refusal(TogyzCode.NO_GAME)
    for name in ("start", "move", "decide", "resign"):
        assert core.admit(empty, core.ARBITER, name) == Refusal(TogyzCode.NO_GAME), name
    name = "x" * 100
    assert core.admit(empty, core.ARBITER, name) == Refusal(Common.UNKNOWN_COMMAND, {"command": name[:40]})


def test_the_writer_numbers_every_white_move_and_wraps_at_its_width() -> None:
    text = "1. 76(10) 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36 *"
    game = read_game(io.StringIO(f'[White "a"]\n\n{text}\n'))
    assert game is not None and not game.errors
    written = write_game(game, columns=20)
    movetext = written.split("\n\n")[1].split("\n")
    assert " ".join(movetext) == text
    assert all(len(line) <= 20 for line in movetext) and len(movetext) > 2
