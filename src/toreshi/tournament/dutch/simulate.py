"""Random Swiss tournaments paired round by round with the Dutch engine (a small random tournament generator).

For tests and benchmarks: results follow the players' ratings, with draws, forfeits, requested byes and
withdrawals at the given rates. Pure: the randomness comes from the ``random.Random`` passed in.

>>> import random
>>> trf = simulate(random.Random(1), players=9, rounds=4)
>>> trf.rounds, len(trf.players), trf.played_rounds
(4, 9, 4)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from toreshi.tournament.dutch.engine import RoundPairing
from toreshi.tournament.dutch.round import pair_trf
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound


@dataclass(frozen=True)
class Rates:
    """How often unusual things happen (probabilities per game, per player and round)."""

    draw: float = 0.3
    forfeit: float = 0.03
    half_bye: float = 0.02
    zero_bye: float = 0.01
    withdrawal: float = 0.01


def start(players: int, rounds: int, rng: random.Random) -> TrfFile:
    """A TRF with the players (rated, best first) and no rounds yet."""
    ratings = sorted((rng.randint(1400, 2700) for _ in range(players)), reverse=True)
    lines: list[PlayerRecord | RawLine] = [RawLine("012 Simulated Swiss"), RawLine(f"XXR {rounds}")]
    lines.extend(PlayerRecord(i + 1, f"Player {i + 1:04d}", rating=r) for i, r in enumerate(ratings))
    lines.append(RawLine("092 FIDE_DUTCH_2025"))
    return TrfFile(tuple(lines))


def _game(rng: random.Random, white: PlayerRecord, black: PlayerRecord, rates: Rates) -> tuple[ResultCode, ResultCode]:
    if rng.random() < rates.forfeit:
        return (
            (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)
            if rng.random() < 0.5
            else (
                ResultCode.FORFEIT_LOSS,
                ResultCode.FORFEIT_WIN,
            )
        )
    if rng.random() < rates.draw:
        return ResultCode.DRAW, ResultCode.DRAW
    expected = 1 / (1 + 10 ** (((black.rating or 1500) - (white.rating or 1500)) / 400))
    return (ResultCode.WIN, ResultCode.LOSS) if rng.random() < expected else (ResultCode.LOSS, ResultCode.WIN)


def play_round(trf: TrfFile, number: int, rng: random.Random, rates: Rates = Rates()) -> tuple[TrfFile, RoundPairing]:
    """Decide the absences of round ``number``, pair it, play it; the new file and the pairing."""
    withdrawn = {
        p.number
        for p in trf.players
        if any(b is not None and b.code is ResultCode.ZERO_BYE for b in p.rounds[-2:])
        and len(p.rounds) >= 2
        and all(b is not None and b.code is ResultCode.ZERO_BYE for b in p.rounds[-2:])
    }
    absences: dict[int, ResultCode] = {}
    for p in trf.players:
        roll = rng.random()
        if p.number in withdrawn or roll < rates.withdrawal:
            absences[p.number] = ResultCode.ZERO_BYE
        elif roll < rates.withdrawal + rates.half_bye:
            absences[p.number] = ResultCode.HALF_BYE
        elif roll < rates.withdrawal + rates.half_bye + rates.zero_bye:
            absences[p.number] = ResultCode.ZERO_BYE
    pairing = pair_trf(with_absences(trf, absences), number, initial_colour=Colour.WHITE)
    return played(trf, absences, pairing, lambda white, black: _game(rng, white, black, rates)), pairing


def with_absences(trf: TrfFile, absences: Mapping[int, ResultCode]) -> TrfFile:
    """The file with the next round's absences (``H``, ``Z`` …) entered: what the engine pairs."""
    return trf.with_players(
        replace(p, rounds=(*p.rounds, TrfRound(None, None, absences[p.number])))
        for p in trf.players
        if p.number in absences
    )


def played(
    trf: TrfFile,
    absences: Mapping[int, ResultCode],
    pairing: RoundPairing,
    game: Callable[[PlayerRecord, PlayerRecord], tuple[ResultCode, ResultCode]],
) -> TrfFile:
    """The file after the round: every player's block (an absence, a game whose (White, Black) codes ``game``
    gives, board by board, or the pairing-allocated bye) added, with its points."""
    blocks: dict[int, TrfRound] = {n: TrfRound(None, None, code) for n, code in absences.items()}
    by_number = {p.number: p for p in trf.players}
    for board in pairing.pairs:
        white_code, black_code = game(by_number[board.white], by_number[board.black])
        blocks[board.white] = TrfRound(board.black, Colour.WHITE, white_code)
        blocks[board.black] = TrfRound(board.white, Colour.BLACK, black_code)
    if pairing.bye is not None:
        blocks[pairing.bye] = TrfRound(None, None, ResultCode.PAIRING_BYE)
    return trf.with_players(
        replace(p, rounds=(*p.rounds, blocks[p.number]), points=p.points + blocks[p.number].points) for p in trf.players
    )


def simulate(rng: random.Random, players: int, rounds: int, rates: Rates = Rates()) -> TrfFile:
    """A whole tournament, every round paired by the Dutch engine."""
    trf = start(players, rounds, rng)
    for number in range(1, rounds + 1):
        trf, _ = play_round(trf, number, rng, rates)
    return trf


def points_total(trf: TrfFile) -> Fraction:
    """Sum of all points (a quick consistency figure for tests)."""
    return sum((p.points for p in trf.players), Fraction(0))
