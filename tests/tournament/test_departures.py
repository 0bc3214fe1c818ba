"""Departures from the regulation (issue 29): every arbiter action the issue lists — a manual pairing change, a
forced bye, a result corrected, a forfeit, a late entry, an override of the withdrawal rule (a re-entry), a clock
corrected by more than the tournament's amount — and the other departures (an expulsion, an entry deleted, a result
changed after the next pairing) are refused without the arbiter's confirmation, refused without a written reason,
and with both go ahead and are recorded with who, when, the kind, the level and the reason. ``info`` (a withdrawal,
a draft thrown away) asks nothing and is logged. The levels are one table; stored logs replay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import decide, decode_event, encode_event, replay
from toreshi.tournament.journal.commands import (
    AddParticipant,
    Configure,
    DeleteEntry,
    DiscardPairing,
    EnterResult,
    Expel,
    OverridePairing,
    PairRound,
    PublishRound,
    Readmit,
    RecordClockCorrection,
    TournamentCommand,
    Withdraw,
)
from toreshi.tournament.journal.departures import CLAUSES, LEVELS, DepartureKind, Level
from toreshi.tournament.journal.state import AuditLine, TournamentState

from .refusals import assert_refusal
from .test_journal import Desk, swiss

Code = TournamentCode
Command = Callable[[bool, str], TournamentCommand]
"""A departing command, given whether the arbiter confirmed it and the reason written."""


def _departures(state: TournamentState) -> list[AuditLine]:
    return [line for line in state.audit if line.action == "departure_recorded"]


def _round_one(desk: Desk, result: str = "1-0") -> None:
    desk.do(PairRound())
    desk.do(PublishRound())
    for game in desk.state.t.round(1).games:
        desk.do(EnterResult(round=1, board=game.board, result=result))


@dataclass(frozen=True)
class Case:
    """A tournament just before a departure of ``kind``, and the command that departs (as the arbiter, or the
    service carrying a game room's clock correction: ``role``)."""

    desk: Desk
    command: Command
    role: str = "arbiter"
    unconfirmed: TournamentCode = Code.DEPARTURE_UNCONFIRMED
    """The first refusal without the confirmation: the action's own warning where it has a more telling one."""


def _late_entry() -> Case:
    desk = swiss(players=6)
    desk.do(Configure(late_entry_until=3))
    _round_one(desk)
    return Case(desk, lambda yes, why: AddParticipant(name="Late", confirmed=yes, reason=why))


def _forfeit() -> Case:
    desk = swiss(players=4)
    desk.do(PairRound())
    desk.do(PublishRound())
    return Case(desk, lambda yes, why: EnterResult(round=1, board=1, result="+ −", confirmed=yes, reason=why))


def _corrected() -> Case:
    desk = swiss(players=4)
    _round_one(desk)
    return Case(desk, lambda yes, why: EnterResult(round=1, board=1, result="0-1", confirmed=yes, reason=why))


def _after_next_pairing() -> Case:
    desk = swiss(players=4)
    _round_one(desk)
    desk.do(PairRound())
    return Case(desk, lambda yes, why: EnterResult(round=1, board=1, result="0-1", confirmed=yes, reason=why))


def _pairing_changed() -> Case:
    desk = swiss(players=6)
    state = desk.do(PairRound())
    assert state.draft is not None
    (a, b), (c, d), rest = state.draft.pairs[0], state.draft.pairs[1], state.draft.pairs[2:]
    pairs = ((a, d), (c, b), *rest)  # the same bye (none), two opponents swapped
    return Case(desk, lambda yes, why: OverridePairing(pairs=pairs, reason=why, confirmed=yes),
                unconfirmed=Code.OVERRIDE_BREAKS_CRITERIA)  # fmt: skip


def _forced_bye() -> Case:
    desk = swiss(players=5)
    state = desk.do(PairRound())
    assert state.draft is not None and state.draft.bye is not None
    engine_bye, ((white, black), *rest) = state.draft.bye, state.draft.pairs
    pairs = ((engine_bye, black), *rest)  # the engine's bye plays; White of board 1 gets the bye
    return Case(desk, lambda yes, why: OverridePairing(pairs=pairs, bye=white, reason=why, confirmed=yes),
                unconfirmed=Code.OVERRIDE_BREAKS_CRITERIA)  # fmt: skip


def _expelled() -> Case:
    desk = swiss(players=6)
    _round_one(desk)
    return Case(desk, lambda yes, why: Expel(number=3, reason=why, confirmed=yes))


def _readmitted() -> Case:
    desk = swiss(players=6, rounds=4)
    _round_one(desk)
    desk.do(Withdraw(number=4))
    desk.do(Configure(late_entry_until=4))  # re-entries open
    return Case(desk, lambda yes, why: Readmit(number=4, reason=why, confirmed=yes))


def _entry_deleted() -> Case:
    return Case(swiss(players=4), lambda yes, why: DeleteEntry(number=2, reason=why, confirmed=yes))


def _clock_corrected() -> Case:
    desk = swiss(players=4)
    desk.do(PairRound())
    desk.do(PublishRound())
    white = desk.state.t.round(1).game(1).white
    at = desk.now - timedelta(minutes=20)
    return Case(desk, lambda yes, why: RecordClockCorrection(
        round=1, board=1, number=white, delta_ms=180_000, at_ms=1_200_000, corrected_at=at, arbiter="deputy",
        reason=why, confirmed=yes), role="system")  # fmt: skip


CASES: dict[DepartureKind, Callable[[], Case]] = {
    DepartureKind.LATE_ENTRY: _late_entry,
    DepartureKind.FORFEIT_ENTERED: _forfeit,
    DepartureKind.RESULT_CORRECTED: _corrected,
    DepartureKind.RESULT_AFTER_NEXT_PAIRING: _after_next_pairing,
    DepartureKind.PAIRING_CHANGED: _pairing_changed,
    DepartureKind.FORCED_BYE: _forced_bye,
    DepartureKind.EXPELLED: _expelled,
    DepartureKind.READMITTED: _readmitted,
    DepartureKind.ENTRY_DELETED: _entry_deleted,
    DepartureKind.CLOCK_CORRECTED: _clock_corrected,
}


def _decide(case: Case, command: TournamentCommand) -> object:
    return decide(case.desk.state, command, case.desk.context(role=case.role))


def test_every_kind_has_a_level_the_three_levels_are_used_and_every_asking_kind_is_tested() -> None:
    assert set(LEVELS) == set(DepartureKind)
    assert set(LEVELS.values()) == set(Level)
    assert set(CASES) == {kind for kind, level in LEVELS.items() if level.asks}
    assert {kind for kind, level in LEVELS.items() if not level.asks} == {
        DepartureKind.WITHDRAWN, DepartureKind.PAIRING_DISCARDED}  # fmt: skip
    assert LEVELS[DepartureKind.FORCED_BYE] is Level.SERIOUS and LEVELS[DepartureKind.READMITTED] is Level.SERIOUS
    assert CLAUSES[DepartureKind.FORCED_BYE] == "TK-B1" and CLAUSES[DepartureKind.CLOCK_CORRECTED] == "TK-B3"


@pytest.mark.parametrize("kind", list(CASES), ids=lambda kind: kind.value)
def test_refused_without_the_confirmation(kind: DepartureKind) -> None:
    case = CASES[kind]()
    before = case.desk.state
    decision = _decide(case, case.command(False, "a reason"))
    assert isinstance(decision, Refusal)
    if case.unconfirmed is Code.DEPARTURE_UNCONFIRMED:
        assert_refusal(decision, Code.DEPARTURE_UNCONFIRMED, term=f"departure.{kind.value}", level=LEVELS[kind].value)
    else:
        assert decision.code in (case.unconfirmed, Code.DEPARTURE_UNCONFIRMED), str(decision)
    assert case.desk.state is before


@pytest.mark.parametrize("kind", list(CASES), ids=lambda kind: kind.value)
def test_refused_without_a_reason_even_confirmed(kind: DepartureKind) -> None:
    case = CASES[kind]()
    for blank in ("", "   "):
        decision = _decide(case, case.command(True, blank))
        assert isinstance(decision, Refusal)
        assert_refusal(decision, Code.DEPARTURE_NEEDS_REASON, term=f"departure.{kind.value}", level=LEVELS[kind].value)


@pytest.mark.parametrize("kind", list(CASES), ids=lambda kind: kind.value)
def test_accepted_with_both_and_recorded_with_who_when_what_why_and_level(kind: DepartureKind) -> None:
    case = CASES[kind]()
    lines = len(case.desk.state.audit)
    state = case.desk.do(case.command(True, "  the arbiters' decision "), by="deputy", role=case.role)
    (line,) = _departures(TournamentState(audit=state.audit[lines:]))
    assert line.by == "deputy"
    assert line.at == (case.desk.now - timedelta(minutes=20) if kind is DepartureKind.CLOCK_CORRECTED
                       else case.desk.now)  # fmt: skip
    assert line.params["departure_term"] == f"departure.{kind.value}"
    assert line.params["level_term"] == f"level.{LEVELS[kind].value}"
    assert line.params["reason"] == "the arbiters' decision"
    assert state.audit[-1].action != "departure_recorded"  # the action's own line stays the last


def test_info_a_withdrawal_and_a_discarded_draft_go_ahead_without_anything_and_are_logged() -> None:
    desk = swiss(players=6)
    _round_one(desk)
    state = desk.do(Withdraw(number=2), by="deputy")
    *_, departure, withdrawn = state.audit
    assert withdrawn.action == "participant_withdrawn"
    assert (departure.by, departure.at, departure.action) == ("deputy", desk.now, "departure_recorded")
    assert dict(departure.params) == {"departure_term": "departure.withdrawn", "level_term": "level.info",
                                      "round": 1, "player": "2. Player 2"}  # fmt: skip
    desk.do(PairRound())
    state = desk.do(DiscardPairing())
    assert _departures(state)[-1].params["level_term"] == "level.info"
    assert state.draft is None


def test_a_forfeit_a_game_room_reports_is_no_departure() -> None:
    desk = swiss(players=4)
    desk.do(PairRound())
    desk.do(PublishRound())
    state = desk.do(EnterResult(round=1, board=2, result="− +"), by="", role="system")
    assert not _departures(state)


def test_the_engines_own_bye_kept_is_a_pairing_change_not_a_forced_bye() -> None:
    desk = swiss(players=5)
    state = desk.do(PairRound())
    assert state.draft is not None
    pairs = tuple((black, white) for white, black in state.draft.pairs)
    state = desk.do(OverridePairing(pairs=pairs, bye=state.draft.bye, reason="colours", confirmed=True))
    assert [line.params["departure_term"] for line in _departures(state)] == ["departure.pairing_changed"]


def test_a_clock_correction_is_carried_once_and_only_by_the_service() -> None:
    case = _clock_corrected()
    command = case.command(True, "clock fault")
    assert isinstance(command, RecordClockCorrection)
    refused = decide(case.desk.state, command, case.desk.context())  # the arbiter cannot type one in
    assert isinstance(refused, Refusal) and refused.code is Code.LIVE_RESULTS_ONLY
    state = case.desk.do(command, role="system")
    corrected = state.audit[-1]
    assert corrected.action == "clock_corrected"
    assert dict(corrected.params) == {"round": 1, "board": 1, "player": state.t.label(command.number),
                                      "change": "+3:00", "reason": "clock fault"}  # fmt: skip
    assert decide(state, command, Context(Actor("system", ""), now_ms=0, meta={"at": case.desk.now})) == []


def test_the_actions_own_refusal_comes_before_the_warning() -> None:
    desk = swiss(players=4)
    desk.refused(DeleteEntry(number=9), Code.UNKNOWN_PLAYER, number=9)  # not "confirm it" for a player who is not
    desk.refused(DeleteEntry(number=2), Code.DEPARTURE_UNCONFIRMED, term="departure.entry_deleted", level="warning")


def test_departures_replay_from_the_stored_log_and_old_levels_read_as_severities() -> None:
    desk = swiss(players=4)
    _round_one(desk)
    desk.do(EnterResult(round=1, board=1, result="0-1", reason="the scoresheet", confirmed=True))
    stored = [encode_event(event) for event in desk.log]
    assert "departure_recorded" in [kind for kind, _ in stored]
    assert replay(decode_event(kind, payload) for kind, payload in stored) == desk.state
    # A log written when the levels named what they asked ("confirm", "reason") reads as today's severities.
    old = [(kind, {**payload, "level": "reason"} if kind == "departure_recorded" else payload)
           for kind, payload in stored]  # fmt: skip
    line = _departures(replay(decode_event(kind, payload) for kind, payload in old))[-1]
    assert line.params["level_term"] == "level.serious"
    assert Level("confirm") is Level.WARNING
