"""The phone is the player's device (issue 30): Chromium finds the app installable, its service worker controls the
pages, a page the phone cannot reach shows the offline page in the reader's language, and the page comes back by
itself when the network does. Screenshots of the app opened from its icon and of the offline page (kk, ru) go to
``artifacts/screenshots/`` (copies in ``docs/screenshots/``)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

OFFLINE_TITLE = {"kk": "Телефон клуб желісінен ажырап қалды", "ru": "Телефон потерял сеть клуба"}


def _controlled(page: Page) -> None:
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")


def _kept_urls(page: Page) -> list[str]:
    urls: list[str] = page.evaluate(
        """async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname
              + new URL(request.url).search);
          }
          return urls;
        }"""
    )
    return urls


def test_a_player_installs_the_game_and_it_survives_the_network_going(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser)
    sign_in_arbiter(arbiter, server)
    game = create_game(arbiter, server, white="Абай", black="Болат")
    arbiter.context.close()
    white = str(game["links"]["white"])
    link = white if "://" in white else server.url + white
    path_and_link = link.removeprefix(server.url)

    phone = new_page(browser, **PHONE)
    errors: list[str] = []
    phone.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{link}&lang=kk")
    _controlled(phone)
    phone.locator(".board").first.wait_for()

    # Chromium's own verdict: the manifest parses and the app is installable; from the icon it opens their game.
    cdp = phone.context.new_cdp_session(phone)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [], parsed["errors"]
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in installability if error["errorId"] != "in-incognito"] == []
    manifest = phone.request.get(parsed["url"])
    assert manifest.headers["cache-control"] == "no-store"  # it carries the player's link
    start = manifest.json()["start_url"]
    assert start == path_and_link.split("&lang=")[0]
    phone.goto(server.url + start)
    phone.locator(".board").first.wait_for()
    phone.wait_for_timeout(300)
    screenshot(phone, "pwa-app-game-kk")

    # What the worker keeps: the shell only, never a page with a link.
    kept = _kept_urls(phone)
    assert "/static/css/toreshi.css" in kept and "/offline/kk" in kept and "/offline/ru" in kept
    assert not [url for url in kept if "token=" in url or not url.startswith(("/static/", "/offline/"))], kept

    # The club's network goes: the player's page says so in Kazakh, and comes back by itself.
    phone.context.set_offline(True)
    phone.reload()
    phone.get_by_role("heading", name=OFFLINE_TITLE["kk"]).wait_for()
    assert phone.url == server.url + start  # the page it stands for
    screenshot(phone, "pwa-offline-kk")
    phone.context.set_offline(False)
    phone.locator(".board").first.wait_for(timeout=10_000)
    assert phone.get_by_role("heading", name=OFFLINE_TITLE["kk"]).count() == 0

    # A reader who chose Russian gets it in Russian (the language cookie; no ?lang= on the page asked for).
    phone.goto(f"{server.url}/tournaments?lang=ru")
    phone.context.set_offline(True)
    phone.goto(f"{server.url}/quiz")
    phone.get_by_role("heading", name=OFFLINE_TITLE["ru"]).wait_for()
    assert phone.locator("html").get_attribute("lang") == "ru"
    screenshot(phone, "pwa-offline-ru")
    phone.context.set_offline(False)
    phone.wait_for_url(re.compile(r"/quiz$"))
    phone.locator("header.top").wait_for(timeout=10_000)
    assert errors == [], errors
    phone.context.close()
