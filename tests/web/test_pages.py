"""The HTML pages: first start, signing in and out, form protection, creating a game, its links and its page."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.togyz.position import Termination
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import STATIC_JS, csrf_in, run_node

NAME, PASSWORD = "Төреші Асан", "tuzdyk-82!"


def set_up(client: TestClient, password: str = PASSWORD, confirm: str | None = None) -> Any:
    token = csrf_in(client.get("/setup").text)
    form = {"name": NAME, "password": password, "confirm": password if confirm is None else confirm, "csrf": token}
    return client.post("/setup", data=form, follow_redirects=False)


def create_game(client: TestClient, white: str = "Абай", black: str = "Болат") -> str:
    token = csrf_in(client.get("/games/new").text)
    form = {"white": white, "black": black, "control": "rapid", "flag": "claim", "csrf": token}
    response = client.post("/games/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    match = re.fullmatch(r"/games/(g-[0-9a-f]+)/links", location)
    assert match is not None, location
    return match.group(1)


def game_config(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="game-config">(.*?)</script>', html, re.S)
    assert found is not None
    config: dict[str, Any] = json.loads(found.group(1))
    return config


# --- first start -------------------------------------------------------------------------------------------------


def test_first_start_shows_the_setup_banner_and_sends_sign_in_to_setup(web: TestClient) -> None:
    home = web.get("/?lang=en")
    assert home.status_code == 200
    assert 'href="/setup"' in home.text and "first start" in home.text
    login = web.get("/login", follow_redirects=False)
    assert login.status_code == 303 and login.headers["location"] == "/setup"


def test_setup_from_this_machine_sets_the_password_and_signs_in(web: TestClient) -> None:
    page = web.get("/setup?lang=en")
    assert page.status_code == 200 and 'type="password"' in page.text
    response = set_up(web)
    assert response.status_code == 303 and response.headers["location"] == "/"
    home = web.get("/").text
    assert NAME in home and 'href="/games/new"' in home and 'href="/setup"' not in home
    again = web.get("/setup", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == "/login"


def test_setup_from_another_machine_is_refused(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), client=("192.168.1.23", 50000)) as remote:
        page = remote.get("/setup?lang=en")
        assert page.status_code == 403
        assert "on the server itself" in page.text and 'type="password"' not in page.text


def test_setup_refuses_a_short_password_and_two_different_ones(web: TestClient) -> None:
    short = set_up(web, password="short")
    assert short.status_code == 200 and "at least 8 characters" in short.text
    differ = set_up(web, confirm="something else")
    assert differ.status_code == 200 and "passwords differ" in differ.text
    assert 'href="/setup"' in web.get("/").text  # still no arbiter


def test_a_form_without_its_csrf_token_is_refused(web: TestClient) -> None:
    web.get("/setup")
    form = {"name": NAME, "password": PASSWORD, "confirm": PASSWORD}
    missing = web.post("/setup", data=form, follow_redirects=False)
    assert missing.status_code == 200 and "expired" in missing.text
    wrong = web.post("/setup", data={**form, "csrf": "forged"}, follow_redirects=False)
    assert wrong.status_code == 200 and "expired" in wrong.text
    assert 'href="/setup"' in web.get("/").text


def test_a_cross_site_post_is_refused(web: TestClient) -> None:
    token = csrf_in(web.get("/setup").text)
    form = {"name": NAME, "password": PASSWORD, "confirm": PASSWORD, "csrf": token}
    response = web.post("/setup", data=form, headers={"origin": "https://evil.example"}, follow_redirects=False)
    assert response.status_code == 403
    by_referer = web.post("/setup", data=form, headers={"referer": "https://evil.example/page"}, follow_redirects=False)
    assert by_referer.status_code == 403
    assert 'href="/setup"' in web.get("/").text


# --- signing in and out ------------------------------------------------------------------------------------------


def test_sign_out_then_in_again(web: TestClient) -> None:
    set_up(web)
    home = web.get("/?lang=en").text
    signed_out = web.post("/logout", data={"csrf": csrf_in(home)}, follow_redirects=False)
    assert signed_out.status_code == 303
    home = web.get("/?lang=en").text
    assert NAME not in home and 'href="/login"' in home
    login = web.get("/login?next=/games/new&lang=en")
    assert login.status_code == 200 and 'value="/games/new"' in login.text
    form = {"name": NAME, "password": PASSWORD, "next": "/games/new", "csrf": csrf_in(login.text)}
    response = web.post("/login", data=form, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/games/new"
    assert NAME in web.get("/").text


def test_a_wrong_password_is_refused(web: TestClient) -> None:
    set_up(web)
    web.post("/logout", data={"csrf": csrf_in(web.get("/").text)})
    login = web.get("/login?lang=en")
    form = {"name": NAME, "password": "not the password", "next": "/", "csrf": csrf_in(login.text)}
    response = web.post("/login", data=form, follow_redirects=False)
    assert response.status_code == 200 and "Wrong name or password" in response.text
    assert NAME not in web.get("/").text


def test_sign_in_never_redirects_to_another_site(web: TestClient) -> None:
    set_up(web)
    web.post("/logout", data={"csrf": csrf_in(web.get("/").text)})
    login = web.get("/login")
    form = {"name": NAME, "password": PASSWORD, "next": "//evil.example/", "csrf": csrf_in(login.text)}
    response = web.post("/login", data=form, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/"


def test_creating_a_game_needs_a_signed_in_arbiter(web: TestClient) -> None:
    response = web.get("/games/new", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/login?next=/games/new"


# --- a game ------------------------------------------------------------------------------------------------------


def test_the_new_game_form_offers_every_preset_and_both_flag_modes(web: TestClient) -> None:
    set_up(web)
    page = web.get("/games/new?lang=en").text
    for preset in ("blitz", "rapid", "classical-60", "classical-90", "classical-40-2h-1h"):
        assert f'value="{preset}"' in page
    assert 'value="automatic"' in page and 'value="claim"' in page
    assert "Blitz: 7 minutes each" in page


def test_a_new_game_without_names_is_refused(web: TestClient) -> None:
    set_up(web)
    token = csrf_in(web.get("/games/new").text)
    form = {"white": "Абай", "black": "", "control": "blitz", "flag": "automatic", "csrf": token}
    response = web.post("/games/new?lang=en", data=form, follow_redirects=False)
    assert response.status_code == 200 and "Black: must not be empty." in html.unescape(response.text)
    assert 'value="Абай"' in response.text  # what was typed stays


def test_the_links_page_shows_two_secret_links_their_codes_and_the_spectator_link(web: TestClient) -> None:
    set_up(web)
    room = create_game(web)
    page = web.get(f"/games/{room}/links?lang=en")
    assert page.status_code == 200
    tokens = re.findall(rf'href="http://testserver/games/{room}\?token=([\w-]+)"', page.text)
    assert len(tokens) == 2 and tokens[0] != tokens[1]
    assert all(len(token) >= 20 for token in tokens)
    assert f'href="http://testserver/games/{room}"' in page.text
    assert page.text.count("<svg") == 3  # a QR code per link
    assert 'data-action="print"' in page.text
    assert f"mode=clock&amp;token={tokens[0]}&amp;token={tokens[1]}" in page.text


def test_the_secret_links_make_their_holders_the_players(web: TestClient) -> None:
    set_up(web)
    room = create_game(web)
    page = web.get(f"/games/{room}/links").text
    tokens = re.findall(rf'href="http://testserver/games/{room}\?token=([\w-]+)"', page)
    for role, token in zip(("white", "black"), tokens[:2], strict=True):
        with web.websocket_connect(f"/ws/rooms/{room}") as socket:
            socket.send_json({"t": "hello", "v": 0, "token": token})
            welcome = socket.receive_json()
            assert welcome["t"] == "welcome" and welcome["role"] == role


def test_the_home_page_lists_the_games(web: TestClient) -> None:
    set_up(web)
    room = create_game(web, "Абай", "Болат")
    home = web.get("/?lang=en").text
    assert f'href="/games/{room}"' in home and "Абай" in home and "Болат" in home
    assert "No games yet" not in home


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("kk", ("Тоғызқұмалақ", "Жүрістер", "Төреші пульті")),
        ("ru", ("Тогыз кумалак", "Ходы", "Пульт судьи")),
        ("en", ("Togyz kumalak", "Moves", "Arbiter's console")),
    ],
)
def test_the_game_page_renders_in_each_language(web: TestClient, language: str, words: tuple[str, ...]) -> None:
    set_up(web)
    room = create_game(web)
    page = web.get(f"/games/{room}?lang={language}")
    assert page.status_code == 200
    assert f'<html lang="{language}">' in page.text
    for word in words:
        assert word in html.unescape(page.text)
    config = game_config(page.text)
    assert config["room"] == room and config["mode"] == "board" and config["token"] == ""
    assert config["strings"]["moves"] in words
    assert '<script type="module" src="/static/js/togyz.js"></script>' in page.text


def test_the_game_page_passes_the_token_and_the_mode_to_its_script(web: TestClient) -> None:
    set_up(web)
    room = create_game(web)
    page = web.get(f"/games/{room}?token=abc-123&mode=clock&lang=en")
    config = game_config(page.text)
    assert config["token"] == "abc-123" and config["mode"] == "clock"
    assert 'class="tap"' in page.text and page.text.count("data-clock") == 2
    odd = game_config(web.get(f"/games/{room}?mode=sideways").text)
    assert odd["mode"] == "board"


def test_the_language_links_keep_the_players_token(web: TestClient) -> None:
    set_up(web)
    room = create_game(web)
    page = web.get(f"/games/{room}?token=abc-123&lang=en").text
    assert f'href="/games/{room}?token=abc-123&amp;lang=kk"' in page
    assert f'href="/games/{room}?token=abc-123&amp;lang=ru"' in page


def test_the_script_gets_its_texts_as_json_not_as_markup(web: TestClient) -> None:
    set_up(web)
    room = create_game(web, "<b>Абай</b>", "Болат")
    page = web.get(f"/games/{room}?lang=ru").text
    assert "<b>Абай</b>" not in page
    config = game_config(page)
    assert config["strings"]["white"] == "Белые" and config["strings"]["offline"].startswith("Связь потеряна")


def test_the_script_has_a_text_for_every_key_it_shows(web: TestClient) -> None:
    # The page's own script and the board renderer it draws with.
    script = (STATIC_JS / "togyz.js").read_text() + (STATIC_JS / "togyz-board.js").read_text()
    used = set(re.findall(r'(?<![\w.$])t\("(\w+)"', script)) | set(re.findall(r'"(confirm_\w+)"', script))
    used |= {"white", "black"} | {f"term_{termination.value}" for termination in Termination}
    assert {"you", "wins", "offline", "draw_offered_by", "tap_to_press", "tuzdyk", "note_flag_81"} <= used
    set_up(web)
    room = create_game(web)
    for language in ("kk", "ru", "en"):
        page = web.get(f"/games/{room}?lang={language}").text
        found = re.search(r'<script type="application/json" id="game-texts">(.*?)</script>', page, re.S)
        assert found is not None
        texts = {**game_config(page)["strings"], **json.loads(found.group(1))}
        assert sorted(used - texts.keys()) == [], language
        assert all(texts[key].strip() for key in used)
        if language != "en":
            assert texts["wins"] != "{name} wins" and "{name}" in texts["wins"]


def test_an_unknown_game_is_not_found(web: TestClient) -> None:
    for path in ("/games/g-000000000000", "/games/nonsense"):
        response = web.get(f"{path}?lang=en")
        assert response.status_code == 404
        assert "There is no such game" in response.text


def test_the_static_files_are_served(web: TestClient) -> None:
    for path, kind in (
        ("/static/js/room.js", "javascript"),
        ("/static/js/togyz.js", "javascript"),
        ("/static/css/toreshi.css", "text/css"),
        ("/static/favicon.svg", "image/svg+xml"),
    ):
        response = web.get(path)
        assert response.status_code == 200 and kind in response.headers["content-type"]
        # checked on every use, so that no page runs an old script after an upgrade; unchanged files cost a 304
        assert response.headers["cache-control"] == "no-cache"
        again = web.get(path, headers={"if-none-match": response.headers["etag"]})
        assert again.status_code == 304


# --- the page's protocol client (static/js/room.js), run under Node.js where it is installed -----------------------

CLIENT_SCRIPT = """
import { RoomClient } from "ROOM_JS";
import { formatClock, parseClock } from "FORMAT_JS";

