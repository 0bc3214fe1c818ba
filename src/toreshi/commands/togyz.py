"""``toreshi togyz …``: perft, record replay and board display."""

from __future__ import annotations

import typer

from toreshi.togyz import Position
from toreshi.togyz import perft as count_leaves

app = typer.Typer(help="Togyz kumalak rules: perft, record replay, board display.", no_args_is_help=True)


@app.command()
def perft(depth: int = typer.Argument(..., min=0, help="Plies to enumerate.")) -> None:
    """Count leaf positions at DEPTH; the count is the last line of output."""
    typer.echo(count_leaves(Position(), depth))
