"""The CLI contract of ``toreshi quiz inspect`` (acceptance checks rely on it exactly) and ``quiz convert``."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.kit.refusal import Refusal
from toreshi.quiz.codes import PackCode
from toreshi.quiz.siq import read_siq
from toreshi.texts import i18n, refusals

from ..quiz.test_chgk import PACK

runner = CliRunner()

V5_PACKAGES = ["1.siq", "Package4_4.siq", "Package5_9.siq", "Pack3_2.siq", "SIGameTestNew.siq"]


def _local(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _find(element: ElementTree.Element, *path: str) -> list[ElementTree.Element]:
    found = [element]
    for name in path:
        found = [child for parent in found for child in parent if _local(child) == name]
    return found


def _expected(content: bytes) -> dict[str, Any]:
    """The contract computed straight from a v5 content.xml, independently of the reader under test."""
    root = ElementTree.fromstring(content)
    rounds = []
    for round_ in _find(root, "rounds", "round"):
        themes = []
        for theme in _find(round_, "themes", "theme"):
            questions = []
            for question in _find(theme, "questions", "question"):
                texts = [
                    "".join(item.itertext()).strip()
                    for param in _find(question, "params", "param")
                    if param.get("name") == "question"
                    for item in param
                    if _local(item) == "item" and item.get("type", "text") == "text"
                ]
                answers = ["".join(answer.itertext()).strip() for answer in _find(question, "right", "answer")]
                questions.append(
                    {
                        "price": int(question.get("price", "0")),
                        "type": question.get("type", ""),
                        "question": " ".join(text for text in texts if text),
                        "answers": [answer for answer in answers if answer],
                    }
                )
            themes.append({"name": theme.get("name"), "questions": questions})
        rounds.append({"name": round_.get("name"), "type": round_.get("type", "standart"), "themes": themes})
    return {"name": root.get("name"), "rounds": rounds}


@pytest.mark.parametrize("name", V5_PACKAGES)
def test_inspect_json_follows_the_contract(shared_data: Path, name: str) -> None:
    path = shared_data / "quiz" / "siq" / name
    result = runner.invoke(app, ["quiz", "inspect", str(path), "--json"])
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(path) as archive:
        expected = _expected(archive.read("content.xml"))
    assert json.loads(result.stdout) == expected


def test_inspect_json_of_a_v4_package_uses_v5_names(shared_data: Path) -> None:
    result = runner.invoke(app, ["quiz", "inspect", str(shared_data / "quiz" / "siq" / "SIGameTest.siq"), "--json"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert [r["type"] for r in document["rounds"]] == ["standart", "final"]
    first_theme = document["rounds"][0]["themes"][0]["questions"]
    assert [q["type"] for q in first_theme[:3]] == ["", "stake", "secret"]
    image_then_replic = document["rounds"][0]["themes"][1]["questions"][2]
    assert image_then_replic["question"] == "Устный комментарий для изображения"  # the image reference is left out
    with_answer_media = document["rounds"][0]["themes"][1]["questions"][8]
    assert with_answer_media["question"] == "А в этом вопросе медиа содержится в ответе"  # not the answer part


def test_inspect_json_of_db_chgk_text(tmp_path: Path) -> None:
    path = tmp_path / "pack.txt"
    path.write_bytes(PACK.encode("cp1251"))
    result = runner.invoke(app, ["quiz", "inspect", str(path), "--json"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    theme = document["rounds"][0]["themes"][0]
    assert theme["name"] == "Реки России"
    assert theme["questions"][0] == {
        "price": 10,
        "type": "",
        "question": "Самая длинная река Европы.",
        "answers": ["Волга", "Ра", "Итиль"],
    }


def test_inspect_summary_is_readable(shared_data: Path) -> None:
    result = runner.invoke(app, ["quiz", "inspect", str(shared_data / "quiz" / "siq" / "SIGameTestNew.siq")])
    assert result.exit_code == 0
    assert "Тестовый пакет SIGame" in result.stdout
    assert "2 rounds" in result.stdout
    assert "Финал (final)" in result.stdout


@pytest.mark.parametrize(
    ("content", "refusal"),
    [
        (b"just some text", Refusal(PackCode.NOT_A_PACK)),
        (b"PK\x03\x04broken", Refusal(PackCode.NOT_A_ZIP)),
        (b"<package version='9' name='x'/>", Refusal(PackCode.UNSUPPORTED_VERSION, {"version": "9", "maximum": 5})),
        (
            "Вопрос 1:\nТема\n   1. В?\n\nОтвет:\n   2. О.\n".encode(),
            Refusal(PackCode.CHGK_NO_SUCH_QUESTION, {"line": 1, "theme": "Тема", "label": "Ответ", "number": 2}),
        ),
    ],
)
def test_inspect_fails_cleanly_on_a_file_it_cannot_read(tmp_path: Path, content: bytes, refusal: Refusal) -> None:
    path = tmp_path / "bad.siq"
    path.write_bytes(content)
    result = runner.invoke(app, ["quiz", "inspect", str(path), "--json"])
    assert result.exit_code == 1
    i18n.activate("en")  # the command line speaks English: the refusal's English sentence, on one line
    assert " ".join(result.stderr.split()) == f"error: cannot read {path}: {refusals.render(refusal)}"
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_inspect_fails_cleanly_on_a_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["quiz", "inspect", str(tmp_path / "absent.siq")])
    assert result.exit_code == 1
    assert "No such file or directory" in result.stderr


def test_convert_writes_a_v5_package(shared_data: Path, tmp_path: Path) -> None:
    source = shared_data / "quiz" / "siq" / "SIGameTest.siq"
    target = tmp_path / "out.siq"
    result = runner.invoke(app, ["quiz", "convert", str(source), str(target)])
    assert result.exit_code == 0, result.output
    assert read_siq(target.read_bytes()) == read_siq(source.read_bytes())
    with zipfile.ZipFile(target) as archive:
        assert ElementTree.fromstring(archive.read("content.xml")).get("version") == "5"


def test_convert_overwrites_only_with_force_and_never_its_source(tmp_path: Path) -> None:
    """Issue 26: nothing is overwritten unless the user says so, and the source never (it is read first)."""
    source = tmp_path / "pack.txt"
    source.write_text(PACK, encoding="utf-8")
    target = tmp_path / "out.siq"
    target.write_bytes(b"precious")
    refused = runner.invoke(app, ["quiz", "convert", str(source), str(target)])
    assert refused.exit_code == 1
    assert refused.stderr == f"error: {target} already exists; pass --force to overwrite it\n"
    assert target.read_bytes() == b"precious"
    forced = runner.invoke(app, ["quiz", "convert", str(source), str(target), "--force"])
    assert forced.exit_code == 0, forced.output
    assert read_siq(target.read_bytes()).name

    before = source.read_bytes()
    for spelling in (str(source), f"{tmp_path}/./pack.txt"):
        itself = runner.invoke(app, ["quiz", "convert", str(source), spelling, "--force"])
        assert itself.exit_code == 1
        assert "is the pack being converted: write the converted pack to another file" in itself.stderr
    assert source.read_bytes() == before
