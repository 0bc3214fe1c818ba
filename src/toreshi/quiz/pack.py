"""The question pack: package → rounds → themes → questions, as SIGame's SIQ version 5 models it.

A pure, immutable model (frozen dataclasses, tuples): readers build it (:mod:`toreshi.quiz.siq` for ``.siq``
files, :mod:`toreshi.quiz.chgk` for db.chgk.info text), the game reads it, the SIQ writer saves it. Field names
follow ``shared/docs/svoya-igra.md`` §2; a question keeps its parameters in SIQ's own shape so that unknown
parameters survive a round trip, and offers the well-known ones as properties.

>>> question = Question(
...     price=1,
...     params=(Parameter.content("question", (ContentItem.text("Столица Франции?"),)),),
...     right=("Париж",),
... )
>>> question.question_text
'Столица Франции?'
>>> question.answers
('Париж',)
>>> question.is_empty
False
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from enum import StrEnum

from toreshi.kit.refusal import Refused
from toreshi.quiz.codes import PACK_TERMS, PackCode

__all__ = [
    "EMPTY_PRICE",
    "ContentItem",
    "ContentType",
    "Info",
    "MediaFile",
    "NumberSet",
    "PackError",
    "Package",
    "Parameter",
    "ParameterKind",
    "ParameterName",
    "Placement",
    "Question",
    "QuestionType",
    "Round",
    "RoundType",
    "Step",
    "Theme",
]

EMPTY_PRICE = -1
"""The price SIQ gives an empty board cell: a question slot with nothing in it."""


class PackError(Refused):
    """A pack that cannot be read or built: a :class:`~toreshi.quiz.codes.PackCode` and its parameters (what, where,
    which limit), which the web layer renders in the reader's language and the command line in English."""


class ContentType(StrEnum):
    """What a content item is. Media items (everything but text) usually reference a file of the package."""

    TEXT = "text"
    IMAGE = "image"
    AUDIO = "audio"
    VIDEO = "video"
    HTML = "html"

    @property
    def is_media(self) -> bool:
        """Everything but text: a file of the package or an external link."""
        return self is not ContentType.TEXT

    @property
    def folder(self) -> str:
        """The ZIP folder of a ``.siq`` that holds media of this type (``Images``, ``Audio``, …)."""
        return _MEDIA_FOLDERS[self]


_MEDIA_FOLDERS = {
    ContentType.TEXT: "Texts",
    ContentType.IMAGE: "Images",
    ContentType.AUDIO: "Audio",
    ContentType.VIDEO: "Video",
    ContentType.HTML: "Html",
}


class Placement(StrEnum):
    """Where a content item goes: on the screen, spoken by the host (a «реплика»), or under other content."""

    SCREEN = "screen"
    REPLIC = "replic"
    BACKGROUND = "background"

    @staticmethod
    def default_for(content_type: ContentType) -> Placement:
        """SIGame's default: audio plays in the background, everything else is shown on the screen."""
        return Placement.BACKGROUND if content_type is ContentType.AUDIO else Placement.SCREEN


class RoundType(StrEnum):
    """Round types as SIQ names them; a round with no ``type`` attribute is ``standart`` (sic)."""

    STANDART = "standart"
    FINAL = "final"
    # Reserved aliases SIGame accepts for the same two kinds of round.
    TABLE = "table"
    THEME_LIST = "themeList"

    @property
    def is_final(self) -> bool:
        """A final: themes are eliminated in turn instead of questions being chosen from a board."""
        return self in (RoundType.FINAL, RoundType.THEME_LIST)


class QuestionType(StrEnum):
    """The question types SIGame plays with a built-in script (§2.4).

    :attr:`Question.type` is a plain string because any other name is a legal *custom* type, played by hand.
    """

    DEFAULT = ""
    """The round decides: a buzzer question in a standard round, a hidden stake in a SIGame final."""
    SIMPLE = "simple"
    STAKE = "stake"
    STAKE_ALL = "stakeAll"
    SECRET = "secret"
    SECRET_PUBLIC_PRICE = "secretPublicPrice"
    SECRET_NO_QUESTION = "secretNoQuestion"
    NO_RISK = "noRisk"
    FOR_ALL = "forAll"


class ParameterKind(StrEnum):
    """The value shape of a question parameter (SIQ ``param/@type``)."""

    SIMPLE = "simple"
    CONTENT = "content"
    GROUP = "group"
    NUMBER_SET = "numberSet"


class ParameterName(StrEnum):
    """Well-known question parameter names (SIGame ``QuestionParameterNames``)."""

    QUESTION = "question"
    ANSWER = "answer"
    ANSWER_TYPE = "answerType"
    ANSWER_OPTIONS = "answerOptions"
    ANSWER_DEVIATION = "answerDeviation"
    THEME = "theme"
    PRICE = "price"
    SELECTION_MODE = "selectionMode"
    ANSWER_DURATION = "answerDuration"


