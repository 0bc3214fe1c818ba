"""The one CSV writer of the app: every export (tournament, team, quiz report, quiz tour, league, ratings) writes
its rows through :func:`csv_text`, so no name reaches a spreadsheet as a live formula.

A cell that begins with a formula character (``=``, ``+``, ``-``, ``@``, a tab or a carriage return, also after
leading spaces) gets a leading ``'`` (OWASP, "CSV Injection"): Excel and LibreOffice then show it as text, never
run it. Refusing such names is no answer: clubs are named ``-=Барыс=-``.

A cell that is only a number (``-3``, ``+2``, ``-1.5``, ``0,5``) stays as it is: a quiz score below zero is a
number to add up, and a number runs nothing. ``-3+4`` is not a number and is neutralised.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes as the start of a formula (OWASP, "CSV Injection")."""

_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def neutralised(cell: str) -> str:
    """A cell a spreadsheet shows as text, never runs: one that begins with a formula character (after any
    leading spaces) gets a leading ``'``, unless it is a plain number.

    >>> [neutralised(cell) for cell in ("=1+2", "@SUM(A1)", "+", " -3+4", "-3", "Абай", "12b½", "-=Барыс=-")]
    ["'=1+2", "'@SUM(A1)", "'+", "' -3+4", '-3', 'Абай', '12b½', "'-=Барыс=-"]
    """
    if _PLAIN_NUMBER.fullmatch(cell):
        return cell
    return f"'{cell}" if cell.lstrip(" ").startswith(FORMULA_PREFIXES) else cell


def cell_text(value: object) -> str:
    """A value as the text of its cell: ``None`` is an empty cell, anything else its ``str``, neutralised."""
    return "" if value is None else neutralised(str(value))


def csv_text(rows: Iterable[Sequence[object]], *, line_end: str = "\r\n") -> str:
    """CSV text of ``rows`` (comma-separated, quoted where needed, RFC 4180 line ends by default), every cell
    through :func:`cell_text`. No byte-order mark: the web's response adds one (a file for Excel)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=line_end)
    writer.writerows([cell_text(value) for value in row] for row in rows)
    return buffer.getvalue()