globalThis.location = { protocol: "http:", host: "club:8000" };
const sockets = [];
class FakeSocket {
  static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3;
  constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.handlers = {}; sockets.push(this); }
  addEventListener(type, handler) { (this.handlers[type] ||= []).push(handler); }
  fire(type, event = {}) { (this.handlers[type] || []).forEach((handler) => handler(event)); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.readyState = 3; this.fire("close"); }
  open() { this.readyState = 1; this.fire("open"); }
  deliver(message) { this.fire("message", { data: JSON.stringify(message) }); }
}
globalThis.WebSocket = FakeSocket;

const out = {};
const states = [];
const statuses = [];
const refusals = [];
const client = new RoomClient({
  roomId: "g-1", token: "secret",
  onState: (state, info) => states.push([info.version, info.snapshot, state.n]),
  onStatus: (status) => statuses.push(status),
  onRefused: (refusal) => refusals.push(refusal.code),
  onOutdated: () => { out.outdated = true; },
});
client.connect();
const first = sockets[0];
out.url = first.url;
first.open();
out.hello = first.sent[0];
first.deliver({ t: "welcome", protocol: 2, room: "g-1", kind: "togyz", role: "white", name: "A" });
first.deliver({ t: "snapshot", v: 3, ts: 5000, data: { n: 3 } });
first.deliver({ t: "event", v: 4, ts: 5100, data: { state: { n: 4 } } });
first.deliver({ t: "event", v: 4, ts: 5100, data: { state: { n: 4 } } });
first.deliver({ t: "event", v: 6, ts: 5300, data: { state: { n: 6 } } });
out.gapHello = first.sent.at(-1);
first.deliver({ t: "ping", id: 7, ts: 123 });
out.pong = first.sent.at(-1);
first.deliver({ t: "resync" });
out.resyncHello = first.sent.at(-1);
const accepted = client.command("move", { hole: 7 });
const sentMove = first.sent.at(-1);
first.deliver({ t: "ack", id: sentMove.id, v: 5 });
out.ack = await accepted;
const refused = client.command("resign");
first.deliver({ t: "refused", id: first.sent.at(-1).id, code: "game_over", message: "over" });
out.refusedCode = await refused.then(() => "accepted", (refusal) => refusal.code);
out.moveCommand = sentMove;
out.roleKept = client.role;
first.deliver({ t: "offset", offset: 40, rtt: 20 });
const now = client.roomNow(1_000_000);
out.roomNowMatchesSamples = Math.abs(now - (1_000_000 + Math.max(...client.tsSamples) + 10)) < 1e-6;

