"""A finished (or running) game written out: PlayOK PGN with clock times, and the content of its score sheet.

The PGN is PlayOK's dialect (rules §6.3) — tags, ``N. white black`` movetext with annotated two-digit tokens, the
result, ``{zero}`` after an atsyz ending — plus a comment after each pressed move with the mover's time left in the
``[%clk H:MM:SS]`` form lichess and python-chess use, and a ``{=}`` comment after a move with a draw offer
(TK-R8). Comments are where PGN readers expect unknown annotations, so a plain PlayOK reader still gets the moves.

>>> from toreshi.clock import BLITZ
>>> from toreshi.togyz.match.game import MatchGame
>>> from toreshi.togyz.position import BLACK, WHITE
>>> game = MatchGame.create("Abay", "Bolat", BLITZ, now_ms=0).start(now_ms=0)
>>> game = game.move(WHITE, 7, now_ms=5_000, offer_draw=True).move(BLACK, 9, now_ms=12_000)
>>> print(to_pgn(game.state, {"Event": "Club", "Date": "2026.11.30"}), end="")
[Event "Club"]
[Site "toreshi"]
[Date "2026.11.30"]
[Round "-"]
[White "Abay"]
[Black "Bolat"]
[Result "*"]
[TimeControl "420"]
<BLANKLINE>
1. 76(10) {[%clk 0:06:55]} {=} 98 {[%clk 0:06:53]} *
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toreshi.clock.timecontrol import TimeControl
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.state import GameState
from toreshi.togyz.position import WHITE, Termination

_PGN_RESULTS = {
    GameResult.WHITE_WINS: "1-0",
    GameResult.BLACK_WINS: "0-1",
    GameResult.DRAW: "1/2-1/2",
    GameResult.WHITE_FORFEIT_WIN: "1-0",
    GameResult.BLACK_FORFEIT_WIN: "0-1",
    GameResult.DOUBLE_FORFEIT: "*",
}
"""PGN has no forfeit token: a forfeit is written as the points it gives, with a ``Forfeit`` tag saying so."""


def format_clock(ms: int) -> str:
    """``H:MM:SS``, rounded down to the second (a display never shows time the player does not have).

    >>> format_clock(415_999), format_clock(3_600_000)
    ('0:06:55', '1:00:00')
    """
    seconds = ms // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def pgn_time_control(control: TimeControl) -> str:
    """PGN's TimeControl tag in seconds: ``420``, ``420+2``, ``40/7200:3600``.

    >>> from toreshi.clock import CLASSICAL_40_2H_1H
    >>> pgn_time_control(CLASSICAL_40_2H_1H)
    '40/7200:3600'
    """
    parts = []
    for period in control.periods:
        seconds = f"{period.time_ms / 1000:g}"
        parts.append(seconds if period.moves is None else f"{period.moves}/{seconds}")
    text = ":".join(parts)
    if control.increment_ms:
        text += f"+{control.increment_ms / 1000:g}"
    if control.delay_ms:
        text += f"d{control.delay_ms / 1000:g}"
    return text


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def to_pgn(state: GameState, headers: Mapping[str, str] | None = None, *, columns: int = 80) -> str:
    """The game in PlayOK PGN with clock comments. ``headers`` adds or overrides tags (Event, Date, Round…)."""
    result = state.result
    tags = {
        "Event": state.event or "?",
        "Site": "toreshi",
        "Date": "????.??.??",
        "Round": state.round or "-",
        "White": state.white,
        "Black": state.black,
        "Result": _PGN_RESULTS[result] if result else "*",
        "TimeControl": pgn_time_control(state.control),
    }
    if result is not None and result.is_forfeit:
        tags["Forfeit"] = result.value
    if state.ending is not None and state.ending.termination not in (Termination.KAZAN, Termination.ATSYZ):
        tags["Termination"] = state.ending.termination.value
    tags.update(headers or {})
    words: list[str] = []
    for index, ply in enumerate(state.plies):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(ply.token)
        if ply.clock_after_ms is not None:
            words.append(f"{{[%clk {format_clock(ply.clock_after_ms)}]}}")
        if ply.draw_offered:
            words.append("{=}")
    words.append(tags["Result"])
    if state.ending is not None and state.ending.termination is Termination.ATSYZ:
        words.append("{zero}")
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > columns:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    tag_lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in tags.items()]
    return "\n".join([*tag_lines, "", *lines]) + "\n\n"


@dataclass(frozen=True, slots=True)
class SheetMove:
    """One move number of a score sheet: White's and Black's tokens, each with its ``=`` mark (TK-R8)."""

    number: int
    white: str
    black: str
    white_offer: bool = False
    black_offer: bool = False


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """What the printed score sheet (жазу бланкасы) holds, in the order of the form: the heading, the moves in
    two columns with their ``=`` marks, the result and whether each player signed. The web layer prints it in
    the page's language; in blitz and rapid (``kept`` false, TK-B2) it is the record only, with no signatures."""

    white: str
    black: str
    event: str
    round: str
    board: int | None
    control: TimeControl
    moves: tuple[SheetMove, ...]
    result: GameResult | None
    kept: bool
    """Score sheets are kept in this game (not blitz or rapid, TK-B2): the players sign it."""
    signed: tuple[bool, bool]


def score_sheet(state: GameState) -> ScoreSheet:
    """The score sheet of a game as it stands.

    >>> from toreshi.clock import CLASSICAL_60
    >>> from toreshi.togyz.match.game import MatchGame
    >>> game = MatchGame.create("Abay", "Bolat", CLASSICAL_60, now_ms=0).start(now_ms=0)
    >>> game = game.move(WHITE, 7, now_ms=1_000, offer_draw=True).move(WHITE.other, 9, now_ms=2_000)
    >>> score_sheet(game.state).moves
    (SheetMove(number=1, white='76(10)', black='98', white_offer=True, black_offer=False),)
    """
    moves = []
    for number, start in enumerate(range(0, len(state.plies), 2), start=1):
        pair = state.plies[start : start + 2]
        black = pair[1] if len(pair) > 1 else None
        moves.append(
            SheetMove(
                number,
                pair[0].token,
                black.token if black else "",
                pair[0].draw_offered,
                black.draw_offered if black else False,
            )
        )
    signed = (state.signed_at[WHITE] is not None, state.signed_at[WHITE.other] is not None)
    return ScoreSheet(
        state.white,
        state.black,
        state.event,
        state.round,
        state.board_number,
        state.control,
        tuple(moves),
        state.result,
        state.keeps_score_sheets,
        signed,
    )
