"""A random tournament generator (FIDE C.04.A's RTG): whole Swiss tournaments, every round paired by the engine.

The parameters are those of JaVaFo's and bbpPairings' ``-g`` configuration file, one ``Key=Value`` per line
(``#`` starts a comment); a key left out is drawn at random from the range bbpPairings uses:

=================== ============================================================ =============
key                 meaning                                                      default range
=================== ============================================================ =============
PlayersNumber       players                                                      15–215
RoundsNumber        rounds                                                       5–15
DrawPercentage      share of played games drawn (at most what the ratings allow) 10–50
ForfeitRate         one game in N is forfeited                                   6–30
RetiredRate         one player in N withdraws during the tournament              15–3225
HalfPointByeRate    one player in N takes a half-point bye                       15–3225
HighestRating       rating of the strongest player                               2400–2800
LowestRating        rating of the weakest player                                 1400–2300
PointsForWin …      ``PointsForWin/Draw/Loss/ZPB/ForfeitLoss/PAB``: only the standard 1 / 0.5 / 0 / 0 / 0 / 1
=================== ============================================================ =============

Two keys of our own: ``BakuAcceleration=1`` (C.04.5.1, written as ``250`` records) and ``ForbiddenPairs=1 2;
5 9 11`` (groups kept apart for the whole tournament, written as ``260`` records).

How a tournament unfolds (our model, not bbpPairings' code): ratings are drawn uniformly and sorted, best
first; a withdrawing player leaves after a random round and is absent (``Z``) from then on; a half-point bye is
taken in a random round but the last; each player of a game fails to appear with the probability that makes
one game in ``ForfeitRate`` a forfeit (both may fail: a double forfeit); otherwise the stronger player's
expected score follows the normal curve, E = Φ(7·d / 2000) for a rating difference d, a draw comes with
probability min(DrawPercentage, 2 − 2E), and the stronger player wins with the rest of E. The top seed's
round-1 colour is drawn too. Pure: all randomness comes from the ``random.Random`` passed in.

>>> import random
>>> trf = generate(parse_config("PlayersNumber=12\\nRoundsNumber=5\\nRetiredRate=1000000"), random.Random(3))
>>> trf.rounds, len(trf.players), trf.played_rounds
(5, 12, 5)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction

from toreshi.tournament.dutch.engine import NoValidPairingError
from toreshi.tournament.dutch.round import pair_trf
from toreshi.tournament.dutch.simulate import played, with_absences
from toreshi.tournament.model import ResultCode
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile
from toreshi.tournament.trf_pairing import ForbiddenPairs, baku_accelerations, with_accelerations, with_forbidden


class GeneratorConfigError(ValueError):
    """A configuration line or value the generator cannot use; the message names it."""


_STANDARD_POINTS = {
    "PointsForWin": Fraction(1),
    "PointsForDraw": Fraction(1, 2),
    "PointsForLoss": Fraction(0),
    "PointsForZPB": Fraction(0),
    "PointsForForfeitLoss": Fraction(0),
    "PointsForPAB": Fraction(1),
}
_RANGES = {
    "PlayersNumber": (15, 215),
    "RoundsNumber": (5, 15),
    "DrawPercentage": (10, 50),
    "ForfeitRate": (6, 30),
    "RetiredRate": (15, 3225),
    "HalfPointByeRate": (15, 3225),
    "HighestRating": (2400, 2800),
    "LowestRating": (1400, 2300),
}


@dataclass(frozen=True)
class GeneratorConfig:
    """The generator's parameters; ``None`` means "draw it from bbpPairings' range"."""

    players: int | None = None
    rounds: int | None = None
    draw_percentage: int | None = None
    forfeit_rate: float | None = None
    retired_rate: float | None = None
    half_point_bye_rate: float | None = None
    highest_rating: int | None = None
    lowest_rating: int | None = None
    baku: bool = False
    forbidden: tuple[tuple[int, ...], ...] = ()

    def resolved(self, rng: random.Random) -> GeneratorConfig:
        """Every missing parameter drawn at random, then checked."""
        self.check()

        def pick(value: int | None, key: str) -> int:
            return rng.randint(*_RANGES[key]) if value is None else value

        def pick_rate(value: float | None, key: str) -> float:
            return float(rng.randint(*_RANGES[key])) if value is None else value

        config = replace(
            self,
            players=pick(self.players, "PlayersNumber"),
            rounds=pick(self.rounds, "RoundsNumber"),
            draw_percentage=pick(self.draw_percentage, "DrawPercentage"),
            forfeit_rate=pick_rate(self.forfeit_rate, "ForfeitRate"),
            retired_rate=pick_rate(self.retired_rate, "RetiredRate"),
            half_point_bye_rate=pick_rate(self.half_point_bye_rate, "HalfPointByeRate"),
            highest_rating=pick(self.highest_rating, "HighestRating"),
            lowest_rating=None,
        )
        # The lowest rating's range may lie above a chosen highest rating: draw it below that.
        low = self.lowest_rating
        if low is None:
            assert config.highest_rating is not None
            low = min(rng.randint(*_RANGES["LowestRating"]), config.highest_rating)
        config = replace(config, lowest_rating=low)
        config.check()
        return config

    def check(self) -> None:
        if self.players is not None and not 2 <= self.players <= 9999:
            raise GeneratorConfigError(f"PlayersNumber must be 2..9999, not {self.players}")
        if self.rounds is not None and not 1 <= self.rounds <= 99:
            raise GeneratorConfigError(f"RoundsNumber must be 1..99, not {self.rounds}")
        if self.draw_percentage is not None and not 0 <= self.draw_percentage <= 100:
            raise GeneratorConfigError(f"DrawPercentage must be 0..100, not {self.draw_percentage}")
        for name, rate, least in (
            ("ForfeitRate", self.forfeit_rate, 1),
            ("RetiredRate", self.retired_rate, 2),
            ("HalfPointByeRate", self.half_point_bye_rate, 1),
        ):
            if rate is not None and rate < least:
                raise GeneratorConfigError(f"{name} must be at least {least}, not {rate}")
        high, low = self.highest_rating, self.lowest_rating
        if high is not None and low is not None and high < low:
            raise GeneratorConfigError("HighestRating must not be below LowestRating")
        for group in self.forbidden:
            if len(set(group)) < 2 or any(p < 1 or (self.players is not None and p > self.players) for p in group):
                raise GeneratorConfigError(f"a ForbiddenPairs group needs two or more players' numbers: {group}")


