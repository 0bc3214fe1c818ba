"""Evaluation weights (centi-kumalaks per unit of each feature), fitted by ``benchmarks/tune_evaluation.py``.

Texel tuning on the 2,398 PlayOK games (2024-2025): every position from ply 6 on, labelled with the game's
score for the side to move; 190,235 training positions, 20,529 held out (every game whose index ends in 0).
Held-out figures (log-loss / mean squared error / winner predicted by the sign, decided games):

- material only (kazan difference × kumalaks in the kazans / 81): 0.6793 / 0.2358 / 58.5 %
- these weights: 0.5495 / 0.1813 / 70.5 %

A fit that also had a plain kazan difference and a tuzdyk × kumalaks-on-the-board term did a little better
(0.5412) but gave a kazan kumalak a *negative* worth in the opening and an early tuzdyk a negative one: signs a
search would exploit, so those two terms were dropped.

``LOGIT_PER_CENTI`` is the fitted logit per centi-kumalak of the static evaluation. What the review and the
broadcast bar show are *search* scores, so their curve has its own scale, ``SEARCH_LOGIT_PER_CENTI``, fitted
the same way on 4,000 corpus positions (seed 1) each searched to depth 8 by the C search (``--calibrate-depth
8``; positions whose result is certain left out): 3,432 training, 386 held out, held-out log-loss 0.5461,
MSE 0.1831, winner 68.0 %. The expected score of the side to move is
``1 / (1 + exp(-SEARCH_LOGIT_PER_CENTI · score))``.
"""

WEIGHTS: dict[str, int] = {
    "material": 100,
    "tuzdyk": 2665,
    "mobility": 751,
    "capture_now": 171,
    "capture_threat": -87,
    "row": 51,
    "atsyz_danger": -551,
}
LOGIT_PER_CENTI = 0.000463
SEARCH_LOGIT_PER_CENTI = 0.000532
