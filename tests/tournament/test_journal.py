"""The tournament event log: commands → events → state, replay, refusals that change nothing, the audit log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.codec import CodecError
from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Common, Refusal, RefusalCode, Refused
from toreshi.tournament.codes import ProtestCode, TournamentCode
from toreshi.tournament.journal import (
    COMMANDS,
    IMPORT_CHUNK,
    ResultOrigin,
    ResultSource,
    TournamentCommand,
    TournamentEvent,
    TournamentState,
    decide,
    decode_event,
    encode_event,
    evolve,
    parse_participants,
    replay,
    replay_stored,
)
from toreshi.tournament.journal.commands import (
    SYSTEM,
    AddParticipant,
    AddTeam,
    AllowPair,
    ByeKind,
    Configure,
    ConveneProtest,
    Create,
    DecideProtest,
    DeleteEntry,
    DiscardPairing,
    EditParticipant,
    EnterResult,
    FileProtest,
    ForbidPair,
    ImportParticipants,
    NotifyProtest,
    OverridePairing,
    PairRound,
    PayProtestFee,
    PublishRound,
    Readmit,
    RequestBye,
    SeedByRating,
    Setting,
    Warn,
    Withdraw,
)
from toreshi.tournament.journal.events import RoundPublished
from toreshi.tournament.journal.state import Acceleration
from toreshi.tournament.journal.values import FirstColour
from toreshi.tournament.model import GameResult, ResultCode, TournamentSystem
from toreshi.tournament.protests import FeeStatus, FilerRole, ProtestAction, ProtestStatus
from toreshi.tournament.standings import compute_standings, record_from_trf, trf_from_standings
from toreshi.tournament.trf import format_trf, parse_trf

from .refusals import assert_refusal, refused

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
SWISS = TournamentSystem.SWISS
LEGACY_LOG = Path(__file__).parent / "data" / "legacy_log.json"
Code = TournamentCode


class Desk:
    """Runs commands against a state and keeps the log, with a clock the test moves."""

    def __init__(self) -> None:
        self.state = TournamentState()
        self.log: list[TournamentEvent] = []
        self.now = START

    def context(self, by: str = "chief", role: str = "arbiter") -> Context:
        return Context(Actor(role, by), now_ms=0, meta={"at": self.now})

    def do(self, command: TournamentCommand, by: str = "chief", role: str = "arbiter") -> TournamentState:
        decision = decide(self.state, command, self.context(by, role))
        assert not isinstance(decision, Refusal), str(decision)
        for event in decision:
            self.state = evolve(self.state, event)
        self.log.extend(decision)
        return self.state

    def refused(self, command: TournamentCommand, code: RefusalCode, /, **params: str | int) -> Refusal:
        before = self.state
        decision = decide(self.state, command, self.context())
        assert isinstance(decision, Refusal), decision
        assert_refusal(decision, code, **params)
        assert self.state is before
        return decision


def swiss(players: int = 6, rounds: int = 3) -> Desk:
    desk = Desk()
    desk.do(Create(name="Club Swiss", system=SWISS, rounds=rounds, fee=1000, board=("A", "B"), committee=("C",)))
    for index in range(players):
        desk.do(AddParticipant(name=f"Player {index + 1}", rating=1800 - 10 * index))
    return desk


def round_robin(players: int) -> Desk:
    desk = Desk()
    desk.do(Create(name="Club RR", system=TournamentSystem.ROUND_ROBIN))
    for index in range(players):
        desk.do(AddParticipant(name=f"Player {index + 1}"))
    return desk


def read(command: str, /, **data: Any) -> TournamentCommand:
    """A command as a client sends it (JSON), read at the edge."""
    return COMMANDS.read(command, data)


def test_every_command_needs_the_servers_aware_time() -> None:
    create = Create(name="X", rounds=3)
    for meta in ({}, {"at": "2026-11-30T09:00:00+00:00"}, {"at": datetime(2026, 11, 30, 9, 0)}):
        with pytest.raises(TypeError, match="aware datetime"):  # the server's own stamp: a programming error
            decide(TournamentState(), create, Context(Actor("arbiter", "chief"), now_ms=0, meta=meta))


def test_creation_checks_the_settings() -> None:
    desk = Desk()
    desk.refused(Create(name="X", system=SWISS, rounds=0), Code.SWISS_NEEDS_ROUNDS)
    with refused(Common.FIELD_NOT_CHOICE, field="system", value="knockout"):
        read("create", name="X", system="knockout", rounds=3)
    desk.refused(Create(name="X", rounds=3, tiebreaks=("BH", "XYZ")), Code.UNKNOWN_TIEBREAK, tiebreak="XYZ")
    desk.refused(Create(name="X", rounds=3, tiebreaks=("DE/C1",)), Code.TIEBREAK_MODIFIER, tiebreak="DE/C1")
    desk.refused(Create(name="X", rounds=3, start="30.11.26"), Code.NOT_A_DATE, field="start")
    desk.refused(PairRound(), Code.NOT_CREATED)
    state = desk.do(Create(name="X", system=SWISS, rounds=5, tiebreaks=("bh/c1", "de"), fee=500, currency="kzt"))
    assert state.t.tiebreaks == ("BH/C1", "DE")
    assert (state.protest_settings.fee_amount, state.protest_settings.fee_currency) == (500, "KZT")
    desk.refused(Create(name="Y", system=SWISS, rounds=3), Code.ALREADY_CREATED)


def test_settings_can_be_cleared_and_are_fixed_once_paired() -> None:
    desk = swiss(players=4)
    state = desk.do(Configure(start="2026-11-30", end="2026-12-02", max_half_byes=1, expel_after=5))
    assert (state.t.start, state.t.bye_rules.max_half_point_byes) == (START.date(), 1)
    assert state.t.withdrawal_rules.expel_after_forfeit_losses == 5
    state = desk.do(Configure(start="", cleared=(Setting.MAX_HALF_BYES, Setting.EXPEL_AFTER), venue="Almaty"))
    assert state.t.start is None and state.t.end is not None and state.t.venue == "Almaty"
    assert state.t.bye_rules.max_half_point_byes is None and state.t.withdrawal_rules.expel_after_forfeit_losses is None
    desk.refused(Configure(start="2026-12-05", end="2026-12-01"), Code.ENDS_BEFORE_START, start="2026-12-05")
    desk.refused(Configure(rounds=0), Code.NO_ROUNDS)
    desk.do(PairRound())
    desk.refused(Configure(system=TournamentSystem.ROUND_ROBIN), Code.SYSTEM_FIXED)
    desk.do(PublishRound())
    desk.refused(Configure(rounds=0), Code.ROUNDS_BELOW_PLAYED, played=1, rounds=0)
    desk.refused(Configure(initial_colour=FirstColour.BLACK), Code.COLOUR_FIXED)


def test_participants_are_added_edited_and_numbered_by_rating() -> None:
    desk = Desk()
    desk.do(Create(name="X", system=SWISS, rounds=3))
    desk.do(AddParticipant(name="Low", rating=1200))
    desk.do(AddParticipant(name="High", rating=2100, club="Almaty"))
    with refused(Common.FIELD_NOT_INTEGER, field="rating"):
        read("add_participant", name="Bad", rating="strong")
    with refused(Common.FIELD_EMPTY, field="name"):
        read("add_participant", name="  ")
    desk.refused(AddParticipant(name="Odd", sex="x"), Common.FIELD_NOT_CHOICE, field="sex")
    state = desk.do(EditParticipant(number=1, name="Low Renamed", rating=1250, federation="kaz"))
    assert state.t.participant(1).name == "Low Renamed" and state.t.participant(1).rating == 1250
    assert state.t.participant(1).federation == "KAZ"
    desk.refused(EditParticipant(number=9, name="Nobody"), Code.UNKNOWN_PLAYER, number=9)
    state = desk.do(SeedByRating())
    assert [(p.number, p.name) for p in sorted(state.t.participants, key=lambda p: p.number)] == [
        (1, "High"),
        (2, "Low Renamed"),
    ]


def test_a_csv_import_reports_every_bad_line_and_imports_nothing() -> None:
    desk = swiss(players=2)
    text = "name,rating,club\nAbenov,1500,Almaty\nBekov,strong,\n,1400,\nDauletov,1300,Astana\nErlan,1,2,3\n"
    refusal = desk.refused(ImportParticipants(csv=text), Code.CSV_NOT_IMPORTED, problems=3)
    assert [(d.code, dict(d.params)) for d in refusal.details] == [
        (Common.FIELD_NOT_INTEGER, {"field": "rating", "line": 3}),
        (Common.FIELD_REQUIRED, {"field": "name", "line": 4}),
        (Code.CSV_TOO_MANY_CELLS, {"line": 6, "cells": 4, "columns": 3}),
    ]
    assert len(desk.state.t.participants) == 2
    with refused(Code.CSV_NOT_IMPORTED) as caught:
        parse_participants("name;elo\nA;1\n")
    assert_refusal(caught.value.refusal.details[0], Code.CSV_UNKNOWN_COLUMNS, line=1, columns="elo")
    state = desk.do(ImportParticipants(csv="Name;Rating;Team\nAbenov;1500;\nBekov;;\n"))
    assert [(p.number, p.name, p.rating) for p in state.t.participants[2:]] == [(3, "Abenov", 1500), (4, "Bekov", None)]


def test_a_csv_import_names_the_lines_the_rules_refuse_and_lists_fifty_problems() -> None:
    desk = swiss(players=0)
    refusal = desk.refused(ImportParticipants(csv="name,team\nAbay,Almaty\nBolat,x\n,y\n"), Code.CSV_NOT_IMPORTED)
    assert desk.state.t.teams == ()  # a refused import creates none of the teams it names
    many = "name,rating\n" + "\n".join(f"P{i},x" for i in range(60))
    refusal = desk.refused(ImportParticipants(csv=many), Code.CSV_NOT_IMPORTED, problems=60)
    assert len(refusal.details) == 51
    assert_refusal(refusal.details[-1], Code.CSV_MORE_PROBLEMS, count=10)
    refusal = desk.refused(ImportParticipants(csv="rating,name\n1500\n"), Code.CSV_NOT_IMPORTED, problems=1)
    assert_refusal(refusal.details[0], Common.FIELD_REQUIRED, field="name", line=2)  # a short line lacks the name
    for empty in ("", "name\n\n"):
        refusal = desk.refused(ImportParticipants(csv=empty), Code.CSV_NOT_IMPORTED)
        assert refusal.details[0].code in (Code.CSV_NO_HEADER, Code.CSV_EMPTY)


def test_a_large_import_is_split_into_several_events_of_one_command() -> None:
    desk = Desk()
    desk.do(Create(name="Open", system=SWISS, rounds=9))
    rows = "\n".join(f"Player {i},{2000 - i}" for i in range(IMPORT_CHUNK + 50))
    state = desk.do(ImportParticipants(csv="name,rating\n" + rows))
    assert len(state.t.participants) == IMPORT_CHUNK + 50
    assert [e.type for e in desk.log[1:]] == ["participants_imported", "participants_imported"]
    assert all(len(json.dumps(encode_event(e)[1])) < 64 * 1024 for e in desk.log)


def test_a_round_robin_is_paired_by_berger_with_a_pointless_bye() -> None:
    desk = round_robin(5)
    state = desk.do(PairRound())
    assert state.draft is not None and state.draft.method.value == "berger"
    assert state.t.rounds_planned == 5  # five players: five rounds, one sits out each
    assert state.draft.pairs == ((2, 5), (3, 4)) and state.draft.bye == 1  # FIDE table: 1-6 2-5 3-4
    state = desk.do(PublishRound())
    assert state.t.round(1).paired_at == START
    assert state.t.scoring.points(ResultCode.PAIRING_BYE) == 0
    desk.refused(AddParticipant(name="Late"), Code.ROUND_ROBIN_CLOSED)
    desk.refused(RequestBye(number=1, round=2), Code.BYES_SWISS_ONLY)
    state = desk.do(PairRound())  # a round robin may pair ahead of results
    assert state.draft is not None and state.draft.round == 2
    desk.refused(PairRound(), Code.DRAFT_PENDING, round=2)
    desk.refused(AddParticipant(name="Late"), Code.DRAFT_BLOCKS_ENTRIES, round=2)


def test_an_override_needs_a_reason_pairs_everyone_and_is_audited() -> None:
    desk = swiss(players=4)
    desk.do(PairRound())
    with refused(Common.FIELD_REQUIRED, field="reason"):
        read("override_pairing", pairs=[[1, 2], [3, 4]])
    desk.refused(OverridePairing(pairs=((1, 2),), bye=3, reason="x"), Code.NOT_PAIRED, round=1, players="4. Player 4")
    desk.refused(OverridePairing(pairs=((1, 2), (2, 3)), bye=4, reason="x"), Code.PAIRED_TWICE, players="2. Player 2")
    desk.refused(OverridePairing(pairs=((1, 1), (3, 4)), reason="x"), Code.PLAYS_ITSELF, player="1. Player 1")
    desk.refused(OverridePairing(pairs=((1, 2, 3),), reason="x"), Common.BAD_REQUEST, field="pairs")  # type: ignore[arg-type]
    state = desk.do(OverridePairing(pairs=((1, 2), (4, 3)), reason="brothers must not meet", confirmed=True),
                    by="deputy")  # fmt: skip
    assert state.draft is not None and state.draft.overridden and state.draft.pairs == ((1, 2), (4, 3))
    line = state.audit[-1]
    assert (line.by, line.action) == ("deputy", "pairing_overridden")
    assert dict(line.params) == {"round": 1, "pairs": "1–2, 4–3", "reason": "brothers must not meet"}
    state = desk.do(PublishRound())
    assert [(g.white, g.black) for g in state.t.round(1).games] == [(1, 2), (4, 3)]
    desk.refused(OverridePairing(pairs=((1, 2), (3, 4)), reason="late"), Code.NO_DRAFT)


def test_a_swiss_round_waits_for_the_previous_results() -> None:
    desk = swiss(players=4)
    desk.do(PairRound())
    desk.do(PublishRound())
    desk.refused(PairRound(), Code.ROUND_INCOMPLETE, round=1)
    desk.do(EnterResult(round=1, board=1, result="1-0"))
    desk.do(EnterResult(round=1, board=2, result="½-½", kazans=(81, 81)))
    state = desk.do(PairRound())
    assert state.draft is not None and state.draft.round == 2
    met = {frozenset(g) for g in ((g.white, g.black) for g in state.t.round(1).games)}
    assert not met & {frozenset(p) for p in state.draft.pairs}  # no rematch


def test_results_corrections_and_live_reports() -> None:
    desk = swiss(players=2, rounds=1)
    desk.do(PairRound())
    desk.do(PublishRound())
    desk.refused(EnterResult(round=1, board=1, result="2-0"), Common.FIELD_NOT_CHOICE, field="result", value="2-0")
    desk.refused(EnterResult(round=1, board=1, result="+ −", kazans=(1, 0)), Code.FORFEIT_HAS_NO_KAZANS, board=1)
    desk.refused(EnterResult(round=1, board=1, result="1-0", kazans=(100, 90)), Code.IMPOSSIBLE_KAZANS, white=100,
                 black=90)  # fmt: skip
    desk.refused(EnterResult(round=1, board=2, result="1-0"), Code.NO_BOARD, round=1, board=2)
    desk.refused(EnterResult(round=2, board=1, result="1-0"), Code.ROUND_NOT_PAIRED, round=2, paired=1)
    desk.do(EnterResult(round=1, board=1, result="1-0", kazans=(82, 40)))
    desk.refused(EnterResult(round=1, board=1, result="0-1"), Code.DEPARTURE_UNCONFIRMED,
                 term="departure.result_corrected")  # fmt: skip
    desk.refused(EnterResult(round=1, board=1, result="0-1", confirmed=True), Code.DEPARTURE_NEEDS_REASON,
                 term="departure.result_corrected")  # fmt: skip
    # A live game's late report never overwrites the arbiter's result; the same result again records nothing.
    live = decide(desk.state, EnterResult(round=1, board=1, result="0-1"), desk.context("live game", SYSTEM))
    assert live == []
    again = decide(desk.state, EnterResult(round=1, board=1, result="1-0", kazans=(82, 40)), desk.context())
    assert again == []
    desk.now = START + timedelta(hours=1)
    state = desk.do(EnterResult(round=1, board=1, result="0-1", reason="score sheet misread", confirmed=True))
    game = state.t.round(1).game(1)
    assert game.result is GameResult.BLACK_WINS and game.ended_at == START  # the correction keeps the end time
    line = state.audit[-1]
    assert line.action == "result_corrected" and line.at == START + timedelta(hours=1)
    assert dict(line.params) == {"round": 1, "board": 1, "result": "0-1", "previous": "1-0",
                                 "source_term": "result.arbiter", "reason": "score sheet misread"}  # fmt: skip


def test_a_game_rooms_report_is_a_live_result_with_the_games_end() -> None:
    desk = swiss(players=2, rounds=1)
    desk.do(PairRound())
    desk.do(PublishRound())
    ended = START + timedelta(minutes=42)
    state = desk.do(EnterResult(round=1, board=1, result="0-1", kazans=(50, 82), ended_at=ended), "live game", SYSTEM)
    assert state.t.round(1).game(1).ended_at == ended
    assert state.origin(1, 1) == ResultOrigin(ResultSource.LIVE)
    assert state.audit[-1].params["source_term"] == "result.live"


def test_withdrawals_byes_and_warnings() -> None:
    desk = swiss(players=5, rounds=3)
    desk.do(RequestBye(number=5, round=1, code=ByeKind.HALF))
    desk.refused(RequestBye(number=5, round=1, code=ByeKind.ZERO), Code.BYE_TAKEN, player="5. Player 5", round=1)
    with refused(Common.FIELD_NOT_CHOICE, field="code", value="F"):
        read("request_bye", number=4, round=1, code="F")
    state = desk.do(PairRound())
    assert state.draft is not None and 5 not in {p for pair in state.draft.pairs for p in pair}
    desk.refused(RequestBye(number=4, round=1), Code.ROUND_ALREADY_PAIRED, round=1)
    desk.do(PublishRound())
    for game in desk.state.t.round(1).games:
        desk.do(EnterResult(round=1, board=game.board, result="1-0"))
    desk.do(PairRound())
    desk.refused(Withdraw(number=2), Code.LEAVER_IS_PAIRED, round=2, player="2. Player 2")
    desk.do(DiscardPairing(reason="player 2 is ill"))
    state = desk.do(Withdraw(number=2, reason="ill"))
    assert state.t.leaving(2) is not None and state.t.leaving(2).after_round == 1  # type: ignore[union-attr]
    state = desk.do(PairRound())
    assert state.draft is not None and 2 not in {p for pair in state.draft.pairs for p in pair}
    state = desk.do(Warn(number=3, round=2, reason="talking during play", penalty="2 minutes"))
    assert state.warnings[-1].penalty == "2 minutes" and state.warnings[-1].by == "chief"
    with refused(Common.FIELD_REQUIRED, field="reason"):
        read("warn", number=3)
    desk.refused(Warn(number=9, reason="x"), Code.UNKNOWN_PLAYER, number=9)


def test_protests_follow_the_regulation_with_the_times_of_the_events() -> None:
    desk = swiss(players=2, rounds=2)
    desk.do(AddTeam(name="Almaty", representatives=("Rep A",), coaches=("Coach A",)))
    desk.do(PairRound())
    desk.do(PublishRound())
    desk.do(EnterResult(round=1, board=1, result="1-0"))  # ended at START
    desk.now = START + timedelta(minutes=10)
    desk.refused(FileProtest(round=1, board=1, filed_by="Stranger", text="unfair"), ProtestCode.NOT_A_FILER,
                 person="Stranger")  # fmt: skip
    state = desk.do(FileProtest(round=1, board=1, filed_by="Rep A", text="The clock was wrong."))
    protest = state.protest("P1")
    assert protest.status is ProtestStatus.AWAITING_FEE and protest.team == "Almaty"
    desk.now = START + timedelta(minutes=40)
    late = desk.do(FileProtest(round=1, board=1, filed_by="Coach A", role=FilerRole.COACH, text="Again."))
    assert late.protest("P2").status is ProtestStatus.NOT_ACCEPTED  # TK-P1: more than 30 minutes after the game
    desk.refused(FileProtest(id="P1", round=1, board=1, filed_by="Rep A", text="x"), Code.PROTEST_EXISTS,
                 protest="P1")  # fmt: skip
    desk.refused(PayProtestFee(id="P1", amount=500, currency="KZT"), ProtestCode.FEE_AMOUNT, amount=1000,
                 given=500)  # fmt: skip
    desk.refused(PayProtestFee(id="P9", amount=1000), Code.UNKNOWN_PROTEST, protest="P9")
    desk.do(PayProtestFee(id="P1", amount=1000, currency="KZT"))
    desk.refused(ConveneProtest(id="P1", board=("Z",), committee=("C",)), ProtestCode.NOT_MEMBERS, members="Z",
                 body_term="protest.board")  # fmt: skip
    desk.do(ConveneProtest(id="P1", board=("A", "B"), committee=("C",)))
    desk.do(DecideProtest(id="P1", upheld=True, members=("A", "C"), reasons="The clock was set wrongly.",
                          corrected_result="½-½"))  # fmt: skip
    state = desk.do(NotifyProtest(id="P1"))
    protest = state.protest("P1")
    assert protest.status is ProtestStatus.NOTIFIED and protest.fee is FeeStatus.REFUNDED
    assert state.t.round(1).game(1).result is GameResult.DRAW
    assert state.origin(1, 1) == ResultOrigin(ResultSource.PROTEST, "P1")
    assert [row.points for row in state.standings().rows] == [Fraction(1, 2), Fraction(1, 2)]
    assert [e.action for e in protest.log] == [
        ProtestAction.FILED, ProtestAction.AWAITING_FEE, ProtestAction.FEE_PAID, ProtestAction.MEETING,
        ProtestAction.UPHELD, ProtestAction.NOTIFIED,
    ]  # fmt: skip
    unplayed = swiss(players=2)
    unplayed.do(AddTeam(name="T", representatives=("R",)))
    unplayed.do(PairRound())
    unplayed.do(PublishRound())
    unplayed.refused(FileProtest(round=1, board=1, filed_by="R", text="x"), ProtestCode.NO_END_TIME, round=1, board=1)


def test_the_log_replays_to_the_same_state_after_a_json_round_trip() -> None:
    desk = swiss(players=7, rounds=3)
    for number in (1, 2):
        desk.do(PairRound())
        desk.do(PublishRound())
        for game in desk.state.t.round(number).games:
            desk.do(EnterResult(round=number, board=game.board, result="0-1" if game.board % 2 else "1-0"))
    stored = [json.loads(json.dumps(encode_event(e))) for e in desk.log]
    again = replay_stored((kind, payload) for kind, payload in stored)
    assert again == desk.state
    assert [r.player.number for r in again.standings().rows] == [r.player.number for r in desk.state.standings().rows]
    with pytest.raises(CodecError, match="unknown type"):
        decode_event("tournament_exploded", {"at": START.isoformat(), "by": "x"})
    with pytest.raises(CodecError, match="unknown fields"):
        decode_event("round_published", {"at": START.isoformat(), "by": "x", "round": 1, "extra": 1})
    with refused(Code.NO_DRAFT):
        evolve(again, RoundPublished(at=START, by="chief", round=3))


def test_a_log_written_before_the_events_were_typed_replays_to_the_same_tournament() -> None:
    """The log of a Swiss run through every page of the untyped journal (commit 2cc8803): settings cleared by a
    ``null``, a protest's numbers as the form's texts, a live game collected, corrections and protests."""
    written = json.loads(LEGACY_LOG.read_text(encoding="utf-8"))
    state = replay_stored((event["type"], event["payload"]) for event in written["log"])
    t, expected = state.t, written["state"]

    def iso(value: Any) -> str | None:
        return value.isoformat() if value is not None else None

    assert [t.name, t.system.value, t.rounds_planned, iso(t.start), iso(t.end), t.venue, t.time_control] == [
        expected[key] for key in ("name", "system", "rounds_planned", "start", "end", "venue", "time_control")
    ]
    assert list(t.tiebreaks) == expected["tiebreaks"]
    officials = t.officials
    assert [officials.chief_arbiter, list(officials.arbiters), list(officials.chief_arbiters_board),
            list(officials.appeals_committee)] == expected["officials"]  # fmt: skip
    assert t.withdrawal_rules.expel_after_forfeit_losses == expected["expel_after"] is None  # cleared by a null
    rules = t.bye_rules
    assert [rules.max_half_point_byes, rules.last_round_for_half_point_bye, rules.late_entry_until_round] == (
        expected["bye_rules"]
    )
    assert [str(t.scoring.pairing_bye), [state.protest_settings.fee_amount, state.protest_settings.fee_currency],
            state.initial_colour.value] == [expected["pairing_bye"], expected["fee"],
                                            expected["initial_colour"]]  # fmt: skip
    assert [[p.number, p.name, p.rating, p.club, p.team, p.federation_id, p.federation, p.title, p.sex,
             iso(p.birth_date)] for p in t.participants] == expected["participants"]  # fmt: skip
    assert [[x.name, list(x.representatives), list(x.coaches)] for x in t.teams] == expected["teams"]
    assert [[r.number, iso(r.paired_at), [[g.board, g.white, g.black, g.result.value if g.result else None,
             list(g.kazans) if g.kazans else None, iso(g.ended_at)] for g in r.games],
             [[b.player, b.code.value] for b in r.byes]] for r in t.rounds] == expected["rounds"]  # fmt: skip
    assert [[b.player, b.round, b.code.value] for b in t.bye_requests] == expected["bye_requests"]
    assert [[lv.player, lv.after_round, lv.kind.value, lv.reason] for lv in t.leavings] == expected["leavings"]
    assert [[p.id, p.status.value, p.fee.value, p.team, p.filed_by, p.role.value,
             p.decision.upheld if p.decision else None,
             p.decision.corrected_result.value if p.decision and p.decision.corrected_result else None]
            for p in state.protests] == expected["protests"]  # fmt: skip
    assert [[w.player, w.round, w.reason, w.penalty, w.by] for w in state.warnings] == expected["warnings"]
    sources = {
        f"{r},{b}": f"protest {o.protest}" if o.source is ResultSource.PROTEST else o.source.value
        for (r, b), o in sorted(state.result_sources.items())
    }
    assert sources == expected["result_sources"]
    assert {f"{r},{b}": room for (r, b), room in sorted(state.game_rooms.items())} == expected["game_rooms"]
    rows = [[row.rank, row.player.number, str(row.points)] for row in state.standings().rows]
    assert rows == expected["standings"]
    assert [[line.at.isoformat(), line.by, line.action] for line in state.audit] == expected["audit"]
    # Written again today, the same events read back to the same state.
    events = [decode_event(event["type"], event["payload"]) for event in written["log"]]
    assert replay_stored(json.loads(json.dumps([encode_event(e) for e in events]))) == state


def test_a_trf_export_reads_back_to_the_same_standings() -> None:
    desk = round_robin(6)
    desk.do(Configure(tiebreaks=("DE", "BPTS", "WIN", "SB")))
    results = ["1-0", "0-1", "½-½"]
    for number in range(1, 6):
        state = desk.do(PairRound())
        state = desk.do(PublishRound())
        for game in state.t.round(number).games:
            desk.do(EnterResult(round=number, board=game.board, result=results[(game.white + game.black) % 3]))
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
        desk.do(PairRound())
        desk.do(PublishRound())
        for game in desk.state.t.round(number).games:
            desk.do(EnterResult(round=number, board=game.board, result="1-0"))
    desk.do(PairRound())
    state = desk.do(Withdraw(number=4, reason="left the city"))  # 2 of 3 games played: results count
    state = desk.do(PublishRound())
    record = state.t.record()
    last = [e for e in record.rounds_of(4) if e.round == 3]
    assert last and last[0].code is ResultCode.FORFEIT_LOSS
    assert 4 not in record.excluded
    early = round_robin(4)
    early.do(PairRound())
    early.do(PublishRound())
    state = early.do(Withdraw(number=1, after_round=0, reason="ill"))  # no game played: annulled
    assert 1 in state.t.record().excluded
    assert state.standings().rows[-1].rank is None and state.standings().rows[-1].player.number == 1


COMMAND_CHOICES = st.one_of(
    st.builds(lambda n: AddParticipant(name=f"P{n}", rating=1000 + n), st.integers(0, 9)),
    st.just(PairRound()),
    st.just(PublishRound()),
    st.just(DiscardPairing()),
    st.builds(
        lambda b, r: EnterResult(round=1, board=b, result=r.value), st.integers(1, 3), st.sampled_from(list(GameResult))
    ),
    st.builds(
        lambda b, r: EnterResult(round=2, board=b, result=r.value, reason="x"),
        st.integers(1, 3),
        st.sampled_from(list(GameResult)),
    ),
    st.builds(lambda n, r: Withdraw(number=n, after_round=r), st.integers(1, 6), st.integers(0, 3)),
    st.builds(lambda n, r: RequestBye(number=n, round=r), st.integers(1, 6), st.integers(1, 3)),
    st.builds(lambda w, b: OverridePairing(pairs=((w, b),), reason="x"), st.integers(1, 6), st.integers(1, 6)),
    # the pairing tools (issue 17): forbidden pairs, re-entries, acceleration, a confirmed change
    st.builds(lambda a, b: ForbidPair(first=a, second=b), st.integers(1, 6), st.integers(1, 6)),
    st.builds(lambda a, b: AllowPair(first=a, second=b), st.integers(1, 6), st.integers(1, 6)),
    st.builds(lambda n, r: Readmit(number=n, round=r), st.integers(1, 6), st.integers(1, 3)),
    st.builds(lambda a: Configure(acceleration=a, late_entry_until=3), st.sampled_from(list(Acceleration))),
    st.builds(lambda w: OverridePairing(pairs=((w, 7 - w),), reason="x", confirmed=True), st.integers(1, 6)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(system=st.sampled_from(list(TournamentSystem)), commands=st.lists(COMMAND_CHOICES, max_size=25))
def test_any_commands_refuse_or_give_events_that_replay_from_their_json(
    system: TournamentSystem, commands: list[TournamentCommand]
) -> None:
    """Whatever arrives, ``decide`` refuses (with a code) or gives events; the stored log always replays to the
    state reached, and a refusal leaves the state as it was."""
    desk = Desk()
    desk.do(Create(name="Any", system=system, rounds=3))
    for command in commands:
        before = desk.state
        decision = decide(desk.state, command, desk.context())
        if isinstance(decision, Refusal):
            assert desk.state is before
            continue
        for event in decision:
            desk.state = evolve(desk.state, event)
        desk.log.extend(decision)
    stored = json.loads(json.dumps([encode_event(e) for e in desk.log]))
    assert replay_stored((kind, payload) for kind, payload in stored) == desk.state
    assert replay(desk.log) == desk.state
    with pytest.raises(Refused):
        desk.state.protest("none")


def test_the_board_meets_on_an_unpaid_protest_only_once_the_arbiter_is_warned() -> None:
    """TK-P4: with the fee unpaid the meeting closes the protest unconsidered; the arbiter is warned (a refusal that
    says so) and the protest stays open until the arbiter confirms."""
    desk = swiss(players=2, rounds=2)
    desk.do(AddTeam(name="Almaty", representatives=("Rep A",)))
    desk.do(PairRound())
    desk.do(PublishRound())
    desk.do(EnterResult(round=1, board=1, result="1-0"))
    desk.now = START + timedelta(minutes=10)
    desk.do(FileProtest(round=1, board=1, filed_by="Rep A", text="The clock was wrong."))
    desk.refused(ConveneProtest(id="P1", board=("A",), committee=("C",)), ProtestCode.CONVENE_UNPAID, protest="P1",
                 clause="TK-P4")  # fmt: skip
    assert desk.state.protest("P1").status is ProtestStatus.AWAITING_FEE
    state = desk.do(ConveneProtest(id="P1", board=("A",), committee=("C",), unpaid_confirmed=True))
    assert state.protest("P1").status is ProtestStatus.NOT_CONSIDERED_UNPAID


def test_an_entry_is_deleted_until_round_1_is_paired_and_the_log_keeps_it() -> None:
    desk = swiss(players=5)
    desk.do(ForbidPair(first=2, second=3, reason="siblings"))
    desk.do(RequestBye(number=3, round=2))
    state = desk.do(DeleteEntry(number=3, reason="entered twice", confirmed=True))
    assert [p.number for p in state.t.participants] == [1, 2, 4, 5]
    assert state.forbidden == () and state.t.bye_requests == ()
    assert replay(desk.log) == state  # the deletion replays from the log
    desk.refused(DeleteEntry(number=3), Code.UNKNOWN_PLAYER, number=3)
    desk.do(PairRound())
    desk.refused(DeleteEntry(number=5), Code.ENTRY_DELETE_AFTER_PAIRING, player="5. Player 5")
    desk.do(PublishRound())
    desk.refused(DeleteEntry(number=5), Code.ENTRY_DELETE_AFTER_PAIRING, player="5. Player 5")
