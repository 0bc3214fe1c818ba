"""The PlayOK PGN dialect (rules §6.3): a lenient, streaming reader driven by a visitor, and a writer.

Reading never stops at a bad game: problems are reported to the visitor's :meth:`Visitor.handle_error` and
collected on the game, and the reader moves on to the next game. Movetext is tokenised on whitespace, never on
lines, because PlayOK breaks lines anywhere (even between a move number and its moves).

>>> import io
>>> text = '[White "a"]\\n[Black "b"]\\n[Result "1-0"]\\n\\n1. 76(10) 98(10) 2. 12 1-0\\n'
>>> game = read_game(io.StringIO(text))
>>> game.headers["White"], [str(move) for move in game.moves], game.result
('a', ['76(10)', '98(10)', '12'], '1-0')
>>> print(game.accept(StringExporter()), end="")
[White "a"]
[Black "b"]
[Result "1-0"]
<BLANKLINE>
1. 76(10) 98(10) 2. 12 1-0
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TextIO, TypeVar, overload

from toreshi.togyz.notation import MoveToken, NotationError, format_token, parse_token

RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "0,5-0,5": "1/2-1/2",
    "*": "*",
}
"""Result tokens the reader accepts, mapped to the canonical token."""

# PGN's Seven Tag Roster order, adapted to what PlayOK writes; other tags follow in reading order.
TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

_TAG = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(r"\{[^}]*\}?|;[^\n]*|\d+\.+|[^\s{;]+")
_MOVE_NUMBER = re.compile(r"\d+\.+$")
MOVE_NUMBER_DIGITS = 6
"""The longest move number read as a number; a longer one is reported as a wrong move number."""


@dataclass(frozen=True)
class RecordError:
    """A problem in one game of a record.

    ``ply`` is 1-based (``None`` when the problem concerns no move), ``move`` says whose move it was and how it
    was written, ``line`` is the line of the file where the reader met it.
    """

    message: str
    ply: int | None = None
    line: int | None = None
    move: str | None = None

    def __str__(self) -> str:
        where = []
        if self.ply is not None:
            where.append(f"ply {self.ply}" + (f" ({self.move})" if self.move else ""))
        if self.line is not None:
            where.append(f"line {self.line}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


@dataclass
class PgnGame:
    """One game as written: tags, move tokens with their annotations, the result token and comments."""

    headers: dict[str, str] = field(default_factory=dict)
    moves: list[MoveToken] = field(default_factory=list)
    result: str | None = None
    comments: list[str] = field(default_factory=list)
    """Comments in the movetext, without braces, in order (PlayOK writes ``zero`` after an atsyz result)."""
    errors: list[RecordError] = field(default_factory=list)
    """What the reader could not understand; a game with errors is kept, but not trusted."""

    def accept(self, visitor: Visitor[T]) -> T:
        """Drive ``visitor`` over this game, as the reader would (used by the writer)."""
        visitor.begin_game()
        for name, value in self.headers.items():
            visitor.visit_header(name, value)
        visitor.end_headers()
        for ply, move in enumerate(self.moves, start=1):
            visitor.visit_move(move, ply)
        if self.result is not None:
            visitor.visit_result(self.result)
        for comment in self.comments:
            visitor.visit_comment(comment)
        for error in self.errors:
            visitor.handle_error(error)
        visitor.end_game()
        return visitor.result()


T = TypeVar("T")


class Visitor(Generic[T]):
    """Receives the parts of one game in reading order. Override what you need; :meth:`result` is required.

    :meth:`end_headers` may return ``SKIP`` to skip the movetext (for a fast scan of tags only).
    """

    def begin_game(self) -> None:
        """Called before anything else of a game."""

    def visit_header(self, name: str, value: str) -> None:
        """A tag pair."""

    def end_headers(self) -> object:
        """After the last tag pair; return :data:`SKIP` to skip the movetext."""
        return None

    def visit_move(self, move: MoveToken, ply: int) -> None:
        """A move token; ``ply`` counts from 1."""

    def visit_result(self, result: str) -> None:
        """The result token, canonical (``1-0``, ``0-1``, ``1/2-1/2``, ``*``)."""

    def visit_comment(self, comment: str) -> None:
        """A ``{…}`` or ``;`` comment, without its delimiters."""

    def handle_error(self, error: RecordError) -> None:
        """A problem in this game; the reader continues with what it can."""

    def end_game(self) -> None:
        """Called after the last part of a game."""

    def result(self) -> T:
        raise NotImplementedError


SKIP = object()
"""Return from :meth:`Visitor.end_headers` to skip the movetext of a game."""


class GameBuilder(Visitor[PgnGame]):
    """Builds a :class:`PgnGame`; after the first bad move token it collects no more moves for that game."""

    def begin_game(self) -> None:
        self.game = PgnGame()
        self._broken = False

    def visit_header(self, name: str, value: str) -> None:
        self.game.headers[name] = value

    def visit_move(self, move: MoveToken, ply: int) -> None:
        if not self._broken:
            self.game.moves.append(move)

    def visit_result(self, result: str) -> None:
        self.game.result = result

    def visit_comment(self, comment: str) -> None:
        self.game.comments.append(comment)

    def handle_error(self, error: RecordError) -> None:
        if error.ply is not None:
            self._broken = True  # moves after an unreadable one cannot be trusted
        self.game.errors.append(error)

    def result(self) -> PgnGame:
        return self.game


class HeadersOnly(Visitor[dict[str, str]]):
    """Collects the tag pairs and skips the movetext."""

    def begin_game(self) -> None:
        self.headers: dict[str, str] = {}

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> object:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.headers


class StringExporter(Visitor[str]):
    """Writes a game in the PlayOK dialect: tags, a blank line, movetext wrapped at ``columns``, a blank line."""

    def __init__(self, columns: int = 80) -> None:
        self.columns = columns

    def begin_game(self) -> None:
        self._headers: dict[str, str] = {}
        self._words: list[str] = []
        self._result: str | None = None
        self._comments: list[str] = []

    def visit_header(self, name: str, value: str) -> None:
        self._headers[name] = value

    def visit_move(self, move: MoveToken, ply: int) -> None:
        if ply % 2 == 1:
            self._words.append(f"{ply // 2 + 1}.")
        self._words.append(format_token(move))

    def visit_result(self, result: str) -> None:
        self._result = result

    def visit_comment(self, comment: str) -> None:
        self._comments.append(comment)

    def result(self) -> str:
        ordered = [name for name in TAG_ORDER if name in self._headers]
        ordered += [name for name in self._headers if name not in TAG_ORDER]
        lines = [f'[{name} "{_escape(self._headers[name])}"]' for name in ordered]
        words = list(self._words)
        if self._result is not None:
            words.append(self._result)
        words += [f"{{{comment}}}" for comment in self._comments]
        movetext: list[str] = []
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > self.columns:
                movetext.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            movetext.append(line)
        return "\n".join([*lines, "", *movetext]) + "\n\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _read_movetext(visitor: Visitor[T], lines: list[tuple[int, str]], ply: int = 0) -> None:
    """Feed the movetext lines to the visitor, token by token."""
    ended = False
    for number, text in lines:
        for match in _TOKEN.finditer(text):
            word = match.group()
            if word.startswith("{"):
                if not word.endswith("}"):
                    visitor.handle_error(RecordError("a comment has no closing '}'", None, number))
                visitor.visit_comment(word.strip("{}").strip())
            elif word.startswith(";"):
                visitor.visit_comment(word[1:].strip())
            elif _MOVE_NUMBER.match(word):
                expected = ply // 2 + 1
                digits = word.rstrip(".")  # a long number is no move number (int refuses over 4300 digits)
                if (len(digits) > MOVE_NUMBER_DIGITS or int(digits) != expected) and not ended:
                    visitor.handle_error(
                        RecordError(f"move number {word[:20]} where {expected}. was expected", ply + 1, number)
                    )
            elif word in RESULTS:
                visitor.visit_result(RESULTS[word])
                ended = True
            elif word.lower() in ("result", "нәтиже", "результат"):
                continue  # booklets print "Result 1-0"
            elif ended:
                visitor.handle_error(RecordError(f"{word!r} after the result", None, number))
            else:
                ply += 1
                try:
                    move = parse_token(word)
                except NotationError as error:
                    visitor.handle_error(RecordError(str(error), ply, number))
                    continue
                visitor.visit_move(move, ply)


def _iter_sections(
    handle: TextIO, *, single: bool = False
) -> Iterator[tuple[list[tuple[int, str, str, str]], list[tuple[int, str]]]]:
    """Split a stream into games: (tag pairs as (line, name, value, raw), movetext lines).

    With ``single``, stop after the first game and, where the stream can seek, leave it at the start of
    the next game so that the caller can read on.
    """
    tags: list[tuple[int, str, str, str]] = []
    movetext: list[tuple[int, str]] = []
    number = 0
    rewind = single and handle.seekable()
    while True:
        offset = handle.tell() if rewind else 0
        raw = handle.readline()
        if not raw:
            break
        number += 1
        line = raw.rstrip("\r\n")
        if line.startswith("\ufeff"):
            line = line[1:]
        stripped = line.strip()
        if stripped.startswith("["):
            if movetext:  # a tag after movetext starts the next game
                yield tags, movetext
                if single:
                    if rewind:
                        handle.seek(offset)
                    return
                tags, movetext = [], []
            match = _TAG.match(stripped)
            if match:
                tags.append((number, match.group(1), _unescape(match.group(2)), stripped))
            else:
                tags.append((number, "", "", stripped))
        elif stripped:
            movetext.append((number, stripped))
    if tags or movetext:
        yield tags, movetext


def _visit(visitor: Visitor[T], tags: list[tuple[int, str, str, str]], movetext: list[tuple[int, str]]) -> T:
    visitor.begin_game()
    for number, name, value, raw in tags:
        if name:
            visitor.visit_header(name, value)
        else:
            visitor.handle_error(RecordError(f"unreadable tag pair {raw!r}", None, number))
    if visitor.end_headers() is not SKIP:
        if not movetext:
            visitor.handle_error(RecordError("the game has no movetext"))
        _read_movetext(visitor, movetext)
    visitor.end_game()
    return visitor.result()


@overload
def read_games(handle: TextIO) -> Iterator[PgnGame]: ...
@overload
def read_games(handle: TextIO, visitor: type[Visitor[T]]) -> Iterator[T]: ...
def read_games(handle: TextIO, visitor: type[Visitor[Any]] = GameBuilder) -> Iterator[Any]:
    """Yield every game of a stream, one visitor result per game (a :class:`PgnGame` by default).

    Reads line by line, so a file of any size streams through in constant memory per game.
    """
    for tags, movetext in _iter_sections(handle):
        yield _visit(visitor(), tags, movetext)


@overload
def read_game(handle: TextIO) -> PgnGame | None: ...
@overload
def read_game(handle: TextIO, visitor: type[Visitor[T]]) -> T | None: ...
def read_game(handle: TextIO, visitor: type[Visitor[Any]] = GameBuilder) -> Any:
    """Read the next game from a stream, or ``None`` at its end; call again for the following game
    (on a seekable stream; otherwise use :func:`read_games`)."""
    for tags, movetext in _iter_sections(handle, single=True):
        return _visit(visitor(), tags, movetext)
    return None


def write_game(game: PgnGame, columns: int = 80) -> str:
    """The game as PlayOK PGN text."""
    return game.accept(StringExporter(columns))
