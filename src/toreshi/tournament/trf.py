"""FIDE Tournament Report File (TRF16 and TRF-2026): read and write.

A TRF is one record per line; the first three characters are the record code. This module reads the records
that pairing and standings need into typed values and keeps every other line verbatim, so that
``format_trf(parse_trf(text))`` gives the text back (line ends normalised to the one chosen).

Line ends: CR (the FIDE standard, what bbpPairings writes), LF and CRLF are all accepted, even mixed.

Records understood:

- ``001`` player: pairing number, sex, title, name, rating, federation, FIDE id, birth date, points, rank and
  one 10-column block per round (opponent, colour ``w``/``b``/``-``, result code ``1 = 0 + - W D L H F U Z``);
- ``012`` tournament name; ``092``/``192`` tournament type; ``XXR``/``142`` number of rounds;
  ``XXC white1|black1`` / ``152 W|B`` the colour of the top seed in round 1.

>>> text = "012 Demo\\rXXR 2\\r" + player_line(PlayerRecord(1, "A", points=Fraction(1),
...     rounds=(TrfRound(2, Colour.WHITE, ResultCode.WIN),))) + "\\r"
>>> trf = parse_trf(text)
>>> trf.name, trf.rounds, trf.players[0].rounds[0].code.value
('Demo', 2, '1')
>>> format_trf(trf) == text
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction

from toreshi.tournament.model import Colour, ResultCode, Scoring

__all__ = [
    "Colour",
    "PlayerRecord",
    "RawLine",
    "ResultCode",
    "TrfError",
    "TrfFile",
    "TrfRound",
    "format_trf",
    "parse_trf",
    "player_line",
    "points_of",
    "to_trf16",
    "to_trf2026",
]


class TrfError(ValueError):
    """A TRF text that does not follow the format; the message names the line."""


_DEFAULT_SCORING = Scoring()


def points_of(code: ResultCode) -> Fraction:
    """Points of a result under the default point system (1, ½, 0; byes F/U 1, H ½, Z 0).

    >>> str(points_of(ResultCode.HALF_BYE)), str(points_of(ResultCode.FORFEIT_WIN))
    ('1/2', '1')
    """
    return _DEFAULT_SCORING.points(code)


@dataclass(frozen=True)
class TrfRound:
    """One 10-column round block of a ``001`` line.

    ``opponent`` is None for a bye or absence (``0000``); ``colour`` is None for ``-`` or blank.
    """

    opponent: int | None
    colour: Colour | None
    code: ResultCode

    def __post_init__(self) -> None:
        if not self.code.has_opponent and self.opponent is not None:
            raise TrfError(f"result {self.code.value!r} is a bye and cannot have an opponent ({self.opponent})")
        if self.code.has_opponent and self.opponent is None:
            raise TrfError(f"result {self.code.value!r} needs an opponent")
        if not self.code.has_opponent and self.colour is not None:
            raise TrfError(f"bye {self.code.value!r} cannot have a colour")

    @property
    def played(self) -> bool:
        """A game over the board: counts for rematches and colours (forfeits and byes do not)."""
        return self.code.played

    @property
    def points(self) -> Fraction:
        return points_of(self.code)


@dataclass(frozen=True)
class PlayerRecord:
    """A ``001`` record. ``rounds[r - 1]`` is round r; None where the block is blank."""

    number: int
    name: str = ""
    rating: int | None = None
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: Fraction = Fraction(0)
    rank: int | None = None
    rounds: tuple[TrfRound | None, ...] = ()

    def round(self, number: int) -> TrfRound | None:
        """The block of round ``number`` (1-based), None if blank or beyond the last block."""
        return self.rounds[number - 1] if 0 < number <= len(self.rounds) else None

    def computed_points(self, up_to_round: int | None = None) -> Fraction:
        """The sum of the results of rounds 1..up_to_round (all rounds when None)."""
        blocks = self.rounds if up_to_round is None else self.rounds[:up_to_round]
        return sum((b.points for b in blocks if b is not None), Fraction(0))


@dataclass(frozen=True)
class RawLine:
    """Any line kept as it was (headers, comments, unknown records, blank lines)."""

    text: str

    @property
    def code(self) -> str:
        return self.text[:3]


@dataclass(frozen=True)
class TrfFile:
    """A whole TRF: its lines in order, players parsed, everything else verbatim."""

    lines: tuple[PlayerRecord | RawLine, ...] = ()
    players: tuple[PlayerRecord, ...] = field(init=False)

    def __post_init__(self) -> None:
        players = sorted((x for x in self.lines if isinstance(x, PlayerRecord)), key=lambda p: p.number)
        seen: set[int] = set()
        for p in players:
            if p.number in seen:
                raise TrfError(f"pairing number {p.number} appears twice")
            seen.add(p.number)
        object.__setattr__(self, "players", tuple(players))

    def records(self, *codes: str) -> Iterator[RawLine]:
        """The lines of these record codes (``"260"``, ``"XXP"`` …), in file order."""
        return (line for line in self.lines if isinstance(line, RawLine) and line.code in codes)

    def _value(self, *codes: str) -> str | None:
        first = next(self.records(*codes), None)
        return first.text[4:].strip() if first is not None else None

    @property
    def name(self) -> str | None:
        """Tournament name (``012``)."""
        return self._value("012")

    @property
    def system(self) -> str | None:
        """Tournament type (``192``, else ``092``), e.g. ``FIDE_DUTCH_2025``."""
        return self._value("192") or self._value("092")

    @property
    def rounds(self) -> int | None:
        """Planned number of rounds (``XXR`` or TRF-2026 ``142``)."""
        value = self._value("XXR", "142")
        if value is None:
            return None
        try:
            rounds = int(value)
        except ValueError:
            raise TrfError(f"number of rounds {value!r} is not a number") from None
        if rounds < 1:
            raise TrfError(f"number of rounds must be positive, not {rounds}")
        return rounds

    @property
    def start_date(self) -> date | None:
        """The start date (``042``, ``YYYY/MM/DD``; ``-`` and ``.`` separators accepted); None if absent or unreadable.

        >>> parse_trf("042 2026/03/01\\r").start_date, parse_trf("042 soon\\r").start_date
        (datetime.date(2026, 3, 1), None)
        """
        value = self._value("042")
        match = re.fullmatch(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", value or "")
        if match is None:
            return None
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return None

    @property
    def initial_colour(self) -> Colour | None:
        """Top seed's round-1 colour from ``XXC white1|black1`` or ``152 W|B``; None if not given."""
        for line in self.lines:
            if not isinstance(line, RawLine):
                continue
            if line.code == "XXC":
                tokens = line.text[3:].split()
                if "white1" in tokens:
                    return Colour.WHITE
                if "black1" in tokens:
                    return Colour.BLACK
            elif line.code == "152":
                value = line.text[4:].strip()
                if value in ("W", "B"):
                    return Colour.WHITE if value == "W" else Colour.BLACK
                raise TrfError(f"152 record must be W or B, not {value!r}")
        return None

    @property
    def played_rounds(self) -> int:
        """The highest round with a non-blank block in any player line."""
        return max((len(p.rounds) for p in self.players), default=0)

    def player(self, number: int) -> PlayerRecord:
        for p in self.players:
            if p.number == number:
                return p
        raise TrfError(f"no player with pairing number {number}")

    def with_players(self, players: Iterable[PlayerRecord]) -> TrfFile:
        """The same file with these player records (replacing by number, new ones appended)."""
        new = {p.number: p for p in players}
        lines: list[PlayerRecord | RawLine] = []
        for line in self.lines:
            if isinstance(line, PlayerRecord) and line.number in new:
                lines.append(new.pop(line.number))
            else:
                lines.append(line)
        lines.extend(new[n] for n in sorted(new))
        return TrfFile(tuple(lines))

    def truncated(self, rounds: int) -> TrfFile:
        """Only rounds 1..rounds kept in every player line, points recomputed (default point system)."""
        return self.with_players(
            replace(p, rounds=p.rounds[:rounds], points=p.computed_points(rounds)) for p in self.players
        )

    def check_consistency(self) -> None:
        """Raise :class:`TrfError` if a game is not mirrored by the opponent's line or a points column is wrong."""
        by_number = {p.number: p for p in self.players}
        for p in self.players:
            if p.computed_points() != p.points:
                raise TrfError(
                    f"player {p.number}: points column {_format_points(p.points)} "
                    f"but the results add up to {_format_points(p.computed_points())}"
                )
            for index, block in enumerate(p.rounds, start=1):
                if block is None or block.opponent is None:
                    continue
                other = by_number.get(block.opponent)
                back = other.round(index) if other is not None else None
                if back is None or back.opponent != p.number:
                    raise TrfError(f"round {index}: player {p.number} met {block.opponent}, who does not list them")
                if block.played and (not back.played or back.colour == block.colour):
                    raise TrfError(f"round {index}: players {p.number} and {block.opponent} disagree on the game")


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def parse_trf(text: str) -> TrfFile:
    """Read a TRF text (any of CR, LF, CRLF line ends).

    Raises :class:`TrfError` with the line number for a malformed ``001`` line.
    """
    lines: list[PlayerRecord | RawLine] = []
    parts = _LINE_BREAK.split(text)
    if parts and parts[-1] == "":
        parts.pop()
    for number, line in enumerate(parts, start=1):
        if line.startswith("001"):
            try:
                lines.append(_parse_player(line))
            except TrfError as error:
                raise TrfError(f"line {number}: {error}") from None
        else:
            lines.append(RawLine(line))
    return TrfFile(tuple(lines))


