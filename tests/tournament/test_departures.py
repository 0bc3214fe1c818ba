"""Departures from the regulation (issue 29): each warning level asks what it says — nothing (info), the arbiter's
confirmation, or a written reason — and an allowed departure is recorded in the log with who, when, the kind, the
level and the reason, replayed from the stored log like every event."""

from __future__ import annotations

from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import decode_event, encode_event, replay
from toreshi.tournament.journal.commands import (
    AddParticipant,
    Configure,
    DeleteEntry,
    EnterResult,
    Expel,
    OverridePairing,
    PairRound,
    PublishRound,
    Readmit,
    Withdraw,
)
from toreshi.tournament.journal.departures import LEVELS, DepartureKind, Level
from toreshi.tournament.journal.state import AuditLine, TournamentState

from .test_journal import Desk, swiss

Code = TournamentCode


def _departures(state: TournamentState) -> list[AuditLine]:
    return [line for line in state.audit if line.action == "departure_recorded"]


def _round_one(desk: Desk) -> None:
    desk.do(PairRound())
    desk.do(PublishRound())
    for game in desk.state.t.round(1).games:
        desk.do(EnterResult(round=1, board=game.board, result="1-0"))


def test_every_kind_has_a_level_and_the_three_levels_are_used() -> None:
    assert set(LEVELS) == set(DepartureKind)
    assert set(LEVELS.values()) == set(Level)


def test_info_a_withdrawal_goes_ahead_without_confirmation_and_is_logged() -> None:
    desk = swiss(players=6)
    _round_one(desk)
    state = desk.do(Withdraw(number=2), by="deputy")
    *_, departure, withdrawn = state.audit
    assert withdrawn.action == "participant_withdrawn"  # the action's own line stays the last
    assert (departure.by, departure.at, departure.action) == ("deputy", desk.now, "departure_recorded")
    assert dict(departure.params) == {"departure_term": "departure.withdrawn", "level_term": "level.info",
                                      "round": 1, "player": "2. Player 2"}  # fmt: skip


def test_confirm_a_late_entry_needs_the_arbiters_confirmation() -> None:
    desk = swiss(players=6)
    desk.do(Configure(late_entry_until=3))
    assert not _departures(desk.state)  # entries before round 1 is paired are no departure
    _round_one(desk)
    desk.refused(AddParticipant(name="Late"), Code.DEPARTURE_UNCONFIRMED, term="departure.late_entry", level="confirm")
    assert len(desk.state.t.participants) == 6
    state = desk.do(AddParticipant(name="Late", confirmed=True))
    assert len(state.t.participants) == 7
    (line,) = _departures(state)
    assert line.params["level_term"] == "level.confirm" and line.params["departure_term"] == "departure.late_entry"


def test_confirm_a_forfeit_by_hand_but_not_one_a_game_room_reports() -> None:
    desk = swiss(players=4)
    desk.do(PairRound())
    desk.do(PublishRound())
    forfeit = EnterResult(round=1, board=1, result="+ −")
    desk.refused(forfeit, Code.DEPARTURE_UNCONFIRMED, term="departure.forfeit_entered", level="confirm")
    state = desk.do(EnterResult(round=1, board=1, result="+ −", confirmed=True))
    assert [line.params["departure_term"] for line in _departures(state)] == ["departure.forfeit_entered"]
    state = desk.do(EnterResult(round=1, board=2, result="− +"), by="", role="system")  # the game room's report
    assert len(_departures(state)) == 1


def test_reason_a_correction_needs_a_written_reason_and_after_the_next_pairing_says_so() -> None:
    desk = swiss(players=4)
    _round_one(desk)
    desk.refused(EnterResult(round=1, board=1, result="0-1"), Code.DEPARTURE_NEEDS_REASON,
                 term="departure.result_corrected", level="reason")  # fmt: skip
    state = desk.do(EnterResult(round=1, board=1, result="0-1", reason="the scoresheet"))
    assert _departures(state)[-1].params["reason"] == "the scoresheet"
    desk.do(PairRound())
    desk.refused(EnterResult(round=1, board=1, result="1-0"), Code.DEPARTURE_NEEDS_REASON,
                 term="departure.result_after_next_pairing", level="reason")  # fmt: skip
    state = desk.do(EnterResult(round=1, board=1, result="1-0", reason="the board's decision"))
    line = _departures(state)[-1]
    assert dict(line.params) == {"departure_term": "departure.result_after_next_pairing", "level_term": "level.reason",
                                 "round": 1, "board": 1, "reason": "the board's decision"}  # fmt: skip


def test_reason_an_expulsion_a_re_entry_and_a_manual_pairing_each_need_a_reason() -> None:
    desk = swiss(players=6, rounds=4)
    _round_one(desk)
    desk.refused(Expel(number=3), Code.DEPARTURE_NEEDS_REASON, term="departure.expelled", level="reason")
    desk.do(Expel(number=3, reason="abuse of the arbiter"))
    desk.do(Withdraw(number=4))
    desk.do(Configure(late_entry_until=4))  # re-entries open
    desk.refused(Readmit(number=4), Code.DEPARTURE_NEEDS_REASON, term="departure.readmitted", level="reason")
    desk.do(Readmit(number=4, reason="recovered"))
    state = desk.do(PairRound())
    assert state.draft is not None
    pairs, bye = state.draft.pairs, state.draft.bye
    state = desk.do(OverridePairing(pairs=tuple((b, a) for a, b in pairs), bye=bye, reason="siblings", confirmed=True))
    kinds = [(line.params["departure_term"], line.params.get("reason")) for line in _departures(state)]
    assert kinds == [("departure.expelled", "abuse of the arbiter"), ("departure.withdrawn", None),
                     ("departure.readmitted", "recovered"), ("departure.pairing_changed", "siblings")]  # fmt: skip


def test_the_actions_own_refusal_comes_before_the_warning() -> None:
    desk = swiss(players=4)
    desk.refused(DeleteEntry(number=9), Code.UNKNOWN_PLAYER, number=9)  # not "confirm it" for a player who is not
    desk.refused(DeleteEntry(number=2), Code.DEPARTURE_UNCONFIRMED, term="departure.entry_deleted", level="confirm")


def test_departures_replay_from_the_stored_log() -> None:
    desk = swiss(players=4)
    _round_one(desk)
    desk.do(EnterResult(round=1, board=1, result="0-1", reason="the scoresheet"))
    stored = [encode_event(event) for event in desk.log]
    assert "departure_recorded" in [kind for kind, _ in stored]
    assert replay(decode_event(kind, payload) for kind, payload in stored) == desk.state
