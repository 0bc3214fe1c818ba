"""db.chgk.info «Своя игра» text import."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.kit.refusal import ParamValue
from toreshi.quiz.chgk import ChgkFormatError, decode_text, looks_like_chgk, read_chgk
from toreshi.quiz.codes import PackCode
from toreshi.quiz.limits import Limits, UnsafePackError
from toreshi.quiz.pack import PackError
from toreshi.quiz.siq import read_siq, write_siq

from .refusals import refused

PACK = """Чемпионат:
Кубок клуба по "Своей игре" - 2026

Дата:
01-Mar-2026

Редактор:
Иван Петров (Алматы)
Анна Сидорова

Инфо:
Пакет для тренировки.

Тур:
1 бой

Вопрос 1:
Реки России
   1. Самая длинная река Европы.
   2. Река, на которой стоит
Новосибирск.
   3. ЕЕ называли Итилем.
   4. На этой реке стоит Красноярск.
   5. Самая полноводная река России.

Ответ:
   1. Волга.
   2. Обь.
   3. Волга.
   4. Енисей.
   5. Енисей.

Зачет:
   1. Ра; Итиль.

Незачет:
   2. Иртыш.

Комментарий:
   3. Итиль - древнее название.

Источник:
   1. https://ru.wikipedia.org/wiki/Волга

Автор:
Иван Петров

Вопрос 2:
Матричная тема
   В каждом ответе есть буква Ж.
   10. Животное с длинной шеей.
   20. Птица, которая в дождь.
   30. Насекомое.
   40. Металл.
   50. Город на Волге.

Ответ:
   10. Жираф.
   20. Журавль.
   30. Жук.
   40. Железо.
   50. Жигулевск.

Комментарий:
Тема-пример.

Тур:
Финал

Вопрос 3:
Финальная тема
   Назовите автора "Войны и мира".

Ответ:
Лев Толстой.

