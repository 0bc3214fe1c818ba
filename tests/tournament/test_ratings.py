"""FIDE-style Elo: expected scores, K factors, the 400-point rule, rating periods, the list, TK-B1."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.model import Colour, Participant, ResultCode, RoundEntry, build_record
from toreshi.tournament.ratings import (
    EloRules,
    Expectation,
    RatedGame,
    RatedPlayer,
    RatingError,
    RatingList,
    expected_score,
    k_factor,
    rated_games,
    rating_change,
    seed_by_rating,
)

F = Fraction
DAY = date(2026, 6, 1)


def test_expected_score_from_the_fide_table() -> None:
    # FIDE 8.1(b): 0–3 → .50, 92–98 → .63, 99–106 → .64, 392–411 → .92.
    assert expected_score(1500, 1500) == F(1, 2)
    assert expected_score(1595, 1500) == F(63, 100)
    assert expected_score(1600, 1500) == F(64, 100)
    assert expected_score(1500, 1600) == F(36, 100)
    assert expected_score(1900, 1500) == F(92, 100)


def test_four_hundred_point_rule() -> None:
    # A difference of more than 400 counts as 400: .92, not the table's 1.00 for 800.
    assert expected_score(2300, 1500) == F(92, 100)
    assert expected_score(1500, 2300) == F(8, 100)
    no_cap = EloRules(max_difference=None)
    assert expected_score(2300, 1500, no_cap) == 1
    assert expected_score(2100, 1500, no_cap) == F(98, 100)  # 560–619 → .98


def test_logistic_expectation_is_a_setting() -> None:
    logistic = EloRules(expectation=Expectation.LOGISTIC)
    assert expected_score(1500, 1500, logistic) == F(1, 2)
    assert expected_score(1900, 1500, logistic) == F(91, 100)  # 1 / (1 + 10^-1) = .909


@given(st.integers(min_value=1000, max_value=2800), st.integers(min_value=1000, max_value=2800))
def test_expected_scores_of_both_players_add_up_to_one(a: int, b: int) -> None:
    assert expected_score(a, b) + expected_score(b, a) == 1
    assert F(8, 100) <= expected_score(a, b) <= F(92, 100)


def test_k_factor() -> None:
    assert k_factor(RatedPlayer("n", "New", 1500, games=29), DAY) == 40
    assert k_factor(RatedPlayer("s", "Standard", 1500, games=30), DAY) == 20
    junior = RatedPlayer("j", "Junior", 2100, games=100, birth_date=date(2010, 1, 1))
    assert k_factor(junior, DAY) == 40
    assert k_factor(RatedPlayer("j", "Junior", 2350, games=100, birth_date=date(2010, 1, 1)), DAY) == 20
    # The day before the 18th birthday the player is still a junior.
    assert k_factor(RatedPlayer("j", "J", 2000, games=100, birth_date=date(2008, 6, 2)), DAY) == 40
    assert k_factor(RatedPlayer("j", "J", 2000, games=100, birth_date=date(2008, 6, 1)), DAY) == 20
    assert k_factor(RatedPlayer("t", "Top", 2400, games=5), DAY) == 10
    assert k_factor(RatedPlayer("t", "Top", 2380, games=500, reached_top=True), DAY) == 10


def test_rating_change_worked_by_hand() -> None:
    # 1600 vs 1500: expected .64. A win: +.36 × 20 = 7.2 → +7. A draw: −.14 × 20 = −2.8 → −3.
    player = RatedPlayer("a", "A", 1600, games=40)
    assert rating_change(player, [(1500, F(1))], DAY) == 7
    assert rating_change(player, [(1500, F(1, 2))], DAY) == -3
    # The opponent: a loss −.36 × 20 → −7.2 → −7.
    assert rating_change(RatedPlayer("b", "B", 1500, games=40), [(1600, F(0))], DAY) == -7
    with pytest.raises(RatingError, match="scores 1, ½ or 0"):
        rating_change(player, [(1500, F(3, 4))], DAY)


def test_k_times_games_never_exceeds_700() -> None:
    # A new player (K 40) with 20 games: K becomes 700 / 20 = 35. Winning all against equals: 20 × .5 × 35.
    player = RatedPlayer("n", "New", 1500, games=0)
    assert rating_change(player, [(1500, F(1))] * 20, DAY) == 350
    assert rating_change(player, [(1500, F(1))] * 20, DAY, EloRules(max_k_times_games=None)) == 400


def test_rating_period_uses_the_ratings_before_it() -> None:
    ratings = RatingList(
        (
            RatedPlayer("a", "Aru", 1600, games=40),
            RatedPlayer("b", "Bolat", 1500, games=40),
            RatedPlayer("c", "Dana", 1500, games=40),
        )
    )
    # a beats b, then b draws c. b's expected scores come from 1500 throughout: vs a .36, vs c .50.
    after = ratings.apply([RatedGame("a", "b", F(1)), RatedGame("b", "c", F(1, 2))], DAY)
    assert {p.id: p.rating for p in after.players} == {"a": 1607, "b": 1493, "c": 1500}
    assert {p.id: p.games for p in after.players} == {"a": 41, "b": 42, "c": 41}
    assert [(rank, p.id) for rank, p in after.ranked()] == [(1, "a"), (2, "c"), (3, "b")]


def test_reaching_2400_fixes_k_at_10() -> None:
    ratings = RatingList((RatedPlayer("a", "A", 2395, games=100), RatedPlayer("b", "B", 2395, games=100)))
    after = ratings.apply([RatedGame("a", "b", F(1))], DAY)
    assert after.player("a").rating == 2405 and after.player("a").reached_top
    assert not after.player("b").reached_top


def test_rating_list_errors_and_shared_ranks() -> None:
    with pytest.raises(RatingError, match="appears twice"):
        RatingList((RatedPlayer("a", "A", 1500), RatedPlayer("a", "B", 1500)))
    ratings = RatingList((RatedPlayer("a", "Aru", 1500), RatedPlayer("b", "Bolat", 1500)))
    assert [rank for rank, _ in ratings.ranked()] == [1, 1]
    with pytest.raises(RatingError, match="no player 'z'"):
        ratings.apply([RatedGame("a", "z", F(1))], DAY)
    with pytest.raises(RatingError, match="against themselves"):
        ratings.apply([RatedGame("a", "a", F(1))], DAY)
    with pytest.raises(RatingError, match="already on the list"):
        ratings.with_player(RatedPlayer("a", "Again", 1400))
    assert len(ratings.with_player(RatedPlayer("c", "Dana", 1400)).players) == 3


def test_only_games_played_over_the_board_are_rated() -> None:
    people = [Participant(1, "A"), Participant(2, "B"), Participant(3, "C")]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, ResultCode.WIN, 2, Colour.WHITE), RoundEntry(2, ResultCode.FORFEIT_WIN, 3, Colour.BLACK)],
            2: [RoundEntry(1, ResultCode.LOSS, 1, Colour.BLACK), RoundEntry(2, ResultCode.PAIRING_BYE)],
            3: [RoundEntry(1, ResultCode.PAIRING_BYE), RoundEntry(2, ResultCode.FORFEIT_LOSS, 1, Colour.WHITE)],
        },
    )
    games = rated_games(record, {1: "a", 2: "b", 3: "c"})
    assert games == [RatedGame("a", "b", F(1))]
    assert rated_games(record, {1: "a"}) == []


def test_tk_b1_participants_are_listed_by_rating() -> None:
    seeded = seed_by_rating(
        [
            Participant(1, "Yerlan", 1650),
            Participant(2, "Aigerim"),
            Participant(3, "Bauyrzhan", 1810),
            Participant(4, "Asel", 1650),
        ]
    )
    assert [(p.number, p.name, p.rating) for p in seeded] == [
        (1, "Bauyrzhan", 1810),
        (2, "Asel", 1650),
        (3, "Yerlan", 1650),
        (4, "Aigerim", None),
    ]