_INT_KEYS = {
    "PlayersNumber": "players",
    "RoundsNumber": "rounds",
    "DrawPercentage": "draw_percentage",
    "HighestRating": "highest_rating",
    "LowestRating": "lowest_rating",
}
_RATE_KEYS = {
    "ForfeitRate": "forfeit_rate",
    "RetiredRate": "retired_rate",
    "HalfPointByeRate": "half_point_bye_rate",
    "HalfPointByteRate": "half_point_bye_rate",  # the misspelling bbpPairings also accepts
}


def parse_config(text: str) -> GeneratorConfig:
    """A configuration from the text of a ``-g`` configuration file (LF, CR or CRLF line ends)."""
    ints: dict[str, int] = {}
    rates: dict[str, float] = {}
    baku = False
    forbidden: tuple[tuple[int, ...], ...] = ()
    for number, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = (part.strip() for part in line.partition("="))
        if not sep:
            raise GeneratorConfigError(f"line {number}: expected Key=Value, not {raw!r}")
        try:
            if key in _INT_KEYS:
                ints[_INT_KEYS[key]] = int(value)
            elif key in _RATE_KEYS:
                rates[_RATE_KEYS[key]] = float(value)
            elif key in _STANDARD_POINTS:
                standard = Fraction(value) == _STANDARD_POINTS[key]
            elif key == "BakuAcceleration":
                baku = value.lower() in ("1", "true", "yes", "on")
            elif key == "ForbiddenPairs":
                groups = [group.replace(",", " ").split() for group in value.split(";") if group.strip()]
                forbidden = tuple(tuple(int(p) for p in group) for group in groups)
            else:
                raise GeneratorConfigError(f"line {number}: unknown key {key!r}")
        except ValueError as error:
            if isinstance(error, GeneratorConfigError):
                raise
            raise GeneratorConfigError(f"line {number}: {key}={value!r} is not a number") from None
        if key in _STANDARD_POINTS and not standard:
            raise GeneratorConfigError(
                f"line {number}: {key}={value}: only the standard point system (1, 0.5, 0) is supported"
            )
    config = GeneratorConfig(
        players=ints.get("players"),
        rounds=ints.get("rounds"),
        draw_percentage=ints.get("draw_percentage"),
        forfeit_rate=rates.get("forfeit_rate"),
        retired_rate=rates.get("retired_rate"),
        half_point_bye_rate=rates.get("half_point_bye_rate"),
        highest_rating=ints.get("highest_rating"),
        lowest_rating=ints.get("lowest_rating"),
        baku=baku,
        forbidden=forbidden,
    )
    config.check()
    return config


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


