"""Every enumeration of refusal codes, named once: the cores' and the JSON API's.

A refusal crosses a process as its code's text (forwarded by the instance that owns a room, kept in a session for the
next page); reading it back needs the code's enumeration. Naming them here, instead of walking whatever subclasses
were imported so far, makes the result the same on every process whatever it imported first.
``tests/web/test_refusals.py`` fails when an enumeration of the product is missing here.
"""

from __future__ import annotations

from toreshi.clock.codes import ClockCode
from toreshi.kit.refusal import CodeBook, Common, RefusalCode
from toreshi.quiz.codes import PackCode, QuizCode, StageCode
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.togyz.match.codes import TogyzCode
from toreshi.tournament.codes import ProtestCode, TournamentCode
from toreshi.tournament.teams.codes import TeamCode


class ApiCode(RefusalCode):
    """Why the JSON API refuses a request before any room sees it (messages in ``toreshi.texts.refusals.togyz``).
    Named here, beside the cores' codes, so that the texts that translate it need not import the web app."""

    SIGN_IN_REQUIRED = "sign_in_required"
    """Only a signed-in arbiter may do this."""
    CSRF_FAILED = "csrf_failed"
    """The ``X-CSRF-Token`` header is missing or wrong (``GET /api/session`` gives it)."""
    BODY_NOT_JSON = "body_not_json"
    """The body is not a JSON object."""
    UNKNOWN_TIME_CONTROL = "unknown_time_control"
    """``control`` names no preset (``presets`` lists them)."""
    NO_SUCH_ROOM = "no_such_room"


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
    ApiCode,
)
"""Every code a refusal can carry: read back from another instance, or from a session for the next page."""
