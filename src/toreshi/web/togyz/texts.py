"""What server-rendered togyz pages (the replay, the score sheet, the games list) say about a game, in the reader's
language: its status, its result, and how and why it ended, naming the players.

The live game page says the same in its script from the same msgids (``{name}`` placeholders, filled by
:func:`fill` here and by ``translator`` in ``static/js/dom.js``), so a text is translated once. None of them cites a
regulation's clause: players and spectators read these pages, and clause numbers are for the arbiter's console.

>>> from toreshi.clock import BLITZ
>>> from toreshi.togyz.match.game import MatchGame
>>> from toreshi.togyz.position import WHITE
>>> from toreshi.texts import i18n
>>> game = MatchGame.create("Асқар", "Бекзат", BLITZ, now_ms=0).start(now_ms=0).resign(WHITE, now_ms=5)
>>> i18n.activate("en")
>>> result_headline(game.state), ending_text(game.state)
('Бекзат wins', 'Resignation — Асқар resigned')
"""

from __future__ import annotations

from toreshi.texts.i18n import gettext as _
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.state import EndNote, GameState, GameStatus
from toreshi.togyz.position import BLACK, WHITE, Termination

RESULT_SYMBOLS = {
    GameResult.WHITE_WINS: "1 – 0",
    GameResult.BLACK_WINS: "0 – 1",
    GameResult.DRAW: "½ – ½",
    GameResult.WHITE_FORFEIT_WIN: "+ –",
    GameResult.BLACK_FORFEIT_WIN: "– +",
    GameResult.DOUBLE_FORFEIT: "– –",
}
"""The result as the pages print it (the same in every language)."""


def fill(text: str, **values: object) -> str:
    """A translated text with its ``{name}`` placeholders filled (as the pages' scripts fill them)."""
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def status_label(status: GameStatus) -> str:
    """A game's status in one or two words (the games list, the replay's heading)."""
    labels = {
        GameStatus.SCHEDULED: _("Not started"),
        GameStatus.POSTPONED: _("Postponed"),
        GameStatus.LIVE: _("Live"),
        GameStatus.PAUSED: _("Clock stopped"),
        GameStatus.ADJOURNED: _("Adjourned"),
        GameStatus.FINISHED: _("Finished"),
    }
    return labels[status]


def result_headline(state: GameState) -> str:
    """Who won (``Асқар wins``), a draw, or both lost by default; empty while the game goes on."""
    result = state.result
    if result is None:
        return ""
    if result is GameResult.DOUBLE_FORFEIT:
        return _("Both players lost by default")
    winner = result.winner
    if winner is None:
        return _("Draw")
    return fill(_("{name} wins"), name=state.player(winner))


def termination_names() -> dict[Termination, str]:
    """Every way a game can end, in a few words (``Resignation``, ``Flag fall``…)."""
    return {
        Termination.KAZAN: _("82 or more kumalaks in the kazan"),
        Termination.ATSYZ: _("No kumalak left to move (atsyz)"),
        Termination.RESIGNATION: _("Resignation"),
        Termination.TIME_FORFEIT: _("Flag fall"),
        Termination.AGREEMENT: _("Draw by agreement"),
        Termination.FORFEIT: _("Default: a player did not come"),
        Termination.ARBITER: _("Arbiter's decision"),
    }


def termination_strings() -> dict[str, str]:
    """:func:`termination_names` for the pages' scripts: ``term_resignation`` and so on (the state's
    ``termination`` after ``term_``)."""
    return {f"term_{termination.value}": name for termination, name in termination_names().items()}


def termination_text(state: GameState) -> str:
    """How the game ended, in a few words (``Resignation``, ``Flag fall``…); empty while it goes on."""
    if state.ending is None:
        return ""
    return termination_names()[state.ending.termination]


def ending_note(state: GameState) -> str:
    """Why, naming the player it is about (the kazans, who resigned, whose flag fell…); the arbiters' reason as
    they typed it."""
    ending = state.ending
    if ending is None:
        return ""
    name = state.player(ending.side) if ending.side is not None else ""
    kazans = state.board.kazans
    match ending.note:
        case EndNote.BOARD:
            return fill(
                _("kazans: {white} {white_kazan}, {black} {black_kazan}"),
                white=state.white,
                black=state.black,
                white_kazan=kazans[WHITE],
                black_kazan=kazans[BLACK],
            )
        case EndNote.RESIGNED:
            return fill(_("{name} resigned"), name=name)
        case EndNote.FLAG:
            kazan = kazans[ending.side] if ending.side is not None else 0
            return fill(_("{name}'s flag fell with {kazan} kumalaks in the kazan"), name=name, kazan=kazan)
        case EndNote.FLAG_81:
            return fill(_("{name}'s flag fell with 81 kumalaks in the kazan: a draw"), name=name)
        case EndNote.ABSENT:
            return fill(_("{name} did not come"), name=name) if name else _("Neither player came")
        case EndNote.SEALED_MOVE_ILLEGAL:
            return fill(_("{name}'s sealed move {hole} was illegal"), name=name, hole=state.sealed_hole or "")
        case EndNote.ARBITER:
            return ending.reason
    return ""


def ending_text(state: GameState) -> str:
    """How and why the game ended, in one line: ``Resignation — Асқар resigned``."""
    return " — ".join(part for part in (termination_text(state), ending_note(state)) if part)
