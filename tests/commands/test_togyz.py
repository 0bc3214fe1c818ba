"""The CLI contracts of ``toreshi togyz`` (acceptance checks rely on them exactly)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from toreshi.cli import app

from ..togyz.test_pgn import GAME_1

runner = CliRunner()


def test_perft_prints_the_count_last() -> None:
    result = runner.invoke(app, ["togyz", "perft", "4"])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1] == "5199"


def test_perft_from_a_fen() -> None:
    fen = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1"
    result = runner.invoke(app, ["togyz", "perft", "1", "--fen", fen])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1] == "8"  # North's hole 5 was emptied by the capture


def test_perft_rejects_a_bad_fen() -> None:
    result = runner.invoke(app, ["togyz", "perft", "1", "--fen", "nonsense"])
    assert result.exit_code != 0
    assert "5 space-separated fields" in result.stderr


def test_replay_json_contract(tmp_path: Path) -> None:
    bad = GAME_1.replace("4. 68X", "4. 68(3)")
    path = tmp_path / "games.pgn"
    path.write_text(GAME_1 + "\n" + bad, encoding="utf-8")
    result = runner.invoke(app, ["togyz", "replay", str(path), "--json"])
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.output.splitlines())
    assert first == {
        "game": 0,
        "ok": True,
        "error": None,
        "plies": 92,
        "fen": "4S,t,4S,24S,30S,3S,1S,1S,1/t,8 30 65 S 47",
        "score": [30, 132],
        "result": "0-1",
    }
    assert second["game"] == 1 and second["ok"] is False
    assert second["error"].startswith("ply 7 ")
    assert second["plies"] == 6 and second["result"] is None


def test_replay_exit_zero_when_all_valid_and_readable_summary(tmp_path: Path) -> None:
    path = tmp_path / "one.pgn"
    path.write_text(GAME_1, encoding="utf-8")
    result = runner.invoke(app, ["togyz", "replay", str(path)])
    assert result.exit_code == 0
    assert "1 games, 1 valid, 0 invalid" in result.output


def test_replay_refuses_a_file_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "binary.pgn"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = runner.invoke(app, ["togyz", "replay", str(path)])
    assert result.exit_code == 1
    assert "not UTF-8 text" in result.stderr


def test_show_draws_the_board() -> None:
    fen = "13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4"
    result = runner.invoke(app, ["togyz", "show", fen])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[2].split() == ["13", "2", "12", "3", "2", "1", "-", "12", "12"]
    assert lines[3].split() == ["12", "2", "13", "13", "X", "3", "12", "12", "1"]


def test_analyse_json_contract() -> None:
    fen = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"
    result = runner.invoke(app, ["togyz", "analyse", fen, "--depth", "3", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["depth"] == 3 and record["best_move"] in range(1, 10)
    assert record["pv"][0] == record["best_move"] and len(record["pv_tokens"]) == len(record["pv"])
    assert record["nodes"] > 0 and record["nodes_per_second"] >= 0 and record["fen"] == fen
    text = runner.invoke(app, ["togyz", "analyse", fen, "--movetime", "50"])
    assert text.exit_code == 0 and "best move:" in text.output and "nodes/s" in text.output


def test_analyse_refuses_both_limits_and_a_finished_game() -> None:
    fen = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"
    assert runner.invoke(app, ["togyz", "analyse", fen, "--depth", "2", "--movetime", "10"]).exit_code != 0
    over = "1S,1S,1S,1S,1S,1S,1S,1S,1S/9 150 3 S 1"
    assert runner.invoke(app, ["togyz", "analyse", over]).exit_code != 0


def test_review_json_contract(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(GAME_1, encoding="utf-8")
    result = runner.invoke(app, ["togyz", "review", str(path), "--depth", "1", "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert len(record["moves"]) == 92 and len(record["white_scores"]) == 93
    assert record["white_scores"][-1] < 0  # Black won 30:132
    assert 1 <= len(record["worst"]) <= 8
    assert all(move["best_move"] != move["hole"] for move in record["worst"])
    text = runner.invoke(app, ["togyz", "review", str(path), "--depth", "1"])
    assert text.exit_code == 0 and "worst moves:" in text.output
    assert runner.invoke(app, ["togyz", "review", str(path), "--game", "2"]).exit_code != 0
