"""The tournament event log: commands → events → state, replay, refusals that change nothing, the audit log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from toreshi.tournament.journal import (
    IMPORT_CHUNK,
    CsvImportError,
    Event,
    JournalError,
    TournamentState,
    apply_event,
    decide,
    parse_participants_csv,
    replay,
)
from toreshi.tournament.model import GameResult, ResultCode, TournamentError
from toreshi.tournament.protests import FeeStatus, ProtestError, ProtestStatus
from toreshi.tournament.standings import compute_standings, record_from_trf, trf_from_standings
from toreshi.tournament.trf import format_trf, parse_trf

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Desk:
    """Runs commands against a state and keeps the log, with a clock the test moves."""

    def __init__(self) -> None:
        self.state = TournamentState()
        self.log: list[Event] = []
        self.now = START

    def do(self, command: str, by: str = "chief", **data: Any) -> TournamentState:
        events = decide(self.state, command, {**data, "at": self.now.isoformat()}, by)
        for event in events:
            self.state = apply_event(self.state, event.type, event.payload)
        self.log.extend(events)
        return self.state

    def refused(self, command: str, match: str, **data: Any) -> None:
        before = self.state
        with pytest.raises(ValueError, match=match):
            self.do(command, **data)
        assert self.state is before


def swiss(players: int = 6, rounds: int = 3) -> Desk:
    desk = Desk()
    desk.do("create", name="Club Swiss", system="swiss_dutch", rounds=rounds, fee=1000, board="A, B", committee="C")
    for index in range(players):
        desk.do("add_participant", name=f"Player {index + 1}", rating=1800 - 10 * index)
    return desk


def round_robin(players: int) -> Desk:
    desk = Desk()
    desk.do("create", name="Club RR", system="round_robin")
    for index in range(players):
        desk.do("add_participant", name=f"Player {index + 1}")
    return desk


def test_every_command_needs_an_aware_time() -> None:
    with pytest.raises(JournalError, match="needs 'at'"):
        decide(TournamentState(), "create", {"name": "X", "system": "swiss_dutch", "rounds": 3}, "chief")
    with pytest.raises(JournalError, match="time zone"):
        decide(TournamentState(), "create", {"name": "X", "rounds": 3, "at": "2026-11-30T09:00:00"}, "chief")


def test_creation_checks_the_settings() -> None:
    desk = Desk()
    desk.refused("create", "a Swiss needs its number of rounds", name="X", system="swiss_dutch", rounds=0)
    desk.refused("create", "unknown system", name="X", system="knockout", rounds=3)
    desk.refused("create", "unknown tie-break", name="X", system="swiss_dutch", rounds=3, tiebreaks="BH, XYZ")
    desk.refused("pair_round", "has not been created")
    state = desk.do("create", name="X", system="swiss_dutch", rounds=5, tiebreaks="bh/c1, de", fee=500,
                    currency="kzt")  # fmt: skip
    assert state.t.tiebreaks == ("BH/C1", "DE")
    assert (state.protest_settings.fee_amount, state.protest_settings.fee_currency) == (500, "KZT")
    desk.refused("create", "already exists", name="Y", system="swiss_dutch", rounds=3)


def test_participants_are_added_edited_and_numbered_by_rating() -> None:
    desk = Desk()
    desk.do("create", name="X", system="swiss_dutch", rounds=3)
    desk.do("add_participant", name="Low", rating="1200")
    desk.do("add_participant", name="High", rating=2100, club="Almaty")
    desk.refused("add_participant", "'rating' must be a whole number", name="Bad", rating="strong")
    desk.refused("add_participant", "'name' is required", name="  ")
    state = desk.do("edit_participant", number=1, name="Low Renamed", rating=1250)
    assert state.t.participant(1).name == "Low Renamed" and state.t.participant(1).rating == 1250
    desk.refused("edit_participant", "no participant with pairing number 9", number=9, name="Nobody")
    state = desk.do("seed_by_rating")
    assert [(p.number, p.name) for p in sorted(state.t.participants, key=lambda p: p.number)] == [
        (1, "High"),
        (2, "Low Renamed"),
    ]


def test_a_csv_import_reports_every_bad_line_and_imports_nothing() -> None:
    desk = swiss(players=2)
    text = "name,rating,club\nAbenov,1500,Almaty\nBekov,strong,\n,1400,\nDauletov,1300,Astana\nErlan,1,2,3\n"
    with pytest.raises(CsvImportError) as refused:
        desk.do("import_participants", csv=text)
    assert refused.value.problems == (
        "line 3: 'rating' must be a whole number",
        "line 4: 'name' is required",
        "line 6: 4 cells but 3 columns",
    )
    assert len(desk.state.t.participants) == 2
    with pytest.raises(CsvImportError, match="unknown column"):
        parse_participants_csv("name;elo\nA;1\n")
    state = desk.do("import_participants", csv="Name;Rating;Team\nAbenov;1500;\nBekov;;\n")
    assert [(p.number, p.name, p.rating) for p in state.t.participants[2:]] == [(3, "Abenov", 1500), (4, "Bekov", None)]


def test_a_large_import_is_split_into_several_events_of_one_command() -> None:
    desk = Desk()
    desk.do("create", name="Open", system="swiss_dutch", rounds=9)
    rows = "\n".join(f"Player {i},{2000 - i}" for i in range(IMPORT_CHUNK + 50))
    state = desk.do("import_participants", csv="name,rating\n" + rows)
    assert len(state.t.participants) == IMPORT_CHUNK + 50
    assert [e.type for e in desk.log[1:]] == ["participants_imported", "participants_imported"]
    assert all(len(json.dumps(e.payload)) < 64 * 1024 for e in desk.log)


def test_a_round_robin_is_paired_by_berger_with_a_pointless_bye() -> None:
    desk = round_robin(5)
    state = desk.do("pair_round")
    assert state.draft is not None and state.draft.method == "berger"
    assert state.t.rounds_planned == 5  # five players: five rounds, one sits out each
    assert state.draft.pairs == ((2, 5), (3, 4)) and state.draft.bye == 1  # FIDE table: 1-6 2-5 3-4
    state = desk.do("publish_round")
    assert state.t.round(1).paired_at == START
    assert state.t.scoring.points(ResultCode.PAIRING_BYE) == 0
    desk.refused("add_participant", "takes no entries once it has been paired", name="Late")
    desk.refused("request_bye", "exist only in a Swiss", number=1, round=2)
    state = desk.do("pair_round")  # a round robin may pair ahead of results
    assert state.draft is not None and state.draft.round == 2


def test_an_override_needs_a_reason_pairs_everyone_and_is_audited() -> None:
    desk = swiss(players=4)
    desk.do("pair_round")
    desk.refused("override_pairing", "'reason' is required", pairs=[[1, 2], [3, 4]])
    desk.refused("override_pairing", r"not paired \[4\]", pairs=[[1, 2]], bye=3, reason="x")
    desk.refused("override_pairing", "paired twice", pairs=[[1, 2], [2, 3]], bye=4, reason="x")
    desk.refused("override_pairing", "cannot play themselves", pairs=[[1, 1], [3, 4]], reason="x")
    state = desk.do("override_pairing", by="deputy", pairs=[[1, 2], [4, 3]], reason="brothers must not meet")
    assert state.draft is not None and state.draft.overridden and state.draft.pairs == ((1, 2), (4, 3))
    line = state.audit[-1]
    assert (line.by, line.action) == ("deputy", "pairing_overridden")
    assert "1–2, 4–3" in line.detail and "brothers must not meet" in line.detail
    state = desk.do("publish_round")
    assert [(g.white, g.black) for g in state.t.round(1).games] == [(1, 2), (4, 3)]
    desk.refused("override_pairing", "no paired, unpublished round", pairs=[[1, 2], [3, 4]], reason="late")


def test_a_swiss_round_waits_for_the_previous_results() -> None:
    desk = swiss(players=4)
    desk.do("pair_round")
    desk.do("publish_round")
    desk.refused("pair_round", "round 1 still has games without a result")
    desk.do("enter_result", round=1, board=1, result="1-0")
    desk.do("enter_result", round=1, board=2, result="½-½", kazans=[81, 81])
    state = desk.do("pair_round")
    assert state.draft is not None and state.draft.round == 2
    met = {frozenset(g) for g in ((g.white, g.black) for g in state.t.round(1).games)}
    assert not met & {frozenset(p) for p in state.draft.pairs}  # no rematch


def test_results_corrections_and_live_reports() -> None:
    desk = swiss(players=2, rounds=1)
    desk.do("pair_round")
    desk.do("publish_round")
    desk.refused("enter_result", "unknown result", round=1, board=1, result="2-0")
    desk.refused("enter_result", "a forfeit has no kazans", round=1, board=1, result="+ −", kazans=[1, 0])
    desk.refused("enter_result", "impossible kazans", round=1, board=1, result="1-0", kazans=[100, 90])
    desk.refused("enter_result", "round 1 has no board 2", round=1, board=2, result="1-0")
    desk.do("enter_result", round=1, board=1, result="1-0", kazans=[82, 40])
    desk.refused("enter_result", "'reason' is required", round=1, board=1, result="0-1")
    # A live game's late report never overwrites the arbiter's result; the same result again records nothing.
    assert decide(desk.state, "enter_result", {"round": 1, "board": 1, "result": "0-1", "source": "live",
                                               "at": START.isoformat()}, "system") == []  # fmt: skip
    assert decide(desk.state, "enter_result", {"round": 1, "board": 1, "result": "1-0", "kazans": [82, 40],
                                               "at": START.isoformat()}, "chief") == []  # fmt: skip
    state = desk.do("enter_result", round=1, board=1, result="0-1", reason="score sheet misread")
    game = state.t.round(1).game(1)
    assert game.result is GameResult.BLACK_WINS and game.ended_at == START  # the correction keeps the end time
    assert state.audit[-1].action == "result_corrected" and "(was 1-0)" in state.audit[-1].detail


def test_withdrawals_byes_and_warnings() -> None:
    desk = swiss(players=5, rounds=3)
    desk.do("request_bye", number=5, round=1, code="H")
    desk.refused("request_bye", "already has a bye", number=5, round=1, code="Z")
    desk.refused("request_bye", "H \\(half point\\) or Z", number=4, round=1, code="F")
    state = desk.do("pair_round")
    assert state.draft is not None and 5 not in {p for pair in state.draft.pairs for p in pair}
    desk.do("publish_round")
    for game in desk.state.t.round(1).games:
        desk.do("enter_result", round=1, board=game.board, result="1-0")
    desk.do("pair_round")
    desk.refused("withdraw", "round 2 is paired with player 2; discard that pairing first", number=2)
    desk.do("discard_pairing", reason="player 2 is ill")
    state = desk.do("withdraw", number=2, reason="ill")
    assert state.t.leaving(2) is not None and state.t.leaving(2).after_round == 1  # type: ignore[union-attr]
    state = desk.do("pair_round")
    assert state.draft is not None and 2 not in {p for pair in state.draft.pairs for p in pair}
    state = desk.do("warn", number=3, round=2, reason="talking during play", penalty="2 minutes")
    assert state.warnings[-1].penalty == "2 minutes" and state.warnings[-1].by == "chief"
    desk.refused("warn", "'reason' is required", number=3)


def test_protests_follow_the_regulation_with_the_times_of_the_events() -> None:
    desk = swiss(players=2, rounds=2)
    desk.do("add_team", name="Almaty", representatives="Rep A", coaches=["Coach A"])
    desk.do("pair_round")
    desk.do("publish_round")
    desk.do("enter_result", round=1, board=1, result="1-0")  # ended at START
    desk.now = START + timedelta(minutes=10)
    desk.refused("file_protest", "not a team representative or coach", round=1, board=1, filed_by="Stranger",
                 text="unfair")  # fmt: skip
    state = desk.do("file_protest", round=1, board=1, filed_by="Rep A", text="The clock was wrong.")
    protest = state.protest("P1")
    assert protest.status is ProtestStatus.AWAITING_FEE and protest.team == "Almaty"
    desk.now = START + timedelta(minutes=40)
    late = desk.do("file_protest", round=1, board=1, filed_by="Coach A", role="coach", text="Again.")
    assert late.protest("P2").status is ProtestStatus.NOT_ACCEPTED  # TK-P1: more than 30 minutes after the game
    desk.refused("pay_protest_fee", "the fee is 1000 KZT", id="P1", amount=500, currency="KZT")
    desk.do("pay_protest_fee", id="P1", amount=1000, currency="KZT")
    desk.refused("convene_protest", "not a member of the chief arbiters' board", id="P1", board="Z", committee="C")
    desk.do("convene_protest", id="P1", board="A, B", committee="C")
    desk.do("decide_protest", id="P1", upheld=True, members="A, C", reasons="The clock was set wrongly.",
            corrected_result="½-½")  # fmt: skip
    state = desk.do("notify_protest", id="P1")
    protest = state.protest("P1")
    assert protest.status is ProtestStatus.NOTIFIED and protest.fee is FeeStatus.REFUNDED
    assert state.t.round(1).game(1).result is GameResult.DRAW
    assert state.result_sources[(1, 1)] == "protest P1"
    assert [row.points for row in state.standings().rows] == [Fraction(1, 2), Fraction(1, 2)]
    assert [e.action for e in protest.log] == ["filed", "awaiting fee", "fee paid", "meeting", "upheld", "notified"]
    unplayed = swiss(players=2)
    unplayed.do("add_team", name="T", representatives="R")
    unplayed.do("pair_round")
    unplayed.do("publish_round")
    with pytest.raises(ProtestError, match="no recorded end time"):
        unplayed.do("file_protest", round=1, board=1, filed_by="R", text="x")


def test_the_log_replays_to_the_same_state_after_a_json_round_trip() -> None:
    desk = swiss(players=7, rounds=3)
    for number in (1, 2):
        desk.do("pair_round")
        desk.do("publish_round")
        for game in desk.state.t.round(number).games:
            desk.do("enter_result", round=number, board=game.board, result="0-1" if game.board % 2 else "1-0")
    stored = [(e.type, json.loads(json.dumps(e.payload))) for e in desk.log]
    again = replay(stored)
    assert again.t == desk.state.t
    assert again.audit == desk.state.audit
    assert [r.player.number for r in again.standings().rows] == [r.player.number for r in desk.state.standings().rows]
    with pytest.raises(JournalError, match="unknown tournament event"):
        apply_event(again, "tournament_exploded", {"at": START.isoformat()})
    with pytest.raises(TournamentError):
        apply_event(again, "round_published", {"round": 3, "at": START.isoformat()})


def test_a_trf_export_reads_back_to_the_same_standings() -> None:
    desk = round_robin(6)
    desk.do("configure", tiebreaks="DE, BPTS, WIN, SB")
    results = ["1-0", "0-1", "½-½"]
    for number in range(1, 6):
        state = desk.do("pair_round")
        state = desk.do("publish_round")
        for game in state.t.round(number).games:
            desk.do("enter_result", round=number, board=game.board, result=results[(game.white + game.black) % 3])
    standings = desk.state.standings()
    trf = trf_from_standings(standings, desk.state.t.name, 5, "ROUND_ROBIN")
    text = format_trf(trf)
    back = parse_trf(text)
    assert format_trf(back) == text
    record = record_from_trf(back, round_robin=True)
    again = compute_standings(record, desk.state.t.tiebreaks)
    assert [(r.rank, r.player.number, r.points, r.values) for r in again.rows] == [
        (r.rank, r.player.number, r.points, r.values) for r in standings.rows
    ]


def test_a_round_robin_withdrawal_keeps_or_annuls_the_games_by_tk_r10() -> None:
    desk = round_robin(4)
    for number in (1, 2):
        desk.do("pair_round")
        desk.do("publish_round")
        for game in desk.state.t.round(number).games:
            desk.do("enter_result", round=number, board=game.board, result="1-0")
    desk.do("pair_round")
    state = desk.do("withdraw", number=4, reason="left the city")  # 2 of 3 games played: results count
    state = desk.do("publish_round")
    record = state.t.record()
    last = [e for e in record.rounds_of(4) if e.round == 3]
    assert last and last[0].code is ResultCode.FORFEIT_LOSS
    assert 4 not in record.excluded
    early = round_robin(4)
    early.do("pair_round")
    early.do("publish_round")
    state = early.do("withdraw", number=1, after_round=0, reason="ill")  # no game played: annulled
    assert 1 in state.t.record().excluded
    assert state.standings().rows[-1].rank is None and state.standings().rows[-1].player.number == 1
