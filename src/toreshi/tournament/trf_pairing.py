"""The TRF records that steer the pairing: prohibited pairings and accelerations (read and written).

* **Prohibited pairings** (players of one club or family the organiser keeps apart): TRF-2026 record ``260``
  (rounds at columns 5–7 and 9–11, then player ids in 4 columns each from column 13, every 5 columns) or the
  older JaVaFo/bbpPairings ``XXP id id …`` (every round). All the players listed on one line are kept apart
  from each other. The Dutch engine treats them as C1 (absolute), as bbpPairings does.
* **Accelerations** (virtual points added to the pairing score only): TRF-2026 record ``250`` (match points at
  columns 5–8, empty for individual events; game points at 10–13; rounds at 15–17 and 19–21; the first and
  last player id at 23–26 and 28–31), or JaVaFo's ``XXA id pp.p pp.p …`` (one value per round, from column
  10 every 5 columns). Where several records cover one player and round, the last one counts, as in
  bbpPairings. :func:`baku_accelerations` makes the records of FIDE's Baku method (C.04.5.1).

>>> line = forbidden_line(ForbiddenPairs((3, 17, 4)))
>>> line
'260   1 999    3   17    4'
>>> read_forbidden(parse_trf(line + "\\r"))
(ForbiddenPairs(players=(3, 17, 4), first_round=1, last_round=999),)
>>> acceleration_line(Acceleration(Fraction(1), 1, 3, 1, 6))
'250       1.0   1   3    1    6'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from toreshi.tournament.trf import PlayerRecord, RawLine, TrfError, TrfFile, parse_trf

__all__ = [
    "ALL_ROUNDS",
    "Acceleration",
    "ForbiddenPairs",
    "acceleration_line",
    "acceleration_of",
    "baku_accelerations",
    "forbidden_in_round",
    "forbidden_line",
    "is_baku",
    "parse_trf",
    "read_accelerations",
    "read_forbidden",
    "with_accelerations",
    "with_forbidden",
]

ALL_ROUNDS = 999
"""The last round of a prohibition meant for the whole tournament (the largest number 3 columns hold)."""


@dataclass(frozen=True)
class ForbiddenPairs:
    """Players who must not be paired with each other in rounds ``first_round``..``last_round``."""

    players: tuple[int, ...]
    first_round: int = 1
    last_round: int = ALL_ROUNDS

    def __post_init__(self) -> None:
        if len(set(self.players)) < 2:
            raise TrfError(f"a prohibited pairing needs two different players, not {list(self.players)}")
        if min(self.players) < 1 or max(self.players) > 9999:
            raise TrfError(f"player ids must be 1..9999, not {list(self.players)}")
        if not 1 <= self.first_round <= self.last_round <= ALL_ROUNDS:
            raise TrfError(f"rounds {self.first_round}..{self.last_round} are not a range of rounds")

    def applies(self, round_number: int) -> bool:
        return self.first_round <= round_number <= self.last_round


@dataclass(frozen=True)
class Acceleration:
    """``points`` virtual game points for players ``first_player``..``last_player`` (pairing ids) in rounds
    ``first_round``..``last_round``."""

    points: Fraction
    first_round: int
    last_round: int
    first_player: int
    last_player: int

    def __post_init__(self) -> None:
        if self.points <= 0 or (self.points * 10).denominator != 1 or self.points >= 100:
            raise TrfError(f"acceleration points must be positive tenths below 100, not {self.points}")
        if not 1 <= self.first_round <= self.last_round <= ALL_ROUNDS:
            raise TrfError(f"rounds {self.first_round}..{self.last_round} are not a range of rounds")
        if not 1 <= self.first_player <= self.last_player <= 9999:
            raise TrfError(f"players {self.first_player}..{self.last_player} are not a range of ids")

    def covers(self, player: int, round_number: int) -> bool:
        return self.first_player <= player <= self.last_player and self.first_round <= round_number <= self.last_round


# --- reading ---------------------------------------------------------------------------------------------------


MAX_DIGITS = 6
"""The longest number a prohibition or acceleration holds (player ids and rounds are four digits at most in TRF);
a longer one is refused before ``int``, which raises a bare ValueError past 4300 digits (found by fuzzing)."""


def _number(text: str, what: str, line: str) -> int:
    value = text.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= MAX_DIGITS):
        raise TrfError(f"{what} {value[:20]!r} is not a number in {line.rstrip()[:80]!r}")
    return int(value)


def _tenths(text: str, line: str) -> Fraction:
    value = text.strip()
    try:
        return Fraction(value)
    except ValueError:
        raise TrfError(f"points {value!r} are not a number in {line.rstrip()[:80]!r}") from None


def _parse_260(line: str) -> ForbiddenPairs:
    first = _number(line[4:7], "first round", line)
    last = _number(line[8:11], "last round", line)
    rest = line[12:]
    ids = [_number(rest[i : i + 4], "player id", line) for i in range(0, len(rest.rstrip()), 5)]
    return ForbiddenPairs(tuple(ids), first, last)


def _parse_xxp(line: str) -> ForbiddenPairs:
    ids = [_number(token, "player id", line) for token in line[3:].split()]
    return ForbiddenPairs(tuple(ids))


def read_forbidden(trf: TrfFile) -> tuple[ForbiddenPairs, ...]:
    """Every prohibition of the file (``260`` and ``XXP`` lines), in file order."""
    return tuple(_parse_260(line.text) if line.code == "260" else _parse_xxp(line.text)
                 for line in trf.records("260", "XXP"))  # fmt: skip


def forbidden_in_round(entries: Iterable[ForbiddenPairs], round_number: int) -> dict[int, frozenset[int]]:
    """For each player, the players they may not meet in ``round_number``."""
    barred: dict[int, set[int]] = {}
    for entry in entries:
        if entry.applies(round_number):
            for player in entry.players:
                barred.setdefault(player, set()).update(p for p in entry.players if p != player)
    return {player: frozenset(others) for player, others in barred.items()}


def _parse_250(line: str) -> Acceleration:
    if line[4:8].strip():
        raise TrfError(f"match-point accelerations are for team events: {line.rstrip()!r}")
    return Acceleration(
        _tenths(line[9:13], line),
        _number(line[14:17], "first round", line),
        _number(line[18:21], "last round", line),
        _number(line[22:26], "first player", line),
        _number(line[27:31], "last player", line),
    )


def _parse_xxa(line: str) -> list[Acceleration]:
    player = _number(line[4:8], "player id", line)
    found = []
    for index, start in enumerate(range(9, len(line.rstrip()), 5), start=1):
        cell = line[start : start + 4]
        if cell.strip() and _tenths(cell, line) != 0:
            found.append(Acceleration(_tenths(cell, line), index, index, player, player))
    return found


def read_accelerations(trf: TrfFile) -> tuple[Acceleration, ...]:
    """Every acceleration of the file (``250`` and ``XXA`` lines), in file order."""
    found: list[Acceleration] = []
    for line in trf.records("250", "XXA"):
        found.extend([_parse_250(line.text)] if line.code == "250" else _parse_xxa(line.text))
    return tuple(found)


def acceleration_of(entries: Sequence[Acceleration], player: int, round_number: int) -> Fraction:
    """The virtual points of ``player`` when ``round_number`` is paired: the last record covering them."""
    for entry in reversed(entries):
        if entry.covers(player, round_number):
            return entry.points
    return Fraction(0)


def is_baku(trf: TrfFile) -> bool:
    """Whether the tournament type asks for Baku acceleration (``FIDE_DUTCH_2025_BAKU``, ``FIDE_DUTCH_BAKU``)."""
    return (trf.system or "").upper().endswith("_BAKU")


# --- Baku acceleration (C.04.5.1) --------------------------------------------------------------------------------


def baku_accelerations(
    players_in_order: Sequence[int], rounds: int, win: Fraction = Fraction(1), draw: Fraction = Fraction(1, 2)
) -> tuple[Acceleration, ...]:
    """The Baku method's virtual points as ``250`` records.

    GA is the first half of the players in pairing order, rounded up to an even number (2 × ⌈n / 4⌉); the
    accelerated rounds are the first half of the rounds, rounded up; GA players get a win's points in the
    first half (rounded up) of those and a draw's in the rest. ``players_in_order`` must be consecutive pairing
    ids (GA is written as one id range).

    >>> [(a.points, a.first_round, a.last_round, a.last_player) for a in baku_accelerations(range(1, 11), 9)]
    [(Fraction(1, 1), 1, 3, 6), (Fraction(1, 2), 4, 5, 6)]
    """
    ids = list(players_in_order)
    if not ids or rounds < 1:
        return ()
    if ids != list(range(ids[0], ids[0] + len(ids))):
        raise TrfError("Baku acceleration needs the players' pairing ids in order without gaps")
    if win != 2 * draw:
        raise TrfError("the Baku method needs a point system where a win is worth two draws")
    group = 2 * -(-len(ids) // 4)
    accelerated = -(-rounds // 2)
    full = -(-accelerated // 2)
    last_id = ids[min(group, len(ids)) - 1]
    records = [Acceleration(win, 1, full, ids[0], last_id)]
    if accelerated > full:
        records.append(Acceleration(draw, full + 1, accelerated, ids[0], last_id))
    return tuple(records)


# --- writing ---------------------------------------------------------------------------------------------------


def _points_text(points: Fraction) -> str:
    tenths = points * 10
    whole, rest = divmod(int(tenths), 10)
    return f"{whole}.{rest}"


def forbidden_line(entry: ForbiddenPairs) -> str:
    """The TRF-2026 ``260`` record of a prohibition."""
    ids = "".join(f" {p:>4}" for p in entry.players)
    return f"260 {entry.first_round:>3} {entry.last_round:>3}{ids}"


def acceleration_line(entry: Acceleration) -> str:
    """The TRF-2026 ``250`` record of an acceleration."""
    return (
        f"250 {'':4} {_points_text(entry.points):>4} {entry.first_round:>3} {entry.last_round:>3}"
        f" {entry.first_player:>4} {entry.last_player:>4}"
    )


def _replace(trf: TrfFile, codes: tuple[str, ...], new: list[str]) -> TrfFile:
    """The file with every line of ``codes`` removed and ``new`` put where the first was, else before the
    first player."""
    kept: list[PlayerRecord | RawLine] = []
    at: int | None = None
    for line in trf.lines:
        if isinstance(line, RawLine) and line.code in codes:
            at = len(kept) if at is None else at
            continue
        kept.append(line)
    if at is None:
        at = next((i for i, line in enumerate(kept) if isinstance(line, PlayerRecord)), len(kept))
    return TrfFile((*kept[:at], *(RawLine(text) for text in new), *kept[at:]))


def with_forbidden(trf: TrfFile, entries: Iterable[ForbiddenPairs]) -> TrfFile:
    """The file with these prohibitions as ``260`` records (replacing its ``260`` and ``XXP`` lines)."""
    return _replace(trf, ("260", "XXP"), [forbidden_line(e) for e in entries])


def with_accelerations(trf: TrfFile, entries: Iterable[Acceleration]) -> TrfFile:
    """The file with these accelerations as ``250`` records (replacing its ``250`` and ``XXA`` lines)."""
    return _replace(trf, ("250", "XXA"), [acceleration_line(e) for e in entries])
