"""SIQ packages: every reference package reads, the v4 → v5 upgrade, leniency, the v5 writer and its schema."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import timedelta
from pathlib import Path
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.refusal import ParamValue
from toreshi.quiz.codes import PackCode
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
    Placement,
    Question,
    Round,
    Step,
    Theme,
)
from toreshi.quiz.siq import (
    SIQ_V5_NAMESPACE,
    SiqError,
    content_xml,
    media_entry_name,
    parse_content_xml,
    read_siq,
    write_siq,
)

from .refusals import refused

REFERENCE_PACKAGES = [
    "1.siq",
    "2.1.siq",
    "2.2.siq",
    "2.3.siq",
    "Pack3_0.siq",
    "Pack3_1.siq",
    "Pack3_2.siq",
    "Package4_1.siq",
    "Package4_4.siq",
    "Package5_1.siq",
    "Package5_10.siq",
    "Package5_11.siq",
    "Package5_12.siq",
    "Package5_2.siq",
    "Package5_3.siq",
    "Package5_4.siq",
    "Package5_5.siq",
    "Package5_6.siq",
    "Package5_7.siq",
    "Package5_8.siq",
    "Package5_9.siq",
    "SIGameTest.siq",
    "SIGameTestNew.siq",
    "simulator-v3-1.siq",
]


def _read(shared_data: Path, name: str) -> Package:
    return read_siq((shared_data / "quiz" / "siq" / name).read_bytes())


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


# ------------------------------------------------------------------------------------- schema facts (siq_5.xsd)
# Written from the schema's documented rules (shared/docs/svoya-igra.md §2): which children and attributes
# each element may have, which are required, and the value rules our writer must respect.

_ALL_GROUPS: dict[str, tuple[set[str], set[str]]] = {
    # element: (allowed children, required children); children of these are an xs:all group (each at most once)
    "package": ({"tags", "global", "files", "info", "rounds"}, {"rounds"}),
    "round": ({"info", "themes"}, {"themes"}),
    "theme": ({"info", "questions"}, {"questions"}),
    "question": ({"info", "params", "script", "right", "wrong", "type", "scenario"}, {"right"}),
    "info": ({"authors", "sources", "comments", "showmanComments", "extension"}, set()),
}
_LISTS = {"tags": "tag", "rounds": "round", "themes": "theme", "questions": "question", "authors": "author"}
_LISTS |= {"sources": "source", "right": "answer", "wrong": "answer", "script": "step"}
_ATTRIBUTES: dict[str, tuple[set[str], set[str]]] = {
    "package": (
        {"name", "version", "id", "restriction", "date", "publisher", "difficulty", "logo", "language", "generator"}
        | {"contactUri"},
        {"name", "version"},
    ),
    "round": ({"name", "type"}, {"name"}),
    "theme": ({"name"}, {"name"}),
    "question": ({"price", "type"}, {"price"}),
    "param": ({"name", "type", "isRef"}, {"name"}),
    "item": ({"type", "isRef", "placement", "duration", "waitForFinish"}, set()),
    "numberSet": ({"minimum", "maximum", "step"}, set()),
    "step": ({"type"}, set()),
}
_TEXT_ONLY = {"tag", "author", "source", "answer", "comments", "showmanComments", "extension", "item"}


def schema_violations(data: bytes) -> list[str]:
    """Every way ``data`` breaks siq_5.xsd's rules that a writer controls (empty list: conforms)."""
    root = ElementTree.fromstring(data)
    problems: list[str] = []
    if root.tag != f"{{{SIQ_V5_NAMESPACE}}}package":
        problems.append(f"root is {root.tag}, not package in the v5 namespace")
    if root.get("version") != "5":
        problems.append("version is not 5")
    _check_element(root, problems)
    return problems


def _local(element: Element) -> str:
    namespace, _, local = element.tag.rpartition("}")
    return local if namespace == "{" + SIQ_V5_NAMESPACE else f"<foreign {element.tag}>"