// The connection drops: a command made meanwhile waits and goes out, with the same id, after the new welcome.
first.close();
out.statusAfterDrop = client.status;
const waiting = client.command("press");
await new Promise((resolve) => setTimeout(resolve, 600));
const second = sockets[1];
out.reconnected = second !== undefined;
second.open();
out.secondHello = second.sent[0];
out.sentBeforeWelcome = second.sent.length;
second.deliver({ t: "welcome", protocol: 2, room: "g-1", kind: "togyz", role: "white", name: "A" });
const retried = second.sent.at(-1);
second.deliver({ t: "ack", id: retried.id, v: 6 });
out.retried = { type: retried.type, acked: (await waiting).v };
// A command's events in one frame: applied in order; the state comes with the last one.
second.deliver({ t: "events", room: "g-1", events: [
  { t: "event", v: 5, ts: 5200, more: true, data: { event: { type: "a" } } },
  { t: "event", v: 6, ts: 5300, data: { event: { type: "b" }, state: { n: 6 } } },
] });
// A frame after a gap: one hello for what is missing, nothing applied.
const sentBeforeGap = second.sent.length;
second.deliver({ t: "events", room: "g-1", events: [
  { t: "event", v: 8, ts: 5500, more: true, data: {} },
  { t: "event", v: 9, ts: 5600, data: { state: { n: 9 } } },
] });
out.gapFrameHellos = second.sent.slice(sentBeforeGap);
out.statuses = statuses;
out.states = states;
out.refusals = refusals;