def format_trf(trf: TrfFile, line_end: str = "\r") -> str:
    """Write a TRF; every line (the last included) ends with ``line_end`` (CR by default, as FIDE says)."""
    if line_end not in ("\r", "\n", "\r\n"):
        raise TrfError(f"line end must be CR, LF or CRLF, not {line_end!r}")
    out = [player_line(x) if isinstance(x, PlayerRecord) else x.text for x in trf.lines]
    return "".join(line + line_end for line in out)


def _field(line: str, first: int, last: int) -> str:
    """Columns first..last, 1-based and inclusive, as the TRF specification numbers them."""
    return line[first - 1 : last]


def _digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and other digits that ``int`` refuses or that no TRF
    writer means."""
    return text.isascii() and text.isdigit()


def _parse_points(text: str) -> Fraction:
    value = text.strip()
    if not value:
        return Fraction(0)
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", value):
        raise TrfError(f"points {value!r} are not a number")
    return Fraction(value)


def _parse_player(line: str) -> PlayerRecord:
    if len(line) < 84:
        line = line.ljust(84)
    number_text = _field(line, 5, 8).strip()
    if not _digits(number_text) or int(number_text) == 0:
        raise TrfError(f"pairing number {number_text!r} must be a positive number")
    number = int(number_text)
    rating_text = _field(line, 49, 52).strip()
    if rating_text and not _digits(rating_text):
        raise TrfError(f"rating {rating_text!r} is not a number")
    rank_text = _field(line, 86, 89).strip()
    if rank_text and not _digits(rank_text):
        raise TrfError(f"rank {rank_text!r} is not a number")
    rounds: list[TrfRound | None] = []
    start = 92
    while start <= len(line):
        block = line[start - 1 : start + 7].ljust(8)
        rounds.append(_parse_round(block, len(rounds) + 1, number))
        start += 10
    while rounds and rounds[-1] is None:
        rounds.pop()
    return PlayerRecord(
        number=number,
        name=_field(line, 15, 47).strip(),
        rating=int(rating_text) if rating_text else None,
        sex=_field(line, 10, 10).strip(),
        title=_field(line, 11, 13).strip(),
        federation=_field(line, 54, 56).strip(),
        fide_id=_field(line, 58, 68).strip(),
        birth_date=_field(line, 70, 79).strip(),
        points=_parse_points(_field(line, 81, 84)),
        rank=int(rank_text) if rank_text else None,
        rounds=tuple(rounds),
    )


_CODES = {code.value: code for code in ResultCode}


def _parse_round(block: str, round_number: int, player: int) -> TrfRound | None:
    opponent_text, colour_text, result_text = block[0:4], block[5], block[7]
    if block.strip() == "":
        return None
    where = f"round {round_number}"
    if opponent_text.strip() in ("", "0000"):
        opponent = None
    elif _digits(opponent_text.strip()):
        opponent = int(opponent_text.strip())
        if opponent == player:
            raise TrfError(f"{where}: player {player} is listed as their own opponent")
    else:
        raise TrfError(f"{where}: opponent {opponent_text!r} is not a pairing number")
    if colour_text in ("w", "W"):
        colour: Colour | None = Colour.WHITE
    elif colour_text in ("b", "B"):
        colour = Colour.BLACK
    elif colour_text in ("-", " "):
        colour = None
    else:
        raise TrfError(f"{where}: colour {colour_text!r} must be w, b or -")
    letter = result_text.upper() if result_text not in ("=", "+", "-") else result_text
    if letter == " ":
        code = ResultCode.ZERO_BYE  # a blank result is an absence (TRF16)
    elif letter in _CODES:
        code = _CODES[letter]
    else:
        raise TrfError(f"{where}: unknown result code {result_text!r}")
    if opponent is None and code.has_opponent:
        raise TrfError(f"{where}: result {code.value!r} needs an opponent")
    if opponent is not None and not code.has_opponent:
        raise TrfError(f"{where}: bye {code.value!r} cannot have an opponent")
    if code.played and colour is None:
        raise TrfError(f"{where}: a played game needs a colour")
    return TrfRound(opponent, colour, code)


def _format_points(points: Fraction) -> str:
    tenths = points * 10
    if tenths.denominator != 1:
        raise TrfError(f"points {points} cannot be written with one decimal")
    whole, rest = divmod(int(tenths), 10)
    return f"{whole}.{rest}"


def player_line(p: PlayerRecord) -> str:
    """The ``001`` line of a player (trailing blanks removed)."""
    if not 0 < p.number <= 9999:
        raise TrfError(f"pairing number {p.number} does not fit in 4 columns")
    head = (
        f"001 {p.number:>4} {p.sex:1.1}{p.title:>3.3} {p.name:<33.33} {'' if p.rating is None else p.rating:>4} "
        f"{p.federation:<3.3} {p.fide_id:>11.11} {p.birth_date:<10.10} {_format_points(p.points):>4} "
        f"{'' if p.rank is None else p.rank:>4}"
    )
    blocks = [_format_round(b) for b in p.rounds]
    return (head + "".join("  " + b for b in blocks)).rstrip()


def _format_round(block: TrfRound | None) -> str:
    if block is None:
        return " " * 8
    opponent = "0000" if block.opponent is None else f"{block.opponent:>4}"
    colour = "-" if block.colour is None else block.colour.value
    return f"{opponent} {colour} {block.code.value}"


def rounds_of(players: Sequence[PlayerRecord], round_number: int) -> dict[int, TrfRound | None]:
    """Each player's block of one round (None where blank)."""
    return {p.number: p.round(round_number) for p in players}


