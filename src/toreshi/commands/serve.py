"""``toreshi serve``: the web app on uvicorn with the embedded defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on; 0.0.0.0 for the club network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    data_dir: Annotated[Path, typer.Option("--data-dir", help="Folder for the SQLite database.")] = Path("data"),
) -> None:
    """Run the web app."""
    import uvicorn

    from toreshi.web.app import create_app

    data_dir.mkdir(parents=True, exist_ok=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    Console().print(f"[bold green]toreshi[/] listening on [link]http://{shown}:{port}/[/link]")
    uvicorn.run(create_app(), host=host, port=port, log_level="info")
