"""Every form of the app, posted with arbitrary fields by the role that may use it (a valid form token): never a
server error, and a refusal is a page in the reader's language (issue 26, "Every form").

The forms are found two ways: each ``POST`` route of the app, its path filled from a small world (a togyz game, a
tournament, a team tournament, a «Своя игра» game and tour), and each ``<form method="post">`` on that world's pages,
whose field names are fuzzed with the rest. Field values are what a careless or hostile client sends: huge numbers,
empty, other scripts, NUL bytes, over-long text, impossible dates, missing fields, fields the form does not have.
No value holds a Latin letter, so any Latin word on a Kazakh or Russian page is the app's own untranslated text."""

from __future__ import annotations

import asyncio
import dataclasses
import html
import os
import re
import string
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.datastructures import FormData
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from toreshi.texts import refusals
from toreshi.tournament.journal import commands as journal_commands
from toreshi.web.app import create_app
from toreshi.web.common.middleware import BodySizeLimitMiddleware
from toreshi.web.common.settings import Settings
from toreshi.web.quiz import pages as quiz_pages
from toreshi.web.teams import pages as team_pages
from toreshi.web.tournaments import pages as tournament_pages

from .helpers import create_game, sign_in

EXAMPLES = int(os.environ.get("TORESHI_FUZZ_EXAMPLES", "6"))
"""Examples per form address (the CI budget: about 60 addresses; set the variable higher to hunt longer)."""
LANGUAGES = ("kk", "ru")
SKIPPED = {"/logout"}
"""Signing out would leave every later form to a visitor (each is answered by the sign-in page, tested elsewhere)."""
ALLOWED = {
    "TRF", "TRF16", "CSV", "PGN", "FEN", "JSON", "QR", "ZIP", "SIGame", "siq", "PlayOK", "Wi", "Fi", "USB", "HTTPS",
    "Elo", "XML", "PDF", "FIDE", "toreshi",
    "Home", "End", "Backspace", "Space", "Enter", "Esc", "Tab", "Shift", "Ctrl", "Alt", "PgUp", "PgDn",
    "BH", "SB", "DE", "WIN", "BPTS", "ARO", "PS", "KS", "TK", "SI", "BHC", "MB", "KZT", "WON",
    "BPG", "BWG", "TPR", "KUM", "APRO", "APPO", "PTP", "BC", "AOB", "REP", "STD", "BAK", "TOP",
    "name", "rating", "club", "team", "federation_id", "federation", "title", "sex", "birth_date", "elo",
    "player", "representative", "players", "contact", "active",
    "SIQ", "XXP", "XXA", "MPVGP", "MPTS", "GPTS", "OpenSkill", "Plackett", "Luce",
}  # fmt: skip
"""Latin words a Kazakh page may show (as in tests/browser/test_page_walk.py)."""
URL = re.compile(r"\b(?:https?|wss?)://\S+|/dev/\S+|\b[\w.-]+\.(?:info|ru|kz|com|org)\b|\.siq\b")
JOIN_CODE = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{5}\b")
"""A quiz team's join code (``7KDM-X4PQR``, the links page a refused reissue goes back to): data, not words."""
SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S | re.I)
FORM = re.compile(r"<form\b[^>]*\bmethod=\"post\"[^>]*>.*?</form>", re.S | re.I)
ACTION = re.compile(r"\baction=\"([^\"]+)\"")
NAME = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"", re.I)

# --- what a hostile client sends -------------------------------------------------------------------------------


def _no_latin(character: str) -> bool:
    return not any(c in string.ascii_letters for c in unicodedata.normalize("NFKC", character))


