"""TRF16 / TRF-2026 reading and writing: columns, codes, line ends, round trips on the reference data."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import (
    PlayerRecord,
    RawLine,
    TrfError,
    TrfFile,
    TrfRound,
    format_trf,
    parse_trf,
    player_line,
)

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pairings" / "dutch-2025"
REFERENCE_FILES = sorted(p.name for p in REFERENCE.glob("*.trf")) if REFERENCE.is_dir() else []

# The constructed example of shared/docs/tournaments.md §4.3, checked there column by column.
EXAMPLE = (
    "001    3 m    Abenov, Nurlan                    1850 KAZ             1990/05/17  2.5    2"
    "     7 w 1    12 b =  0000 - U     5 w -"
)


def test_player_line_columns() -> None:
    p = parse_trf(EXAMPLE).players[0]
    assert (p.number, p.sex, p.name, p.rating, p.federation) == (3, "m", "Abenov, Nurlan", 1850, "KAZ")
    assert (p.birth_date, p.points, p.rank) == ("1990/05/17", Fraction(5, 2), 2)
    assert p.rounds == (
        TrfRound(7, Colour.WHITE, ResultCode.WIN),
        TrfRound(12, Colour.BLACK, ResultCode.DRAW),
        TrfRound(None, None, ResultCode.PAIRING_BYE),
        TrfRound(5, Colour.WHITE, ResultCode.FORFEIT_LOSS),
    )
    assert player_line(p) == EXAMPLE
    assert EXAMPLE[91:99] == "   7 w 1"  # round 1 at columns 92-99


@pytest.mark.parametrize("line_end", ["\r", "\n", "\r\n"])
def test_every_line_end_reads_the_same(line_end: str) -> None:
    text = line_end.join(["012 Cup", "XXR 5", EXAMPLE, "", "092 FIDE_DUTCH_2025"]) + line_end
    trf = parse_trf(text)
    assert trf.name == "Cup"
    assert trf.rounds == 5
    assert trf.system == "FIDE_DUTCH_2025"
    assert [p.number for p in trf.players] == [3]
    assert format_trf(trf, line_end) == text


def test_mixed_line_ends() -> None:
    trf = parse_trf("012 A\r\nXXR 3\n" + EXAMPLE + "\r")
    assert (trf.name, trf.rounds, len(trf.players)) == ("A", 3, 1)


@pytest.mark.parametrize(
    ("record", "colour"),
    [
        ("XXC white1", Colour.WHITE),
        ("XXC black1", Colour.BLACK),
        ("XXC rank black1", Colour.BLACK),
        ("152 W", Colour.WHITE),
        ("152 B", Colour.BLACK),
    ],
)
def test_initial_colour(record: str, colour: Colour) -> None:
    assert parse_trf(f"012 A\n{record}\n").initial_colour is colour


def test_no_initial_colour_and_tournament_type_from_192() -> None:
    trf = parse_trf("012 A\n142 9\n192 FIDE_DUTCH_2025_BAKU\n092 something else\n")
    assert trf.initial_colour is None
    assert trf.rounds == 9
    assert trf.system == "FIDE_DUTCH_2025_BAKU"


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("   7 x 1", "colour"),
        ("   7 w Q", "unknown result code"),
        ("   7 - 1", "needs a colour"),
        ("   7 w H", "cannot have an opponent"),
        ("0000 - 1", "needs an opponent"),
        ("   3 w 1", "own opponent"),
        ("  x7 w 1", "not a pairing number"),
    ],
)
def test_bad_round_blocks_are_rejected(block: str, message: str) -> None:
    line = EXAMPLE[:91] + block
    with pytest.raises(TrfError, match=message):
        parse_trf("012 A\n" + line + "\n")


def test_bad_player_fields_are_rejected() -> None:
    with pytest.raises(TrfError, match="line 1: pairing number"):
        parse_trf("001    0      Nobody")
    with pytest.raises(TrfError, match="points"):
        parse_trf(EXAMPLE[:80] + "2,5x" + EXAMPLE[84:])
    with pytest.raises(TrfError, match="appears twice"):
        parse_trf(EXAMPLE + "\n" + EXAMPLE)
    with pytest.raises(TrfError, match="number of rounds"):
        _ = parse_trf("XXR many\n").rounds
    with pytest.raises(TrfError, match="152"):
        _ = parse_trf("152 X\n").initial_colour
    with pytest.raises(TrfError, match="line end"):
        format_trf(TrfFile(()), "\t")


def test_blank_block_is_kept_and_trailing_blanks_dropped() -> None:
    line = EXAMPLE[:91] + "   7 w 1" + " " * 10 + "  0000 - Z" + "    "
    p = parse_trf(line).players[0]
    assert p.rounds[1] is None
    assert p.round(3) == TrfRound(None, None, ResultCode.ZERO_BYE)
    assert p.round(4) is None
    assert parse_trf(player_line(p)).players[0] == p


def test_truncated_recomputes_points_and_consistency_is_checked() -> None:
    a = PlayerRecord(1, "A", points=Fraction(1), rounds=(TrfRound(2, Colour.WHITE, ResultCode.WIN),))
    b = PlayerRecord(2, "B", points=Fraction(0), rounds=(TrfRound(1, Colour.BLACK, ResultCode.LOSS),))
    trf = TrfFile((RawLine("XXR 2"), a, b))
    trf.check_consistency()
    assert [p.points for p in trf.truncated(0).players] == [0, 0]
    with pytest.raises(TrfError, match="points column"):
        trf.with_players([PlayerRecord(2, "B", points=Fraction(1), rounds=b.rounds)]).check_consistency()
    lonely = PlayerRecord(1, "A", points=Fraction(1), rounds=(TrfRound(3, Colour.WHITE, ResultCode.WIN),))
    with pytest.raises(TrfError, match="does not list them"):
        TrfFile((lonely, b)).check_consistency()


_CODES_WITH_OPPONENT = [
    ResultCode.WIN,
    ResultCode.DRAW,
    ResultCode.LOSS,
    ResultCode.FORFEIT_WIN,
    ResultCode.FORFEIT_LOSS,
    ResultCode.UNRATED_WIN,
]
_BYES = [ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.PAIRING_BYE, ResultCode.ZERO_BYE]

round_blocks = st.one_of(
    st.builds(TrfRound, st.integers(1, 9999), st.sampled_from(list(Colour)), st.sampled_from(_CODES_WITH_OPPONENT)),
    st.builds(TrfRound, st.none(), st.none(), st.sampled_from(_BYES)),
    st.none(),
)
names = st.text(
    st.characters(min_codepoint=65, max_codepoint=1200, blacklist_categories=("Cs", "Zl", "Zp")), max_size=33
).map(str.strip)


@given(
    number=st.integers(1, 9999),
    name=names,
    rating=st.none() | st.integers(0, 9999),
    tenths=st.integers(0, 999),
    rank=st.none() | st.integers(1, 9999),
    rounds=st.lists(round_blocks, max_size=12),
)
def test_player_records_round_trip(
    number: int, name: str, rating: int | None, tenths: int, rank: int | None, rounds: list[TrfRound | None]
) -> None:
    kept = [r for r in rounds if r is None or r.opponent != number]
    while kept and kept[-1] is None:
        kept.pop()
    blocks = tuple(kept)
    record = PlayerRecord(number, name, rating=rating, points=Fraction(tenths, 10), rank=rank, rounds=blocks)
    for line_end in ("\r", "\n", "\r\n"):
        assert parse_trf(format_trf(TrfFile((record,)), line_end)).players == (record,)


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_reference_files_round_trip(name: str, shared_data: Path) -> None:
    text = (shared_data / "pairings" / "dutch-2025" / name).read_bytes().decode("utf-8")
    trf = parse_trf(text)
    trf.check_consistency()
    assert trf.rounds is not None
    assert trf.played_rounds == trf.rounds
    assert format_trf(trf) == text


def test_every_reference_file_round_trips_through_trf2026(shared_data: Path) -> None:
    """TRF16 → TRF-2026 → TRF16 keeps every player record, the rounds and the first colour; the TRF-2026 text
    reads back to the same tournament."""
    from toreshi.tournament.trf import to_trf16, to_trf2026

    files = sorted((shared_data / "pairings" / "dutch-2025").glob("*.trf"))
    assert len(files) == 97
    for path in files:
        original = parse_trf(path.read_text(encoding="utf-8"))
        modern = parse_trf(format_trf(to_trf2026(original)))
        assert modern.players == original.players, path.name
        assert (modern.rounds, modern.initial_colour, modern.system) == (
            original.rounds,
            original.initial_colour,
            original.system,
        ), path.name
        assert not any(line.code in ("XXR",) for line in modern.lines if isinstance(line, RawLine))
        assert format_trf(to_trf16(modern)).replace("192 FIDE_DUTCH_2025\r", "") == format_trf(original), path.name
