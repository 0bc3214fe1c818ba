"""Crosstables: the round-robin grid, the Swiss per-round table, CSV and printable HTML."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from toreshi.kit.spreadsheet import neutralised
from toreshi.tournament.crosstable import (
    Table,
    crosstable,
    round_robin_grid,
    swiss_cell,
    swiss_table,
    to_csv,
)
from toreshi.tournament.model import (
    Colour,
    GameResult,
    Participant,
    ResultCode,
    RoundEntry,
    Tournament,
    TournamentSystem,
    build_record,
)
from toreshi.tournament.standings import compute_standings, standings_for, standings_from_trf
from toreshi.tournament.trf import parse_trf

from .builders import play_round

W, B = Colour.WHITE, Colour.BLACK


def four_player_round_robin(withdraw_after: int | None = None) -> Tournament:
    """R1: 1–4 1-0, 2–3 ½-½ · R2: 4–3 + − (3 absent), 1–2 0-1 · R3: 2–4 1-0, 3–1 ½-½."""
    t = Tournament(name="RR", system=TournamentSystem.ROUND_ROBIN, rounds_planned=3, tiebreaks=("DE", "SB"))
    for n, name in enumerate(["Abenov", "Bekov", "Dauletov", "Ermekov"], start=1):
        t = t.with_participant(Participant(n, name, 1800 - 50 * n))
    schedule = [
        ([(1, 4), (2, 3)], [GameResult.WHITE_WINS, GameResult.DRAW]),
        ([(4, 3), (1, 2)], [GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_WINS]),
        ([(2, 4), (3, 1)], [GameResult.WHITE_WINS, GameResult.DRAW]),
    ]
    for rnd, (pairs, results) in enumerate(schedule, start=1):
        gone = withdraw_after is not None and rnd > withdraw_after  # 4's games afterwards stay unplayed
        t = play_round(t, pairs, [None if gone and 4 in pair else r for pair, r in zip(pairs, results, strict=True)])
        if withdraw_after == rnd:
            t = t.withdraw(4, after_round=rnd)
    return t


def test_round_robin_grid() -> None:
    table = round_robin_grid(standings_for(four_player_round_robin()), "Club championship")
    assert table.headers == ("Rank", "No", "Name", "Rating", "1", "2", "3", "4", "Points", "DE", "SB")
    # Points: 2 → 2½ (½ + 1 + 1), 1 → 1½, 4 → 1 (forfeit win), 3 → 1 (two draws).
    # 3 and 4 tie on 1: they met only by forfeit, which in a round robin counts as a game → 4 ahead.
    assert [row[2] for row in table.rows] == ["Bekov", "Abenov", "Ermekov", "Dauletov"]
    bekov, abenov, ermekov, dauletov = table.rows
    # Columns follow the standings order: Bekov, Abenov, Ermekov, Dauletov.
    assert bekov[4:8] == ("×", "1", "1", "½")
    assert abenov[4:8] == ("0", "×", "1", "½")
    assert ermekov[4:8] == ("0", "0", "×", "+")
    assert dauletov[4:8] == ("½", "½", "−", "×")
    assert bekov[8] == "2.5" and dauletov[8] == "1"
    assert ermekov[9] == "1" and dauletov[9] == "2"  # DE ranks inside the tied pair


def test_annulled_games_are_shown_in_brackets() -> None:
    # 4 leaves after round 1 (1 game of 3 played): their results stay visible but count for nobody.
    t = four_player_round_robin(withdraw_after=1)
    table = round_robin_grid(standings_for(t))
    by_name = {row[2]: row for row in table.rows}
    assert by_name["Ermekov"][0] == "—"
    order = [row[2] for row in table.rows]
    ermekov_column = 4 + order.index("Ermekov")
    assert by_name["Abenov"][ermekov_column] == "(1)"


def test_double_round_robin_cells_hold_both_games() -> None:
    people = [Participant(1, "A"), Participant(2, "B")]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, ResultCode.WIN, 2, W), RoundEntry(2, ResultCode.DRAW, 2, B)],
            2: [RoundEntry(1, ResultCode.LOSS, 1, B), RoundEntry(2, ResultCode.DRAW, 1, W)],
        },
        round_robin=True,
    )
    table = crosstable(compute_standings(record, ["DE"]))
    assert table.rows[0][4:6] == ("×", "1 ½")
    assert table.rows[1][4:6] == ("0 ½", "×")


def test_swiss_table_from_reference_data(shared_data: Path) -> None:
    trf = parse_trf((shared_data / "pairings/dutch-2025/t003-n9-r6.trf").read_text())
    table = swiss_table(standings_from_trf(trf, ["BH/C1"]))
    assert table.headers[:10] == ("Rank", "No", "Name", "Rating", "R1", "R2", "R3", "R4", "R5", "R6")
    row = next(r for r in table.rows if r[1] == "8")
    # 001 line: 4 w 0, PAB, 1 b 0, 6 w +, 7 b 0, 9 w 1 → 3 points.
    assert row[4:11] == ("4w0", "U", "1b0", "6w+", "7b0", "9w1", "3")
    assert table.rows[0][:3] == ("1", "1", "Test0001 Player0001")


def test_swiss_cells() -> None:
    assert swiss_cell(RoundEntry(2, ResultCode.FORFEIT_LOSS, 7, W)) == "7w−"
    assert swiss_cell(RoundEntry(2, ResultCode.HALF_BYE)) == "H"
    assert swiss_cell(None) == ""


def test_csv_round_trips_the_table() -> None:
    table = round_robin_grid(standings_for(four_player_round_robin()))
    text = to_csv(table)
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == table.headers
    assert [tuple(r) for r in rows[1:]] == [tuple(neutralised(cell) for cell in row) for row in table.rows]


def test_tables_name_the_tiebreak_rules() -> None:
    standings = standings_for(four_player_round_robin())
    table = crosstable(standings, "RR")
    assert table.rules is standings.rules
    assert table.rules_note == f"Tie-breaks: {standings.rules.title}"
    # The CSV stays a plain grid: a header line and one line per player.
    assert len(to_csv(table).splitlines()) == 1 + len(standings.rows)
    assert Table("Plain", ("No",), (("1",),)).rules_note == ""
