"""``toreshi quiz …``: inspect and convert «Своя игра» question packs; draw a game's order of choice again (``lots``).

A pack that cannot be read is reported on one line in English: its refusal rendered by the same messages as the
pages' (:mod:`toreshi.texts.refusals`), with no language activated.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from toreshi.commands import GROUPS
from toreshi.commands.errors import CommandError
from toreshi.commands.lots import quiz_lots
from toreshi.quiz.codes import PackCode
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import Package, PackError
from toreshi.quiz.siq import write_siq

app = typer.Typer(help=GROUPS["quiz"][1], no_args_is_help=True, add_completion=False)

_MAX_FILE_BYTES = 1024 * 1024 * 1024
"""Refuse to even load a file this large (the archive limits inside are far lower)."""

app.command("lots")(quiz_lots)


def _load(path: Path) -> Package:
    """Read the pack at ``path`` or exit 1 with a one-line message (never a traceback)."""
    errors = Console(stderr=True)
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            raise PackError(PackCode.FILE_TOO_LARGE, limit=_MAX_FILE_BYTES)
        return read_pack(path.read_bytes(), name=path.stem)
    except (PackError, OSError) as error:
        message = _problem(error)
        errors.print(
            f"[red]error:[/] cannot read {escape(str(path))}: {escape(message)}", soft_wrap=True, highlight=False
        )
    except (RecursionError, MemoryError) as error:
        errors.print(
            f"[red]error:[/] cannot read {escape(str(path))}: too complex ({type(error).__name__})", highlight=False
        )
    raise typer.Exit(1)


def _problem(error: PackError | OSError) -> str:
    if isinstance(error, PackError):
        # Imported here, only for a pack that cannot be read: the command line stands below the web layer, whose
        # catalogues hold the refusal messages until they move down (a layer rule; the import is kept lazy).
        from toreshi.texts import i18n
        from toreshi.texts.refusals import text_of

        i18n.activate("en")  # the command line speaks English
        return text_of(error)
    return error.strerror or str(error)


def summary(package: Package) -> dict[str, Any]:
    """The ``inspect --json`` document: rounds, themes, questions with price, type, text and right answers."""
    return {
        "name": package.name,
        "rounds": [
            {
                "name": round_.name,
                "type": round_.type,
                "themes": [
                    {
                        "name": theme.name,
                        "questions": [
                            {
                                "price": question.price,
                                "type": question.type,
                                "question": question.question_text,
                                "answers": list(question.answers),
                            }
                            for question in theme.questions
                        ],
                    }
                    for theme in round_.themes
                ],
            }
            for round_ in package.rounds
        ],
    }


@app.command()
def inspect(
    file: Annotated[Path, typer.Argument(help="A .siq package (v3–v5), its content.xml, or db.chgk.info text.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the pack's structure as JSON.")] = False,
) -> None:
    """Show a pack's rounds, themes and questions."""
    package = _load(file)
    if as_json:
        sys.stdout.write(json.dumps(summary(package), ensure_ascii=False) + "\n")
        return
    console = Console()
    console.print(f"[bold]{escape(package.name)}[/]", highlight=False)
    details = [f"{len(package.rounds)} rounds", f"{sum(1 for _ in package.questions())} questions"]
    if package.media:
        details.append(f"{len(package.media)} media files")
    for label, value in (("author", ", ".join(package.info.authors)), ("date", package.date)):
        if value:
            details.append(f"{label}: {value}")
    console.print(escape(" · ".join(details)), highlight=False)
    for round_ in package.rounds:
        table = Table(title=escape(f"{round_.name} ({round_.type})"), title_justify="left")
        table.add_column("Theme")
        table.add_column("Price", justify="right")
        table.add_column("Type")
        table.add_column("Question", overflow="fold")
        table.add_column("Answer", overflow="fold")
        for theme in round_.themes:
            for index, question in enumerate(theme.questions):
                media = sum(1 for item in question.question_items if not item.is_text)
                text = escape(question.question_text) + (f" [dim](+{media} media)[/]" if media else "")
                table.add_row(
                    escape(theme.name) if index == 0 else "",
                    "—" if question.is_empty else str(question.price),
                    escape(question.type),
                    text,
                    escape(" / ".join(question.answers)),
                )
        console.print(table)


@app.command()
def convert(
    source: Annotated[Path, typer.Argument(help="A .siq (any version), content.xml, or db.chgk.info text.")],
    target: Annotated[Path, typer.Argument(help="The .siq (version 5) to write.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite TARGET if it exists.")] = False,
) -> None:
    """Convert a pack to a SIQ version 5 package; an existing TARGET is replaced only with --force, never SOURCE."""
    if _same_file(source, target):
        raise CommandError(f"{target} is the pack being converted: write the converted pack to another file")
    if target.is_dir():
        raise CommandError(f"{target} is a folder: name the .siq file to write")
    if target.exists() and not force:
        raise CommandError(f"{target} already exists; pass --force to overwrite it")
    package = _load(source)
    try:
        data = write_siq(package)
        target.write_bytes(data)
    except (PackError, OSError) as error:
        Console(stderr=True).print(f"[red]error:[/] cannot write {escape(str(target))}: {escape(_problem(error))}")
        raise typer.Exit(1) from None
    questions = sum(1 for _ in package.questions())
    Console().print(escape(f"wrote {target} ({len(data)} bytes, {questions} questions)"), highlight=False)


def _same_file(source: Path, target: Path) -> bool:
    """Whether the two paths name one file (also through a link, or spelled differently)."""
    try:
        return source.samefile(target)
    except OSError:  # one of them does not exist (yet)
        return source.resolve() == target.resolve()