@dataclass(frozen=True)
class _Plan:
    """Who is away when: withdrawals (from a round on) and half-point byes (one round)."""

    leaves_from: dict[int, int]
    half_bye: dict[int, int]


def _plan(config: GeneratorConfig, rng: random.Random) -> _Plan:
    assert config.players is not None and config.rounds is not None
    assert config.retired_rate is not None and config.half_point_bye_rate is not None
    numbers = list(range(1, config.players + 1))
    leaving = rng.sample(numbers, min(config.players, int(config.players / config.retired_rate)))
    leaves_from = {p: rng.randint(2, config.rounds) for p in leaving if config.rounds >= 2}
    takers = rng.sample(numbers, min(config.players, int(config.players / config.half_point_bye_rate)))
    half_bye = {p: rng.randint(1, config.rounds - 1) for p in takers if config.rounds >= 2}
    return _Plan(leaves_from, half_bye)


def _game(
    rng: random.Random, white: PlayerRecord, black: PlayerRecord, config: GeneratorConfig
) -> tuple[ResultCode, ResultCode]:
    assert config.forfeit_rate is not None and config.draw_percentage is not None
    present = math.sqrt(1 - 1 / config.forfeit_rate)
    white_here, black_here = rng.random() < present, rng.random() < present
    if not (white_here and black_here):
        if white_here:
            return ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS
        if black_here:
            return ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN
        return ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS
    white_rating, black_rating = white.rating or 0, black.rating or 0
    stronger_is_white = white_rating >= black_rating
    expected = _phi(7 * abs(white_rating - black_rating) / 2000)
    draw = min(config.draw_percentage / 100, 2 - 2 * expected)
    roll = rng.random()
    if roll < draw:
        return ResultCode.DRAW, ResultCode.DRAW
    stronger_wins = roll < draw + (expected - draw / 2)
    white_wins = stronger_wins == stronger_is_white
    return (ResultCode.WIN, ResultCode.LOSS) if white_wins else (ResultCode.LOSS, ResultCode.WIN)


def start_file(config: GeneratorConfig, rng: random.Random, seed: int | None = None) -> TrfFile:
    """The TRF before round 1: header, players by rating (best first), prohibitions and accelerations."""
    assert config.players is not None and config.rounds is not None
    assert config.highest_rating is not None and config.lowest_rating is not None
    ratings = sorted((rng.randint(config.lowest_rating, config.highest_rating) for _ in range(config.players)),
                     reverse=True)  # fmt: skip
    colour = "white1" if rng.random() < 0.5 else "black1"
    title = "Random tournament" + (f" (seed {seed})" if seed is not None else "")
    kind = "FIDE_DUTCH_2025_BAKU" if config.baku else "FIDE_DUTCH_2025"
    lines: list[PlayerRecord | RawLine] = [
        RawLine(f"012 {title}"),
        RawLine(f"092 {kind}"),
        RawLine(f"XXR {config.rounds}"),
        RawLine(f"XXC {colour}"),
    ]
    lines.extend(PlayerRecord(i, f"Player {i:04d}", rating=r) for i, r in enumerate(ratings, start=1))
    trf = TrfFile(tuple(lines))
    if config.forbidden:
        trf = with_forbidden(trf, [ForbiddenPairs(tuple(sorted(g)), 1, config.rounds) for g in config.forbidden])
    if config.baku:
        trf = with_accelerations(trf, baku_accelerations(range(1, config.players + 1), config.rounds))
    return trf


def generate(config: GeneratorConfig, rng: random.Random, seed: int | None = None) -> TrfFile:
    """A whole random tournament. Raises :class:`NoValidPairingError` (naming the round) when a round cannot be
    paired — few players, many rounds or many prohibitions."""
    config = config.resolved(rng)
    assert config.rounds is not None
    trf = start_file(config, rng, seed)
    plan = _plan(config, rng)
    for number in range(1, config.rounds + 1):
        trf = _play_round(trf, number, plan, config, rng)
    return trf


def _play_round(trf: TrfFile, number: int, plan: _Plan, config: GeneratorConfig, rng: random.Random) -> TrfFile:
    absences: dict[int, ResultCode] = {}
    for p in trf.players:
        if plan.leaves_from.get(p.number, number + 1) <= number:
            absences[p.number] = ResultCode.ZERO_BYE
        elif plan.half_bye.get(p.number) == number:
            absences[p.number] = ResultCode.HALF_BYE
    try:
        pairing = pair_trf(with_absences(trf, absences), number)
    except NoValidPairingError as error:
        raise NoValidPairingError(f"round {number} of the generated tournament: {error}") from None
    return played(trf, absences, pairing, lambda white, black: _game(rng, white, black, config))
