"""A «Своя игра» game in play: what the host, the teams, the buttons and the timer send, decided and folded.

The room kit's shape (:mod:`toreshi.kit.core`) for a quiz room, pure like the game it wraps:

- :mod:`~toreshi.quiz.play.commands` — typed commands (read from clients by the kit's codec) and who may send them;
- :mod:`~toreshi.quiz.play.events` — the room's events around the game's, and the one codec of the log;
- :mod:`~toreshi.quiz.play.state` — :class:`~toreshi.quiz.play.state.PlayState` and its fold,
  :func:`~toreshi.quiz.play.state.evolve`;
- :mod:`~toreshi.quiz.play.decide` — ``decide(state, command, context) → events | Refusal``;
- :mod:`~toreshi.quiz.play.presses` — presses, the arbiter's decision and what time alone decides.

The live room (:mod:`toreshi.live.rooms.quiz`) reads commands at the edge, passes the room time, the server's
measurements and a seeded generator in, persists the events and shapes what each role sees.
"""
