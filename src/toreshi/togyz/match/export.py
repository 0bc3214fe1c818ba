"""A finished (or running) game written out: PlayOK PGN with clock times, and a printable HTML score sheet.

The PGN is PlayOK's dialect (rules §6.3) — tags, ``N. white black`` movetext with annotated two-digit tokens, the
result, ``{zero}`` after an atsyz ending — plus a comment after each pressed move with the mover's time left in the
``[%clk H:MM:SS]`` form lichess and python-chess use, and a ``{=}`` comment after a move with a draw offer
(TK-R8). Comments are where PGN readers expect unknown annotations, so a plain PlayOK reader still gets the moves.

>>> from toreshi.clock import BLITZ
>>> from toreshi.togyz.match.game import Game
>>> from toreshi.togyz.position import BLACK, WHITE
>>> game = Game.create("Abay", "Bolat", BLITZ, now_ms=0).start(now_ms=0)
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
from html import escape

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
        "Event": "?",
        "Site": "toreshi",
        "Date": "????.??.??",
        "Round": "-",
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


_SHEET_STYLE = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5cm; }
h1 { font-size: 1.3em; margin: 0 0 .4em; }
table.moves { border-collapse: collapse; width: 100%; }
table.moves th, table.moves td { border: 1px solid #000; padding: 2px 6px; text-align: center; }
td.offer { font-weight: bold; }
.signatures { display: flex; gap: 3em; margin-top: 2em; }
.signature { flex: 1; border-top: 1px solid #000; padding-top: .3em; }
@media print { body { margin: 1cm; } }
"""


def score_sheet_html(state: GameState, *, event: str = "", round_label: str = "", date: str = "") -> str:
    """A printable score sheet (жазу бланкасы): № / Бастаушы / Қостаушы, ``=`` marks, the result, signatures."""
    rows = []
    for number, start in enumerate(range(0, len(state.plies), 2), start=1):
        cells = []
        for ply in state.plies[start : start + 2]:
            mark = " =" if ply.draw_offered else ""
            css = ' class="offer"' if ply.draw_offered else ""
            cells.append(f"<td{css}>{escape(ply.token)}{mark}</td>")
        while len(cells) < 2:
            cells.append("<td></td>")
        rows.append(f"<tr><td>{number}</td>{''.join(cells)}</tr>")
    result = state.result.symbol if state.result else ""
    reason = escape(state.ending.reason) if state.ending else ""
    signatures = []
    for side, label, name in ((WHITE, "Бастаушы", state.white), (WHITE.other, "Қостаушы", state.black)):
        signed = "қол қойылды (signed)" if state.signed_at[side] is not None else ""
        signatures.append(
            f'<div class="signature">{label}: {escape(name)}<br><span class="signed">{signed}</span></div>'
        )
    heading = " · ".join(escape(part) for part in (event, round_label, date) if part)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="kk"><head><meta charset="utf-8">',
            f"<title>{escape(state.white)} – {escape(state.black)}</title>",
            f"<style>{_SHEET_STYLE}</style></head><body>",
            "<h1>Жазу бланкасы / Score sheet</h1>",
            f"<p>{heading}</p>" if heading else "",
            f"<p>Бастаушы: <b>{escape(state.white)}</b> · Қостаушы: <b>{escape(state.black)}</b> · "
            f"{escape(str(state.control))}</p>",
            '<table class="moves"><thead><tr><th>№</th><th>Бастаушы</th><th>Қостаушы</th></tr></thead><tbody>',
            *rows,
            "</tbody></table>",
            f'<p class="result">Нәтиже / Result: <b>{escape(result)}</b> {reason}</p>',
            f'<div class="signatures">{"".join(signatures)}</div>',
            "</body></html>",
        ]
    )