@dataclass(frozen=True, slots=True)
class ContentItem:
    """One fragment of a question or an answer: a text, or a picture, sound, video or HTML page.

    For media, :attr:`value` is either a file name inside the package (:attr:`is_ref` true, un-escaped:
    ``map 1.png``) or an external URL. :attr:`duration` is how long the item is shown or played (zero: its
    natural length or the reading time); :attr:`wait_for_finish` false lets the next item start at once.
    """

    type: ContentType
    value: str
    is_ref: bool = False
    placement: Placement = Placement.SCREEN
    duration: timedelta = timedelta(0)
    wait_for_finish: bool = True

    @staticmethod
    def text(value: str, placement: Placement = Placement.SCREEN) -> ContentItem:
        """A text item (``replic`` placement: a line the host says)."""
        return ContentItem(ContentType.TEXT, value, placement=placement)

    @staticmethod
    def media(content_type: ContentType, file_name: str, placement: Placement | None = None) -> ContentItem:
        """A media item referencing a file of the package, with SIGame's default placement for its type."""
        return ContentItem(
            content_type,
            file_name,
            is_ref=True,
            placement=Placement.default_for(content_type) if placement is None else placement,
        )

    @property
    def is_text(self) -> bool:
        return self.type is ContentType.TEXT


@dataclass(frozen=True, slots=True)
class NumberSet:
    """A set of allowed numbers ``minimum, minimum + step, …, maximum`` (a secret question's price choice).

    ``step == 0`` means just the two ends (or the one number when they are equal); SIGame's text form is
    ``300``, ``[100;500]`` or ``[100;500]/100``.

    >>> NumberSet.parse("[100;1000]/200").values()
    (100, 300, 500, 700, 900)
    >>> NumberSet.parse("[100;500]")
    NumberSet(minimum=100, maximum=500, step=400)
    >>> str(NumberSet.parse("700"))
    '700'
    """

    minimum: int
    maximum: int
    step: int = 0

    _TEXT = re.compile(r"\s*\[\s*(-?\d{1,9})\s*;\s*(-?\d{1,9})\s*\]\s*(?:/\s*(-?\d{1,9})\s*)?")
    """Nine digits at most: a longer number is no price, and ``int`` refuses 4300 digits with a bare ValueError."""

    @staticmethod
    def parse(text: str) -> NumberSet:
        """Read SIGame's text form; raises :class:`PackError` for anything else."""
        stripped = text.strip()
        if re.fullmatch(r"-?\d{1,9}", stripped):
            return NumberSet(int(stripped), int(stripped), 0)
        match = NumberSet._TEXT.fullmatch(text)
        if match is None:
            raise PackError(PackCode.BAD_VALUE, value=text[:60], kind_term=PACK_TERMS["number_set"])
        low, high = int(match[1]), int(match[2])
        step = int(match[3]) if match[3] is not None else high - low
        return NumberSet(low, high, step)

    @property
    def size(self) -> int:
        """How many numbers :meth:`values` lists, computed without listing them (limits check this first)."""
        if self.step <= 0 or self.maximum <= self.minimum:
            return len({self.minimum, self.maximum})
        return (self.maximum - self.minimum) // self.step + 1

    def values(self) -> tuple[int, ...]:
        """The allowed numbers, smallest first."""
        if self.step <= 0 or self.maximum <= self.minimum:
            return tuple(sorted({self.minimum, self.maximum}))
        return tuple(range(self.minimum, self.maximum + 1, self.step))

    def __str__(self) -> str:
        if self.minimum == self.maximum:
            return str(self.minimum)
        text = f"[{self.minimum};{self.maximum}]"
        return text if self.step == self.maximum - self.minimum else f"{text}/{self.step}"


