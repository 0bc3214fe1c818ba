"""Sessions live on the server: signing out ends them, the cookie carries nothing but a random id."""

from __future__ import annotations

import asyncio
import base64
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from starlette.testclient import TestClient

from toreshi.store.schema import sessions as sessions_table
from toreshi.store.sessions import Sessions, session_digest
from toreshi.web.accounts.sessions import COOKIE
from toreshi.web.app import create_app
from toreshi.web.common.services import Services
from toreshi.web.common.settings import Settings

from .helpers import session_csrf, sign_in


def services_of(client: TestClient) -> Services:
    services = client.app.state.services  # type: ignore[attr-defined]
    assert isinstance(services, Services)
    return services


def can_create_a_game(client: TestClient, csrf: str) -> bool:
    body = {"white": "Абай", "black": "Болат", "control": "blitz"}
    return client.post("/api/games", json=body, headers={"x-csrf-token": csrf}).status_code == 201


def test_signing_out_ends_the_session_for_a_copied_cookie_too(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="http://testserver") as client:
        csrf = sign_in(client)
        copied = client.cookies[COOKIE]
        assert can_create_a_game(client, csrf)
        assert client.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
        client.cookies.clear()
        client.cookies.set(COOKIE, copied)
        assert client.get("/api/session").json()["arbiter"] is None
        assert not can_create_a_game(client, csrf)


def test_the_cookie_carries_only_a_random_id_and_the_database_only_its_digest(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="http://testserver") as client:
        sign_in(client)
        value = client.cookies[COOKIE]
        assert len(value) >= 40 and "." not in value  # not a signed payload
        decoded = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        assert b"arbiter" not in decoded and "Әлия".encode() not in decoded

        async def digests() -> list[str]:
            async with services_of(client).store.engine.connect() as connection:
                return list((await connection.execute(select(sessions_table.c.id_digest))).scalars())

        stored = client.portal.call(digests)  # type: ignore[union-attr]
        assert session_digest(value) in stored and value not in stored


def test_a_sign_in_starts_a_new_session_id(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="http://testserver") as client:
        session_csrf(client)  # an anonymous session with a form token
        before = client.cookies[COOKIE]
        sign_in(client)
        assert client.cookies[COOKIE] != before


def test_the_cookie_is_secure_over_https_and_http_only(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="https://testserver") as client:
        cookie = client.get("/api/session").headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    with TestClient(create_app(Settings(data_dir=tmp_path / "plain")), base_url="http://testserver") as client:
        cookie = client.get("/api/session").headers["set-cookie"]
        assert "Secure" not in cookie and "HttpOnly" in cookie
    with TestClient(create_app(Settings(data_dir=tmp_path / "forced", https_only=True))) as client:
        assert "Secure" in client.get("/api/session").headers["set-cookie"]


def test_a_page_that_reads_the_session_writes_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="http://testserver") as client:
        sign_in(client)
        assert "set-cookie" not in client.get("/").headers


def test_idle_sessions_are_gone(tmp_path: Path) -> None:
    from toreshi.store import open_store

    async def run() -> None:
        async with open_store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}") as store:
            now = [datetime(2026, 12, 1, tzinfo=UTC)]
            kept = Sessions(store.engine, now=lambda: now[0])
            await kept.save("a", {"arbiter": "Әлия"})
            await kept.save("b", {"arbiter": "Болат"})
            now[0] += timedelta(days=10)
            await kept.touch("b")
            now[0] += timedelta(days=5)
            assert await kept.load("a") is None
            loaded = await kept.load("b")
            assert loaded is not None and loaded[0] == {"arbiter": "Болат"}
            assert await kept.purge() == 1

    asyncio.run(run())
