"""Standings: ranking by points and a configurable tie-break order; standings from a TRF."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from itertools import combinations, pairwise
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.berger import berger_table
from toreshi.tournament.model import (
    Colour,
    GameResult,
    Participant,
    ResultCode,
    RoundEntry,
    Tournament,
    TournamentSystem,
    build_record,
)
from toreshi.tournament.standings import (
    DEFAULT_SWISS_TIEBREAKS,
    compute_standings,
    record_from_trf,
    standings_for,
    standings_from_trf,
    trf_from_standings,
)
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.trf import RawLine, TrfFile, format_trf, parse_trf

from .builders import play_round

F = Fraction
W, B = Colour.WHITE, Colour.BLACK
WIN, DRAW, LOSS = ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS
DUTCH = "pairings/dutch-2025"


def cyclic_round_robin() -> Tournament:
    """Four players, single round robin (Berger table for 4).

    R1: 1–4 1-0, 2–3 1-0 · R2: 4–3 0-1, 1–2 0-1 · R3: 2–4 1-0, 3–1 0-1
    2 won all three games, 1 beat 4 and 3, 3 beat 4: 2 → 3, 1 → 2, 3 → 1, 4 → 0.
    """
    t = Tournament(name="RR", system=TournamentSystem.ROUND_ROBIN, rounds_planned=3, tiebreaks=("DE", "BPTS"))
    for n in range(1, 5):
        t = t.with_participant(Participant(n, f"P{n}"))
    schedule = [
        ([(1, 4), (2, 3)], [GameResult.WHITE_WINS, GameResult.WHITE_WINS]),
        ([(4, 3), (1, 2)], [GameResult.BLACK_WINS, GameResult.BLACK_WINS]),
        ([(2, 4), (3, 1)], [GameResult.WHITE_WINS, GameResult.BLACK_WINS]),
    ]
    for pairs, results in schedule:
        t = play_round(t, pairs, results)
    return t


def test_points_then_tiebreaks() -> None:
    standings = standings_for(cyclic_round_robin())
    ranking = [(r.rank, r.player.number, r.points) for r in standings.rows]
    assert ranking == [(1, 2, F(3)), (2, 1, F(2)), (3, 3, F(1)), (4, 4, F(0))]
    assert not any(r.shared for r in standings.rows)
    assert [str(tb) for tb in standings.tiebreaks] == ["DE", "BPTS"]


def test_direct_encounter_then_points_as_black() -> None:
    # R1: 1–2 1-0, 3–4 0-1 · R2: 1–3 0-1, 2–4 1-0 · R3: 1–4 0-1, 2–3 1-0.
    people = [Participant(n, f"P{n}") for n in (1, 2, 3, 4)]
    record = build_record(
        people,
        3,
        {
            1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, LOSS, 3, W), RoundEntry(3, LOSS, 4, W)],
            2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, WIN, 4, W), RoundEntry(3, WIN, 3, W)],
            3: [RoundEntry(1, LOSS, 4, W), RoundEntry(2, WIN, 1, B), RoundEntry(3, LOSS, 2, B)],
            4: [RoundEntry(1, WIN, 3, B), RoundEntry(2, LOSS, 2, B), RoundEntry(3, WIN, 1, B)],
        },
        round_robin=True,
    )
    # Points: 1 → 1, 2 → 2, 3 → 1, 4 → 2. Ties {2, 4} and {1, 3}.
    # DE {2, 4}: 2 beat 4 → 2 ahead. DE {1, 3}: 3 beat 1 → 3 ahead. BPTS is not needed.
    standings = compute_standings(record, ["DE", "BPTS"])
    assert standings.order() == [2, 4, 3, 1]
    assert [r.values[0] for r in standings.rows] == [1, 2, 1, 2]
    assert standings.row(4).values[1] == 2  # BPTS is still shown for every player
    # Points as Black then DE: BPTS {2, 4}: 2 → 0, 4 → 2 → 4 ahead; {1, 3}: 3 → 1, 1 → 0 → 3 ahead.
    assert compute_standings(record, ["BPTS", "DE"]).order() == [4, 2, 3, 1]


def test_players_level_on_everything_share_a_rank() -> None:
    people = [Participant(1, "A"), Participant(2, "B"), Participant(3, "C")]
    record = build_record(
        people,
        1,
        {1: [RoundEntry(1, DRAW, 2, W)], 2: [RoundEntry(1, DRAW, 1, B)], 3: [RoundEntry(1, ResultCode.ZERO_BYE)]},
    )
    rows = compute_standings(record, ["DE", "WIN", "SB"]).rows
    assert [(r.rank, r.player.number, r.shared) for r in rows] == [(1, 1, True), (1, 2, True), (3, 3, False)]


def annulled_round_robin() -> Tournament:
    """Four players; R1: 1–4 0-1, 2–3 ½-½; 4 then withdraws, having played 1 game of 3 (annulled, TK-R10)."""
    t = Tournament(name="RR", system=TournamentSystem.ROUND_ROBIN, rounds_planned=3)
    for n in range(1, 5):
        t = t.with_participant(Participant(n, f"P{n}"))
    t = t.add_round([(1, 4), (2, 3)]).record_result(1, 1, GameResult.BLACK_WINS).record_result(1, 2, GameResult.DRAW)
    return t.withdraw(4, after_round=1)


def test_annulled_round_robin_player_is_listed_without_a_rank() -> None:
    standings = standings_for(annulled_round_robin())
    assert standings.rows[-1].player.number == 4 and standings.rows[-1].rank is None
    # 4's win over 1 does not count: 2 and 3 lead with ½, 1 has 0. DE cannot split 2 and 3 (a draw);
    # points as қостаушы can: 3 drew as Black.
    assert [(r.player.number, r.points) for r in standings.rows[:3]] == [(3, F(1, 2)), (2, F(1, 2)), (1, 0)]


def test_swiss_default_order_uses_buchholz_cut_one_first() -> None:
    t = Tournament(name="Swiss", system=TournamentSystem.SWISS, rounds_planned=1)
    for n in range(1, 4):
        t = t.with_participant(Participant(n, f"P{n}"))
    t = t.add_round([(1, 2)], pairing_bye=3).record_result(1, 1, GameResult.WHITE_WINS)
    standings = standings_for(t)
    assert [str(tb) for tb in standings.tiebreaks] == list(DEFAULT_SWISS_TIEBREAKS)
    # 1 and 3 both have 1 point. BH/C1 cuts the only round: 0 each; BH: 1's opponent has 0, 3's PAB
    # counts as a dummy opponent with 3's own score 1 → 3 ahead.
    assert standings.order() == [3, 1, 2]


def test_standings_from_a_reference_trf_worked_by_hand(shared_data: Path) -> None:
    trf = parse_trf((shared_data / DUTCH / "t003-n9-r6.trf").read_text())
    standings = standings_from_trf(trf, ["BH", "BH/C1", "SB"])
    # Player 8 (3 points): opponents 4 (3½), 1 (5½), 7 (2½), 9 (1½), plus a PAB and a forfeit win, each a
    # dummy opponent with 8's own score 3: BH = 3½ + 3 + 5½ + 3 + 2½ + 1½ = 19; cut-1 drops 1½ → 17½;
    # SB = 3 (PAB) + 3 (forfeit win) + 1½ (beat 9) = 7½.
    assert standings.row(8).values == (F(19), F(35, 2), F(15, 2))
    # Player 6 (3 points): 2 (4), 7 (2½), 5 (3½), forfeit loss → dummy 3 (a VUR), PAB → dummy 3, 3 (3½):
    # BH = 19½; cut-1 drops the VUR first (3), not the lowest value (2½) → 16½;
    # SB = 2½ (beat 7) + 1¾ (drew 5) + 3 (PAB) + 1¾ (drew 3) = 9.
    assert standings.row(6).values == (F(39, 2), F(33, 2), F(9))


def test_standings_points_equal_the_trf_points_column(shared_data: Path) -> None:
    files = sorted((shared_data / DUTCH).glob("*.trf"))
    assert len(files) == 97
    for path in files:
        trf = parse_trf(path.read_text())
        standings = standings_from_trf(trf)
        for row in standings.rows:
            assert row.points == trf.player(row.player.number).points, (path.name, row.player.number)
        ranked_points = [row.points for row in standings.rows]
        assert ranked_points == sorted(ranked_points, reverse=True), path.name
        assert len(standings.rows) == len(trf.players)


def test_record_from_trf_keeps_forfeits_byes_and_absences(shared_data: Path) -> None:
    record = record_from_trf(parse_trf((shared_data / DUTCH / "t003-n9-r6.trf").read_text()))
    assert not record.round_robin and record.rounds == 6
    assert record.entries[8][4] == RoundEntry(4, ResultCode.FORFEIT_WIN, 6, W)
    assert record.entries[6][4] == RoundEntry(4, ResultCode.FORFEIT_LOSS, 8, B)
    assert record.entries[9][1] == RoundEntry(1, ResultCode.PAIRING_BYE)
    assert record.participants[1].rating == 2694


def test_trf_export_round_trips_the_reference_files(shared_data: Path) -> None:
    for path in sorted((shared_data / DUTCH).glob("*.trf"))[:20]:
        original = parse_trf(path.read_text())
        standings = standings_from_trf(original)
        text = format_trf(trf_from_standings(standings, original.name or "", original.rounds, "FIDE_DUTCH_2025"))
        again = parse_trf(text)
        assert again.rounds == original.rounds and again.name == original.name
        assert [str(tb) for tb in standings_from_trf(again).tiebreaks] == list(DEFAULT_SWISS_TIEBREAKS)
        assert record_from_trf(again).entries == record_from_trf(original).entries, path.name
        for before, after in zip(original.players, again.players, strict=True):
            assert (after.number, after.name, after.rating, after.points) == (
                before.number,
                before.name,
                before.rating,
                before.points,
            )
            assert after.rank == standings.row(after.number).rank
        assert "202 BH/C1,BH,SB,DE,WIN" in text.split("\r")


def test_trf_export_writes_annulled_games_from_both_sides() -> None:
    trf = trf_from_standings(standings_for(annulled_round_robin()), "RR")
    # 4 beat 1 in round 1; 4 then left with 1 game of 3 played, so it counts for nobody, but the TRF keeps it.
    first_of_1, first_of_4 = trf.player(1).round(1), trf.player(4).round(1)
    assert first_of_1 is not None and first_of_1.code is ResultCode.LOSS
    assert first_of_4 is not None and first_of_4.code is ResultCode.WIN
    assert trf.player(4).rank is None and trf.player(4).points == 1
    assert trf.player(1).points == 0


@st.composite
def round_robins(draw: st.DrawFn) -> list[tuple[int, int, ResultCode]]:
    n = draw(st.integers(min_value=2, max_value=6))
    return [(a, b, draw(st.sampled_from([WIN, DRAW, LOSS]))) for a, b in combinations(range(1, n + 1), 2)]


@given(round_robins(), st.permutations(["DE", "BPTS", "WIN", "SB", "KS", "BPG"]))
def test_ranks_follow_points_and_are_consistent(games: list[tuple[int, int, ResultCode]], order: list[str]) -> None:
    players = sorted({p for a, b, _ in games for p in (a, b)})
    entries: dict[int, list[RoundEntry]] = {p: [] for p in players}
    for rnd, (a, b, code) in enumerate(games, start=1):
        entries[a].append(RoundEntry(rnd, code, b, W))
        entries[b].append(RoundEntry(rnd, code.reversed, a, B))
    # Rounds here are one game each; players sit out the others (that is fine for ranking purposes).
    record = build_record([Participant(p, f"P{p}") for p in players], len(games), entries, round_robin=True)
    rows = compute_standings(record, order).rows
    assert sorted(r.player.number for r in rows) == players
    for above, below in pairwise(rows):
        assert above.points >= below.points
        assert above.rank is not None and below.rank is not None and above.rank <= below.rank
        if above.rank == below.rank:
            assert above.points == below.points and above.values == below.values
    assert rows[0].rank == 1


def swiss_with_a_bye(start: date | None, rules: TieBreakRules | None = None) -> Tournament:
    """Three players, two rounds: R1 1–2 1-0, 3 gets the PAB; R2 3–1 ½-½, 2 gets the PAB.

    Scores: 1 → 1½, 2 → 1, 3 → 1½. BH(3): R1 PAB → a dummy with 3's own score 1½ (2024) or at most a draw in
    each of the 2 rounds, 1 (2026); R2 drew 1 (1½) → 3 (2024) or 2½ (2026). BH(1) = 1 (2) + 1½ (3) = 2½.
    """
    t = Tournament(name="Swiss", system=TournamentSystem.SWISS, rounds_planned=2, start=start,
                   tiebreaks=("BH",), tiebreak_rules=rules)  # fmt: skip
    for n in range(1, 4):
        t = t.with_participant(Participant(n, f"P{n}"))
    t = t.add_round([(1, 2)], pairing_bye=3).record_result(1, 1, GameResult.WHITE_WINS)
    return t.add_round([(3, 1)], pairing_bye=2).record_result(2, 1, GameResult.DRAW)


def test_standings_use_the_rules_in_force_on_the_start_date() -> None:
    before = standings_for(swiss_with_a_bye(date(2026, 2, 28)))
    assert before.rules is TieBreakRules.C07_2024
    assert before.row(3).values == (F(3),) and before.order() == [3, 1, 2]
    after = standings_for(swiss_with_a_bye(date(2026, 3, 1)))
    assert after.rules is TieBreakRules.C07_2026
    assert after.row(3).values == (F(5, 2),)
    # 1 and 3 now have the same Buchholz (2½) and share first place.
    assert after.row(1).rank == after.row(3).rank == 1
    assert standings_for(swiss_with_a_bye(None)).rules is TieBreakRules.C07_2026


def test_the_tournament_may_name_its_rules() -> None:
    chosen = standings_for(swiss_with_a_bye(date(2026, 5, 1), TieBreakRules.C07_2024))
    assert chosen.rules is TieBreakRules.C07_2024 and chosen.row(3).values == (F(3),)


def test_trf_standings_follow_the_start_date_record(shared_data: Path) -> None:
    trf = parse_trf((shared_data / DUTCH / "t003-n9-r6.trf").read_text())
    assert trf.start_date is None
    assert standings_from_trf(trf).rules is TieBreakRules.C07_2026
    dated = TrfFile((RawLine("042 2025/09/01"), *trf.lines))
    assert dated.start_date == date(2025, 9, 1)
    assert standings_from_trf(dated).rules is TieBreakRules.C07_2024
    assert standings_from_trf(dated, rules=TieBreakRules.C07_2026).rules is TieBreakRules.C07_2026


def test_a_double_round_robin_trf_is_read_as_two_cycles() -> None:
    # Four players, Berger double round robin (6 rounds), every game drawn except 1 beating 2 twice.
    t = Tournament(name="Double", system=TournamentSystem.DOUBLE_ROUND_ROBIN, rounds_planned=6, tiebreaks=("KS",))
    for n in range(1, 5):
        t = t.with_participant(Participant(n, f"P{n}"))
    for number, boards in enumerate(berger_table(4, double=True), start=1):
        t = t.add_round([(b.white, b.black) for b in boards if b.black is not None])
        for index, b in enumerate(boards, start=1):
            won = {b.white, b.black} == {1, 2}
            result = (GameResult.WHITE_WINS if b.white == 1 else GameResult.BLACK_WINS) if won else GameResult.DRAW
            t = t.record_result(number, index, result)
    direct = standings_for(t)
    assert direct.record.cycles == 2
    text = format_trf(trf_from_standings(direct, "Double", 6, "ROUND ROBIN"))
    again = record_from_trf(parse_trf(text))
    assert again.round_robin and again.cycles == 2
    # Koya: the maximum is 3 opponents × 2 games = 6 points, half of it 3 (one cycle would make it 1½, and 2 —
    # on 2 points — would count). Scores: 1 → 4, 2 → 2, 3 and 4 → 3, so 1, 3 and 4 qualify. 1: his draws with 3
    # and 4 (1 + 1) = 2; 2: the same draws with 3 and 4 = 2 (his two losses to 1 add 0); 3 and 4: their draws
    # with 1 and with each other, 1 + 1 = 2 (the draws with 2 do not count).
    assert {p: again.points(p) for p in range(1, 5)} == {1: 4, 2: 2, 3: 3, 4: 3}
    koya = standings_from_trf(parse_trf(text), ["KS"])
    assert [koya.row(p).values for p in range(1, 5)] == [(F(2),), (F(2),), (F(2),), (F(2),)]
