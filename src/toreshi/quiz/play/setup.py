"""A game cut from a question pack: which themes it plays, what stays in reserve, and the host's notes.

Pure: the pack is already read (:func:`toreshi.quiz.formats.read_pack`). A pack that cannot give the game it is
asked for is refused with a :class:`~toreshi.quiz.codes.QuizCode`.
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.kit.refusal import Refused
from toreshi.quiz.board import QUESTIONS_PER_THEME, Board, BoardQuestion
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.pack import Package, Theme
from toreshi.quiz.play.commands import Note

__all__ = ["THEMES_NEEDED", "setup_from_pack"]

THEMES_NEEDED = {GameKind.QUALIFYING: 5, GameKind.FINAL: 11, GameKind.SHOOTOUT: 1}
"""The themes a game plays (SI-3.3, SI-2.2)."""


def _notes(theme: Theme) -> list[Note]:
    """Per question: the comment, sources and authors the host sees (the question's own, else the theme's)."""
    return [
        Note(
            comment=question.info.comments or question.info.showman_comments,
            sources=question.info.sources or theme.info.sources,
            authors=question.info.authors or theme.info.authors,
        )
        for question in theme.questions
    ]


def setup_from_pack(
    package: Package,
    *,
    kind: GameKind,
    teams: Sequence[str],
    assistant: Assistant | None,
    round_number: int = 1,
    first_theme: int = 1,
    reading: ReadingMode = ReadingMode.HOST,
    advancing: int = 1,
) -> tuple[GameSetup, dict[str, Note]]:
    """The game setup and the host's notes (by cell ``"theme:value"``, reserve ``"r:index"``) for a game cut from
    a pack.

    Playable themes are the pack's themes of exactly 5 questions, in pack order. The game takes the themes it
    needs (5, 11 for a final, 1 for a shootout) starting at ``first_theme`` of round ``round_number`` (1-based), on
    into the next rounds if needed; every other playable theme becomes the reserve (SI-4.6, SI-2.2).
    """
    pool = [
        (r, theme)
        for r, round_ in enumerate(package.rounds)
        for theme in round_.themes
        if len(theme.questions) == QUESTIONS_PER_THEME
    ]
    if not pool:
        raise Refused(QuizCode.PACK_NO_THEME)
    starts = [i for i, (r, _theme) in enumerate(pool) if r == round_number - 1]
    if not starts:
        raise Refused(QuizCode.ROUND_NO_THEME, round=round_number)
    start = starts[0] + first_theme - 1
    needed = THEMES_NEEDED[kind]
    if first_theme < 1 or start + needed > len(pool):
        raise Refused(QuizCode.TOO_FEW_THEMES, needed=needed, available=max(0, len(pool) - start))
    picked = [theme for _r, theme in pool[start : start + needed]]
    reserve = [theme for i, (_r, theme) in enumerate(pool) if not start <= i < start + needed]
    board = Board.from_themes(picked, reserve)
    notes: dict[str, Note] = {}
    for index, theme in enumerate(picked):
        for value, note in enumerate(_notes(theme), start=1):
            notes[f"{index}:{value}"] = note
    spare = 0
    for theme in reserve:
        for question, note in zip(theme.questions, _notes(theme), strict=True):
            if not BoardQuestion.from_question(question, 1).empty:
                notes[f"r:{spare}"] = note
                spare += 1
    cuts = (advancing,) if kind is GameKind.SHOOTOUT else ()
    setup = GameSetup(tuple(teams), board, kind=kind, assistant=assistant, reading=reading, shootout_cuts=cuts)
    return setup, notes