def _check_element(element: Element, problems: list[str]) -> None:
    name = _local(element)
    children = [_local(child) for child in element]
    allowed_attributes, required_attributes = _ATTRIBUTES.get(name, (set(), set()))
    for attribute in element.attrib:
        if attribute not in allowed_attributes:
            problems.append(f"<{name}> has attribute {attribute}")
    for attribute in required_attributes - set(element.attrib):
        problems.append(f"<{name}> lacks required attribute {attribute}")
    if name in _ALL_GROUPS:
        allowed, required = _ALL_GROUPS[name]
        for child in children:
            if child not in allowed:
                problems.append(f"<{name}> contains <{child}>")
        for child in set(children):
            if children.count(child) > 1:
                problems.append(f"<{name}> contains <{child}> twice")
        for child in required - set(children):
            problems.append(f"<{name}> lacks <{child}>")
    elif name in _LISTS:
        problems.extend(f"<{name}> contains <{child}>" for child in children if child != _LISTS[name])
    elif name == "params" or name == "step":
        if not children:
            problems.append(f"<{name}> has no <param> (the schema wants at least one)")
        problems.extend(f"<{name}> contains <{child}>" for child in children if child != "param")
    elif name == "param":
        problems.extend(_param_problems(element, children))
    elif name in _TEXT_ONLY and children:
        problems.append(f"<{name}> has child elements")
    if name == "question" and not re.fullmatch(r"-?\d+", element.get("price", "")):
        problems.append(f"question price {element.get('price')!r} is not an int")
    if name == "package" and element.get("difficulty") is not None and not element.get("difficulty", "").isdigit():
        problems.append("difficulty is not an unsigned int")
    if name == "item":
        problems.extend(_item_problems(element))
    for child_element in element:
        _check_element(child_element, problems)


def _param_problems(element: Element, children: list[str]) -> list[str]:
    problems = [f"<param> contains <{child}>" for child in children if child not in ("item", "param", "numberSet")]
    kind = element.get("type", "simple")
    if kind not in ("simple", "content", "group", "numberSet"):
        problems.append(f"param type {kind!r}")
    if children.count("numberSet") > 1:
        problems.append("<param> has two <numberSet>")
    for child in element:
        if _local(child) == "numberSet":
            for attribute in child.attrib.values():
                if not re.fullmatch(r"-?\d+", attribute):
                    problems.append(f"numberSet value {attribute!r} is not an integer")
    if element.get("isRef") not in (None, "True", "False"):
        problems.append(f"param isRef {element.get('isRef')!r}")
    return problems


def _item_problems(element: Element) -> list[str]:
    problems: list[str] = []
    if element.get("type", "text") not in ("text", "image", "audio", "video", "html"):
        problems.append(f"item type {element.get('type')!r}")
    if element.get("placement", "screen") not in ("screen", "replic", "background"):
        problems.append(f"item placement {element.get('placement')!r}")
    for attribute in ("isRef", "waitForFinish"):
        if element.get(attribute) not in (None, "True", "False"):
            problems.append(f"item {attribute} {element.get(attribute)!r}")
    duration = element.get("duration")
    if duration is not None and not re.fullmatch(r"(\d+\.)?\d\d:\d\d:\d\d(\.\d{7})?", duration):
        problems.append(f"item duration {duration!r}")
    return problems


# ------------------------------------------------------------------------------------------ reference packages


@pytest.mark.parametrize("name", REFERENCE_PACKAGES)
def test_reference_package_imports(shared_data: Path, name: str) -> None:
    package = _read(shared_data, name)
    assert package.name
    assert package.rounds
    playable = [question for _, _, question in package.questions() if not question.is_empty]
    assert playable
    for question in playable:
        if question.type != "secretNoQuestion":
            assert question.question_items, f"{name}: question {question.price} has no content"
    # Every packaged media reference resolves to a file of the archive.
    for _, _, question in package.questions():
        for item in question.content_items():
            if item.is_ref:
                assert package.media_file(item.type, item.value) is not None, item.value


@pytest.mark.parametrize("name", REFERENCE_PACKAGES)
def test_reference_package_round_trips_through_v5(shared_data: Path, name: str) -> None:
    package = _read(shared_data, name)
    written = write_siq(package)
    assert read_siq(written) == package
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        assert schema_violations(archive.read("content.xml")) == []


def test_every_file_in_the_reference_folder_imports(shared_data: Path) -> None:
    files = sorted((shared_data / "quiz" / "siq").glob("*.siq"))
    assert len(files) >= len(REFERENCE_PACKAGES)
    questions = sum(sum(1 for _ in read_siq(path.read_bytes()).questions()) for path in files)
    assert questions > 1_000


