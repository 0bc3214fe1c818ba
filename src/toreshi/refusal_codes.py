"""Every enumeration of refusal codes of the cores, named once.

A refusal crosses a process as its code's text (forwarded by the instance that owns a room, kept in a session for the
next page); reading it back needs the code's enumeration. Naming them here, instead of walking whatever subclasses
were imported so far, makes the result the same on every process whatever it imported first.
``tests/web/test_refusals.py`` fails when an enumeration of the product is missing here.
"""

from __future__ import annotations

from toreshi.clock.codes import ClockCode
from toreshi.kit.refusal import CodeBook, Common
from toreshi.quiz.codes import PackCode, QuizCode, StageCode
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.togyz.match.codes import TogyzCode
from toreshi.tournament.codes import ProtestCode, TournamentCode
from toreshi.tournament.teams.codes import TeamCode

EVERY_CODE = CodeBook(
    Common,
    ClockCode,
    TogyzCode,
    TournamentCode,
    ProtestCode,
    TeamCode,
    QuizCode,
    PackCode,
    StageCode,
    QuizTourCode,
)
"""The codes any room or core can refuse with (the web adds its own: ``toreshi.web.api_codes.WEB_CODES``)."""
