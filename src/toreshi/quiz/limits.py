"""Guards for untrusted pack files: zip bombs, XML entity tricks, path traversal and oversized content.

A ``.siq`` is a ZIP archive that anyone can upload, so nothing in it is trusted: the archive is inspected
before anything is decompressed (entry count, declared sizes, compression ratio, entry names), every
decompression is capped again while it runs (declared sizes can lie), the XML is parsed with ``defusedxml``
with DTDs forbidden, and the resulting package is checked against SIGame's own content limits
(``PackageLimits.cs``: rounds, themes, questions, parameters, content items, text lengths).

>>> safe_entry_name("Images/map%201.png")
'Images/map 1.png'
>>> safe_entry_name("../../etc/passwd")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
toreshi.quiz.limits.UnsafePackError: pack_entry_name_unsafe (entry='../../etc/passwd', reason_term=...traversal')
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from typing import BinaryIO
from urllib.parse import unquote
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeElementTree

from toreshi.quiz.codes import PACK_TERMS, PackCode, place_of
from toreshi.quiz.pack import Info, Package, PackError, Parameter, Question

__all__ = [
    "DEFAULT_LIMITS",
    "Limits",
    "UnsafePackError",
    "check_package",
    "parse_xml",
    "read_archive",
    "safe_entry_name",
]

_MIB = 1024 * 1024


class UnsafePackError(PackError):
    """A pack that breaks a safety limit (or looks crafted to); its parameters name the limit and where."""


def shown_name(name: str) -> str:
    """An archive entry's name as a refusal may show it: control characters escaped, at most 200 characters."""
    return repr(name)[1:-1][:200]


@dataclass(frozen=True, slots=True)
class Limits:
    """Every cap applied to an untrusted pack. The defaults admit any real SIGame package.

    Archive caps are ours (SIGame has none); content caps are SIGame's ``PackageLimits``, except that
    comments get the content-value cap rather than the 350-character text cap, because real packs
    carry multi-paragraph comments.
    """

    max_entries: int = 2_000
    max_entry_size: int = 100 * _MIB
    """Uncompressed bytes of one entry (a video is the largest thing a pack holds)."""
    max_total_size: int = 512 * _MIB
    """Uncompressed bytes of the whole archive."""
    max_ratio: float = 200.0
    """Uncompressed ÷ compressed size of one entry; text compresses ~10×, a zip bomb ~1,000×."""
    ratio_floor: int = 64 * 1024
    """Entries smaller than this are exempt from the ratio check (tiny files compress absurdly well)."""
    max_xml_size: int = 16 * _MIB
    """Uncompressed bytes of ``content.xml`` (or any text file), before parsing."""
    max_name_length: int = 1_024
    max_depth: int = 32
    """XML element nesting (a real package nests about 9 deep; deep nests would exhaust the recursion)."""
    max_elements: int = 500_000
    max_rounds: int = 50
    max_themes: int = 30
    """Themes per round."""
    max_questions: int = 30
    """Questions per theme."""
    max_params: int = 30
    """Parameters per question (and per nested group or script step)."""
    max_steps: int = 30
    max_items: int = 30
    """Content items per parameter."""
    max_info_items: int = 10
    """Authors or sources per info block."""
    max_text: int = 350
    """Names, answers, authors, sources, tags, simple parameter values."""
    max_content: int = 1_500
    """A content item's value, a comment."""
    max_number_set: int = 1_000
    """Numbers a number set may offer (``[1;999999999]/1`` would otherwise be a memory bomb for the game)."""


DEFAULT_LIMITS = Limits()


