"""``toreshi tournament pair`` and ``toreshi tournament berger`` as the acceptance checks call them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound, format_trf

runner = CliRunner()


def test_pair_prints_bbppairings_format(shared_data: Path, tmp_path: Path) -> None:
    # t006 round 3 (8 players, no bye): pairs and colours as the file records them.
    source = shared_data / "pairings" / "dutch-2025" / "t006-n8-r5.trf"
    result = runner.invoke(app, ["tournament", "pair", str(source), "--round", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "4"
    assert sorted(lines[1:]) == ["3 1", "4 6", "5 2", "7 8"]


def test_pair_prints_the_bye_as_number_and_zero(shared_data: Path) -> None:
    # t003 round 2: player 8 got the pairing-allocated bye.
    source = shared_data / "pairings" / "dutch-2025" / "t003-n9-r6.trf"
    result = runner.invoke(app, ["tournament", "pair", str(source), "--round", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "5"
    assert lines[-1] == "8 0"


def test_round_one_colour_comes_from_xxc(tmp_path: Path) -> None:
    players = "\n".join(f"001 {n:>4}      Player {n:<26} {2400 - n:>4}" for n in range(1, 5))
    white = tmp_path / "white.trf"
    white.write_text(f"012 Cup\nXXR 3\n{players}\n")
    black = tmp_path / "black.trf"
    black.write_text(f"012 Cup\nXXR 3\nXXC black1\n{players}\n")
    assert runner.invoke(app, ["tournament", "pair", str(white), "--round", "1"]).output.split("\n")[1] == "1 3"
    assert runner.invoke(app, ["tournament", "pair", str(black), "--round", "1"]).output.split("\n")[1] == "3 1"


def test_no_valid_pairing_exits_non_zero_with_a_message(tmp_path: Path) -> None:
    won = PlayerRecord(1, "A", rating=2000, points=Fraction(1), rounds=(TrfRound(2, Colour.WHITE, ResultCode.WIN),))
    lost = PlayerRecord(2, "B", rating=1900, rounds=(TrfRound(1, Colour.BLACK, ResultCode.LOSS),))
    text = format_trf(TrfFile((RawLine("012 Cup"), RawLine("XXR 3"), won, lost)))
    path = tmp_path / "two.trf"
    path.write_text(text, newline="")
    result = runner.invoke(app, ["tournament", "pair", str(path), "--round", "2"])
    assert result.exit_code == 1
    assert "No valid pairing for round 2" in result.output


def test_bad_input_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.trf"
    path.write_text("012 Cup\n001    1      A\n")
    result = runner.invoke(app, ["tournament", "pair", str(path), "--round", "1"])
    assert result.exit_code == 2
    assert "XXR" in result.output
    missing = runner.invoke(app, ["tournament", "pair", str(tmp_path / "none.trf"), "--round", "1"])
    assert missing.exit_code == 2


def test_berger_prints_the_table() -> None:
    result = runner.invoke(app, ["tournament", "berger", "4"])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["Round 1: 1-4  2-3", "Round 2: 4-3  1-2", "Round 3: 2-4  3-1"]
    double = runner.invoke(app, ["tournament", "berger", "3", "--double"])
    assert double.exit_code == 0
    assert len(double.output.splitlines()) == 6
    assert runner.invoke(app, ["tournament", "berger", "1"]).exit_code == 2
