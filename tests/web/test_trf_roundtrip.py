"""A TRF written by toreshi reads back the same and passes toreshi's own pairing checker (issue 29): the exported
file of a Swiss paired in the app, with a half-point bye, a forfeit and a forbidden pair, in TRF16 and TRF-2026."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.model import GameResult
from toreshi.tournament.trf import format_trf, parse_trf

from .helpers import post
from .test_tournament_pages import sign_in
from .test_tournament_pairing_tools import _swiss

RESULTS = [GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS, GameResult.WHITE_FORFEIT_WIN]


def _played(web: TestClient) -> str:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=7, name="Тараз кубогы", venue="Тараз")
    post(web, f"/tournaments/{tid}/do/forbid", csrf, first="1", second="2", reason="")
    post(web, f"/tournaments/{tid}/do/bye", csrf, number="5", round="2", code="H")
    for number in (1, 2, 3):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in range(1, 4):
            result = RESULTS[(board + number) % len(RESULTS)].value
            post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board), result=result)
    return tid


@pytest.mark.parametrize("kind", ["trf", "trf26"])
def test_an_exported_trf_reads_back_the_same_and_the_checker_agrees(web: TestClient, tmp_path: Path,
                                                                    kind: str) -> None:  # fmt: skip
    tid = _played(web)
    response = web.get(f"/tournaments/{tid}/export.{kind}")
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    trf = parse_trf(text)
    assert format_trf(trf, "\r\n") == text
    codes = {block.code.value for p in trf.players for block in p.rounds if block is not None}
    assert {"H", "+", "-", "="} <= codes  # the bye, the forfeit and a draw are in the file the checker reads
    file = tmp_path / f"{tid}.trf"
    file.write_bytes(response.content)
    result = CliRunner().invoke(app, ["tournament", "check", str(file)])
    assert result.exit_code == 0, result.output
    assert "3 of 3 rounds agree with the engine" in result.output
