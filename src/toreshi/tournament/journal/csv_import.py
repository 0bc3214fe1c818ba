"""Participants imported from CSV: all of them, or — when any line is wrong — none, with every bad line named.

A header row names the columns (:data:`CSV_FIELDS`, any order, case-insensitive; only ``name`` is required);
cells are separated by ``;`` or ``,`` (whichever the header uses more). A refused import is one
:class:`~toreshi.kit.refusal.Refused` of code ``csv_not_imported`` whose ``details`` list the problems, each
with its ``line``, the ``field`` and what is wrong as a code — a page shows them all in its own language.

>>> [p.name for _, p in parse_participants("name,rating\\nAbenov,1500\\nBekov,\\n", 3)]
['Abenov', 'Bekov']
>>> try:
...     parse_participants("name,rating\\nAbenov,strong\\n,1400\\n")
... except Refused as refused:
...     [str(detail) for detail in refused.refusal.details]
["field_not_integer (field='rating', line=2)", "field_required (field='name', line=3)"]
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Iterable, Sequence
from dataclasses import replace

from toreshi.kit.payload import check_name, check_text, int_from_text
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import ImportParticipants, ParticipantEntry
from toreshi.tournament.journal.events import (
    ImportedParticipant,
    ParticipantsImported,
    Stamp,
    TeamAdded,
)
from toreshi.tournament.journal.participants import new_teams, next_number, participant_of, refuse_while_paired
from toreshi.tournament.journal.state import TournamentState
from toreshi.tournament.model import Participant, Team, TournamentError

CSV_FIELDS = ("name", "rating", "club", "team", "federation_id", "federation", "title", "sex", "birth_date")
"""The columns a participants' CSV may have."""
IMPORT_CHUNK = 200
"""Imported participants per event: a large CSV becomes several events of one append (payloads stay small)."""
MAX_LISTED = 50
"""Problems listed one by one; beyond them, one more detail says how many others there are."""

_LIMITS: dict[str, int] = {
    f.name: int(f.metadata["toreshi.spec"]["max_length"])
    for f in dataclasses.fields(ParticipantEntry)
    if f.metadata.get("toreshi.spec", {}).get("max_length")
}
"""Each column's longest text: the form's limits (:class:`~toreshi.tournament.journal.commands.ParticipantEntry`)."""


def not_imported(problems: Sequence[Refusal]) -> Refused:
    """The refusal of a whole import: ``problems`` as details (at most :data:`MAX_LISTED`, then a count)."""
    listed = tuple(problems[:MAX_LISTED])
    if len(problems) > MAX_LISTED:
        listed += (Refusal(Code.CSV_MORE_PROBLEMS, {"count": len(problems) - MAX_LISTED}),)
    return Refused(Code.CSV_NOT_IMPORTED, details=listed, problems=len(problems))


def _header(row: list[str]) -> list[str]:
    header = [cell.strip().lower().replace(" ", "_") for cell in row]
    problems = []
    unknown = [column for column in header if column and column not in CSV_FIELDS]
    if unknown:
        columns = ", ".join(unknown)[:200]
        problems.append(Refusal(Code.CSV_UNKNOWN_COLUMNS, {"line": 1, "columns": columns,
                                                           "known": ", ".join(CSV_FIELDS)}))  # fmt: skip
    if "name" not in header:
        problems.append(Refusal(Code.CSV_NO_NAME_COLUMN, {"line": 1}))
    if problems:
        raise not_imported(problems)
    return header


def _entry(cells: dict[str, str]) -> tuple[ParticipantEntry | None, list[Refusal]]:
    """The participant of one line's cells, or what is wrong with them (every cell is checked)."""
    texts: dict[str, str] = {}
    rating: int | None = None
    problems: list[Refusal] = []
    for column, cell in cells.items():
        try:
            if column == "name":
                if not cell.strip():
                    raise Refused(Common.FIELD_REQUIRED, field="name")
                texts["name"] = check_name(cell, "name", max_length=_LIMITS["name"])
            elif column == "rating":
                rating = int_from_text(cell, "rating", minimum=0, maximum=9_999) if cell.strip() else None
            else:
                texts[column] = check_text(cell, column, max_length=_LIMITS[column]).strip()
        except Refused as refused:
            problems.append(refused.refusal)
    if problems:
        return None, problems
    return dataclasses.replace(ParticipantEntry(name=texts.pop("name")), rating=rating, **texts), []


def _rows(reader: Iterable[list[str]], header: list[str], first_number: int) -> list[tuple[int, Participant]]:
    problems: list[Refusal] = []
    people: list[tuple[int, Participant]] = []
    for line, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            problems.append(Refusal(Code.CSV_TOO_MANY_CELLS, {"line": line, "cells": len(row),
                                                              "columns": len(header)}))  # fmt: skip
            continue
        cells = {column: row[index] if index < len(row) else "" for index, column in enumerate(header) if column}
        entry, wrong = _entry(cells)  # a short line's missing cells are empty ones
        try:
            if entry is not None:
                people.append((line, participant_of(entry, first_number + len(people))))
        except Refused as refused:
            wrong.append(refused.refusal)
        problems.extend(problem.with_params(line=line) for problem in wrong)
    if problems:
        raise not_imported(problems)
    if not people:
        raise not_imported([Refusal(Code.CSV_EMPTY)])
    return people


def parse_participants(text: str, first_number: int = 1) -> list[tuple[int, Participant]]:
    """The participants of a CSV, each with its line number and a pairing number from ``first_number`` on.

    Raises one ``csv_not_imported`` :class:`~toreshi.kit.refusal.Refused` naming every bad line."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].strip():
        raise not_imported([Refusal(Code.CSV_NO_HEADER, {"line": 1})])
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter)
    return _rows(reader, _header(next(reader)), first_number)


def decide_import(
    state: TournamentState, command: ImportParticipants, stamp: Stamp
) -> list[TeamAdded | ParticipantsImported]:
    """The import as events of at most :data:`IMPORT_CHUNK` participants (after the teams it names that the
    tournament has not yet), or one refusal naming every line the tournament's rules refuse (a late entry)
    besides the lines that cannot be read."""
    refuse_while_paired(state)
    rows = parse_participants(command.csv, next_number(state.t))
    teams = new_teams(state, (person.team for _, person in rows), stamp)
    problems, trial = [], state.t
    for team in teams:
        trial = trial.with_team(Team(team.name))
    for line, person in rows:
        try:
            trial = trial.with_participant(person)
        except TournamentError as error:
            problems.append(error.refusal.with_params(line=line))
    if problems:
        raise not_imported(problems)
    imported = [ImportedParticipant(**person.details(), line=line) for line, person in rows]
    chunks = [
        ParticipantsImported(at=stamp.at, by=stamp.by, participants=tuple(imported[i : i + IMPORT_CHUNK]))
        for i in range(0, len(imported), IMPORT_CHUNK)
    ]
    return [*teams, *chunks]


def apply_imported(state: TournamentState, event: ParticipantsImported) -> TournamentState:
    refuse_while_paired(state)
    tournament = state.t
    for item in event.participants:
        tournament = tournament.with_participant(item.participant())
    return replace(state, tournament=tournament)
