"""Small tournaments for the tests: TRF files written as games instead of columns, rounds played by their results."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from toreshi.tournament.model import Colour, GameResult, ResultCode, Tournament
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound

R = ResultCode
GameLine = tuple[int, int, ResultCode]
"""(white, black, White's result); for a bye or an absence (player, 0, code)."""

_REPLY = {R.WIN: R.LOSS, R.LOSS: R.WIN, R.DRAW: R.DRAW, R.FORFEIT_WIN: R.FORFEIT_LOSS, R.FORFEIT_LOSS: R.FORFEIT_WIN}


def play_round(t: Tournament, pairs: Sequence[tuple[int, int]], results: Sequence[GameResult | None]) -> Tournament:
    """``t`` with its next round: ``(white, black)`` by board, each board's result recorded unless it is ``None``."""
    t = t.add_round(pairs)
    for board, result in enumerate(results, start=1):
        if result is not None:
            t = t.record_result(len(t.rounds), board, result)
    return t


def tournament(header: list[str], rounds: list[list[GameLine]], players: int = 8) -> TrfFile:
    """Players 1..n rated 2400, 2300, … (pairing number order); ``rounds`` of games, byes as (player, 0, code)."""
    blocks: dict[int, list[TrfRound]] = {n: [] for n in range(1, players + 1)}
    for games in rounds:
        for white, black, code in games:
            if black == 0:
                blocks[white].append(TrfRound(None, None, code))
                continue
            blocks[white].append(TrfRound(black, Colour.WHITE, code))
            blocks[black].append(TrfRound(white, Colour.BLACK, _REPLY[code]))
    lines: list[PlayerRecord | RawLine] = [RawLine(h) for h in header]
    for n in range(1, players + 1):
        points = sum((b.points for b in blocks[n]), Fraction(0))
        lines.append(PlayerRecord(n, f"Player {n}", rating=2500 - 100 * n, points=points, rounds=tuple(blocks[n])))
    return TrfFile(tuple(lines))
