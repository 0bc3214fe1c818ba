"""The guide for the people who run the night (issue 30): the arbiter's tournament day and the quiz host's night,
in Kazakh, Russian and English, served by the app itself so that it reads offline on the club's network.

The guide is Markdown in ``toreshi/web/guide/{language}/{page}.md`` (one copy, shipped in the wheel), rendered at
request time with markdown-it-py (CommonMark, raw HTML off: the text is ours, but a stray tag must stay text). Its
first line is the page's heading; the rest is the section of the common page layout. The screenshots it shows are
in ``toreshi/web/guide/screenshots``: the few it uses, taken from what the browser tests write to ``docs/screenshots``
(the wheel and the container carry only ``src/``, so the guide keeps the pictures it needs next to its text).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from toreshi.texts import i18n
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found

GUIDE_DIR = Path(__file__).parent
PAGES = ("index", "arbiter", "quiz-host")
"""Every page of the guide, in each language (a name outside this list is a 404, never a file lookup)."""
SCREENSHOTS = GUIDE_DIR / "screenshots"
SCREENSHOT_NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.png")


@functools.cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> Markup:
    """Markdown as HTML; raw HTML in it is shown as text, never passed through."""
    return Markup(_markdown().render(text))


@functools.cache
def guide_page(language: str, page: str) -> tuple[str, Markup]:
    """The page's heading (its first line, ``# …``) and its body as HTML."""
    text = (GUIDE_DIR / language / f"{page}.md").read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    return first.removeprefix("#").strip(), render_markdown(rest)


async def show_index(request: Request) -> Response:
    """``GET /guide``: the guide's contents in the reader's language."""
    language = request.scope.get("state", {}).get("language", i18n.DEFAULT_LANGUAGE)
    heading, body = guide_page(language, "index")
    return pagekit.plain(request, "guide.html", heading=heading, body=body, page="index")


async def show_page(request: Request) -> Response:
    """``GET /guide/{language}/{page}``: one page of the guide, inside the app's page layout. The language is the
    path's; choosing another in the header (``?lang=``) opens the same page in that language."""
    language, page = request.path_params["language"], request.path_params["page"]
    if language not in i18n.LANGUAGES or page not in PAGES:
        return not_found(request)
    chosen = request.query_params.get("lang")
    if chosen in i18n.LANGUAGES and chosen != language:
        return pagekit.redirect(f"/guide/{chosen}/{page}")
    request.scope.setdefault("state", {})["language"] = language
    heading, body = guide_page(language, page)
    return pagekit.plain(request, "guide.html", heading=heading, body=body, page=page)


async def screenshot(request: Request) -> Response:
    """``GET /guide/screenshots/{name}``: a screenshot the guide shows (a plain file name, nothing else)."""
    name = request.path_params["name"]
    if SCREENSHOT_NAME.fullmatch(name) and (SCREENSHOTS / name).is_file():
        return FileResponse(SCREENSHOTS / name, media_type="image/png", headers={"cache-control": "no-cache"})
    return not_found(request)


routes = [
    Route("/guide", show_index, methods=["GET"]),
    Route("/guide/screenshots/{name}", screenshot, methods=["GET"]),
    Route("/guide/{language}/{page}", show_page, methods=["GET"]),
]
