"""``toreshi tournament lots SEED FILE.trf``: the drawing of lots of a tournament, drawn again from its published seed.

The entries are read from the TRF's ``001`` lines (name, rating, title); a round robin (the TRF's type says so, or
``--round-robin``) draws every Berger number, a Swiss orders only the players of equal rating and title
(:mod:`toreshi.tournament.lots`). Printed: the seed, the top seed's colour in round 1 (as the TRF writes it), then
one line per new pairing number, so that the printout can be compared with the tournament's list line by line.

``toreshi quiz lots SEED TEAM...``: the order of choice at the start of a «Своя игра» game (SI-3.2), drawn again from
the seed its screens showed before the draw (:mod:`toreshi.quiz.lots`; both draws are :mod:`toreshi.kit.lots`).
Printed: the seed, then one line per place in the order, the first chooser first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from toreshi.commands.errors import CommandError
from toreshi.commands.pairing_tools import read_trf
from toreshi.commands.speech import say
from toreshi.kit.refusal import Refusal
from toreshi.quiz.lots import choice_order
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.lots import MAX_SEED_LENGTH, METHOD, Entrant, LotsError, check_seed, draw_order, initial_colour
from toreshi.tournament.model import Colour
from toreshi.tournament.standings import is_round_robin_trf


def lots(
    seed: Annotated[str, typer.Argument(help="The seed published on the tournament's page.")],
    file: Annotated[Path, typer.Argument(help="The tournament's TRF (its 001 lines are the entries).", dir_okay=False)],
    round_robin: Annotated[
        bool | None,
        typer.Option(
            "--round-robin/--swiss",
            help="Draw every number (round robin) or only among equal ratings (Swiss); default: the TRF's type.",
        ),
    ] = None,
) -> None:
    """Draw the lots of a tournament again from its seed: the first-round colour and the pairing numbers."""
    try:
        seed = check_seed(seed)
    except LotsError:
        raise CommandError(say(Refusal(TournamentCode.LOTS_BAD_SEED, {"maximum": MAX_SEED_LENGTH}))) from None
    trf = read_trf(file)
    if len(trf.players) < 2:
        raise CommandError(say(Refusal(TournamentCode.LOTS_TOO_FEW, {})))
    robin = is_round_robin_trf(trf) if round_robin is None else round_robin
    entrants = [Entrant(p.name, p.rating, p.title) for p in trf.players]
    colour = initial_colour(seed)
    typer.echo(f"seed: {seed} ({METHOD}, {'round robin' if robin else 'Swiss'})")
    typer.echo(f"XXC {'white1' if colour is Colour.WHITE else 'black1'}")
    width = len(str(len(entrants)))
    for number, entrant in enumerate(draw_order(seed, entrants, round_robin=robin), start=1):
        rating = f" ({entrant.rating})" if entrant.rating else ""
        typer.echo(f"{number:>{width}}. {entrant.name}{rating}")


def quiz_lots(
    seed: Annotated[str, typer.Argument(help="The seed the game's screens showed before the draw.")],
    teams: Annotated[list[str], typer.Argument(help="The game's teams, in any order.")],
) -> None:
    """Draw the order of choice of a quiz game again from its seed: the first team chooses first (SI-3.2)."""
    try:
        seed = check_seed(seed)
    except LotsError:
        raise CommandError(say(Refusal(TournamentCode.LOTS_BAD_SEED, {"maximum": MAX_SEED_LENGTH}))) from None
    if len(teams) < 2:
        raise CommandError(say(Refusal(TournamentCode.LOTS_TOO_FEW, {})))
    typer.echo(f"seed: {seed} ({METHOD}, order of choice)")
    for number, team in enumerate(choice_order(seed, teams), start=1):
        typer.echo(f"{number}. {team}")
