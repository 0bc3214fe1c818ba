"""Board tables, board prizes and the individual games of a team competition.

Every board of an entered match is one individual game between two listed players: it counts for both players'
records (the board table) and, when it was played over the board, for the rating (:func:`rated_games`).

**Board prizes** go, for each board, to the player with the best percentage of points over the games they played
on that board, among those who played at least the minimum number of games there (the tournament's setting, or
half the rounds rounded up); equal percentages are split by more games, then by name. A forfeit is not a game
played: it counts for the team, not for the board prize.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from toreshi.tournament.model import GameResult
from toreshi.tournament.ratings import RatedGame, RatingList
from toreshi.tournament.teams.model import GAME_POINTS, Match, TeamTournament, first_team_white


@dataclass(frozen=True)
class BoardGame:
    """One game of a match: the team numbers and list places (0-based) of White and Black, and the result."""

    round: int
    match: int
    board: int
    white_team: int
    white: int
    black_team: int
    black: int
    result: GameResult


def games_of(t: TeamTournament) -> Iterator[BoardGame]:
    for r in t.rounds:
        for m in r.matches:
            yield from _match_games(r.number, m)


def _match_games(round_number: int, m: Match) -> Iterator[BoardGame]:
    if m.second is None:
        return
    for board, result in enumerate(m.results, start=1):
        a = (m.first, m.first_lineup[board - 1])
        b = (m.second, m.second_lineup[board - 1])
        (wt, w), (bt, bl) = (a, b) if first_team_white(board) else (b, a)
        yield BoardGame(round_number, m.number, board, wt, w, bt, bl, result)


class _Score:
    """Games played over the board and the points in them (a board's or a whole competition's record)."""

    games: int
    points: Fraction

    @property
    def percentage(self) -> Fraction:
        """The points as a percentage of the games played (0 with none)."""
        return self.points * 100 / self.games if self.games else Fraction(0)


@dataclass(frozen=True)
class BoardRecord(_Score):
    """A player's games on one board."""

    team: int
    place: int
    board: int
    games: int
    """Games played over the board."""
    points: Fraction
    """Points in those games."""
    forfeits: int


def board_records(t: TeamTournament) -> dict[int, list[BoardRecord]]:
    """Per board (1 … N): every player who sat there, with their games and points."""
    tally: dict[tuple[int, int, int], list[Fraction | int]] = {}
    for g in games_of(t):
        white, black = GAME_POINTS[g.result]
        for team, place, scored in ((g.white_team, g.white, white), (g.black_team, g.black, black)):
            entry = tally.setdefault((g.board, team, place), [0, Fraction(0), 0])
            if g.result.played:
                entry[0] = int(entry[0]) + 1
                entry[1] = Fraction(entry[1]) + scored
            else:
                entry[2] = int(entry[2]) + 1
    by_board: dict[int, list[BoardRecord]] = {b: [] for b in range(1, t.settings.boards + 1)}
    for (board, team, place), (games, points, forfeits) in tally.items():
        by_board[board].append(BoardRecord(team, place, board, int(games), Fraction(points), int(forfeits)))
    for records in by_board.values():
        records.sort(key=lambda r: (-r.percentage, -r.games, t.team(r.team).players[r.place].name))
    return by_board


def minimum_games(t: TeamTournament) -> int:
    return t.settings.board_prize_min_games or (t.rounds_planned + 1) // 2


def board_prizes(t: TeamTournament) -> dict[int, list[BoardRecord]]:
    """Per board, the winners of its prize (several when percentage and games are equal); empty when nobody
    played the minimum."""
    least = minimum_games(t)
    prizes: dict[int, list[BoardRecord]] = {}
    for board, records in board_records(t).items():
        eligible = [r for r in records if r.games >= least and r.games > 0]
        if not eligible:
            prizes[board] = []
            continue
        best = eligible[0]
        prizes[board] = [r for r in eligible if (r.percentage, r.games) == (best.percentage, best.games)]
    return prizes


@dataclass(frozen=True)
class TeamRatedGame:
    """A game for the rating list: the players by (team, place), White's score."""

    white: tuple[int, int]
    black: tuple[int, int]
    score: Fraction


def rated_games(t: TeamTournament) -> list[TeamRatedGame]:
    """The games played over the board (forfeits are not rated), each once."""
    return [
        TeamRatedGame((g.white_team, g.white), (g.black_team, g.black), GAME_POINTS[g.result][0])
        for g in games_of(t)
        if g.result.played
    ]


def rate(t: TeamTournament, ratings: RatingList, ids: Mapping[tuple[int, int], str], on: date) -> RatingList:
    """The club rating list after the competition's games, as one rating period (the individual tournament's Elo,
    :mod:`toreshi.tournament.ratings`): ``ids`` gives each listed player's (team, place) a rating-list id; games of
    players without one are left out."""
    games = [
        RatedGame(ids[g.white], ids[g.black], g.score) for g in rated_games(t) if g.white in ids and g.black in ids
    ]
    return ratings.apply(games, on)


@dataclass(frozen=True)
class PlayerRecord(_Score):
    """A player's games over the whole competition, whatever boards they sat at."""

    team: int
    place: int
    boards: tuple[int, ...]
    games: int
    points: Fraction
    forfeits: int


def player_records(t: TeamTournament) -> list[PlayerRecord]:
    """Every listed player's record (also those who never played), team by team in list order."""
    by_player: dict[tuple[int, int], list[BoardRecord]] = {}
    for records in board_records(t).values():
        for r in records:
            by_player.setdefault((r.team, r.place), []).append(r)
    out = []
    for team in sorted(t.teams, key=lambda x: x.number):
        for place in range(len(team.players)):
            rows = by_player.get((team.number, place), [])
            out.append(PlayerRecord(team.number, place, tuple(sorted(r.board for r in rows)),
                                    sum(r.games for r in rows), sum((r.points for r in rows), Fraction(0)),
                                    sum(r.forfeits for r in rows)))  # fmt: skip
    return out
