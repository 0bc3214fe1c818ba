"""A TRF written by toreshi reads back the same and passes toreshi's own pairing checker (issue 29): the exported
file of a Swiss paired in the app, with a half-point bye, a forfeit and a forbidden pair, in TRF16 and TRF-2026."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.model import GameResult
from toreshi.tournament.trf import RawLine, format_trf, parse_trf

from .helpers import post
from .test_tournament_pages import call, sign_in, tournaments
from .test_tournament_pairing_tools import _swiss

RESULTS = [GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS, GameResult.WHITE_FORFEIT_WIN]


def _played(web: TestClient) -> str:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=7, name="Тараз кубогы", venue="Тараз")
    post(web, f"/tournaments/{tid}/do/forbid", csrf, first="1", second="2", reason="")
    post(web, f"/tournaments/{tid}/do/bye", csrf, number="5", round="2", code="H")
    for number in (1, 2, 3):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in range(1, 4):
            result = RESULTS[(board + number) % len(RESULTS)].value
            post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board), result=result,
                 confirmed="yes", reason="did not come")  # fmt: skip
    return tid


@pytest.mark.parametrize("kind", ["trf", "trf26"])
def test_an_exported_trf_reads_back_the_same_and_the_checker_agrees(web: TestClient, tmp_path: Path,
                                                                    kind: str) -> None:  # fmt: skip
    tid = _played(web)
    response = web.get(f"/tournaments/{tid}/export.{kind}")
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    trf = parse_trf(text)
    assert format_trf(trf, "\r\n") == text
    codes = {block.code.value for p in trf.players for block in p.rounds if block is not None}
    assert {"H", "+", "-", "="} <= codes  # the bye, the forfeit and a draw are in the file the checker reads
    file = tmp_path / f"{tid}.trf"
    file.write_bytes(response.content)
    result = CliRunner().invoke(app, ["tournament", "check", str(file)])
    assert result.exit_code == 0, result.output
    assert "3 of 3 rounds agree with the engine" in result.output


def test_every_override_travels_in_the_trf_as_comments_the_reader_and_checker_skip(web: TestClient,
                                                                                  tmp_path: Path) -> None:  # fmt: skip
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=6, name="Тараз кубогы")
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", late_entry_until="3")
    for number in (1, 2):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        if number == 2:
            post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 2\n3 4\n5 6", reason="TV", confirmed="yes")
        post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in (1, 2, 3):
            played = GameResult.WHITE_WINS if board != 3 else GameResult.WHITE_FORFEIT_WIN
            post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board), result=played.value,
                 confirmed="yes", reason="absent")  # fmt: skip
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=GameResult.DRAW.value,
         reason="the scoresheet", confirmed="yes")  # fmt: skip
    post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="6", after_round="2", reason="ill")
    post(web, f"/tournaments/{tid}/do/warn", csrf, number="3", round="2", reason="phone", penalty="-0.5")
    # The withdrawal rule set aside (TK-R10): a player who left is paired again.
    post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="5", after_round="2", reason="exam")
    post(web, f"/tournaments/{tid}/do/readmit", csrf, number="5", round="3", reason="exam moved", confirmed="yes")
    for name in ("Late", "Later"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name, rating="1500", confirmed="yes",
             reason="delayed train")  # fmt: skip
    # Round 3 has seven players: the arbiter gives the bye to another player than the engine did (a forced bye).
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    draft = call(web, lambda: tournaments(web).state(tid)).draft
    assert draft is not None and draft.bye is not None
    (white, black), *rest = draft.pairs
    pairs = "\n".join(f"{a} {b}" for a, b in ((draft.bye, black), *rest))
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs=pairs, bye=str(white), reason="travel")
    assert "Warning level: serious" in page or "I have checked the criteria" in page  # asked before anything
    post(web, f"/tournaments/{tid}/do/override", csrf, pairs=pairs, bye=str(white), reason="travel", confirmed="yes")
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    text = web.get(f"/tournaments/{tid}/export.trf").content.decode("utf-8")
    comments = [line for line in text.split("\r\n") if line.startswith("###")]
    changed = next(line for line in comments if line.startswith("### round 3: pairing changed"))
    assert re.fullmatch(r"### round 3: pairing changed(, breaks [C0-9, ]+)? \[serious\]: travel", changed), changed
    assert comments == [
        "### round 1 board 3: forfeit +- entered [warning]: absent",
        "### round 1 board 1: result corrected from 1-0 to 1/2-1/2 [serious]: the scoresheet",  # round 2 was paired
        "### round 2: pairing changed, breaks C6, C7, C12, C13, C14, C18 [warning]: TV",
        "### round 2 board 3: forfeit +- entered [warning]: absent",
        "### round 2: 3. P3 penalised, -0.5: phone",
        "### round 3: 6. P6 withdrawn after round 2 [info]: ill",
        "### round 3: 5. P5 withdrawn after round 2 [info]: exam",
        "### round 3: 5. P5 readmitted (withdrawal rule set aside) [serious]: exam moved",
        changed,
        f"### round 3: bye given to {white}. P{white} by the arbiter [serious]: travel",
        "### round 3: 7. Late late entry, paired from round 3 [warning]: delayed train",
        "### round 3: 8. Later late entry, paired from round 3 [warning]: delayed train",
    ], comments
    # Read back the same; the checker reads the same rounds with the comments as without them.
    assert format_trf(parse_trf(text), "\r\n") == text
    read = [line.text for line in parse_trf(text).lines if isinstance(line, RawLine) and line.code == "###"]
    assert read == comments  # the reader keeps every override, each naming its round
    bare = "\r\n".join(line for line in text.split("\r\n") if not line.startswith("###"))
    assert parse_trf(bare).players == parse_trf(text).players
    outputs = []
    for name, content in (("with.trf", text), ("without.trf", bare)):
        (tmp_path / name).write_text(content, encoding="utf-8")
        result = CliRunner().invoke(app, ["tournament", "check", str(tmp_path / name)])
        assert result.exit_code == 1  # round 2 was changed by hand: the checker says so, with or without comments
        outputs.append(result.output.replace(name, "FILE"))
    assert outputs[0] == outputs[1] and "C12" in outputs[0]
    # The printed report lists the same overrides (the late entry shows in the crosstable), in the page's language.
    for language, heading, action in (("en", "The arbiter's decisions overriding the system", "Pairing overridden"),
                                      ("kk", "Төрешінің жүйеден тыс шешімдері", None),
                                      ("ru", "Решения судьи в отступление от системы", None)):  # fmt: skip
        report = html.unescape(web.get(f"/tournaments/{tid}/standings?print=1&lang={language}").text)
        section = report.split('<section class="overrides">', 1)[1].split("</section>", 1)[0]
        assert heading in section and section.count("<li>") == 11, section  # with the two late entries
        assert (action in section) if action else ("Pairing overridden" not in section and "Withdrawn" not in section)
        assert "the scoresheet" in section and "phone" in section and "ill" in section


def test_the_override_comments_do_not_name_the_arbiters_login(web: TestClient) -> None:
    # The export is public; a login is half of what opens the arbiter's account (the audit page hides it too).
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/override", csrf, pairs="2 1\n3 4", reason="TV", confirmed="yes")
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=GameResult.WHITE_FORFEIT_WIN.value,
         confirmed="yes", reason="absent")  # fmt: skip
    web.post("/logout", data={"csrf": csrf})
    text = web.get(f"/tournaments/{tid}/export.trf").text
    comments = [line for line in text.splitlines() if line.startswith("###")]
    assert len(comments) == 2 and not any("Chief" in line for line in comments), comments
