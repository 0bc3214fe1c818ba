"""FIDE-style Elo ratings for a club: expected scores, K factors, rating periods and the rating list.

The rules follow the FIDE Rating Regulations (2024) as summarised in ``shared/docs/tournaments.md`` §7.1, each
a setting in :class:`EloRules`:

* expected score from FIDE's table 8.1(b) (or the logistic curve, if a club prefers it);
* the 400-point rule: a rating difference of more than 400 counts as 400;
* K = 40 for a new player until 30 games, and for a player under 18 rated below 2300; K = 20 below 2400;
  K = 10 once 2400 has been reached (for good); and K × games in one period never above 700;
* only games played over the board with a 1 / ½ / 0 result are rated (no forfeits, no byes, no games of
  less than one move).

All ratings of a period are computed from the ratings at its start. TK-B1 (blitz and rapid participants are
entered in a table ordered by rating) is :func:`seed_by_rating`.

>>> expected_score(2100, 2000), expected_score(2000, 2100), expected_score(2600, 2000)
(Fraction(16, 25), Fraction(9, 25), Fraction(23, 25))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from enum import Enum
from fractions import Fraction

from toreshi.tournament.model import Participant, Record, ResultCode


class RatingError(ValueError):
    """A rating input that makes no sense (unknown player, impossible score, bad setting)."""


class Expectation(Enum):
    FIDE_TABLE = "fide_table"
    LOGISTIC = "logistic"


@dataclass(frozen=True)
class EloRules:
    k_new_player: int = 40
    new_player_games: int = 30
    k_junior: int = 40
    junior_age: int = 18
    junior_rating_limit: int = 2300
    k_standard: int = 20
    k_top: int = 10
    top_rating: int = 2400
    max_difference: int | None = 400
    """The 400-point rule (``None``: no cap)."""
    max_k_times_games: int | None = 700
    expectation: Expectation = Expectation.FIDE_TABLE


# FIDE Rating Regulations 8.1(b): the largest rating difference for each expected score of the higher-rated
# player, in hundredths (0–3 → 0.50, 4–10 → 0.51, …, 620–735 → 0.99, above 735 → 1.00).
_PD_TABLE = (
    (3, 50), (10, 51), (17, 52), (25, 53), (32, 54), (39, 55), (46, 56), (53, 57), (61, 58), (68, 59),
    (76, 60), (83, 61), (91, 62), (98, 63), (106, 64), (113, 65), (121, 66), (129, 67), (137, 68), (145, 69),
    (153, 70), (162, 71), (170, 72), (179, 73), (188, 74), (197, 75), (206, 76), (215, 77), (225, 78),
    (235, 79), (245, 80), (256, 81), (267, 82), (278, 83), (290, 84), (302, 85), (315, 86), (328, 87),
    (344, 88), (357, 89), (374, 90), (391, 91), (411, 92), (432, 93), (456, 94), (484, 95), (517, 96),
    (559, 97), (619, 98), (735, 99),
)  # fmt: skip


def expected_score(rating: int, opponent: int, rules: EloRules | None = None) -> Fraction:
    """The expected score of a player rated ``rating`` against ``opponent``."""
    rules = rules or EloRules()
    difference = rating - opponent
    if rules.max_difference is not None:
        difference = max(-rules.max_difference, min(rules.max_difference, difference))
    if rules.expectation is Expectation.LOGISTIC:
        value = 1 / (1 + 10 ** (-difference / 400))
        return Fraction(round(value * 100), 100)
    higher = next((pd for limit, pd in _PD_TABLE if abs(difference) <= limit), 100)
    return Fraction(higher if difference >= 0 else 100 - higher, 100)


@dataclass(frozen=True)
class RatedPlayer:
    """A player on the club rating list."""

    id: str
    name: str
    rating: int
    games: int = 0
    """Rated games played so far (for the new-player K)."""
    birth_date: date | None = None
    reached_top: bool = False
    """Has ever been rated ``top_rating`` or more: K stays at ``k_top``."""
    club: str | None = None


def age_on(birth: date, day: date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def k_factor(player: RatedPlayer, on: date, rules: EloRules | None = None) -> int:
    """K for ``player`` in a period starting ``on``.

    >>> k_factor(RatedPlayer("a", "A", 1500, games=10), date(2026, 1, 1))
    40
    >>> k_factor(RatedPlayer("b", "B", 2350, games=200), date(2026, 1, 1))
    20
    >>> k_factor(RatedPlayer("c", "C", 2390, games=200, reached_top=True), date(2026, 1, 1))
    10
    """
    rules = rules or EloRules()
    if player.reached_top or player.rating >= rules.top_rating:
        return rules.k_top
    if player.games < rules.new_player_games:
        return rules.k_new_player
    junior = player.birth_date is not None and age_on(player.birth_date, on) < rules.junior_age
    if junior and player.rating < rules.junior_rating_limit:
        return rules.k_junior
    return rules.k_standard


def _round_half_away(value: Fraction) -> int:
    return int(math.copysign(math.floor(abs(value) + Fraction(1, 2)), value))


def rating_change(
    player: RatedPlayer,
    games: Iterable[tuple[int, Fraction]],
    on: date,
    rules: EloRules | None = None,
) -> int:
    """ΔR = K · Σ(score − expected) over ``(opponent rating, score)`` pairs, rounded half away from zero.

    Beating a 2100 (expected 0.36) and drawing a 1900 (expected 0.64) is +0.50; with K = 20 that is +10:

    >>> games = [(2100, Fraction(1)), (1900, Fraction(1, 2))]
    >>> rating_change(RatedPlayer("a", "A", 2000, games=50), games, date(2026, 1, 1))
    10
    """
    rules = rules or EloRules()
    games = list(games)
    for _, score in games:
        if score not in (0, Fraction(1, 2), 1):
            raise RatingError(f"a rated game scores 1, ½ or 0, not {score}")
    k = Fraction(k_factor(player, on, rules))
    if rules.max_k_times_games is not None and games and k * len(games) > rules.max_k_times_games:
        k = Fraction(rules.max_k_times_games, len(games))
    total = sum((score - expected_score(player.rating, opp, rules) for opp, score in games), Fraction(0))
    return _round_half_away(k * total)


@dataclass(frozen=True)
class RatedGame:
    """One rated game between two listed players: ``score`` is White's (1, ½ or 0)."""

    white: str
    black: str
    score: Fraction


