"""The tournament model: entries, rounds, results, byes, withdrawals and expulsions (TK-R2, TK-R4, TK-R10)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.model import (
    Bye,
    ByeRules,
    Colour,
    Departure,
    GameResult,
    Participant,
    Record,
    RecordError,
    ResultCode,
    RoundEntry,
    Scoring,
    Team,
    Tournament,
    TournamentError,
    TournamentSystem,
    WithdrawalRules,
    build_record,
    format_points,
)

from .builders import play_round
from .refusals import refused

Code = TournamentCode

F = Fraction
NOON = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

# FIDE Berger table for 4 players (tournaments.md §3): R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1.
BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def swiss(players: int = 5, rounds: int = 3, **settings: object) -> Tournament:
    t = Tournament(name="Open", system=TournamentSystem.SWISS, rounds_planned=rounds, **settings)  # type: ignore[arg-type]
    for n in range(1, players + 1):
        t = t.with_participant(Participant(n, f"Player {n}", 2000 - 10 * n))
    return t


def round_robin(**settings: object) -> Tournament:
    t = Tournament(name="Club RR", system=TournamentSystem.ROUND_ROBIN, rounds_planned=3, **settings)  # type: ignore[arg-type]
    for n in range(1, 5):
        t = t.with_participant(Participant(n, f"Player {n}"))
    return t


def points(t: Tournament) -> dict[int, Fraction]:
    record = t.record()
    return {n: record.points(n) for n in record.participants}


def test_scoring_defaults_follow_tk_r2_and_tk_r4() -> None:
    scoring = Scoring()
    assert scoring.points(ResultCode.WIN) == 1
    assert scoring.points(ResultCode.DRAW) == F(1, 2)
    assert scoring.points(ResultCode.LOSS) == 0
    assert scoring.points(ResultCode.FORFEIT_WIN) == 1  # TK-R4: (+) is worth 1 point
    assert scoring.points(ResultCode.FORFEIT_LOSS) == 0
    assert scoring.points(ResultCode.HALF_BYE) == F(1, 2)
    assert scoring.points(ResultCode.ZERO_BYE) == 0
    assert scoring.points(ResultCode.PAIRING_BYE) == 1


def test_forfeit_results_give_plus_and_minus() -> None:
    assert GameResult.WHITE_FORFEIT_WIN.codes == (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)
    assert GameResult.BLACK_FORFEIT_WIN.codes == (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN)
    assert GameResult.DOUBLE_FORFEIT.codes == (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS)
    assert not GameResult.DOUBLE_FORFEIT.played
    assert not ResultCode.FORFEIT_WIN.played and ResultCode.FORFEIT_WIN.has_opponent


def test_swiss_round_with_pairing_bye_and_requested_half_point_bye() -> None:
    t = swiss().request_bye(5, 1, ResultCode.HALF_BYE)
    assert t.players_to_pair(1) == [1, 2, 3, 4]
    with refused(Code.NOT_PAIRED, round=1, players="4. Player 4") as caught:
        t.add_round([(1, 2)], pairing_bye=3)
    assert isinstance(caught.value, TournamentError)
    t = swiss(players=6).request_bye(6, 1)
    t = t.add_round([(1, 2), (3, 4)], pairing_bye=5, paired_at=NOON)
    assert t.round(1).byes == (Bye(5, ResultCode.PAIRING_BYE), Bye(6, ResultCode.HALF_BYE))
    t = t.record_result(1, 1, GameResult.WHITE_WINS, kazans=(95, 40))
    t = t.record_result(1, 2, GameResult.WHITE_FORFEIT_WIN)
    assert points(t) == {1: 1, 2: 0, 3: 1, 4: 0, 5: 1, 6: F(1, 2)}
    record = t.record()
    assert record.entries[1][1] == RoundEntry(1, ResultCode.WIN, 2, Colour.WHITE, 95)
    assert record.entries[4][1] == RoundEntry(1, ResultCode.FORFEIT_LOSS, 3, Colour.BLACK)
    assert record.entries[5][1] == RoundEntry(1, ResultCode.PAIRING_BYE)


def test_next_swiss_round_waits_for_every_result() -> None:
    t = swiss(players=4).add_round([(1, 2), (3, 4)])
    t = t.record_result(1, 1, GameResult.DRAW)
    with refused(Code.ROUND_INCOMPLETE, round=1):
        t.add_round([(1, 3), (2, 4)])


def test_pairing_errors_name_the_players() -> None:
    t = swiss(players=4)
    with refused(Code.PAIRED_TWICE, round=1, players="1. Player 1"):
        t.add_round([(1, 2), (1, 3)], pairing_bye=4)
    with refused(Code.UNKNOWN_PLAYER, number=9):
        t.add_round([(1, 2), (3, 9)])
    with refused(Code.ROUND_NOT_PAIRED, round=1, paired=0):
        t.record_result(1, 1, GameResult.DRAW)
    t = t.add_round([(1, 2), (3, 4)])
    with refused(Code.NO_BOARD, round=1, board=7):
        t.record_result(1, 7, GameResult.DRAW)
    with refused(Code.FORFEIT_HAS_NO_KAZANS, round=1, board=1):
        t.record_result(1, 1, GameResult.WHITE_FORFEIT_WIN, kazans=(0, 0))
    with refused(Code.IMPOSSIBLE_KAZANS, round=1, board=1, white=120, black=60):
        t.record_result(1, 1, GameResult.WHITE_WINS, kazans=(120, 60))
    with pytest.raises(ValueError, match="aware"):  # a naive time is a programming error, not a refusal
        t.record_result(1, 1, GameResult.WHITE_WINS, ended_at=datetime(2026, 5, 1, 12, 0))


def test_participants_and_teams_are_checked() -> None:
    with refused(Code.PAIRING_NUMBER_INVALID, number=0):
        Participant(0, "Nobody")
    with refused(Code.NAME_EMPTY, number=3):
        Participant(3, "  ")
    t = swiss(players=2)
    with refused(Code.NUMBER_TAKEN, number=2):
        t.with_participant(Participant(2, "Again"))
    t = t.with_team(Team("Astana", representatives=("Serik",), coaches=("Aigul",)))
    with refused(Code.PLAYER_TEAM_UNKNOWN, player="C", team="Almaty"):
        t.with_participant(Participant(3, "C", team="Almaty"))
    assert t.protest_filers() == {"Serik", "Aigul"}
    with refused(Code.TEAM_EXISTS, team="Astana"):
        t.with_team(Team("Astana"))


def test_bye_requests_follow_the_bye_rules() -> None:
    t = swiss(bye_rules=ByeRules(max_half_point_byes=1, last_round_for_half_point_bye=2))
    t = t.request_bye(1, 1)
    with refused(Code.HALF_BYES_USED, player="1. Player 1", count=1):
        t.request_bye(1, 2)
    with refused(Code.HALF_BYE_TOO_LATE, round=2):
        t.request_bye(2, 3)
    with refused(Code.BYE_TAKEN, player="1. Player 1", round=1):
        t.request_bye(1, 1, ResultCode.ZERO_BYE)
    with refused(Code.BYE_NOT_REQUESTABLE, code="F"):
        t.request_bye(3, 1, ResultCode.FULL_BYE)
    assert t.request_bye(2, 3, ResultCode.ZERO_BYE).bye_requests[-1].code is ResultCode.ZERO_BYE
    with refused(Code.BYES_SWISS_ONLY):
        round_robin().request_bye(1, 1)


def test_late_entry_gets_the_configured_result_for_missed_rounds() -> None:
    t = swiss(players=4, bye_rules=ByeRules(late_entry_until_round=2, late_entry_missed_round=ResultCode.HALF_BYE))
    with refused(Code.ROUND_ROBIN_CLOSED):
        round_robin().add_round(BERGER_4[0]).with_participant(Participant(9, "Late"))
    t = t.add_round([(1, 2), (3, 4)])
    t = t.record_result(1, 1, GameResult.DRAW).record_result(1, 2, GameResult.DRAW)
    t = t.with_participant(Participant(5, "Late"))
    assert t.entered_round[5] == 2
    assert t.players_to_pair(2) == [1, 2, 3, 4, 5]
    assert t.record().entries[5][1] == RoundEntry(1, ResultCode.HALF_BYE)
    t = t.add_round([(1, 3), (2, 4)], pairing_bye=5)
    t = t.record_result(2, 1, GameResult.DRAW).record_result(2, 2, GameResult.DRAW)
    with refused(Code.LATE_ENTRY_CLOSED, round=3, until=2):
        t.with_participant(Participant(6, "Too late"))
    no_late = swiss(players=2).add_round([(1, 2)])
    with refused(Code.LATE_ENTRIES_OFF, round=2):
        no_late.with_participant(Participant(3, "C"))


def test_swiss_withdrawal_keeps_results_and_stops_pairing() -> None:
    # TK-R10 (2): results stand; the player is not paired again and later rounds are absences (Z).
    t = swiss(players=4).add_round([(1, 2), (3, 4)])
    t = t.record_result(1, 1, GameResult.BLACK_WINS).record_result(1, 2, GameResult.DRAW)
    with refused(Code.SWISS_LEAVES_AFTER_PAIRED_ROUND, round=1):
        swiss(players=4).add_round([(1, 2), (3, 4)]).withdraw(2, after_round=0)
    t = t.withdraw(2, after_round=1, reason="illness")
    assert t.leaving(2) is not None and t.leaving(2).kind is Departure.WITHDRAWN  # type: ignore[union-attr]
    assert t.players_to_pair(2) == [1, 3, 4]
    t = t.add_round([(3, 1)], pairing_bye=4)
    t = t.record_result(2, 1, GameResult.WHITE_WINS)
    record = t.record()
    assert record.entries[2][2] == RoundEntry(2, ResultCode.ZERO_BYE)
    assert points(t) == {1: 0, 2: 1, 3: F(3, 2), 4: F(3, 2)}
    after_one = t.record(up_to_round=1)
    assert after_one.rounds == 1 and after_one.points(3) == F(1, 2)
    with refused(Code.ALREADY_LEFT, player="2. Player 2"):
        t.expel(2, after_round=2)


def test_three_forfeit_losses_expel_the_player() -> None:
    # Player 1 does not come in rounds 1–3: − + as White, + − as Black.
    t = swiss(players=4, rounds=5)
    schedule = [
        ([(1, 2), (3, 4)], [GameResult.BLACK_FORFEIT_WIN, GameResult.DRAW]),
        ([(4, 1), (2, 3)], [GameResult.WHITE_FORFEIT_WIN, GameResult.DRAW]),
        ([(1, 3), (4, 2)], [GameResult.BLACK_FORFEIT_WIN, GameResult.DRAW]),
    ]
    for rnd, (pairs, results) in enumerate(schedule, start=1):
        t = play_round(t, pairs, results)
        assert (t.leaving(1) is None) == (rnd < 3)
    leaving = t.leaving(1)
    assert leaving is not None and leaving.kind is Departure.EXPELLED and leaving.after_round == 3
    assert leaving.forfeit_losses == 3 and leaving.reason == ""  # the page says why, in its language
    assert 1 not in t.players_to_pair(4)
    # The setting can switch the rule off.
    lenient = swiss(players=2, rounds=5, withdrawal_rules=WithdrawalRules(expel_after_forfeit_losses=None))
    for rnd in range(1, 4):
        lenient = lenient.add_round([(1, 2)]).record_result(rnd, 1, GameResult.BLACK_FORFEIT_WIN)
    assert lenient.leaving(1) is None


def play_round_robin_round(t: Tournament, rnd: int, results: Sequence[GameResult | None]) -> Tournament:
    return play_round(t, BERGER_4[rnd - 1], results)


def test_round_robin_withdrawal_before_half_annuls_the_results() -> None:
    # TK-R10 (1): player 4 played 1 of 3 games (< ½): the results stay in the record but no points by or
    # against player 4 count. R1: 1–4 1-0, 2–3 ½-½.
    t = play_round_robin_round(round_robin(), 1, [GameResult.WHITE_WINS, GameResult.DRAW])
    t = t.withdraw(4, after_round=1)
    t = play_round_robin_round(t, 2, [None, GameResult.DRAW])  # 4–3 not played, 1–2 ½-½
    t = play_round_robin_round(t, 3, [None, GameResult.BLACK_WINS])  # 2–4 not played, 3–1 0-1
    record = t.record()
    assert record.excluded == {4}
    assert record.ranked_players() == [1, 2, 3]
    # 1: win over 4 annulled, ½ with 2, win over 3 → 1½. 2: ½ + ½ → 1. 3: ½ + 0 → ½.
    assert {n: record.points(n) for n in (1, 2, 3)} == {1: F(3, 2), 2: 1, 3: F(1, 2)}
    # Player 4's own line keeps the game for the crosstable and the rating.
    assert record.entries[4][1].code is ResultCode.LOSS


def test_round_robin_withdrawal_after_half_forfeits_the_remaining_games() -> None:
    # Player 4 played 2 of 3 games (≥ ½): results count, the last game is − for 4 and + for 2.
    t = play_round_robin_round(round_robin(), 1, [GameResult.WHITE_WINS, GameResult.DRAW])
    t = play_round_robin_round(t, 2, [GameResult.WHITE_WINS, GameResult.DRAW])  # 4 beats 3
    t = t.withdraw(4, after_round=2)
    t = play_round_robin_round(t, 3, [None, GameResult.WHITE_WINS])  # 2–4 forfeited, 3 beats 1
    record = t.record()
    assert record.excluded == frozenset()
    assert record.entries[4][3] == RoundEntry(3, ResultCode.FORFEIT_LOSS, 2, Colour.BLACK)
    assert record.entries[2][3] == RoundEntry(3, ResultCode.FORFEIT_WIN, 4, Colour.WHITE)
    assert {n: record.points(n) for n in record.participants} == {1: F(3, 2), 2: 2, 3: F(3, 2), 4: 1}


def test_round_robin_annulment_is_a_setting() -> None:
    rules = WithdrawalRules(annul_below_min_share=False)
    t = play_round_robin_round(round_robin(withdrawal_rules=rules), 1, [GameResult.WHITE_WINS, GameResult.DRAW])
    t = t.withdraw(4, after_round=1)
    t = play_round_robin_round(t, 2, [None, GameResult.DRAW])
    record = t.record()
    assert record.excluded == frozenset()
    assert record.entries[3][2].code is ResultCode.FORFEIT_WIN
    assert record.points(4) == 0


def test_record_rejects_contradictions() -> None:
    people = [Participant(1, "A"), Participant(2, "B")]
    with pytest.raises(RecordError, match="who scored '1'"):
        build_record(
            people,
            1,
            {1: [RoundEntry(1, ResultCode.WIN, 2, Colour.WHITE)], 2: [RoundEntry(1, ResultCode.WIN, 1, Colour.BLACK)]},
        )
    with pytest.raises(RecordError, match="not the other way round"):
        build_record(people, 1, {1: [RoundEntry(1, ResultCode.WIN, 2, Colour.WHITE)]})
    with pytest.raises(RecordError, match=r"outside 1\.\.1"):
        build_record(people, 1, {1: [RoundEntry(2, ResultCode.ZERO_BYE)]})
    with pytest.raises(RecordError, match="unknown player 7"):
        build_record(people, 1, {7: [RoundEntry(1, ResultCode.ZERO_BYE)]})
    with pytest.raises(RecordError, match="needs an opponent"):
        RoundEntry(1, ResultCode.FORFEIT_WIN)
    with pytest.raises(RecordError, match="cannot have an opponent"):
        RoundEntry(1, ResultCode.HALF_BYE, 2)
    # A double forfeit is "-" on both sides.
    double = build_record(
        people,
        1,
        {
            1: [RoundEntry(1, ResultCode.FORFEIT_LOSS, 2, Colour.WHITE)],
            2: [RoundEntry(1, ResultCode.FORFEIT_LOSS, 1, Colour.BLACK)],
        },
    )
    assert double.points(1) == double.points(2) == 0


def test_tournament_settings_are_validated() -> None:
    with refused(Code.NO_ROUNDS):
        Tournament(name="x", system=TournamentSystem.SWISS, rounds_planned=0)
    with refused(Code.ENDS_BEFORE_START, start="2026-05-02", end="2026-05-01"):
        Tournament(
            name="x",
            system=TournamentSystem.SWISS,
            rounds_planned=1,
            start=datetime(2026, 5, 2).date(),
            end=datetime(2026, 5, 1).date(),
        )
    with pytest.raises(ValueError, match="not a bye code"):  # only a programming error makes one
        Bye(1, ResultCode.WIN)


def test_format_points() -> None:
    assert [format_points(F(n, 2)) for n in range(4)] == ["0", "0.5", "1", "1.5"]


@given(st.lists(st.sampled_from(list(GameResult)), min_size=6, max_size=6))
def test_points_add_up_game_by_game(results: list[GameResult]) -> None:
    # Whatever the results of a complete 4-player round robin, the record's totals are the sum of what
    # each game gives both sides under the scoring.
    t = round_robin(withdrawal_rules=WithdrawalRules(expel_after_forfeit_losses=None))
    for rnd in (1, 2, 3):
        t = play_round_robin_round(t, rnd, results[2 * (rnd - 1) : 2 * rnd])
    record: Record = t.record()
    expected = sum((sum(map(Scoring().points, r.codes), F(0)) for r in results), F(0))
    assert sum((record.points(p) for p in record.participants), F(0)) == expected
    assert all(len(record.entries[p]) == 3 for p in record.participants)
