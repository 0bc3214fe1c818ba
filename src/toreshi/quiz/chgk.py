"""Import «Своя игра» packs in the db.chgk.info («База вопросов») text format.

A file is a sequence of labelled fields (``Чемпионат:``, ``Тур:``, ``Вопрос N:``, ``Ответ:``, ``Зачет:``,
``Незачет:``, ``Комментарий:``, ``Источник:``, ``Автор:`` …; ``shared/docs/svoya-igra.md`` §4). In an SI pack
one ``Вопрос N`` is one *theme*: its first unindented lines are the theme name, then come numbered lines
``1. …`` to ``5. …`` (or ``10. …`` to ``50. …``), one per question; ``Ответ``, ``Зачет``, ``Незачет``,
``Комментарий`` and ``Источник`` are numbered the same way. A theme without numbered lines is one question
of price 0 (a final-style theme). Prices are ``10 × index`` as in SIQuester's importer; the game maps them to
the club's 1–5 by position. Every ``Тур:`` starts a round; without one, all themes form one standard round.

Anything that does not fit — a numbered answer with no question, a question with no answer — is reported as
:class:`ChgkFormatError` (a :class:`~toreshi.quiz.codes.PackCode` with the ``line``, the ``theme`` and the field's
``label``) rather than guessed.

>>> text = '''Чемпионат:
... Тренировка
...
... Вопрос 1:
... Реки
...    1. Самая длинная река Европы.
...    2. Река, на которой стоит Париж.
...
... Ответ:
...    1. Волга.
...    2. Сена.
...
... Зачет:
...    1. Ра; Итиль.
... '''
>>> package = read_chgk(text)
>>> theme = package.rounds[0].themes[0]
>>> theme.name, [q.price for q in theme.questions]
('Реки', [10, 20])
>>> theme.questions[0].answers
('Волга', 'Ра', 'Итиль')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from toreshi.kit.refusal import ParamValue, Refusal
from toreshi.quiz.codes import PackCode
from toreshi.quiz.limits import DEFAULT_LIMITS, Limits, UnsafePackError, check_package
from toreshi.quiz.pack import ContentItem, Info, Package, PackError, Parameter, ParameterName, Question, Round, Theme

__all__ = ["ChgkFormatError", "decode_text", "looks_like_chgk", "read_chgk"]

PRICE_STEP = 10
"""Price of question ``n`` of a theme is ``PRICE_STEP × n`` (SIQuester's importer does the same)."""


class ChgkFormatError(PackError):
    """A db.chgk.info text that does not fit the «Своя игра» pattern; its parameters give the line."""


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a theme's problem is: the line of its «Вопрос», its name once known, the field (canonical label)."""

    line: int
    theme: str = ""
    label: str = "вопрос"

    def refusal(self, code: PackCode, **more: ParamValue) -> Refusal:
        params = {"line": self.line, "theme": self.theme[:100], "label": _shown_label(self.label), **more}
        return Refusal(code, params)


def _shown_label(label: str) -> str:
    """A field's label as the file writes it: ``Ответ``, ``Зачет``."""
    return label[:1].upper() + label[1:]


_LABEL = re.compile(
    r"^(?P<label>Чемпионат|URL|Ссылка|Дата|Вид|Тип|Редактор|Редакторы|Инфо|Тур|Вопрос(?:\s+\d+)?|Ответ|"
    r"Зач[её]т|Незач[её]т|Комментарии|Комментарий|Источники?|Источник\(и\)|Авторы?|Обработан)\s*:\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^\s*(\d{1,3})\.\s*(.*)$")
_INDENTED = re.compile(r"^(?:\s{2,}|\t)")


@dataclass
class _Field:
    label: str
    line: int
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip()


def decode_text(data: bytes) -> str:
    """Decode a db.chgk.info file: UTF-8 (with or without BOM), else whichever of CP1251 and KOI8-R reads as
    Russian (old files of the base are in both)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    candidates = [data.decode(encoding, errors="replace") for encoding in ("cp1251", "koi8_r")]
    return max(candidates, key=_russian_score)


def _russian_score(text: str) -> int:
    # Labels are the surest sign; lower-case Cyrillic vowels break ties (KOI8-R read as CP1251 is mostly capitals).
    return 100 * len(re.findall(r"Вопрос|Ответ", text)) + sum(text.count(vowel) for vowel in "оаеи")


def looks_like_chgk(text: str) -> bool:
    """Whether the text has at least one ``Вопрос`` field and one ``Ответ`` field (cheap format sniffing)."""
    labels = {_canonical(match["label"]) for line in text.splitlines() if (match := _LABEL.match(line))}
    return {"вопрос", "ответ"} <= labels


def read_chgk(source: str | bytes, limits: Limits = DEFAULT_LIMITS, *, name: str = "") -> Package:
    """Read a db.chgk.info «Своя игра» text (``str``, or ``bytes`` in any of the base's encodings).

    ``name`` is used when the file has no ``Чемпионат`` field. Raises :class:`ChgkFormatError` for text that
    does not fit the pattern and :class:`~toreshi.quiz.limits.UnsafePackError` for oversized input.
    """
    if len(source) > limits.max_xml_size:
        raise UnsafePackError(PackCode.TEXT_TOO_LARGE, size=len(source), limit=limits.max_xml_size)
    if isinstance(source, bytes):
        source = decode_text(source)
    fields = _fields(source)
    if not any(_canonical(f.label) == "вопрос" for f in fields):
        raise ChgkFormatError(PackCode.CHGK_NO_QUESTION)
    package = _build(fields, name)
    check_package(package, limits)
    return package


def _canonical(label: str) -> str:
    word = label.split()[0].lower().replace("ё", "е")
    return {
        "источники": "источник",
        "источник(и)": "источник",
        "авторы": "автор",
        "комментарии": "комментарий",
        "редакторы": "редактор",
        "ссылка": "url",
    }.get(word, word)


def _fields(text: str) -> list[_Field]:
    fields: list[_Field] = []
    current: _Field | None = None
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        match = _LABEL.match(line)
        if match is not None:
            current = _Field(_canonical(match["label"]), number)
            fields.append(current)
            if match["rest"].strip():
                current.lines.append(match["rest"])
        elif current is not None:
            current.lines.append(line.rstrip())
    return fields


@dataclass
class _ThemeDraft:
    question: _Field
    round_index: int
    extras: dict[str, _Field] = field(default_factory=dict)


def _build(fields: list[_Field], fallback_name: str) -> Package:
    meta: dict[str, str] = {}
    round_names: list[str] = []
    drafts: list[_ThemeDraft] = []
    for item in fields:
        if item.label == "вопрос":
            drafts.append(_ThemeDraft(item, max(len(round_names) - 1, 0)))
        elif item.label == "тур":
            round_names.append(" ".join(item.text.split()) or f"Тур {len(round_names) + 1}")
        elif drafts and item.label in (*_PER_QUESTION, "автор"):
            draft = drafts[-1]
            if item.label in draft.extras:
                raise ChgkFormatError(PackCode.CHGK_SECOND_FIELD, line=item.line, label=_shown_label(item.label))
            draft.extras[item.label] = item
        elif not drafts or item.label not in ("ответ", "зачет", "незачет"):
            meta.setdefault(item.label, item.text)
        else:
            raise ChgkFormatError(PackCode.CHGK_FIELD_FIRST, line=item.line, label=_shown_label(item.label))
    themes_by_round: list[list[Theme]] = [[] for _ in range(max(len(round_names), 1))]
    for draft in drafts:
        themes_by_round[draft.round_index].append(_build_theme(draft))
    title = " ".join(meta.get("чемпионат", "").split()) or fallback_name or "db.chgk.info"
    names = round_names or [title]
    rounds = tuple(Round(name, tuple(themes)) for name, themes in zip(names, themes_by_round, strict=True) if themes)
    info = Info(
        authors=tuple(_lines(meta.get("редактор", ""))),
        comments=meta.get("инфо", ""),
        sources=tuple(_lines(meta.get("url", ""))),
    )
    return Package(name=title, rounds=rounds, date=" ".join(meta.get("дата", "").split()), info=info)


_PER_QUESTION = ("ответ", "зачет", "незачет", "комментарий", "источник")
"""The fields a theme numbers like its questions (or, for a price-0 theme, gives whole)."""
_MAX_INDEX = 30  # SIGame's questions-per-theme limit: a higher index is a misread number, not a question
_Numbered = list[tuple[int, str]]
"""Numbered lines as written: ``(number, text)``, continuation lines already joined."""


def _build_theme(draft: _ThemeDraft) -> Theme:
    name_lines, comment_lines, raw_questions = _split_question_field(draft.question)
    theme_name = " ".join(" ".join(name_lines).split())
    if not theme_name:
        raise ChgkFormatError(PackCode.CHGK_NO_THEME_NAME, line=draft.question.line)
    where = _Where(draft.question.line, theme_name)
    answer_field = draft.extras.get("ответ")
    if answer_field is None:
        raise ChgkFormatError(where.refusal(PackCode.CHGK_NO_ANSWER_FIELD))
    extras = {label: _numbered_or_whole(item) for label, item in draft.extras.items() if label != "автор"}
    authors = tuple(_lines(draft.extras["автор"].text)) if "автор" in draft.extras else ()
    theme_comment_parts = [" ".join(" ".join(comment_lines).split())]
    theme_sources: tuple[str, ...] = ()

    if not raw_questions:
        # A theme without numbered questions is one price-0 question; its answer is the whole «Ответ».
        text = " ".join(" ".join(comment_lines).split())
        question = _question(0, text or None, {label: _whole(extras.get(label)) for label in _PER_QUESTION})
        return Theme(theme_name, (question,), Info(authors=authors))

    unit = _unit(raw_questions)
    numbered = _by_index(raw_questions, unit, where)
    by_label: dict[str, dict[int, str]] = {}
    for label in _PER_QUESTION:
        value = extras.get(label)
        if isinstance(value, list):
            by_label[label] = _index_extra(value, unit, set(numbered), _Where(where.line, theme_name, label))
        elif value and label == "комментарий":
            theme_comment_parts.append(value)
        elif value and label == "источник":
            theme_sources = tuple(_lines(value))
        elif value or label == "ответ":
            raise ChgkFormatError(_Where(where.line, theme_name, label).refusal(PackCode.CHGK_NOT_NUMBERED))
    answers = by_label["ответ"]
    questions: list[Question] = []
    for index, text in numbered.items():
        if index not in answers:
            raise ChgkFormatError(where.refusal(PackCode.CHGK_NO_ANSWER, question=index))
        fields = {label: by_label.get(label, {}).get(index, "") for label in _PER_QUESTION}
        questions.append(_question(PRICE_STEP * index, text, fields))
    comments = "\n".join(part for part in theme_comment_parts if part)
    return Theme(theme_name, tuple(questions), Info(authors=authors, sources=theme_sources, comments=comments))


def _question(price: int, text: str | None, fields: Mapping[str, str]) -> Question:
    """A question from its text (``None``: none to show) and the texts of its :data:`_PER_QUESTION` fields."""
    return Question(
        price=price,
        params=() if text is None else (Parameter.content(ParameterName.QUESTION, (ContentItem.text(text),)),),
        right=(_clean_answer(fields["ответ"]), *_alternatives(fields["зачет"])),
        wrong=tuple(_alternatives(fields["незачет"])),
        info=Info(comments=fields["комментарий"], sources=tuple(_lines(fields["источник"]))),
    )


def _split_question_field(item: _Field) -> tuple[list[str], list[str], _Numbered]:
    """Theme name lines, theme comment lines, and the numbered questions."""
    name_lines: list[str] = []
    comment_lines: list[str] = []
    raw: _Numbered = []
    for line in item.lines:
        if not line.strip():
            continue
        match = _NUMBERED.match(line)
        # A numbered line counts once the theme name is known, or when it is indented as the format wants.
        if match is not None and (name_lines or _INDENTED.match(line)):
            raw.append((int(match[1]), match[2].strip()))
        elif raw:
            _join_continuation(raw, line)
        elif not comment_lines and not _INDENTED.match(line):
            name_lines.append(line.strip())
        else:
            comment_lines.append(line.strip())
    if not raw and not comment_lines and len(name_lines) > 1:
        # An unindented single-question theme: the first line names it, the rest is the question.
        name_lines, comment_lines = name_lines[:1], name_lines[1:]
    return name_lines, comment_lines, raw


def _join_continuation(raw: _Numbered, line: str) -> None:
    """An unnumbered line after a numbered one goes on with its text."""
    number, text = raw[-1]
    raw[-1] = (number, f"{text} {line.strip()}".strip())


def _unit(raw: _Numbered) -> int:
    """The numbering step: 10 for ``10.``–``50.`` (100 for ``100.``–``500.``), otherwise 1."""
    numbers = [number for number, _ in raw]
    return next((unit for unit in (1000, 100, 10) if all(n % unit == 0 and n > 0 for n in numbers)), 1)


def _by_index(raw: _Numbered, unit: int, where: _Where) -> dict[int, str]:
    """Written numbers as indexes 1, 2, … of the theme's questions."""
    result: dict[int, str] = {}
    for number, text in raw:
        index, remainder = divmod(number, unit)
        if remainder or not 0 < index <= _MAX_INDEX:
            raise ChgkFormatError(where.refusal(PackCode.CHGK_BAD_NUMBER, number=number))
        if index in result:
            raise ChgkFormatError(where.refusal(PackCode.CHGK_NUMBER_TWICE, number=number))
        result[index] = text
    return result


def _index_extra(raw: _Numbered, unit: int, questions: set[int], where: _Where) -> dict[int, str]:
    """A numbered answer, comment … field by question index: numbered like the questions, or by its own step."""
    attempts: list[ChgkFormatError] = []
    for candidate in dict.fromkeys((unit, _unit(raw))):
        try:
            indexed = _by_index(raw, candidate, where)
        except ChgkFormatError as error:
            attempts.append(error)
            continue
        stray = sorted(set(indexed) - questions)
        if not stray:
            return indexed
        attempts.append(ChgkFormatError(where.refusal(PackCode.CHGK_NO_SUCH_QUESTION, number=stray[0] * candidate)))
    raise attempts[0]


def _numbered_or_whole(item: _Field) -> _Numbered | str:
    raw: _Numbered = []
    loose: list[str] = []
    for line in item.lines:
        if not line.strip():
            continue
        match = _NUMBERED.match(line)
        if match is not None:
            raw.append((int(match[1]), match[2].strip()))
        elif raw:
            _join_continuation(raw, line)
        else:
            loose.append(line.strip())
    if not raw:
        return "\n".join(loose)
    if loose:
        raise ChgkFormatError(PackCode.CHGK_MIXED, line=item.line, label=_shown_label(item.label))
    return raw


def _whole(value: _Numbered | str | None) -> str:
    if isinstance(value, list):
        return " ".join(text for _, text in value)
    return value or ""


def _clean_answer(text: str) -> str:
    """One answer line: whitespace collapsed and the sentence's final full stop dropped (not an ellipsis)."""
    answer = " ".join(text.split())
    return answer[:-1].rstrip() if answer.endswith(".") and not answer.endswith("..") else answer


def _alternatives(text: str) -> list[str]:
    """Accepted or refused variants: ``Ра; Итиль.`` → ``['Ра', 'Итиль']``."""
    return [answer for part in text.split(";") if (answer := _clean_answer(part))]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]
