"""Crosstables as data, and their CSV form.

* :func:`round_robin_grid`: the classic grid, one row and one column per player in standings order; a cell
  holds the row player's result(s) against the column player (two in a double round robin), ``×`` on the
  diagonal. Games against a player whose results were annulled under TK-R10 stay visible in parentheses.
* :func:`swiss_table`: one row per player, one cell per round — opponent, colour and result, e.g. ``12b½``
  (``w`` = бастаушы, ``b`` = қостаушы), or the bye letter (``U`` pairing-allocated, ``H``, ``F``, ``Z``).

Both become a :class:`Table` (headers and text rows), which :func:`to_csv` writes (the printable HTML page is the
command line's: ``toreshi.commands.printing``; the web draws its own). The
column headers and the way points are written come from the caller (:class:`Columns`, ``points``): a page gives
them in its reader's language, the command line keeps the English defaults. A table made from standings carries
the version of FIDE C.07 its tie-breaks were computed by (``Table.rules``); the HTML page prints a note under the
grid when given one, e.g. ``rules_note`` (the CSV stays a plain grid, one header line and one line per player).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from toreshi.kit.spreadsheet import csv_text
from toreshi.tournament.model import ResultCode, RoundEntry, format_points
from toreshi.tournament.standings import Standing, Standings
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.tiebreaks import TieBreakCode, Value

SYMBOLS = {
    ResultCode.WIN: "1",
    ResultCode.DRAW: "½",
    ResultCode.LOSS: "0",
    ResultCode.FORFEIT_WIN: "+",
    ResultCode.FORFEIT_LOSS: "−",
    ResultCode.UNRATED_WIN: "1",
    ResultCode.UNRATED_DRAW: "½",
    ResultCode.UNRATED_LOSS: "0",
    ResultCode.HALF_BYE: "H",
    ResultCode.FULL_BYE: "F",
    ResultCode.PAIRING_BYE: "U",
    ResultCode.ZERO_BYE: "Z",
}


@dataclass(frozen=True)
class Columns:
    """The fixed columns' headers; ``round`` is the Swiss rounds' (``R%(n)s`` style: ``{n}`` is the number)."""

    rank: str = "Rank"
    number: str = "No"
    name: str = "Name"
    rating: str = "Rating"
    points: str = "Points"
    round: str = "R{n}"


ENGLISH = Columns()

PointsFormat = Callable[[Fraction], str]


@dataclass(frozen=True)
class Table:
    """A crosstable ready to print: a title, column headers and rows of text cells."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    rules: TieBreakRules | None = None
    """The version of FIDE C.07 of the tie-break columns (None for a table not made from standings)."""

    @property
    def rules_note(self) -> str:
        """The version in words, for print: ``Tie-breaks: FIDE C.07 in force from 2026-03-01``.

        >>> Table("", (), (), TieBreakRules.C07_2024).rules_note
        'Tie-breaks: FIDE C.07 in force from 2024-08-01'
        """
        if self.rules is None:
            return ""
        return f"Tie-breaks: {self.rules.title}"


def _rank(row: Standing) -> str:
    if row.rank is None:
        return "—"
    return f"{row.rank}=" if row.shared else str(row.rank)


def _value(value: Value, code: TieBreakCode, points: PointsFormat) -> str:
    if value is None:
        return ""
    if code is TieBreakCode.DE:
        return str(value)
    return points(value)


def _tiebreak_cells(standings: Standings, row: Standing, points: PointsFormat) -> tuple[str, ...]:
    return tuple(_value(v, tb.code, points) for v, tb in zip(row.values, standings.tiebreaks, strict=True))


def _player_cells(row: Standing) -> tuple[str, ...]:
    rating = row.player.rating
    return (_rank(row), str(row.player.number), row.player.name, "" if rating is None else str(rating))


def _headers(columns: Columns, middle: Sequence[str], standings: Standings) -> tuple[str, ...]:
    fixed = (columns.rank, columns.number, columns.name, columns.rating)
    return (*fixed, *middle, columns.points, *(str(tb) for tb in standings.tiebreaks))


def round_robin_grid(
    standings: Standings, title: str = "", columns: Columns = ENGLISH, points: PointsFormat = format_points
) -> Table:
    record = standings.record
    order = [row.player.number for row in standings.rows]
    headers = _headers(columns, [str(i) for i in range(1, len(order) + 1)], standings)
    rows = []
    for row in standings.rows:
        player = row.player.number
        cells: list[str] = []
        for other in order:
            if other == player:
                cells.append("×")
                continue
            own = [e for e in record.rounds_of(player) if e.opponent == other]
            if own:
                cells.append(" ".join(SYMBOLS[e.code] for e in own))
                continue
            # The opponent's result was annulled (TK-R10): show the game from the other side, in brackets.
            theirs = [e for e in record.rounds_of(other) if e.opponent == player]
            cells.append(" ".join(f"({SYMBOLS[_reply(e)]})" for e in theirs))
        rows.append((*_player_cells(row), *cells, points(row.points), *_tiebreak_cells(standings, row, points)))
    return Table(title, headers, tuple(rows), standings.rules)


def _reply(entry: RoundEntry) -> ResultCode:
    return ResultCode.FORFEIT_WIN if entry.code is ResultCode.FORFEIT_LOSS else entry.code.reversed


def swiss_cell(entry: RoundEntry | None) -> str:
    """One round of a Swiss row.

    >>> from toreshi.tournament.model import Colour
    >>> swiss_cell(RoundEntry(3, ResultCode.DRAW, 12, Colour.BLACK)), swiss_cell(RoundEntry(4, ResultCode.PAIRING_BYE))
    ('12b½', 'U')
    """
    if entry is None:
        return ""
    if entry.opponent is None:
        return SYMBOLS[entry.code]
    colour = entry.colour.value if entry.colour is not None else "-"
    return f"{entry.opponent}{colour}{SYMBOLS[entry.code]}"


def swiss_table(
    standings: Standings, title: str = "", columns: Columns = ENGLISH, points: PointsFormat = format_points
) -> Table:
    record = standings.record
    headers = _headers(columns, [columns.round.format(n=r) for r in range(1, record.rounds + 1)], standings)
    rows = []
    for row in standings.rows:
        entries = record.entries.get(row.player.number, {})
        rounds = (swiss_cell(entries.get(r)) for r in range(1, record.rounds + 1))
        rows.append((*_player_cells(row), *rounds, points(row.points), *_tiebreak_cells(standings, row, points)))
    return Table(title, headers, tuple(rows), standings.rules)


def crosstable(
    standings: Standings, title: str = "", columns: Columns = ENGLISH, points: PointsFormat = format_points
) -> Table:
    """The grid for a round robin, the per-round table for a Swiss."""
    if standings.record.round_robin:
        return round_robin_grid(standings, title, columns, points)
    return swiss_table(standings, title, columns, points)


def to_csv(table: Table) -> str:
    """CSV text (comma-separated, quoted where needed, LF line ends), every cell neutralised
    (:func:`toreshi.kit.spreadsheet.neutralised`)."""
    return csv_text([table.headers, *table.rows], line_end="\n")