def test_sigame_test_package_has_its_known_shape(shared_data: Path) -> None:
    package = _read(shared_data, "SIGameTestNew.siq")
    assert package.name == "Тестовый пакет SIGame"
    assert package.id == "a16f96e7-4616-47d0-8652-aee5196094af"
    assert (package.restriction, package.language, package.difficulty) == ("12+", "ru-RU", 5)
    assert package.logo == "@sigame_-_ava_2019.png"
    assert package.contact_uri == "https://mysite.ru"
    assert package.tags == ("Тема пакета 1", "Тема пакета 2")
    assert package.quality_marked
    assert [r.type for r in package.rounds] == ["standart", "final"]
    types = [q.type for q in package.rounds[0].themes[0].questions]
    assert types == [
        "",
        "stake",
        "secret",
        "secret",
        "secret",
        "secretPublicPrice",
        "secretNoQuestion",
        "noRisk",
        "",
        "custom",
        "stakeAll",
        "forAll",
    ]
    empty = package.rounds[0].themes[0].questions[8]
    assert empty.is_empty
    assert empty.params == ()
    stake = package.rounds[0].themes[0].questions[1]
    assert stake.answers == ("Ответ", "Альтернативный ответ для зачёта человеком/компьютером")
    assert stake.wrong == ("Неправильная версия для незачёта/для бота",)
    select = package.rounds[0].themes[2].questions[0]
    options = select.param("answerOptions")
    assert options is not None
    assert [option.name for option in options.children] == ["A", "B", "C", "D"]
    assert select.answer_type == "select"
    assert package.media_file(ContentType.HTML, "test.html") is not None


def test_v5_content_items_keep_placement_duration_and_wait(shared_data: Path) -> None:
    themes = _read(shared_data, "SIGameTestNew.siq").rounds[0].themes
    content = {question.price: question for question in themes[1].questions}
    replic, timed = content[200].question_items
    assert replic.placement is Placement.REPLIC
    assert timed.duration == timedelta(seconds=8)
    text, audio = content[600].question_items
    assert not text.wait_for_finish
    assert (audio.type, audio.is_ref, audio.placement) == (ContentType.AUDIO, True, Placement.BACKGROUND)
    assert content[900].answer_items == (ContentItem.media(ContentType.IMAGE, "sample-boat-400x300.png"),)
    assert content[900].question_text == "А в этом вопросе медиа содержится в ответе"


# ------------------------------------------------------------------------------------------ the v4 → v5 upgrade


def test_v4_upgrade_matches_sigames_own_v5_version(shared_data: Path) -> None:
    """SIGameTest.siq (v4) and SIGameTestNew.siq (v5) are the same package saved by two SIGame versions."""
    old = _read(shared_data, "SIGameTest.siq").rounds[0].themes[0].questions
    new = _read(shared_data, "SIGameTestNew.siq").rounds[0].themes[0].questions
    by_price = {question.price: question for question in new}
    for question in old:
        twin = by_price[question.price] if question.price != EMPTY_PRICE else new[8]
        assert question.type == twin.type, question.price
        assert [p.name for p in question.params] == [p.name for p in twin.params], question.price
        for param, twin_param in zip(question.params, twin.params, strict=True):
            if param.kind is not ParameterKind.CONTENT:  # v5 edited some texts; settings must agree
                assert param == twin_param, (question.price, param.name)


def test_v4_upgrade_of_content_atoms(shared_data: Path) -> None:
    old = {q.price: q for q in _read(shared_data, "SIGameTest.siq").rounds[0].themes[1].questions}
    new = {q.price: q for q in _read(shared_data, "SIGameTestNew.siq").rounds[0].themes[1].questions}
    # say → replic text; time="8" → 8 s; voice → background audio; time="-1" → no waiting; marker → answer.
    assert old[200].params == new[200].params
    assert old[400].params == new[400].params
    assert old[600].question_items == new[600].question_items
    assert old[900].params == new[900].params
    external = old[800].question_items[0]
    assert (external.is_ref, external.value) == (False, "https://vladimirkhil.com/images/svoyak-soft.jpg")
    html = old[1200].question_items[0]
    assert (html.type, html.duration) == (ContentType.HTML, timedelta(seconds=35))


def test_v3_package_reads_like_v4(shared_data: Path) -> None:
    package = _read(shared_data, "simulator-v3-1.siq")
    assert package.rounds[-1].is_final
    types = {question.type for _, _, question in package.questions()}
    assert {"", "stake", "secret", "secretPublicPrice", "noRisk"} <= types
    first = package.rounds[0].themes[0].questions[0]
    assert first.question_text.startswith("В этой передаче гроссмейстеры")
    assert first.answers == ("«Игры разума»",)
    assert len(first.wrong) == 4


