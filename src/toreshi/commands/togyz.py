"""``toreshi togyz …``: perft, record replay (the arbiter's score-sheet checker), board display, engine analysis
and post-game review."""

from __future__ import annotations

import itertools
import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from toreshi.commands import GROUPS
from toreshi.commands.checks import open_text
from toreshi.commands.errors import CommandError, clip
from toreshi.togyz import Position, Side
from toreshi.togyz import perft as count_leaves
from toreshi.togyz.diagram import diagram
from toreshi.togyz.engine import Analysis, Limits, MoveReview, Review, review_game
from toreshi.togyz.engine import analyse as run_analysis
from toreshi.togyz.engine.search import MAX_DEPTH, NATIVE, decided_in
from toreshi.togyz.fen import InvalidFenError, from_fen, to_fen
from toreshi.togyz.pgn import read_games
from toreshi.togyz.replay import replay as replay_game

app = typer.Typer(help=GROUPS["togyz"][1], no_args_is_help=True, add_completion=False)


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
    files: Annotated[list[Path], typer.Argument(help="PlayOK PGN files.")],
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
        found = index
        try:
            with open_text(path) as handle:
                for game in read_games(handle):
                    report = replay_game(game)
                    invalid += not report.ok
                    if as_json:
                        record = {
                            "game": index,
                            "ok": report.ok,
                            "error": None if report.ok else clip(str(report.error), 300),
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
                            "[green]ok[/]" if report.ok else f"[red]{escape(clip(str(report.error), 200))}[/]",
                        )
                    index += 1
        except CommandError as error:
            errors.print(f"[red]error: {escape(error.message)}[/]", soft_wrap=True, highlight=False)
            unreadable += 1
        except UnicodeDecodeError as error:
            errors.print(
                f"[red]error: {escape(str(path))} is not UTF-8 text ({error.reason} at byte {error.start})[/]",
                soft_wrap=True,
                highlight=False,
            )
            unreadable += 1
        else:
            if index == found:
                errors.print(f"[red]error: {escape(str(path))}: no games found[/]", soft_wrap=True, highlight=False)
                unreadable += 1
    if not as_json and index:
        console.print(table)
        console.print(f"{index} games, {index - invalid} valid, {invalid} invalid")
    raise typer.Exit(1 if invalid or unreadable else 0)


def _limits(depth: int | None, movetime: int | None, default: Limits) -> Limits:
    if depth is not None and movetime is not None:
        raise typer.BadParameter("give --depth or --movetime, not both", param_hint="--depth/--movetime")
    if movetime is not None:
        return Limits(movetime=movetime / 1000)
    return default if depth is None else Limits(depth=depth)


ANALYSE_DEFAULT = Limits(movetime=1.0)
REVIEW_DEFAULT = Limits(depth=8 if NATIVE else 5)  # ≈0.1 s a position either way


def _score_text(score: int, decided: int | None, draw: bool) -> str:
    if draw:
        return "draw (proven)"
    if decided is not None:
        return f"{'wins' if decided > 0 else 'loses'} (certain in {abs(decided)} plies)"
    return f"{score / 100:+.2f}"


def _analysis_record(analysis: Analysis) -> dict[str, object]:
    return {
        "fen": analysis.fen,
        "best_move": analysis.best_move,
        "score": analysis.score,
        "white_score": analysis.white_score,
        "decided_in": analysis.decided_in,
        "draw": analysis.draw,
        "white_expectation": round(analysis.white_expectation, 4),
        "pv": list(analysis.pv),
        "pv_tokens": list(analysis.pv_tokens),
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "seconds": round(analysis.seconds, 4),
        "nodes_per_second": round(analysis.nodes_per_second),
        "solved": analysis.solved,
    }


DepthOption = Annotated[int | None, typer.Option(min=1, max=MAX_DEPTH, help="Search this many plies.")]
MovetimeOption = Annotated[int | None, typer.Option(min=1, help="Search this many milliseconds.")]


