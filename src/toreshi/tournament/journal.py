"""A tournament as an event log: the arbiter's actions as events, the state as their fold.

A tournament room (:mod:`toreshi.live.rooms.tournament`) stores one event per arbiter action: the tournament
created or configured, participants added, edited, imported from CSV, renumbered, withdrawn or expelled, byes
requested, a round paired (Berger or Dutch), a pairing overridden (with who and why), a round published, a game
room linked to a board, a result entered or corrected, warnings, and each step of a protest. Every event names
who did it (``by``) and when (``at``, an aware ISO time stamped by the service, never read from a clock here).

:func:`decide` turns a command into events and proves them by folding them into a copy of the state, so the log
only ever holds events that apply; :func:`apply_event` is the fold, also used to replay the log. The state is a
:class:`TournamentState`: the :class:`~toreshi.tournament.model.Tournament`, the draft pairing of the next round
(paired, not yet published), the linked game rooms, the protests, the warnings and the audit log.

>>> state = TournamentState()
>>> at = "2026-11-30T09:00:00+00:00"
>>> for kind, data in [("create", {"name": "Cup", "system": "round_robin", "rounds": 1}),
...                    ("add_participant", {"name": "Abenov"}), ("add_participant", {"name": "Bekov"}),
...                    ("pair_round", {}), ("publish_round", {}),
...                    ("enter_result", {"round": 1, "board": 1, "result": "0-1"})]:
...     for event in decide(state, kind, {**data, "at": at}, "chief"):
...         state = apply_event(state, event.type, event.payload)
>>> [(row.player.name, str(row.points)) for row in state.standings().rows]
[('Bekov', '1'), ('Abenov', '0')]
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from toreshi.tournament.berger import berger_round
from toreshi.tournament.model import (
    Colour,
    GameResult,
    Participant,
    ResultCode,
    Scoring,
    Team,
    Tournament,
    TournamentError,
    TournamentSystem,
)
from toreshi.tournament.protests import (
    FilerRole,
    GameFacts,
    Protest,
    ProtestDesk,
    ProtestError,
    ProtestSettings,
    apply_decision,
)
from toreshi.tournament.standings import Standings, standings_for
from toreshi.tournament.tiebreaks import parse_order
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound

Payload = dict[str, Any]

MAX_TEXT = 500
"""The longest free text an event keeps (names, reasons, protest texts are cut to this by refusal, not silently)."""
IMPORT_CHUNK = 200
"""Imported participants per event: a large CSV becomes several events of one append (payloads stay small)."""
CSV_FIELDS = ("name", "rating", "club", "team", "federation_id", "federation", "title", "sex", "birth_date")
"""CSV import columns (header row required, any order, case-insensitive; only ``name`` is required)."""


class JournalError(TournamentError):
    """A command that cannot become an event (malformed data, or a step the tournament does not allow)."""


class CsvImportError(JournalError):
    """A participants CSV with bad lines; ``problems`` names each line and what is wrong with it."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("the CSV was not imported: " + "; ".join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Event:
    """An event decided from a command, ready to append."""

    type: str
    payload: Payload


@dataclass(frozen=True)
class AuditLine:
    """One line of the tournament's audit log: every event becomes one."""

    at: datetime
    by: str
    action: str
    detail: str = ""


@dataclass(frozen=True)
class DraftRound:
    """The pairing of the next round: made by the engine, possibly overridden, not published yet."""

    round: int
    method: str
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    overridden: bool = False


@dataclass(frozen=True)
class PlayerWarning:
    """A warning or penalty given to a player by the arbiter."""

    at: datetime
    by: str
    player: int
    round: int | None
    reason: str
    penalty: str = ""


@dataclass(frozen=True)
class TournamentState:
    """Everything a tournament room knows; ``tournament`` is None until the ``tournament_created`` event."""

    tournament: Tournament | None = None
    protest_settings: ProtestSettings = field(default_factory=ProtestSettings)
    initial_colour: Colour = Colour.WHITE
    time_control: str = ""
    draft: DraftRound | None = None
    game_rooms: Mapping[tuple[int, int], str] = field(default_factory=lambda: MappingProxyType({}))
    result_sources: Mapping[tuple[int, int], str] = field(default_factory=lambda: MappingProxyType({}))
    protests: tuple[Protest, ...] = ()
    warnings: tuple[PlayerWarning, ...] = ()
    audit: tuple[AuditLine, ...] = ()

    @property
    def t(self) -> Tournament:
        """The tournament; refuses while it has not been created."""
        if self.tournament is None:
            raise JournalError("the tournament has not been created yet")
        return self.tournament

    def standings(self) -> Standings:
        return standings_for(self.t)

    def protest(self, protest_id: str) -> Protest:
        for protest in self.protests:
            if protest.id == protest_id:
                return protest
        raise JournalError(f"no protest {protest_id!r}")

    def room_of(self, round_number: int, board: int) -> str | None:
        return self.game_rooms.get((round_number, board))

    @property
    def next_round(self) -> int:
        return len(self.t.rounds) + 1


# --- reading command data ------------------------------------------------------------------------------------


def _text(data: Mapping[str, Any], key: str, *, required: bool = False, limit: int = MAX_TEXT) -> str:
    value = data.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise JournalError(f"{key!r} must be text")
    value = value.strip()
    if required and not value:
        raise JournalError(f"{key!r} is required")
    if len(value) > limit:
        raise JournalError(f"{key!r} is longer than {limit} characters")
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    return _text(data, key) or None


