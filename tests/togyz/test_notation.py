from __future__ import annotations

import pytest

from toreshi.togyz import Position
from toreshi.togyz.notation import (
    InvalidTokenError,
    MoveToken,
    annotation_mismatch,
    format_token,
    parse_token,
)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("76", MoveToken(7, 6)),
        ("76(10)", MoveToken(7, 6, kazan=10)),
        ("91X", MoveToken(9, 1, tuzdyk=True)),
        ("91x", MoveToken(9, 1, tuzdyk=True)),
        ("36х", MoveToken(3, 6, tuzdyk=True)),  # Cyrillic х, as in Kazakh booklets
        ("36Х", MoveToken(3, 6, tuzdyk=True)),  # Cyrillic Х
        ("7", MoveToken(7)),  # one-digit score-sheet form
        (" 12(132) ", MoveToken(1, 2, kazan=132)),
    ],
)
def test_parse_accepts_every_documented_form(text: str, token: MoveToken) -> None:
    assert parse_token(text) == token


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("07", "hole played must be a digit 1-9, not '0'"),
        ("a7", "hole played must be a digit 1-9, not 'a'"),
        ("70", "landing hole must be a digit 1-9, not '0'"),
        ("76X(10)", "cannot stand together"),
        ("76(10", "no closing ')'"),
        ("76(1a)", "must be a number"),
        ("76(163)", "more than 162"),
        ("765", "at most two digits"),
        ("76?", "unexpected '?'"),
        ("7X", "need the landing digit"),
    ],
)
def test_parse_rejects_bad_tokens_precisely(text: str, reason: str) -> None:
    with pytest.raises(InvalidTokenError, match=reason.replace("(", r"\(").replace(")", r"\)")) as caught:
        parse_token(text)
    assert isinstance(caught.value, ValueError)
    assert caught.value.token == text


@pytest.mark.parametrize("text", ["76", "76(10)", "91X", "5", "99(22)"])
def test_format_inverts_parse(text: str) -> None:
    assert format_token(parse_token(text)) == text


def test_writer_uses_the_canonical_forms() -> None:
    pos = Position()
    assert format_token(pos.play(8)) == "87(10)"
    assert format_token(pos.play(8)) == "87(10)"
    assert format_token(pos.play(2)) == "22"
    assert format_token(MoveToken(3, 6, tuzdyk=True), form="sheet") == "3"


def test_mismatches_are_named() -> None:
    played = Position().play(1)  # 19: lands on White's own hole 9, captures nothing
    assert annotation_mismatch(parse_token("19"), played) is None
    assert annotation_mismatch(parse_token("1"), played) is None
    assert annotation_mismatch(parse_token("18"), played) == "the last kumalak lands in hole 9, not 8"
    assert annotation_mismatch(parse_token("19X"), played) == "'X' is written but the move creates no tuzdyk"
    assert "claims a capture" in (annotation_mismatch(parse_token("19(0)"), played) or "")


def test_a_hostile_token_is_shown_clipped_to_40_characters_in_the_message() -> None:
    token = "9" + "x" * 5_000
    with pytest.raises(InvalidTokenError) as caught:
        parse_token(token)
    message = str(caught.value)
    assert message.startswith(f"move token {token[:40] + '…'!r}: ")
    with pytest.raises(InvalidTokenError, match="move token '9x': "):
        parse_token("9x")


@pytest.mark.parametrize("token", ["9" + "x" * 5_000, "12(" + "x" * 5_000 + ")"])
def test_what_a_hostile_token_got_wrong_is_clipped_too(token: str) -> None:
    with pytest.raises(InvalidTokenError) as caught:
        parse_token(token)
    assert len(str(caught.value)) < 200 and caught.value.token == token