@app.command()
def analyse(
    fen: Annotated[str, typer.Argument(help="A PlayStrategy FEN, quoted.")],
    depth: DepthOption = None,
    movetime: MovetimeOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Best move, score (kumalaks, side to move), principal variation, depth and nodes/s (default: one second)."""
    position = _position(fen)
    if position.is_game_over():
        raise typer.BadParameter("the game is over in this position", param_hint="FEN")
    result = run_analysis(position, _limits(depth, movetime, ANALYSE_DEFAULT), clock=time.monotonic)
    if as_json:
        typer.echo(json.dumps(_analysis_record(result), ensure_ascii=False))
        return
    side = "White" if position.turn is Side.WHITE else "Black"
    typer.echo(f"best move: {result.best_move} ({result.pv_tokens[0]}) for {side}")
    typer.echo(f"score: {_score_text(result.score, result.decided_in, result.draw)} for {side}")
    typer.echo(f"White's expected score: {result.white_expectation:.0%}")
    typer.echo(f"line: {' '.join(result.pv_tokens)}")
    how = "endgame solved" if result.solved else f"depth {result.depth}"
    typer.echo(f"{how}, {result.nodes} nodes in {result.seconds:.2f} s ({result.nodes_per_second:,.0f} nodes/s)")


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="A PlayOK PGN file.")],
    game: Annotated[int, typer.Option(min=1, help="Which game of the file (1 is the first).")] = 1,
    depth: DepthOption = None,
    movetime: MovetimeOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """The evaluation after every ply and the worst moves with the better move (default: depth 8 a position with
    the C search, 5 without)."""
    try:
        with open_text(file) as handle:
            record = next(itertools.islice(read_games(handle), game - 1, None), None)
    except UnicodeDecodeError as error:
        raise CommandError(f"{file} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    if record is None:
        found = "no games" if game == 1 else f"fewer than {game} games"
        raise CommandError(f"{file} has {found}")
    checked = replay_game(record)
    if checked.error is not None and checked.error.ply is not None:
        raise CommandError(f"{file}: the record cannot be replayed: {clip(str(checked.error))}")
    result = review_game(record, _limits(depth, movetime, REVIEW_DEFAULT), clock=time.monotonic)
    if as_json:
        typer.echo(json.dumps(_review_record(record.headers, result), ensure_ascii=False))
        return
    console = Console()
    white, black = record.headers.get("White", "White"), record.headers.get("Black", "Black")
    console.print(f"{white} - {black} {record.result or '*'}: {len(result.moves)} plies", highlight=False)
    table = Table("ply", "move", "White's eval", "White's chance", "best", "cost")
    table.add_row("0", "", f"{result.white_scores[0] / 100:+.2f}", f"{result.white_expectation[0]:.0%}", "", "")
    for move in result.moves:
        score = result.white_scores[move.ply]
        table.add_row(
            str(move.ply),
            f"{'W' if move.side is Side.WHITE else 'B'} {move.token}",
            _score_text(score, decided_in(score), False) if decided_in(score) is not None else f"{score / 100:+.2f}",
            f"{result.white_expectation[move.ply]:.0%}",
            "" if move.best_move == move.hole else str(move.best_move),
            f"{move.expectation_loss:.0%}" if move.expectation_loss else "",
        )
    console.print(table)
    console.print("worst moves:", highlight=False)
    for move in result.worst:
        side = "White" if move.side is Side.WHITE else "Black"
        console.print(
            f"  ply {move.ply}, {side} {move.token}: gave away {move.expectation_loss:.0%} of the expected score"
            f" ({move.loss / 100:.1f} kumalaks); better {move.best_move}: {' '.join(move.best_line)}",
            highlight=False,
        )


def _review_record(headers: dict[str, str], result: Review) -> dict[str, object]:
    def move_record(move: MoveReview) -> dict[str, object]:
        return {
            "ply": move.ply,
            "side": move.side.name.lower(),
            "hole": move.hole,
            "token": move.token,
            "best_move": move.best_move,
            "best_line": list(move.best_line),
            "loss": move.loss,
            "expectation_loss": round(move.expectation_loss, 4),
        }

    return {
        "white": headers.get("White"),
        "black": headers.get("Black"),
        "result": headers.get("Result"),
        "start_fen": result.start_fen,
        "white_scores": list(result.white_scores),
        "white_expectation": [round(value, 4) for value in result.white_expectation],
        "moves": [move_record(move) for move in result.moves],
        "worst": [move_record(move) for move in result.worst],
    }
