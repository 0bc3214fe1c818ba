from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.quiz.codes import StageCode
from toreshi.quiz.shootout import Tie
from toreshi.quiz.tournament import (
    LeagueTable,
    ProtestLog,
    QuizProtest,
    Scoring,
    Seeding,
    ShootoutNeed,
    Stage,
    StageSettings,
    TeamRatings,
    Tour,
    battle_points,
    plan_games,
)

from .refusals import refused

TEAMS = tuple(f"T{i:02d}" for i in range(1, 11))
QUALIFYING = StageSettings("Отбор", advance_per_game=1, advance_best_others=1, seeding=Seeding.SNAKE)
FINAL = StageSettings("Финал", advance_per_game=0)


@given(st.integers(2, 60), st.integers(2, 4), st.integers(0, 1_000))
def test_games_have_two_to_four_teams_and_differ_by_at_most_one(n: int, size: int, seed: int) -> None:
    teams = [f"T{i}" for i in range(n)]
    if n > 2 and size == 2 and n % 2:  # an odd number of teams cannot all play in pairs
        with refused(StageCode.CANNOT_SPLIT, teams=n, size=2):
            plan_games(teams, size, rng=random.Random(seed))
        return
    games = plan_games(teams, size, rng=random.Random(seed))
    assert sorted(t for g in games for t in g) == sorted(teams)
    sizes = [len(g) for g in games]
    assert all(2 <= s <= size for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(games) == -(-n // size)


def test_draw_is_reproducible_from_its_seed() -> None:
    assert plan_games(TEAMS, rng=random.Random(3)) == plan_games(TEAMS, rng=random.Random(3))
    with pytest.raises(TypeError, match="random source"):  # a programming error: no refusal
        plan_games(TEAMS)
    with refused(StageCode.GAME_SIZE, size=5, maximum=4, clause="SI-3.0.1"):
        plan_games(TEAMS, game_size=5)


def test_snake_seeding_spreads_the_strongest_teams() -> None:
    games = plan_games(TEAMS[:8], seeding=Seeding.SNAKE)
    assert games == (("T01", "T04", "T05", "T08"), ("T02", "T03", "T06", "T07"))


def test_battle_points_share_tied_places() -> None:
    assert battle_points({"A": 5, "B": 5, "C": 1, "D": 1}) == {
        "A": Fraction(3),
        "B": Fraction(3),
        "C": Fraction(1, 2),
        "D": Fraction(1, 2),
    }
    assert battle_points({"A": 2, "B": 7, "C": -3}) == {"A": 2, "B": 4, "C": 1}
    with refused(StageCode.POINTS_TABLE, places=5, table="4 2 1 0"):
        battle_points(dict.fromkeys("ABCDE", 0))


def qualifying_stage() -> Stage:
    stage = Stage.plan(QUALIFYING, TEAMS)
    assert stage.games == (("T01", "T06", "T07"), ("T02", "T05", "T08"), ("T03", "T04", "T09", "T10"))
    stage = stage.record(0, {"T01": 20, "T06": 5, "T07": -4})
    stage = stage.record(1, {"T02": 11, "T05": 12, "T08": 3})
    return stage.record(2, {"T03": 15, "T04": 9, "T09": 9, "T10": 1})


def test_advancing_everyone_is_refused() -> None:
    with refused(StageCode.ADVANCE_ALL, advancing=3, size=3):
        Stage.plan(StageSettings("S", advance_per_game=3, seeding=Seeding.SNAKE), TEAMS)


def test_standings_by_battle_points_then_raw_score() -> None:
    rows = qualifying_stage().standings()
    assert [(r.team, int(r.points), r.raw) for r in rows[:4]] == [
        ("T01", 4, 20),
        ("T03", 4, 15),
        ("T05", 4, 12),
        ("T02", 2, 11),
    ]
    # T04 and T09 share 2nd-3rd in game 2: (2 + 1) / 2.
    assert {r.team: r.points for r in rows}["T04"] == Fraction(3, 2)


def test_raw_score_scoring() -> None:
    settings = StageSettings("R", advance_per_game=1, scoring=Scoring.RAW_SCORE, seeding=Seeding.SNAKE)
    stage = Stage.plan(settings, ("A", "B", "C", "D")).record(0, {"A": 3, "B": 8, "C": 1, "D": 0})
    assert [(r.team, int(r.points)) for r in stage.standings()] == [("B", 8), ("A", 3), ("C", 1), ("D", 0)]


def test_results_are_final_once_recorded() -> None:
    stage = qualifying_stage()
    with refused(StageCode.ALREADY_RECORDED, stage="Отбор", game=1, clause="SI-6"):
        stage.record(0, {"T01": 0, "T06": 50, "T07": 0})
    with refused(StageCode.WRONG_TEAMS, game=1, teams="T01, T06, T07"):
        Stage.plan(QUALIFYING, TEAMS).record(0, {"T01": 1, "T02": 2, "T03": 3})


@pytest.mark.parametrize("game", [-1, 3, 7])
def test_a_game_the_stage_does_not_have_is_named_as_people_count(game: int) -> None:
    with refused(StageCode.NO_SUCH_GAME, stage="Отбор", game=game + 1):
        qualifying_stage().record(game, {"T01": 0})


def test_tie_for_an_advancing_place_inserts_a_shootout() -> None:
    settings = StageSettings("Отбор", advance_per_game=2, seeding=Seeding.SNAKE)
    stage = Stage.plan(settings, ("A", "B", "C", "D")).record(0, {"A": 10, "B": 4, "C": 4, "D": 4})
    (need,) = stage.pending_shootouts()
    assert need == ShootoutNeed(0, Tie(("B", "C", "D"), 4, 2, (1,)))
    with refused(StageCode.SHOOTOUTS_PENDING, teams="B, C, D", clause="SI-2.2"):
        stage.advancing()
    with refused(StageCode.SHOOTOUT_UNDECIDED, clause="SI-2.2"):
        stage.record_shootout(need, {"B": 3, "C": 3, "D": -1})
    stage = stage.record_shootout(need, {"B": -1, "C": 3, "D": 0})
    assert stage.pending_shootouts() == ()
    assert stage.advancing() == ("A", "C")
    # The shootout decides advancement only; the battle points still come from the game scores.
    assert {r.team: r.points for r in stage.standings()}["C"] == Fraction(1)


def test_tie_that_decides_nothing_needs_no_shootout() -> None:
    settings = StageSettings("Отбор", advance_per_game=2, seeding=Seeding.SNAKE)
    stage = Stage.plan(settings, ("A", "B", "C", "D")).record(0, {"A": 4, "B": 4, "C": 1, "D": 0})
    assert stage.pending_shootouts() == ()
    assert stage.advancing() == ("A", "B")


def test_best_others_across_games_and_their_shootout() -> None:
    stage = qualifying_stage()
    # Winners: T01, T05, T03. Best others: T02 (2 points, 11) beats T06 (2, 5) and T04/T09 (1.5).
    assert stage.pending_shootouts() == ()
    assert stage.advancing() == ("T01", "T05", "T03", "T02")
    level = Stage.plan(QUALIFYING, TEAMS)
    level = level.record(0, {"T01": 20, "T06": 5, "T07": -4})
    level = level.record(1, {"T02": 3, "T05": 12, "T08": 4})
    level = level.record(2, {"T03": 15, "T04": 5, "T09": 2, "T10": 1})
    (need,) = level.pending_shootouts()  # T06 and T04: 2 battle points and 5 each, in different games; T08 has 4
    assert need.game is None and set(need.tie.teams) == {"T06", "T04"}
    level = level.record_shootout(need, {"T06": 0, "T04": 2})
    assert level.advancing()[-1] == "T04"


def play_tour(name: str, scores_final: dict[str, int]) -> Tour:
    tour = Tour(name).start_stage(QUALIFYING, TEAMS)
    tour = tour.update_stage(qualifying_stage())
    tour = tour.start_stage(FINAL, rng=random.Random(1))
    assert set(tour.stages[-1].teams) == {"T01", "T05", "T03", "T02"}
    return tour.update_stage(tour.stages[-1].record(0, scores_final))


def test_tour_places_final_first_then_by_stage_standing() -> None:
    tour = play_tour("Тур 1", {"T01": 3, "T05": 9, "T03": -2, "T02": 3})
    places = tour.final_places()
    assert [set(group) for group in places[:3]] == [{"T05"}, {"T01", "T02"}, {"T03"}]
    assert places[3:5] == (("T06",), ("T04", "T09"))
    assert sum(len(g) for g in places) == 10
    with refused(StageCode.EARLIER_STAGE_FINAL, clause="SI-6"):
        tour.update_stage(qualifying_stage())


def test_league_table_sums_tours() -> None:
    first = play_tour("Тур 1", {"T01": 3, "T05": 9, "T03": -2, "T02": 1})
    second = play_tour("Тур 2", {"T01": 9, "T05": 3, "T03": -2, "T02": 1})
    table = LeagueTable().add(first).add(second)
    rows = table.rows()
    assert {r.team: r.points for r in rows}["T01"] == 9 + 10  # 2nd of 10, then 1st
    assert rows[0].team in ("T01", "T05") and rows[0].points == 19
    assert all(r.tours == 2 for r in rows)
    with refused(StageCode.TOUR_TWICE, tour="Тур 1"):
        table.add(first)
    fixed = LeagueTable(place_points=(10, 6, 4)).add(first).rows()
    assert {r.team: r.points for r in fixed}["T05"] == 10 and {r.team: r.points for r in fixed}["T06"] == 0


def test_openskill_ratings_rank_teams_by_results() -> None:
    ratings = TeamRatings()
    for _ in range(5):
        ratings = ratings.rate({"A": 12, "B": 5, "C": 5, "D": -3})
    table = [team for team, _ in ratings.table()]
    assert table[0] == "A" and table[-1] == "D"
    assert ratings.get("B") == ratings.get("C")  # shared rank, same history
    assert ratings.get("A").sigma < TeamRatings().get("A").sigma
    assert ratings.games == 5
    with refused(StageCode.RATED_GAME_SIZE, count=1, maximum=4):
        ratings.rate({"A": 1})
    rated = TeamRatings().rate_tour(play_tour("Тур 1", {"T01": 3, "T05": 9, "T03": -2, "T02": 1}))
    assert rated.games == 4 and len(rated.ratings) == 10


def test_protests_are_recorded_but_cannot_change_results() -> None:
    tour = play_tour("Тур 1", {"T01": 3, "T05": 9, "T03": -2, "T02": 1})
    places = tour.final_places()
    log = ProtestLog().file(tour, QuizProtest(1_000, "Тур 1", 1, 0, "T01", "ответ «Волга» должны были засчитать"))
    log = log.rule(0, "отклонён: ведущий решает (SI-4.4)", note_for_future="уточнять формулировку ответов в теме")
    assert tour.final_places() == places
    assert log.notes_for_future() == ("уточнять формулировку ответов в теме",)
    with refused(StageCode.PROTEST_RULED, number=1):
        log.rule(0, "принят")
    with refused(StageCode.PROTEST_NOT_PLAYED, team="T10", stage=2, game=1):
        log.file(tour, QuizProtest(1_000, "Тур 1", 1, 0, "T10", "..."))
    with refused(StageCode.PROTEST_NO_GAME, tour="Тур 1", stage=1, game=4):
        log.file(tour, QuizProtest(1_000, "Тур 1", 0, 3, "T01", "..."))
    # The log has no handle on the tour: recording results again is refused whoever asks.
    with refused(StageCode.ALREADY_RECORDED, stage="Финал", game=1, clause="SI-6"):
        tour.stages[-1].record(0, {"T01": 10, "T05": 0, "T03": 0, "T02": 0})


def test_pending_shootout_is_played_as_a_game_and_recorded() -> None:
    from toreshi.quiz.board import Board
    from toreshi.quiz.events import (
        AnswerJudged,
        Buzzed,
        FirstChooserDrawn,
        GameCreated,
        QuestionChosen,
        ReadingFinished,
        ThemeAnnounced,
    )
    from toreshi.quiz.game import replay

    settings = StageSettings("Отбор", advance_per_game=1, seeding=Seeding.SNAKE)
    stage = Stage.plan(settings, ("A", "B", "C")).record(0, {"A": 6, "B": 6, "C": 1})
    (need,) = stage.pending_shootouts()
    state = replay([GameCreated(0, need.game_setup(Board.of("Перестрелка"))), FirstChooserDrawn(0, "A")])
    state = state.apply(ThemeAnnounced(0, 0)).apply(QuestionChosen(10, "A", 0, 5)).apply(ReadingFinished(20))
    state = state.apply(Buzzed(40, "B", 30)).apply(AnswerJudged(50, "B", correct=True))
    state = state.apply(QuestionChosen(60, "B", 0, 4)).apply(ReadingFinished(70))
    state = state.apply(Buzzed(90, "B", 80)).apply(AnswerJudged(100, "B", correct=True))
    assert not state.finished  # B leads by 9, but questions 1-3 can still swing 12
    state = state.apply(QuestionChosen(110, "B", 0, 3)).apply(ReadingFinished(120))
    state = state.apply(Buzzed(140, "B", 130)).apply(AnswerJudged(150, "B", correct=True))
    assert state.finished  # 12 ahead with 1 and 2 left: a swing of 6 cannot close it (SI-2.2)
    assert stage.record_shootout(need, state.scores).advancing() == ("B",)