const third = new RoomClient({ roomId: "g-2", onOutdated: () => { out.outdated = true; } });
third.connect();
sockets[2].open();
sockets[2].deliver({ t: "welcome", protocol: 99, room: "g-2", kind: "togyz", role: "spectator", name: "" });
out.spectatorHello = sockets[2].sent[0];
out.clock = [formatClock(420000), formatClock(61000), formatClock(9440), formatClock(3723000), formatClock(-20)];
out.parsed = [parseClock("5:00"), parseClock("1:05:30"), parseClock("90"), parseClock("five"), parseClock("")];
client.close();
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def client_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the protocol client did against a fake socket (one Node.js run for the tests below)."""
    script = tmp_path_factory.mktemp("client") / "client.mjs"
    scripts = {"ROOM_JS": "room.js", "FORMAT_JS": "format.js"}
    return run_node(script, CLIENT_SCRIPT, scripts, "the page's script is checked in a browser instead")


def test_the_protocol_client_resyncs_by_version_and_answers_pings(client_run: dict[str, Any]) -> None:
    out = client_run
    assert out["url"] == "ws://club:8000/ws/rooms/g-1"
    assert out["hello"] == {"t": "hello", "v": 0, "token": "secret"}
    # the snapshot, then event 4 once; the duplicate and the event after a gap are not applied
    assert out["states"][:2] == [[3, True, 3], [4, False, 4]]
    assert out["gapHello"] == {"t": "hello", "v": 4, "token": "secret"}
    assert out["resyncHello"] == {"t": "hello", "v": 4, "token": "secret"}
    assert out["pong"]["t"] == "pong" and out["pong"]["id"] == 7 and out["pong"]["tc"] > 0
    assert out["roomNowMatchesSamples"] is True
    assert out["spectatorHello"] == {"t": "hello", "v": 0}  # no token for a spectator
    assert out["outdated"] is True  # an unknown protocol version makes the page reload


def test_the_protocol_client_retries_unacknowledged_commands_after_a_reconnect(client_run: dict[str, Any]) -> None:
    out = client_run
    move = out["moveCommand"]
    assert move["t"] == "cmd" and move["type"] == "move" and move["data"] == {"hole": 7} and move["id"]
    assert out["ack"]["v"] == 5 and out["refusedCode"] == "game_over" and out["refusals"] == ["game_over"]
    assert out["statusAfterDrop"] == "offline" and out["reconnected"] is True
    assert out["secondHello"]["v"] == 4  # the last version applied
    assert out["sentBeforeWelcome"] == 1  # nothing but the hello before the server knows who we are
    assert out["retried"] == {"type": "press", "acked": 6}
    # an events frame: every event applied in order, the state taken from the one that carries it
    assert out["states"][2:] == [[5, False, 4], [6, False, 6]]
    assert out["gapFrameHellos"] == [{"t": "hello", "v": 6, "token": "secret"}]
    assert out["roleKept"] == "white"
    assert out["statuses"] == ["online", "offline", "connecting", "online"]


def test_the_clock_digits_and_typed_times(client_run: dict[str, Any]) -> None:
    out = client_run
    assert out["clock"] == ["7:00", "1:01", "0:09.4", "1:02:03", "0:00.0"]
    assert out["parsed"] == [300_000, 3_930_000, 90_000, None, None]
