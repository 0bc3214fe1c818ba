"""The team journal: commands decided into events, folded into the state; refusals as codes; the log round-trips;
a match entered once gives its games, which are rated and count for the players' board records."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest

from toreshi.kit.core import Actor, Context, fold
from toreshi.kit.refusal import Refusal, Refused
from toreshi.tournament.codes import ProtestCode
from toreshi.tournament.journal.teams import (
    COMMANDS,
    CreateTeams,
    EnterMatch,
    FileTeamProtest,
    ImportTeams,
    PairTeamRound,
    RegisterTeam,
    SetLineup,
    TeamCommand,
    TeamJournalState,
    TeamProtestFiled,
    decide,
    decode_event,
    encode_event,
    evolve,
    replay,
)
from toreshi.tournament.model import GameResult as G
from toreshi.tournament.protests import ProtestStatus
from toreshi.tournament.ratings import RatedPlayer, RatingList
from toreshi.tournament.teams.boards import board_records, player_records, rate
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.teams.model import TeamSystem

AT = datetime.fromisoformat("2026-12-01T09:00:00+00:00")
CTX = Context(Actor("arbiter", "chief"), now_ms=0, meta={"at": AT})


def run(state: TeamJournalState, *commands: TeamCommand) -> TeamJournalState:
    for command in commands:
        decision = decide(state, command, CTX)
        if isinstance(decision, Refusal):
            raise Refused(decision)
        state = fold(evolve, state, decision)
    return state


def refused(state: TeamJournalState, command: TeamCommand) -> Refusal:
    decision = decide(state, command, CTX)
    assert isinstance(decision, Refusal), decision
    return decision


def two_teams() -> TeamJournalState:
    return run(
        TeamJournalState(),
        CreateTeams(name="Cup", system=TeamSystem.ROUND_ROBIN, boards=2),
        RegisterTeam(name="Алматы", players=("Абай", "Бек", "Дана"), ratings=(1800, 1700, 1600)),
        RegisterTeam(name="Астана", players=("Ерлан", "Жанар"), ratings=(1750, 1650)),
    )


def test_a_match_entered_once_gives_the_match_its_games_and_their_ratings() -> None:
    state = run(two_teams(), PairTeamRound(), EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.WHITE_WINS)))
    # Berger for 2 teams: 1–2; board 1 Абай (White) beat Ерлан, board 2 Жанар (White, Астана's) beat Бек.
    records = board_records(state.t)
    assert [(r.team, r.place, r.games, str(r.points)) for r in records[1]] == [(1, 0, 1, "1"), (2, 0, 1, "0")]
    assert [(r.team, r.place, r.games, str(r.points)) for r in records[2]] == [(2, 1, 1, "1"), (1, 1, 1, "0")]
    ids = {(1, 0): "abai", (1, 1): "bek", (2, 0): "erlan", (2, 1): "zhanar"}
    before = RatingList(tuple(RatedPlayer(pid, pid, r, games=50) for pid, r in
                              (("abai", 1800), ("bek", 1700), ("erlan", 1750), ("zhanar", 1650))))  # fmt: skip
    after = rate(state.t, before, ids, date(2026, 12, 1))
    assert after.player("abai").rating > 1800 and after.player("erlan").rating < 1750
    assert after.player("zhanar").rating > 1650 and after.player("bek").rating < 1700
    assert after.player("abai").games == 51


def test_a_correction_says_why_and_a_match_needs_every_board() -> None:
    state = run(two_teams(), PairTeamRound(), EnterMatch(round=1, match=1, results=(G.DRAW, G.DRAW)))
    assert refused(state, EnterMatch(round=1, match=1, results=(G.DRAW,))).code is TeamCode.WRONG_RESULT_COUNT
    no_reason = refused(state, EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.DRAW)))
    assert (no_reason.code, dict(no_reason.params)) == (TeamCode.CORRECTION_NEEDS_REASON, {"round": 1, "match": 1})
    fixed = run(state, EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.DRAW), reason="score sheet"))
    assert fixed.t.round(1).match(1).results == (G.WHITE_WINS, G.DRAW)
    assert decide(fixed, EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.DRAW)), CTX) == []  # nothing new


def test_line_ups_keep_the_board_order_and_close_with_the_result() -> None:
    state = run(two_teams(), PairTeamRound())
    assert refused(state, SetLineup(round=1, team=1, places=(2, 1))).code is TeamCode.LINEUP_ORDER
    assert refused(state, SetLineup(round=1, team=1, places=(1,))).code is TeamCode.LINEUP_SIZE
    assert refused(state, SetLineup(round=1, team=1, places=(1, 9))).code is TeamCode.LINEUP_UNKNOWN_PLAYER
    state = run(state, SetLineup(round=1, team=1, places=(1, 3)))  # the reserve Дана moves up to board 2
    state = run(state, EnterMatch(round=1, match=1, results=(G.DRAW, G.BLACK_WINS)))
    assert [(r.team, r.place) for r in board_records(state.t)[2]] == [(1, 2), (2, 1)]  # Дана won as Black
    assert refused(state, SetLineup(round=1, team=1, places=(1, 2))).code is TeamCode.LINEUP_AFTER_RESULT
    # The players' records: Дана (the reserve) played one game, on board 2, and won it; Бек did not play.
    records = {(r.team, r.place): (r.boards, r.games, str(r.points)) for r in player_records(state.t)}
    assert records[(1, 2)] == ((2,), 1, "1") and records[(1, 1)] == ((), 0, "0") and records[(2, 1)] == ((2,), 1, "0")


def test_registration_refusals_and_its_close_at_round_one() -> None:
    state = two_teams()
    assert refused(state, RegisterTeam(name="алматы", players=("X", "Y"))).code is TeamCode.TEAM_NAME_TAKEN
    assert refused(state, RegisterTeam(name="Шымкент", players=("X",))).code is TeamCode.TOO_FEW_PLAYERS
    other = refused(state, RegisterTeam(name="Шымкент", players=("X", "Абай")))
    assert (other.code, other.params["team"]) == (TeamCode.PLAYER_IN_OTHER_TEAM, "Алматы")
    state = run(state, PairTeamRound())
    assert refused(state, RegisterTeam(name="Шымкент", players=("X", "Y"))).code is TeamCode.REGISTRATION_CLOSED
    assert refused(TeamJournalState(), PairTeamRound()).code is TeamCode.NOT_CREATED
    no_rounds = CreateTeams(name="Cup", system=TeamSystem.SWISS, boards=4, rounds=0)
    assert refused(TeamJournalState(), no_rounds).code is TeamCode.NO_ROUNDS
    bad_points = CreateTeams(name="Cup", system=TeamSystem.SWISS, boards=4, rounds=5, match_win=1, match_draw=1)
    assert refused(TeamJournalState(), bad_points).code is TeamCode.POINTS_ORDER
    assert refused(TeamJournalState(), CreateTeams(name="Cup", system=TeamSystem.SWISS, boards=4, rounds=5,
                                                   tiebreaks=("KS",))).code is TeamCode.UNKNOWN_TIEBREAK  # fmt: skip


def test_a_csv_list_registers_teams_in_board_order_and_reports_every_bad_line() -> None:
    state = run(TeamJournalState(), CreateTeams(name="Cup", system=TeamSystem.SWISS, boards=2, rounds=3))
    csv = "team,player,rating,representative\nA,a1,1500,Rep\nA,a2,\nB,b1,1400\nB,b2,1300\n"
    state = run(state, ImportTeams(text=csv))
    assert [(t.name, [p.name for p in t.players], t.representatives) for t in state.t.teams] == [
        ("A", ["a1", "a2"], ("Rep",)), ("B", ["b1", "b2"], ())]  # fmt: skip
    bad = refused(state, ImportTeams(text="C,c1,abc\nC,,1\nC,c3,1\n"))
    assert bad.code is TeamCode.CSV_LINE and [d.params["line"] for d in bad.details] == [1, 2]


def test_commands_are_read_at_the_edge_and_events_round_trip() -> None:
    command = COMMANDS.read("enter_match", {"round": 1, "match": 1, "results": ["1-0", "½-½"]})
    assert command == EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.DRAW))
    with pytest.raises(Refused) as bad:
        COMMANDS.read("create_teams", {"name": "Cup", "system": "swiss", "boards": 13})
    assert bad.value.code == "field_too_large"
    state = run(two_teams(), PairTeamRound(), EnterMatch(round=1, match=1, results=(G.DRAW, G.DRAW)))
    stored = [encode_event(e) for e in state.log]
    assert replay([decode_event(kind, payload) for kind, payload in stored]) == state


def _at(minutes: int) -> Context:
    return Context(Actor("arbiter", "chief"), now_ms=0, meta={"at": AT + timedelta(minutes=minutes)})


def test_tk_p1_a_team_representative_files_a_protest_within_30_minutes_of_the_match() -> None:
    state = run(
        TeamJournalState(),
        CreateTeams(name="Cup", system=TeamSystem.ROUND_ROBIN, boards=2),
        RegisterTeam(name="Алматы", players=("Абай", "Бек"), representatives=("Нұрлан",)),
        RegisterTeam(name="Астана", players=("Ерлан", "Жанар"), representatives=("Марат",)),
        RegisterTeam(name="Шымкент", players=("Олжас", "Рахат")),
        PairTeamRound(),
        EnterMatch(round=1, match=1, results=(G.WHITE_WINS, G.DRAW)),  # Berger: 2–3 in round 1, team 1 sits out
    )
    protest = FileTeamProtest(round=1, match=1, board=2, team=2, filed_by="Марат", text="Board 2: a wrong result.")

    def filed(command: FileTeamProtest, minutes: int, where: TeamJournalState = state) -> TeamProtestFiled:
        decision = decide(where, command, _at(minutes))
        assert not isinstance(decision, Refusal), decision
        (event,) = decision
        assert isinstance(event, TeamProtestFiled)
        return event

    on_time = filed(protest, 30)
    assert (on_time.status, on_time.id, on_time.team) == (ProtestStatus.AWAITING_FEE, "P1", 2)
    assert filed(replace(protest, fee_paid=1000), 10).status is ProtestStatus.ACCEPTED
    late = filed(protest, 31)
    assert (late.status, late.clause, late.minutes) == (ProtestStatus.NOT_ACCEPTED, "TK-P1", 31)
    # Only the team's own representatives: Нұрлан represents Алматы, which did not play this match; Олжас is a player.
    stranger = decide(state, replace(protest, team=3, filed_by="Олжас"), _at(5))
    assert isinstance(stranger, Refusal) and stranger.code is ProtestCode.NOT_A_FILER
    other = decide(state, replace(protest, team=1, filed_by="Нұрлан"), _at(5))
    assert isinstance(other, Refusal) and other.code is TeamCode.NOT_IN_MATCH
    # TK-P3: once the next round is paired, a protest is not accepted.
    after = filed(protest, 6, run(state, PairTeamRound()))
    assert (after.status, after.clause) == (ProtestStatus.NOT_ACCEPTED, "TK-P3")
    recorded = fold(evolve, state, [on_time])
    assert recorded.protests == (on_time,) and recorded.t == state.t
