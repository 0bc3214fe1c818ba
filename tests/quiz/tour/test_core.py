"""The tour's pure core: formula, seeding, rooms with unused themes, results, shootouts, protests (SI-2.1 … SI-6)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.quiz.events import GameKind
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.quiz.tour.core import (
    ChangeFormula,
    CloseStage,
    CreateTour,
    FileProtest,
    Formula,
    LinkGame,
    PackInfo,
    RecordResult,
    ResultAmended,
    RuleProtest,
    SeedStage,
    StageClosed,
    StageRule,
    TourState,
    closed_links,
    decide,
    evolve,
    stage_outcome,
    suggest_assistant,
)
from toreshi.quiz.tournament import Scoring

TEAMS = tuple(f"Team {i}" for i in range(1, 9))
HOST = Context(Actor("host", "Ерлан"), 0, random.Random(7), {"at": "2026-12-01T19:00:00+00:00"})
SYSTEM = Context(Actor("system"), 0, None, {"at": "2026-12-01T20:00:00+00:00"})


def run(state: TourState, command: object, context: Context = HOST) -> TourState:
    result = decide(state, command, context)  # type: ignore[arg-type]
    assert not isinstance(result, Refusal), result
    for event in result:
        state = evolve(state, event)
    return state


def refusal(state: TourState, command: object, context: Context = HOST) -> Refusal:
    result = decide(state, command, context)  # type: ignore[arg-type]
    assert isinstance(result, Refusal)
    return result


def created(teams: Sequence[str] = TEAMS, formula: Formula | None = None, themes: int = 40) -> TourState:
    tour = CreateTour("Тур 1", "2026-12-01", tuple(teams), (PackInfo("pack", themes),), formula or Formula())
    return run(TourState(), tour)


def link_all(state: TourState, room: str) -> TourState:
    for game in state.games_to_link():
        teams = state.tour.stages[-1].games[game]
        start, _ = state.allotment(state.kind_to_link(False))
        state = run(state, LinkGame(f"{room}{game}", state.stage_index, game, start, suggest_assistant(state, teams)))
    return state


def test_the_formula_is_checked_against_the_teams_and_fixed_once_a_game_starts() -> None:
    state = created()
    assert refusal(state, ChangeFormula(Formula((StageRule(3, 0),)))).code is QuizTourCode.FINAL_TOO_BIG
    assert refusal(state, ChangeFormula(Formula((StageRule(4, 0),)))).code is QuizTourCode.FORMULA
    state = run(state, ChangeFormula(Formula((StageRule(1, 2),), scoring=Scoring.RAW_SCORE)))
    assert state.formula.stages == (StageRule(1, 2),)
    state = run(state, SeedStage("lot"))
    state = link_all(state, "q-")
    assert refusal(state, ChangeFormula(Formula())).code is QuizTourCode.STARTED


def test_seeding_by_rating_deals_the_order_and_by_hand_needs_the_planned_sizes() -> None:
    state = run(created(), SeedStage("rating", order=TEAMS))
    assert state.tour.stages[0].games == (TEAMS[0:1] + TEAMS[3:5] + TEAMS[7:8], TEAMS[1:3] + TEAMS[5:7])
    bad = refusal(state, SeedStage("hand", games=(TEAMS[:3], TEAMS[3:])))
    assert bad.code is QuizTourCode.HAND_SEEDING and bad.params["sizes"] == "4 + 4"
    state = run(state, SeedStage("hand", games=(TEAMS[:4], TEAMS[4:])))
    assert state.tour.stages[0].games == (TEAMS[:4], TEAMS[4:])


def test_each_room_gets_the_next_unused_themes_and_an_assistant_from_another_team() -> None:
    state = run(created(), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:])))
    assert refusal(state, LinkGame("q-a", 0, 0, 0, "Team 2")).code is QuizTourCode.ASSISTANT_PLAYS
    assert suggest_assistant(state, TEAMS[:4]) == "Team 5"
    state = run(state, LinkGame("q-a", 0, 0, 0, "Team 5"))
    again = refusal(state, LinkGame("q-b", 0, 1, 0, "Team 1"))
    assert again.code is QuizTourCode.THEMES_USED and again.params == {"start": 1, "expected": 7}
    state = run(state, LinkGame("q-b", 0, 1, 6, "Team 1"))
    assert [(x.theme_start, x.theme_count) for x in state.links] == [(0, 6), (6, 6)]


def test_a_tie_for_the_last_place_makes_a_shootout_of_exactly_the_tied_teams_and_the_final_follows() -> None:
    state = run(created(), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:])))
    state = link_all(state, "q-")
    state = run(state, RecordResult("q-0", {"Team 1": 30, "Team 2": 10, "Team 3": 10, "Team 4": -5}), SYSTEM)
    state = run(state, RecordResult("q-1", {"Team 5": 20, "Team 6": 15, "Team 7": 0, "Team 8": -10}), SYSTEM)
    assert not state.can_seed()
    (need,) = state.shootouts_to_link()
    assert need.tie.teams == ("Team 2", "Team 3") and need.game == 0
    assert stage_outcome(state, 0)["Team 1"] == "pending"
    start, count = state.allotment(GameKind.SHOOTOUT)
    assert count == 3
    wrong = refusal(state, LinkGame("q-s", 0, 0, start, shootout=True, teams=("Team 2", "Team 4")))
    assert wrong.code is QuizTourCode.NO_SUCH_SHOOTOUT
    state = run(state, LinkGame("q-s", 0, 0, start, shootout=True, teams=("Team 2", "Team 3")))
    state = run(state, RecordResult("q-s", {"Team 2": -1, "Team 3": 2}), SYSTEM)
    assert state.tour.stages[0].advancing() == ("Team 1", "Team 3", "Team 5", "Team 6")
    assert stage_outcome(state, 0) == {
        "Team 1": "place", "Team 5": "place", "Team 6": "place", "Team 3": "shootout", "Team 2": "out",
        "Team 7": "out", "Team 4": "out", "Team 8": "out",
    }  # fmt: skip
    state = run(state, SeedStage("rating", order=TEAMS))
    state = link_all(state, "q-f")
    assert state.links[-1].kind is GameKind.FINAL and state.links[-1].theme_count == 12
    assert state.links[-1].assistant_team not in state.links[-1].teams
    state = run(state, RecordResult("q-f0", {"Team 1": 5, "Team 3": 40, "Team 5": 10, "Team 6": 0}), SYSTEM)
    assert state.finished
    assert state.tour.final_places()[:2] == (("Team 3",), ("Team 5",))


def test_results_come_only_from_the_system_once_and_protests_never_change_them() -> None:
    state = link_all(run(created(), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:]))), "q-")
    scores = {"Team 1": 30, "Team 2": 20, "Team 3": 10, "Team 4": -5}
    assert refusal(state, RecordResult("q-0", scores), HOST).code.value == "forbidden"
    state = run(state, RecordResult("q-0", scores), SYSTEM)
    assert decide(state, RecordResult("q-0", scores), SYSTEM) == []  # pushed twice: nothing new
    state = run(state, FileProtest("q-0", "Team 4", "Вопрос 3 был некорректен"))
    state = run(state, RuleProtest(1, "Отклонён", "Проверять источники"))
    assert state.tour.stages[0].result(0) is not None
    assert state.tour.stages[0].result(0).score_map == scores  # type: ignore[union-attr]
    assert state.protests.protests[0].ruling == "Отклонён"
    assert [entry[1] for entry in state.log][-2:] == ["protest_filed", "protest_ruled"]
    stranger = refusal(state, FileProtest("q-0", "Team 5", "not in this game"))
    assert stranger.code.value == "quiz_stage_protest_not_played"


@pytest.mark.parametrize("themes", [11])
def test_packs_that_run_out_are_refused(themes: int) -> None:
    state = run(created(themes=themes), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:])))
    state = run(state, LinkGame("q-a", 0, 0, 0, "Team 5"))
    short = refusal(state, LinkGame("q-b", 0, 1, 6, "Team 1"))
    assert short.code is QuizTourCode.PACKS_EXHAUSTED and short.params == {"needed": 6, "left": 5}


def test_two_qualifying_stages_with_best_others_lead_to_the_final() -> None:
    teams = tuple(f"T{i:02}" for i in range(1, 13))
    formula = Formula((StageRule(2, 0), StageRule(1, 2)))
    state = run(created(teams, formula, themes=60), SeedStage("rating", order=teams))
    assert [len(g) for g in state.tour.stages[0].games] == [4, 4, 4]
    state = link_all(state, "a")
    for game, members in enumerate(state.tour.stages[0].games):
        state = run(state, RecordResult(f"a{game}", {t: 40 - 10 * i for i, t in enumerate(members)}), SYSTEM)
    assert stage_outcome(state, 0)[state.tour.stages[0].games[0][2]] == "out"
    state = run(state, SeedStage("lot"))
    second = state.tour.stages[1]
    assert sorted(len(g) for g in second.games) == [3, 3] and len(second.teams) == 6
    state = link_all(state, "b")
    for game, members in enumerate(second.games):
        state = run(state, RecordResult(f"b{game}", {t: 30 - 10 * i - game for i, t in enumerate(members)}), SYSTEM)
    reasons = stage_outcome(state, 1)
    assert sorted(reasons.values()) == ["best_other", "best_other", "out", "out", "place", "place"]
    state = run(state, SeedStage("rating", order=teams))
    assert len(state.tour.stages[2].games) == 1 and state.formula.is_final(2)
    state = link_all(state, "f")
    assert state.links[-1].kind is GameKind.FINAL
    assert [(x.theme_start, x.theme_count) for x in state.links][-1] == (6 * 5, 12)


# --- SI-6 as decided in issue 31: a result follows its room until the stage is closed ---------------------------


def test_a_result_amended_in_its_room_reaches_the_stage_until_the_stage_is_closed_si_6() -> None:
    state = link_all(run(created(), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:]))), "q-")
    scores = {"Team 1": 30, "Team 2": 20, "Team 3": 10, "Team 4": -5}
    state = run(state, RecordResult("q-0", scores), SYSTEM)
    state = run(state, RecordResult("q-1", {"Team 5": 20, "Team 6": 15, "Team 7": 0, "Team 8": -10}), SYSTEM)
    assert state.tour.stages[0].advancing()[:2] == ("Team 1", "Team 2")
    # the arbiter undid a ruling after the game: Team 3 now 25, Team 2 15
    amended = {**scores, "Team 2": 15, "Team 3": 25}
    decided = decide(state, RecordResult("q-0", amended), SYSTEM)
    assert decided == [ResultAmended(SYSTEM.meta["at"], "q-0", tuple(amended.items()), tuple(scores.items()))]
    state = run(state, RecordResult("q-0", amended), SYSTEM)
    assert state.tour.stages[0].result(0).score_map == amended  # type: ignore[union-attr]
    assert state.tour.stages[0].advancing()[:2] == ("Team 1", "Team 3")  # the standings follow
    assert state.log[-1][1] == "result_amended"
    assert closed_links(state) == ()
    # the host closes the stage: from now on the result is final
    state = run(state, CloseStage(0))
    assert state.log[-1][1] == StageClosed.type and closed_links(state) == ("q-0", "q-1")
    refused = refusal(state, RecordResult("q-0", scores), SYSTEM)
    assert refused.code is QuizTourCode.RESULT_CLOSED and refused.params == {"stage": 1, "clause": "SI-6"}
    assert decide(state, CloseStage(0), HOST) == []


def test_a_stage_closes_by_itself_when_the_next_is_seeded_or_a_shootout_is_made_from_a_game() -> None:
    state = link_all(run(created(), SeedStage("hand", games=(TEAMS[:4], TEAMS[4:]))), "q-")
    assert refusal(state, CloseStage(0)).code is QuizTourCode.STAGE_OPEN  # games without results
    state = run(state, RecordResult("q-0", {"Team 1": 30, "Team 2": 10, "Team 3": 10, "Team 4": -5}), SYSTEM)
    state = run(state, RecordResult("q-1", {"Team 5": 20, "Team 6": 15, "Team 7": 0, "Team 8": -10}), SYSTEM)
    assert closed_links(state) == ()
    (need,) = state.shootouts_to_link()
    start, _count = state.allotment(GameKind.SHOOTOUT)
    state = run(state, LinkGame("q-s", 0, 0, start, shootout=True, teams=need.tie.teams))
    assert closed_links(state) == ("q-0",)  # the shootout was made from game 1's tie: game 1 is final
    refused = refusal(state, RecordResult("q-0", {"Team 1": 30, "Team 2": 12, "Team 3": 10, "Team 4": -5}), SYSTEM)
    assert refused.code is QuizTourCode.RESULT_CLOSED
    state = run(state, RecordResult("q-1", {"Team 5": 20, "Team 6": 25, "Team 7": 0, "Team 8": -10}), SYSTEM)
    state = run(state, RecordResult("q-s", {"Team 2": -1, "Team 3": 2}), SYSTEM)
    state = run(state, RecordResult("q-s", {"Team 2": 3, "Team 3": 2}), SYSTEM)  # the shootout amended: decided
    assert "Team 2" in state.tour.stages[0].advancing()
    undecided = decide(state, RecordResult("q-s", {"Team 2": 2, "Team 3": 2}), SYSTEM)
    assert isinstance(undecided, Refusal) and undecided.code.value == "quiz_stage_shootout_undecided"
    state = run(state, SeedStage("rating", order=TEAMS))
    assert set(closed_links(state)) == {"q-0", "q-1", "q-s"}  # the next stage seeded: the first is final
