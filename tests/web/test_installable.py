"""The installable app (issue 30): the manifest in the reader's language that opens a player straight into their game,
its icons at the sizes phones ask for, ``/favicon.ico``, the service worker and its offline page.

The browser side (Chromium installs it, the worker controls the page, the offline page shows and reloads) is
``tests/browser/test_installable.py``.
"""

from __future__ import annotations

import html
import re
import struct
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from toreshi.web.common import installable
from toreshi.web.common.install_links import player_start
from toreshi.web.common.templates import STATIC_DIR

from .helpers import create_game, sign_in

MANIFEST_LINK = re.compile(r'<link rel="manifest" href="([^"]+)">')


def _manifest_of(client: TestClient, page: str) -> tuple[str, dict[str, object]]:
    """The manifest address a page links, and the manifest."""
    found = MANIFEST_LINK.search(client.get(page).text)
    assert found, f"{page} links no manifest"
    href = html.unescape(found.group(1))
    response = client.get(href)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    return href, response.json()


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(("language", "name"), [("kk", "төреші: клуб жарыстары"), ("ru", "төреші: соревнования клуба")])
def test_the_manifest_speaks_the_readers_language(client: TestClient, language: str, name: str) -> None:
    _, manifest = _manifest_of(client, f"/?lang={language}")
    assert manifest["name"] == name
    assert manifest["lang"] == language
    assert manifest["start_url"] == f"/?lang={language}"
    assert manifest["display"] == "standalone"
    assert manifest["scope"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", str(manifest["theme_color"]))


def test_the_icons_are_there_at_the_sizes_phones_ask_for(client: TestClient) -> None:
    _, manifest = _manifest_of(client, "/")
    icons = manifest["icons"]
    assert isinstance(icons, list)
    purposes = {(icon["sizes"], icon["purpose"]) for icon in icons}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= purposes
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        width, height = _png_size(STATIC_DIR / icon["src"].removeprefix("/static/"))
        assert f"{width}x{height}" == icon["sizes"]


def test_favicon_ico_answers_with_an_icon(client: TestClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/x-icon"
    reserved, kind, count = struct.unpack("<HHH", response.content[:6])
    assert (reserved, kind) == (0, 1) and count >= 2


def test_a_players_game_installs_as_an_app_that_opens_their_game(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room, token = str(game["id"]), str(game["tokens"]["white"])
    player = TestClient(client.app, base_url="http://testserver")
    player.portal = client.portal  # the same running app, without the arbiter's session
    page = player.get(f"/games/{room}?token={token}&lang=ru")
    assert page.headers["cache-control"] == "no-store"
    href, manifest = _manifest_of(player, f"/games/{room}?token={token}&lang=ru")
    assert manifest["start_url"] == f"/games/{room}?token={token}"
    assert manifest["id"] == f"/games/{room}"  # the app's identity names no secret
    assert manifest["lang"] == "ru"
    # The manifest that carries a player's link is never stored, like every answer asked for with one.
    assert player.get(href).headers["cache-control"] == "no-store"
    # The arbiter's view of the same game links the plain manifest: it starts at the home page.
    _, plain = _manifest_of(client, f"/games/{room}?lang=ru")
    assert plain["start_url"] == "/?lang=ru"


def test_a_manifest_never_starts_outside_a_players_page(client: TestClient) -> None:
    for start in ("//evil.example/games/x", "/tournaments/t-1", "https://evil.example/", "/games/x/links"):
        manifest = client.get("/manifest.webmanifest", params={"lang": "kk", "start": start, "token": "abc"}).json()
        assert manifest["start_url"] == "/?lang=kk", start


@settings(max_examples=200, deadline=None)
@given(path=st.text(max_size=40), tokens=st.lists(st.text(max_size=30), max_size=3))
def test_a_start_is_always_a_page_of_this_site(path: str, tokens: list[str]) -> None:
    start = player_start(path, tokens)
    if start is not None:
        parts = urlsplit(start)
        assert not parts.scheme and not parts.netloc and parts.path.startswith("/")
        assert parse_qsl(parts.query) == [("token", token) for token in tokens]


def test_the_service_worker_is_served_from_the_root_with_the_shell(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    first = response.text.splitlines()[0]
    assert first.startswith("const SETTINGS = ")
    assert f"toreshi-{installable.static_digest()}" in first
    for kept in ("/static/css/toreshi.css", "/static/js/page.js", "/offline/kk", "/offline/ru", "/offline/en"):
        assert f'"{kept}"' in first
    assert "token" not in first  # the shell holds no player's page


@pytest.mark.parametrize(
    ("language", "says"),
    [("kk", "Телефон клуб желісінен ажырап қалды"), ("ru", "Телефон потерял сеть клуба"),
     ("en", "The phone lost the club's network")],
)  # fmt: skip
def test_the_offline_page_says_the_network_is_lost_in_each_language(
    client: TestClient, language: str, says: str
) -> None:
    response = client.get(f"/offline/{language}", headers={"accept-language": "en"})
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.text
    assert html.unescape(response.text).count(says) == 1
    assert "/static/js/offline.js" in response.text
    # The worker keeps it: nothing secret, nothing that forbids keeping it.
    assert response.headers.get("cache-control") != "no-store"
    assert 'name="csrf"' not in response.text and "token=" not in response.text


def test_every_page_links_the_manifest_and_registers_the_worker(client: TestClient) -> None:
    sign_in(client)
    for page in ("/", "/tournaments", "/quiz", "/games/new"):
        text = client.get(page).text
        assert MANIFEST_LINK.search(text), page
        assert '<script type="module" src="/static/js/install.js"></script>' in text, page
