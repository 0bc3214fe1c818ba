"""The TRF of a team competition, column by column (docs/tournaments.md §4: 001, 310, 013, 352), and the CSVs."""

from __future__ import annotations

from fractions import Fraction

from toreshi.tournament.model import GameResult as G
from toreshi.tournament.teams.model import Match, Team, TeamPlayer, TeamRound, TeamSettings, TeamSystem, TeamTournament
from toreshi.tournament.teams.tables import crosstable_csv, standings_csv
from toreshi.tournament.teams.trf import read_802, team_trf
from toreshi.tournament.trf import format_trf, parse_trf


def _cols(line: str, first: int, last: int) -> str:
    """Columns ``first``..``last``, 1-based and inclusive, as the specification counts them."""
    return line[first - 1 : last]


def _event() -> TeamTournament:
    teams = (
        Team(1, "Алматы", (TeamPlayer("Абенов, Нұрлан", 1850), TeamPlayer("Бекова, Айгерім", 1790),
                           TeamPlayer("Қасымова, Әсел"))),
        Team(2, "Астана", (TeamPlayer("Төлеуов, Марат", 1830), TeamPlayer("Иманова, Луиза", 1750))),
    )  # fmt: skip
    # Board 1: Абенов (White) beats Төлеуов; board 2: Иманова (White, Астана's) draws Бекова.
    rounds = (TeamRound(1, (Match(1, 1, 2, (0, 1), (0, 1), (G.WHITE_WINS, G.DRAW)),)),)
    return TeamTournament(TeamSettings("Кубок", TeamSystem.ROUND_ROBIN, 2, 0, start="2026-12-01"), teams, rounds)


def test_player_records_carry_every_board_game_in_the_round_columns() -> None:
    lines = team_trf(_event()).split("\r")
    assert lines[:7] == ["012 Кубок", "042 2026/12/01", "062 5", "082 2", "092 Team round robin", "142 1", "352 WB"]
    players = [line for line in lines if line.startswith("001")]
    abenov, bekova, kasymova, toleuov, imanova = players
    assert _cols(abenov, 5, 8) == "   1" and _cols(abenov, 15, 47).rstrip() == "Абенов, Нұрлан"
    assert _cols(abenov, 49, 52) == "1850" and _cols(abenov, 81, 84) == " 1.0" and _cols(abenov, 86, 89) == "   1"
    assert _cols(abenov, 92, 99) == "   4 w 1"  # round 1: opponent 4 (Төлеуов), White, won
    assert _cols(bekova, 92, 99) == "   5 b ="  # Black against Иманова, drawn
    assert _cols(imanova, 92, 99) == "   2 w ="
    assert _cols(toleuov, 92, 99) == "   1 b 0"
    assert _cols(kasymova, 92, 99) == "0000 - Z"  # the reserve was not fielded
    assert _cols(kasymova, 49, 52) == "    "  # unrated


def test_team_records_310_and_013() -> None:
    t = _event()
    line = next(x for x in team_trf(t).split("\r") if x.startswith("310"))
    assert _cols(line, 5, 7) == "  1" and _cols(line, 9, 40).rstrip() == "Алматы"
    assert _cols(line, 48, 53) == "  1820"  # the first two boards' average rating
    assert _cols(line, 55, 60) == "   2.0" and _cols(line, 62, 67) == "   1.5" and _cols(line, 69, 71) == "  1"
    assert [_cols(line, c, c + 3) for c in (74, 79, 84)] == ["   1", "   2", "   3"]
    old = next(x for x in team_trf(t, team_record="013").split("\r") if x.startswith("013 Астана"))
    assert _cols(old, 5, 36).rstrip() == "Астана" and [_cols(old, c, c + 3) for c in (37, 42)] == ["   4", "   5"]
    trf16 = team_trf(t, team_record="013").split("\r")
    assert "XXR 1" in trf16 and not any(x.startswith(("142", "352", "310")) for x in trf16)


def test_standings_and_crosstable_csv() -> None:
    t = _event()
    assert standings_csv(t).splitlines() == [
        "rank,team,MP,GP,MPVGP,DE,SB", "1,Алматы,2,1.5,1.5,1,0", "2,Астана,0,0.5,0.5,1,0"]  # fmt: skip
    assert crosstable_csv(t).splitlines()[1:] == ["1,1,Алматы,2w 1.5,2,1.5", "2,2,Астана,1b 0.5,0,0.5"]


