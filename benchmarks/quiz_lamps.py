"""«Своя игра» in real browsers: how long after a phone's press the host's console and the projector show it (issue 32).

One ``toreshi serve`` on SQLite in a temporary folder (loopback only) and Debian's Chromium driven by Playwright, as
``tests/browser/conftest.py`` launches it: the host's console (1280×860), the projector (1920×1080) and four phones
(360×740, touch) of one qualifying game created through the new-game form (``--pack``, arrival arbitration). The
host draws, chooses questions by clicking their cells and rules with its keys (− wrong for the first three teams,
Enter right for the fourth, as ``quiz_live.py`` does).

A **press**: one phone's buzzer gets a touch (``pointerdown``; its time is taken on that page's clock,
``Date.now()``, the wall clock all pages of one machine share). The host's console
and the projector each watch their own page (a ``MutationObserver`` on the game): when the pressing team's card first
shows the press — on the projector its lamp (``data-lamp`` pressed or answering), on the console the card marked
pressed or answering — the time of the next animation frame (run just before the browser paints the change) is the
moment it is shown. Each page also notes when the frame with the lock-out (``buzzed``) reached its socket, before
the page's own handler ran: the report splits press → shown into press → frame arrives (server, network and a busy
page) and frame → shown (the page's drawing). Printed per screen: median and p99 over ``--presses`` presses.

``--before PATH`` also serves the same game from another checkout (``/work/main`` before a change) in the same run:
the presses alternate between the two servers in blocks of one question (four presses), so both see the same
machine load; the report prints both and the ratios host/projector of each.

    python benchmarks/quiz_lamps.py [--presses 60] [--pack PATH] [--before /work/main]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.quiz_live import (  # noqa: E402
    CELLS,
    DEFAULT_PACK,
    TEAM_NAMES,
    Arbiter,
    Created,
    Server,
    fmt,
    free_port,
    percentile,
)

try:
    from playwright.async_api import Browser, Page, async_playwright
except ImportError:  # pragma: no cover - the venv has it
    raise SystemExit("Playwright for Python is needed (the project's dev dependencies)") from None

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
TIMEOUT_MS = 15_000

WATCH = """([role]) => {
  const root = document.getElementById("quiz");
  const lamp = { team: null, at: null, seen: false };
  window.__lamp = lamp;
  const shows = (card) =>
    role === "projector"
      ? ["pressed", "answering"].includes(card.dataset.lamp)
      : card.classList.contains("pressed") || card.classList.contains("answering");
  const check = () => {
    if (lamp.team === null || lamp.seen) return;
    for (const card of root.querySelectorAll(".q-teams .q-team")) {
      const title = card.querySelector(".q-team-title");
      if (title && title.textContent === lamp.team && shows(card)) {
        // On the screen: the next animation frame runs just before the browser paints the change.
        lamp.seen = true;
        requestAnimationFrame(() => (lamp.at = Date.now()));
        return;
      }
    }
  };
  new MutationObserver(check).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
}"""

ARM = "(team) => Object.assign(window.__lamp, { team, at: null, seen: false, frame: null })"

FRAMES = """() => {
  // When the room's frame with the press's lock-out arrives on this page (before the page's own handler runs).
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (message) => {
        const lamp = window.__lamp;
        if (lamp && lamp.team !== null && lamp.frame === null && message.data.includes('"buzzed"')) {
          lamp.frame = Date.now();
        }
      });
    }
  };
}"""

PRESS = """() => {
  const at = Date.now();
  document.querySelector("#buzz").dispatchEvent(
    new PointerEvent("pointerdown", { bubbles: true, cancelable: true, pointerType: "touch" }));
  return at;
}"""


@dataclass
class Figures:
    host_ms: list[float] = field(default_factory=list)
    projector_ms: list[float] = field(default_factory=list)
    host_frame_ms: list[float] = field(default_factory=list)
    """Press → the frame with the lock-out arrives on the console (the rest of host_ms is the page's rendering)."""
    projector_frame_ms: list[float] = field(default_factory=list)


class CheckoutServer(Server):
    """``toreshi serve`` run from another checkout's ``src`` (``--before``)."""

    def __init__(self, data_dir: Path, checkout: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / "server.log"
        self.profiling = False
        command = [sys.executable, "-m", "toreshi", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--data-dir", str(data_dir)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(checkout / "src")}
        for name in ("TORESHI_DB", "TORESHI_BUS", "TORESHI_DB_SCHEMA", "TORESHI_BUS_PREFIX"):
            env.pop(name, None)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=checkout)


class Game:
    """One game's screens in the browser."""

    def __init__(self, label: str, server: Server) -> None:
        self.label = label
        self.server = server
        self.host: Page
        self.projector: Page
        self.phones: list[Page] = []
        self.cell = 0
        self.expired = 0
        """Answers the host could not rule before the answer time ran out (the room ruled them)."""
        self.figures = Figures()

    async def open(self, browser: Browser, pack: Path) -> None:
        await self.server.wait_ready()
        arbiter = Arbiter(self.server.url)
        try:
            await arbiter.sign_in()
            created: Created = await arbiter.create(pack, 4, "arrival", 1)
        finally:
            await arbiter.close()
        url = self.server.url
        room = created.room_id
        self.host = await page(browser, viewport={"width": 1280, "height": 860})
        await self.host.goto(f"{url}/quiz/{room}/host?lang=en&token={created.host}")
        self.projector = await page(browser, viewport={"width": 1920, "height": 1080})
        await self.projector.goto(f"{url}/quiz/{room}/board?lang=en&token={created.projector}")
        for secret in created.secrets:
            phone = await page(browser, **PHONE)
            await phone.goto(f"{url}/j/{room.removeprefix('q-').upper()}-{secret}")
            self.phones.append(phone)
        for screen in (self.host, self.projector, *self.phones):
            await screen.wait_for_selector('.q-connection[data-status="online"]', timeout=TIMEOUT_MS)
        await self.host.evaluate(WATCH, ["host"])
        await self.projector.evaluate(WATCH, ["projector"])
        # The draw: the first team chooses first.
        card = self.host.locator(".q-teams .q-team").filter(has_text=TEAM_NAMES[0])
        await card.locator("button").first.click()
        await self.choose()

    async def choose(self) -> None:
        theme, value = CELLS[self.cell]
        self.cell += 1
        await self.host.locator(f'.q-grid button.q-cell[data-key="{theme}:{value}"]').click(timeout=TIMEOUT_MS)

    async def question(self) -> None:
        """Four presses, one per team in turn: wrong, wrong, wrong, right; then the next question."""
        for turn in range(4):
            seat = (self.cell + turn) % 4
            team = TEAM_NAMES[seat]
            phone = self.phones[seat]
            await phone.wait_for_selector("#quiz.state-open", timeout=TIMEOUT_MS)
            await self.host.evaluate(ARM, team)
            await self.projector.evaluate(ARM, team)
            pressed = await phone.evaluate(PRESS)
            shown: list[float] = []
            frame: list[float] = []
            for screen in (self.host, self.projector):
                handle = await screen.wait_for_function("window.__lamp.at", timeout=TIMEOUT_MS, polling=20)
                shown.append(float(await handle.json_value()))
                frame.append(float(await screen.evaluate("window.__lamp.frame || NaN")))
            self.figures.host_ms.append(shown[0] - pressed)
            self.figures.projector_ms.append(shown[1] - pressed)
            self.figures.host_frame_ms.append(frame[0] - pressed)
            self.figures.projector_frame_ms.append(frame[1] - pressed)
            # The host rules once "right" is offered, unless the answer time ran out first (a loaded machine).
            ruling = await self.host.wait_for_function(
                "() => document.querySelector('.q-actions button.primary') ? 'rule' :"
                " ![...document.querySelectorAll('.q-teams .q-team')].some((card) =>"
                " card.classList.contains('answering')) ? 'expired' : null",
                timeout=TIMEOUT_MS,
                polling=20,
            )
            if await ruling.json_value() == "rule":
                await self.host.locator("body").press("Enter" if turn == 3 else "-")
            else:
                self.expired += 1
            await self.host.wait_for_function(
                "(team) => ![...document.querySelectorAll('.q-teams .q-team')].some("
                "(card) => card.classList.contains('answering'))",
                arg=team,
                timeout=TIMEOUT_MS,
            )
        await self.host.wait_for_selector(".q-grid button.q-cell", timeout=TIMEOUT_MS)
        await self.choose()


async def page(browser: Browser, **options: object) -> Page:
    context = await browser.new_context(bypass_csp=True, **options)  # type: ignore[arg-type]
    await context.add_init_script(script=f"({FRAMES})()")
    opened = await context.new_page()
    opened.set_default_timeout(TIMEOUT_MS)
    return opened


def report(label: str, figures: Figures) -> str:
    host, projector = figures.host_ms, figures.projector_ms
    host_render = [a - b for a, b in zip(host, figures.host_frame_ms, strict=True)]
    projector_render = [a - b for a, b in zip(projector, figures.projector_frame_ms, strict=True)]
    return (
        f"{label}: presses={len(host)} host_p50_ms={fmt(statistics.median(host))} "
        f"host_p99_ms={fmt(percentile(host, 0.99))} "
        f"projector_p50_ms={fmt(statistics.median(projector))} projector_p99_ms={fmt(percentile(projector, 0.99))} "
        f"host/projector_p50={fmt(statistics.median(host) / max(0.1, statistics.median(projector)), 2)}\n"
        f"{label}: frame arrives: host_p50_ms={fmt(statistics.median(figures.host_frame_ms))} "
        f"projector_p50_ms={fmt(statistics.median(figures.projector_frame_ms))}; frame → shown: "
        f"host_p50_ms={fmt(statistics.median(host_render))} projector_p50_ms={fmt(statistics.median(projector_render))}"
    )


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def main(args: argparse.Namespace) -> None:
    questions = -(-args.presses // 4)
    if questions > len(CELLS):
        raise SystemExit(f"at most {len(CELLS) * 4} presses (one game's questions)")
    with tempfile.TemporaryDirectory(prefix="toreshi-lamps-") as folder:
        servers: list[Server] = []
        games: list[Game] = []
        try:
            mkdir(Path(folder) / "after")
            after = Server(Path(folder) / "after", cpu=None, name="after")
            servers.append(after)
            games.append(Game("this checkout", after))
            if args.before:
                mkdir(Path(folder) / "before")
                before = CheckoutServer(Path(folder) / "before", Path(args.before).resolve())
                servers.append(before)
                games.insert(0, Game(f"before ({args.before})", before))
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    for game in games:
                        await game.open(browser, args.pack)
                    print(f"load average at start: {load()}", flush=True)
                    started = time.monotonic()
                    for _ in range(questions):
                        for game in games:
                            await game.question()
                    print(f"{questions * 4} presses per game in {time.monotonic() - started:.1f} s", flush=True)
                finally:
                    await browser.close()
            for game in games:
                print(report(game.label, game.figures), flush=True)
                print(f"{game.label}: answer_time_expired={game.expired}", flush=True)
            if len(games) == 2:
                before_host = statistics.median(games[0].figures.host_ms)
                after_host = statistics.median(games[1].figures.host_ms)
                print(f"ratio host_p50 after/before={fmt(after_host / max(0.1, before_host), 2)}")
            print(f"load average at end: {load()} (uptime: {uptime()})", flush=True)
        finally:
            for server in servers:
                server.stop()


def mkdir(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)


def uptime() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    return "n/a"


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=60, help="presses per game (4 per question)")
    parser.add_argument("--pack", type=Path, default=DEFAULT_PACK)
    parser.add_argument("--before", help="another checkout to serve the same game from, in the same run")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(arguments()))
