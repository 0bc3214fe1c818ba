"""The guide for the people who run the night (issue 30): served by the app itself, in the three languages, inside
the page layout, with the app's own labels, and linked from every page."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toreshi.texts import i18n
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings
from toreshi.web.guide import pages as guide_pages

from .helpers import sign_in

PAGES = [(language, page) for language in i18n.LANGUAGES for page in guide_pages.PAGES]
PRODUCT_NAMES = {"SIGame", "siq", "db", "chgk", "info", "CSV", "TRF", "QR"}
"""Latin words a Kazakh or Russian page may show: product, site and file-format names."""
FILE_LABELS = {"TRF16", "TRF-2026", "CSV"}
"""Bold labels that are file formats, the same on every screen (the standings page's export buttons)."""

PAGES_WITH_THE_MENU = (
    *("/", "/tournaments", "/tournaments/new", "/teams", "/quiz", "/quiz/new", "/quiz/tours", "/quiz/teams"),
    *("/quiz/league", "/practice", "/login", "/no-such-page", "/guide/kk/index"),
)
"""The home page, the tournaments' and the quiz's pages, a form, an error page and the guide itself."""


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path))) as client:
        yield client


def main_of(page: str) -> str:
    return page[page.index("<main") : page.index("</main>")]


def english_words(page: str) -> list[str]:
    """Latin words of a page's main text (tags and attributes stripped)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", main_of(page)))
    return re.findall(r"[A-Za-z][A-Za-z_]+", text)


@pytest.mark.parametrize(("language", "page"), PAGES)
def test_every_guide_page_renders_in_its_language(web: TestClient, language: str, page: str) -> None:
    answer = web.get(f"/guide/{language}/{page}")
    assert answer.status_code == 200
    assert f'<html lang="{language}"' in answer.text
    heading = re.search(r"<h1>([^<]+)</h1>", answer.text)
    assert heading is not None and html.unescape(heading.group(1)) == guide_pages.guide_page(language, page)[0]
    assert main_of(answer.text).count("<h2>") >= (0 if page == "index" else 3)
    if language != "en":
        assert [word for word in english_words(answer.text) if word not in PRODUCT_NAMES] == []


@pytest.mark.parametrize(("language", "page"), PAGES)
def test_every_picture_and_link_of_the_guide_answers(web: TestClient, language: str, page: str) -> None:
    main = main_of(web.get(f"/guide/{language}/{page}").text)
    pictures = re.findall(r'<img src="([^"]+)"', main)
    links = re.findall(r'<a href="([^"]+)"', main)
    assert pictures or page == "index"
    assert links
    for address in pictures:
        answer = web.get(address)
        assert answer.status_code == 200 and answer.headers["content-type"] == "image/png", address
    for address in links:
        assert address.startswith(f"/guide/{language}/"), address  # a link stays in the reader's language
        assert web.get(address).status_code == 200, address


def label_patterns(language: str) -> list[re.Pattern[str]]:
    """Every interface text of the language, as it shows on a screen (a placeholder stands for a number)."""
    catalogue = i18n.read_catalogue(language)
    texts = {message.id if language == "en" else message.string for message in catalogue if message.id}
    patterns = []
    for text in texts:
        if isinstance(text, str) and text:
            parts = re.split(r"%\(\w+\)s", text)
            patterns.append(re.compile(r"\d+".join(re.escape(part) for part in parts) + r"\Z", re.IGNORECASE))
    return patterns


@pytest.mark.parametrize(("language", "page"), PAGES)
def test_the_guide_names_the_buttons_as_the_screen_does(language: str, page: str) -> None:
    """Every **bold** name in the guide is an interface text of the app in that language: a guide that says
    «Create the tournament» where the button says something else leaves the arbiter looking for it."""
    text = (guide_pages.GUIDE_DIR / language / f"{page}.md").read_text(encoding="utf-8")
    labels = set(re.findall(r"\*\*(.+?)\*\*", text)) - FILE_LABELS
    patterns = label_patterns(language)
    assert patterns
    strays = sorted(label for label in labels if not any(pattern.match(label) for pattern in patterns))
    assert strays == []


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_page_links_the_guide_in_its_language(web: TestClient, language: str) -> None:
    sign_in(web)
    guide = i18n.load_translations()[language].gettext("Guide")
    for address in PAGES_WITH_THE_MENU:
        page = web.get(address, params={"lang": language}).text
        footer = page[page.index('<footer class="bottom">') :]
        assert f'<a href="/guide/{language}/index" class="guide-link">{guide}</a>' in footer, address


def test_choosing_another_language_opens_the_same_page_in_it(web: TestClient) -> None:
    answer = web.get("/guide/kk/arbiter", params={"lang": "ru"}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/guide/ru/arbiter"
    contents = web.get("/guide", headers={"accept-language": "ru"})
    assert '<html lang="ru"' in contents.text and "/guide/ru/arbiter" in contents.text


@pytest.mark.parametrize(
    "address",
    [
        "/guide/de/index",
        "/guide/kk/README",
        "/guide/kk/..%2F..%2Fapp.py",
        "/guide/screenshots/..%2F..%2Fapp.py",
        "/guide/screenshots/missing.png",
        "/guide/screenshots/quiz-host-console.PNG",
    ],
)
def test_the_guide_answers_only_its_own_pages_and_pictures(web: TestClient, address: str) -> None:
    assert web.get(address).status_code == 404


def test_raw_html_in_the_guide_stays_text() -> None:
    rendered = guide_pages.render_markdown('<script>alert(1)</script> <img src=x onerror="alert(2)">')
    assert "<script" not in rendered and "<img" not in rendered
    assert "&lt;script&gt;" in rendered
