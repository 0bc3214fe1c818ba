"""The command line's printable crosstable: one self-contained HTML page of a crosstable.

Jinja2 renders it here, above the tournament core, which only shapes the table (the core imports no template engine:
see the import contracts in ``pyproject.toml``). The web draws its own pages from the same table.
"""

from __future__ import annotations

from collections.abc import Sequence

import jinja2

from toreshi.tournament.crosstable import Table

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("toreshi.commands", "templates"),
    autoescape=jinja2.select_autoescape(["html"]),
    undefined=jinja2.StrictUndefined,
)


def to_html(
    table: Table,
    language: str = "en",
    *,
    heading: str = "Crosstable",
    legend: Sequence[tuple[str, str]] = (),
    note: str | None = None,
) -> str:
    """A self-contained printable HTML page (names escaped) in ``language`` (its ``lang``), titled ``heading`` when
    the table has no title; ``legend`` explains the short codes of the columns (``BH`` — Buchholz) and ``note`` is
    printed under the grid (e.g. the table's ``rules_note``, English: a page in another language passes its own
    words)."""
    return _TEMPLATES.get_template("crosstable.html").render(
        table=table, language=language, heading=heading, legend=legend, note=note
    )
