"""Smoke test of ``benchmarks/qumalaq_match.py`` against a stand-in for the opponent's ``serve`` protocol.

The stand-in (written here, no code of the real opponent) plays the first legal move, or misbehaves as told by a
``mode`` file in its directory: an illegal move, or "terminal" in every position. It also refuses a position whose
kumalaks do not add up to 162, so a wrong position string would fail the game.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from .scripts import BENCHMARKS, run_benchmark

STAND_IN = """#!{python}
import sys
from pathlib import Path

mode = Path("mode").read_text().strip()
print("stand-in engine, mode " + mode, file=sys.stderr, flush=True)
print("ready", flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in ("newgame", "position"):
        print("ready", flush=True)
    elif words[0] == "quit":
        break
    elif words[0] == "go":
        white, black, kazans, tuzdyks, side = words[words.index("pos") + 1].split("/")
        rows = [list(map(int, white.split(","))), list(map(int, black.split(",")))]
        kazan = list(map(int, kazans.split(",")))
        tuzdyk = list(map(int, tuzdyks.split(",")))
        me = int(side)
        if sum(rows[0]) + sum(rows[1]) + sum(kazan) != 162:
            print("error bad position", flush=True)
        elif mode == "terminal":
            print("terminal draw", flush=True)
        else:
            legal = [i for i in range(9) if rows[me][i] > 0 and tuzdyk[1 - me] != i]
            move = 9 if mode == "illegal" else legal[0]
            print(f"bestmove {{move}} score 0 depth 3 nodes 1000 time 2 nps 500000", flush=True)
"""


def opponent(tmp_path: Path, mode: str, network: bytes = b"\x00\x01 weights") -> Path:
    directory = tmp_path / "opponent"
    engine = directory / "engine"
    binary = engine / "target" / "release" / "togyzkumalaq-engine"
    binary.parent.mkdir(parents=True)
    binary.write_text(STAND_IN.format(python=sys.executable))
    binary.chmod(0o755)
    (engine / "nnue_weights.bin").write_bytes(network)
    (engine / "opening_book.txt").write_text("9,9,9,9,9,9,9,9,9|9,9,9,9,9,9,9,9,9|0,0|-1,-1|0|6|100\n")
    (engine / "mode").write_text(mode)
    return directory


def arguments(directory: Path, shared_data: Path, *extra: str) -> list[str]:
    corpus = shared_data / "togyz" / "playok-2024-2025.pgn"
    return ["--opponent", str(directory), "--corpus", str(corpus), "--ms", "20", "--speed", "1", *extra]


def test_a_tiny_match_prints_the_checks_both_speeds_and_the_result_and_resumes(
    tmp_path: Path, shared_data: Path
) -> None:
    log = tmp_path / "games.jsonl"
    out = run_benchmark(
        "qumalaq_match.py",
        arguments(opponent(tmp_path, "first"), shared_data, "--games", "2", "--log", str(log)),
        timeout=240,
    )
    for line in (
        r"load average at the start: [\d.]+ [\d.]+ [\d.]+ \(\d+ cores\)",
        r"  network: engine/nnue_weights.bin, 10 bytes \(a real file, not a Git LFS pointer\)",
        r"  endgame tables: none \(the repository ships none; --egtb N generates them\)",
        r"  it says: stand-in engine, mode first",
        r"  its threads after a search: 1 \(cores it may use: 1\)",
        r"  toreshi +depth median \d+ \(\d+-\d+\), nodes/s median [\d,]+ \([\d,]+-[\d,]+\)",
        r"  9Qumalaqv2 +depth median 3 \(3-3\), nodes/s median 500,000 \(500,000-500,000\)",
        r"game 1: opening 0, toreshi White, scores 1 in \d+ plies \| 1 games: 1/0/0, 100.0%, \d+ s",
        r"game 2: opening 0, toreshi Black, scores 1 in \d+ plies \| 2 games: 2/0/0, 100.0%, \d+ s",
        r"result at 20 ms a move, 2 games: toreshi W/D/L 2/0/0, score 100.0%, Elo \+inf \(95 % -\d+ to \+inf\)",
        r"  opponent forfeits \(crash, illegal move, error, timeout\): 0 ",
        r"  9Qumalaqv2 +\d+ moves, nodes/s 500,000, depth median 3, .*'terminal' answers played by our search 0",
        r"load average at the end: [\d.]+ [\d.]+ [\d.]+",
    ):
        assert re.search(rf"^{line}$", out, re.MULTILINE), (line, out)
    assert len(log.read_text().splitlines()) == 2

    out = run_benchmark(
        "qumalaq_match.py",
        arguments(opponent(tmp_path / "again", "first"), shared_data, "--games", "3", "--log", str(log)),
        timeout=240,
    )
    assert "resuming: 2 games already in" in out, out
    assert re.search(r"^game 3: opening 1, toreshi White", out, re.MULTILINE), out
    assert re.search(r"^result at 20 ms a move, 3 games: toreshi W/D/L 3/0/0", out, re.MULTILINE), out

    out = run_benchmark(
        "qumalaq_match.py",
        [*arguments(tmp_path / "again" / "opponent", shared_data), "--log", str(log), "--report"],
        timeout=60,
    )
    assert re.search(r"^result at 20 ms a move, 3 games", out, re.MULTILINE), out


def test_illegal_moves_lose_and_are_counted(tmp_path: Path, shared_data: Path) -> None:
    out = run_benchmark(
        "qumalaq_match.py",
        arguments(opponent(tmp_path, "illegal"), shared_data, "--games", "2", "--speed", "0"),
        timeout=120,
    )
    assert re.search(r"^game 2: .*scores 1 in \d+ plies \(forfeit: illegal move: hole 10 in ", out, re.MULTILINE), out
    assert re.search(
        r"^  opponent forfeits \(crash, illegal move, error, timeout\): 2 \['illegal move", out, re.MULTILINE
    ), out


def test_terminal_answers_in_live_positions_are_played_by_our_search_and_counted(
    tmp_path: Path, shared_data: Path
) -> None:
    out = run_benchmark(
        "qumalaq_match.py",
        arguments(opponent(tmp_path, "terminal"), shared_data, "--games", "1", "--speed", "0"),
        timeout=120,
    )
    answers = re.search(r"'terminal' answers played by our search (\d+)$", out, re.MULTILINE)
    assert answers is not None and int(answers.group(1)) > 0, out
    assert "forfeits (crash, illegal move, error, timeout): 0" in out, out


@pytest.mark.parametrize("where", ["lfs", "repository"])
def test_a_pointer_instead_of_the_network_or_an_opponent_inside_the_repository_is_refused(
    tmp_path: Path, shared_data: Path, where: str
) -> None:
    if where == "lfs":
        directory = opponent(tmp_path, "first", b"version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n")
        message = "the opponent's network is a Git LFS pointer, not the file"
    else:
        directory = BENCHMARKS.parent / "opponents" / "9Qumalaqv2"
        message = "the opponent must live outside this repository"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "qumalaq_match.py"), *arguments(directory, shared_data, "--games", "1")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert message in done.stdout + done.stderr