NUMBERS = st.sampled_from(
    ["0", "-1", "1", "2", "3", "9" * 40, "-" + "9" * 30, "1е309", "٣", "²", " 7 ", "+5", "1.5", "-0", "0" * 500,
     "2147483648", "9223372036854775808", "-9223372036854775809", "1_000", "１２"]
)  # fmt: skip
SPECIAL = st.sampled_from(
    ["", " ", "\x00", "\x00\x00", "ж" * 5000, "9" * 5000, "2026-02-30", "0000-00-00", "9999-99-99", "99:99",
     "999:99", "\r\n", ";;;", ",,,\n,,,", "½-½", "1-0", "− +", "—", "\ud7ff", "\u202e", "<>&\"'", "../../", "%00",
     "１", "١-٠"]
)  # fmt: skip
TEXTS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]).filter(_no_latin), max_size=60)
VALUES = st.one_of(NUMBERS, SPECIAL, TEXTS)
EXTRA_NAMES = ["extra", "field", "🙂", "x" * 300, "back", "round", "board", "number", "id", "team", "result"]


@dataclass
class Target:
    """A form address and the field names known for it (from the pages' forms, or none)."""

    url: str
    route: str
    fields: set[str] = field(default_factory=set)
    upload: bool = False


@dataclass
class Seen:
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)


SEEN = Seen()


def english_words(page: str) -> list[str]:
    """Latin words of a page's main text (tags, attributes and addresses stripped), less the allowed codes."""
    if "<main" not in page:
        return []
    main = page[page.index("<main") : page.index("</main>")]
    main = SCRIPT.sub(" ", main)
    text = JOIN_CODE.sub(" ", URL.sub(" ", html.unescape(re.sub(r"<[^>]+>", " ", main))))
    return [word for word in re.findall(r"[A-Za-z][A-Za-z_]+", text) if word not in ALLOWED]


# --- the world: one record of each kind, and the pages whose forms are fuzzed -----------------------------------


@dataclass
class World:
    client: TestClient
    csrf: str
    params: dict[str, str]
    pages: list[str]
    found: list[Target] = field(default_factory=list)


def _build(client: TestClient, shared_data: Path) -> World:
    csrf = sign_in(client)
    game = create_game(client, csrf)["id"]
    made = client.post(
        "/tournaments/new",
        data={"name": "Кубок", "system": "round_robin", "rounds": "", "time_control": "rapid", "csrf": csrf},
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    tid = made.headers["location"].split("/")[2]
    players = "\n".join(f"Ойыншы {n}; {1500 + n}" for n in range(1, 5))
    client.post(f"/tournaments/{tid}/do/import", data={"csrf": csrf, "text": players})
    client.post(f"/tournaments/{tid}/do/pair", data={"csrf": csrf})
    made = client.post(
        "/teams/new", data={"name": "Командалық", "system": "swiss", "boards": "2", "rounds": "3", "csrf": csrf},
        follow_redirects=False,
    )  # fmt: skip
    assert made.status_code == 303, made.text
    team_tid = made.headers["location"].split("/")[2]
    client.post(
        f"/teams/{team_tid}/do/import", data={"csrf": csrf, "text": "team,player\nА,Абай\nА,Бек\nБ,Ерлан\nБ,Жанар\n"}
    )
    siq = shared_data / "quiz" / "siq" / "1.siq"
    made = client.post(
        "/quiz/new",
        data={"csrf": csrf, "title": "Бой", "kind": "qualifying", "round": "1", "first_theme": "1", "reading": "host",
              "arbitration": "compensated", "assistant": "Ерлан", "assistant_team": "Тұлпар", "team1": "Алтын",
              "team2": "Барыс", "key1": "1", "key2": "2"},
        files={"pack": (siq.name, siq.read_bytes(), "application/zip")}, follow_redirects=False,
    )  # fmt: skip
    assert made.status_code == 303, made.text
    quiz = made.headers["location"].split("/")[2]
    teams = ["name,players,contact,active"] + [
        f"{t},{t} Бір,+7 700,yes" for t in ("Алтын", "Барыс", "Сұңқар", "Тұлпар")
    ]
    client.post("/quiz/teams", data={"csrf": csrf, "csv_text": "\n".join(teams)})
    made = client.post(
        "/quiz/tours/new",
        data={"csrf": csrf, "name": "Тур", "date": "2026-12-01", "stages": "1", "advance1": "2", "best1": "0",
              "scoring": "battle_points", "team": ["Алтын", "Барыс", "Сұңқар", "Тұлпар"]},
        files=[("pack", (siq.name, siq.read_bytes()))], follow_redirects=False,
    )  # fmt: skip
    assert made.status_code == 303, made.text
    tour = made.headers["location"].rsplit("/", 1)[-1]
    params = {"room_id": game, "tid": tid, "number": "1", "role": "white", "tour_id": tour, "team_id": "1"}
    pages = [
        "/", "/games/new", f"/games/{game}", f"/games/{game}/links", "/tournaments/new", f"/tournaments/{tid}",
        f"/tournaments/{tid}/settings", f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}/protests",
        f"/teams/{team_tid}", "/teams", "/quiz/new", f"/quiz/{quiz}/links", f"/quiz/{quiz}/report", "/quiz/teams",
        "/quiz/teams/1", "/quiz/tours/new", f"/quiz/tours/{tour}", "/practice",
    ]  # fmt: skip
    return World(client, csrf, params | {"team_tid": team_tid, "quiz": quiz}, pages)


