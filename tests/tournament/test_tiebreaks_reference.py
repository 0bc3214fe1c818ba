"""Tie-breaks against FIDE's TieBreakServer: every value of every player of the 97 reference tournaments, under
both versions of C.07 (``../shared/data/tiebreaks/c07-2024`` and ``c07-2026``, see its README).

Each file lists the players in TieBreakServer's final order with PTS, BH, BH/C1, BH/M1, SB, ARO, WIN, PS, KS and
DE, the tie-breaks in that order. We rank each tournament with the same order and compare every number and the
order itself.

Two facts of how the data was made, read from TieBreakServer's code and confirmed by running it:

* it was run without ``-s``/``-p``, so TieBreakServer guessed the kind of tournament: its type test looks for
  ``SWISS``, ``RR``, ``ROBIN`` or ``BERGER`` and does not know ``FIDE_DUTCH_2025``, so a file is a round robin
  when its player count fits its round count (players = rounds or rounds + 1, or twice that for two cycles) —
  five files here (``t004``, ``t005``, ``t008``, ``t067``, ``t074``) — and a Swiss otherwise;
* its DE value is a rank inside the group still tied when DE is reached (0 for a player alone, or for a group
  DE cannot split); DE comes last here, and no two players of these files are still tied by then, so every DE
  value is 0 — we check that our standings needed DE for nobody either.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from toreshi.tournament.standings import Standings, compute_standings, record_from_trf
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.trf import TrfFile, parse_trf

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
ORDER = ("BH", "BH/C1", "BH/M1", "SB", "ARO", "WIN", "PS", "KS", "DE")
FOLDERS = {TieBreakRules.C07_2024: "c07-2024", TieBreakRules.C07_2026: "c07-2026"}
NAMES = sorted(p.stem for p in (DATA / "tiebreaks" / "c07-2026").glob("*.tsv")) if DATA.is_dir() else []


def tiebreakserver_round_robin(trf: TrfFile) -> bool:
    """TieBreakServer's guess for a file whose type it does not know (see the module docstring)."""
    players, rounds = len(trf.players), trf.rounds or 0
    return players in (rounds, rounds + 1) or 2 * players in (rounds, rounds + 1)


def expected_rows(rules: TieBreakRules, name: str) -> list[dict[str, str]]:
    lines = (DATA / "tiebreaks" / FOLDERS[rules] / f"{name}.tsv").read_text().splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]


def our_standings(rules: TieBreakRules, name: str) -> Standings:
    trf = parse_trf((DATA / "pairings" / "dutch-2025" / f"{name}.trf").read_bytes().decode("utf-8"))
    record = record_from_trf(trf, round_robin=tiebreakserver_round_robin(trf))
    return compute_standings(record, ORDER, rules)


def differences(rules: TieBreakRules, name: str) -> Iterator[str]:
    standings = our_standings(rules, name)
    assert standings.rules is rules
    expected = expected_rows(rules, name)
    order = [int(row["StartNo"]) for row in expected]
    if standings.order() != order:
        yield f"order: TieBreakServer {order}, ours {standings.order()}"
    for row in expected:
        ours = standings.row(int(row["StartNo"]))
        if ours.points != Fraction(row["PTS"]):
            yield f"player {row['StartNo']} PTS: {row['PTS']} vs {ours.points}"
        for code, value in zip(ORDER, ours.values, strict=True):
            if code == "DE":
                # No tie reached DE in our standings either: its value was never needed (None), TieBreakServer's 0.
                value = Fraction(0) if value is None else value
            if value != Fraction(row[code]):
                yield f"player {row['StartNo']} {code}: TieBreakServer {row[code]}, ours {value}"


@pytest.mark.parametrize("rules", list(FOLDERS), ids=[r.value for r in FOLDERS])
@pytest.mark.parametrize("name", NAMES)
def test_every_value_matches_tiebreakserver(shared_data: Path, rules: TieBreakRules, name: str) -> None:
    assert list(differences(rules, name)) == []


@pytest.mark.parametrize("rules", list(FOLDERS), ids=[r.value for r in FOLDERS])
def test_the_reference_data_is_complete(shared_data: Path, rules: TieBreakRules) -> None:
    # 97 tournaments, 4,594 players, 9 values each: 41,346 numbers per rule version.
    files = sorted((shared_data / "tiebreaks" / FOLDERS[rules]).glob("*.tsv"))
    assert [f.stem for f in files] == NAMES and len(files) == 97
    assert sum(len(expected_rows(rules, f.stem)) for f in files) == 4594


def test_the_two_versions_differ_where_the_cap_bites(shared_data: Path) -> None:
    # The 2026 cap changes only BH, BH/C1, BH/M1 and SB (350, 244, 240 and 251 values of 4,594), in Swiss files
    # with byes and forfeits. Our two versions must differ from each other exactly where the two folders do.
    changed = dict.fromkeys(ORDER[:4], 0)
    for name in NAMES:
        old = {row["StartNo"]: row for row in expected_rows(TieBreakRules.C07_2024, name)}
        new = {row["StartNo"]: row for row in expected_rows(TieBreakRules.C07_2026, name)}
        ours_old = our_standings(TieBreakRules.C07_2024, name)
        ours_new = our_standings(TieBreakRules.C07_2026, name)
        for number, row in old.items():
            player = int(number)
            for index, code in enumerate(ORDER):
                theirs_differ = Fraction(row[code]) != Fraction(new[number][code])
                ours_differ = ours_old.row(player).values[index] != ours_new.row(player).values[index]
                assert theirs_differ == ours_differ, (name, player, code)
                if theirs_differ:
                    changed[code] += 1
    assert changed == {"BH": 350, "BH/C1": 244, "BH/M1": 240, "SB": 251}
