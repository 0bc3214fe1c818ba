"""``toreshi tournament standings FILE.trf``: the standings of a TRF, as a table, CSV or a printable crosstable.

Registered by the ``tournament`` command group (``app.command("standings")(standings)``); usable on its own too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable

from toreshi.commands import printing
from toreshi.commands.pairing_tools import read_trf
from toreshi.tournament import crosstable
from toreshi.tournament.model import RecordError, format_points
from toreshi.tournament.standings import Standings, standings_from_trf
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.tiebreaks import TieBreakError
from toreshi.tournament.trf import TrfError


def compute(path: Path, tiebreaks: list[str] | None, rules: TieBreakRules | None = None) -> Standings:
    """The standings of the TRF at ``path`` (the tie-breaks given, else the system's default order), by the C.07
    version given, else the one in force on the file's start date (``042``)."""
    trf = read_trf(path)
    try:
        return standings_from_trf(trf, tiebreaks or None, rules=rules)
    except (TrfError, RecordError, TieBreakError) as error:
        raise typer.BadParameter(str(error), param_hint="FILE" if not isinstance(error, TieBreakError) else
                                 "--tiebreak") from None  # fmt: skip


def standings(
    file: Annotated[Path, typer.Argument(help="A TRF16 or TRF-2026 file.", dir_okay=False)],
    tiebreak: Annotated[
        list[str] | None,
        typer.Option(
            "--tiebreak",
            "-t",
            help="A tie-break code (DE, BPTS, WIN, SB, BH, BH/C1, BH/M1, PS, KS, ARO, "
            "TPR, KUM …); repeat it for the order. Default: the system's order.",
        ),
    ] = None,
    csv: Annotated[bool, typer.Option("--csv", help="Print the crosstable as CSV.")] = False,
    html: Annotated[bool, typer.Option("--html", help="Print the crosstable as a printable HTML page.")] = False,
    rules: Annotated[
        str,
        typer.Option(
            "--rules",
            help="FIDE C.07 version: 2024 (in force from 2024-08-01), 2026 (as amended from 2026-03-01), or auto: "
            "the one in force on the file's start date (042), 2026 without one.",
        ),
    ] = "auto",
) -> None:
    """Rank the players of FILE.trf: points, then the tie-breaks in order (FIDE C.07)."""
    if csv and html:
        raise typer.BadParameter("choose one of --csv and --html")
    try:
        chosen = None if rules.strip().lower() == "auto" else TieBreakRules.parse(rules)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None
    result = compute(file, tiebreak, chosen)
    if csv or html:
        table = crosstable.crosstable(result, file.stem)
        typer.echo(crosstable.to_csv(table) if csv else printing.to_html(table, note=table.rules_note), nl=False)
        return
    console = Console(width=200)
    view = RichTable(title=file.name)
    for header in ("Rank", "No", "Name", "Points", *(str(tb) for tb in result.tiebreaks)):
        view.add_column(header, justify="left" if header == "Name" else "right")
    for row in result.rows:
        rank = "—" if row.rank is None else f"{row.rank}{'=' if row.shared else ''}"
        values = ("" if v is None else format_points(v) for v in row.values)
        view.add_row(rank, str(row.player.number), row.player.name, format_points(row.points), *values)
    console.print(view)
    typer.echo(f"Tie-breaks: {result.rules.title} ({result.rules.value})")