# --- TRF16 ⇄ TRF-2026 ------------------------------------------------------------------------------------------

_TRF2026_POINTS = "162 W 1.0     D 0.5     L 0.0     A 0.0     P 1.0"
"""The default point system written as a TRF-2026 ``162`` record (win, draw, loss, absence, pairing bye)."""


def to_trf2026(trf: TrfFile) -> TrfFile:
    """The same tournament in TRF-2026: ``142`` rounds for ``XXR``, ``152 W|B`` for ``XXC white1|black1``, the
    encoded type in ``192`` beside the free-text ``092``, and the point system in ``162``. Player records keep
    their (shared) layout; every other line is kept.

    >>> old = parse_trf("092 FIDE_DUTCH_2025\\rXXR 7\\rXXC black1\\r")
    >>> [line.text[:9] for line in to_trf2026(old).lines if isinstance(line, RawLine)]
    ['092 FIDE_', '192 FIDE_', '142 7', '152 B', '162 W 1.0']
    >>> to_trf16(to_trf2026(old)).rounds, to_trf16(to_trf2026(old)).initial_colour
    (7, <Colour.BLACK: 'b'>)
    """
    codes = {line.code for line in trf.lines if isinstance(line, RawLine)}
    lines: list[PlayerRecord | RawLine] = []
    for line in trf.lines:
        if isinstance(line, RawLine) and line.code == "XXR":
            lines.append(RawLine(f"142 {line.text[3:].strip()}"))
        elif isinstance(line, RawLine) and line.code == "XXC":
            tokens = line.text[3:].split()
            colour = "W" if "white1" in tokens else "B" if "black1" in tokens else None
            rest = [token for token in tokens if token not in ("white1", "black1")]
            if rest:
                lines.append(RawLine("XXC " + " ".join(rest)))
            if colour is not None:
                lines.append(RawLine(f"152 {colour}"))
        elif isinstance(line, RawLine) and line.code == "092" and "192" not in codes:
            lines.append(line)
            lines.append(RawLine(f"192 {line.text[4:].strip()}"))
        else:
            lines.append(line)
    if "162" not in codes:
        index = max(
            (
                i
                for i, line in enumerate(lines)
                if isinstance(line, RawLine) and line.code in ("142", "152", "192", "012")
            ),
            default=-1,
        )
        lines.insert(index + 1, RawLine(_TRF2026_POINTS))
    return TrfFile(tuple(lines))


def to_trf16(trf: TrfFile) -> TrfFile:
    """The same tournament in TRF16 with the JaVaFo/bbpPairings extensions: ``XXR`` for ``142``, ``XXC white1|black1``
    for ``152``; TRF-2026-only header records (``162``, ``192`` …) are kept, as TRF readers skip unknown records."""
    lines: list[PlayerRecord | RawLine] = []
    for line in trf.lines:
        if isinstance(line, RawLine) and line.code == "142":
            lines.append(RawLine(f"XXR {line.text[4:].strip()}"))
        elif isinstance(line, RawLine) and line.code == "152":
            value = line.text[4:].strip()
            if value in ("W", "B"):
                lines.append(RawLine("XXC " + ("white1" if value == "W" else "black1")))
        elif isinstance(line, RawLine) and line.code == "162" and line.text.strip() == _TRF2026_POINTS:
            continue  # the default point system, written by to_trf2026
        else:
            lines.append(line)
    return TrfFile(tuple(lines))