def _fill(path: str, params: dict[str, str]) -> str:
    if path.startswith("/teams/"):
        params = params | {"tid": params["team_tid"]}
    if path.startswith("/quiz/{room_id}"):
        params = params | {"room_id": params["quiz"]}
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: params[m.group(1)], path)


def posts(world: World) -> list[Route]:
    """The app's routes that take POST."""
    routes = world.client.app.routes  # type: ignore[attr-defined]
    return [route for route in routes if isinstance(route, Route) and "POST" in (route.methods or ())]


def targets(world: World) -> list[Target]:
    """Every POST route's addresses (each action of an ``{action}`` route), with the fields the pages' forms have."""
    found: dict[str, Target] = {}
    for route in posts(world):
        if route.path in SKIPPED:
            continue
        if "{action}" in route.path:
            known: dict[str, list[str]] = {
                "tournaments": list(tournament_pages.ACTIONS),
                "teams": list(team_pages.ACTIONS),
            }  # the quiz tour's actions come from the forms of its page, below
            for action in known.get(route.path.split("/")[1], []):
                url = _fill(route.path.replace("{action}", action), world.params)
                found[url] = Target(url, route.path)
            continue
        url = _fill(route.path, world.params)
        found[url] = Target(url, route.path, upload=route.path in ("/quiz/new", "/quiz/tours/new"))
    for page in world.pages:
        text = world.client.get(page).text
        for form in FORM.findall(text):
            address = ACTION.search(form)
            url = (html.unescape(address.group(1)) if address else page).split("?")[0]
            if url in SKIPPED:
                continue
            target = found.get(url)
            if target is None:
                routes = [r.path for r in posts(world) if r.path_regex.match(url)]
                target = found[url] = Target(url, routes[0] if routes else f"a form on {page}")
            target.fields |= set(NAME.findall(form)) - {"csrf"}
    return sorted(found.values(), key=lambda target: target.url)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[World]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("fuzz")))
    with TestClient(app, raise_server_exceptions=False, headers={"accept-language": LANGUAGES[0]}) as client:
        built = _build(client, shared_data)
        built.found = targets(built)
        yield built


# --- the test ------------------------------------------------------------------------------------------------------


def form_of(target: Target) -> st.SearchStrategy[dict[str, Any]]:
    names = sorted(target.fields) + EXTRA_NAMES
    single = st.dictionaries(st.sampled_from(names), VALUES, max_size=len(names) + 2)
    repeated = st.dictionaries(st.sampled_from(names), st.lists(VALUES, min_size=2, max_size=4), max_size=2)
    return st.builds(lambda one, many: {**one, **many}, single, repeated)


FILES = st.one_of(st.none(), st.binary(max_size=300), st.just(b"PK\x03\x04" + b"\x00" * 100))


def test_every_post_route_is_fuzzed(world: World) -> None:
    covered = {target.route for target in world.found}
    assert {route.path for route in posts(world)} - SKIPPED <= covered
    assert len(world.found) > 40


