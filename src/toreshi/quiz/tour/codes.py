"""Refusals of a club's «Своя игра» tour (:mod:`toreshi.quiz.tour`): codes with parameters, never sentences."""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode

__all__ = ["QuizTourCode"]


class QuizTourCode(RefusalCode):
    """Why a tour refuses a command (parameters in brackets)."""

    NOT_CREATED = "quiztour_not_created"
    ALREADY_CREATED = "quiztour_already_created"
    NAME = "quiztour_name"
    DATE = "quiztour_date"
    """The date is not a calendar date (``date``)."""
    TEAMS = "quiztour_teams"
    """Fewer than 2 teams, or a team named twice (``count``)."""
    NO_PACK = "quiztour_no_pack"
    FORMULA = "quiztour_formula"
    """The formula does not fit the number of teams (``teams``, ``stage``, ``advancing``)."""
    FINAL_TOO_BIG = "quiztour_final_too_big"
    """More teams reach the final than a game holds (``teams``, ``maximum``, ``clause``)."""
    STARTED = "quiztour_started"
    """The formula and the teams are fixed once the first game has started (``clause``)."""
    NOT_SEEDABLE = "quiztour_not_seedable"
    """No stage can be seeded now: games or shootouts of the current stage remain (``stage``)."""
    FINISHED = "quiztour_finished"
    HAND_SEEDING = "quiztour_hand_seeding"
    """Seeding by hand must place every team once in games of the planned sizes (``sizes``)."""
    NO_SUCH_GAME = "quiztour_no_such_game"
    """(``stage``, ``game``)"""
    GAME_LINKED = "quiztour_game_linked"
    """The game already has its room (``stage``, ``game``)."""
    THEMES_USED = "quiztour_themes_used"
    """The themes given to a game are not the next unused ones of the tour's packs (``start``, ``expected``)."""
    PACKS_EXHAUSTED = "quiztour_packs_exhausted"
    """The tour's packs have no more unplayed themes for this game (``needed``, ``left``)."""
    NOT_A_TOUR_GAME = "quiztour_not_a_tour_game"
    """(``room``)"""
    RESULT_TEAMS = "quiztour_result_teams"
    """The game's scores are not for its teams (``teams``)."""
    NO_SUCH_SHOOTOUT = "quiztour_no_such_shootout"
    """No shootout is pending for these teams (``teams``)."""
    ASSISTANT_PLAYS = "quiztour_assistant_plays"
    """The assistant's team plays in the game (``team``, ``clause``)."""
    PROTEST_TEXT = "quiztour_protest_text"
    RESULT_CLOSED = "quiztour_result_closed"
    """The game's stage is closed: its result is final and cannot be amended (``stage``, ``clause`` SI-6)."""
    STAGE_OPEN = "quiztour_stage_open"
    """The stage cannot be closed while games or shootouts of it remain (``stage``)."""
