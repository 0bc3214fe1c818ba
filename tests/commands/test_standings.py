"""``toreshi tournament standings FILE.trf`` (tested on its own Typer app until the tournament group registers it)."""

from __future__ import annotations

from pathlib import Path

import typer
from typer.testing import CliRunner

from toreshi.commands.standings import standings

runner = CliRunner()
app = typer.Typer()
app.command("standings")(standings)
app.command("version")(lambda: None)  # a second command keeps Typer from flattening the group

TRF = (
    "012 Mini\r"
    "XXR 2\r"
    "001    1      Abenov                            1600                             1.5          2 w 1     3 b =\r"
    "001    2      Bekov                             1500                             1.0          1 b 0  0000 - U\r"
    "001    3      Dauletov                          1400                             1.5       0000 - U     1 w =\r"
)


def write(tmp_path: Path, text: str = TRF) -> Path:
    path = tmp_path / "mini.trf"
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_the_table_ranks_by_points_then_the_tiebreaks(tmp_path: Path) -> None:
    result = runner.invoke(app, ["standings", str(write(tmp_path)), "--tiebreak", "WIN", "-t", "BH"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "│" in line]
    assert [line.split("│")[3].strip() for line in lines][-1] == "Bekov"  # 1 point, after the two with 1.5
    assert [line.split("│")[4].strip() for line in lines] == ["1.5", "1.5", "1"]
    assert "WIN" in result.output and "BH" in result.output


def test_csv_and_html_crosstables(tmp_path: Path) -> None:
    path = write(tmp_path)
    csv = runner.invoke(app, ["standings", str(path), "--csv"])
    assert csv.exit_code == 0
    rows = csv.output.strip().splitlines()
    assert rows[0].startswith("Rank,No,Name,Rating,R1,R2,Points") and "1,Abenov,1600,2w1,3b½,1.5" in csv.output
    page = runner.invoke(app, ["standings", str(path), "--html"])
    assert page.exit_code == 0 and "<table" in page.output and "Dauletov" in page.output
    both = runner.invoke(app, ["standings", str(path), "--csv", "--html"])
    assert both.exit_code != 0 and "choose one of --csv and --html" in both.output


def test_bad_input_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    unknown = runner.invoke(app, ["standings", str(write(tmp_path)), "-t", "NOPE"])
    assert unknown.exit_code == 2 and "NOPE" in unknown.output
    missing = runner.invoke(app, ["standings", str(tmp_path / "absent.trf")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    broken = write(tmp_path, "XXR 1\r001 abcd Broken\r")
    result = runner.invoke(app, ["standings", str(broken)])
    assert result.exit_code == 2 and "line 2" in result.output


def test_every_reference_tournament_gets_standings(shared_data: Path) -> None:
    files = sorted((shared_data / "pairings" / "dutch-2025").glob("*.trf"))[:10]
    assert files
    for path in files:
        result = runner.invoke(app, ["standings", str(path), "--csv"])
        assert result.exit_code == 0, (path.name, result.output)
        assert len(result.output.strip().splitlines()) > 1


# A Swiss where the 2026 cap matters. R1: Abenov beat Bekov, Dauletov got the PAB. R2: Abenov did not come and
# lost by forfeit to Dauletov, Bekov got the PAB. Scores: Abenov 1, Bekov 1, Dauletov 2.
CAPPED = (
    "012 Cap\r"
    "XXR 2\r"
    "001    1      Abenov                            1600                             1.0          2 w 1     3 b -\r"
    "001    2      Bekov                             1500                             1.0          1 b 0  0000 - U\r"
    "001    3      Dauletov                          1400                             2.0       0000 - U     1 w +\r"
)


def bh_column(output: str) -> dict[str, str]:
    rows = [line.split("│") for line in output.splitlines() if "│" in line]
    return {cells[3].strip(): cells[5].strip() for cells in rows if cells[3].strip() not in ("Name", "")}


def test_the_rules_are_chosen_printed_and_can_be_set(tmp_path: Path) -> None:
    # Dauletov (2 points): a PAB and a forfeit win, two dummy opponents. 2024: each has his own score 2 → BH 4.
    # 2026: the PAB's is capped at a draw in each of the 2 rounds (1), the forfeit's at Abenov's score (1) → 2.
    path = write(tmp_path, CAPPED)
    auto = runner.invoke(app, ["standings", str(path), "-t", "BH"])
    assert auto.exit_code == 0, auto.output
    assert "Tie-breaks: FIDE C.07 in force from 2026-03-01 (c07-2026)" in auto.output
    assert bh_column(auto.output)["Dauletov"] == "2"
    old = runner.invoke(app, ["standings", str(path), "-t", "BH", "--rules", "2024"])
    assert "in force from 2024-08-01 (c07-2024)" in old.output
    assert bh_column(old.output)["Dauletov"] == "4"
    # A start date before 2026-03-01 picks the 2024 rules by itself.
    dated = write(tmp_path, "042 2025/11/20\r" + CAPPED)
    assert bh_column(runner.invoke(app, ["standings", str(dated), "-t", "BH"]).output)["Dauletov"] == "4"
    bad = runner.invoke(app, ["standings", str(path), "--rules", "1999"])
    assert bad.exit_code == 2 and "unknown tie-break rules" in bad.output


def test_the_printable_crosstable_names_the_rules(tmp_path: Path) -> None:
    page = runner.invoke(app, ["standings", str(write(tmp_path, CAPPED)), "--html", "--rules", "2024"])
    assert page.exit_code == 0 and "Tie-breaks: FIDE C.07 in force from 2024-08-01" in page.output
