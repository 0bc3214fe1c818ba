"""Hostile pack files: each attack gets a clear PackError, never a crash, a hang or a huge allocation."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import re
import struct
import zipfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.quiz.limits import (
    DEFAULT_LIMITS,
    Limits,
    UnsafePackError,
    check_package,
    parse_xml,
    read_archive,
    safe_entry_name,
)
from toreshi.quiz.pack import (
    ContentItem,
    Info,
    NumberSet,
    Package,
    PackError,
    Parameter,
    Question,
    Round,
    Theme,
)
from toreshi.quiz.siq import read_siq, write_siq

_CONTENT = (
    b'<package version="5" name="N"><rounds><round name="R"><themes><theme name="T"><questions>'
    b'<question price="1"><params><param name="question" type="content"><item>Q</item></param></params>'
    b"<right><answer>A</answer></right></question></questions></theme></themes></round></rounds></package>"
)


def _zip(files: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------------------- zip bombs


def test_a_high_compression_ratio_is_refused_before_decompressing() -> None:
    bomb = _zip({"content.xml": _CONTENT, "Images/zeros.png": bytes(4 * 1024 * 1024)})
    with pytest.raises(UnsafePackError, match=r"compression ratio \d+:1, more than 200:1 \(zip bomb\?\)"):
        read_siq(bomb)


def test_small_entries_are_exempt_from_the_ratio_check() -> None:
    package = read_siq(_zip({"content.xml": _CONTENT, "Texts/blank.txt": bytes(60_000)}))
    assert package.name == "N"


def test_an_oversized_entry_is_refused() -> None:
    data = _zip({"content.xml": _CONTENT, "Video/v.mp4": os.urandom(5_000)})
    with pytest.raises(UnsafePackError, match="unpacks to 5000 bytes, more than 4096"):
        read_siq(data, Limits(max_entry_size=4096))


def test_an_oversized_archive_is_refused() -> None:
    data = _zip({"content.xml": _CONTENT, "Video/a.mp4": os.urandom(3_000), "Video/b.mp4": os.urandom(3_000)})
    with pytest.raises(UnsafePackError, match=r"archive unpacks to \d+ bytes, more than 5000"):
        read_siq(data, Limits(max_total_size=5_000))


def test_too_many_entries_are_refused() -> None:
    files = {"content.xml": _CONTENT} | {f"Images/{index}.png": b"x" for index in range(10)}
    with pytest.raises(UnsafePackError, match="archive has 11 entries, more than 10"):
        read_siq(_zip(files), Limits(max_entries=10))


def test_an_entry_larger_than_its_header_says_is_never_read_past_the_header() -> None:
    """A crafted central directory claiming 100 bytes for 1 MiB: we get at most 100 bytes or an error."""
    honest = _zip({"Images/big.png": bytes(range(256)) * 4096})
    declared = 100
    patched = bytearray(honest)
    central = patched.rfind(b"PK\x01\x02")
    local = patched.find(b"PK\x03\x04")
    struct.pack_into("<I", patched, central + 24, declared)  # uncompressed size in the central directory
    struct.pack_into("<I", patched, local + 22, declared)  # … and in the local header
    try:
        files = read_archive(bytes(patched))
    except PackError:
        return
    assert len(files["Images/big.png"]) <= declared


def test_an_encrypted_entry_is_refused() -> None:
    data = bytearray(_zip({"content.xml": _CONTENT}))
    central = data.rfind(b"PK\x01\x02")
    data[central + 8] |= 0x1  # general purpose flag: encrypted
    with pytest.raises(UnsafePackError, match="is encrypted"):
        read_siq(bytes(data))


def test_a_corrupt_entry_is_a_pack_error() -> None:
    data = bytearray(_zip({"content.xml": _CONTENT * 20}))
    start = data.find(b"content.xml") + len("content.xml")
    data[start + 10 : start + 40] = b"\xff" * 30  # inside the deflate stream
    with pytest.raises(PackError, match=r"content\.xml|not well-formed|cannot be decompressed"):
        read_siq(bytes(data))


# -------------------------------------------------------------------------------------------- path traversal


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("../evil.png", "path traversal"),
        ("Images/../../evil.png", "path traversal"),
        ("Images/%2e%2e/%2e%2e/evil.png", "path traversal"),
        ("Images/..%2F..%2Fevil.png", "path traversal"),
        ("/etc/passwd", "absolute path"),
        ("%2Fetc%2Fpasswd", "absolute path"),
        ("C:/Windows/evil.dll", "absolute path"),
        ("Images\\..\\evil.png", "backslash"),
        ("Images/a%5C..%5Cb.png", "backslash"),
        ("Images/a\x00.png", "control characters"),
        ("Images/%00.png", "control characters"),
    ],
)
def test_dangerous_entry_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(UnsafePackError, match=re.escape(message)):
        safe_entry_name(name)


def test_traversal_inside_an_archive_is_refused() -> None:
    with pytest.raises(UnsafePackError, match="path traversal"):
        read_siq(_zip({"content.xml": _CONTENT, "Images/../../../tmp/x.png": b"x"}))


def test_names_that_collide_after_unescaping_are_refused() -> None:
    with pytest.raises(UnsafePackError, match="appears twice"):
        read_siq(_zip({"content.xml": _CONTENT, "Images/a b.png": b"1", "Images/a%20b.png": b"2"}))


def test_an_overlong_entry_name_is_refused() -> None:
    with pytest.raises(UnsafePackError, match="longer than 1024"):
        safe_entry_name("Images/" + "a" * 1100)


def test_ordinary_names_are_unescaped() -> None:
    assert safe_entry_name("Audio/%D0%BF%D0%B5%D1%81%D0%BD%D1%8F.mp3") == "Audio/песня.mp3"
    assert safe_entry_name("Images/50%.png") == "Images/50%.png"  # not an escape: kept as written
    assert safe_entry_name("Images/%FF.png") == "Images/%FF.png"  # invalid UTF-8 escape: kept as written


# ---------------------------------------------------------------------------------------------- XML attacks

_BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<package version="5" name="&lol3;"><rounds/></package>"""

_EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE package [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<package version="5" name="&secret;"><rounds/></package>"""

_DTD_ONLY = b"""<?xml version="1.0"?><!DOCTYPE package SYSTEM "http://example.org/siq.dtd"><package/>"""


@pytest.mark.parametrize("xml", [_BILLION_LAUGHS, _EXTERNAL_ENTITY, _DTD_ONLY])
def test_xml_entities_and_dtds_are_refused(xml: bytes) -> None:
    with pytest.raises(UnsafePackError, match="forbidden XML feature"):
        read_siq(_zip({"content.xml": xml}))


def test_deep_nesting_is_refused() -> None:
    xml = b"<package>" + b"<a>" * 200 + b"</a>" * 200 + b"</package>"
    with pytest.raises(UnsafePackError, match="nests elements 33 deep, more than 32"):
        parse_xml(xml, "content.xml")


def test_an_oversized_xml_file_is_refused_before_parsing() -> None:
    with pytest.raises(UnsafePackError, match=r"content\.xml is 2000 bytes, more than 1000"):
        parse_xml(b" " * 2000, "content.xml", Limits(max_xml_size=1000))


def test_too_many_elements_are_refused() -> None:
    xml = b"<package>" + b"<tag/>" * 50 + b"</package>"
    with pytest.raises(UnsafePackError, match="more than 40 elements"):
        parse_xml(xml, "content.xml", Limits(max_elements=40))


# -------------------------------------------------------------------------------------------- content limits


def _package(question: Question | None = None, **fields: Any) -> Package:
    theme = Theme("T", (question or Question(1, right=("A",)),))
    return dataclasses.replace(Package("P", rounds=(Round("R", (theme,)),)), **fields)


@pytest.mark.parametrize(
    ("package", "message"),
    [
        (_package(name="x" * 351), "package name is 351 characters long, more than 350"),
        (_package(rounds=tuple(Round(f"R{index}") for index in range(51))), "the package has 51 rounds, more than 50"),
        (_package(rounds=(Round("R", tuple(Theme(f"T{i}") for i in range(31))),)), "has 31 themes, more than 30"),
        (_package(rounds=(Round("R", (Theme("T", tuple(Question(i) for i in range(31))),)),)), "31 questions"),
        (
            _package(Question(1, params=(Parameter.content("question", (ContentItem.text("q" * 1501),)),))),
            "content of parameter 'question' of question 1 of theme 'T' of round 'R' is 1501 characters long",
        ),
        (
            _package(Question(1, params=(Parameter.content("question", (ContentItem.text("q"),) * 31),))),
            "31 content items",
        ),
        (_package(Question(1, params=tuple(Parameter.simple(f"p{i}", "") for i in range(31)))), "31 parameters"),
        (_package(Question(1, right=("a" * 351,))), "right answer of question 1"),
        (
            _package(Question(1, params=(Parameter.numbers("price", NumberSet(1, 999_999_999, 1)),))),
            "parameter 'price' of question 1 of theme 'T' of round 'R' offers 999999999 numbers, more than 1000",
        ),
        (_package(info=Info(authors=tuple("a" for _ in range(11)))), "the package has 11 authors, more than 10"),
        (_package(info=Info(comments="c" * 1501)), "comments of the package is 1501 characters long"),
    ],
)
def test_content_limits_name_the_breach(package: Package, message: str) -> None:
    with pytest.raises(UnsafePackError, match=re.escape(message)):
        check_package(package)


def test_content_limits_apply_when_reading() -> None:
    data = write_siq(_package(name="x" * 400))
    with pytest.raises(UnsafePackError, match="package name is 400 characters long"):
        read_siq(data)
    assert read_siq(data, Limits(max_text=500)).name == "x" * 400


def test_default_limits_are_sigames() -> None:
    limits = DEFAULT_LIMITS
    assert (limits.max_rounds, limits.max_themes, limits.max_questions) == (50, 30, 30)
    assert (limits.max_items, limits.max_params, limits.max_info_items) == (30, 30, 10)
    assert (limits.max_text, limits.max_content) == (350, 1500)


# ---------------------------------------------------------------------------------------------------- fuzzing


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2_000))
def test_random_bytes_never_crash_the_reader(data: bytes) -> None:
    with contextlib.suppress(PackError):
        read_siq(data)


_VALID = _zip({"content.xml": _CONTENT, "Images/a b.png": b"\x89PNG" * 50})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_VALID) - 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_corrupted_archives_never_crash_the_reader(edits: list[tuple[int, int]]) -> None:
    data = bytearray(_VALID)
    for position, value in edits:
        data[position] = value
    try:
        package = read_siq(bytes(data))
    except PackError:
        return
    assert isinstance(package, Package)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_CONTENT) - 1), st.sampled_from(b"<>/=\"' &;x1-")), max_size=6))
def test_corrupted_xml_never_crashes_the_reader(edits: list[tuple[int, int]]) -> None:
    data = bytearray(_CONTENT)
    for position, value in edits:
        data[position] = value
    with contextlib.suppress(PackError):
        read_siq(_zip({"content.xml": bytes(data)}))
