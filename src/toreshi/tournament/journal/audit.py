"""The audit log's particulars of each event: parameters (round, board, the pairs, the result and the one it
replaced, who was concerned, the reason), never a sentence — the page words them in its reader's language.

>>> from datetime import datetime
>>> from toreshi.tournament.journal.state import PairingMethod
>>> at = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
>>> event = RoundPaired(at=at, by="chief", round=1, method=PairingMethod.DUTCH, pairs=((1, 4), (3, 2)), bye=5)
>>> audit_params(None, event)
{'round': 1, 'pairs': '1–4, 3–2', 'bye': 5, 'method_term': 'pairing.dutch'}
"""

from __future__ import annotations

from toreshi.kit.refusal import ParamValue
from toreshi.tournament.journal.events import (
    ByeRequested,
    GameRoomLinked,
    PairingDiscarded,
    PairingOverridden,
    ParticipantAdded,
    ParticipantEdited,
    ParticipantExpelled,
    ParticipantsImported,
    ParticipantsRenumbered,
    ParticipantWithdrawn,
    ProtestConvened,
    ProtestDecided,
    ProtestFeePaid,
    ProtestFiled,
    ProtestNotified,
    ResultCorrected,
    ResultEntered,
    RoundPaired,
    RoundPublished,
    TeamAdded,
    TeamEdited,
    TournamentConfigured,
    TournamentCreated,
    TournamentEvent,
    WarningIssued,
)
from toreshi.tournament.model import Tournament

Params = dict[str, ParamValue]


def _pairs(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{white}–{black}" for white, black in pairs)


def _with(params: Params, **optional: ParamValue | None) -> Params:
    """``params`` and those of ``optional`` that are given (a reason, a bye: only when there is one)."""
    return {**params, **{key: value for key, value in optional.items() if value not in (None, "")}}


def audit_params(tournament: Tournament | None, event: TournamentEvent) -> Params:
    """The particulars of ``event``; players are named as the tournament (after the event) knows them."""

    def player(number: int) -> str:
        return tournament.label(number) if tournament is not None else str(number)

    match event:
        case TournamentCreated() | TournamentConfigured():
            return _with({}, name=event.name)
        case TeamAdded() | TeamEdited():
            return {"team": event.name}
        case ParticipantAdded() | ParticipantEdited():
            return {"player": player(event.number)}
        case ParticipantsImported():
            return {"count": len(event.participants)}
        case ParticipantsRenumbered():
            return {"count": len(event.order)}
        case ParticipantWithdrawn() | ParticipantExpelled():
            return _with({"player": player(event.number), "round": event.after_round}, reason=event.reason)
        case ByeRequested():
            return {"player": player(event.number), "round": event.round, "code": event.code.value}
        case RoundPaired():
            return _with({"round": event.round, "pairs": _pairs(event.pairs)}, bye=event.bye,
                         method_term=f"pairing.{event.method.value}")  # fmt: skip
        case PairingOverridden():
            return _with({"round": event.round, "pairs": _pairs(event.pairs)}, bye=event.bye, reason=event.reason)
        case PairingDiscarded():
            return _with({"round": event.round}, reason=event.reason)
        case RoundPublished():
            return {"round": event.round}
        case GameRoomLinked():
            return {"round": event.round, "board": event.board, "room": event.room_id}
        case ResultCorrected():
            return {"round": event.round, "board": event.board, "result": event.result.value,
                    "previous": event.previous.value, "source_term": f"result.{event.source.value}",
                    "reason": event.reason}  # fmt: skip
        case ResultEntered():
            return _with({"round": event.round, "board": event.board, "result": event.result.value,
                          "source_term": f"result.{event.source.value}"},
                         kazans=f"{event.kazans[0]}:{event.kazans[1]}" if event.kazans else None)  # fmt: skip
        case WarningIssued():
            return _with({"player": player(event.number), "reason": event.reason}, round=event.round,
                         penalty=event.penalty)  # fmt: skip
        case ProtestFiled():
            return {"protest": event.id, "round": event.round, "board": event.board, "person": event.filed_by}
        case ProtestFeePaid():
            return {"protest": event.id, "amount": event.amount}
        case ProtestConvened() | ProtestNotified():
            return {"protest": event.id}
        case ProtestDecided():
            verdict = "protest.upheld" if event.upheld else "protest.rejected"
            return _with({"protest": event.id, "verdict_term": verdict},
                         result=event.corrected_result.value if event.corrected_result else None)  # fmt: skip
