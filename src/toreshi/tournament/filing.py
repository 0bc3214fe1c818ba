"""What a federation files about an event besides its games: the TRF's header records (``012``–``122``) and the
particulars of the printed crosstable (event, venue, dates, time control, arbiters).

The TRF16 header (FIDE's "TRF16" description, ../shared/docs/tournaments.md): ``012`` name, ``022`` city (the
venue), ``032`` federation, ``042``/``052`` start and end dates (``YYYY/MM/DD``), ``062`` number of players, ``072``
number of rated players, ``082`` number of teams, ``092`` type (the pairing system), ``102`` chief arbiter, ``112``
one line per deputy chief arbiter, ``122`` the allotted time.

Every text is one line: names and titles are refused with control characters at the edge
(:mod:`toreshi.kit.payload`), and :func:`one_line` makes sure again here, so that no name can forge a record.

>>> from datetime import date
>>> from toreshi.tournament.model import Officials, Tournament, TournamentSystem
>>> t = Tournament(name="Cup", system=TournamentSystem.SWISS, rounds_planned=5, venue="Almaty",
...                start=date(2026, 12, 1), end=date(2026, 12, 2),
...                officials=Officials(chief_arbiter="Aliya", deputy_chief_arbiters=("Bolat",)))
>>> [line.text for line in header_lines(t, "20 min for the game")]
['022 Almaty', '042 2026/12/01', '052 2026/12/02', '062 0', '072 0', '102 Aliya', '112 Bolat', \
'122 20 min for the game']
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from toreshi.tournament.model import Tournament
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile

HEADER_CODES = ("022", "032", "042", "052", "062", "072", "082", "102", "112", "122")
"""The header records :func:`header_lines` may write (``012`` and ``092`` come with the results)."""


def one_line(text: str) -> str:
    """``text`` with every control, separator or format character (CR, LF, TAB, U+2028, bidi overrides …) made a
    space and runs of spaces folded: a defence in depth behind the edge's refusal."""
    cleaned = "".join(" " if unicodedata.category(char)[0] in ("C", "Z") else char for char in text)
    return " ".join(cleaned.split())


def header_lines(tournament: Tournament, time_control: str = "") -> list[RawLine]:
    """The TRF header records of ``tournament`` that it has (a record without a value is left out)."""
    t = tournament
    lines: list[RawLine] = []

    def add(code: str, value: str | None) -> None:
        text = one_line(value or "")
        if text:
            lines.append(RawLine(f"{code} {text}"))

    add("022", t.venue)
    add("042", t.start.strftime("%Y/%m/%d") if t.start else None)
    add("052", t.end.strftime("%Y/%m/%d") if t.end else None)
    add("062", str(len(t.participants)))
    add("072", str(sum(1 for p in t.participants if p.rating)))
    add("082", str(len(t.teams)) if t.teams else None)
    add("102", t.officials.chief_arbiter)
    for deputy in t.officials.deputy_chief_arbiters:
        add("112", deputy)
    add("122", time_control)
    return lines


def with_header(trf: TrfFile, tournament: Tournament, time_control: str = "") -> TrfFile:
    """``trf`` with the event's header records after its ``012`` line (replacing any it had), every name and
    text of it on one line (:func:`one_line`)."""
    kept = [_one_line_record(line) for line in trf.lines
            if not (isinstance(line, RawLine) and line.code in HEADER_CODES)]  # fmt: skip
    at = next((i + 1 for i, line in enumerate(kept) if isinstance(line, RawLine) and line.code == "012"), 0)
    lines: list[PlayerRecord | RawLine] = [*kept[:at], *header_lines(tournament, time_control), *kept[at:]]
    return TrfFile(tuple(lines))


def _one_line_record(line: PlayerRecord | RawLine) -> PlayerRecord | RawLine:
    if isinstance(line, PlayerRecord):
        return replace(line, name=one_line(line.name))
    return RawLine(one_line(line.text))
