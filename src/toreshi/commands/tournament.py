"""``toreshi tournament …``: Swiss pairings from a TRF, Berger round-robin tables, standings, and the pairing tools
(check, generate, review, prohibit, baku: :mod:`toreshi.commands.pairing_tools`), and the drawing of lots again from
its published seed (:mod:`toreshi.commands.lots`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toreshi.commands import GROUPS, pairing_tools
from toreshi.commands.lots import lots
from toreshi.commands.standings import standings
from toreshi.tournament.berger import BergerError, berger_table
from toreshi.tournament.dutch import NoValidPairingError, PairingInputError, pair_trf
from toreshi.tournament.trf import TrfError

app = typer.Typer(help=GROUPS["tournament"][1], no_args_is_help=True, add_completion=False)
app.command("standings")(standings)
app.command("lots")(lots)
pairing_tools.register(app)


@app.command()
def pair(
    file: Annotated[Path, typer.Argument(help="A TRF16 / TRF-2026 file with the earlier rounds.", dir_okay=False)],
    round_number: Annotated[int, typer.Option("--round", "-r", min=1, help="The round to pair.")],
) -> None:
    """Pair round N by the FIDE Dutch system (2025 rules), printed as bbpPairings does.

    Uses the results of rounds 1..N-1 and the round-N entries H, F and Z (those players are not paired). The
    first line is the number of pairs P, then P lines "WHITE BLACK" (pairing numbers); the pairing-allocated bye
    is printed as "NUMBER 0". Exit status 1 when no pairing satisfies the absolute criteria.
    """
    trf = pairing_tools.read_trf(file)
    try:
        pairing = pair_trf(trf, round_number)
    except (TrfError, PairingInputError) as error:
        raise typer.BadParameter(str(error), param_hint="FILE") from None
    except NoValidPairingError as error:
        typer.echo(f"No valid pairing for round {round_number}: {error}", err=True)
        raise typer.Exit(1) from None
    for line in pairing.bbp_lines():
        typer.echo(line)


@app.command()
def berger(
    players: Annotated[int, typer.Argument(min=2, help="Number of players (odd: one sits out each round).")],
    double: Annotated[bool, typer.Option("--double", help="Double round robin, second cycle reversed.")] = False,
) -> None:
    """Print the FIDE Berger table: one line per round, boards as WHITE-BLACK, a bye as N-bye."""
    try:
        table = berger_table(players, double=double)
    except BergerError as error:
        raise typer.BadParameter(str(error), param_hint="PLAYERS") from None
    width = len(str(len(table)))
    for number, boards in enumerate(table, start=1):
        typer.echo(f"Round {number:>{width}}: " + "  ".join(str(b) for b in boards))
