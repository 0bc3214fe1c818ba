"""A togyz kumalak engine: search, evaluation, exact endgames, practice levels and post-game review.

Pure like the rest of :mod:`toreshi.togyz`: time comes from an injected clock, randomness from an injected
``random.Random``; inputs and results are picklable, so a web layer can run them in a process pool.

- :func:`analyse` (position, :class:`Limits`) → :class:`Analysis`: best move, score, line, depth, nodes/s.
- :func:`review` (hole numbers) / :func:`review_game` (a record) → :class:`Review`: evaluation and White's
  expected score after every ply, the worst moves with the better move and its line.
- :func:`choose_move` (position, a :class:`Level` of :data:`LEVELS`, rng) → :class:`Choice`, for practice games.

The search runs in C when the extension was built at install time (``search.NATIVE``), one search at a time per
process: run concurrent searches in a process pool (e.g. ``loop.run_in_executor(pool, partial(analyse, position,
limits, clock=time.monotonic))``); a search started while another holds the C search uses the Python one.
"""

from toreshi.togyz.engine.analysis import Analysis, analyse, expected_score
from toreshi.togyz.engine.levels import LEVELS, Choice, Level, choose_move
from toreshi.togyz.engine.review import MoveReview, Review, review, review_game
from toreshi.togyz.engine.search import Iteration, Limits

__all__ = [
    "LEVELS",
    "Analysis",
    "Choice",
    "Iteration",
    "Level",
    "Limits",
    "MoveReview",
    "Review",
    "analyse",
    "choose_move",
    "expected_score",
    "review",
    "review_game",
]
