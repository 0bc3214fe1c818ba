"""The game board: themes × questions worth 1–5 (SI-3.1), plus reserve questions for replacements (SI-4.6).

The board is what one game plays, cut from a pack round. Packs price questions 100–500 (SIGame) or 10–50
(db.chgk.info, TV); the club plays for 1–5 points, so a question's value is its *position* in the theme, not its
price (SI-3.1). An empty pack cell (price −1) stays on the board as a cell that cannot be chosen.

>>> from toreshi.quiz.pack import ContentItem, Parameter, Question, Round, Theme
>>> def q(price: int) -> Question:
...     text = Parameter.content("question", (ContentItem.text(f"Вопрос за {price}"),))
...     return Question(price=price, params=(text,), right=("Ответ",))
>>> theme = Theme("Реки", tuple(q(p) for p in (100, 200, 300, 400, 500)))
>>> board = Board.from_round(Round("Бой 1", (theme,)))
>>> [(c.value, c.source_price) for c in board.themes[0].cells]
[(1, 100), (2, 200), (3, 300), (4, 400), (5, 500)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from toreshi.kit.codec import spec
from toreshi.quiz.pack import Question, Round, Theme

__all__ = ["QUESTIONS_PER_THEME", "VALUES", "Board", "BoardError", "BoardQuestion", "BoardTheme"]

QUESTIONS_PER_THEME = 5
VALUES = (1, 2, 3, 4, 5)
"""The values of a theme's questions, cheapest first (SI-3.1)."""

# What a board read from a host's page may hold: a pack within :mod:`toreshi.quiz.limits` (a question's text is
# up to 30 text items of 1,500 characters, a name or an answer 350; 50 rounds of 30 themes at most).
MAX_QUESTION_TEXT = 45_000
MAX_SHORT_TEXT = 350
MAX_LONG_TEXT = 1_500
MAX_RESERVE = 50 * 30 * QUESTIONS_PER_THEME


class BoardError(ValueError):
    """A board value that breaks SI-3.1, or a pack round cut into a board it cannot be.

    A broken invariant of a value, raised while it is built: a board from a client is read by the room kit's codec,
    which answers such a value with ``bad_request`` naming the field, and a board cut from a pack takes only its
    5-question themes."""


@dataclass(frozen=True, slots=True)
class BoardQuestion:
    """One question as the game needs it: value, what is read, what is accepted.

    ``text`` drives simulated reading (its length sets the reading time); ``empty`` marks a pack cell with
    no question (price −1), which no team may choose.
    """

    value: int = field(metadata=spec(minimum=1, maximum=QUESTIONS_PER_THEME))
    text: str = field(default="", metadata=spec(max_length=MAX_QUESTION_TEXT, multiline=True))
    answers: tuple[str, ...] = field(default=(), metadata=spec(max_length=MAX_SHORT_TEXT, multiline=True))
    source_price: int = 0
    empty: bool = False

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise BoardError(f"question value {self.value} is not one of 1-5 (SI-3.1)")

    @staticmethod
    def from_question(question: Question, value: int) -> BoardQuestion:
        return BoardQuestion(
            value=value,
            text=question.question_text,
            answers=question.answers,
            source_price=question.price,
            empty=question.is_empty,
        )


@dataclass(frozen=True, slots=True)
class BoardTheme:
    """A theme on the board: its name, the host's explanation (SI-3.4) and five cells valued 1–5."""

    name: str = field(metadata=spec(max_length=MAX_SHORT_TEXT, multiline=True))
    cells: tuple[BoardQuestion, ...] = field(metadata=spec(max_items=QUESTIONS_PER_THEME))
    explanation: str = field(default="", metadata=spec(max_length=MAX_LONG_TEXT, multiline=True))

    def __post_init__(self) -> None:
        values = tuple(cell.value for cell in self.cells)
        if values != VALUES:
            raise BoardError(f"theme {self.name!r} must have questions worth 1-5 in order (SI-3.1), got {values}")

    def cell(self, value: int) -> BoardQuestion:
        if value not in VALUES:
            raise BoardError(f"no question worth {value} in a theme (values are 1-5, SI-3.1)")
        return self.cells[value - 1]

    @staticmethod
    def from_theme(theme: Theme) -> BoardTheme:
        """Map a pack theme by position: the i-th question is worth i, whatever its price (SI-3.1)."""
        if len(theme.questions) != QUESTIONS_PER_THEME:
            raise BoardError(
                f"theme {theme.name!r} has {len(theme.questions)} questions; a theme has {QUESTIONS_PER_THEME} (SI-3.1)"
            )
        cells = tuple(BoardQuestion.from_question(q, v) for v, q in zip(VALUES, theme.questions, strict=True))
        return BoardTheme(theme.name, cells, explanation=theme.info.comments)

    @staticmethod
    def simple(name: str, texts: Iterable[str] = (), explanation: str = "") -> BoardTheme:
        """A theme from bare texts (tests, shootout themes typed in on site)."""
        texts = tuple(texts) or tuple(f"{name} {v}" for v in VALUES)
        cells = tuple(BoardQuestion(v, t) for v, t in zip(VALUES, texts, strict=True))
        return BoardTheme(name, cells, explanation)


@dataclass(frozen=True, slots=True)
class Board:
    """The themes of one game and the reserve it may draw replacement or shootout questions from."""

    themes: tuple[BoardTheme, ...] = field(metadata=spec(max_items=30))
    reserve: tuple[BoardQuestion, ...] = field(default=(), metadata=spec(max_items=MAX_RESERVE))

    def __post_init__(self) -> None:
        if not self.themes:
            raise BoardError("a board needs at least one theme")

    @staticmethod
    def from_themes(themes: Iterable[Theme], reserve: Iterable[Theme] = ()) -> Board:
        """A board of pack themes; ``reserve`` themes become single reserve questions (SI-4.6, SI-2.2)."""
        board_themes = tuple(BoardTheme.from_theme(t) for t in themes)
        spare = tuple(cell for t in reserve for cell in BoardTheme.from_theme(t).cells if not cell.empty)
        return Board(board_themes, spare)

    @staticmethod
    def from_round(round_: Round, themes: Sequence[int] | None = None, reserve: Iterable[Theme] = ()) -> Board:
        """The board of a pack round. ``themes`` picks which of its themes are played (a SIGame round usually
        has 6, a qualifying game plays 5, SI-3.3); the round's other themes join the reserve."""
        picked = range(len(round_.themes)) if themes is None else themes
        for index in picked:
            if index not in range(len(round_.themes)):
                raise BoardError(f"round {round_.name!r} has no theme {index}")
        rest = [t for i, t in enumerate(round_.themes) if i not in picked]
        return Board.from_themes((round_.themes[i] for i in picked), (*rest, *reserve))

    @staticmethod
    def of(*names: str, reserve_values: Iterable[int] = ()) -> Board:
        """A board of simple themes, for tests and quick games: ``Board.of("A", "B")``."""
        reserve = tuple(BoardQuestion(v, f"reserve {i + 1} ({v})") for i, v in enumerate(reserve_values))
        return Board(tuple(BoardTheme.simple(n) for n in names), reserve)
