"""Messages of a club tour's refusals (:class:`~toreshi.quiz.tour.codes.QuizTourCode`)."""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.texts.i18n import N_

MESSAGES: dict[RefusalCode, str] = {
    QuizTourCode.NOT_CREATED: N_("This tour has not been created yet."),
    QuizTourCode.ALREADY_CREATED: N_("The tour has already been created."),
    QuizTourCode.NAME: N_("Give the tour a name."),
    QuizTourCode.DATE: N_("The tour's date is not a date: %(date)s."),
    QuizTourCode.TEAMS: N_("A tour needs at least 2 different teams, not %(count)s."),
    QuizTourCode.NO_PACK: N_("Choose at least one question pack with playable themes."),
    QuizTourCode.FORMULA: N_(
        "The formula does not fit: stage %(stage)s has %(teams)s teams and would advance %(advancing)s."
    ),
    QuizTourCode.FINAL_TOO_BIG: N_(
        "%(teams)s teams would reach the final; a game has at most %(maximum)s (%(clause)s)."
    ),
    QuizTourCode.STARTED: N_("The formula and the teams are fixed once the first game has started (%(clause)s)."),
    QuizTourCode.NOT_SEEDABLE: N_("Stage %(stage)s cannot be seeded now: games or shootouts remain."),
    QuizTourCode.FINISHED: N_("The tour is over."),
    QuizTourCode.HAND_SEEDING: N_("Seeding by hand must place every team once, in games of %(sizes)s teams."),
    QuizTourCode.NO_SUCH_GAME: N_("Stage %(stage)s has no game %(game)s waiting for a room."),
    QuizTourCode.GAME_LINKED: N_("Game %(game)s of stage %(stage)s already has its room."),
    QuizTourCode.THEMES_USED: N_(
        "Themes from %(start)s are not the tour's next unused ones (from %(expected)s): no question is played twice."
    ),
    QuizTourCode.PACKS_EXHAUSTED: N_(
        "The tour's packs are used up: the game needs %(needed)s themes, %(left)s are left."
    ),
    QuizTourCode.NOT_A_TOUR_GAME: N_("The game %(room)s is not a game of this tour."),
    QuizTourCode.RESULT_TEAMS: N_("The result is not for the game's teams (%(teams)s)."),
    QuizTourCode.NO_SUCH_SHOOTOUT: N_("No shootout is pending for %(teams)s."),
    QuizTourCode.ASSISTANT_PLAYS: N_("The assistant's team %(team)s plays in this game (%(clause)s)."),
    QuizTourCode.PROTEST_TEXT: N_("Write what the protest is about."),
    QuizTourCode.RESULT_CLOSED: N_(
        "Stage %(stage)s is closed: its results are final and the game's result cannot change (%(clause)s)."
    ),
    QuizTourCode.STAGE_OPEN: N_("Stage %(stage)s cannot be closed while its games or shootouts remain."),
}
