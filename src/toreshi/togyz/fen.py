"""PlayStrategy's FEN for togyz kumalak (rules §6.4): read and write.

``<North row>/<South row> <South kazan> <North kazan> <S|N> <full-move number>``. South is the first
player (White, бастаушы), North the second (Black). The North row is written from North's hole 9 down to
hole 1, the South row from hole 1 up to 9. ``<n>S`` is a hole with n kumalaks, a bare digit k is k empty
holes, and ``t`` is a tuzdyk, which belongs to the player *opposite* the row it stands in.

>>> from toreshi.togyz import Position
>>> to_fen(Position())
'9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1'
>>> pos = Position()
>>> _ = pos.play(6)
>>> to_fen(pos)
'9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1'
>>> from_fen(to_fen(pos)) == pos
True
"""

from __future__ import annotations

from toreshi.togyz.position import BLACK, HOLES, WHITE, InvalidPositionError, Position, Side

STARTING_FEN = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"


MAX_DIGITS = 6
"""The longest number a FEN field may hold: a board has 162 kumalaks, and a game some hundreds of moves. A longer
one is refused before ``int`` reads it (Python refuses over 4300 digits with a bare ValueError; found by fuzzing)."""


class InvalidFenError(ValueError):
    """A FEN that cannot be read; the message names the field and what is wrong."""


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def _write_row(counts: list[int], tuzdyk_index: int | None) -> str:
    tokens: list[str] = []
    empty = 0
    for index, count in enumerate(counts):
        if index == tuzdyk_index:
            if empty:
                tokens.append(str(empty))
                empty = 0
            tokens.append("t")
        elif count == 0:
            empty += 1
        else:
            if empty:
                tokens.append(str(empty))
                empty = 0
            tokens.append(f"{count}S")
    if empty:
        tokens.append(str(empty))
    return ",".join(tokens)


def to_fen(position: Position) -> str:
    """The position as PlayStrategy writes it, with full-move semantics for the last field."""
    white_row = list(position.holes(WHITE))
    black_row = list(position.holes(BLACK))
    white_tuzdyk = position.tuzdyk(WHITE)  # stands on Black's (North's) row
    black_tuzdyk = position.tuzdyk(BLACK)  # stands on White's (South's) row
    north = _write_row(black_row[::-1], None if white_tuzdyk is None else HOLES - white_tuzdyk)
    south = _write_row(white_row, None if black_tuzdyk is None else black_tuzdyk - 1)
    kazans = position.kazans
    side = "S" if position.turn is WHITE else "N"
    fullmove = position.ply // 2 + 1
    return f"{north}/{south} {kazans[0]} {kazans[1]} {side} {fullmove}"


def _read_row(text: str, name: str) -> tuple[list[int], int | None]:
    counts: list[int] = []
    tuzdyk: int | None = None
    if not text:
        raise InvalidFenError(f"the {name} row is empty")
    for token in text.split(","):
        if token == "t":
            if tuzdyk is not None:
                raise InvalidFenError(f"the {name} row has two tuzdyks")
            tuzdyk = len(counts)
            counts.append(0)
        elif token.endswith("S") and _is_number(token[:-1]):
            count = int(token[:-1])
            if count == 0:
                raise InvalidFenError(f"the {name} row writes an empty hole as '0S'; use a bare digit")
            counts.append(count)
        elif _is_number(token) and 1 <= int(token) <= HOLES:
            counts.extend([0] * int(token))
        else:
            raise InvalidFenError(f"the {name} row has an unreadable token {token[:20]!r}")
    if len(counts) != HOLES:
        raise InvalidFenError(f"the {name} row describes {len(counts)} holes, not 9")
    return counts, tuzdyk


def from_fen(fen: str) -> Position:
    """Read a FEN; raises :class:`InvalidFenError` (a ``ValueError``) with the reason.

    The move-number field is read leniently: any positive number (of up to six digits) is accepted.
    """
    fields = fen.split()
    if len(fields) not in (4, 5):
        raise InvalidFenError(f"a FEN has 5 space-separated fields, this one has {len(fields)}")
    board, south_kazan, north_kazan, side = fields[:4]
    fullmove_text = fields[4] if len(fields) == 5 else "1"
    rows = board.split("/")
    if len(rows) != 2:
        raise InvalidFenError("the board field needs two rows separated by '/'")
    north, north_t = _read_row(rows[0], "North")
    south, south_t = _read_row(rows[1], "South")
    for text, name in ((south_kazan, "South"), (north_kazan, "North")):
        if not _is_number(text):
            raise InvalidFenError(f"the {name} kazan must be a number, not {text[:20]!r}")
    if side not in ("S", "N"):
        raise InvalidFenError(f"the side to move must be 'S' or 'N', not {side[:20]!r}")
    if not _is_number(fullmove_text) or int(fullmove_text) < 1:
        raise InvalidFenError(f"the move number must be a positive number, not {fullmove_text[:20]!r}")
    turn = WHITE if side == "S" else BLACK
    ply = 2 * int(fullmove_text) - 2 + (turn is BLACK)
    try:
        return Position.from_parts(
            south,
            north[::-1],
            (int(south_kazan), int(north_kazan)),
            turn=Side(turn),
            # a 't' in the North row is South's (White's) tuzdyk: North's file a is hole 9
            white_tuzdyk=None if north_t is None else HOLES - north_t,
            black_tuzdyk=None if south_t is None else south_t + 1,
            ply=ply,
        )
    except InvalidPositionError as error:
        raise InvalidFenError(str(error)) from None