def check(world: World, target: Target, form: dict[str, Any], upload: bytes | None, language: str) -> None:
    files = {"pack": ("pack.siq", upload, "application/zip")} if target.upload and upload is not None else None
    response = world.client.post(
        target.url, data={**form, "csrf": world.csrf}, files=files, headers={"accept-language": language},
        follow_redirects=True,
    )  # fmt: skip
    SEEN.requests += 1
    SEEN.statuses[response.status_code] = SEEN.statuses.get(response.status_code, 0) + 1
    assert response.status_code < 500, (target.url, form, response.text[-2000:])
    if response.headers.get("content-type", "").startswith("text/html"):
        assert english_words(response.text) == [], (target.url, form, english_words(response.text))
    elif response.status_code >= 400 and response.headers.get("content-type", "").startswith("text/plain"):
        assert not re.search("[A-Za-z]{3}", response.text), (target.url, form, response.text)


def fuzzer(world: World, target: Target) -> Callable[[], None]:
    """A hypothesis run of ``EXAMPLES`` posts to one form address."""

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(form=form_of(target), upload=FILES, language=st.sampled_from(LANGUAGES))
    def fuzz(form: dict[str, Any], upload: bytes | None, language: str) -> None:
        check(world, target, form, upload, language)

    return fuzz


def test_no_form_answers_a_server_error_or_english(world: World) -> None:
    """One hypothesis run per form address (a parametrized test would rebuild the world for each)."""
    found = world.found
    failures: list[str] = []
    for target in found:
        try:
            fuzzer(world, target)()
        except AssertionError as failure:  # every address is fuzzed; the failures are told together
            failures.append(f"{target.url}: {str(failure)[:1500]}")
    print(f"\nform fuzz: {len(found)} addresses, {SEEN.requests} posts, statuses {SEEN.statuses}")
    assert not failures, "\n\n".join(failures)
    assert SEEN.requests >= EXAMPLES * 40


# --- what the fuzzing found, pinned ----------------------------------------------------------------------------

INTERNAL_FIELDS = {"cleared", "ended_at", "white_signed_at", "black_signed_at", "room_id", "at_ms", "corrected_at"}
"""Command fields the server fills itself, never read from a form."""
NOT_FIELDS = {"back", "token", "csrf"}
READ = re.compile(r'_(?:int|text|number|names|choice|bool)\w*\((?:f|form)\w*, "(\w+)"')


def test_every_field_a_competition_form_reads_has_a_name_in_the_readers_language() -> None:
    """A refusal names the field it could not read ("Players: no line breaks"): the name must be translated."""
    source = Path(team_pages.__file__).read_text() + Path(tournament_pages.__file__).read_text()
    fields = set(READ.findall(source)) - NOT_FIELDS
    for command in vars(journal_commands).values():
        if dataclasses.is_dataclass(command) and command.__module__ == journal_commands.__name__:
            fields |= {each.name for each in dataclasses.fields(command)} - INTERNAL_FIELDS
    assert len(fields) > 40
    assert sorted(name for name in fields if refusals._term("bad_request", name) is None) == []


def test_digits_of_other_kinds_are_not_numbers(world: World) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: the practice form answered it with a server error."""
    for level in ("²", "٣", "３"):
        response = world.client.post("/practice", data={"level": level, "csrf": world.csrf})
        assert response.status_code == 200 and english_words(response.text) == []
    form = FormData([("use_round", "²"), ("use_round", "1"), ("q", "1.².3"), ("q", "1.2.3")])
    assert quiz_pages._picks_of(form) == ({1}, {(1, 2): (3,)})


def test_a_content_length_of_other_digits_is_not_a_number() -> None:
    """The body-size limit reads ``Content-Length`` before any handler (a client can send any bytes there)."""
    answered: list[int] = []

    async def handler(scope: Scope, receive: Receive, send: Send) -> None:
        answered.append(200)

    async def call() -> None:
        scope: Scope = {
            "type": "http",
            "method": "POST",
            "path": "/",
            "headers": [(b"content-length", "²".encode("latin-1"))],
        }

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            return None

        await BodySizeLimitMiddleware(handler)(scope, receive, send)

    asyncio.run(call())
    assert answered == [200]