_V4_TEMPLATE = """<?xml version="1.0" encoding="utf-8"?>
<package name="v4" version="4" id="x" xmlns="http://vladimirkhil.com/ygpackage3.0.xsd">
<rounds><round name="R" type="{round_type}"><themes><theme name="T"><questions>{questions}</questions></theme></themes>
</round></rounds></package>"""


def _v4(questions: str, round_type: str = "standart") -> Question:
    xml = _V4_TEMPLATE.format(questions=questions, round_type=round_type).encode()
    return parse_content_xml(xml).rounds[0].themes[0].questions[0]


def test_v4_cat_and_bagcat_become_secret_questions() -> None:
    cat = _v4(
        '<question price="100"><type name="cat"><param name="theme">Кошки</param><param name="cost">[1;5]/2</param>'
        "</type><scenario><atom>Q</atom></scenario><right><answer>A</answer></right></question>"
    )
    assert cat.type == "secret"
    assert [(p.name, p.text or p.number_set) for p in cat.params[:3]] == [
        ("theme", "Кошки"),
        ("price", NumberSet(1, 5, 2)),
        ("selectionMode", "exceptCurrent"),
    ]
    never = _v4(
        '<question price="100"><type name="bagcat"><param name="cost">700</param><param name="knows">never</param>'
        '<param name="self">true</param></type><scenario><atom>Q</atom></scenario><right><answer/></right></question>'
    )
    assert never.type == "secretNoQuestion"
    assert [p.name for p in never.params] == ["price", "selectionMode"]
    assert never.params[1].text == "any"


def test_v4_custom_type_keeps_its_name_parameters_and_content() -> None:
    custom = _v4(
        '<question price="5"><type name="myType"><param name="speed">fast</param></type>'
        '<scenario><atom type="say">Ведущий</atom><atom type="marker"/><atom>Ответ</atom><atom type="marker"/>'
        "<atom>ещё</atom></scenario><right><answer>A</answer></right></question>"
    )
    assert custom.type == "myType"
    assert custom.param("speed") == Parameter.simple("speed", "fast")
    assert custom.question_items == (ContentItem.text("Ведущий", Placement.REPLIC),)
    assert [item.value for item in custom.answer_items] == ["Ответ", "ещё"]  # later markers are ignored


def test_v4_simple_question_in_a_final_keeps_the_default_type() -> None:
    question = _v4(
        '<question price="0"><scenario><atom>Q</atom></scenario><right><answer>A</answer></right></question>'
    )
    assert question.type == ""
    final = _v4(
        '<question price="0"><type name="simple"/><scenario><atom>Q</atom></scenario><right><answer>A</answer></right>'
        "</question>",
        round_type="final",
    )
    assert final.type == ""


# --------------------------------------------------------------------------------------------------- leniency


def test_reader_ignores_namespaces_and_child_order() -> None:
    xml = (
        '<package version="5" name="N"><rounds><round name="R"><themes><theme name="T"><questions>'
        '<question price="2"><right><answer>A</answer></right><params><param name="question" type="content">'
        '<item type="IMAGE" isRef="true" placement="bogus">x y.png</item></param></params>'
        "<info><comments>c</comments></info></question></questions></theme></themes></round></rounds>"
        "<info><authors><author>Автор</author></authors></info></package>"
    )
    package = parse_content_xml(xml.encode())
    question = package.rounds[0].themes[0].questions[0]
    assert question.question_items == (ContentItem.media(ContentType.IMAGE, "x y.png"),)  # bad placement → default
    assert question.info.comments == "c"
    assert package.info.authors == ("Автор",)
    assert package.rounds[0].type == "standart"


def test_reader_unescapes_media_entry_names() -> None:
    xml = (
        '<package version="5" name="N"><rounds><round name="R"><themes><theme name="T"><questions>'
        '<question price="1"><params><param name="question" type="content"><item type="image" isRef="True">'
        "карта 1.png</item></param></params><right><answer>A</answer></right></question></questions></theme>"
        "</themes></round></rounds></package>"
    ).encode()
    escaped = "Images/%D0%BA%D0%B0%D1%80%D1%82%D0%B0%201.png"
    package = read_siq(_zip({"content.xml": xml, escaped: b"png", "[Content_Types].xml": b"<x/>"}))
    assert package.media == (MediaFile(ContentType.IMAGE, "карта 1.png", b"png"),)


