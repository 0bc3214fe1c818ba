"""A club's «Своя игра» tour: teams, stages, shootouts and the final as a pure core (:mod:`.core`)."""

from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.quiz.tour.core import COMMANDS, EVENTS, TourState, decide, evolve

__all__ = ["COMMANDS", "EVENTS", "QuizTourCode", "TourState", "decide", "evolve"]
