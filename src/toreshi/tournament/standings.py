"""Standings: points first, then the tournament's tie-breaks in their configured order.

Players still level after every tie-break share a rank (listed by pairing number). Round-robin players whose
results were annulled under TK-R10 are listed after the ranked players, without a rank. The standings say which
version of FIDE C.07 they were computed by (``Standings.rules``): the tournament's setting, else the version in
force on its start date (:mod:`.tiebreak_rules`).

>>> from toreshi.tournament.model import Participant, RoundEntry, ResultCode, Colour, build_record
>>> people = [Participant(1, "Abenov"), Participant(2, "Bekov")]
>>> record = build_record(people, 1, {1: [RoundEntry(1, ResultCode.LOSS, 2, Colour.WHITE)],
...                                   2: [RoundEntry(1, ResultCode.WIN, 1, Colour.BLACK)]})
>>> [(row.rank, row.player.name, str(row.points)) for row in compute_standings(record, ["DE"]).rows]
[(1, 'Bekov', '1'), (2, 'Abenov', '0')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from toreshi.tournament.berger import berger_rounds
from toreshi.tournament.model import Participant, Record, ResultCode, RoundEntry, Scoring, Tournament, build_record
from toreshi.tournament.tiebreak_rules import TieBreakRules, choose_rules
from toreshi.tournament.tiebreaks import (
    TieBreak,
    TieBreakCode,
    Value,
    compute,
    direct_encounter_ranks,
    parse_order,
)
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound

DEFAULT_SWISS_TIEBREAKS = ("BH/C1", "BH", "SB", "DE", "WIN")
"""FIDE-style Swiss order (tournaments.md §5.4): Buchholz cut-1, Buchholz, Sonneborn–Berger, DE, wins."""
DEFAULT_ROUND_ROBIN_TIEBREAKS = ("DE", "BPTS", "WIN", "SB")
"""Togyz practice: the mutual result, then points as қостаушы (2014 championship), then FIDE's WIN and SB."""


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``values`` follow the tie-break order; for DE the value is the rank inside
    the tied group (lower is better), None where no tie needed it."""

    rank: int | None
    player: Participant
    points: Fraction
    values: tuple[Value, ...]
    shared: bool = False


@dataclass(frozen=True)
class Standings:
    tiebreaks: tuple[TieBreak, ...]
    rows: tuple[Standing, ...]
    record: Record
    rules: TieBreakRules = TieBreakRules.C07_2026
    """The version of FIDE C.07 the tie-breaks were computed by."""

    def row(self, player: int) -> Standing:
        for row in self.rows:
            if row.player.number == player:
                return row
        raise KeyError(player)

    def order(self) -> list[int]:
        """Pairing numbers from first place down (unranked players last)."""
        return [row.player.number for row in self.rows]


def compute_standings(
    record: Record,
    tiebreaks: Iterable[str | TieBreak] = (),
    rules: TieBreakRules = TieBreakRules.C07_2026,
) -> Standings:
    """Rank the players of ``record`` by points, then ``tiebreaks`` in order, by the C.07 version ``rules``."""
    order = parse_order(tiebreaks)
    players = record.ranked_players()
    points = {p: record.points(p) for p in players}
    values: dict[int, list[Value]] = {p: [None] * len(order) for p in players}
    groups = _split([sorted(players)], {p: (0, -points[p]) for p in players})
    for index, tiebreak in enumerate(order):
        if tiebreak.code is TieBreakCode.DE:
            ranks: dict[int, int] = {}
            for group in groups:
                if len(group) > 1:
                    ranks.update(direct_encounter_ranks(record, group))
            for p, r in ranks.items():
                values[p][index] = Fraction(r)
            groups = _split(groups, {p: (0, Fraction(ranks.get(p, 0))) for p in players})
        else:
            computed = compute(tiebreak, record, rules)
            for p in players:
                values[p][index] = computed[p]
            groups = _split(groups, {p: _descending(computed[p]) for p in players})
    rows: list[Standing] = []
    position = 1
    for group in groups:
        for p in sorted(group):
            rows.append(Standing(position, record.participants[p], points[p], tuple(values[p]), len(group) > 1))
        position += len(group)
    for p in sorted(record.excluded):
        rows.append(Standing(None, record.participants[p], record.points(p), (None,) * len(order)))
    return Standings(order, tuple(rows), record, rules)


def _descending(value: Value) -> tuple[int, Fraction]:
    # Higher values first; a value that cannot be computed (ARO without rated opponents) last.
    return (1, Fraction(0)) if value is None else (0, -value)


def _split(groups: list[list[int]], key: Mapping[int, tuple[int, Fraction]]) -> list[list[int]]:
    """Each group cut into smaller groups by ``key``, best (smallest key) first."""
    result: list[list[int]] = []
    for group in groups:
        for value in sorted({key[p] for p in group}):
            result.append([p for p in group if key[p] == value])
    return result


def standings_for(tournament: Tournament) -> Standings:
    """The standings of a tournament by its own tie-break order (or the system's default order), by the C.07
    version it names, else the one in force on its start date."""
    default = DEFAULT_ROUND_ROBIN_TIEBREAKS if tournament.system.is_round_robin else DEFAULT_SWISS_TIEBREAKS
    rules = choose_rules(tournament.tiebreak_rules, tournament.start)
    return compute_standings(tournament.record(), tournament.tiebreaks or default, rules)


# --- TRF --------------------------------------------------------------------------------------------------


_ROUND_ROBIN_WORDS = ("ROBIN", "BERGER", "RR")


def is_round_robin_trf(trf: TrfFile) -> bool:
    """Whether the tournament type (``192``/``092``) names a round robin; anything else is ranked as a Swiss.

    (FIDE's TieBreakServer also guesses a round robin from the player and round counts when the type does not
    say ``SWISS``; we do not guess: a Dutch file of 10 players and 9 rounds is a Swiss.)
    """
    kind = (trf.system or "").upper()
    return any(word in kind for word in _ROUND_ROBIN_WORDS)


def record_from_trf(trf: TrfFile, scoring: Scoring | None = None, round_robin: bool | None = None) -> Record:
    """The record of a parsed TRF. Blank round blocks inside the played rounds are absences (``Z``).

    ``round_robin`` defaults to :func:`is_round_robin_trf`. A round robin of twice as many rounds as one cycle
    needs is a double round robin (two games per pair, e.g. for Koya's maximum).
    """
    if round_robin is None:
        round_robin = is_round_robin_trf(trf)
    rounds = trf.played_rounds
    participants = {
        p.number: Participant(
            p.number,
            p.name.strip() or f"Player {p.number}",
            rating=p.rating or None,
            federation=p.federation or None,
            federation_id=p.fide_id or None,
            title=p.title or None,
            sex=p.sex or None,
        )
        for p in trf.players
    }
    entries: dict[int, list[RoundEntry]] = {}
    for p in trf.players:
        entries[p.number] = []
        for rnd in range(1, rounds + 1):
            block = p.round(rnd)
            if block is None:
                entries[p.number].append(RoundEntry(rnd, ResultCode.ZERO_BYE))
            else:
                entries[p.number].append(RoundEntry(rnd, block.code, block.opponent, block.colour))
    cycle = berger_rounds(len(participants))
    planned = trf.rounds or rounds
    cycles = 2 if round_robin and cycle > 0 and planned == 2 * cycle else 1
    return build_record(participants.values(), rounds, entries, scoring, round_robin, cycles)


def standings_from_trf(
    trf: TrfFile,
    tiebreaks: Sequence[str | TieBreak] | None = None,
    scoring: Scoring | None = None,
    round_robin: bool | None = None,
    rules: TieBreakRules | None = None,
) -> Standings:
    """Standings of a parsed TRF (what ``toreshi tournament standings FILE.trf`` prints).

    ``rules`` defaults to the C.07 version in force on the file's start date (``042``), the newest without one.
    """
    record = record_from_trf(trf, scoring, round_robin)
    if tiebreaks is None:
        tiebreaks = DEFAULT_ROUND_ROBIN_TIEBREAKS if record.round_robin else DEFAULT_SWISS_TIEBREAKS
    return compute_standings(record, tiebreaks, choose_rules(rules, trf.start_date))


def trf_from_standings(
    standings: Standings,
    name: str,
    rounds_planned: int | None = None,
    system: str | None = None,
) -> TrfFile:
    """A TRF of the results and the final ranks (``012``, ``092``, ``XXR``, ``202`` and one ``001`` per player).

    Games annulled under TK-R10 are written from both sides, as played: a TRF records what happened, and its
    points column (the sum of the round results) is what pairing programs check.
    """
    record = standings.record
    lines: list[PlayerRecord | RawLine] = [RawLine(f"012 {name}")]
    if system:
        lines.append(RawLine(f"092 {system}"))
    lines.append(RawLine(f"XXR {rounds_planned or record.rounds}"))
    if standings.tiebreaks:
        lines.append(RawLine("202 " + ",".join(str(tb) for tb in standings.tiebreaks)))
    ranks = {row.player.number: row.rank for row in standings.rows}
    for number in sorted(record.participants):
        p = record.participants[number]
        blocks: list[TrfRound | None] = []
        for rnd in range(1, record.rounds + 1):
            entry = record.entries.get(number, {}).get(rnd) or _annulled_reply(record, number, rnd)
            blocks.append(None if entry is None else TrfRound(entry.opponent, entry.colour, entry.code))
        points = sum((record.scoring.points(b.code) for b in blocks if b is not None), Fraction(0))
        lines.append(
            PlayerRecord(
                number,
                p.name,
                rating=p.rating,
                sex=p.sex or "",
                title=p.title or "",
                federation=p.federation or "",
                fide_id=p.federation_id or "",
                birth_date=p.birth_date.strftime("%Y/%m/%d") if p.birth_date else "",
                points=points,
                rank=ranks.get(number),
                rounds=tuple(blocks),
            )
        )
    return TrfFile(tuple(lines))


def _annulled_reply(record: Record, player: int, rnd: int) -> RoundEntry | None:
    """The game an annulled (excluded) opponent's line still shows, seen from ``player``'s side."""
    for gone in record.excluded:
        entry = record.entries.get(gone, {}).get(rnd)
        if entry is not None and entry.opponent == player:
            code = ResultCode.FORFEIT_WIN if entry.code is ResultCode.FORFEIT_LOSS else entry.code.reversed
            colour = entry.colour.other if entry.colour is not None else None
            return RoundEntry(rnd, code, gone, colour)
    return None