def test_media_outside_the_media_folders_is_skipped_and_folder_case_is_ignored() -> None:
    files = {
        "content.xml": b"<package version='5' name='N'><rounds/></package>",
        "images/a.png": b"1",
        "Images/a.png": b"2",
        "Images/sub/b.png": b"3",
        "Other/c.png": b"4",
        "Audio/": b"",
    }
    package = read_siq(_zip(files))
    assert package.media == (MediaFile(ContentType.IMAGE, "a.png", b"1"),)
    assert read_siq(write_siq(package)) == package


@pytest.mark.parametrize(
    ("files", "code", "params"),
    [
        ({"other.xml": b"<package/>"}, PackCode.NO_CONTENT, {"entry": "content.xml"}),
        (
            {"content.xml": b"<package version='6' name='x'/>"},
            PackCode.UNSUPPORTED_VERSION,
            {"version": "6", "maximum": 5},
        ),
        ({"content.xml": b"<package version='five' name='x'/>"}, PackCode.BAD_VERSION, {"value": "five"}),
        ({"content.xml": b"<root/>"}, PackCode.WRONG_ROOT, {"entry": "content.xml", "root": "root"}),
        (
            {"content.xml": b"<package version='5'><rounds>"},
            PackCode.XML_MALFORMED,
            {"entry": "content.xml", "line": 1, "column": 30},
        ),
        (
            {
                "content.xml": b"<package version='5'><rounds><round><themes><theme><questions><question price='x'/>"
                b"</questions></theme></themes></round></rounds></package>"
            },
            PackCode.BAD_ATTRIBUTE,
            {"element": "question", "name": "price", "value": "x", "kind_term": "pack_kind_integer"},
        ),
        (
            {
                "content.xml": b"<package version='5'><rounds><round><themes><theme><questions><question price='1'>"
                b"<params><param name='q' type='content'><item type='smell'>x</item></param></params></question>"
                b"</questions></theme></themes></round></rounds></package>"
            },
            PackCode.UNKNOWN_TYPE,
            {"element": "item", "value": "smell"},
        ),
    ],
)
def test_unreadable_packages_get_precise_errors(
    files: dict[str, bytes], code: PackCode, params: dict[str, ParamValue]
) -> None:
    with refused(code, **params) as caught:
        read_siq(_zip(files))
    assert isinstance(caught.value, PackError), type(caught.value)


def test_not_a_zip_is_a_pack_error() -> None:
    with refused(PackCode.NOT_A_ZIP):
        read_siq(b"hello")
    with refused(PackCode.NO_CONTENT, entry="content.xml") as caught:
        read_siq(_zip({}))
    assert isinstance(caught.value, SiqError)


# ---------------------------------------------------------------------------------------------------- writing


def _rich_package() -> Package:
    question = Question(
        price=3,
        type="custom",
        params=(
            Parameter.content(
                "question",
                (
                    ContentItem.text("Строка\r\nс переводом", Placement.REPLIC),
                    ContentItem(ContentType.IMAGE, "карта 1.png", True, Placement.SCREEN, timedelta(seconds=5), False),
                    ContentItem.media(ContentType.AUDIO, "100%.mp3", Placement.SCREEN),
                ),
            ),
            Parameter.numbers("price", NumberSet(1, 5, 2)),
            Parameter.group("answerOptions", (Parameter.content("A", (ContentItem.text("a"),)),)),
            Parameter.simple("unknownParam", "kept"),
        ),
        right=("Ответ", ""),
        wrong=("нет",),
        info=Info(authors=("A",), sources=("S",), comments="c", showman_comments="s", extension="e"),
        script=(Step("showContent", (Parameter("content", is_ref=True, text="question"),)),),
    )
    return Package(
        name="Пакет <&>",
        rounds=(
            Round("Бой", (Theme("Тема", (question, Question(EMPTY_PRICE))),), info=Info(comments="r")),
            Round("Финал", (Theme("Ф", (Question(0, right=("x",)),)),), type="final"),
        ),
        id="id-1",
        restriction="12+",
        date="2026",
        publisher="Клуб",
        difficulty=5,
        logo="@карта 1.png",
        language="ru-RU",
        contact_uri="https://example.org",
        tags=("тег",),
        info=Info(authors=("Автор",)),
        media=(
            MediaFile(ContentType.IMAGE, "карта 1.png", b"\x89PNG"),
            MediaFile(ContentType.AUDIO, "100%.mp3", b"ID3"),
        ),
        quality_marked=True,
    )


