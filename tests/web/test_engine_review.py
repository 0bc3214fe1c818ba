"""The engine's review on the replay page: computed off the loop, cached in memory, never in the game's log."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.services import services_of
from toreshi.web.common.settings import Settings

from .helpers import sign_in
from .test_replay_pages import HOLES, play


@pytest.fixture
def fast_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", review_depth=3, review_budget=20.0)
    with TestClient(create_app(settings), base_url="http://testserver") as test_client:
        yield test_client


def wait_for_review(client: TestClient, room: str) -> dict[str, Any]:
    seen: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = client.get(f"/games/{room}/review.json")
        body: dict[str, Any] = answer.json()
        seen.append(body["status"])
        if body["status"] != "analysing":
            assert answer.status_code == 200, body
            body["seen"] = seen
            return body
        assert 0 <= body["done"] <= body["total"] == len(HOLES) + 1
        time.sleep(0.2)
    raise AssertionError("the review did not finish in a minute")


def test_a_finished_game_gets_a_curve_and_its_worst_moves(fast_client: TestClient) -> None:
    arbiter = sign_in(fast_client)
    room, tokens = play(fast_client, arbiter, HOLES, resign=True)
    version = fast_client.get(f"/api/rooms/{room}").json()["v"]
    page = fast_client.get(f"/games/{room}/replay?lang=kk")
    assert 'id="review"' in page.text and "Компьютерлік талдау" in page.text
    review = wait_for_review(fast_client, room)
    assert review["status"] == "ready" and review["seen"][0] == "analysing"
    assert len(review["expectation"]) == len(review["scores"]) == len(HOLES) + 1
    assert all(0.0 <= value <= 1.0 for value in review["expectation"])
    assert review["depth"] == 3
    for move in review["worst"]:
        assert 1 <= move["ply"] <= len(HOLES) and move["token"] == tokens[move["ply"] - 1]
        assert move["best"] == move["line"][0] and move["best"] != move["token"]
        assert move["expectation_loss"] > 0 or move["loss"] > 0
    # Asked again, the same review comes from memory at once; the game's log has not moved.
    assert fast_client.get(f"/games/{room}/review.json").json()["scores"] == review["scores"]
    assert fast_client.get(f"/api/rooms/{room}").json()["v"] == version
    engine = services_of(fast_client)  # type: ignore[arg-type]
    assert engine.engine.review_of(room, HOLES).future.done()


def test_a_live_game_has_no_review(fast_client: TestClient) -> None:
    arbiter = sign_in(fast_client)
    room, _ = play(fast_client, arbiter, HOLES[:2])
    answer = fast_client.get(f"/games/{room}/review.json")
    assert answer.status_code == 200 and answer.json() == {"status": "unavailable"}
    assert 'id="review"' not in fast_client.get(f"/games/{room}/replay").text
    assert fast_client.get("/games/g-000000000000/review.json").status_code == 404
