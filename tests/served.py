"""A real ``toreshi serve`` in a subprocess on a free loopback port with its own data folder, as a club runs it:
for the browser tests and the tests that need a real server's sockets (floods)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, data_dir: Path, *options: str) -> None:
        """``options``: more ``toreshi serve`` options (``--header-timeout 0.5``…)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (data_dir / "server.log").open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "toreshi", "serve", "--port", str(self.port), "--data-dir", str(data_dir), *options],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"toreshi serve did not start: see {data_dir / 'server.log'}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