def test_writer_round_trips_every_field() -> None:
    package = _rich_package()
    assert read_siq(write_siq(package)) == package


def test_writer_output_follows_the_schema_and_sigame_conventions() -> None:
    written = write_siq(_rich_package())
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        xml = archive.read("content.xml")
    assert set(infos) == {
        "content.xml",
        "Images/%D0%BA%D0%B0%D1%80%D1%82%D0%B0%201.png",
        "Audio/100%25.mp3",
        "quality.marker",
    }
    assert infos["content.xml"].compress_type == zipfile.ZIP_DEFLATED
    assert infos["Audio/100%25.mp3"].compress_type == zipfile.ZIP_STORED
    assert schema_violations(xml) == []
    text = xml.decode()
    assert '<question price="-1"><right /></question>' in text  # an empty cell has no <params/>
    assert 'duration="00:00:05" waitForFinish="False"' in text
    assert write_siq(_rich_package()) == written  # deterministic bytes


def test_writer_to_a_stream_and_content_xml_agree() -> None:
    package = _rich_package()
    stream = io.BytesIO()
    data = write_siq(package, stream)
    assert stream.getvalue() == data
    assert parse_content_xml(content_xml(package), media=package.media, quality_marked=True) == package


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a\\b", "bad\x01"])
def test_writer_refuses_media_names_that_cannot_be_entries(name: str) -> None:
    with refused(PackCode.MEDIA_NAME, name=repr(name)[1:-1]):
        media_entry_name(MediaFile(ContentType.IMAGE, name, b""))


def test_writer_refuses_text_xml_cannot_carry() -> None:
    with refused(PackCode.UNWRITABLE_TEXT, element="package"):
        write_siq(Package("bad\x00name"))


def test_schema_checker_catches_what_sigame_itself_writes(shared_data: Path) -> None:
    """The checker is not vacuous: SIGame's own test package breaks the params rule, as documented."""
    with zipfile.ZipFile(shared_data / "quiz" / "siq" / "SIGameTestNew.siq") as archive:
        problems = schema_violations(archive.read("content.xml"))
    assert problems == ["<params> has no <param> (the schema wants at least one)"]


# --------------------------------------------------------------------------------------------------- property


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")) | st.sampled_from("\n\r\t"), max_size=30)
_NAME = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20)
_ITEMS = st.builds(
    ContentItem,
    type=st.sampled_from(ContentType),
    value=_TEXT,
    is_ref=st.booleans(),
    placement=st.sampled_from(Placement),
    duration=st.integers(0, 10**6).map(lambda seconds: timedelta(seconds=seconds)),
    wait_for_finish=st.booleans(),
)
_PARAMS = st.one_of(
    st.builds(Parameter.simple, _NAME, _TEXT),
    st.builds(Parameter.content, _NAME, st.lists(_ITEMS, max_size=4).map(tuple)),
    st.builds(
        Parameter.numbers, _NAME, st.builds(NumberSet, st.integers(-99, 99), st.integers(-99, 99), st.integers(0, 9))
    ),
)
_QUESTIONS = st.builds(
    Question,
    price=st.integers(-1, 10_000),
    type=st.sampled_from(["", "stake", "secret", "custom type"]),
    params=st.lists(_PARAMS, max_size=4).map(tuple),
    right=st.lists(_TEXT, max_size=3).map(tuple),
    wrong=st.lists(_TEXT, max_size=2).map(tuple),
    info=st.builds(Info, st.lists(_NAME, max_size=2).map(tuple), st.lists(_NAME, max_size=2).map(tuple), _TEXT),
)
_PACKAGES = st.builds(
    Package,
    name=_NAME,
    rounds=st.lists(
        st.builds(
            Round,
            _NAME,
            st.lists(st.builds(Theme, _NAME, st.lists(_QUESTIONS, max_size=3).map(tuple)), max_size=3).map(tuple),
            st.sampled_from(["standart", "final"]),
        ),
        max_size=3,
    ).map(tuple),
    tags=st.lists(_NAME, max_size=2).map(tuple),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_PACKAGES)
def test_any_package_round_trips_and_conforms(package: Package) -> None:
    written = write_siq(package)
    assert read_siq(written) == package
    with zipfile.ZipFile(io.BytesIO(written)) as archive:
        assert schema_violations(archive.read("content.xml")) == []
