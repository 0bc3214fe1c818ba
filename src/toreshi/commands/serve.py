"""``toreshi serve``: the web app on uvicorn, with the embedded defaults (SQLite, in-process bus)."""

from __future__ import annotations

import contextlib
import io
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import segno
import typer
from rich.console import Console

from toreshi.commands import GROUPS
from toreshi.commands.checks import check_sqlite_file, check_writable_folder
from toreshi.commands.errors import CommandError


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent: a UDP socket is only pointed outwards)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def terminal_qr(url: str) -> str:
    buffer = io.StringIO()
    segno.make(url, error="m").terminal(out=buffer, compact=True)
    return buffer.getvalue()


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 for the club network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    data_dir: Annotated[Path, typer.Option("--data-dir", help="Folder for the SQLite database and keys.")] = Path(
        "data"
    ),
    db: Annotated[
        str | None, typer.Option("--db", envvar="TORESHI_DB", help="Database URL (default: SQLite in --data-dir).")
    ] = None,
    db_schema: Annotated[
        str | None,
        typer.Option("--db-schema", envvar="TORESHI_DB_SCHEMA", help="PostgreSQL schema for the tables (must exist)."),
    ] = None,
    bus: Annotated[
        str | None, typer.Option("--bus", envvar="TORESHI_BUS", help="redis://… to run several instances.")
    ] = None,
    bus_prefix: Annotated[
        str, typer.Option("--bus-prefix", envvar="TORESHI_BUS_PREFIX", help="Prefix of the Redis keys and channels.")
    ] = "toreshi:",
    allow_remote_setup: Annotated[
        bool, typer.Option(help="Allow the first arbiter password to be set from another machine.")
    ] = False,
    https_only: Annotated[
        bool,
        typer.Option(help="Mark cookies Secure always (they are whenever a page is served over HTTPS anyway)."),
    ] = False,
    timezone: Annotated[
        str, typer.Option("--timezone", envvar="TORESHI_TIMEZONE", help="The club's time zone for dates and times.")
    ] = "Asia/Almaty",
    trusted_proxies: Annotated[
        str,
        typer.Option(
            "--trusted-proxies",
            envvar="TORESHI_TRUSTED_PROXIES",
            help="Comma-separated addresses or networks of reverse proxies whose X-Forwarded-For/-Proto are "
            "believed (e.g. 127.0.0.1 for nginx on this machine). Default: none, the headers are ignored.",
        ),
    ] = "",
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            envvar="TORESHI_HEADER_TIMEOUT",
            help="Seconds a connection may take to send a request head; 0: no limit.",
        ),
    ] = 10.0,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            envvar="TORESHI_MAX_CONNECTIONS_PER_ADDRESS",
            help="Open connections (pages and sockets) one client address may hold; 0: no cap.",
        ),
    ] = 128,
) -> None:
    """Run the web app."""
    from toreshi.web.app import create_app
    from toreshi.web.common.connection_guard import ConnectionGuard, guarded_protocols
    from toreshi.web.common.proxies import TrustedProxies
    from toreshi.web.common.settings import Settings

    _check_options(port, timezone)
    proxies = tuple(entry.strip() for entry in trusted_proxies.split(",") if entry.strip())
    try:
        trusted = TrustedProxies.parse(proxies)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--trusted-proxies") from error
    _check_before_start(data_dir, db, db_schema)
    settings = Settings(
        data_dir=data_dir,
        db_url=db,
        db_schema=db_schema,
        bus_url=bus,
        bus_prefix=bus_prefix,
        allow_remote_setup=allow_remote_setup,
        timezone=timezone,
        https_only=https_only,
        trusted_proxies=proxies,
        header_timeout=header_timeout or None,
        max_connections_per_address=max_connections_per_address or None,
    )
    guard = ConnectionGuard(settings.header_timeout, settings.max_connections_per_address, trusted)
    http_protocol, ws_protocol = guarded_protocols(guard)

    def announce() -> None:
        console = Console()
        local_url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        console.print(f"[bold green]toreshi[/] on [link]{local_url}[/link]  (data: {data_dir.resolve()})")
        if host in ("0.0.0.0", "::") and (address := lan_address()):
            phone_url = f"http://{address}:{port}/"
            console.print(f"Phones and other devices on this network: [bold]{phone_url}[/]")
            if os.environ.get("TERM", "dumb") != "dumb":
                console.print(terminal_qr(phone_url), highlight=False)

    # ws_max_size: a frame over 64 KiB is refused by the protocol layer (close 1009) before it is buffered whole;
    # the room socket's own limit (toreshi.web.rooms.wire.MAX_MESSAGE_BYTES) is far smaller still.
    # No permessage-deflate: room events are small and fan out to every connection, and compressing each copy
    # separately costs more CPU than the club's Wi-Fi saves (measured in benchmarks/quiz_live.py).
    # proxy_headers off: uvicorn would believe X-Forwarded-For from 127.0.0.1 (or $FORWARDED_ALLOW_IPS); the app
    # believes it only from --trusted-proxies (toreshi.web.common.proxies), under any ASGI server.
    run_announced(
        create_app(settings),
        announce,
        host=host,
        port=port,
        log_level="info",
        proxy_headers=False,
        http=http_protocol,
        ws=ws_protocol,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
    )


def _check_options(port: int, timezone: str) -> None:
    """Values that would otherwise be taken wrongly: a port over 65535 is bound modulo 65536 (and printed as given),
    an unknown time zone falls back to the default on every page."""
    if not 1 <= port <= 65535:
        raise typer.BadParameter(f"{port} is not a TCP port (1-65535)", param_hint="--port")
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise typer.BadParameter(
            f"unknown time zone {timezone!r}: give an IANA name such as Asia/Almaty", param_hint="--timezone"
        ) from None


def _check_before_start(data_dir: Path, db: str | None, db_schema: str | None) -> None:
    """What would otherwise fail inside the app's start-up with a long traceback: a data folder that cannot be
    written, a database file that is not SQLite, a database being restored. A SQLite database is then held
    (:mod:`toreshi.store.serving`) until the process ends, so that a restore is refused meanwhile."""
    from toreshi.store import StoreError, default_url
    from toreshi.store.engine import parse_url, sqlite_path
    from toreshi.store.serving import hold_for_serving, hold_postgres_for_serving

    check_writable_folder(data_dir, "the data folder")
    try:
        url = parse_url(db if db is not None else default_url(data_dir))
        if url.get_backend_name() == "sqlite":
            check_sqlite_file(sqlite_path(url))
            check_writable_folder(sqlite_path(url).parent, "the database's folder")
            hold_for_serving(sqlite_path(url))
        else:
            hold_postgres_for_serving(url, db_schema)
    except StoreError as error:
        raise CommandError(str(error)) from None


def run_announced(app: object, announce: Callable[[], None], **options: Any) -> None:
    """``uvicorn.run(app, **options)``, calling ``announce`` once the app has started and its socket is bound (so
    the address is never printed by a server that then fails to listen); exit status 3 if it never started."""
    import uvicorn

    class AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.started:
                announce()

    server = AnnouncingServer(uvicorn.Config(app, **options))  # type: ignore[arg-type]
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise typer.Exit(3)  # uvicorn's STARTUP_FAILURE; uvicorn has logged why


app = typer.Typer(add_completion=False)
app.command("serve", help=GROUPS["serve"][1])(serve)
