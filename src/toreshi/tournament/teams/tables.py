"""The tables people read: the team crosstable, standings and board tables as rows, and as CSV."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toreshi.kit.spreadsheet import csv_text
from toreshi.tournament.model import Colour, format_points
from toreshi.tournament.teams.boards import BoardRecord, board_records, minimum_games
from toreshi.tournament.teams.model import PrimaryScore, TeamTournament
from toreshi.tournament.teams.scoring import team_rounds
from toreshi.tournament.teams.tiebreaks import TeamStandings, team_standings


@dataclass(frozen=True)
class CrossCell:
    round: int
    opponent: int | None
    colour: Colour | None
    game_points: Fraction
    match_points: Fraction


@dataclass(frozen=True)
class CrossRow:
    rank: int
    team: int
    cells: tuple[CrossCell, ...]
    """Per round, in round order."""
    against: dict[int, Fraction]
    """Game points against each opponent met (summed over meetings): the round robin's grid."""
    match_points: Fraction
    game_points: Fraction


def crosstable(t: TeamTournament) -> tuple[TeamStandings, tuple[CrossRow, ...]]:
    standings = team_standings(t)
    rows = team_rounds(t)
    out = []
    for row in standings.rows:
        cells = tuple(CrossCell(r.round, r.opponent, r.colour, r.game_points, r.match_points) for r in rows[row.team])
        against: dict[int, Fraction] = {}
        for r in rows[row.team]:
            if r.opponent is not None:
                against[r.opponent] = against.get(r.opponent, Fraction(0)) + r.game_points
        out.append(CrossRow(row.rank, row.team, cells, against, row.match_points, row.game_points))
    return standings, tuple(out)


def standings_csv(t: TeamTournament) -> str:
    return csv_text(standings_rows(t))


def standings_rows(t: TeamTournament) -> list[list[str]]:
    """The standings as CSV rows, a header row first."""
    standings = team_standings(t)
    head = ["rank", "team", "MP", "GP", *[str(tb) for tb in standings.tiebreaks]]
    body = [
        [
            str(r.rank),
            t.team(r.team).name,
            format_points(r.match_points),
            format_points(r.game_points),
            *[format_points(v) for v in r.values],
        ]
        for r in standings.rows
    ]
    return [head, *body]


def crosstable_csv(t: TeamTournament) -> str:
    return csv_text(crosstable_rows(t))


def crosstable_rows(t: TeamTournament) -> list[list[str]]:
    """The crosstable as CSV rows, a header row first."""
    _, rows = crosstable(t)
    rounds = len(t.rounds)
    head = ["rank", "number", "team", *[f"R{r}" for r in range(1, rounds + 1)], "MP", "GP"]
    body = []
    for row in rows:
        by_round = {c.round: c for c in row.cells}
        cells = []
        for r in range(1, rounds + 1):
            c = by_round.get(r)
            if c is None:
                cells.append("")
            elif c.opponent is None:
                cells.append(f"bye {format_points(c.game_points)}")
            else:
                colour = "w" if c.colour is Colour.WHITE else "b"
                cells.append(f"{c.opponent}{colour} {format_points(c.game_points)}")
        body.append([str(row.rank), str(row.team), t.team(row.team).name, *cells,
                     format_points(row.match_points), format_points(row.game_points)])  # fmt: skip
    return [head, *body]


def board_csv(t: TeamTournament) -> str:
    return csv_text(board_rows(t))


def board_rows(t: TeamTournament) -> list[list[str]]:
    """The board tables as CSV rows, a header row first."""
    head = ["board", "team", "player", "games", "points", "percent", "forfeits", "prize_eligible"]
    least = minimum_games(t)
    body = []
    for board, records in board_records(t).items():
        for rec in records:
            body.append(_board_row(t, board, rec, least))
    return [head, *body]


def _board_row(t: TeamTournament, board: int, rec: BoardRecord, least: int) -> list[str]:
    team = t.team(rec.team)
    return [str(board), team.name, team.players[rec.place].name, str(rec.games), format_points(rec.points),
            f"{float(rec.percentage):.1f}", str(rec.forfeits),
            "yes" if rec.games >= max(least, 1) else "no"]  # fmt: skip


def primary_label(kind: PrimaryScore) -> str:
    return kind.value
