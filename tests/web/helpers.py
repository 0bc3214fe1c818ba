"""What several web tests do the same way: sign an arbiter in, read a form's token, create a game through the
JSON API, post a form, wait for a socket message, run a page's script under Node.js."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections import deque
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import pytest
from starlette.testclient import TestClient

ARBITER = ("Төреші Әлия", "kumalak-82!")
CSRF_FIELD = re.compile(r'name="csrf" value="([^"]+)"')
STATIC_JS = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"


def csrf_in(html: str) -> str:
    """The form token of a page (its hidden ``csrf`` field)."""
    found = CSRF_FIELD.search(html)
    assert found is not None, "the page has no form token"
    return found.group(1)


def session_csrf(client: TestClient) -> str:
    """The session's token for JSON writes (``X-CSRF-Token``) and forms, from ``/api/session``."""
    return str(client.get("/api/session").json()["csrf"])


def sign_in(client: TestClient, name: str = ARBITER[0], password: str = ARBITER[1]) -> str:
    """Sign an arbiter in through the real pages: ``/setup`` the first time (it sets their password and signs them
    in), ``/login`` afterwards; returns the session's token."""
    first = client.get("/setup", follow_redirects=False).status_code == 200
    form = {"name": name, "password": password, "csrf": session_csrf(client)}
    if first:
        form["confirm"] = password
    response = client.post("/setup" if first else "/login", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    session = client.get("/api/session").json()
    assert session["arbiter"] == name
    return str(session["csrf"])


def post(client: TestClient, url: str, csrf: str, **form: Any) -> str:
    """Post a form and follow the redirect; returns the page it lands on (its HTML entities decoded)."""
    response = client.post(url, data={**form, "csrf": csrf}, follow_redirects=True)
    assert response.status_code == 200, response.text
    return html.unescape(response.text)


def create_game(client: TestClient, csrf: str, **body: Any) -> dict[str, Any]:
    """A togyz game created by the signed-in arbiter (``csrf`` from ``/api/session``); the API's answer."""
    response = client.post(
        "/api/games",
        json={"white": "Абай", "black": "Болат", "control": "blitz", **body},
        headers={"x-csrf-token": csrf},
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def start_game(client: TestClient, room: str, **data: Any) -> None:
    """The arbiter signed in on ``client`` starts the game ``room`` from the arbiter's socket (``data``: the start
    command's, such as who is absent)."""
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "id": "s", "type": "start", "data": data})
        receive_until(ws, "ack", id="s")


_UNREAD: WeakKeyDictionary[Any, deque[dict[str, Any]]] = WeakKeyDictionary()


def receive_message(ws: Any) -> dict[str, Any]:
    """The next socket message; the events of an ``events`` frame come one by one, as ``event`` messages."""
    unread = _UNREAD.setdefault(ws, deque())
    if not unread:
        message: dict[str, Any] = ws.receive_json()
        if message["t"] != "events":
            return message
        assert message["events"], "an events frame carries at least one event"
        unread.extend(message["events"])
    return unread.popleft()


def receive_until(ws: Any, wanted: str, **match: Any) -> dict[str, Any]:
    """The next socket message of type ``wanted`` (and with the ``match`` fields), skipping the others."""
    for _ in range(500):
        message = receive_message(ws)
        if message["t"] == wanted and all(message.get(key) == value for key, value in match.items()):
            return message
    raise AssertionError(f"no {wanted} message")


def run_node(script: Path, source: str, scripts: dict[str, str], instead: str) -> dict[str, Any]:
    """Run ``source`` as the module ``script`` under Node.js, each placeholder of ``scripts`` replaced by the address
    of the page script it names (in ``static/js``); what it printed last, as JSON. Without Node.js the test skips,
    saying what checks the scripts ``instead``."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"Node.js is not installed: {instead}")
    for placeholder, name in scripts.items():
        source = source.replace(placeholder, (STATIC_JS / name).as_uri())
    script.write_text(source)
    finished = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 0, finished.stderr
    result: dict[str, Any] = json.loads(finished.stdout.strip().splitlines()[-1])
    return result


def csv_text(response: Any) -> str:
    """The text of a CSV download, as Excel reads it: the app's every CSV starts with the UTF-8 byte-order mark
    (toreshi.web.common.spreadsheets), which is not part of the first cell."""
    assert response.headers["content-type"].startswith("text/csv"), response.headers["content-type"]
    assert response.content.startswith(b"\xef\xbb\xbf"), "a CSV without its byte-order mark"
    return str(response.content.decode("utf-8-sig"))


def csv_rows(response: Any) -> list[list[str]]:
    """The rows of a CSV download (:func:`csv_text`)."""
    import csv
    import io

    return list(csv.reader(io.StringIO(csv_text(response))))


def route_urls(path: str, ids: dict[str, str], formats: tuple[str, ...]) -> list[str]:
    """Every URL of a route's path for a walk over the app's routes: each id parameter filled from ``ids`` (a key
    ``family:name`` wins over ``name``; the families are ``teams`` for ``/teams/…`` and ``quiz`` for quiz paths),
    any other parameter (a format, a file's name) tried with each of ``formats``."""
    import itertools

    names = re.findall(r"{(\w+)(?::\w+)?}", path)
    family = "teams" if path.startswith("/teams/") else "quiz" if "/quiz" in path else "other"
    known = [ids.get(f"{family}:{name}", ids.get(name)) for name in names]
    choices = [[value] if value is not None else list(formats) for value in known]
    urls = []
    for values in itertools.product(*choices):
        url = path
        for name, value in zip(names, values, strict=True):
            url = re.sub("{" + name + r"(?::\w+)?}", value, url, count=1)
        urls.append(url)
    return urls
