"""Issue 26: a practice flood cannot shut others out.

Before: one anonymous browser asking for practice games 60 times in a row got all 50 of the instance, and every
other visitor was refused until the flags fell (7–20 minutes). Now a browser holds a few games at once, an address
a few more (whatever its cookies), and a full instance reclaims the flooder's longest-idle game for a newcomer.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from starlette.testclient import TestClient, _TestClientTransport

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from ..web.helpers import csrf_in

FLOOD = 60


def ask(client: TestClient, lang: str = "kk") -> tuple[int, str]:
    """One request for a practice game, as the form sends it: the status and the page or the game's address."""
    page = client.get(f"/practice?lang={lang}")
    form = {"csrf": csrf_in(page.text), "name": "", "level": "1", "side": "white", "control": "blitz"}
    answer = client.post(f"/practice?lang={lang}", data=form, follow_redirects=False)
    return answer.status_code, answer.headers.get("location", answer.text)


def from_address(client: TestClient, host: str) -> None:
    """Later requests of ``client`` come from ``host`` (another machine)."""
    cast(_TestClientTransport, client._transport).client = (host, 50000)


def test_one_browser_asking_sixty_times_holds_its_quota_and_a_newcomer_still_plays(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        from_address(client, "10.0.0.66")
        answers = [ask(client) for _ in range(FLOOD)]
        got = [location for status, location in answers if status == 303]
        assert len(got) == settings.practice_per_browser
        # Past its quota the browser is offered its own games (in its language), not a dead end.
        status, page = answers[-1]
        assert status == 200 and "жаттығу ойынын ойнап жатырсыз" in page
        assert all(f'href="{location}"' in page.replace("&amp;", "&") for location in got)
        client.cookies.clear()  # a newcomer: another browser on another machine
        from_address(client, "10.0.0.7")
        status, location = ask(client, "ru")
        assert status == 303 and location.startswith("/games/")


def test_a_flooder_dropping_its_cookies_holds_its_address_quota(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        from_address(client, "10.0.0.66")
        got = 0
        for _ in range(FLOOD):
            client.cookies.clear()
            got += ask(client)[0] == 303
        assert got == settings.practice_per_address
        client.cookies.clear()
        status, page = ask(client, "ru")
        assert status == 200 and "из вашей сети идёт слишком много тренировочных партий" in page
        from_address(client, "10.0.0.7")
        assert ask(client)[0] == 303


def test_a_full_instance_reclaims_a_game_of_whoever_holds_the_most_for_a_newcomer(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, practice_max_games=4, practice_per_address=100)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        from_address(client, "10.0.0.66")
        flooder = [location for status, location in (ask(client) for _ in range(FLOOD)) if status == 303]
        client.cookies.clear()
        from_address(client, "10.0.0.7")
        assert ask(client)[0] == 303  # the fourth and last game of the instance
        client.cookies.clear()
        from_address(client, "10.0.0.8")
        status, location = ask(client)
        assert status == 303, location
        oldest = flooder[0].split("?")[0].rsplit("/", 1)[1]
        state = client.get(f"/api/rooms/{oldest}").json()["data"]
        assert state["status"] == "finished"
