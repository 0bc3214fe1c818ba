"""The random tournament generator: its -g configuration, and the tournaments it makes."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.tournament.dutch import NoValidPairingError
from toreshi.tournament.dutch.checker import check_trf
from toreshi.tournament.dutch.generator import GeneratorConfig, GeneratorConfigError, generate, parse_config
from toreshi.tournament.model import ResultCode
from toreshi.tournament.trf import format_trf, parse_trf
from toreshi.tournament.trf_pairing import read_accelerations


def test_the_configuration_file() -> None:
    text = (
        "# a comment\r\n"
        "PlayersNumber=40\r\n"
        "RoundsNumber=9\r"
        "DrawPercentage=35\n"
        "ForfeitRate=12.5\n"
        "RetiredRate=20\n"
        "HalfPointByteRate=25\n"  # JaVaFo's spelling
        "HighestRating=2600\n"
        "LowestRating=1500\n"
        "PointsForWin=1.0\n"
        "PointsForDraw=0.5\n"
        "BakuAcceleration=1\n"
        "ForbiddenPairs=1 2; 5,9,11\n"
    )
    assert parse_config(text) == GeneratorConfig(
        players=40,
        rounds=9,
        draw_percentage=35,
        forfeit_rate=12.5,
        retired_rate=20,
        half_point_bye_rate=25,
        highest_rating=2600,
        lowest_rating=1500,
        baku=True,
        forbidden=((1, 2), (5, 9, 11)),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("PlayersNumber=many", "not a number"),
        ("Players=10", "unknown key"),
        ("RoundsNumber 5", "Key=Value"),
        ("PointsForWin=3", "standard point system"),
        ("ForfeitRate=0.5", "ForfeitRate must be at least 1"),
        ("HighestRating=1500\nLowestRating=2000", "HighestRating"),
        ("PlayersNumber=10\nForbiddenPairs=3 12", "ForbiddenPairs"),
    ],
)
def test_bad_configurations_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(GeneratorConfigError, match=message):
        parse_config(text)


def test_missing_parameters_come_from_bbppairings_ranges() -> None:
    for seed in range(30):
        config = GeneratorConfig().resolved(random.Random(seed))
        assert config.players is not None and 15 <= config.players <= 215
        assert config.rounds is not None and 5 <= config.rounds <= 15
        assert config.forfeit_rate is not None and 6 <= config.forfeit_rate <= 30
        assert config.retired_rate is not None and 15 <= config.retired_rate <= 3225
        assert config.draw_percentage is not None and 10 <= config.draw_percentage <= 50
        assert config.highest_rating is not None and 2400 <= config.highest_rating <= 2800
        assert config.lowest_rating is not None and config.lowest_rating <= config.highest_rating


def test_the_same_seed_makes_the_same_tournament() -> None:
    config = GeneratorConfig(players=20, rounds=6)
    first = format_trf(generate(config, random.Random(42), 42))
    assert first == format_trf(generate(config, random.Random(42), 42))
    assert first != format_trf(generate(config, random.Random(43), 43))
    assert first.startswith("012 Random tournament (seed 42)\r")


def test_what_the_rates_produce() -> None:
    # Forfeits in one game of two, every player withdrawing (each after a random round from 2 on) and half of
    # them taking a half-point bye: all three must show up, with the withdrawn absent to the end.
    config = GeneratorConfig(players=30, rounds=8, forfeit_rate=2, retired_rate=2, half_point_bye_rate=2)
    trf = generate(config, random.Random(7), 7)
    codes = [b.code for p in trf.players for b in p.rounds if b is not None]
    assert ResultCode.FORFEIT_WIN in codes or ResultCode.FORFEIT_LOSS in codes
    assert ResultCode.HALF_BYE in codes and ResultCode.ZERO_BYE in codes
    for p in trf.players:
        gone = [i for i, b in enumerate(p.rounds) if b is not None and b.code is ResultCode.ZERO_BYE]
        if gone:
            assert all(b is not None and b.code is ResultCode.ZERO_BYE for b in p.rounds[gone[0] :])
    # Without forfeits, byes and withdrawals everything is played; draws stay below the percentage asked.
    calm = generate(GeneratorConfig(players=40, rounds=7, forfeit_rate=10**9, retired_rate=10**9,
                                    half_point_bye_rate=10**9, draw_percentage=0), random.Random(1), 1)  # fmt: skip
    played = [b.code for p in calm.players for b in p.rounds if b is not None and b.opponent is not None]
    assert played and all(code in (ResultCode.WIN, ResultCode.LOSS) for code in played)


def test_baku_and_prohibitions_are_written() -> None:
    trf = generate(GeneratorConfig(players=16, rounds=9, baku=True, forbidden=((1, 2),)), random.Random(3), 3)
    assert trf.system == "FIDE_DUTCH_2025_BAKU"
    assert [(a.points, a.first_round, a.last_round, a.last_player) for a in read_accelerations(trf)] == [
        (Fraction(1), 1, 3, 8),
        (Fraction(1, 2), 4, 5, 8),
    ]
    assert not any(b is not None and b.opponent == 2 for b in trf.player(1).rounds)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(6, 40), st.integers(3, 9), st.booleans())
def test_generated_tournaments_are_consistent_and_pass_the_checker(seed: int, players: int, rounds: int,
                                                                   baku: bool) -> None:  # fmt: skip
    config = GeneratorConfig(players=players, rounds=rounds, baku=baku, forfeit_rate=8, retired_rate=10,
                             half_point_bye_rate=10)  # fmt: skip
    try:
        trf = generate(config, random.Random(seed), seed)
    except NoValidPairingError:  # a small field ran out of opponents: nothing to check
        return
    again = parse_trf(format_trf(trf))
    again.check_consistency()  # every game mirrored, every points column right
    assert again.played_rounds == rounds and len(again.players) == players
    assert all(check.agrees for check in check_trf(again))
