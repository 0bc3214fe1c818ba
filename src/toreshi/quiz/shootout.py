"""Shootouts (SI-2.2): when tied teams compete for an advancing place, and when the tie is broken.

A request that does not fit the scores or the boundaries raises :class:`~toreshi.kit.refusal.Refused` with a
:class:`~toreshi.quiz.codes.StageCode`.

A shootout is played as a game of kind ``shootout`` (:mod:`toreshi.quiz.game`): one theme, then single reserve
questions. This module holds the pure arithmetic around it:

* :func:`find_ties` — which tied groups straddle an advancing boundary and so must play a shootout;
* :func:`is_decided` — whether the shootout may stop: every boundary inside the tied group has a gap that the
  remaining questions can no longer close (during the theme), or any gap at all (single questions: the first
  difference in score decides);
* :func:`resolve_order` — the game's final order once its shootouts are played.

>>> ties = find_ties({"A": 7, "B": 3, "C": 3, "D": -2}, advancing=2)
>>> ties[0].teams, ties[0].cuts
(('B', 'C'), (1,))
>>> is_decided({"B": 4, "C": -1}, cuts=(1,), remaining_values=(2,))  # a swing of 2+2 cannot close 5
True
>>> is_decided({"B": 4, "C": 0}, cuts=(1,), remaining_values=(2,))   # C right (+2), B wrong (−2): level
False
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from toreshi.kit.refusal import Refused
from toreshi.quiz.codes import StageCode

__all__ = ["Tie", "find_ties", "is_decided", "max_swing", "resolve_order", "score_groups"]


@dataclass(frozen=True, slots=True)
class Tie:
    """A group of teams level on ``score`` across an advancing boundary: they must play a shootout (SI-2.2).

    ``first_place`` is the 1-based place where the group starts; ``cuts`` says, inside the group, after how many
    of its teams each boundary falls — ``(1,)``: one of them advances.
    """

    teams: tuple[str, ...]
    score: int
    first_place: int
    cuts: tuple[int, ...]


def _boundaries(advancing: int | Iterable[int]) -> frozenset[int]:
    found = frozenset((advancing,)) if isinstance(advancing, int) else frozenset(advancing)
    if any(b < 0 for b in found):
        raise Refused(StageCode.BAD_BOUNDARIES)
    return found


def find_ties(scores: Mapping[str, int], advancing: int | Iterable[int]) -> tuple[Tie, ...]:
    """The tied groups that decide advancement: ``advancing`` is how many teams of the game go through, or
    several such counts when places lead to different stages (e.g. ``(1, 2)``: winner to the final, runner-up
    to a semi-final). Teams keep their seat order (the order of ``scores``) inside a group.
    """
    boundaries = _boundaries(advancing)
    ties: list[Tie] = []
    start = 0
    for teams in score_groups(scores):
        end = start + len(teams)
        cuts = tuple(sorted(b - start for b in boundaries if start < b < end))
        if cuts:
            ties.append(Tie(teams, scores[teams[0]], start + 1, cuts))
        start = end
    return tuple(ties)


def score_groups(scores: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """The teams in groups of equal score, best first; seat order (the order of ``scores``) inside a group.

    >>> score_groups({"A": 3, "B": 7, "C": 3})
    (('B',), ('A', 'C'))
    """
    groups: dict[int, list[str]] = {}
    for team, score in scores.items():
        groups.setdefault(score, []).append(team)
    return tuple(tuple(groups[score]) for score in sorted(groups, reverse=True))


def max_swing(remaining_values: Iterable[int]) -> int:
    """How far two teams' gap can still move: on each question the leader may lose its value and the
    trailer gain it."""
    return 2 * sum(remaining_values)


def is_decided(scores: Mapping[str, int], cuts: Sequence[int], remaining_values: Iterable[int]) -> bool:
    """Whether every boundary is settled: the gap at each cut exceeds what the remaining questions can swing.

    With no questions left (single-question play) any strict gap settles a boundary: "the first difference in
    score" (SI-2.2).
    """
    if not cuts:
        raise Refused(StageCode.NO_BOUNDARY, clause="SI-2.2")
    ordered = sorted(scores.values(), reverse=True)
    if any(not 0 < cut < len(ordered) for cut in cuts):
        raise Refused(StageCode.BAD_BOUNDARIES, teams=len(ordered))
    swing = max_swing(remaining_values)
    return all(ordered[cut - 1] - ordered[cut] > swing for cut in cuts)


def resolve_order(
    scores: Mapping[str, int], shootouts: Mapping[tuple[str, ...], Mapping[str, int]]
) -> tuple[tuple[str, ...], ...]:
    """The game's places, best first, as groups of teams still sharing a place.

    ``shootouts`` maps each tied group (as :func:`find_ties` gave it) to the scores of its shootout; teams of the
    group are ordered by those, the rest of the game by their game score.

    >>> resolve_order({"A": 5, "B": 3, "C": 3}, {("B", "C"): {"B": -1, "C": 2}})
    (('A',), ('C',), ('B',))
    """
    places: list[tuple[str, ...]] = []
    for group in score_groups(scores):
        played = shootouts.get(group)
        if played is None:
            places.append(group)
            continue
        if set(played) != set(group):
            raise Refused(StageCode.SHOOTOUT_PLAYERS, teams=", ".join(group), played=", ".join(played))
        places.extend(score_groups({team: played[team] for team in group}))
    return tuple(places)
