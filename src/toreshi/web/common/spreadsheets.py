"""Every CSV the app answers goes out through :func:`csv_response`: rows written by the one writer
(:func:`toreshi.kit.spreadsheet.csv_text`, which neutralises formula cells), a UTF-8 byte-order mark first (Excel
on Windows reads a file without one in the system's code page and garbles Cyrillic and Kazakh names), and the
file's name for the download. tests/security/test_csv_exports.py walks every route that answers ``text/csv``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from starlette.responses import Response

from toreshi.kit.spreadsheet import csv_text

BOM = "\ufeff"
"""The UTF-8 byte-order mark: how Excel knows a CSV is UTF-8 (LibreOffice and Python's ``utf-8-sig`` skip it)."""

CSV_MEDIA_TYPE = "text/csv; charset=utf-8"


def csv_response(rows: Iterable[Sequence[object]], filename: str, headers: Mapping[str, str] | None = None) -> Response:
    """``rows`` as a CSV download named ``filename`` (ASCII), with the byte-order mark; ``headers`` are added
    (e.g. ``Content-Language``)."""
    return Response(
        BOM + csv_text(rows),
        media_type=CSV_MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', **(headers or {})},
    )
