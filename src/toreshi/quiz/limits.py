"""Guards for untrusted pack files: zip bombs, XML entity tricks, path traversal and oversized content.

A ``.siq`` is a ZIP archive that anyone can upload, so nothing in it is trusted: the archive is inspected
before anything is decompressed (entry count, declared sizes, compression ratio, entry names), every
decompression is capped again while it runs (declared sizes can lie), the XML is parsed with ``defusedxml``
with DTDs forbidden, and the resulting package is checked against SIGame's own content limits
(``PackageLimits.cs``: rounds, themes, questions, parameters, content items, text lengths).

>>> safe_entry_name("Images/map%201.png")
'Images/map 1.png'
>>> safe_entry_name("../../etc/passwd")
Traceback (most recent call last):
...
toreshi.quiz.limits.UnsafePackError: entry name '../../etc/passwd' leaves the archive (path traversal)
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
    """A pack that breaks a safety limit (or looks crafted to); the message names the limit."""


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
        raise UnsafePackError(f"entry name of {len(raw)} characters is longer than {limits.max_name_length}")
    try:
        name = unquote(raw, errors="strict")
    except UnicodeDecodeError:
        name = raw  # like .NET's UnescapeDataString: an invalid escape stays as written
    for candidate in (raw, name):
        if any(ord(char) < 32 for char in candidate):
            raise UnsafePackError(f"entry name {raw!r} contains control characters")
        if "\\" in candidate:
            raise UnsafePackError(f"entry name {raw!r} contains a backslash")
        if candidate.startswith("/") or (len(candidate) > 1 and candidate[1] == ":"):
            raise UnsafePackError(f"entry name {raw!r} is an absolute path")
        if ".." in candidate.split("/"):
            raise UnsafePackError(f"entry name {raw!r} leaves the archive (path traversal)")
    return name


def read_archive(source: bytes | BinaryIO, limits: Limits = DEFAULT_LIMITS) -> dict[str, bytes]:
    """Every file of a ZIP archive by un-escaped name, after all archive checks pass.

    Directory entries are skipped. Raises :class:`UnsafePackError` for a breached limit and
    :class:`~toreshi.quiz.pack.PackError` for a file that is not a readable ZIP archive.
    """
    stream: BinaryIO = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        archive = zipfile.ZipFile(stream)
    except Exception as error:  # zipfile raises a zoo of types on crafted headers; all mean "not readable"
        raise PackError(f"not a ZIP archive (a .siq file is one): {error}") from None
    with archive:
        members = archive.infolist()
        _check_directory(members, limits)
        files: dict[str, bytes] = {}
        total = 0
        for member in members:
            if not member.filename:
                raise UnsafePackError("the archive has an entry with an empty name")
            if member.filename.endswith("/"):
                continue  # a directory entry
            name = safe_entry_name(_utf8_name(member), limits)
            if name in files:
                raise UnsafePackError(f"entry {name!r} appears twice in the archive")
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
        raise UnsafePackError(f"archive has {len(members)} entries, more than {limits.max_entries}")
    declared_total = 0
    for member in members:
        if member.flag_bits & 0x1:
            raise UnsafePackError(f"entry {member.filename!r} is encrypted")
        if member.file_size > limits.max_entry_size:
            raise UnsafePackError(
                f"entry {member.filename!r} unpacks to {member.file_size} bytes, more than {limits.max_entry_size}"
            )
        if member.file_size >= limits.ratio_floor:
            ratio = member.file_size / max(member.compress_size, 1)
            if ratio > limits.max_ratio:
                raise UnsafePackError(
                    f"entry {member.filename!r} has compression ratio {ratio:.0f}:1, more than "
                    f"{limits.max_ratio:.0f}:1 (zip bomb?)"
                )
        declared_total += member.file_size
    if declared_total > limits.max_total_size:
        raise UnsafePackError(f"archive unpacks to {declared_total} bytes, more than {limits.max_total_size}")


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
                    raise UnsafePackError(f"entry {member.filename!r} unpacks to more than its limit of {cap} bytes")
                chunks.append(chunk)
    except PackError:
        raise
    except Exception as error:  # zlib.error, lzma.LZMAError, BadZipFile (CRC), NotImplementedError (method), …
        raise PackError(f"entry {member.filename!r} cannot be decompressed: {error}") from None
    return b"".join(chunks)


def parse_xml(data: bytes, what: str, limits: Limits = DEFAULT_LIMITS) -> Element:
    """Parse untrusted XML: no DTD, no entities, no external references, bounded size."""
    if len(data) > limits.max_xml_size:
        raise UnsafePackError(f"{what} is {len(data)} bytes, more than {limits.max_xml_size}")
    try:
        root: Element = SafeElementTree.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except defusedxml.DefusedXmlException as error:
        raise UnsafePackError(f"{what} uses a forbidden XML feature ({type(error).__name__}): {error}") from None
    except ParseError as error:
        raise PackError(f"{what} is not well-formed XML: {error}") from None
    _check_tree(root, what, limits)
    return root


def _check_tree(root: Element, what: str, limits: Limits) -> None:
    count = 0
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        count += 1
        if depth > limits.max_depth:
            raise UnsafePackError(f"{what} nests elements {depth} deep, more than {limits.max_depth}")
        if count > limits.max_elements:
            raise UnsafePackError(f"{what} has more than {limits.max_elements} elements")
        stack.extend((child, depth + 1) for child in element)


def check_package(package: Package, limits: Limits = DEFAULT_LIMITS) -> None:
    """Apply SIGame's content limits; raises :class:`UnsafePackError` naming the first breach and where."""
    _check_text(package.name, "package name", limits.max_text)
    _check_count(package.rounds, limits.max_rounds, "rounds", "the package")
    _check_texts(package.tags, "tag", limits.max_text)
    _check_info(package.info, "the package", limits)
    for round_ in package.rounds:
        where = f"round {round_.name!r}"
        _check_text(round_.name, "round name", limits.max_text)
        _check_count(round_.themes, limits.max_themes, "themes", where)
        _check_info(round_.info, where, limits)
        for theme in round_.themes:
            where = f"theme {theme.name!r} of round {round_.name!r}"
            _check_text(theme.name, "theme name", limits.max_text)
            _check_count(theme.questions, limits.max_questions, "questions", where)
            _check_info(theme.info, where, limits)
            for question in theme.questions:
                _check_question(question, f"question {question.price} of {where}", limits)