@dataclass(frozen=True, slots=True)
class Parameter:
    """A named question parameter (or script step parameter), in SIQ's ``param`` shape.

    Exactly one of the value fields is meaningful, by :attr:`kind`: :attr:`text` (simple), :attr:`items`
    (content), :attr:`children` (group, e.g. ``answerOptions`` A–D) or :attr:`number_set`. :attr:`is_ref` marks a
    step parameter that names a question parameter instead of holding a value.
    """

    name: str
    kind: ParameterKind = ParameterKind.SIMPLE
    text: str = ""
    items: tuple[ContentItem, ...] = ()
    children: tuple[Parameter, ...] = ()
    number_set: NumberSet | None = None
    is_ref: bool = False

    @staticmethod
    def simple(name: str, text: str) -> Parameter:
        return Parameter(str(name), ParameterKind.SIMPLE, text=text)

    @staticmethod
    def content(name: str, items: tuple[ContentItem, ...]) -> Parameter:
        return Parameter(str(name), ParameterKind.CONTENT, items=items)

    @staticmethod
    def group(name: str, children: tuple[Parameter, ...]) -> Parameter:
        return Parameter(str(name), ParameterKind.GROUP, children=children)

    @staticmethod
    def numbers(name: str, number_set: NumberSet) -> Parameter:
        return Parameter(str(name), ParameterKind.NUMBER_SET, number_set=number_set)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a custom question script (``script/step``), kept so custom questions survive a round trip."""

    type: str
    params: tuple[Parameter, ...] = ()


@dataclass(frozen=True, slots=True)
class Info:
    """Authors, sources and comments of a package, round, theme or question (SIQ ``infoType``).

    Authors and sources of an outer object apply to everything inside it unless overridden.
    """

    authors: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    comments: str = ""
    showman_comments: str = ""
    extension: str = ""

    @property
    def is_empty(self) -> bool:
        return self == _EMPTY_INFO


_EMPTY_INFO = Info()


@dataclass(frozen=True, slots=True)
class Question:
    """A question: its price, type, parameters (content and settings) and the accepted and known wrong answers.

    ``price == EMPTY_PRICE`` (−1) is an empty board cell. :attr:`type` is a :class:`QuestionType` value or any
    custom name; ``""`` lets the round decide.
    """

    price: int
    type: str = QuestionType.DEFAULT.value
    params: tuple[Parameter, ...] = ()
    right: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    info: Info = field(default_factory=Info)
    script: tuple[Step, ...] | None = None
    """A custom script, when the package gives one; ``None``: the built-in script of :attr:`type`."""

    @property
    def is_empty(self) -> bool:
        """An empty board cell (price −1): nothing to play."""
        return self.price == EMPTY_PRICE

    def param(self, name: str) -> Parameter | None:
        """The parameter with this name, if the question has it."""
        return next((param for param in self.params if param.name == name), None)

    @property
    def question_items(self) -> tuple[ContentItem, ...]:
        """What is read and shown as the question, in order."""
        param = self.param(ParameterName.QUESTION)
        return param.items if param is not None else ()

    @property
    def answer_items(self) -> tuple[ContentItem, ...]:
        """What is shown as the right answer; empty when the first right answer is shown instead."""
        param = self.param(ParameterName.ANSWER)
        return param.items if param is not None else ()

    @property
    def question_text(self) -> str:
        """The question's text items (screen and spoken), each stripped, joined with spaces; media left out."""
        return " ".join(text for item in self.question_items if item.is_text and (text := item.value.strip()))

    @property
    def answers(self) -> tuple[str, ...]:
        """The accepted answers (SIQ ``right/answer``), main answer first, stripped; empty ones dropped."""
        return tuple(text for answer in self.right if (text := answer.strip()))

    @property
    def special_type(self) -> str:
        """:attr:`type` when it is more than an ordinary buzzer question (``stake``, ``secret``, a custom name…),
        else ``""`` (the default and ``simple``)."""
        return self.type if self.type not in (QuestionType.DEFAULT, QuestionType.SIMPLE) else ""

    @property
    def answer_type(self) -> str:
        """``text`` (default), ``number``, ``select``, ``point`` or ``client``."""
        param = self.param(ParameterName.ANSWER_TYPE)
        return param.text if param is not None and param.text else "text"

    def content_items(self) -> Iterator[ContentItem]:
        """Every content item of the question, nested parameters included (media checks walk these)."""
        yield from _walk_items(self.params)
        for step in self.script or ():
            yield from _walk_items(step.params)


def _walk_items(params: tuple[Parameter, ...]) -> Iterator[ContentItem]:
    for param in params:
        yield from param.items
        yield from _walk_items(param.children)


@dataclass(frozen=True, slots=True)
class Theme:
    """A theme: a name and its questions, cheapest first as the board shows them."""

    name: str
    questions: tuple[Question, ...] = ()
    info: Info = field(default_factory=Info)


@dataclass(frozen=True, slots=True)
class Round:
    """A round of themes. :attr:`type` is SIQ's string (``standart``, ``final``, or an alias)."""

    name: str
    themes: tuple[Theme, ...] = ()
    type: str = RoundType.STANDART.value
    info: Info = field(default_factory=Info)

    @property
    def is_final(self) -> bool:
        return self.type in (RoundType.FINAL, RoundType.THEME_LIST)


@dataclass(frozen=True, slots=True)
class MediaFile:
    """A media file stored in the package: its type (hence its folder), un-escaped name and bytes."""

    type: ContentType
    name: str
    data: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Package:
    """A whole question pack. Optional metadata follows SIQ ``package`` attributes; ``""`` means absent."""

    name: str
    rounds: tuple[Round, ...] = ()
    id: str = ""
    restriction: str = ""
    date: str = ""
    publisher: str = ""
    difficulty: int | None = None
    logo: str = ""
    """``@<file name>`` of an image of the package, or an URL."""
    language: str = ""
    contact_uri: str = ""
    tags: tuple[str, ...] = ()
    info: Info = field(default_factory=Info)
    media: tuple[MediaFile, ...] = ()
    quality_marked: bool = False
    """The publisher's quality-control mark (``quality.marker`` in a ``.siq``)."""

    def questions(self) -> Iterator[tuple[Round, Theme, Question]]:
        """Every question with its round and theme, in package order."""
        for round_ in self.rounds:
            for theme in round_.themes:
                for question in theme.questions:
                    yield round_, theme, question

    def media_file(self, content_type: ContentType, name: str) -> MediaFile | None:
        """The stored file a media item references, if the package has it."""
        return next((m for m in self.media if m.type is content_type and m.name == name), None)