def _int(data: Mapping[str, Any], key: str, *, default: int | None = None, minimum: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise JournalError(f"{key!r} must be a whole number")
    if minimum is not None and value < minimum:
        raise JournalError(f"{key!r} must be at least {minimum}, got {value}")
    return value


def _optional_int(data: Mapping[str, Any], key: str, *, minimum: int | None = None) -> int | None:
    value = data.get(key)
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return _int(data, key, minimum=minimum)


def _names(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """A list of names, given as a list or as comma-separated text."""
    value = data.get(key, ())
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise JournalError(f"{key!r} must be a list of names")
    names = []
    for item in items:
        if not isinstance(item, str):
            raise JournalError(f"{key!r} must be a list of names")
        if item.strip():
            if len(item.strip()) > 80:
                raise JournalError(f"a name in {key!r} is longer than 80 characters")
            names.append(item.strip())
    return tuple(names)


def parse_at(value: object) -> datetime:
    """An aware ISO time (what the service stamps on every command)."""
    if not isinstance(value, str):
        raise JournalError("every tournament command needs 'at', the aware ISO time it was given")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise JournalError(f"'at' is not an ISO time: {value!r}") from None
    if moment.tzinfo is None:
        raise JournalError("'at' must carry a time zone")
    return moment


def _date(value: object, key: str) -> date | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise JournalError(f"{key!r} must be a date YYYY-MM-DD")
    text = value.strip().replace("/", "-").replace(".", "-")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise JournalError(f"{key!r} must be a date YYYY-MM-DD, not {value!r}") from None


# --- participants as payloads --------------------------------------------------------------------------------


def participant_payload(p: Participant) -> Payload:
    data: Payload = {"number": p.number, "name": p.name}
    for key in ("rating", "club", "team", "federation_id", "federation", "title", "sex"):
        value = getattr(p, key)
        if value is not None:
            data[key] = value
    if p.birth_date is not None:
        data["birth_date"] = p.birth_date.isoformat()
    return data


def participant_from(data: Mapping[str, Any], number: int | None = None) -> Participant:
    """A participant from form, CSV or event data; refuses bad values with a clear message."""
    rating = _optional_int(data, "rating", minimum=0)
    sex = _text(data, "sex", limit=1).lower() or None
    if sex is not None and sex not in ("m", "w", "f"):
        raise JournalError(f"sex must be m or w, not {sex!r}")
    return Participant(
        number if number is not None else _int(data, "number", minimum=1),
        _text(data, "name", required=True, limit=80),
        rating=rating,
        club=_optional_text(data, "club"),
        team=_optional_text(data, "team"),
        federation_id=_optional_text(data, "federation_id"),
        federation=_text(data, "federation", limit=3).upper() or None,
        title=_text(data, "title", limit=3) or None,
        sex=sex,
        birth_date=_date(data.get("birth_date"), "birth_date"),
    )


def parse_participants_csv(text: str, first_number: int = 1) -> list[Participant]:
    """Participants from CSV text with a header row (see :data:`CSV_FIELDS`); ``;`` or ``,`` separated.

    Every bad line is reported, with its line number, in one :class:`CsvImportError`; nothing is imported then.

    >>> [p.name for p in parse_participants_csv("name,rating\\nAbenov,1500\\nBekov,\\n", 3)]
    ['Abenov', 'Bekov']
    >>> parse_participants_csv("name,rating\\nAbenov,strong\\n")
    Traceback (most recent call last):
    ...
    toreshi.tournament.journal.CsvImportError: the CSV was not imported: line 2: 'rating' must be a whole number
    """
    return [p for _, p in parse_participants_csv_lines(text, first_number)]


def _csv_rows(reader: Iterable[list[str]], header: list[str], first_number: int) -> list[tuple[int, Participant]]:
    problems: list[str] = []
    people: list[tuple[int, Participant]] = []
    for line_number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            problems.append(f"line {line_number}: {len(row)} cells but {len(header)} columns")
            continue
        data = {key: cell for key, cell in zip(header, row, strict=False) if key}
        try:
            people.append((line_number, participant_from(data, first_number + len(people))))
        except (JournalError, TournamentError) as error:
            problems.append(f"line {line_number}: {error}")
    if problems:
        raise CsvImportError(problems)
    if not people:
        raise CsvImportError(["the CSV has no participants"])
    return people


def parse_participants_csv_lines(text: str, first_number: int = 1) -> list[tuple[int, Participant]]:
    """Like :func:`parse_participants_csv`, each participant with its line number."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].strip():
        raise CsvImportError(["line 1: a header row is needed (name, rating, club, team, …)"])
    dialect = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(io.StringIO("\n".join(lines)), delimiter=dialect)
    return _csv_rows(reader, _csv_header(next(reader)), first_number)


def _csv_header(row: list[str]) -> list[str]:
    header = [h.strip().lower().replace(" ", "_") for h in row]
    problems: list[str] = []
    unknown = [h for h in header if h and h not in CSV_FIELDS]
    if unknown:
        problems.append(f"line 1: unknown column(s) {', '.join(unknown)}; known: {', '.join(CSV_FIELDS)}")
    if "name" not in header:
        problems.append("line 1: the 'name' column is missing")
    if problems:
        raise CsvImportError(problems)
    return header


# --- pairing --------------------------------------------------------------------------------------------------


def berger_pairing(tournament: Tournament, round_number: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``round_number`` of the round robin by the Berger tables, Berger numbers = pairing-number order."""
    numbers = sorted(p.number for p in tournament.participants)
    if len(numbers) < 2:
        raise JournalError("a round robin needs at least 2 participants")
    double = tournament.system is TournamentSystem.DOUBLE_ROUND_ROBIN
    boards = berger_round(len(numbers), round_number, double=double)
    pairs = [(numbers[b.white - 1], numbers[b.black - 1]) for b in boards if b.black is not None]
    byes = [numbers[b.white - 1] for b in boards if b.black is None]
    return pairs, byes[0] if byes else None


def round_robin_rounds(tournament: Tournament) -> int:
    n = len(tournament.participants)
    cycle = n - 1 + n % 2
    return cycle * (2 if tournament.system is TournamentSystem.DOUBLE_ROUND_ROBIN else 1)


def pairing_trf(tournament: Tournament, initial_colour: Colour = Colour.WHITE) -> TrfFile:
    """The TRF the Dutch engine pairs the next round from: rounds 1..N-1 and the round-N absences (H, Z)."""
    number = len(tournament.rounds) + 1
    record = tournament.record()
    to_pair = set(tournament.players_to_pair(number))
    requested = {b.player: b.code for b in tournament.bye_requests if b.round == number}
    lines: list[PlayerRecord | RawLine] = [
        RawLine(f"012 {tournament.name}"),
        RawLine(f"XXR {tournament.rounds_planned}"),
        RawLine("XXC " + ("white1" if initial_colour is Colour.WHITE else "black1")),
    ]
    for p in sorted(tournament.participants, key=lambda p: p.number):
        blocks: list[TrfRound | None] = []
        entries = record.entries.get(p.number, {})
        for rnd in range(1, number):
            entry = entries.get(rnd)
            if entry is None:
                blocks.append(TrfRound(None, None, ResultCode.ZERO_BYE))
            else:
                colour = entry.colour if entry.code.has_opponent else None
                blocks.append(TrfRound(entry.opponent, colour, entry.code))
        if p.number not in to_pair:
            blocks.append(TrfRound(None, None, requested.get(p.number, ResultCode.ZERO_BYE)))
        lines.append(PlayerRecord(p.number, p.name, rating=p.rating, rounds=tuple(blocks)))
    return TrfFile(tuple(lines))


def dutch_pairing(tournament: Tournament, initial_colour: Colour) -> tuple[list[tuple[int, int]], int | None]:
    """The next Swiss round by the FIDE Dutch engine (:func:`toreshi.tournament.dutch.pair_trf`)."""
    from toreshi.tournament.dutch import pair_trf  # the engine is large; only a Swiss needs it

    number = len(tournament.rounds) + 1
    try:
        pairing = pair_trf(pairing_trf(tournament, initial_colour), number, initial_colour=initial_colour)
    except ValueError as error:  # NoValidPairingError, PairingInputError
        raise JournalError(f"round {number} cannot be paired: {error}") from None
    return [(p.white, p.black) for p in pairing.pairs], pairing.bye


# --- the fold -------------------------------------------------------------------------------------------------


def _pairs(value: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list | tuple):
        raise JournalError("'pairs' must be a list of [white, black] pairs")
    pairs = []
    for item in value:
        if (
            not isinstance(item, list | tuple)
            or len(item) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)
        ):
            raise JournalError(f"a pair must be [white, black] pairing numbers, not {item!r}")
        if item[0] == item[1]:
            raise JournalError(f"player {item[0]} cannot play themselves")
        pairs.append((int(item[0]), int(item[1])))
    return tuple(pairs)


def _system(value: object) -> TournamentSystem:
    try:
        return TournamentSystem(value)
    except ValueError:
        names = ", ".join(s.value for s in TournamentSystem)
        raise JournalError(f"unknown system {value!r}; choose one of {names}") from None


def _game_result(value: object) -> GameResult:
    """A result by its model value (``1-0``, ``½-½``, ``+ −`` …), its name, or the togyz record token."""
    aliases = {"1/2-1/2": GameResult.DRAW, "+-": GameResult.WHITE_FORFEIT_WIN, "-+": GameResult.BLACK_FORFEIT_WIN,
               "--": GameResult.DOUBLE_FORFEIT, "=": GameResult.DRAW}  # fmt: skip
    if isinstance(value, str):
        if value in aliases:
            return aliases[value]
        for result in GameResult:
            if value in (result.value, result.name, result.name.lower()):
                return result
    raise JournalError(f"unknown result {value!r}")


def _kazans(value: object) -> tuple[int, int] | None:
    if value is None or value == "":
        return None
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        return (int(value[0]), int(value[1]))
    raise JournalError("'kazans' must be [white, black] whole numbers")


def _settings_changes(state: TournamentState, data: Mapping[str, Any], creating: bool) -> Payload:
    """The settings in ``data`` (all of them when creating), checked and normalised into an event payload."""
    out: Payload = {}
    keys = set(data)
    if creating or "name" in keys:
        out["name"] = _text(data, "name", required=True, limit=120)
    if creating or "system" in keys:
        out["system"] = _system(data.get("system", "swiss_dutch")).value
    if creating or "rounds" in keys:
        out["rounds"] = _int(data, "rounds", default=0, minimum=0)
    for key in ("venue", "time_control", "currency", "chief_arbiter"):
        if key in keys:
            out[key] = _text(data, key, limit=120)
    for key in ("start", "end"):
        if key in keys:
            moment = _date(data.get(key), key)
            out[key] = moment.isoformat() if moment else None
    if "tiebreaks" in keys:
        codes = _names(data, "tiebreaks") if isinstance(data["tiebreaks"], str | list | tuple) else ()
        try:
            out["tiebreaks"] = [str(tb) for tb in parse_order(codes)]
        except ValueError as error:
            raise JournalError(str(error)) from None
    for key in ("arbiters", "board", "committee"):
        if key in keys:
            out[key] = list(_names(data, key))
    for key in ("fee", "expel_after", "max_half_byes", "late_entry_until", "last_half_bye_round"):
        if key in keys:
            out[key] = _optional_int(data, key, minimum=0)
    if "initial_colour" in keys:
        colour = _text(data, "initial_colour") or "white"
        if colour not in ("white", "black"):
            raise JournalError("'initial_colour' must be white or black")
        out["initial_colour"] = colour
    if "bye_points" in keys:
        value = _text(data, "bye_points") or "1"
        try:
            points = Fraction(value)
        except ValueError:
            raise JournalError(f"'bye_points' must be a number like 1, 0.5 or 0, not {value!r}") from None
        if points < 0:
            raise JournalError("'bye_points' cannot be negative")
        out["bye_points"] = str(points)
    if creating and "rounds" in out and out["rounds"] == 0 and out["system"] == TournamentSystem.SWISS.value:
        raise JournalError("a Swiss needs its number of rounds")
    return out


def _configured(state: TournamentState, changes: Mapping[str, Any]) -> TournamentState:
    """The state with settings changed; the system and the number of rounds only before round 1 is paired."""
    old = state.tournament
    base = old or Tournament(name="?", system=TournamentSystem.SWISS, rounds_planned=1)
    paired = bool(old and (old.rounds or state.draft))
    system = _system(changes.get("system", base.system.value))
    if paired and system is not base.system:
        raise JournalError("the system cannot change once round 1 has been paired")
    rounds = changes.get("rounds", base.rounds_planned)
    if not isinstance(rounds, int):
        raise JournalError("'rounds' must be a whole number")
    if system.is_round_robin and rounds == 0:
        rounds = base.rounds_planned if old is not None else 1  # set from the entries when round 1 is paired
    if paired and rounds < len(base.rounds):
        raise JournalError(f"{len(base.rounds)} rounds have been played; the tournament cannot have {rounds}")
    if paired and system.is_round_robin and rounds != base.rounds_planned:
        raise JournalError("a round robin's rounds follow from its entries and cannot change once paired")
    officials = base.officials
    if "chief_arbiter" in changes:
        officials = replace(officials, chief_arbiter=changes["chief_arbiter"] or None)
    if "arbiters" in changes:
        officials = replace(officials, arbiters=tuple(changes["arbiters"]))
    if "board" in changes:
        officials = replace(officials, chief_arbiters_board=tuple(changes["board"]))
    if "committee" in changes:
        officials = replace(officials, appeals_committee=tuple(changes["committee"]))
    withdrawal = base.withdrawal_rules
    if "expel_after" in changes:
        withdrawal = replace(withdrawal, expel_after_forfeit_losses=changes["expel_after"] or None)
    byes = base.bye_rules
    if "max_half_byes" in changes:
        byes = replace(byes, max_half_point_byes=changes["max_half_byes"])
    if "late_entry_until" in changes:
        byes = replace(byes, late_entry_until_round=changes["late_entry_until"])
    if "last_half_bye_round" in changes:
        byes = replace(byes, last_round_for_half_point_bye=changes["last_half_bye_round"])
    scoring = base.scoring
    if old is None and system.is_round_robin:
        scoring = Scoring(pairing_bye=Fraction(0))  # sitting out a round-robin round scores nothing by default
    if "bye_points" in changes:
        scoring = replace(scoring, pairing_bye=Fraction(changes["bye_points"]))
    start = _date(changes["start"], "start") if "start" in changes else base.start
    end = _date(changes["end"], "end") if "end" in changes else base.end
    tournament = replace(
        base,
        name=changes.get("name", base.name),
        system=system,
        rounds_planned=rounds,
        start=start,
        end=end,
        venue=(changes["venue"] or None) if "venue" in changes else base.venue,
        time_control=(changes["time_control"] or None) if "time_control" in changes else base.time_control,
        officials=officials,
        tiebreaks=tuple(changes["tiebreaks"]) if "tiebreaks" in changes else base.tiebreaks,
        withdrawal_rules=withdrawal,
        bye_rules=byes,
        scoring=scoring,
    )
    settings = state.protest_settings
    if changes.get("fee") is not None:
        settings = replace(settings, fee_amount=int(changes["fee"]))
    if changes.get("currency"):
        settings = replace(settings, fee_currency=str(changes["currency"]).upper())
    colour = state.initial_colour
    if "initial_colour" in changes:
        if paired and len(base.rounds) > 0 and changes["initial_colour"] != _colour_name(colour):
            raise JournalError("the first-round colour cannot change once round 1 has been published")
        colour = Colour.WHITE if changes["initial_colour"] == "white" else Colour.BLACK
    return replace(
        state,
        tournament=tournament,
        protest_settings=settings,
        initial_colour=colour,
        time_control=tournament.time_control or "",
    )


def _colour_name(colour: Colour) -> str:
    return "white" if colour is Colour.WHITE else "black"


def _replace_participant(tournament: Tournament, updated: Participant) -> Tournament:
    tournament.participant(updated.number)
    if updated.team is not None and tournament.teams and updated.team not in {t.name for t in tournament.teams}:
        raise JournalError(f"{updated.name}: unknown team {updated.team!r}")
    people = tuple(updated if p.number == updated.number else p for p in tournament.participants)
    return replace(tournament, participants=people)


def _renumbered(tournament: Tournament, order: Sequence[int]) -> Tournament:
    """Pairing numbers 1, 2, … given in ``order`` (only before round 1; byes and leavings must not exist yet)."""
    if tournament.rounds:
        raise JournalError("pairing numbers cannot change once a round has been published")
    if tournament.bye_requests or tournament.leavings:
        raise JournalError("pairing numbers cannot change after byes or withdrawals were recorded")
    if sorted(order) != sorted(p.number for p in tournament.participants):
        raise JournalError("the new order must list every participant once")
    by_number = {p.number: p for p in tournament.participants}
    people = tuple(replace(by_number[old], number=new) for new, old in enumerate(order, start=1))
    return replace(tournament, participants=people)


def seeding_order(tournament: Tournament) -> list[int]:
    """Rating order for Swiss pairing numbers: rating down, then title, then name (FIDE C.04.2 practice)."""
    return [
        p.number
        for p in sorted(tournament.participants, key=lambda p: (-(p.rating or 0), p.title or "~", p.name.lower()))
    ]


def _protest_desk(state: TournamentState, at: datetime) -> ProtestDesk:
    return ProtestDesk.for_tournament(state.t, lambda: at, state.protest_settings)


def _store_protest(state: TournamentState, protest: Protest) -> TournamentState:
    others = tuple(p for p in state.protests if p.id != protest.id)
    ordered = tuple(sorted((*others, protest), key=lambda p: (p.filed_at, p.id)))
    return replace(state, protests=ordered)


def _signed(value: object) -> datetime | None:
    if value is None or value == "":
        return None
    return parse_at(value)


def _describe(event_type: str, payload: Mapping[str, Any]) -> str:
    """A short audit detail for an event (the page shows the event type next to it)."""
    if event_type in ("round_paired", "pairing_overridden"):
        pairs = ", ".join(f"{w}–{b}" for w, b in payload.get("pairs", []))
        bye = f"; bye {payload['bye']}" if payload.get("bye") else ""
        why = f" — {payload['reason']}" if payload.get("reason") else ""
        return f"round {payload.get('round')}: {pairs}{bye}{why}"
    if event_type in ("result_entered", "result_corrected"):
        was = f" (was {payload['previous']})" if payload.get("previous") else ""
        why = f" — {payload['reason']}" if payload.get("reason") else ""
        return (
            f"round {payload.get('round')}, board {payload.get('board')}: {payload.get('result')}{was}"
            f" [{payload.get('source', 'arbiter')}]{why}"
        )
    if event_type in ("participant_added", "participant_edited"):
        return f"{payload.get('number')}. {payload.get('name')}"
    if event_type == "participants_imported":
        return f"{len(payload.get('participants', []))} participants (CSV)"
    if event_type in ("participant_withdrawn", "participant_expelled"):
        return f"{payload.get('number')} after round {payload.get('after_round')}: {payload.get('reason', '')}"
    if event_type.startswith("protest_"):
        return f"protest {payload.get('id')}"
    keys = ("round", "board", "number", "name", "room_id", "reason")
    return ", ".join(f"{k} {payload[k]}" for k in keys if payload.get(k) not in (None, ""))


def apply_event(state: TournamentState, event_type: str, payload: Mapping[str, Any]) -> TournamentState:
    """Fold one event into the state; raises :class:`JournalError` (or another ``ValueError``) if it does not apply."""
    handler = _FOLD.get(event_type)
    if handler is None:
        raise JournalError(f"unknown tournament event {event_type!r}")
    if event_type != "tournament_created" and state.tournament is None:
        raise JournalError("the tournament has not been created yet")
    at = parse_at(payload.get("at"))
    new = handler(state, payload, at)
    line = AuditLine(at, str(payload.get("by", "")), event_type, _describe(event_type, payload))
    return replace(new, audit=(*new.audit, line))


Fold = Callable[[TournamentState, Mapping[str, Any], datetime], TournamentState]


def _created(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    if state.tournament is not None:
        raise JournalError("the tournament already exists")
    return _configured(state, p)


def _reconfigured(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    return _configured(state, p)


def _team_added(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    team = Team(_text(p, "name", required=True, limit=80), _names(p, "representatives"), _names(p, "coaches"))
    return replace(state, tournament=state.t.with_team(team))


def _team_edited(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    name = _text(p, "name", required=True, limit=80)
    state.t.team(name)
    team = Team(name, _names(p, "representatives"), _names(p, "coaches"))
    teams = tuple(team if t.name == name else t for t in state.t.teams)
    return replace(state, tournament=replace(state.t, teams=teams))


def _participant_added(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    if state.draft is not None:
        raise JournalError(f"round {state.draft.round} has been paired; publish or redo it before adding players")
    return replace(state, tournament=state.t.with_participant(participant_from(p)))


def _participants_imported(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    items = p.get("participants")
    if not isinstance(items, list):
        raise JournalError("'participants' must be a list")
    tournament = state.t
    for index, item in enumerate(items, start=1):
        if not isinstance(item, Mapping):
            raise JournalError(f"participant {index} must be an object")
        line = item.get("line", index)
        try:
            tournament = tournament.with_participant(participant_from(item))
        except TournamentError as error:
            raise CsvImportError([f"line {line}: {error}"]) from None
    if state.draft is not None:
        raise JournalError(f"round {state.draft.round} has been paired; publish or redo it before adding players")
    return replace(state, tournament=tournament)


def _participant_edited(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    return replace(state, tournament=_replace_participant(state.t, participant_from(p)))


def _renumbered_event(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    order = p.get("order")
    if not isinstance(order, list) or not all(isinstance(x, int) for x in order):
        raise JournalError("'order' must list pairing numbers")
    if state.draft is not None:
        raise JournalError("pairing numbers cannot change while a round is paired")
    return replace(state, tournament=_renumbered(state.t, order))


def _left(state: TournamentState, p: Mapping[str, Any], expelled: bool) -> TournamentState:
    number = _int(p, "number", minimum=1)
    after = _int(p, "after_round", minimum=0)
    reason = _text(p, "reason")
    draft = state.draft
    swiss = not state.t.system.is_round_robin  # a round robin keeps a leaver's games: they become forfeits
    if swiss and draft is not None and after < draft.round and number in {x for pair in draft.pairs for x in pair}:
        raise JournalError(f"round {draft.round} is paired with player {number}; discard that pairing first")
    if expelled:
        return replace(state, tournament=state.t.expel(number, after, reason))
    return replace(state, tournament=state.t.withdraw(number, after, reason))


def _withdrawn(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    return _left(state, p, expelled=False)


def _expelled(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    return _left(state, p, expelled=True)


def _bye_requested(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    code = ResultCode(_text(p, "code") or "H")
    number, round_number = _int(p, "number", minimum=1), _int(p, "round", minimum=1)
    if state.draft is not None and state.draft.round == round_number:
        raise JournalError(f"round {round_number} has already been paired")
    return replace(state, tournament=state.t.request_bye(number, round_number, code))


def _check_pairing(
    state: TournamentState, round_number: int, pairs: Sequence[tuple[int, int]], bye: int | None
) -> None:
    if round_number != state.next_round:
        raise JournalError(f"the next round to pair is {state.next_round}, not {round_number}")
    state.t.add_round(pairs, pairing_bye=bye)  # proves every player to pair is paired exactly once


def _round_paired(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    if state.draft is not None:
        raise JournalError(f"round {state.draft.round} is already paired and not yet published")
    round_number = _int(p, "round", minimum=1)
    pairs, bye = _pairs(p.get("pairs")), _optional_int(p, "bye", minimum=1)
    t = state.t
    if t.system.is_round_robin and round_number == 1 and not t.rounds:
        t = replace(t, rounds_planned=round_robin_rounds(t))
        state = replace(state, tournament=t)
    _check_pairing(state, round_number, pairs, bye)
    method = _text(p, "method") or ("berger" if t.system.is_round_robin else "dutch")
    return replace(state, draft=DraftRound(round_number, method, pairs, bye))


def _overridden(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    draft = state.draft
    if draft is None:
        raise JournalError("there is no paired, unpublished round to override")
    if not _text(p, "reason"):
        raise JournalError("an override needs its reason, for the audit log")
    pairs, bye = _pairs(p.get("pairs")), _optional_int(p, "bye", minimum=1)
    _check_pairing(state, draft.round, pairs, bye)
    return replace(state, draft=replace(draft, pairs=pairs, bye=bye, overridden=True))


def _pairing_withdrawn(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    if state.draft is None:
        raise JournalError("there is no paired, unpublished round")
    return replace(state, draft=None)


def _published(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    draft = state.draft
    if draft is None:
        raise JournalError("pair the round before publishing it")
    if _int(p, "round", minimum=1) != draft.round:
        raise JournalError(f"round {draft.round} is the one paired")
    tournament = state.t.add_round(draft.pairs, pairing_bye=draft.bye, paired_at=at)
    return replace(state, tournament=tournament, draft=None)


def _linked(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    round_number, board = _int(p, "round", minimum=1), _int(p, "board", minimum=1)
    state.t.round(round_number).game(board)
    room_id = _text(p, "room_id", required=True, limit=64)
    if (round_number, board) in state.game_rooms:
        raise JournalError(f"round {round_number}, board {board} already has a game room")
    rooms = {**state.game_rooms, (round_number, board): room_id}
    return replace(state, game_rooms=MappingProxyType(rooms))


def _result(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    round_number, board = _int(p, "round", minimum=1), _int(p, "board", minimum=1)
    result = _game_result(p.get("result"))
    ended = _signed(p.get("ended_at"))
    tournament = state.t.record_result(round_number, board, result, _kazans(p.get("kazans")), ended)
    sources = {**state.result_sources, (round_number, board): _text(p, "source") or "arbiter"}
    return replace(state, tournament=tournament, result_sources=MappingProxyType(sources))


def _result_corrected(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    if not _text(p, "reason"):
        raise JournalError("a correction needs its reason, for the audit log")
    return _result(state, p, at)


def _warned(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    player = _int(p, "number", minimum=1)
    state.t.participant(player)
    reason = _text(p, "reason", required=True)
    warning = PlayerWarning(at, str(p.get("by", "")), player, _optional_int(p, "round", minimum=1), reason,
                      _text(p, "penalty"))  # fmt: skip
    return replace(state, warnings=(*state.warnings, warning))


def _protest_filed(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    protest_id = _text(p, "id", required=True, limit=32)
    if any(x.id == protest_id for x in state.protests):
        raise JournalError(f"protest {protest_id} already exists")
    round_number, board = _int(p, "round", minimum=1), _int(p, "board", minimum=1)
    facts = GameFacts.from_tournament(
        state.t, round_number, board, _signed(p.get("white_signed_at")), _signed(p.get("black_signed_at"))
    )
    try:
        role = FilerRole(_text(p, "role") or "representative")
    except ValueError:
        raise JournalError("the filer is a representative or a coach") from None
    filer = _text(p, "filed_by", required=True, limit=80)
    team = next((t.name for t in state.t.teams if filer in (*t.representatives, *t.coaches)), None)
    protest = _protest_desk(state, at).file(
        protest_id, facts, filer, role, _text(p, "text", required=True, limit=4000), team=team,
        fee_paid=_int(p, "fee_paid", default=0, minimum=0), fee_currency=_text(p, "currency") or None,
    )  # fmt: skip
    return _store_protest(state, protest)


def _protest_fee_paid(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    protest = state.protest(_text(p, "id", required=True))
    currency = _text(p, "currency") or protest.fee_currency
    paid = _protest_desk(state, at).pay_fee(protest, _int(p, "amount", minimum=0), currency, str(p.get("by", "")))
    return _store_protest(state, paid)


def _protest_convened(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    protest = state.protest(_text(p, "id", required=True))
    met = _protest_desk(state, at).convene(protest, _names(p, "board"), _names(p, "committee"))
    return _store_protest(state, met)


def _protest_decided(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    protest = state.protest(_text(p, "id", required=True))
    corrected = _game_result(p["corrected_result"]) if p.get("corrected_result") else None
    upheld = p.get("upheld")
    if not isinstance(upheld, bool):
        raise JournalError("'upheld' must be true or false")
    decided = _protest_desk(state, at).decide(protest, upheld, _names(p, "members"), _text(p, "reasons"), corrected)
    state = _store_protest(state, decided)
    tournament = apply_decision(state.t, decided)
    if tournament is not state.t:
        key = (decided.game.round, decided.game.board)
        sources = {**state.result_sources, key: f"protest {decided.id}"}
        state = replace(state, tournament=tournament, result_sources=MappingProxyType(sources))
    return state


def _protest_notified(state: TournamentState, p: Mapping[str, Any], at: datetime) -> TournamentState:
    protest = state.protest(_text(p, "id", required=True))
    return _store_protest(state, _protest_desk(state, at).notify(protest, _text(p, "recipient") or None))


_FOLD: dict[str, Fold] = {
    "tournament_created": _created,
    "tournament_configured": _reconfigured,
    "team_added": _team_added,
    "team_edited": _team_edited,
    "participant_added": _participant_added,
    "participants_imported": _participants_imported,
    "participant_edited": _participant_edited,
    "participants_renumbered": _renumbered_event,
    "participant_withdrawn": _withdrawn,
    "participant_expelled": _expelled,
    "bye_requested": _bye_requested,
    "round_paired": _round_paired,
    "pairing_overridden": _overridden,
    "pairing_discarded": _pairing_withdrawn,
    "round_published": _published,
    "game_room_linked": _linked,
    "result_entered": _result,
    "result_corrected": _result_corrected,
    "warning_issued": _warned,
    "protest_filed": _protest_filed,
    "protest_fee_paid": _protest_fee_paid,
    "protest_convened": _protest_convened,
    "protest_decided": _protest_decided,
    "protest_notified": _protest_notified,
}
EVENT_TYPES = frozenset(_FOLD)


# --- deciding ---------------------------------------------------------------------------------------------------


def _next_number(tournament: Tournament) -> int:
    return max((p.number for p in tournament.participants), default=0) + 1


def _decide_events(state: TournamentState, command: str, data: Mapping[str, Any]) -> list[tuple[str, Payload]]:
    if command == "create":
        return [("tournament_created", _settings_changes(state, data, creating=True))]
    t = state.t
    if command == "configure":
        return [("tournament_configured", _settings_changes(state, data, creating=False))]
    if command in ("add_team", "edit_team"):
        team = {
            "name": _text(data, "name", required=True, limit=80),
            "representatives": list(_names(data, "representatives")),
            "coaches": list(_names(data, "coaches")),
        }
        return [("team_added" if command == "add_team" else "team_edited", team)]  # fmt: skip
    if command == "add_participant":
        return [("participant_added", participant_payload(participant_from(data, _next_number(t))))]
    if command == "edit_participant":
        number = _int(data, "number", minimum=1)
        return [("participant_edited", participant_payload(participant_from(data, number)))]
    if command == "import_participants":
        rows = parse_participants_csv_lines(_text(data, "csv", required=True, limit=1_000_000), _next_number(t))
        problems, trial = [], t
        for line, person in rows:
            try:
                trial = trial.with_participant(person)
            except TournamentError as error:
                problems.append(f"line {line}: {error}")
        if problems:
            raise CsvImportError(problems)
        payloads = [{**participant_payload(p), "line": line} for line, p in rows]
        chunks = [payloads[i : i + IMPORT_CHUNK] for i in range(0, len(payloads), IMPORT_CHUNK)]
        return [("participants_imported", {"participants": chunk}) for chunk in chunks]
    if command == "seed_by_rating":
        return [("participants_renumbered", {"order": seeding_order(t)})]
    if command in ("withdraw", "expel"):
        number = _int(data, "number", minimum=1)
        default_after = len(t.rounds)
        after = _int(data, "after_round", default=default_after, minimum=0)
        kind = "participant_withdrawn" if command == "withdraw" else "participant_expelled"
        return [(kind, {"number": number, "after_round": after, "reason": _text(data, "reason")})]
    if command == "request_bye":
        code = _text(data, "code") or "H"
        if code not in ("H", "Z"):
            raise JournalError("a requested bye is H (half point) or Z (zero points)")
        number = _int(data, "number", minimum=1)
        round_number = _int(data, "round", default=state.next_round, minimum=1)
        return [("bye_requested", {"number": number, "round": round_number, "code": code})]
    if command == "pair_round":
        number = state.next_round
        if state.draft is not None:
            raise JournalError(f"round {state.draft.round} is already paired and not yet published")
        if t.system.is_round_robin:
            planned = round_robin_rounds(t) if not t.rounds else t.rounds_planned
            if number > planned:
                raise JournalError(f"all {planned} rounds have been paired")
            pairs, bye = berger_pairing(t, number)
            method = "berger"
        else:
            if number > t.rounds_planned:
                raise JournalError(f"all {t.rounds_planned} rounds have been paired")
            if t.rounds and not t.rounds[-1].complete:
                raise JournalError(f"round {number - 1} still has games without a result")
            if len(t.players_to_pair(number)) < 2:
                raise JournalError("fewer than 2 players to pair")
            pairs, bye = dutch_pairing(t, state.initial_colour)
            method = "dutch"
        return [("round_paired", {"round": number, "method": method, "pairs": [list(x) for x in pairs], "bye": bye})]
    if command == "override_pairing":
        if state.draft is None:
            raise JournalError("there is no paired, unpublished round to override")
        new_pairs = _pairs(data.get("pairs"))
        return [("pairing_overridden", {"round": state.draft.round, "pairs": [list(x) for x in new_pairs],
                                        "bye": _optional_int(data, "bye", minimum=1),
                                        "reason": _text(data, "reason", required=True)})]  # fmt: skip
    if command == "discard_pairing":
        if state.draft is None:
            raise JournalError("there is no paired, unpublished round")
        return [("pairing_discarded", {"round": state.draft.round, "reason": _text(data, "reason")})]
    if command == "publish_round":
        if state.draft is None:
            raise JournalError("pair the round before publishing it")
        return [("round_published", {"round": state.draft.round})]
    if command == "link_game_room":
        return [("game_room_linked", {"round": _int(data, "round", minimum=1), "board": _int(data, "board", minimum=1),
                                      "room_id": _text(data, "room_id", required=True, limit=64)})]  # fmt: skip
    if command == "enter_result":
        round_number, board = _int(data, "round", minimum=1), _int(data, "board", minimum=1)
        game = t.round(round_number).game(board)
        result = _game_result(data.get("result"))
        kazans = _kazans(data.get("kazans"))
        # A result without an end time ended when it was reported; a correction keeps the game's end time.
        ended = data.get("ended_at") or (game.ended_at.isoformat() if game.ended_at else data.get("at"))
        parse_at(ended)
        source = _text(data, "source") or "arbiter"
        payload: Payload = {"round": round_number, "board": board, "result": result.value, "source": source}
        if kazans is not None:
            payload["kazans"] = list(kazans)
        payload["ended_at"] = ended
        if game.result is None:
            return [("result_entered", payload)]
        if game.result is result and game.kazans == kazans:
            return []  # the same result again (a live game collected twice): nothing to record
        if source == "live":
            return []  # the arbiter's or a protest's result stands over a later report from the game room
        payload["previous"] = game.result.value
        payload["reason"] = _text(data, "reason", required=True)
        return [("result_corrected", payload)]
    if command == "warn":
        return [("warning_issued", {"number": _int(data, "number", minimum=1),
                                    "round": _optional_int(data, "round", minimum=1),
                                    "reason": _text(data, "reason", required=True),
                                    "penalty": _text(data, "penalty")})]  # fmt: skip
    if command == "file_protest":
        payload = {key: data.get(key) for key in ("round", "board", "filed_by", "role", "text", "fee_paid",
                                                   "currency", "white_signed_at", "black_signed_at")}  # fmt: skip
        payload["id"] = _text(data, "id") or f"P{len(state.protests) + 1}"
        return [("protest_filed", {k: v for k, v in payload.items() if v is not None})]
    if command == "pay_protest_fee":
        return [("protest_fee_paid", {"id": _text(data, "id", required=True), "amount": _int(data, "amount"),
                                      "currency": _text(data, "currency")})]  # fmt: skip
    if command == "convene_protest":
        return [("protest_convened", {"id": _text(data, "id", required=True),
                                      "board": list(_names(data, "board")),
                                      "committee": list(_names(data, "committee"))})]  # fmt: skip
    if command == "decide_protest":
        upheld = data.get("upheld")
        if isinstance(upheld, str):
            upheld = upheld.lower() in ("1", "true", "yes", "on", "upheld")
        corrected = data.get("corrected_result") or None
        if corrected is not None:
            corrected = _game_result(corrected).value
        return [("protest_decided", {"id": _text(data, "id", required=True), "upheld": bool(upheld),
                                     "members": list(_names(data, "members")),
                                     "reasons": _text(data, "reasons", required=True),
                                     "corrected_result": corrected})]  # fmt: skip
    if command == "notify_protest":
        return [("protest_notified", {"id": _text(data, "id", required=True),
                                      "recipient": _text(data, "recipient")})]  # fmt: skip
    raise JournalError(f"unknown tournament command {command!r}")


COMMANDS = frozenset(
    {
        "create", "configure", "add_team", "edit_team", "add_participant", "edit_participant",
        "import_participants", "seed_by_rating", "withdraw", "expel", "request_bye", "pair_round",
        "override_pairing", "discard_pairing", "publish_round", "link_game_room", "enter_result", "warn",
        "file_protest", "pay_protest_fee", "convene_protest", "decide_protest", "notify_protest",
    }
)  # fmt: skip


def decide(state: TournamentState, command: str, data: Mapping[str, Any], by: str) -> list[Event]:
    """The events of a command by ``by``, proven by folding them into a copy of ``state``.

    ``data["at"]`` is the aware ISO time of the command (the service stamps it). Raises a ``ValueError``
    (:class:`JournalError`, :class:`~toreshi.tournament.model.TournamentError`, :class:`ProtestError` …) with a
    clear message when the command cannot be carried out; nothing is decided then.
    """
    at = parse_at(data.get("at"))
    stamp = {"at": at.isoformat(), "by": by}
    events = [Event(kind, {**payload, **stamp}) for kind, payload in _decide_events(state, command, data)]
    trial = state
    for event in events:
        trial = apply_event(trial, event.type, event.payload)
    return events


def replay(events: Iterable[tuple[str, Mapping[str, Any]]]) -> TournamentState:
    """The state after a log of ``(type, payload)`` events."""
    state = TournamentState()
    for event_type, payload in events:
        state = apply_event(state, event_type, payload)
    return state


__all__ = [
    "COMMANDS",
    "CSV_FIELDS",
    "EVENT_TYPES",
    "AuditLine",
    "CsvImportError",
    "DraftRound",
    "Event",
    "JournalError",
    "PlayerWarning",
    "ProtestError",
    "TournamentState",
    "apply_event",
    "decide",
    "parse_participants_csv",
    "replay",
]
