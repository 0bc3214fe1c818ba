"""The Dutch engine against bbpPairings on the reference data: every round of every file, pairs and colours.

Each round N is paired from rounds 1..N-1 and the round-N absences (H, F, Z), as FIDE's free pairings checker
does; the top seed's round-1 colour is inferred from the file's own round 1, as bbpPairings' checker does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toreshi.tournament.dutch import inferred_initial_colour, pair_trf
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import TrfFile, parse_trf

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pairings" / "dutch-2025"
REFERENCE_FILES = sorted(p.name for p in REFERENCE.glob("*.trf")) if REFERENCE.is_dir() else []


def reference_round(trf: TrfFile, number: int) -> tuple[set[tuple[int, int]], int | None]:
    """The (white, black) boards and the pairing-allocated bye of round ``number`` as the file records them."""
    boards: set[tuple[int, int]] = set()
    bye = None
    for p in trf.players:
        block = p.round(number)
        if block is None:
            continue
        if block.code is ResultCode.PAIRING_BYE:
            bye = p.number
        elif block.opponent is not None and block.colour is Colour.WHITE:
            boards.add((p.number, block.opponent))
    return boards, bye


def disagreements(trf: TrfFile) -> list[str]:
    """One line per round where the engine differs from the file."""
    assert trf.rounds is not None
    initial = inferred_initial_colour(trf, trf.rounds + 1)
    found = []
    for number in range(1, trf.rounds + 1):
        expected, expected_bye = reference_round(trf, number)
        got = pair_trf(trf, number, initial_colour=initial)
        boards = {(b.white, b.black) for b in got.pairs}
        if boards != expected or got.bye != expected_bye:
            found.append(
                f"round {number}: only in the file {sorted(expected - boards)}, only ours {sorted(boards - expected)},"
                f" bye {expected_bye} vs {got.bye}"
            )
    return found


@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_every_round_matches_bbppairings(name: str, shared_data: Path) -> None:
    trf = parse_trf((shared_data / "pairings" / "dutch-2025" / name).read_bytes().decode("utf-8"))
    assert disagreements(trf) == []


def test_reference_data_is_complete(shared_data: Path) -> None:
    files = sorted((shared_data / "pairings" / "dutch-2025").glob("*.trf"))
    assert len(files) == 97
    assert sum(parse_trf(f.read_bytes().decode("utf-8")).rounds or 0 for f in files) == 739