def test_trf_2026_bye_forfeited_match_and_out_of_order_records() -> None:
    teams = tuple(
        Team(i, f"T{i}", (TeamPlayer(f"P{i}a"), TeamPlayer(f"P{i}b"), TeamPlayer(f"P{i}c"))) for i in (1, 2, 3)
    )
    rounds = (
        # Round 1: T3 has the bye; T2 fields its reserve (list places 1 and 3) against T1.
        TeamRound(1, (Match(1, 1, 2, (0, 1), (0, 2), (G.WHITE_WINS, G.DRAW)), Match(2, 3, None))),
        # Round 2: T3 (White on board 1) loses both boards by default to T1: a forfeited match; T2 has the bye.
        TeamRound(2, (Match(1, 3, 1, (0, 1), (0, 1), (G.BLACK_FORFEIT_WIN, G.WHITE_FORFEIT_WIN)), Match(2, 2, None))),
    )
    t = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 3), teams, rounds)
    lines = team_trf(t).split("\r")
    pab = next(x for x in lines if x.startswith("320"))
    assert _cols(pab, 5, 8) == " 2.0" and _cols(pab, 10, 13) == " 2.0"  # a won match, both boards
    assert _cols(pab, 15, 17) == "003" and _cols(pab, 19, 21) == "002"
    forfeit = next(x for x in lines if x.startswith("330"))
    assert forfeit == "330 -+ 002 003 001"  # the Black team (second-named, T1) won
    order = next(x for x in lines if x.startswith("300"))
    # T2's players are numbered 4, 5, 6: it fielded 4 and 6 against T1 in round 1.
    assert (_cols(order, 5, 7), _cols(order, 9, 11), _cols(order, 13, 15)) == ("001", "002", "001")
    assert (_cols(order, 17, 20), _cols(order, 22, 25)) == ("0004", "0006")
    assert not any(x.startswith(("320", "330", "300")) for x in team_trf(t, team_record="013").split("\r"))


def test_the_projects_trf_reader_reads_the_team_file_back_unchanged() -> None:
    for record in ("310", "013"):
        text = team_trf(_event(), team_record=record)
        parsed = parse_trf(text)
        assert format_trf(parsed) == text
        # Points in 001 are the sum of the player's results (what bbpPairings and JaVaFo check).
        assert [(p.number, str(p.points)) for p in parsed.players] == [
            (1, "1"), (2, "1/2"), (3, "0"), (4, "0"), (5, "1/2")]  # fmt: skip


def test_trf_2026_team_points_362_and_the_crosstable_records_801_802_read_back() -> None:
    teams = tuple(
        Team(i, f"T{i}", (TeamPlayer(f"P{i}a"), TeamPlayer(f"P{i}b"), TeamPlayer(f"P{i}c"))) for i in (1, 2, 3)
    )
    rounds = (
        TeamRound(1, (Match(1, 1, 2, (0, 1), (0, 2), (G.WHITE_WINS, G.DRAW)), Match(2, 3, None))),
        TeamRound(2, (Match(1, 3, 1, (0, 1), (0, 1), (G.BLACK_FORFEIT_WIN, G.WHITE_FORFEIT_WIN)), Match(2, 2, None))),
    )
    t = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 3), teams, rounds)
    text = team_trf(t)
    lines = text.split("\r")
    points = next(x for x in lines if x.startswith("362"))
    assert (_cols(points, 5, 6), _cols(points, 8, 11), _cols(points, 14, 15), _cols(points, 17, 20)) == (
        "TW", " 2.0", "TD", " 1.0")  # fmt: skip
    assert (_cols(points, 23, 24), _cols(points, 26, 29)) == ("TL", " 0.0")
    short = {read_802(x)[0]: read_802(x) for x in lines if x.startswith("802")}
    assert set(short) == {1, 2, 3}
    _, mp, gp, played = short[1]
    assert (mp, gp) == (Fraction(4), Fraction(7, 2))  # won both matches: 1.5 over the board, then 2 boards by default
    assert [(r.opponent, r.colour, r.game_points, r.forfeited) for r in played] == [
        (2, "w", Fraction(3, 2), False), (3, "b", Fraction(2), True)]  # fmt: skip
    assert [(r.opponent, r.bye, r.game_points) for r in short[3][3]] == [
        (None, "PAB", Fraction(2)),
        (1, "", Fraction(0)),
    ]
    one = next(x for x in lines if x.startswith("802   1"))
    assert _cols(one, 29, 31) == "  2" and _cols(one, 33, 33) == "w" and _cols(one, 35, 38) == " 1.5"
    assert _cols(one, 42, 44) == "  3" and _cols(one, 46, 46) == "b" and _cols(one, 52, 52) == "f"
    long = next(x for x in lines if x.startswith("801   2"))
    assert _cols(long, 29, 31) == "  1" and _cols(long, 35, 36) == "0=" and _cols(long, 38, 39) == "13"
    assert any(x.startswith("### TTT NNNNN") for x in lines)  # the columns named, as the text's examples do
    # Read back: every line kept as it was, the results the same.
    assert format_trf(parse_trf(text), "\r") == text
    assert team_trf(t, team_record="013").count("\r802") == 0  # TRF16 has no such records
