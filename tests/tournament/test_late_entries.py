"""Late entries and re-entries in a Swiss, by the tournament's bye rules, paired by the Dutch engine.

The tournament below is worked by hand (boards WHITE-BLACK; "wants" = colour preference; strong = a colour
difference of one):

* Round 1, players 1–5: 1-3, 4-2, 5 the bye (S1 1 2, S2 3 4). 1 and 2 win.
* After round 1, player 6 enters late; the rules give a late entrant a half point (``H``) for each round
  missed. Player 3 withdraws.
* Round 2 (1, 2, 5 on 1 point; 6 on ½; 4 on 0): the bye goes to the lowest score, 4 (C5). In {1, 2, 5} one
  player floats down; 5's bye in round 1 was a downfloat (C.04.3 1.4.3), so 5 must not float again (C14):
  1-2 is out; 1-5 (S1 1 against the next of S2) floats 2. 1 wants Black, 5 has no colour yet: 5-1. Then
  2 (wants White) against 6: 2-6. All drawn.
* Player 3 re-enters for round 3 (allowed while late entries are); his round 2 is an absence (``Z``).
* Round 3 (1, 2, 5 on 1½; 4, 6 on 1; 3 on 0): {1, 2, 5}: 1-5 have met; 2-5 would leave one of them without
  Black (C12), 1-2 gives both their colours (1 wants White, 2 Black): 1-2, 5 floats (5's round-1 bye makes
  that a repeated downfloat two rounds on, C16, which ranks below C12). {5, 4, 6}: 5 wants Black, and so does
  4 (White in round 1, then the bye), 6 wants White: 6-5; 4 floats. {4, 3}: 4 wants Black, 3 White: 3-4.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from toreshi.tournament.dutch import pair_trf
from toreshi.tournament.model import (
    ByeRules,
    GameResult,
    Participant,
    ResultCode,
    RoundEntry,
    Tournament,
    TournamentError,
    TournamentSystem,
)
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound

RULES = ByeRules(late_entry_until_round=3, late_entry_missed_round=ResultCode.HALF_BYE)


def next_round_file(t: Tournament) -> TrfFile:
    """The TRF the next round is paired from: the rounds so far, and Z/H for those not to be paired."""
    number = len(t.rounds) + 1
    record = t.record()
    to_pair = set(t.players_to_pair(number))
    requested = {b.player: b.code for b in t.bye_requests if b.round == number}
    lines: list[PlayerRecord | RawLine] = [RawLine(f"XXR {t.rounds_planned}"), RawLine("XXC white1")]
    for p in t.participants:
        blocks: list[TrfRound | None] = []
        for rnd in range(1, number):
            e = record.entries[p.number][rnd]
            blocks.append(TrfRound(e.opponent, e.colour if e.code.has_opponent else None, e.code))
        if p.number not in to_pair:
            blocks.append(TrfRound(None, None, requested.get(p.number, ResultCode.ZERO_BYE)))
        lines.append(PlayerRecord(p.number, p.name, rating=p.rating, rounds=tuple(blocks)))
    return TrfFile(tuple(lines))


def pair_next(t: Tournament) -> tuple[Tournament, list[str]]:
    pairing = pair_trf(next_round_file(t), len(t.rounds) + 1)
    return t.add_round([(b.white, b.black) for b in pairing.pairs], pairing_bye=pairing.bye), pairing.bbp_lines()


def start() -> Tournament:
    t = Tournament(name="Open", system=TournamentSystem.SWISS, rounds_planned=6, bye_rules=RULES)
    for n in range(1, 6):
        t = t.with_participant(Participant(n, f"P{n}", 2500 - 100 * n))
    return t


def test_a_late_entry_and_a_re_entry_are_paired_by_the_rules() -> None:
    t, lines = pair_next(start())
    assert lines == ["3", "1 3", "4 2", "5 0"]
    t = t.record_result(1, 1, GameResult.WHITE_WINS).record_result(1, 2, GameResult.BLACK_WINS)
    t = t.with_participant(Participant(6, "Late", 2450)).withdraw(3, after_round=1)
    assert t.players_to_pair(2) == [1, 2, 4, 5, 6]
    t, lines = pair_next(t)
    assert lines == ["3", "5 1", "2 6", "4 0"]
    for board in (1, 2):
        t = t.record_result(2, board, GameResult.DRAW)
    t = t.readmit(3, 3)
    assert t.players_to_pair(3) == [1, 2, 3, 4, 5, 6]
    record = t.record()
    assert record.entries[6][1] == RoundEntry(1, ResultCode.HALF_BYE)  # the late entrant's missed round
    assert record.entries[3][2] == RoundEntry(2, ResultCode.ZERO_BYE)  # the re-entrant's absence
    assert {n: record.points(n) for n in range(1, 7)} == {
        1: Fraction(3, 2), 2: Fraction(3, 2), 3: 0, 4: 1, 5: Fraction(3, 2), 6: 1,
    }  # fmt: skip
    t, lines = pair_next(t)
    assert lines == ["3", "1 2", "6 5", "3 4"]


def test_who_may_come_back() -> None:
    t, _ = pair_next(start())
    t = t.record_result(1, 1, GameResult.WHITE_WINS).record_result(1, 2, GameResult.BLACK_WINS)
    with pytest.raises(TournamentError, match="not_left"):
        t.readmit(3, 2)
    gone = t.withdraw(3, after_round=1)
    with pytest.raises(TournamentError, match="round_not_to_be_paired"):
        gone.readmit(3, 1)
    with pytest.raises(TournamentError, match="reentry_closed \\(round=4\\)"):
        gone.readmit(3, 4)  # entries close with round 3 (ByeRules.late_entry_until_round)
    with pytest.raises(TournamentError, match="expelled_cannot_reenter"):
        t.expel(3, after_round=1).readmit(3, 2)
    no_entries = Tournament(name="Closed", system=TournamentSystem.SWISS, rounds_planned=3)
    no_entries = no_entries.with_participant(Participant(1, "A")).with_participant(Participant(2, "B"))
    with pytest.raises(TournamentError, match="reentry_closed"):
        no_entries.withdraw(2, after_round=0).readmit(2, 1)


def test_a_re_entered_player_may_leave_again() -> None:
    t, _ = pair_next(start())
    t = t.record_result(1, 1, GameResult.WHITE_WINS).record_result(1, 2, GameResult.BLACK_WINS)
    t = t.withdraw(3, after_round=1).readmit(3, 3)
    assert 3 not in t.players_to_pair(2) and 3 in t.players_to_pair(3) and 3 in t.players_to_pair(5)
    with pytest.raises(TournamentError, match=r"back_only_from_round .*round=3"):
        t.withdraw(3, after_round=0)
    again = t.withdraw(3, after_round=2)  # changed their mind before round 3: away for good
    assert 3 not in again.players_to_pair(3)
    with pytest.raises(TournamentError, match="already_left"):
        again.withdraw(3, after_round=2)