@dataclass(frozen=True)
class RatingList:
    """The club rating list: apply a rating period, list players by rating."""

    players: tuple[RatedPlayer, ...]
    rules: EloRules = EloRules()

    def __post_init__(self) -> None:
        ids = [p.id for p in self.players]
        if len(ids) != len(set(ids)):
            raise RatingError("a player id appears twice on the rating list")

    def player(self, player_id: str) -> RatedPlayer:
        for p in self.players:
            if p.id == player_id:
                return p
        raise RatingError(f"no player {player_id!r} on the rating list")

    def with_player(self, player: RatedPlayer) -> RatingList:
        if any(p.id == player.id for p in self.players):
            raise RatingError(f"player {player.id!r} is already on the list")
        return replace(self, players=(*self.players, player))

    def apply(self, games: Iterable[RatedGame], on: date) -> RatingList:
        """The list after a rating period: every change computed from the ratings before the period."""
        results: dict[str, list[tuple[int, Fraction]]] = {}
        for game in games:
            white, black = self.player(game.white), self.player(game.black)
            if white.id == black.id:
                raise RatingError(f"{white.id!r} cannot play against themselves")
            results.setdefault(white.id, []).append((black.rating, game.score))
            results.setdefault(black.id, []).append((white.rating, 1 - game.score))
        updated = []
        for p in self.players:
            played = results.get(p.id, [])
            if not played:
                updated.append(p)
                continue
            rating = p.rating + rating_change(p, played, on, self.rules)
            reached = p.reached_top or rating >= self.rules.top_rating
            updated.append(replace(p, rating=rating, games=p.games + len(played), reached_top=reached))
        return replace(self, players=tuple(updated))

    def ranked(self) -> list[tuple[int, RatedPlayer]]:
        """(rank, player) by rating, highest first; equal ratings share a rank, listed by name."""
        ordered = sorted(self.players, key=lambda p: (-p.rating, p.name))
        ranked: list[tuple[int, RatedPlayer]] = []
        for position, p in enumerate(ordered, start=1):
            rank = ranked[-1][0] if ranked and ranked[-1][1].rating == p.rating else position
            ranked.append((rank, p))
        return ranked


def rated_games(record: Record, ids: Mapping[int, str]) -> list[RatedGame]:
    """The rated games of a tournament record (each once), for players that have a rating-list id."""
    games = []
    for player in sorted(record.entries):
        for entry in record.rounds_of(player):
            if not entry.code.rated or entry.opponent is None or entry.colour is None:
                continue
            if entry.colour.value != "w" or player not in ids or entry.opponent not in ids:
                continue
            score = {ResultCode.WIN: Fraction(1), ResultCode.DRAW: Fraction(1, 2)}.get(entry.code, Fraction(0))
            games.append(RatedGame(ids[player], ids[entry.opponent], score))
    return games


def seed_by_rating(participants: Iterable[Participant]) -> tuple[Participant, ...]:
    """TK-B1: participants in a table ordered by rating, renumbered 1, 2, … (unrated last, then by name).

    >>> [(p.number, p.name) for p in seed_by_rating([Participant(1, "Ospan", 1500), Participant(2, "Aru", None),
    ...                                               Participant(3, "Dana", 1720)])]
    [(1, 'Dana'), (2, 'Ospan'), (3, 'Aru')]
    """
    ordered = sorted(participants, key=lambda p: (p.rating is None, -(p.rating or 0), p.name))
    return tuple(replace(p, number=i) for i, p in enumerate(ordered, start=1))
