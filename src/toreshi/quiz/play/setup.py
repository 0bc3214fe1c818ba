"""A game cut from a question pack: which themes it plays, what stays in reserve, and the host's notes.

Pure: the pack is already read (:func:`toreshi.quiz.formats.read_pack`). A pack that cannot give the game it is
asked for is refused with a :class:`~toreshi.quiz.codes.QuizCode`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from toreshi.kit.refusal import Refused
from toreshi.quiz.board import QUESTIONS_PER_THEME, VALUES, Board, BoardQuestion
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.pack import EMPTY_PRICE, Package, Question, Round, Theme
from toreshi.quiz.play.commands import Note

__all__ = [
    "MIN_THEME_QUESTIONS",
    "THEMES_NEEDED",
    "QuestionChoice",
    "RoundChoice",
    "ThemeChoice",
    "ThemeMapping",
    "apply_picks",
    "default_picks",
    "fit_values",
    "fitted_themes",
    "mapping_of",
    "needs_choice",
    "pack_choices",
    "setup_from_pack",
    "unplayable_themes",
]

THEMES_NEEDED = {GameKind.QUALIFYING: 5, GameKind.FINAL: 11, GameKind.SHOOTOUT: 1}
"""The themes a game plays (SI-3.3, SI-2.2)."""
MIN_THEME_QUESTIONS = 2
"""A board theme cut from a pack has at least this many questions (a SIGame final's one-question themes are not
board themes); the values it lacks are empty cells nobody can choose."""


# --- a pack theme of any shape on the regulation's grid (issue 31) --------------------------------------------


def fit_values(count: int) -> tuple[int, ...]:
    """The values (SI-3.1: 1-5) ``count`` questions of a short theme take, cheapest first, spread over the grid so that
    the cheapest stays the cheapest and the dearest the dearest: 2 → 1, 5; 3 → 1, 3, 5; 4 → 1, 2, 4, 5.

    >>> [fit_values(n) for n in range(1, 6)]
    [(1,), (1, 5), (1, 3, 5), (1, 2, 4, 5), (1, 2, 3, 4, 5)]
    """
    if not 0 < count <= QUESTIONS_PER_THEME:
        raise ValueError(f"a board theme takes 1 to {QUESTIONS_PER_THEME} questions, not {count}")
    if count == 1:
        return (VALUES[0],)
    last = QUESTIONS_PER_THEME - 1
    return tuple(VALUES[int(i * last / (count - 1) + 0.5)] for i in range(count))


def _on_grid(questions: Sequence[Question]) -> tuple[Question, ...]:
    """``questions`` (1-5, in the order they are worth) as a theme of 5: each at its :func:`fit_values` value, the
    values it lacks empty cells (price −1), which the board shows and nobody can choose."""
    if len(questions) == QUESTIONS_PER_THEME:
        return tuple(questions)
    placed = dict(zip(fit_values(len(questions)), questions, strict=True))
    return tuple(placed.get(value, Question(price=EMPTY_PRICE)) for value in VALUES)


def _parts(theme: Theme, chosen: Sequence[int]) -> list[Theme]:
    """The board themes the ``chosen`` questions of ``theme`` (indexes, in pack order) make: five to a theme, the
    last one shorter with its missing values empty; «Name», «Name (2)», …"""
    made = []
    for part, start in enumerate(range(0, len(chosen), QUESTIONS_PER_THEME)):
        group = [theme.questions[i] for i in chosen[start : start + QUESTIONS_PER_THEME]]
        name = theme.name if part == 0 else f"{theme.name} ({part + 1})"
        made.append(replace(theme, name=name, questions=_on_grid(group)))
    return made


def _real(theme: Theme) -> list[int]:
    return [i for i, question in enumerate(theme.questions) if not question.is_empty]


def fitted_themes(package: Package) -> list[Theme]:
    """Every theme of the pack on the regulation's grid, in pack order (what a tour plays): a theme of exactly 5 as it
    is (an empty cell stays one); in an ordinary round, a longer one cut into themes of 5 and a shorter rest, a short
    one spread over 1-5 (:func:`fit_values`). Fewer than :data:`MIN_THEME_QUESTIONS` questions make no theme."""
    themes: list[Theme] = []
    for round_ in package.rounds:
        for theme in round_.themes:
            if len(theme.questions) == QUESTIONS_PER_THEME:
                themes.append(theme)
                continue
            if round_.is_final:
                continue  # a SIGame final's one-question themes are no board themes
            real = _real(theme)
            themes.extend(t for t in _parts(theme, real) if sum(not q.is_empty for q in t.questions) >= 2)
    return themes


@dataclass(frozen=True, slots=True)
class ThemeMapping:
    """What the host is told of one board theme cut from a pack: per value 1-5, the pack's price there (``None``: an
    empty cell), and whether the theme was cut (a longer theme, a shorter one spread)."""

    name: str
    prices: tuple[int | None, ...]
    reshaped: bool


def mapping_of(themes: Sequence[Theme], original: Mapping[str, int] | None = None) -> tuple[ThemeMapping, ...]:
    """The prices behind each board value of ``themes`` (board themes of 5); ``original`` names the themes whose pack
    theme did not have exactly 5 questions (by name → its question count)."""
    original = original or {}
    return tuple(
        ThemeMapping(
            theme.name,
            tuple(None if question.is_empty else question.price for question in theme.questions),
            theme.name in original,
        )
        for theme in themes
    )


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
        """At least :data:`MIN_THEME_QUESTIONS` real questions: a board theme can be cut from it (a short one spread
        over 1-5, its missing values empty)."""
        return sum(not q.empty for q in self.questions) >= MIN_THEME_QUESTIONS


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
        whole = _real(theme)  # a short theme plays whole, its questions spread over 1-5 (issue 31)
        return tuple(whole) if len(whole) >= MIN_THEME_QUESTIONS else ()
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
    questions (indexes), in pack order, five to a board theme (10 picked make two themes, «Name» and «Name (2)»), the
    last one shorter if the count is not a multiple of 5: its questions spread over 1-5, the values it lacks empty
    cells (issue 31). A theme with nothing picked is not played, nor a round with no theme left. Raises
    :class:`Refused` for a board theme of fewer than :data:`MIN_THEME_QUESTIONS` questions."""
    if not rounds:
        raise Refused(QuizCode.NO_ROUND_PICKED)
    kept: list[Round] = []
    for r, round_ in enumerate(package.rounds):
        if r not in rounds:
            continue
        themes: list[Theme] = []
        for t, theme in enumerate(round_.themes):
            chosen = sorted(
                {i for i in picks.get((r, t), ()) if 0 <= i < len(theme.questions) and not theme.questions[i].is_empty}
            )
            if chosen and len(chosen) % QUESTIONS_PER_THEME and len(chosen) % QUESTIONS_PER_THEME < MIN_THEME_QUESTIONS:
                raise Refused(QuizCode.PICK_SHORT, theme=theme.name, count=len(chosen), minimum=MIN_THEME_QUESTIONS)
            themes.extend(_parts(theme, chosen))
        if themes:
            kept.append(replace(round_, themes=tuple(themes)))
    return replace(package, rounds=tuple(kept))


def unplayable_themes(package: Package) -> tuple[tuple[str, str, int], ...]:
    """(round, theme, question count) of every theme no game can play (fewer than :data:`MIN_THEME_QUESTIONS`
    questions): what the host is told at creation, so that nothing of a pack is dropped unseen."""
    return tuple(
        (round_.name, theme.name, len(theme.questions))
        for round_ in package.rounds
        for theme in round_.themes
        if len(_real(theme)) < MIN_THEME_QUESTIONS
    )
