"""The nginx configuration of docs/deploy.md, run with Debian's nginx in front of two instances (real PostgreSQL and
Redis): every socket of a room reaches one instance, and the room's lease goes there with its first command.

The configuration is read from docs/deploy.md itself; only what a test machine cannot have is changed (no TLS, a
free port, the two local instances as the upstreams), and each room socket's answer names the instance nginx chose
(``X-Upstream``, test only). Skipped where nginx is not installed (``apt-get install nginx-light``).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
import websockets

from .conftest import Services
from .servers import RoomClient, Server, create_game, free_port, prepare_data_dir, running, session_cookie, sign_in

pytestmark = pytest.mark.anyio

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def deploy_config(port: int, upstreams: list[str], prefix: Path) -> str:
    """docs/deploy.md's nginx block, made runnable here."""
    block = re.search(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.S)
    assert block is not None, "docs/deploy.md has no nginx block"
    config = block.group(1)
    servers = "".join(f"    server {address} max_fails=2 fail_timeout=5s;\n" for address in upstreams)
    config = re.sub(r"(    server 10\.0\.0\.\d+:8001 [^\n]*\n)+", servers, config)
    config = config.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    config = re.sub(r"\n    ssl_certificate[^\n]*", "", config)
    config = re.sub(r"server \{\n    listen 80;.*?\n\}\n", "", config, flags=re.S)
    config = config.replace(
        "proxy_pass http://toreshi_rooms;",
        "proxy_pass http://toreshi_rooms;\n        add_header X-Upstream $upstream_addr always;",
    )
    assert "toreshi_rooms" in config and "hash $uri consistent" in config
    return (
        f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n    client_body_temp_path {prefix};\n    proxy_temp_path {prefix};\n"
        f"{config}\n}}\n"
    )


async def test_the_deploy_config_keeps_a_rooms_sockets_on_one_instance(services: Services, tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed")
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    servers = [Server(name, free_port(), services.server_args(data_dir), tmp_path / f"{name}.log") for name in "ab"]
    port = free_port()
    async with running(servers) as (a, b):
        # The first password is set on an instance's own loopback: /setup through a proxy is never "this machine".
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{a.port}", timeout=10) as direct:
            await sign_in(direct)
        conf = tmp_path / "nginx.conf"
        conf.write_text(deploy_config(port, [f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"], tmp_path))
        checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"])
        sockets: list[RoomClient] = []
        try:
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base, timeout=10) as http:
                for _ in range(50):
                    try:
                        if (await http.get("/api/session")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.1)
                csrf = await sign_in(http)
                by_port = {str(a.port): a, str(b.port): b}
                for number in range(4):
                    game = await create_game(http, csrf, f"Абай {number}", f"Болат {number}")
                    room = game["id"]
                    reached = set()
                    for _ in range(3):  # as the arbiter's, a player's and a spectator's sockets would
                        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/rooms/{room}") as probe:
                            assert probe.response is not None
                            reached.add(probe.response.headers["X-Upstream"].rsplit(":", 1)[1])
                    assert len(reached) == 1, reached  # every socket of the room on one instance
                    home = by_port[reached.pop()]
                    ws = f"ws://127.0.0.1:{port}"
                    arbiter = await RoomClient.open(ws, room, cookie=session_cookie(http))
                    white = await RoomClient.open(ws, room, token=game["tokens"]["white"])
                    sockets += [arbiter, white]
                    assert (await arbiter.command("start"))["t"] == "ack"
                    await white.wait_for(lambda c: bool(c.state.get("legal")))
                    assert (await white.command("move", {"hole": white.state["legal"][0]}))["t"] == "ack"
                    holder = await services.lease_holder(room)
                    assert holder is not None and f"-{home.pid}-" in holder  # the lease followed the sockets
        finally:
            for client in sockets:
                await client.close()
            process.terminate()
            process.wait(10)
