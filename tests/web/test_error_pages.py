"""Unknown pages, wrong methods, refused requests and server errors are the app's own pages in the reader's language
(JSON with a code under /api/), and a missing record says which kind of record is missing."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from toreshi.texts import i18n
from toreshi.web.app import create_app
from toreshi.web.common.missing import missing_message
from toreshi.web.common.settings import Settings

from .helpers import sign_in

SECRET = "the-database-password-is-hunter2"


def english_words(page: str) -> list[str]:
    """Latin words of a page's main text (tags and attributes stripped)."""
    main = page[page.index("<main") : page.index("</main>")]
    text = html.unescape(re.sub(r"<[^>]+>", " ", main))
    return re.findall(r"[A-Za-z][A-Za-z_]+", text)


def translated(msgid: str, language: str) -> str:
    return i18n.load_translations()[language].gettext(msgid)


async def _boom(request: Request) -> Response:
    raise RuntimeError(SECRET)


async def _refuse(request: Request) -> Response:
    status = int(request.path_params["status"])
    raise HTTPException(status, headers={"Retry-After": "7"} if status == 429 else None)


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    """The app, with a route that fails and one that raises an HTTP error, as a server (no exceptions re-raised)."""
    app = create_app(Settings(data_dir=tmp_path))
    handlers = {"/boom": _boom, "/refuse/{status:int}": _refuse}
    extra = [
        Route(prefix + path, handler, methods=["GET", "POST"])
        for path, handler in handlers.items()
        for prefix in ("", "/api")
    ]
    app.router.routes[:0] = extra
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


STATUSES = [
    ("GET", "/no/such/page", 404),
    ("DELETE", "/", 405),
    ("GET", "/logout", 405),
    ("GET", "/boom", 500),
    ("POST", "/boom", 500),
    ("GET", "/refuse/400", 400),
    ("GET", "/refuse/403", 403),
    ("GET", "/refuse/413", 413),
    ("GET", "/refuse/429", 429),
    ("GET", "/refuse/418", 418),
]


@pytest.mark.parametrize("language", ["kk", "ru"])
@pytest.mark.parametrize(("method", "path", "status"), STATUSES)
def test_an_error_is_the_apps_own_page_in_the_readers_language(
    app_client: TestClient, language: str, method: str, path: str, status: int
) -> None:
    response = app_client.request(method, path, headers={"accept-language": language})
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/html")
    assert "<main" in response.text and english_words(response.text) == []
    assert response.headers["content-security-policy"]  # the security headers, also on the 500 page
    assert SECRET not in response.text and "Traceback" not in response.text
    if status == 429:
        assert response.headers["retry-after"] == "7"


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/api/no/such/thing", 404, "not_found"),
    ("DELETE", "/api/session", 405, "method_not_allowed"),
    ("GET", "/api/boom", 500, "server_error"),
    ("GET", "/api/refuse/429", 429, "rate_limited"),
])  # fmt: skip
def test_the_json_api_answers_errors_in_json_with_a_code(
    app_client: TestClient, method: str, path: str, status: int, code: str
) -> None:
    response = app_client.request(method, path, headers={"accept-language": "ru"})
    assert response.status_code == status
    body = response.json()
    assert body["code"] == code and body["message"] == body["error"]
    assert re.search("[а-яё]", body["message"]) and not re.search("[A-Za-z]", body["message"])
    assert SECRET not in response.text


@pytest.mark.parametrize("language", ["kk", "ru", "en"])
@pytest.mark.parametrize(("path", "kind"), [
    ("/games/g-000000000000", "game"),
    ("/tournaments/t-000000000000", "tournament"),
    ("/tournaments/t-000000000000/standings", "tournament"),
    ("/teams/tt-000000000000", "team tournament"),
    ("/quiz/tours/qt-000000000000", "quiz tour"),
    ("/quiz/teams/99999", "quiz team"),
    ("/quiz/q-000000000000", "quiz game"),
])  # fmt: skip
def test_a_missing_record_says_which_kind_is_missing(
    app_client: TestClient, language: str, path: str, kind: str
) -> None:
    response = app_client.get(path, headers={"accept-language": language})
    assert response.status_code == 404
    message = missing_message(path)
    assert f"no such {kind} here" in message
    assert translated(message, language) in html.unescape(response.text)
    if language != "en":
        assert english_words(response.text) == []


def test_the_kinds_are_told_apart() -> None:
    kinds = {missing_message(path) for path in ("/games/x", "/tournaments/x", "/teams/x", "/quiz/tours/x", "/quiz/x")}
    assert len(kinds) == 5


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_form_the_server_cannot_read_is_a_translated_400(app_client: TestClient, language: str) -> None:
    """Starlette refuses a form of more than 1000 fields, or a broken multipart body, with an HTTP 400 of its own."""
    sign_in(app_client)
    headers = {"accept-language": language}
    too_many = b"&".join(b"a%d=1" % index for index in range(1500))
    broken = b'--xx\r\nContent-Disposition: form-data; name="pack"; filename="a.siq"\r\n\r\nbbb'
    response = app_client.post(
        "/games/new", content=too_many, headers={**headers, "content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 400 and response.headers["content-type"].startswith("text/html")
    assert english_words(response.text) == []
    message = translated("The request could not be read. Go back, check the form and send it again.", language)
    assert message in html.unescape(response.text)
    # The pack upload reads its own body: the new game form again, in the reader's language, with status 400.
    response = app_client.post(
        "/quiz/new", content=broken, headers={**headers, "content-type": "multipart/form-data; boundary=xx"}
    )
    assert response.status_code == 400 and f'<html lang="{language}"' in response.text
