"""A team's protest link reissued replaces the old one (issue 13 §4): the old token opens nothing (a page in the
reader's language saying to ask the arbiter), the new one opens the team's page; a link of the older kind (every
one issued was kept) stops working as soon as the team is given a new one."""

from __future__ import annotations

import html
import re
import secrets
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toreshi.live.bus import InProcessBus
from toreshi.live.registry import Rooms
from toreshi.live.store_log import StoreLog
from toreshi.services.tournament import TournamentService
from toreshi.store import open_store
from toreshi.store.accounts import Accounts, token_digest
from toreshi.tournament.journal.commands import AddTeam, Create
from toreshi.tournament.model import TournamentSystem
from toreshi.web.app import ROOM_KINDS

from .helpers import post
from .test_tournament_pages import call, create, sign_in, tournaments

LINK = re.compile(r'href="http://testserver(/tournaments/t-[0-9a-f]+/protest\?token=[^"]+)"')


def issue(web: TestClient, csrf: str, tid: str, team: str) -> str:
    page = html.unescape(web.post(f"/tournaments/{tid}/team-link", data={"csrf": csrf, "team": team}).text)
    found = LINK.search(page)
    assert found is not None
    assert "The team's previous protest link, if it had one, no longer works." in page
    return found.group(1)


def test_a_reissued_team_link_refuses_the_old_one_and_opens_with_the_new(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Astana", representatives="Rep B")
    old, other = issue(web, csrf, tid, "Almaty"), issue(web, csrf, tid, "Astana")
    assert "Rep A" in web.get(old).text
    new = issue(web, csrf, tid, "Almaty")
    assert new != old
    web.post("/logout", data={"csrf": csrf})
    for language, text in (("kk", "Бұл наразылық сілтемесі команда бетін ашпайды"),
                           ("ru", "Эта ссылка для протестов не открывает страницу команды")):  # fmt: skip
        refused = web.get(old, headers={"accept-language": language})
        assert refused.status_code == 404 and text in html.unescape(refused.text)
        assert "Rep A" not in refused.text
    page = web.get(new).text
    assert "File a protest" in page and "Rep A" in page
    assert "Rep B" in web.get(other).text  # another team's link is not touched
    # The old token is refused for filing too, not only for reading.
    token = old.split("token=")[1]
    response = web.post(f"/tournaments/{tid}/protest", data={"token": token, "round": "1", "board": "1",
                                                              "filed_by": "Rep A", "text": "x"})  # fmt: skip
    assert response.status_code == 404


def test_a_link_of_the_older_kind_works_until_the_team_gets_a_new_one(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    service = tournaments(web)
    assert service.accounts is not None
    accounts = service.accounts
    tokens = [secrets.token_urlsafe(18) for _ in range(2)]

    async def legacy() -> None:  # as issue_team_link wrote them: one grant per link issued, every one kept
        for attempt, token in enumerate(tokens, start=1):
            await accounts.grant(tid, f"team1.{attempt}", "Almaty", token_digest(token))

    async def teams() -> list[str | None]:
        return [await service.team_of(tid, token) for token in tokens]

    call(web, legacy)
    assert call(web, teams) == ["Almaty", "Almaty"]
    new = issue(web, csrf, tid, "Almaty").split("token=")[1]
    assert call(web, teams) == [None, None]
    assert call(web, lambda: service.team_of(tid, new)) == "Almaty"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.anyio
async def test_without_a_link_key_a_random_token_replaces_the_old_one(tmp_path: Path, anyio_backend: str) -> None:
    """Accounts without the app's key make random links: the new token's digest replaces the old one's."""
    async with open_store(f"sqlite+aiosqlite:///{tmp_path / 'toreshi.db'}") as store:
        service = TournamentService(store, accounts=Accounts(store.engine))
        service.attach(Rooms(StoreLog(store), InProcessBus(), dict(ROOM_KINDS)))
        tid = await service.create("chief", Create(name="Cup", system=TournamentSystem.SWISS, rounds=3))
        await service.command(tid, AddTeam(name="Almaty"), "chief")
        old = await service.issue_team_link(tid, "Almaty")
        assert await service.team_of(tid, old) == "Almaty"
        new = await service.issue_team_link(tid, "Almaty")
        assert (await service.team_of(tid, old), await service.team_of(tid, new)) == (None, "Almaty")
