"""The results as print-ready PDF (issue 29, the results bundles: a tournament's crosstable, a team tournament's
standings, a quiz tour's standings), drawn by fpdf2 (pure Python, kept by the
py-pdf project) in a Unicode TrueType font, so that Kazakh and Russian letters (ә, ғ, қ, ң, ө, ұ, ү, һ, і) print.

The font is the first of :data:`FONT_CANDIDATES` found (``TORESHI_PDF_FONT`` names another): DejaVu Sans comes with
Debian's ``fonts-dejavu-core`` (installed with fontconfig on most systems; the container installs it). The PDF
embeds the subset it uses, with a ToUnicode map: its text can be searched and copied.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toreshi.texts.i18n import gettext as _

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)


class NoFontError(RuntimeError):
    """No Unicode TrueType font to draw the PDF with."""


def font_path() -> Path:
    """The font the PDF is drawn in."""
    wanted = os.environ.get("TORESHI_PDF_FONT")
    for candidate in (wanted, *FONT_CANDIDATES):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise NoFontError("no Unicode TrueType font: install fonts-dejavu-core or set TORESHI_PDF_FONT")


@dataclass(frozen=True)
class Grid:
    """A table of the printed document: its heading (may be empty), header row and rows; ``name_column`` is the
    wide one (the name of a player or a team)."""

    heading: str
    headers: Sequence[object]
    rows: Sequence[Sequence[object]]
    name_column: int = 2


def document_pdf(
    title: str,
    particulars: Sequence[tuple[str, str]],
    grids: Sequence[Grid],
    language: str,
    *,
    notes: Sequence[str] = (),
    sections: Sequence[tuple[str, Sequence[tuple[str, str]]]] = (),
    signature: tuple[str, str] | None = None,
) -> bytes:
    """A print-ready results document on A4 landscape pages: the title, the particulars (label, value), the
    tables, the notes, the legends (a title and its (code, meaning) lines) and, when ``signature`` (the signer's
    title and name) is given, the lines to sign and date. Every kind of event prints through it (issue 29)."""
    from fpdf import FPDF  # imported when a PDF is made: the app starts without it

    pdf = FPDF(orientation="L", unit="mm", format="A4")
    pdf.set_title(title)
    pdf.set_lang(language)
    pdf.set_creator("toreshi")
    pdf.set_auto_page_break(auto=True, margin=12)
    font = font_path()
    bold = font.with_name(font.name.replace("Regular", "Bold").replace("Sans.ttf", "Sans-Bold.ttf"))
    pdf.add_font("Body", "", str(font))
    pdf.add_font("Body", "B", str(bold if bold.is_file() else font))  # the tables' headings
    pdf.add_page()
    pdf.set_font("Body", size=15)
    pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Body", size=9)
    for label, value in particulars:
        pdf.multi_cell(0, 5, f"{label}: {value}", new_x="LMARGIN", new_y="NEXT")
    for grid in grids:
        pdf.ln(2)
        if grid.heading:
            pdf.set_font("Body", size=11)
            pdf.multi_cell(0, 6, grid.heading, new_x="LMARGIN", new_y="NEXT")
        columns = max(1, len(grid.headers))
        size = 9 if columns <= 12 else 7 if columns <= 20 else 5.5
        pdf.set_font("Body", size=size)
        width = pdf.epw
        name_width = min(60.0, width * 0.3)
        other = (width - name_width) / max(1, columns - 1)
        widths = tuple(name_width if i == grid.name_column else other for i in range(columns))
        with pdf.table(col_widths=widths, text_align="CENTER", line_height=size * 0.55,
                       first_row_as_headings=True) as table:  # fmt: skip
            for cells in (grid.headers, *grid.rows):
                row = table.row()
                for i in range(columns):
                    row.cell(str(cells[i]) if i < len(cells) else "")
    pdf.set_font("Body", size=8)
    for note in notes:
        pdf.multi_cell(0, 4.5, note, new_x="LMARGIN", new_y="NEXT")
    for heading, items in sections:
        if not items:
            continue
        pdf.ln(1.5)
        pdf.multi_cell(0, 5, heading, new_x="LMARGIN", new_y="NEXT")
        for code, meaning in items:
            pdf.multi_cell(0, 4.5, f"{code} — {meaning}", new_x="LMARGIN", new_y="NEXT")
    if signature is not None:
        signer, name = signature
        pdf.ln(6)
        pdf.multi_cell(0, 6, f"{signer}: ____________________  {name}", new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, f"{_('Date')}: ____________", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def crosstable_pdf(context: dict[str, Any], language: str) -> bytes:
    """The crosstable (the page's particulars, the table, the legends, the overrides, the signatures) on A4
    landscape pages; ``context`` is what the printed crosstable's template gets."""
    t, table = context["t"], context["table"]
    dates = ""
    if t.start:
        dates = t.start.isoformat() + (f" – {t.end.isoformat()}" if t.end and t.end != t.start else "")
    particulars = [
        (_("Venue"), t.venue or "—"),
        (_("Dates"), dates or "—"),
        (_("System"), f"{context['system_names'][t.system.value]}, {_('rounds')}: {len(t.rounds)}"),
        (_("Time control"), context["time_control"] or "—"),
        (_("Chief arbiter"), t.officials.chief_arbiter or "—"),
        (_("Participants"), str(len(t.participants))),
    ]
    sections = [
        (_("Tie-breaks, in order"), context.get("legend") or []),
        (_("Codes in the table"), context.get("codes") or []),
        (_("Withdrawals and expulsions"), [(f"{n}. {name}", text) for n, name, text in context.get("leavings", [])]),
    ]
    return document_pdf(
        t.name, particulars, [Grid("", table.headers, table.rows)], language,
        notes=[context["rules_note"]] if context.get("rules_note") else [], sections=sections,
        signature=(_("Chief arbiter"), t.officials.chief_arbiter or ""),
    )  # fmt: skip
