"""``toreshi tournament check / generate / review / prohibit / baku``."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.trf import parse_trf
from toreshi.tournament.trf_pairing import ForbiddenPairs, read_accelerations, read_forbidden

runner = CliRunner()


def test_check_passes_a_reference_file(shared_data: Path) -> None:
    source = shared_data / "pairings" / "dutch-2025" / "t006-n8-r5.trf"
    result = runner.invoke(app, ["tournament", "check", str(source)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "t006-n8-r5.trf: 5 of 5 rounds agree with the engine"


def test_check_reports_a_changed_round(shared_data: Path, tmp_path: Path) -> None:
    # Round 3 of t006 has 3-1 (3 White); written as 1-3 the checker reports it and names C13 for player 1.
    lines = (shared_data / "pairings" / "dutch-2025" / "t006-n8-r5.trf").read_bytes().decode().split("\r")
    for i, line in enumerate(lines):
        if line.startswith(("001    1 ", "001    3 ")):
            colour = 96 + 20  # round 1's colour is column 97 (index 96); round 3's two blocks later
            lines[i] = line[:colour] + ("w" if line[colour] == "b" else "b") + line[colour + 1 :]
    changed = tmp_path / "changed.trf"
    changed.write_text("\r".join(lines), newline="")
    result = runner.invoke(app, ["tournament", "check", str(changed)])
    assert result.exit_code == 1
    assert "changed.trf: round 3 differs" in result.output
    assert "file:   1-3" in result.output and "engine: 3-1" in result.output
    assert "the file's pairing breaks: C13 [1] 1 (engine 0)" in result.output


def test_generate_then_check(tmp_path: Path) -> None:
    config = tmp_path / "rtg.txt"
    config.write_text("PlayersNumber=24\nRoundsNumber=6\nForfeitRate=10\n")
    out = tmp_path / "random.trf"
    result = runner.invoke(app, ["tournament", "generate", str(config), "-o", str(out), "--seed", "11", "--baku",
                                 "--forbid", "1,2"])  # fmt: skip
    assert result.exit_code == 0, result.output
    trf = parse_trf(out.read_bytes().decode())
    assert len(trf.players) == 24 and trf.played_rounds == 6
    assert read_forbidden(trf) == (ForbiddenPairs((1, 2), 1, 6),) and read_accelerations(trf)
    checked = runner.invoke(app, ["tournament", "check", str(out)])
    assert checked.exit_code == 0 and "6 of 6 rounds agree" in checked.output
    # To standard output with LF line ends; the seed makes it reproducible.
    again = runner.invoke(app, ["tournament", "generate", str(config), "--seed", "11", "--baku", "--forbid", "1,2"])
    assert again.output.replace("\n", "\r") == out.read_bytes().decode()


def test_generate_refuses_bad_settings(tmp_path: Path) -> None:
    config = tmp_path / "bad.txt"
    config.write_text("PointsForWin=3\n")
    wide = {"COLUMNS": "200"}  # the error box must not wrap the message
    assert "standard point system" in runner.invoke(app, ["tournament", "generate", str(config)], env=wide).output
    assert runner.invoke(app, ["tournament", "generate", "--forbid", "7"]).exit_code == 2
    # Two players, three rounds: round 2 cannot be paired.
    failed = runner.invoke(app, ["tournament", "generate", "--players", "2", "--rounds", "3", "--seed", "1"])
    assert failed.exit_code == 1 and "No valid pairing (seed 1)" in failed.output


def test_review_a_manual_change(shared_data: Path) -> None:
    source = str(shared_data / "pairings" / "dutch-2025" / "t006-n8-r5.trf")
    own = runner.invoke(app, ["tournament", "review", source, "-r", "3"])
    assert own.exit_code == 0 and "no criterion broken (the engine's pairing)" in own.output
    changed = runner.invoke(app, ["tournament", "review", source, "-r", "3", "--pairs", "1-3 4-6 5-2 7-8"])
    assert changed.exit_code == 0
    assert changed.output.splitlines()[-1] == "C13 [1] 1 (engine 0)"
    rematch = runner.invoke(app, ["tournament", "review", source, "-r", "3", "--pairs", "1-4 3-6 5-2 7-8"])
    assert "C1 [1,4] 1 (engine 0) absolute" in rematch.output
    bad = runner.invoke(app, ["tournament", "review", source, "-r", "3", "--pairs", "1/3"])
    assert bad.exit_code == 2 and "WHITE-BLACK" in bad.output


def test_prohibit_and_baku_write_the_records(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / "pairings" / "dutch-2025" / "t006-n8-r5.trf"
    once = tmp_path / "once.trf"
    assert runner.invoke(app, ["tournament", "prohibit", str(source), "1", "2", "-o", str(once)]).exit_code == 0
    twice = tmp_path / "twice.trf"
    result = runner.invoke(app, ["tournament", "prohibit", str(once), "3", "4", "5", "--from", "2", "--to", "3",
                                 "-o", str(twice)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert read_forbidden(parse_trf(twice.read_bytes().decode())) == (
        ForbiddenPairs((1, 2), 1, 5),
        ForbiddenPairs((3, 4, 5), 2, 3),
    )
    assert runner.invoke(app, ["tournament", "prohibit", str(source), "1", "99"]).exit_code == 2
    accelerated = runner.invoke(app, ["tournament", "baku", str(source)])
    assert accelerated.exit_code == 0
    assert "250       1.0   1   2    1    4" in accelerated.output.splitlines()
    assert "250       0.5   3   3    1    4" in accelerated.output.splitlines()