def _check_question(question: Question, where: str, limits: Limits) -> None:
    _check_text(question.type, f"type of {where}", limits.max_text)
    _check_params(question.params, where, limits)
    _check_texts(question.right, f"right answer of {where}", limits.max_text)
    _check_texts(question.wrong, f"wrong answer of {where}", limits.max_text)
    _check_info(question.info, where, limits)
    if question.script is not None:
        _check_count(question.script, limits.max_steps, "script steps", where)
        for step in question.script:
            _check_params(step.params, f"script step of {where}", limits)


def _check_params(params: tuple[Parameter, ...], where: str, limits: Limits) -> None:
    _check_count(params, limits.max_params, "parameters", where)
    for param in params:
        _check_text(param.name, f"parameter name in {where}", limits.max_text)
        _check_text(param.text, f"parameter {param.name!r} of {where}", limits.max_content)
        _check_count(param.items, limits.max_items, "content items", f"parameter {param.name!r} of {where}")
        for item in param.items:
            _check_text(item.value, f"content of parameter {param.name!r} of {where}", limits.max_content)
        if param.number_set is not None and param.number_set.size > limits.max_number_set:
            raise UnsafePackError(
                f"parameter {param.name!r} of {where} offers {param.number_set.size} numbers, "
                f"more than {limits.max_number_set}"
            )
        _check_params(param.children, f"parameter {param.name!r} of {where}", limits)


def _check_info(info: Info, where: str, limits: Limits) -> None:
    _check_count(info.authors, limits.max_info_items, "authors", where)
    _check_count(info.sources, limits.max_info_items, "sources", where)
    _check_texts(info.authors, f"author of {where}", limits.max_text)
    _check_texts(info.sources, f"source of {where}", limits.max_content)
    for text, label in ((info.comments, "comments"), (info.showman_comments, "showman comments")):
        _check_text(text, f"{label} of {where}", limits.max_content)
    _check_text(info.extension, f"extension of {where}", limits.max_content)


def _check_count(things: tuple[object, ...], limit: int, what: str, where: str) -> None:
    if len(things) > limit:
        raise UnsafePackError(f"{where} has {len(things)} {what}, more than {limit}")


def _check_texts(texts: Iterable[str], what: str, limit: int) -> None:
    for text in texts:
        _check_text(text, what, limit)


def _check_text(text: str, what: str, limit: int) -> None:
    if len(text) > limit:
        raise UnsafePackError(f"{what} is {len(text)} characters long, more than {limit}: {text[:40]!r}…")
