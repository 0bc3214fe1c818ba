"""Hostile pack files: each attack gets a clear PackError, never a crash, a hang or a huge allocation."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import struct
import zipfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.refusal import ParamValue
from toreshi.quiz.codes import PackCode
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

from .refusals import unsafe

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
    with pytest.raises(UnsafePackError) as caught:
        read_siq(bomb)
    refusal = caught.value.refusal
    assert refusal.code is PackCode.ENTRY_RATIO
    assert {key: refusal.params[key] for key in ("entry", "limit")} == {"entry": "Images/zeros.png", "limit": 200}
    assert int(refusal.params["ratio"]) > 200


def test_small_entries_are_exempt_from_the_ratio_check() -> None:
    package = read_siq(_zip({"content.xml": _CONTENT, "Texts/blank.txt": bytes(60_000)}))
    assert package.name == "N"


def test_an_oversized_entry_is_refused() -> None:
    data = _zip({"content.xml": _CONTENT, "Video/v.mp4": os.urandom(5_000)})
    with unsafe(PackCode.ENTRY_TOO_LARGE, entry="Video/v.mp4", size=5_000, limit=4_096):
        read_siq(data, Limits(max_entry_size=4096))


def test_an_oversized_archive_is_refused() -> None:
    data = _zip({"content.xml": _CONTENT, "Video/a.mp4": os.urandom(3_000), "Video/b.mp4": os.urandom(3_000)})
    with unsafe(PackCode.ARCHIVE_TOO_LARGE, size=len(_CONTENT) + 6_000, limit=5_000):
        read_siq(data, Limits(max_total_size=5_000))


def test_too_many_entries_are_refused() -> None:
    files = {"content.xml": _CONTENT} | {f"Images/{index}.png": b"x" for index in range(10)}
    with unsafe(PackCode.TOO_MANY_ENTRIES, count=11, limit=10):
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
    with unsafe(PackCode.ENTRY_ENCRYPTED, entry="content.xml"):
        read_siq(bytes(data))


def test_a_corrupt_entry_is_a_pack_error() -> None:
    data = bytearray(_zip({"content.xml": _CONTENT * 20}))
    start = data.find(b"content.xml") + len("content.xml")
    data[start + 10 : start + 40] = b"\xff" * 30  # inside the deflate stream
    with pytest.raises(PackError) as caught:
        read_siq(bytes(data))
    assert caught.value.refusal.code in (PackCode.ENTRY_UNREADABLE, PackCode.XML_MALFORMED, PackCode.NO_CONTENT)
    assert caught.value.refusal.params.get("entry") == "content.xml"


# -------------------------------------------------------------------------------------------- path traversal


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../evil.png", "traversal"),
        ("Images/../../evil.png", "traversal"),
        ("Images/%2e%2e/%2e%2e/evil.png", "traversal"),
        ("Images/..%2F..%2Fevil.png", "traversal"),
        ("/etc/passwd", "absolute"),
        ("%2Fetc%2Fpasswd", "absolute"),
        ("C:/Windows/evil.dll", "absolute"),
        ("Images\\..\\evil.png", "backslash"),
        ("Images/a%5C..%5Cb.png", "backslash"),
        ("Images/a\x00.png", "control"),
        ("Images/%00.png", "control"),
    ],
)
def test_dangerous_entry_names_are_refused(name: str, reason: str) -> None:
    shown = repr(name)[1:-1]  # as a refusal shows it: a control character escaped
    with unsafe(PackCode.ENTRY_NAME_UNSAFE, entry=shown, reason_term=f"pack_reason_{reason}"):
        safe_entry_name(name)


def test_traversal_inside_an_archive_is_refused() -> None:
    with unsafe(PackCode.ENTRY_NAME_UNSAFE, entry="Images/../../../tmp/x.png", reason_term="pack_reason_traversal"):
        read_siq(_zip({"content.xml": _CONTENT, "Images/../../../tmp/x.png": b"x"}))


def test_names_that_collide_after_unescaping_are_refused() -> None:
    with unsafe(PackCode.ENTRY_TWICE, entry="Images/a b.png"):
        read_siq(_zip({"content.xml": _CONTENT, "Images/a b.png": b"1", "Images/a%20b.png": b"2"}))


def test_an_overlong_entry_name_is_refused() -> None:
    with unsafe(PackCode.ENTRY_NAME_TOO_LONG, length=1_107, limit=1_024):
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
    with pytest.raises(UnsafePackError) as caught:
        read_siq(_zip({"content.xml": xml}))
    assert caught.value.refusal.code is PackCode.XML_FORBIDDEN
    assert caught.value.refusal.params["entry"] == "content.xml"


def test_deep_nesting_is_refused() -> None:
    xml = b"<package>" + b"<a>" * 200 + b"</a>" * 200 + b"</package>"
    with unsafe(PackCode.XML_TOO_DEEP, entry="content.xml", depth=33, limit=32):
        parse_xml(xml, "content.xml")


def test_an_oversized_xml_file_is_refused_before_parsing() -> None:
    with unsafe(PackCode.XML_TOO_LARGE, entry="content.xml", size=2_000, limit=1_000):
        parse_xml(b" " * 2000, "content.xml", Limits(max_xml_size=1000))


def test_too_many_elements_are_refused() -> None:
    xml = b"<package>" + b"<tag/>" * 50 + b"</package>"
    with unsafe(PackCode.XML_TOO_MANY_ELEMENTS, entry="content.xml", limit=40):
        parse_xml(xml, "content.xml", Limits(max_elements=40))


# -------------------------------------------------------------------------------------------- content limits


def _package(question: Question | None = None, **fields: Any) -> Package:
    theme = Theme("T", (question or Question(1, right=("A",)),))
    return dataclasses.replace(Package("P", rounds=(Round("R", (theme,)),)), **fields)


@pytest.mark.parametrize(
    ("package", "code", "params"),
    [
        (
            _package(name="x" * 351),
            PackCode.TEXT_TOO_LONG,
            {"item_term": "pack_item_package_name", "place": "x" * 59 + "…", "length": 351, "limit": 350},
        ),
        (
            _package(rounds=tuple(Round(f"R{index}") for index in range(51))),
            PackCode.TOO_MANY_ROUNDS,
            {"place": "P", "count": 51, "limit": 50},
        ),
        (
            _package(rounds=(Round("R", tuple(Theme(f"T{i}") for i in range(31))),)),
            PackCode.TOO_MANY_THEMES,
            {"place": "R", "count": 31, "limit": 30},
        ),
        (
            _package(rounds=(Round("R", (Theme("T", tuple(Question(i) for i in range(31))),)),)),
            PackCode.TOO_MANY_QUESTIONS,
            {"place": "R › T", "count": 31, "limit": 30},
        ),
        (
            _package(Question(1, params=(Parameter.content("question", (ContentItem.text("q" * 1501),)),))),
            PackCode.TEXT_TOO_LONG,
            {"item_term": "pack_item_content", "place": "R › T › 1 › question", "length": 1501, "limit": 1500},
        ),
        (
            _package(Question(1, params=(Parameter.content("question", (ContentItem.text("q"),) * 31),))),
            PackCode.TOO_MANY_CONTENT_ITEMS,
            {"place": "R › T › 1 › question", "count": 31, "limit": 30},
        ),
        (
            _package(Question(1, params=tuple(Parameter.simple(f"p{i}", "") for i in range(31)))),
            PackCode.TOO_MANY_PARAMETERS,
            {"place": "R › T › 1", "count": 31, "limit": 30},
        ),
        (
            _package(Question(1, right=("a" * 351,))),
            PackCode.TEXT_TOO_LONG,
            {"item_term": "pack_item_right_answer", "place": "R › T › 1", "length": 351, "limit": 350},
        ),
        (
            _package(Question(1, params=(Parameter.numbers("price", NumberSet(1, 999_999_999, 1)),))),
            PackCode.TOO_MANY_NUMBERS,
            {"place": "R › T › 1 › price", "count": 999_999_999, "limit": 1000},
        ),
        (
            _package(info=Info(authors=tuple("a" for _ in range(11)))),
            PackCode.TOO_MANY_AUTHORS,
            {"place": "P", "count": 11, "limit": 10},
        ),
        (
            _package(info=Info(comments="c" * 1501)),
            PackCode.TEXT_TOO_LONG,
            {"item_term": "pack_item_comments", "place": "P", "length": 1501, "limit": 1500},
        ),
    ],
)
def test_content_limits_name_the_breach(package: Package, code: PackCode, params: dict[str, ParamValue]) -> None:
    with unsafe(code, **params):
        check_package(package)


def test_content_limits_apply_when_reading() -> None:
    data = write_siq(_package(name="x" * 400))
    with unsafe(
        PackCode.TEXT_TOO_LONG, item_term="pack_item_package_name", place="x" * 59 + "…", length=400, limit=350
    ):
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
