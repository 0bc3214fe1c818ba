"""«Своя игра»: question packs (:mod:`toreshi.quiz.pack`), their file formats, and the game by the regulation.

The pack model is pure and immutable; :mod:`toreshi.quiz.siq` reads and writes SIGame ``.siq`` files and
:mod:`toreshi.quiz.chgk` imports db.chgk.info «Своя игра» text.
"""

from toreshi.quiz.pack import (
    EMPTY_PRICE,
    ContentItem,
    ContentType,
    Info,
    MediaFile,
    NumberSet,
    Package,
    PackError,
    Parameter,
    ParameterKind,
    ParameterName,
    Placement,
    Question,
    QuestionType,
    Round,
    RoundType,
    Step,
    Theme,
)

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