Зачет:
Толстой
"""


def test_package_metadata_and_rounds() -> None:
    package = read_chgk(PACK)
    assert package.name == 'Кубок клуба по "Своей игре" - 2026'
    assert package.date == "01-Mar-2026"
    assert package.info.authors == ("Иван Петров (Алматы)", "Анна Сидорова")
    assert package.info.comments == "Пакет для тренировки."
    assert [(r.name, r.type, [t.name for t in r.themes]) for r in package.rounds] == [
        ("1 бой", "standart", ["Реки России", "Матричная тема"]),
        ("Финал", "standart", ["Финальная тема"]),
    ]


def test_numbered_questions_become_a_theme_priced_ten_per_step() -> None:
    theme = read_chgk(PACK).rounds[0].themes[0]
    assert [q.price for q in theme.questions] == [10, 20, 30, 40, 50]
    assert theme.questions[1].question_text == "Река, на которой стоит Новосибирск."  # continuation line joined
    assert [q.answers[0] for q in theme.questions] == ["Волга", "Обь", "Волга", "Енисей", "Енисей"]
    assert theme.info.authors == ("Иван Петров",)


def test_zachet_nezachet_comments_and_sources_attach_by_number() -> None:
    questions = read_chgk(PACK).rounds[0].themes[0].questions
    assert questions[0].answers == ("Волга", "Ра", "Итиль")
    assert questions[1].wrong == ("Иртыш",)
    assert questions[2].info.comments == "Итиль - древнее название."
    assert questions[0].info.sources == ("https://ru.wikipedia.org/wiki/Волга",)
    assert questions[3].wrong == ()
    assert questions[3].info.comments == ""


def test_numbering_by_tens_and_a_theme_comment() -> None:
    theme = read_chgk(PACK).rounds[0].themes[1]
    assert [q.price for q in theme.questions] == [10, 20, 30, 40, 50]
    assert theme.questions[4].answers == ("Жигулевск",)
    assert theme.info.comments == "В каждом ответе есть буква Ж.\nТема-пример."


def test_a_theme_without_numbers_is_one_price_zero_question() -> None:
    theme = read_chgk(PACK).rounds[1].themes[0]
    (question,) = theme.questions
    assert question.price == 0
    assert question.question_text == 'Назовите автора "Войны и мира".'
    assert question.answers == ("Лев Толстой", "Толстой")


def test_without_a_tour_all_themes_form_one_round_named_after_the_championship() -> None:
    text = "\n".join(line for line in PACK.splitlines() if line not in ("Тур:", "1 бой", "Финал"))
    package = read_chgk(text)
    assert [(r.name, len(r.themes)) for r in package.rounds] == [('Кубок клуба по "Своей игре" - 2026', 3)]


def test_a_file_without_championship_takes_the_given_name() -> None:
    text = "Вопрос 1:\nТема\n   1. Вопрос?\n\nОтвет:\n   1. Ответ.\n"
    assert read_chgk(text, name="mkm14").name == "mkm14"
    assert read_chgk(text).name == "db.chgk.info"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251", "koi8_r"])
def test_bytes_in_any_of_the_bases_encodings(encoding: str) -> None:
    assert read_chgk(PACK.encode(encoding)) == read_chgk(PACK)


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_any_line_ending(newline: str) -> None:
    assert read_chgk(PACK.replace("\n", newline)) == read_chgk(PACK)


def test_the_import_saves_as_a_v5_package() -> None:
    package = read_chgk(PACK)
    assert read_siq(write_siq(package)) == package


def test_decode_text_prefers_utf8_then_the_encoding_that_reads_as_russian() -> None:
    assert decode_text("Вопрос 1:".encode("koi8_r")) == "Вопрос 1:"
    assert decode_text("Ответ: мама мыла раму".encode("cp1251")) == "Ответ: мама мыла раму"
    assert decode_text("\ufeffВопрос".encode()) == "Вопрос"


def test_looks_like_chgk_needs_a_question_and_an_answer() -> None:
    assert looks_like_chgk(PACK)
    assert not looks_like_chgk("Вопрос 1:\nтолько вопрос\n")
    assert not looks_like_chgk("hello")


THEME = {"line": 1, "theme": "Тема"}


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("Чемпионат:\nпусто\n", PackCode.CHGK_NO_QUESTION, {}),
        ("Вопрос 1:\nТема\n   1. Вопрос?\n", PackCode.CHGK_NO_ANSWER_FIELD, {**THEME, "label": "Вопрос"}),
        (
            "Вопрос 1:\nТема\n   1. В?\n   2. В?\n\nОтвет:\n   1. О.\n",
            PackCode.CHGK_NO_ANSWER,
            {**THEME, "label": "Вопрос", "question": 2},
        ),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\n   1. О.\n   2. Лишний.\n",
            PackCode.CHGK_NO_SUCH_QUESTION,
            {**THEME, "label": "Ответ", "number": 2},
        ),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\nНе по номерам.\n",
            PackCode.CHGK_NOT_NUMBERED,
            {**THEME, "label": "Ответ"},
        ),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\n   1. О.\n\nЗачет:\nвсё подряд\n",
            PackCode.CHGK_NOT_NUMBERED,
            {**THEME, "label": "Зачет"},
        ),
        (
            "Вопрос 1:\nТема\n   1. В?\n   1. Снова?\n\nОтвет:\n   1. О.\n",
            PackCode.CHGK_NUMBER_TWICE,
            {**THEME, "label": "Вопрос", "number": 1},
        ),
        (
            "Вопрос 1:\nТема\n   10. В?\n   45. В?\n\nОтвет:\n   10. О.\n",
            PackCode.CHGK_BAD_NUMBER,
            {**THEME, "label": "Вопрос", "number": 45},
        ),
        ("Вопрос 1:\n   1. В?\n\nОтвет:\n   1. О.\n", PackCode.CHGK_NO_THEME_NAME, {"line": 1}),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\n   1. О.\n\nОтвет:\n   1. О.\n",
            PackCode.CHGK_SECOND_FIELD,
            {"line": 8, "label": "Ответ"},
        ),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\n   1. О.\nи ещё\n   без номера\n\nЗачет:\nx\n   1. y\n",
            PackCode.CHGK_MIXED,
            {"line": 10, "label": "Зачет"},
        ),
    ],
)
def test_text_that_does_not_fit_is_reported_not_guessed(
    text: str, code: PackCode, params: dict[str, ParamValue]
) -> None:
    with refused(code, **params) as caught:
        read_chgk(text)
    assert isinstance(caught.value, ChgkFormatError), type(caught.value)


def test_errors_give_the_line_of_the_theme() -> None:
    with refused(PackCode.CHGK_NO_ANSWER, line=17, theme="Реки России", label="Вопрос", question=5):
        read_chgk(PACK.replace("   5. Енисей.\n", ""))


def test_oversized_input_is_refused() -> None:
    size = len(PACK.encode())
    with refused(PackCode.TEXT_TOO_LARGE, size=size, limit=100) as caught:
        read_chgk(PACK.encode(), Limits(max_xml_size=100))
    assert isinstance(caught.value, UnsafePackError)
    with refused(PackCode.TEXT_TOO_LARGE, size=len(PACK), limit=100):
        read_chgk(PACK, Limits(max_xml_size=100))
    with refused(
        PackCode.TEXT_TOO_LONG, item_term="pack_item_theme_name", place="db.chgk.info › " + "Т" * 59 + "…", length=400,
        limit=350,
    ):  # fmt: skip
        read_chgk("Вопрос 1:\n" + "Т" * 400 + "\n   1. В?\n\nОтвет:\n   1. О.\n")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from([*PACK.splitlines(), "", "   7. x", "Вопрос 9:", "Ответ:", "   ", "1. y"]), max_size=40)
)
def test_shuffled_lines_never_crash_the_importer(lines: list[str]) -> None:
    try:
        package = read_chgk("\n".join(lines))
    except PackError:
        return
    for _, theme, question in package.questions():
        assert theme.name
        assert question.price >= 0


def test_numbering_by_hundreds_prices_ten_per_step() -> None:
    numbered = PACK
    for n in (1, 2, 3, 4, 5):
        numbered = numbered.replace(f"   {n}0. ", f"   {n}00. ")
    theme = read_chgk(numbered).rounds[0].themes[1]
    assert [q.price for q in theme.questions] == [10, 20, 30, 40, 50]
    assert theme.questions[4].answers == ("Жигулевск",)
