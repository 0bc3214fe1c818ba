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
from dataclasses import dataclass, field, replace

from toreshi.kit.codec import spec
from toreshi.quiz.pack import ContentItem, ContentType, Placement, Question, Round, Theme

__all__ = ["QUESTIONS_PER_THEME", "VALUES", "Board", "BoardError", "BoardItem", "BoardQuestion", "BoardTheme"]

QUESTIONS_PER_THEME = 5
VALUES = (1, 2, 3, 4, 5)
"""The values of a theme's questions, cheapest first (SI-3.1)."""

# What a board read from a host's page may hold: a pack within :mod:`toreshi.quiz.limits` (a question's text is
# up to 30 text items of 1,500 characters, a name or an answer 350; 50 rounds of 30 themes at most).
MAX_QUESTION_TEXT = 45_000
MAX_SHORT_TEXT = 350
MAX_LONG_TEXT = 1_500
MAX_RESERVE = 50 * 30 * QUESTIONS_PER_THEME
MAX_ITEMS = 30
"""Content items of a question or of its answer (:mod:`toreshi.quiz.limits` allows as many)."""
MAX_ITEM_DURATION_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class BoardItem:
    """One content item of a question or its answer, as the screens need it (SIGame's placement, SI-3.6).

    ``value`` is the text, or a media file's name inside the pack (``ref``) or an external link (never fetched:
    the screens have no network but this server's). The media itself is served by room and item
    (``/quiz/{room}/media/{cell}/{index}``), never by this name."""

    type: ContentType
    value: str = field(default="", metadata=spec(max_length=MAX_LONG_TEXT, multiline=True))
    placement: Placement = Placement.SCREEN
    ref: bool = False
    duration_ms: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_ITEM_DURATION_MS))
    wait: bool = True
    """SIGame's ``waitForFinish``: the next item (and the press window) waits until this one has finished."""

    @staticmethod
    def from_item(item: ContentItem) -> BoardItem:
        return BoardItem(
            type=item.type,
            value=item.value[:MAX_LONG_TEXT],
            placement=item.placement,
            ref=item.is_ref,
            duration_ms=min(MAX_ITEM_DURATION_MS, int(item.duration.total_seconds() * 1000)),
            wait=item.wait_for_finish,
        )

    @property
    def playable(self) -> bool:
        """Audio or video from the pack: something that plays and ends."""
        return self.ref and self.type in (ContentType.AUDIO, ContentType.VIDEO)


def _needs_items(question: Question) -> bool:
    """Only questions with more than screen text carry their items (text packs keep their boards as they were)."""
    return any(not item.is_text or item.placement is not Placement.SCREEN for item in question.question_items) or bool(
        question.answer_items
    )


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
    items: tuple[BoardItem, ...] = field(default=(), metadata=spec(max_items=MAX_ITEMS, omit_default=True))
    """The question's content items in order (empty for a question of screen text only: ``text`` is all of it)."""
    answer_items: tuple[BoardItem, ...] = field(default=(), metadata=spec(max_items=MAX_ITEMS, omit_default=True))
    """What is shown as the right answer (an image, a sound) at «время» or after a right answer."""
    kind: str = field(default="", metadata=spec(max_length=MAX_SHORT_TEXT, omit_default=True))
    """The SIGame type the pack gave (``stake``, ``secret``, ``noRisk``, ``forAll``, a custom name); the club's
    regulation has no such rules, so it is played as an ordinary question and the host is told which it was."""
    theme: str = field(default="", metadata=spec(max_length=MAX_SHORT_TEXT, multiline=True, omit_default=True))
    """A reserve question's pack theme (the host picks a replacement by theme, price and text); empty on the board,
    where the cell's own theme names it."""

    def __post_init__(self) -> None:
        if self.value not in VALUES:
            raise BoardError(f"question value {self.value} is not one of 1-5 (SI-3.1)")

    @property
    def waits_for_media(self) -> bool:
        """A question whose audio or video must finish before the press window opens (SIGame's waitForFinish)."""
        return any(item.playable and item.wait for item in self.items)

    @staticmethod
    def from_question(question: Question, value: int) -> BoardQuestion:
        items: tuple[BoardItem, ...] = ()
        text = question.question_text
        if _needs_items(question):
            items = tuple(BoardItem.from_item(item) for item in question.question_items[:MAX_ITEMS])
            # The projector shows only screen text; a spoken line (replic) is the host's.
            text = " ".join(
                part
                for item in question.question_items
                if item.is_text and item.placement is Placement.SCREEN and (part := item.value.strip())
            )
        return BoardQuestion(
            value=value,
            text=text,
            answers=question.answers,
            source_price=question.price,
            empty=question.is_empty,
            items=items,
            answer_items=tuple(BoardItem.from_item(item) for item in question.answer_items[:MAX_ITEMS]),
            kind=question.special_type[:MAX_SHORT_TEXT],
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
        spare = tuple(
            replace(cell, theme=t.name) for t in reserve for cell in BoardTheme.from_theme(t).cells if not cell.empty
        )
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
