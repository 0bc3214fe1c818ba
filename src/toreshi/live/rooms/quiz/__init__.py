"""A «Своя игра» game as a live room (roles, press arbitration and timers in :mod:`toreshi.quiz.play`).

Roles: ``host`` (also a signed-in ``arbiter``), ``team`` (``Actor.name`` is the team's name in the game; grants are
stored as ``team:1``…``team:4``), ``assistant`` (keeps and announces the score, SI-4.7), ``projector`` (the board on
the wall; may forward keys of USB buzzers), ``buttons`` (server-side button sources such as a serial port) and
``spectator``.

- :mod:`~toreshi.live.rooms.quiz.room` — the adapter (:class:`QuizRoom`): commands read at the edge, the core's
  ``decide`` and ``evolve``, the log, the timers;
- :mod:`~toreshi.live.rooms.quiz.views` — what each role sees, and what it may do now;
- :mod:`~toreshi.live.rooms.quiz.report` — the game report;
- :mod:`~toreshi.live.rooms.quiz.roles` — the kind's name and its roles.
"""

from toreshi.live.rooms.quiz.roles import KIND, role_of
from toreshi.live.rooms.quiz.room import QuizRoom
from toreshi.quiz.play.events import BuzzDecided, PressLate, PressReceived

PRESS = PressReceived.type
DECIDED = BuzzDecided.type
LATE = PressLate.type

__all__ = ["DECIDED", "KIND", "LATE", "PRESS", "QuizRoom", "role_of"]
