"""The ``toreshi`` command: one Typer app, each domain's commands in :mod:`toreshi.commands`.

Two things happen here for every command:

* **lazy loading** — a command's module is imported only when that command runs (or its own ``--help`` is asked
  for); ``toreshi --help`` lists the commands from :data:`toreshi.commands.GROUPS` without importing any. So
  ``toreshi togyz perft 1`` never imports the store, Alembic, SQLAlchemy or the web app (issue 27);
* **one error handler** — an error a wrong input causes (a missing, binary or corrupt file, a read-only folder, an
  unusable database) ends the command with ``error: …`` on one line and exit status 1, never a traceback;
  an error toreshi did not expect says so on one line and exits 70 (``TORESHI_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import errno
import importlib
import os
from typing import Annotated, Any

import typer
from typer._click import Context  # Typer's own copy of click: the type its groups are called with
from typer.core import TyperCommand, TyperGroup

import toreshi
from toreshi.commands import GROUPS
from toreshi.commands.errors import EXIT_SOFTWARE, clip, explain


class _Listed(TyperCommand):
    """A command as ``toreshi --help`` lists it, before its module is imported."""


class LazyGroup(TyperGroup):
    """The top-level group: subcommands imported on use, errors turned into one line."""

    def __init__(self, **attributes: Any) -> None:
        super().__init__(**attributes)
        for name, (_, summary) in GROUPS.items():
            self.commands.setdefault(name, _Listed(name=name, help=summary, short_help=summary))

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if isinstance(command, _Listed) and name is not None:
            command = self.commands[name] = _load(name)
        return name, command, rest

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except typer.BadParameter as error:
            error.message = clip(error.message, 200)  # a file's content quoted whole would flood the terminal
            raise
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise
        except Exception as error:
            if os.environ.get("TORESHI_DEBUG") or (isinstance(error, OSError) and error.errno == errno.EPIPE):
                raise
            explained = explain(error)
            if explained is None:
                message = f"unexpected {type(error).__name__}: {clip(str(error))} (TORESHI_DEBUG=1 shows where)"
                code = EXIT_SOFTWARE
            else:
                message, code = explained
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(code) from None


def _load(name: str) -> Any:
    """The click command of ``toreshi NAME``, built from the Typer ``app`` of its module."""
    module = importlib.import_module(GROUPS[name][0])
    command = typer.main.get_command(module.app)
    command.name = name
    return command


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"toreshi {toreshi.__version__}")
        raise typer.Exit()


app = typer.Typer(
    name="toreshi",
    help="toreshi (төреші, «arbiter»): club competitions run by their written regulations.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
)


@app.callback()
def _toreshi(
    version: Annotated[
        bool,
        typer.Option("--version", help="Print toreshi's version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """toreshi (төреші, «arbiter»): club competitions run by their written regulations."""


def main() -> None:
    app()
