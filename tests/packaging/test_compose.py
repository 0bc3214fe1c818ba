"""The container set-up (Dockerfile, compose.yaml, deploy/nginx.conf, deploy/first_arbiter.py), tested as far as
the machine allows:

- always: compose.yaml parses, names files that exist and only ``toreshi serve`` options that exist, trusts exactly
  the nginx container's address, and deploy/nginx.conf routes to exactly its two instances;
- with Debian's nginx (``apt-get install nginx-light``): deploy/nginx.conf itself in front of two local instances on
  the real PostgreSQL and Redis, the first arbiter set with deploy/first_arbiter.py, and a move played through the
  proxy by a client that sends an ``Origin`` as a browser does;
- with a Docker daemon and the images: ``docker compose up --build --wait`` and the same move through the stack.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
import websockets
import yaml

from toreshi.commands.serve import serve

from ..cluster.conftest import Services, services
from ..cluster.servers import RoomClient, Server, create_game, free_port, prepare_data_dir, running, sign_in

__all__ = ["services"]  # the cluster tests' fixture: a private PostgreSQL schema and Redis prefix

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
FIRST_ARBITER = ROOT / "deploy" / "first_arbiter.py"
ARBITER = ("Арбитр", "compose-test-password")
IMAGES_TIMEOUT_S = 900


def compose_file() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def instances(compose: dict[str, Any]) -> dict[str, dict[str, str]]:
    """The toreshi services and their ``serve`` options (written ``--name=value``)."""
    found = {}
    for name, service in compose["services"].items():
        command = service.get("command") or []
        if command[:1] == ["serve"]:
            options = [part.split("=", 1) for part in command[1:]]
            assert all(len(option) == 2 for option in options), command  # one form only: easy to read and check
            found[name] = dict(options)
    return found


def serve_options() -> set[str]:
    """The options ``toreshi serve`` has, read from the command itself."""
    single = typer.Typer()
    single.command()(serve)
    command = typer.main.get_command(single)
    return {option for param in command.params for option in getattr(param, "opts", []) if option.startswith("--")}


def nginx_upstreams() -> dict[str, set[str]]:
    text = NGINX_CONF.read_text()
    blocks = re.findall(r"upstream (\w+) \{(.*?)\}", text, re.S)
    return {name: set(re.findall(r"^\s*server (\S+)", body, re.M)) for name, body in blocks}


def test_the_compose_file_names_existing_files_and_existing_serve_options() -> None:
    compose = compose_file()
    assert set(compose["services"]) == {"postgres", "redis", "toreshi-a", "toreshi-b", "nginx"}
    for name, service in compose["services"].items():
        if "build" in service:
            assert (ROOT / service["build"] / "Dockerfile").is_file(), name
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith("."):
                assert (ROOT / source).is_file(), (name, source)
    toreshis = instances(compose)
    assert set(toreshis) == {"toreshi-a", "toreshi-b"}
    known = serve_options()
    nginx = compose["services"]["nginx"]["networks"]["toreshi"]["ipv4_address"]
    (subnet,) = (ipaddress.ip_network(entry["subnet"]) for entry in compose["networks"]["toreshi"]["ipam"]["config"])
    assert ipaddress.ip_address(nginx) in subnet
    for name, options in toreshis.items():
        assert set(options) <= known, (name, set(options) - known)
        assert options["--host"] == "0.0.0.0"
        assert options["--db"].startswith("postgresql+asyncpg://") and "@postgres:" in options["--db"]
        assert options["--bus"].startswith("redis://redis:")
        assert options["--trusted-proxies"] == nginx  # nginx's forwarded client addresses believed, no one else's
    routed = {f"{name}:{options['--port']}" for name, options in toreshis.items()}
    assert nginx_upstreams() == {"toreshi": routed, "toreshi_rooms": routed}


def test_the_image_runs_toreshi_serve_on_all_interfaces_as_a_user_without_privileges() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    final_stage = dockerfile.rsplit("\nFROM ", 1)[1]
    users = re.findall(r"^USER (\S+)", final_stage, re.M)
    assert users and users[-1] not in ("root", "0")
    assert '"toreshi"' in re.search(r"^ENTRYPOINT (.*)$", final_stage, re.M).group(1)  # type: ignore[union-attr]
    assert re.search(r'^CMD \["serve", "--host", "0.0.0.0"', final_stage, re.M)
    assert "gcc" in dockerfile.split("\nFROM ", 2)[1]  # the build stage has the compiler for the C search


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def local_config(port: int, upstreams: dict[str, str], prefix: Path) -> str:
    """deploy/nginx.conf with the containers' names replaced by local instances and a free loopback port."""
    config = NGINX_CONF.read_text()
    for service, address in upstreams.items():
        config = config.replace(f"server {service}:8000 ", f"server {address} ")
    assert "toreshi-" not in config.replace("toreshi-a and toreshi-b", "")
    config = config.replace("listen 80;", f"listen 127.0.0.1:{port};")
    return (
        f"pid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n    client_body_temp_path {prefix};\n    proxy_temp_path {prefix};\n"
        f"{config}\n}}\n"
    )


