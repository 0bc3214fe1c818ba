"""SIGame ``.siq`` packages: read versions 3, 4 and 5 leniently, write version 5.

A ``.siq`` is a ZIP archive holding ``content.xml`` and media folders (``shared/docs/svoya-igra.md`` §1–3).
The reader matches elements by local name (any namespace or none), accepts children in any order, un-escapes
media entry names, ignores the legacy ``Texts/*.xml`` lists and ``[Content_Types].xml``, and upgrades version
3–4 questions (``type`` + ``scenario/atom``) to the version 5 shape in memory. Everything untrusted goes
through :mod:`toreshi.quiz.limits` first.

The writer emits what ``siq_5.xsd`` accepts: the version 5 namespace, required attributes only when set,
``params`` only when the question has some (an empty ``<params/>`` is what makes SIGame's own test package
fail validation), media entries stored under their percent-escaped names.

>>> from toreshi.quiz.pack import ContentItem, Package, Parameter, Question, Round, Theme
>>> question = Question(1, params=(Parameter.content("question", (ContentItem.text("2 × 2?"),)),), right=("4",))
>>> package = Package("Demo", rounds=(Round("Бой 1", themes=(Theme("Арифметика", (question,)),)),))
>>> read_siq(write_siq(package)) == package
True
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from typing import BinaryIO
from urllib.parse import quote
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

from toreshi.quiz.codes import PACK_TERMS, PackCode
from toreshi.quiz.limits import DEFAULT_LIMITS, Limits, check_package, parse_xml, read_archive
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
    "CONTENT_ENTRY",
    "SIQ_V4_NAMESPACE",
    "SIQ_V5_NAMESPACE",
    "SUPPORTED_VERSION",
    "SiqError",
    "content_xml",
    "media_entry_name",
    "parse_content_xml",
    "read_siq",
    "write_siq",
]

SIQ_V5_NAMESPACE = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"
SIQ_V4_NAMESPACE = "http://vladimirkhil.com/ygpackage3.0.xsd"
SUPPORTED_VERSION = 5
CONTENT_ENTRY = "content.xml"
QUALITY_MARKER = "quality.marker"

_FOLDER_TYPES = {content_type.folder.lower(): content_type for content_type in ContentType if content_type.is_media}


class SiqError(PackError):
    """A ``.siq`` package whose content cannot be understood (a :class:`~toreshi.quiz.codes.PackCode`)."""


# ---------------------------------------------------------------------------------------------------- reading


def read_siq(source: bytes | BinaryIO, limits: Limits = DEFAULT_LIMITS) -> Package:
    """Read a ``.siq`` archive (bytes or a binary stream) into a :class:`~toreshi.quiz.pack.Package`.

    Raises :class:`~toreshi.quiz.pack.PackError` (or a subclass) with a code and its parameters for anything it
    cannot read: not a ZIP, no ``content.xml``, malformed XML, an unsupported version, a breached limit.
    """
    files = read_archive(source, limits)
    content_name = next((name for name in files if name.lower() == CONTENT_ENTRY), None)
    if content_name is None:
        raise SiqError(PackCode.NO_CONTENT, entry=CONTENT_ENTRY)
    media = tuple(_media_files(files))
    return parse_content_xml(files[content_name], limits, media=media, quality_marked=QUALITY_MARKER in files)


def _media_files(files: dict[str, bytes]) -> Iterator[MediaFile]:
    """Files directly inside a media folder (matched case-insensitively); the first of two same names wins.

    SIGame references media by plain file name, so files in sub-folders could never be used and are skipped.
    """
    seen: set[tuple[ContentType, str]] = set()
    for name, data in files.items():
        folder, slash, file_name = name.partition("/")
        content_type = _FOLDER_TYPES.get(folder.lower())
        if not slash or content_type is None or not file_name or "/" in file_name:
            continue
        if (content_type, file_name) not in seen:
            seen.add((content_type, file_name))
            yield MediaFile(content_type, file_name, data)


def parse_content_xml(
    data: bytes,
    limits: Limits = DEFAULT_LIMITS,
    *,
    media: tuple[MediaFile, ...] = (),
    quality_marked: bool = False,
) -> Package:
    """Read a package from its ``content.xml`` bytes (versions 3–5), then apply the content limits."""
    root = parse_xml(data, CONTENT_ENTRY, limits)
    if _local(root) != "package":
        raise SiqError(PackCode.WRONG_ROOT, entry=CONTENT_ENTRY, root=_local(root)[:60])
    version = _version(root)
    legacy = version < SUPPORTED_VERSION
    package = Package(
        name=root.get("name", ""),
        rounds=tuple(_read_round(element, legacy) for element in _grandchildren(root, "rounds", "round")),
        id=root.get("id", ""),
        restriction=root.get("restriction", ""),
        date=root.get("date", ""),
        publisher=root.get("publisher", ""),
        difficulty=_optional_int(root.get("difficulty")),
        logo=root.get("logo", ""),
        language=root.get("language", ""),
        contact_uri=root.get("contactUri", ""),
        tags=_texts(root, "tags", "tag"),
        info=_read_info(root),
        media=media,
        quality_marked=quality_marked,
    )
    check_package(package, limits)
    return package


def _version(root: Element) -> float:
    raw = root.get("version")
    if raw is None:
        return 4.0  # packages from before the attribute existed
    try:
        version = float(raw.replace(",", "."))
    except ValueError:
        raise SiqError(PackCode.BAD_VERSION, value=raw[:60]) from None
    if not math.isfinite(version) or version > SUPPORTED_VERSION:
        raise SiqError(PackCode.UNSUPPORTED_VERSION, version=raw[:60], maximum=int(SUPPORTED_VERSION))
    return version


def _read_round(element: Element, legacy: bool) -> Round:
    round_type = element.get("type") or RoundType.STANDART.value
    is_final = round_type in (RoundType.FINAL, RoundType.THEME_LIST)
    return Round(
        name=element.get("name", ""),
        themes=tuple(_read_theme(theme, legacy, is_final) for theme in _grandchildren(element, "themes", "theme")),
        type=round_type,
        info=_read_info(element),
    )


def _read_theme(element: Element, legacy: bool, is_final: bool) -> Theme:
    return Theme(
        name=element.get("name", ""),
        questions=tuple(
            _read_question(question, legacy, is_final) for question in _grandchildren(element, "questions", "question")
        ),
        info=_read_info(element),
    )


def _read_question(element: Element, legacy: bool, is_final: bool) -> Question:
    raw_price = element.get("price", "0").strip()
    if not re.fullmatch(r"[+-]?\d{1,9}", raw_price):
        raise SiqError(
            PackCode.BAD_ATTRIBUTE,
            element="question",
            name="price",
            value=raw_price[:60],
            kind_term=PACK_TERMS["integer"],
        )
    price = int(raw_price)
    right = _texts(element, "right", "answer")
    wrong = _texts(element, "wrong", "answer")
    info = _read_info(element)
    params_element = _child(element, "params")
    script_element = _child(element, "script")
    is_v5 = element.get("type") is not None or params_element is not None or script_element is not None
    if not is_v5 and (legacy or _child(element, "scenario") is not None):
        return _upgrade_question(element, price, right, wrong, info)
    return Question(
        price=price,
        type=element.get("type", QuestionType.DEFAULT.value),
        params=() if params_element is None else _read_params(params_element),
        right=right,
        wrong=wrong,
        info=info,
        script=None
        if script_element is None
        else tuple(_read_step(step) for step in _children(script_element, "step")),
    )


def _read_step(element: Element) -> Step:
    return Step(type=element.get("type", ""), params=_read_params(element))


def _read_params(element: Element) -> tuple[Parameter, ...]:
    return tuple(_read_param(param) for param in _children(element, "param"))


def _read_param(element: Element) -> Parameter:
    name = element.get("name", "")
    raw_kind = element.get("type") or ParameterKind.SIMPLE.value
    kind = next((kind for kind in ParameterKind if kind.value.lower() == raw_kind.lower()), None)
    if kind is None:
        raise SiqError(PackCode.UNKNOWN_TYPE, element="param", value=raw_kind[:60])
    is_ref = _boolean(element.get("isRef"), default=False)
    if kind is ParameterKind.CONTENT:
        return Parameter(
            name, kind, items=tuple(_read_item(item) for item in _children(element, "item")), is_ref=is_ref
        )
    if kind is ParameterKind.GROUP:
        return Parameter(name, kind, children=_read_params(element), is_ref=is_ref)
    if kind is ParameterKind.NUMBER_SET:
        number_set_element = _child(element, "numberSet")
        if number_set_element is None:
            number_set = NumberSet.parse(_text(element) or "0")
        else:
            number_set = NumberSet(
                _int_attribute(number_set_element, "minimum"),
                _int_attribute(number_set_element, "maximum"),
                _int_attribute(number_set_element, "step"),
            )
        return Parameter(name, kind, number_set=number_set, is_ref=is_ref)
    return Parameter(name, kind, text=_text(element), is_ref=is_ref)


def _read_item(element: Element) -> ContentItem:
    raw_type = (element.get("type") or ContentType.TEXT.value).strip().lower()
    content_type = _CONTENT_TYPE_NAMES.get(raw_type)
    if content_type is None:
        raise SiqError(PackCode.UNKNOWN_TYPE, element="item", value=raw_type[:60])
    raw_placement = (element.get("placement") or "").strip().lower()
    placement = next((p for p in Placement if p.value == raw_placement), Placement.default_for(content_type))
    return ContentItem(
        type=content_type,
        value=_text(element),
        is_ref=_boolean(element.get("isRef"), default=False),
        placement=placement,
        duration=_duration(element.get("duration")),
        wait_for_finish=_boolean(element.get("waitForFinish"), default=True),
    )


_CONTENT_TYPE_NAMES = {content_type.value: content_type for content_type in ContentType} | {
    "voice": ContentType.AUDIO,  # the v4 name, seen in hand-edited v5 files
}


def _read_info(element: Element) -> Info:
    info = _child(element, "info")
    if info is None:
        return Info()
    return Info(
        authors=_texts(info, "authors", "author"),
        sources=_texts(info, "sources", "source"),
        comments=_child_text(info, "comments"),
        showman_comments=_child_text(info, "showmanComments"),
        extension=_child_text(info, "extension"),
    )


# ------------------------------------------------------------------------------------- the v3/v4 → v5 upgrade

_LEGACY_TYPES = {
    "simple": QuestionType.DEFAULT,
    "auction": QuestionType.STAKE,
    "sponsored": QuestionType.NO_RISK,
}


def _upgrade_question(
    element: Element, price: int, right: tuple[str, ...], wrong: tuple[str, ...], info: Info
) -> Question:
    """A version 3–4 question (``type`` element, ``scenario`` atoms) in the version 5 shape (§3 of the doc)."""
    if price == EMPTY_PRICE:
        return Question(price, right=right, wrong=wrong, info=info)
    type_element = _child(element, "type")
    legacy_type = "simple" if type_element is None else (type_element.get("name") or "simple")
    type_params = (
        {} if type_element is None else {p.get("name", ""): _text(p) for p in _children(type_element, "param")}
    )
    question_items, answer_items = _upgrade_scenario(_child(element, "scenario"))
    content: list[Parameter] = []
    if question_items:
        content.append(Parameter.content(ParameterName.QUESTION, question_items))
    if answer_items:
        content.append(Parameter.content(ParameterName.ANSWER, answer_items))

    if legacy_type in _LEGACY_TYPES:
        new_type = _LEGACY_TYPES[legacy_type].value
        params = tuple(content)
    elif legacy_type in ("cat", "bagcat"):
        knows = type_params.get("knows", "after") if legacy_type == "bagcat" else "after"
        gives_self = legacy_type == "bagcat" and type_params.get("self", "false").strip().lower() == "true"
        cost = type_params.get("cost", "0")
        try:
            number_set = NumberSet.parse(cost)
        except PackError:
            raise SiqError(
                PackCode.BAD_ATTRIBUTE, element="type", name="cost", value=cost[:60], kind_term=PACK_TERMS["number_set"]
            ) from None
        price_param = Parameter.numbers(ParameterName.PRICE, number_set)
        selection = Parameter.simple(ParameterName.SELECTION_MODE, "any" if gives_self else "exceptCurrent")
        if knows == "never":
            return Question(price, QuestionType.SECRET_NO_QUESTION.value, (price_param, selection), right, wrong, info)
        new_type = (QuestionType.SECRET_PUBLIC_PRICE if knows == "before" else QuestionType.SECRET).value
        theme = Parameter.simple(ParameterName.THEME, type_params.get("theme", ""))
        params = (theme, price_param, selection, *content)
    else:
        # A custom type keeps its name; its type parameters become simple parameters.
        new_type = legacy_type
        params = (*(Parameter.simple(name, value) for name, value in type_params.items()), *content)
    return Question(price, new_type, params, right, wrong, info)


def _upgrade_scenario(scenario: Element | None) -> tuple[tuple[ContentItem, ...], tuple[ContentItem, ...]]:
    """Atoms before the first marker are the question, after it the answer; later markers are ignored."""
    question: list[ContentItem] = []
    answer: list[ContentItem] = []
    current = question
    for atom in () if scenario is None else _children(scenario, "atom"):
        atom_type = (atom.get("type") or "text").strip().lower()
        if atom_type == "marker":
            current = answer
            continue
        current.append(_upgrade_atom(atom, atom_type))
    return tuple(question), tuple(answer)


_ATOM_TYPES = {
    "text": (ContentType.TEXT, Placement.SCREEN),
    "say": (ContentType.TEXT, Placement.REPLIC),
    "image": (ContentType.IMAGE, Placement.SCREEN),
    "voice": (ContentType.AUDIO, Placement.BACKGROUND),
    "audio": (ContentType.AUDIO, Placement.BACKGROUND),
    "video": (ContentType.VIDEO, Placement.SCREEN),
    "html": (ContentType.HTML, Placement.SCREEN),
}


def _upgrade_atom(atom: Element, atom_type: str) -> ContentItem:
    if atom_type not in _ATOM_TYPES:
        raise SiqError(PackCode.UNKNOWN_TYPE, element="atom", value=atom_type[:60])
    content_type, placement = _ATOM_TYPES[atom_type]
    text = _text(atom)
    is_ref = text.startswith("@")
    time = _atom_time(atom.get("time"))
    # time −1: do not wait for this atom (the next one starts at once); otherwise time is its duration.
    return ContentItem(
        type=content_type,
        value=text[1:] if is_ref else text,
        is_ref=is_ref,
        placement=placement,
        duration=timedelta(seconds=time) if time > 0 else timedelta(0),
        wait_for_finish=time != -1,
    )


def _atom_time(raw: str | None) -> int:
    if raw is None:
        return 0
    try:
        value = float(raw.replace(",", "."))
    except ValueError:
        return 0  # SIGame ignores an unreadable time too
    return int(value) if math.isfinite(value) and -1 <= value <= 86_400 else 0


# ---------------------------------------------------------------------------------------------------- helpers


def _local(element: Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: Element, name: str) -> Iterator[Element]:
    return (child for child in element if _local(child) == name)


def _child(element: Element, name: str) -> Element | None:
    return next(_children(element, name), None)


def _grandchildren(element: Element, container: str, name: str) -> Iterator[Element]:
    for holder in _children(element, container):
        yield from _children(holder, name)


def _text(element: Element) -> str:
    return "".join(element.itertext())


def _texts(element: Element, container: str, name: str) -> tuple[str, ...]:
    """The texts of a list: ``<container><name>text</name>…</container>`` (the writer's :func:`_sub_texts`)."""
    return tuple(_text(child) for child in _grandchildren(element, container, name))


def _child_text(element: Element, name: str) -> str:
    child = _child(element, name)
    return "" if child is None else _text(child)


def _boolean(raw: str | None, *, default: bool) -> bool:
    if raw is None or not raw.strip():
        return default
    value = raw.strip().lower()
    if value in ("true", "1"):
        return True
    if value in ("false", "0"):
        return False
    raise SiqError(PackCode.BAD_VALUE, value=raw[:60], kind_term=PACK_TERMS["boolean"])


def _optional_int(raw: str | None) -> int | None:
    if raw is None or not re.fullmatch(r"\s*\d{1,9}\s*", raw):
        return None
    return int(raw)


def _int_attribute(element: Element, name: str) -> int:
    raw = element.get(name, "0").strip() or "0"
    if not re.fullmatch(r"[+-]?\d{1,9}", raw):
        raise SiqError(
            PackCode.BAD_ATTRIBUTE,
            element=_local(element)[:60],
            name=name,
            value=raw[:60],
            kind_term=PACK_TERMS["integer"],
        )
    return int(raw)


_TIMESPAN = re.compile(r"(?:(\d{1,9})\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?")
_XS_DURATION = re.compile(r"P(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9}(?:\.\d{1,9})?)S)?)?")


def _duration(raw: str | None) -> timedelta:
    """``hh:mm:ss`` (.NET TimeSpan, as SIGame writes it) or ``PT8S`` (xs:duration); unreadable means zero."""
    if raw is None or not raw.strip():
        return timedelta(0)
    try:
        return _read_duration(raw.strip())
    except (ValueError, OverflowError):  # found by fuzzing: a number past timedelta's range, or too long for int
        return timedelta(0)


def _read_duration(text: str) -> timedelta:
    if match := _TIMESPAN.fullmatch(text):
        days, hours, minutes, seconds, fraction = match.groups()
        return timedelta(
            days=int(days or 0),
            hours=int(hours),
            minutes=int(minutes),
            seconds=int(seconds or 0) + (float(f"0.{fraction}") if fraction else 0.0),
        )
    if (match := _XS_DURATION.fullmatch(text)) and text not in ("P", "PT"):
        days, hours, minutes, seconds = match.groups()
        return timedelta(
            days=int(days or 0), hours=int(hours or 0), minutes=int(minutes or 0), seconds=float(seconds or 0)
        )
    return timedelta(0)  # lenient, as SIGame: a bad duration is no duration


# ---------------------------------------------------------------------------------------------------- writing

# XML 1.0 cannot carry these code points at all, not even escaped.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_URI_SAFE = "!$&'()*+,;=:@?#[]-._~"
_FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # entry timestamps fixed so that the same package gives the same bytes


def write_siq(package: Package, stream: BinaryIO | None = None) -> bytes:
    """Write the package as a version 5 ``.siq``; returns the bytes and also writes them to ``stream`` if given.

    Raises :class:`~toreshi.quiz.pack.PackError` for a package XML cannot carry (control characters) or a
    media file name that cannot be an archive entry.
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo(CONTENT_ENTRY, _FIXED_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, content_xml(package))
        seen: set[str] = set()
        for media in package.media:
            entry = media_entry_name(media)
            if entry in seen:
                raise PackError(PackCode.MEDIA_TWICE, entry=f"{media.type.folder}/{media.name}"[:200])
            seen.add(entry)
            # Media are stored, not deflated: they are compressed formats already (SIGame does the same).
            archive.writestr(zipfile.ZipInfo(entry, _FIXED_TIME), media.data, compress_type=zipfile.ZIP_STORED)
        if package.quality_marked:
            archive.writestr(zipfile.ZipInfo(QUALITY_MARKER, _FIXED_TIME), b"")
    data = buffer.getvalue()
    if stream is not None:
        stream.write(data)
    return data


def media_entry_name(media: MediaFile) -> str:
    """The archive entry of a media file: its folder and its percent-escaped name (``Images/map%201.png``)."""
    name = media.name
    if not name or name in (".", "..") or "/" in name or "\\" in name or _XML_FORBIDDEN.search(name):
        raise PackError(PackCode.MEDIA_NAME, name=repr(name)[1:-1][:200])
    # Uri.EscapeUriString's safe set, except "/" (a name is one path segment) and "%" (always escaped).
    return media.type.folder + "/" + quote(name, safe=_URI_SAFE)


def content_xml(package: Package) -> bytes:
    """The version 5 ``content.xml`` of the package, UTF-8 with an XML declaration."""
    root = _element("package", name=package.name, version=str(SUPPORTED_VERSION))
    root.set("xmlns", SIQ_V5_NAMESPACE)
    for attribute, value in (
        ("id", package.id),
        ("restriction", package.restriction),
        ("date", package.date),
        ("publisher", package.publisher),
        ("difficulty", "" if package.difficulty is None else str(package.difficulty)),
        ("logo", package.logo),
        ("language", package.language),
        ("contactUri", package.contact_uri),
    ):
        if value:
            root.set(attribute, value)
    if package.tags:
        _sub_texts(root, "tags", "tag", package.tags)
    _write_info(root, package.info)
    rounds = _sub(root, "rounds")
    for round_ in package.rounds:
        _write_round(rounds, round_)
    _check_writable(root)
    data = bytes(ElementTree.tostring(root, encoding="utf-8", xml_declaration=True))
    # A raw CR in text would be read back as LF (XML end-of-line handling); attributes are escaped already.
    return data.replace(b"\r", b"&#13;")


def _write_round(parent: Element, round_: Round) -> None:
    element = _sub(parent, "round", name=round_.name)
    if round_.type and round_.type != RoundType.STANDART:
        element.set("type", round_.type)
    _write_info(element, round_.info)
    themes = _sub(element, "themes")
    for theme in round_.themes:
        theme_element = _sub(themes, "theme", name=theme.name)
        _write_info(theme_element, theme.info)
        questions = _sub(theme_element, "questions")
        for question in theme.questions:
            _write_question(questions, question)


def _write_question(parent: Element, question: Question) -> None:
    element = _sub(parent, "question", price=str(question.price))
    if question.type:
        element.set("type", question.type)
    _write_info(element, question.info)
    if question.params:  # the schema wants at least one param inside <params>
        _write_params(_sub(element, "params"), question.params)
    if question.script is not None:
        script = _sub(element, "script")
        for step in question.script:
            step_element = _sub(script, "step", type=step.type)
            _write_params(step_element, step.params)
    _sub_texts(element, "right", "answer", question.right)
    if question.wrong:
        _sub_texts(element, "wrong", "answer", question.wrong)


def _write_params(parent: Element, params: tuple[Parameter, ...]) -> None:
    for param in params:
        element = _sub(parent, "param", name=param.name)
        if param.kind is not ParameterKind.SIMPLE:
            element.set("type", param.kind.value)
        if param.is_ref:
            element.set("isRef", "True")
        if param.kind is ParameterKind.CONTENT:
            for item in param.items:
                _write_item(element, item)
        elif param.kind is ParameterKind.GROUP:
            _write_params(element, param.children)
        elif param.kind is ParameterKind.NUMBER_SET:
            number_set = param.number_set or NumberSet(0, 0, 0)
            _sub(
                element,
                "numberSet",
                minimum=str(number_set.minimum),
                maximum=str(number_set.maximum),
                step=str(number_set.step),
            )
        else:
            element.text = param.text


def _write_item(parent: Element, item: ContentItem) -> None:
    element = _sub(parent, "item")
    if item.type is not ContentType.TEXT:
        element.set("type", item.type.value)
    if item.is_ref:
        element.set("isRef", "True")
    if item.placement is not Placement.default_for(item.type):
        element.set("placement", item.placement.value)
    if item.duration > timedelta(0):
        element.set("duration", _format_duration(item.duration))
    if not item.wait_for_finish:
        element.set("waitForFinish", "False")
    element.text = item.value


def _format_duration(duration: timedelta) -> str:
    """.NET TimeSpan's constant format, as SIGame writes it: ``hh:mm:ss`` (``d.hh:mm:ss.fffffff`` if needed)."""
    total_micro = duration // timedelta(microseconds=1)
    days, rest = divmod(total_micro, 86_400_000_000)
    hours, rest = divmod(rest, 3_600_000_000)
    minutes, rest = divmod(rest, 60_000_000)
    seconds, micro = divmod(rest, 1_000_000)
    text = f"{hours:02d}:{minutes:02d}:{seconds:02d}"
    if micro:
        text += f".{micro * 10:07d}"
    return f"{days}.{text}" if days else text


def _write_info(parent: Element, info: Info) -> None:
    if info.is_empty:
        return
    element = _sub(parent, "info")
    if info.authors:
        _sub_texts(element, "authors", "author", info.authors)
    if info.sources:
        _sub_texts(element, "sources", "source", info.sources)
    for name, text in (
        ("comments", info.comments),
        ("showmanComments", info.showman_comments),
        ("extension", info.extension),
    ):
        if text:
            _sub(element, name).text = text


def _element(tag: str, **attributes: str) -> Element:
    return Element(tag, attributes)


def _sub(parent: Element, tag: str, **attributes: str) -> Element:
    return ElementTree.SubElement(parent, tag, attributes)


def _sub_texts(parent: Element, tag: str, item_tag: str, texts: tuple[str, ...]) -> None:
    """A list of texts: ``<tag><item_tag>text</item_tag>…</tag>``."""
    element = _sub(parent, tag)
    for text in texts:
        _sub(element, item_tag).text = text


def _check_writable(root: Element) -> None:
    for element in root.iter():
        for value in (element.text or "", *element.attrib.values()):
            if _XML_FORBIDDEN.search(value):
                raise PackError(PackCode.UNWRITABLE_TEXT, element=str(element.tag))
