"""``toreshi publish EVENT DIR``: the public results site of a tournament (or of a team tournament:
:func:`toreshi.web.teams.results.site_files`, or of a quiz tour) written to a folder, for any web host.

The same files the app serves at ``/results/EVENT/`` (:func:`toreshi.web.tournaments.results.site_files`): an index
that sends the reader to the Kazakh pages, and per language (``kk/``, ``ru/``, ``en/``) the tournament, the
standings, the crosstable, each round and each game; the TRF and every game's PGN beside them. Every link is
relative: the folder opens from the disk as well as from a server. The database is only read.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from toreshi.commands import GROUPS
from toreshi.commands.checks import check_writable_folder
from toreshi.commands.db import DataDirOption, DbOption, SchemaOption, _url
from toreshi.commands.errors import CommandError
from toreshi.commands.speech import said
from toreshi.store.engine import parse_url, sqlite_path
from toreshi.texts.i18n import N_

app = typer.Typer(help=GROUPS["publish"][1], add_completion=False)


async def _site(url: str, schema: str | None, event: str, site_url: str | None) -> dict[str, bytes]:
    from toreshi.services.quiz_tours import UnknownTourError, read_tour
    from toreshi.services.results import NotATournamentError, game_states, team_state, tournament_state
    from toreshi.store import open_store
    from toreshi.web.quiztours import results as tour_results
    from toreshi.web.teams import results as team_results
    from toreshi.web.tournaments.results import site_files

    async with open_store(url, schema=schema, migrate=False) as store:
        try:
            state = await tournament_state(store, event)
        except NotATournamentError:
            try:  # a team tournament
                return team_results.site_files(await team_state(store, event), event, url=site_url)
            except NotATournamentError:
                pass
            try:  # a quiz tour
                return tour_results.site_files(await read_tour(store, event), url=site_url)
            except UnknownTourError:
                raise CommandError(said(N_("No tournament %(id)s in this database."), id=event)) from None
        return site_files(state, event, await game_states(store, state), url=site_url)


@app.command()
def publish(
    event: Annotated[str, typer.Argument(help="The tournament's id (as in its address /tournaments/ID).")],
    folder: Annotated[Path, typer.Argument(help="The folder to write the site to (made if missing).", file_okay=False)],
    db: DbOption = None,
    data_dir: DataDirOption = Path("data"),
    schema: SchemaOption = None,
    url: Annotated[
        str | None, typer.Option("--url", help="Where the site will be read: its QR code is printed on the pages.")
    ] = None,
) -> None:
    """Write the public results site of tournament EVENT (kk, ru, en) to FOLDER."""
    database = _url(db, data_dir)
    parsed = parse_url(database)
    if parsed.get_backend_name() == "sqlite" and not sqlite_path(parsed).is_file():
        # Only read: a missing file is not made into an empty database.
        raise CommandError(said(N_("No database at %(path)s."), path=str(sqlite_path(parsed))))
    check_writable_folder(folder, "the site's folder")
    files = asyncio.run(_site(database, schema, event, url))
    for name, data in sorted(files.items()):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    typer.echo(f"{len(files)} files written to {folder} (open {folder / 'index.html'})")
