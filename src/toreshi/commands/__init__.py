"""Command-line front ends, one module per domain, each exposing a Typer ``app``.

:data:`GROUPS` names them with their one-line help: ``toreshi --help`` lists them from here, and :mod:`toreshi.cli`
imports a module only when its command is run (issue 27: ``togyz perft`` never loads the database layer).
"""

from __future__ import annotations

GROUPS: dict[str, tuple[str, str]] = {
    "togyz": (
        "toreshi.commands.togyz",
        "Togyz kumalak rules and engine: perft, record replay, board display, analysis, game review.",
    ),
    "tournament": (
        "toreshi.commands.tournament",
        "Tournaments: Swiss pairings and the pairing checker and generator, round-robin tables, standings.",
    ),
    "quiz": ("toreshi.commands.quiz", "«Своя игра» question packs: inspect and convert."),
    "db": ("toreshi.commands.db", "The database: migrate, back up, restore."),
    "serve": ("toreshi.commands.serve", "Run the web app."),
    "publish": ("toreshi.commands.publish", "A tournament's public results site written to a folder (kk, ru, en)."),
}
"""Command name → (module holding its Typer ``app``, one-line help)."""
