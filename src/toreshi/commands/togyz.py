"""``toreshi togyz …``: perft, record replay (the arbiter's score-sheet checker) and board display."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from toreshi.togyz import Position
from toreshi.togyz import perft as count_leaves
from toreshi.togyz.diagram import diagram
from toreshi.togyz.fen import InvalidFenError, from_fen, to_fen
from toreshi.togyz.pgn import read_games
from toreshi.togyz.replay import replay as replay_game

app = typer.Typer(help="Togyz kumalak rules: perft, record replay, board display.", no_args_is_help=True)


def _position(fen: str | None) -> Position:
    if fen is None:
        return Position()
    try:
        return from_fen(fen)
    except InvalidFenError as error:
        raise typer.BadParameter(str(error), param_hint="--fen") from None


@app.command()
def perft(
    depth: Annotated[int, typer.Argument(min=0, help="Plies to enumerate.")],
    fen: Annotated[str | None, typer.Option(help="Start from this PlayStrategy FEN.")] = None,
) -> None:
    """Count leaf positions at DEPTH (a finished position is one leaf); the count is the last line."""
    typer.echo(count_leaves(_position(fen), depth))


@app.command()
def show(fen: Annotated[str, typer.Argument(help="A PlayStrategy FEN, quoted.")]) -> None:
    """Draw the board of a FEN in the terminal."""
    position = _position(fen)
    console = Console()
    console.print(diagram(position), highlight=False)
    outcome = position.outcome()
    if outcome is not None:
        console.print(
            f"Game over: {outcome.result()} ({outcome.termination.value}), score {outcome.score[0]}:{outcome.score[1]}"
        )


@app.command()
def replay(
    files: Annotated[list[Path], typer.Argument(help="PlayOK PGN files.", exists=True, dir_okay=False)],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per game per line.")] = False,
) -> None:
    """Replay records and check every landing digit, X mark and (n) total; exit 1 if any game is invalid."""
    console = Console()
    errors = Console(stderr=True)
    index = 0
    invalid = 0
    unreadable = 0
    table = Table("game", "file", "White", "Black", "plies", "score", "result", "check")
    for path in files:
        try:
            handle = path.open(encoding="utf-8", errors="strict", newline="")
            with handle:
                for game in read_games(handle):
                    report = replay_game(game)
                    invalid += not report.ok
                    if as_json:
                        record = {
                            "game": index,
                            "ok": report.ok,
                            "error": None if report.ok else str(report.error),
                            "plies": report.plies,
                            "fen": to_fen(report.position),
                            "score": list(report.score),
                            "result": report.result,
                        }
                        typer.echo(json.dumps(record, ensure_ascii=False))
                    else:
                        table.add_row(
                            str(index),
                            path.name,
                            game.headers.get("White", "?"),
                            game.headers.get("Black", "?"),
                            str(report.plies),
                            f"{report.score[0]}:{report.score[1]}",
                            report.result or f"({game.result or '*'})",
                            "[green]ok[/]" if report.ok else f"[red]{report.error}[/]",
                        )
                    index += 1
        except UnicodeDecodeError as error:
            errors.print(f"[red]{path}: not UTF-8 text ({error.reason} at byte {error.start})[/]", soft_wrap=True)
            unreadable += 1
    if not as_json:
        console.print(table)
        console.print(f"{index} games, {index - invalid} valid, {invalid} invalid")
    raise typer.Exit(1 if invalid or unreadable else 0)
