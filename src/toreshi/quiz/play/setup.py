"""A game cut from a question pack: which themes it plays, what stays in reserve, and the host's notes.

Pure: the pack is already read (:func:`toreshi.quiz.formats.read_pack`). A pack that cannot give the game it is
asked for is refused with a :class:`~toreshi.quiz.codes.QuizCode`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from toreshi.kit.refusal import Refused
from toreshi.quiz.board import QUESTIONS_PER_THEME, Board, BoardQuestion
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.pack import Package, Question, Round, Theme
from toreshi.quiz.play.commands import Note

__all__ = [
    "THEMES_NEEDED",
    "QuestionChoice",
    "RoundChoice",
    "ThemeChoice",
    "apply_picks",
    "default_picks",
    "needs_choice",
    "pack_choices",
    "setup_from_pack",
    "unplayable_themes",
]

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


# --- the host picks the questions (any pack a club has) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QuestionChoice:
    """A question of a pack theme as the host sees it when picking: its price, type and first words."""

    index: int
    price: int
    kind: str
    """The SIGame type (``stake``, ``secret``, …; ``""`` for an ordinary question), played as an ordinary one."""
    summary: str
    media: tuple[str, ...]
    """The types of its media items (``image``, ``audio``, …)."""
    empty: bool


@dataclass(frozen=True, slots=True)
class ThemeChoice:
    index: int
    name: str
    questions: tuple[QuestionChoice, ...]
    default: tuple[int, ...]
    """The questions picked unless the host picks others: the five lowest prices (all five of a 5-question theme)."""

    @property
    def usable(self) -> bool:
        """At least 5 questions: a board theme can be cut from it (SI-3.1)."""
        return len(self.questions) >= QUESTIONS_PER_THEME


@dataclass(frozen=True, slots=True)
class RoundChoice:
    index: int
    name: str
    final: bool
    themes: tuple[ThemeChoice, ...]


def _default(theme: Theme) -> tuple[int, ...]:
    questions = theme.questions
    if len(questions) == QUESTIONS_PER_THEME:
        return tuple(range(QUESTIONS_PER_THEME))
    if len(questions) < QUESTIONS_PER_THEME:
        return ()
    # The five lowest prices among real questions (an empty cell, price −1, is not one), in pack order.
    real = sorted((q.price, i) for i, q in enumerate(questions) if not q.is_empty)
    picked = [i for _price, i in real[:QUESTIONS_PER_THEME]]
    return tuple(sorted(picked)) if len(picked) == QUESTIONS_PER_THEME else ()


def _summary(question: Question) -> str:
    text = question.question_text
    return text[:80] + ("…" if len(text) > 80 else "")


def pack_choices(package: Package) -> tuple[RoundChoice, ...]:
    """Every round and theme of the pack with its questions, for the host to pick from."""
    return tuple(
        RoundChoice(
            r,
            round_.name,
            round_.is_final,
            tuple(
                ThemeChoice(
                    t,
                    theme.name,
                    tuple(
                        QuestionChoice(
                            i,
                            q.price,
                            q.special_type,
                            _summary(q),
                            tuple(item.type.value for item in q.question_items if not item.is_text),
                            q.is_empty,
                        )
                        for i, q in enumerate(theme.questions)
                    ),
                    _default(theme),
                )
                for t, theme in enumerate(round_.themes)
            ),
        )
        for r, round_ in enumerate(package.rounds)
    )


def needs_choice(package: Package) -> bool:
    """Whether the host must pick: a theme of a (non-final) round has other than 5 questions."""
    return any(
        len(theme.questions) != QUESTIONS_PER_THEME
        for round_ in package.rounds
        if not round_.is_final
        for theme in round_.themes
    )


def default_picks(package: Package) -> dict[tuple[int, int], tuple[int, ...]]:
    """The picks the page starts with: per (round, theme), the five lowest prices (none for a short theme)."""
    return {(r, t): _default(theme) for r, round_ in enumerate(package.rounds) for t, theme in enumerate(round_.themes)}


def apply_picks(package: Package, rounds: Collection[int], picks: Mapping[tuple[int, int], Sequence[int]]) -> Package:
    """The pack cut to what the host picked: only ``rounds`` (0-based), and in each of their themes the picked
    questions (indexes), in pack order, five to a board theme (10 picked make two themes, «Name» and «Name (2)»).
    A theme with nothing picked is not played, nor a round with no theme left. Raises :class:`Refused` for a
    count that is not a multiple of 5."""
    if not rounds:
        raise Refused(QuizCode.NO_ROUND_PICKED)
    kept: list[Round] = []
    for r, round_ in enumerate(package.rounds):
        if r not in rounds:
            continue
        themes: list[Theme] = []
        for t, theme in enumerate(round_.themes):
            chosen = sorted({i for i in picks.get((r, t), ()) if 0 <= i < len(theme.questions)})
            if len(chosen) % QUESTIONS_PER_THEME:
                raise Refused(QuizCode.PICK_FIVE, theme=theme.name, count=len(chosen))
            for part in range(len(chosen) // QUESTIONS_PER_THEME):
                group = chosen[part * QUESTIONS_PER_THEME : (part + 1) * QUESTIONS_PER_THEME]
                name = theme.name if part == 0 else f"{theme.name} ({part + 1})"
                themes.append(replace(theme, name=name, questions=tuple(theme.questions[i] for i in group)))
        if themes:
            kept.append(replace(round_, themes=tuple(themes)))
    return replace(package, rounds=tuple(kept))


def unplayable_themes(package: Package) -> tuple[tuple[str, str, int], ...]:
    """(round, theme, question count) of every theme no game can play as it is (not 5 questions): what the host is
    told at creation, so that nothing of a pack is dropped unseen."""
    return tuple(
        (round_.name, theme.name, len(theme.questions))
        for round_ in package.rounds
        for theme in round_.themes
        if len(theme.questions) != QUESTIONS_PER_THEME
    )
