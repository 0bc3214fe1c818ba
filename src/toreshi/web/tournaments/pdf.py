"""The crosstable as a print-ready PDF (issue 29, the results bundle), drawn by fpdf2 (pure Python, kept by the
py-pdf project) in a Unicode TrueType font, so that Kazakh and Russian letters (ә, ғ, қ, ң, ө, ұ, ү, һ, і) print.

The font is the first of :data:`FONT_CANDIDATES` found (``TORESHI_PDF_FONT`` names another): DejaVu Sans comes with
Debian's ``fonts-dejavu-core`` (installed with fontconfig on most systems; the container installs it). The PDF
embeds the subset it uses, with a ToUnicode map: its text can be searched and copied.
"""

from __future__ import annotations

import os
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


def crosstable_pdf(context: dict[str, Any], language: str) -> bytes:
    """The crosstable (the page's particulars, the table, the legends, the overrides, the signatures) on A4
    landscape pages; ``context`` is what the printed crosstable's template gets."""
    from fpdf import FPDF  # imported when a PDF is made: the app starts without it

    t, table = context["t"], context["table"]
    pdf = FPDF(orientation="L", unit="mm", format="A4")
    pdf.set_title(t.name)
    pdf.set_lang(language)
    pdf.set_creator("toreshi")
    pdf.set_auto_page_break(auto=True, margin=12)
    font = font_path()
    bold = font.with_name(font.name.replace("Regular", "Bold").replace("Sans.ttf", "Sans-Bold.ttf"))
    pdf.add_font("Body", "", str(font))
    pdf.add_font("Body", "B", str(bold if bold.is_file() else font))  # the table's headings
    pdf.add_page()
    pdf.set_font("Body", size=15)
    pdf.multi_cell(0, 8, t.name, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Body", size=9)
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
    for label, value in particulars:
        pdf.multi_cell(0, 5, f"{label}: {value}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    columns = len(table.headers)
    size = 9 if columns <= 12 else 7 if columns <= 20 else 5.5
    pdf.set_font("Body", size=size)
    width = pdf.epw
    name_width = min(60.0, width * 0.3)
    other = (width - name_width) / max(1, columns - 1)
    widths = tuple(name_width if i == 2 else other for i in range(columns))
    with pdf.table(col_widths=widths, text_align="CENTER", line_height=size * 0.55, first_row_as_headings=True) as grid:
        for cells in (table.headers, *table.rows):
            row = grid.row()
            for cell in cells:
                row.cell(str(cell))
    pdf.set_font("Body", size=8)
    if context.get("rules_note"):
        pdf.multi_cell(0, 4.5, context["rules_note"], new_x="LMARGIN", new_y="NEXT")
    sections = [
        (_("Tie-breaks, in order"), context.get("legend") or []),
        (_("Codes in the table"), context.get("codes") or []),
        (_("Withdrawals and expulsions"), [(f"{n}. {name}", text) for n, name, text in context.get("leavings", [])]),
    ]
    for title, items in sections:
        if not items:
            continue
        pdf.ln(1.5)
        pdf.multi_cell(0, 5, title, new_x="LMARGIN", new_y="NEXT")
        for code, meaning in items:
            pdf.multi_cell(0, 4.5, f"{code} — {meaning}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.multi_cell(0, 6, f"{_('Chief arbiter')}: ____________________  {t.officials.chief_arbiter or ''}",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.multi_cell(0, 6, f"{_('Date')}: ____________", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
