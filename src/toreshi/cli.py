"""The ``toreshi`` command: one Typer app, each domain's commands in :mod:`toreshi.commands`."""

from __future__ import annotations

import typer

from toreshi.commands import db, quiz, serve, togyz, tournament

app = typer.Typer(
    name="toreshi",
    help="toreshi (төреші, «arbiter»): club competitions run by their written regulations.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(togyz.app, name="togyz")
app.add_typer(tournament.app, name="tournament")
app.add_typer(quiz.app, name="quiz")
app.add_typer(db.app, name="db")
app.command("serve")(serve.serve)


def main() -> None:
    app()