def safe_entry_name(raw: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The un-escaped name of an archive entry; raises :class:`UnsafePackError` for a dangerous one.

    Refused: absolute paths, drive letters, ``..`` segments, backslashes and control characters, checked
    both as written and after percent-decoding (``%2e%2e%2f`` is ``../``).
    """
    if len(raw) > limits.max_name_length:
        raise UnsafePackError(PackCode.ENTRY_NAME_TOO_LONG, length=len(raw), limit=limits.max_name_length)
    try:
        name = unquote(raw, errors="strict")
    except UnicodeDecodeError:
        name = raw  # like .NET's UnescapeDataString: an invalid escape stays as written
    for candidate in (raw, name):
        reason = None
        if any(ord(char) < 32 for char in candidate):
            reason = "control"
        elif "\\" in candidate:
            reason = "backslash"
        elif candidate.startswith("/") or (len(candidate) > 1 and candidate[1] == ":"):
            reason = "absolute"
        elif ".." in candidate.split("/"):
            reason = "traversal"
        if reason is not None:
            raise UnsafePackError(PackCode.ENTRY_NAME_UNSAFE, entry=shown_name(raw), reason_term=PACK_TERMS[reason])
    return name


def read_archive(source: bytes | BinaryIO, limits: Limits = DEFAULT_LIMITS) -> dict[str, bytes]:
    """Every file of a ZIP archive by un-escaped name, after all archive checks pass.

    Directory entries are skipped. Raises :class:`UnsafePackError` for a breached limit and
    :class:`~toreshi.quiz.pack.PackError` for a file that is not a readable ZIP archive.
    """
    stream: BinaryIO = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        archive = zipfile.ZipFile(stream)
    except Exception:  # zipfile raises a zoo of types on crafted headers; all mean "not readable"
        raise PackError(PackCode.NOT_A_ZIP) from None
    with archive:
        members = archive.infolist()
        _check_directory(members, limits)
        files: dict[str, bytes] = {}
        total = 0
        for member in members:
            if not member.filename:
                raise UnsafePackError(PackCode.ENTRY_EMPTY_NAME)
            if member.filename.endswith("/"):
                continue  # a directory entry
            name = safe_entry_name(_utf8_name(member), limits)
            if name in files:
                raise UnsafePackError(PackCode.ENTRY_TWICE, entry=shown_name(name))
            data = _read_capped(archive, member, limits, limits.max_total_size - total)
            total += len(data)
            files[name] = data
    return files


def _utf8_name(member: zipfile.ZipInfo) -> str:
    """The entry name, re-read as UTF-8 when a tool stored UTF-8 without setting the ZIP UTF-8 flag."""
    if member.flag_bits & 0x800:
        return member.filename
    try:
        return member.filename.encode("cp437").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return member.filename


def _check_directory(members: list[zipfile.ZipInfo], limits: Limits) -> None:
    """Refuse a bomb from its central directory alone, before decompressing a byte."""
    if len(members) > limits.max_entries:
        raise UnsafePackError(PackCode.TOO_MANY_ENTRIES, count=len(members), limit=limits.max_entries)
    declared_total = 0
    for member in members:
        if member.flag_bits & 0x1:
            raise UnsafePackError(PackCode.ENTRY_ENCRYPTED, entry=shown_name(member.filename))
        if member.file_size > limits.max_entry_size:
            raise UnsafePackError(
                PackCode.ENTRY_TOO_LARGE, entry=shown_name(member.filename), size=member.file_size,
                limit=limits.max_entry_size,
            )  # fmt: skip
        if member.file_size >= limits.ratio_floor:
            ratio = member.file_size / max(member.compress_size, 1)
            if ratio > limits.max_ratio:
                raise UnsafePackError(
                    PackCode.ENTRY_RATIO, entry=shown_name(member.filename), ratio=round(ratio),
                    limit=round(limits.max_ratio),
                )  # fmt: skip
        declared_total += member.file_size
    if declared_total > limits.max_total_size:
        raise UnsafePackError(PackCode.ARCHIVE_TOO_LARGE, size=declared_total, limit=limits.max_total_size)


def _read_capped(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limits: Limits, budget: int) -> bytes:
    """Decompress one entry in chunks, stopping as soon as it exceeds what its header promised or a cap."""
    cap = min(member.file_size, limits.max_entry_size, budget)
    chunks: list[bytes] = []
    size = 0
    try:
        with archive.open(member) as entry:
            while chunk := entry.read(256 * 1024):
                size += len(chunk)
                if size > cap:
                    raise UnsafePackError(
                        PackCode.ENTRY_TOO_LARGE, entry=shown_name(member.filename), size=size, limit=cap
                    )
                chunks.append(chunk)
    except PackError:
        raise
    except Exception:  # zlib.error, lzma.LZMAError, BadZipFile (CRC), NotImplementedError (method), …
        raise PackError(PackCode.ENTRY_UNREADABLE, entry=shown_name(member.filename)) from None
    return b"".join(chunks)


def parse_xml(data: bytes, what: str, limits: Limits = DEFAULT_LIMITS) -> Element:
    """Parse untrusted XML: no DTD, no entities, no external references, bounded size."""
    if len(data) > limits.max_xml_size:
        raise UnsafePackError(PackCode.XML_TOO_LARGE, entry=what, size=len(data), limit=limits.max_xml_size)
    try:
        root: Element = SafeElementTree.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except defusedxml.DefusedXmlException as error:
        raise UnsafePackError(PackCode.XML_FORBIDDEN, entry=what, feature=type(error).__name__) from None
    except ParseError as error:
        line, column = error.position
        raise PackError(PackCode.XML_MALFORMED, entry=what, line=line, column=column + 1) from None
    _check_tree(root, what, limits)
    return root


def _check_tree(root: Element, what: str, limits: Limits) -> None:
    count = 0
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > limits.max_depth:
            raise UnsafePackError(PackCode.XML_TOO_DEEP, entry=what, depth=depth, limit=limits.max_depth)
        if count > limits.max_elements:
            raise UnsafePackError(PackCode.XML_TOO_MANY_ELEMENTS, entry=what, limit=limits.max_elements)
        stack.extend((child, depth + 1) for child in element)


def check_package(package: Package, limits: Limits = DEFAULT_LIMITS) -> None:
    """Apply SIGame's content limits; raises :class:`UnsafePackError` naming the first breach and where (``place``:
    the pack's name for the pack itself, else its own names from the round down)."""
    top: Place = (package.name,)
    _check_text(package.name, "package_name", top, limits.max_text)
    _check_count(package.rounds, limits.max_rounds, PackCode.TOO_MANY_ROUNDS, top)
    _check_texts(package.tags, "tag", top, limits.max_text)
    _check_info(package.info, top, limits)
    for round_ in package.rounds:
        place: Place = (round_.name,)
        _check_text(round_.name, "round_name", place, limits.max_text)
        _check_count(round_.themes, limits.max_themes, PackCode.TOO_MANY_THEMES, place)
        _check_info(round_.info, place, limits)
        for theme in round_.themes:
            place = (round_.name, theme.name)
            _check_text(theme.name, "theme_name", place, limits.max_text)
            _check_count(theme.questions, limits.max_questions, PackCode.TOO_MANY_QUESTIONS, place)
            _check_info(theme.info, place, limits)
            for question in theme.questions:
                _check_question(question, (*place, str(question.price)), limits)


Place = tuple[str, ...]
"""Where in a pack: its name, or the names from the round down (round, theme, question price, parameters)."""


def _check_question(question: Question, place: Place, limits: Limits) -> None:
    _check_text(question.type, "question_type", place, limits.max_text)
    _check_params(question.params, place, limits)
    _check_texts(question.right, "right_answer", place, limits.max_text)
    _check_texts(question.wrong, "wrong_answer", place, limits.max_text)
    _check_info(question.info, place, limits)
    if question.script is not None:
        _check_count(question.script, limits.max_steps, PackCode.TOO_MANY_SCRIPT_STEPS, place)
        for step in question.script:
            _check_params(step.params, place, limits)


def _check_params(params: tuple[Parameter, ...], place: Place, limits: Limits) -> None:
    _check_count(params, limits.max_params, PackCode.TOO_MANY_PARAMETERS, place)
    for param in params:
        _check_text(param.name, "parameter_name", place, limits.max_text)
        inner = (*place, param.name)
        _check_text(param.text, "parameter_value", inner, limits.max_content)
        _check_count(param.items, limits.max_items, PackCode.TOO_MANY_CONTENT_ITEMS, inner)
        for item in param.items:
            _check_text(item.value, "content", inner, limits.max_content)
        if param.number_set is not None and param.number_set.size > limits.max_number_set:
            raise UnsafePackError(
                PackCode.TOO_MANY_NUMBERS, place=place_of(*inner), count=param.number_set.size,
                limit=limits.max_number_set,
            )  # fmt: skip
        _check_params(param.children, inner, limits)


def _check_info(info: Info, place: Place, limits: Limits) -> None:
    _check_count(info.authors, limits.max_info_items, PackCode.TOO_MANY_AUTHORS, place)
    _check_count(info.sources, limits.max_info_items, PackCode.TOO_MANY_SOURCES, place)
    _check_texts(info.authors, "author", place, limits.max_text)
    _check_texts(info.sources, "source", place, limits.max_content)
    _check_text(info.comments, "comments", place, limits.max_content)
    _check_text(info.showman_comments, "showman_comments", place, limits.max_content)
    _check_text(info.extension, "extension", place, limits.max_content)


def _check_count(things: tuple[object, ...], limit: int, code: PackCode, place: Place) -> None:
    if len(things) > limit:
        raise UnsafePackError(code, place=place_of(*place), count=len(things), limit=limit)


def _check_texts(texts: Iterable[str], what: str, place: Place, limit: int) -> None:
    for text in texts:
        _check_text(text, what, place, limit)


def _check_text(text: str, what: str, place: Place, limit: int) -> None:
    if len(text) > limit:
        raise UnsafePackError(
            PackCode.TEXT_TOO_LONG, item_term=PACK_TERMS[what], place=place_of(*place), length=len(text), limit=limit
        )