def set_first_arbiter(command: list[str], script: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run deploy/first_arbiter.py as docs/deploy.md says, the password in the environment (``script``: fed on
    stdin, as to ``python -`` in the container)."""
    env = {**os.environ, "TORESHI_PASSWORD": ARBITER[1]}
    stdin = script.read_text() if script else None
    return subprocess.run(command, input=stdin, capture_output=True, text=True, env=env, timeout=60)


async def wait_answering(base: str, timeout: float = 30) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=5) as http, asyncio.timeout(timeout):
        while True:
            try:
                if (await http.get("/api/session")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)


async def play_a_move_through(base: str) -> None:
    """Sign in, make a game, and play its first move over sockets, all through ``base`` (the proxy), with the
    ``Origin`` a browser on that site sends."""
    ws_base = "ws" + base.removeprefix("http")
    async with httpx.AsyncClient(base_url=base, timeout=15, headers={"Origin": base}) as http:
        csrf = await sign_in(http, *ARBITER)
        game = await create_game(http, csrf, "Абай", "Болат")
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    clients: list[RoomClient] = []
    try:
        for headers, token in (({"Cookie": cookie}, None), ({}, game["tokens"]["white"])):
            connection = await websockets.connect(
                f"{ws_base}/ws/rooms/{game['id']}", origin=websockets.Origin(base), additional_headers=headers
            )
            client = RoomClient(connection, game["id"], token)
            await client._hello()
            client.reader = asyncio.create_task(client._read())
            clients.append(client)
        arbiter, white = clients
        assert (await arbiter.command("start"))["t"] == "ack"
        await white.wait_for(lambda c: bool(c.state.get("legal")))
        await arbiter.wait_for(lambda c: c.version == white.version)
        before = arbiter.version
        assert (await white.command("move", {"hole": white.state["legal"][0]}))["t"] == "ack"
        await arbiter.wait_for(lambda c: c.version > before)  # the other socket sees the move
    finally:
        for client in clients:
            await client.close()


@pytest.mark.anyio
async def test_deploy_nginx_conf_in_front_of_two_instances_plays_a_move(services: Services, tmp_path: Path) -> None:
    nginx = nginx_binary()
    if nginx is None:
        pytest.skip("nginx is not installed (apt-get install nginx-light)")
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    args = [*services.server_args(data_dir), "--trusted-proxies", "127.0.0.1"]
    servers = [Server(name, free_port(), args, tmp_path / f"{name}.log") for name in "ab"]
    port = free_port()
    async with running(servers) as (a, b):
        conf = tmp_path / "nginx.conf"
        conf.write_text(
            local_config(port, {"toreshi-a": f"127.0.0.1:{a.port}", "toreshi-b": f"127.0.0.1:{b.port}"}, tmp_path)
        )
        checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"])
        try:
            base = f"http://127.0.0.1:{port}"
            await wait_answering(base)
            # Through the proxy, /setup is not "this machine": the script is run on an instance's own loopback.
            first = set_first_arbiter([sys.executable, str(FIRST_ARBITER), ARBITER[0], a.url])
            assert first.returncode == 0, first.stderr
            again = set_first_arbiter([sys.executable, str(FIRST_ARBITER), ARBITER[0], a.url])
            assert again.returncode == 1 and "already" in again.stderr
            await play_a_move_through(base)
        finally:
            process.terminate()
            process.wait(10)


def docker_problem() -> str | None:
    """Why the compose stack cannot start here, or None."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    info = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=30)
    if info.returncode != 0:
        return "no Docker daemon answers (docker info: " + (info.stderr.strip().splitlines() or ["?"])[-1] + ")"
    if subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30).returncode != 0:
        return "the docker compose plugin is missing"
    images = {service["image"] for service in compose_file()["services"].values() if "build" not in service}
    images.add(re.search(r"^ARG PYTHON_IMAGE=(\S+)", (ROOT / "Dockerfile").read_text(), re.M).group(1))  # type: ignore[union-attr]
    missing = [
        image
        for image in sorted(images)
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True, timeout=30).returncode != 0
    ]
    if missing:
        return f"images not present (docker pull {' '.join(missing)})"
    return None


@pytest.mark.anyio
async def test_the_compose_stack_starts_and_plays_a_move_through_nginx() -> None:
    problem = docker_problem()
    if problem is not None:
        pytest.skip(f"the compose stack cannot start here: {problem}")
    project = f"toreshi-test-{uuid.uuid4().hex[:8]}"
    port = free_port()
    compose = ["docker", "compose", "-f", str(COMPOSE), "-p", project]
    env = {**os.environ, "TORESHI_HTTP_PORT": str(port)}
    try:
        up = subprocess.run(
            [*compose, "up", "-d", "--build", "--wait"],
            capture_output=True,
            text=True,
            env=env,
            timeout=IMAGES_TIMEOUT_S,
        )
        assert up.returncode == 0, up.stderr
        base = f"http://127.0.0.1:{port}"
        await wait_answering(base, 60)
        first = set_first_arbiter(
            [*compose, "exec", "-T", "-e", "TORESHI_PASSWORD", "toreshi-a", "python", "-", ARBITER[0]], FIRST_ARBITER
        )
        assert first.returncode == 0, first.stderr
        await play_a_move_through(base)
    finally:
        subprocess.run([*compose, "down", "-v"], capture_output=True, env=env, timeout=300)
