"""The pack model: values, defaults and the derived views the game reads."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.quiz.codes import PackCode
from toreshi.quiz.pack import (
    EMPTY_PRICE,
    ContentItem,
    ContentType,
    Info,
    MediaFile,
    NumberSet,
    Package,
    Parameter,
    ParameterKind,
    Placement,
    Question,
    QuestionType,
    Round,
    RoundType,
    Step,
    Theme,
)

from .refusals import refused


def _question() -> Question:
    return Question(
        price=3,
        type=QuestionType.STAKE.value,
        params=(
            Parameter.content(
                "question",
                (
                    ContentItem.text("  Первая часть  "),
                    ContentItem.media(ContentType.IMAGE, "map 1.png"),
                    ContentItem.text("вторая часть.", Placement.REPLIC),
                    ContentItem.text(""),
                ),
            ),
            Parameter.content("answer", (ContentItem.text("не вопрос"), ContentItem.media(ContentType.AUDIO, "a.mp3"))),
            Parameter.simple("answerType", "number"),
        ),
        right=(" Ответ ", "", "Вариант"),
        wrong=("Неверно",),
    )


def test_question_text_joins_stripped_text_items_and_leaves_out_media_and_the_answer() -> None:
    assert _question().question_text == "Первая часть вторая часть."


def test_answers_are_the_right_answers_stripped_without_empty_ones() -> None:
    assert _question().answers == ("Ответ", "Вариант")


def test_question_items_and_answer_items_come_from_their_parameters() -> None:
    question = _question()
    assert [item.type for item in question.question_items] == [
        ContentType.TEXT,
        ContentType.IMAGE,
        ContentType.TEXT,
        ContentType.TEXT,
    ]
    assert [item.value for item in question.answer_items] == ["не вопрос", "a.mp3"]
    assert question.answer_type == "number"
    assert question.param("missing") is None


def test_content_items_walk_nested_parameters_and_scripts() -> None:
    option = Parameter.content("A", (ContentItem.media(ContentType.IMAGE, "a.png"),))
    question = Question(
        1,
        params=(Parameter.group("answerOptions", (option,)),),
        script=(Step("showContent", (Parameter.content("content", (ContentItem.text("шаг"),)),)),),
    )
    assert [item.value for item in question.content_items()] == ["a.png", "шаг"]


def test_a_question_without_content_has_empty_views() -> None:
    question = Question(EMPTY_PRICE)
    assert question.is_empty
    assert question.question_text == ""
    assert question.answers == ()
    assert question.answer_type == "text"
    assert question.type == ""


def test_media_items_get_sigame_default_placement() -> None:
    assert ContentItem.media(ContentType.AUDIO, "x.mp3").placement is Placement.BACKGROUND
    assert ContentItem.media(ContentType.VIDEO, "x.mp4").placement is Placement.SCREEN
    assert ContentItem.media(ContentType.IMAGE, "x.png", Placement.BACKGROUND).placement is Placement.BACKGROUND
    item = ContentItem.media(ContentType.HTML, "x.html")
    assert item.is_ref
    assert not item.is_text
    assert item.duration == timedelta(0)
    assert item.wait_for_finish


def test_media_folders_are_siq_folder_names() -> None:
    assert [t.folder for t in ContentType if t.is_media] == ["Images", "Audio", "Video", "Html"]
    assert not ContentType.TEXT.is_media


def test_round_type_defaults_to_standart_and_knows_final_aliases() -> None:
    assert Round("Бой").type == "standart"
    assert not Round("Бой").is_final
    assert Round("Финал", type="final").is_final
    assert Round("Финал", type="themeList").is_final
    assert RoundType.THEME_LIST.is_final
    assert not RoundType.TABLE.is_final


def test_package_questions_walk_in_order_with_their_round_and_theme() -> None:
    first, second = Question(1, right=("a",)), Question(2, right=("b",))
    package = Package(
        "P",
        rounds=(Round("R1", (Theme("T1", (first,)),)), Round("R2", (Theme("T2", (second,)),), type="final")),
    )
    assert [(r.name, t.name, q.price) for r, t, q in package.questions()] == [("R1", "T1", 1), ("R2", "T2", 2)]


def test_media_file_lookup_uses_type_and_name() -> None:
    image = MediaFile(ContentType.IMAGE, "a.png", b"\x89PNG")
    package = Package("P", media=(image,))
    assert package.media_file(ContentType.IMAGE, "a.png") is image
    assert package.media_file(ContentType.AUDIO, "a.png") is None


def test_model_values_are_frozen() -> None:
    question = Question(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        question.price = 2  # type: ignore[misc]


def test_info_is_empty_only_without_any_field() -> None:
    assert Info().is_empty
    assert not Info(comments="c").is_empty


def test_parameter_factories_set_the_kind() -> None:
    assert Parameter.simple("theme", "x").kind is ParameterKind.SIMPLE
    assert Parameter.numbers("price", NumberSet(1, 2)).kind is ParameterKind.NUMBER_SET
    assert Parameter.group("answerOptions", ()).kind is ParameterKind.GROUP
    assert Parameter.content("question", ()).kind is ParameterKind.CONTENT


@pytest.mark.parametrize(
    ("text", "expected", "values"),
    [
        ("300", NumberSet(300, 300, 0), (300,)),
        ("[100;500]", NumberSet(100, 500, 400), (100, 500)),
        ("[100;1000]/200", NumberSet(100, 1000, 200), (100, 300, 500, 700, 900)),
        (" [ 0 ; 0 ] ", NumberSet(0, 0, 0), (0,)),
    ],
)
def test_number_set_text_forms(text: str, expected: NumberSet, values: tuple[int, ...]) -> None:
    assert NumberSet.parse(text) == expected
    assert expected.values() == values


@pytest.mark.parametrize("text", ["", "abc", "[100;]", "[1;2]/x", "1.5"])
def test_number_set_rejects_other_text(text: str) -> None:
    with refused(PackCode.BAD_VALUE, value=text, kind_term="pack_kind_number_set"):
        NumberSet.parse(text)


@given(st.integers(-10_000, 10_000), st.integers(0, 10_000), st.integers(1, 10_000))
def test_number_set_text_round_trips(low: int, span: int, step: int) -> None:
    number_set = NumberSet(low, low + span, step if span else 0)
    assert NumberSet.parse(str(number_set)) == number_set
    values = number_set.values()
    assert len(values) == number_set.size
    assert values[0] == low
    assert all(low <= value <= low + span for value in values)
