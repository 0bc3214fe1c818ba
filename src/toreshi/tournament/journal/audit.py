"""The audit log's particulars of each event: parameters (round, board, the pairs, the result and the one it
replaced, who was concerned, the reason), never a sentence — the page words them in its reader's language.

>>> from datetime import datetime
>>> from toreshi.tournament.journal.state import PairingMethod
>>> at = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
>>> event = ev.RoundPaired(at=at, by="chief", round=1, method=PairingMethod.DUTCH, pairs=((1, 4), (3, 2)), bye=5)
>>> audit_params(None, event)
{'round': 1, 'pairs': '1–4, 3–2', 'bye': 5, 'method_term': 'pairing.dutch'}
"""

from __future__ import annotations

from toreshi.kit.refusal import ParamValue
from toreshi.tournament.journal import events as ev
from toreshi.tournament.journal.events import TournamentEvent
from toreshi.tournament.model import Tournament

Params = dict[str, ParamValue]


def _pairs(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{white}–{black}" for white, black in pairs)


def _with(params: Params, **optional: ParamValue | None) -> Params:
    """``params`` and those of ``optional`` that are given (a reason, a bye: only when there is one)."""
    return {**params, **{key: value for key, value in optional.items() if value not in (None, "")}}


def clock_change(delta_ms: int) -> str:
    """A clock correction as a signed time: ``+2:00``, ``-0:45``, ``+1:00:00``.

    >>> clock_change(120_000), clock_change(-45_500), clock_change(3_600_000)
    ('+2:00', '-0:45', '+1:00:00')
    """
    sign = "-" if delta_ms < 0 else "+"
    seconds = abs(delta_ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02}:{seconds:02}" if hours else f"{sign}{minutes}:{seconds:02}"


def audit_params(tournament: Tournament | None, event: TournamentEvent) -> Params:
    """The particulars of ``event``; players are named as the tournament (after the event) knows them."""

    def player(number: int) -> str:
        return tournament.label(number) if tournament is not None else str(number)

    match event:
        case ev.TournamentCreated() | ev.TournamentConfigured():
            return _with({}, name=event.name)
        case ev.TeamAdded() | ev.TeamEdited():
            return {"team": event.name}
        case ev.ParticipantAdded() | ev.ParticipantEdited():
            return {"player": player(event.number)}
        case ev.ParticipantsImported():
            return {"count": len(event.participants)}
        case ev.ParticipantsRenumbered():
            return {"count": len(event.order)}
        case ev.LotsDrawn():
            colour = f"colour.{event.initial_colour.value}"
            return {"seed": event.seed, "count": len(event.order), "colour_term": colour}
        case ev.EntryDeleted():
            return _with({"player": f"{event.name} ({event.number})"}, reason=event.reason)
        case ev.ParticipantWithdrawn() | ev.ParticipantExpelled():
            return _with({"player": player(event.number), "round": event.after_round}, reason=event.reason)
        case ev.ByeRequested():
            return {"player": player(event.number), "round": event.round, "code": event.code.value}
        case ev.RoundPaired():
            return _with({"round": event.round, "pairs": _pairs(event.pairs)}, bye=event.bye,
                         method_term=f"pairing.{event.method.value}",
                         absent=", ".join(player(number) for number in event.absent))  # fmt: skip
        case ev.PairingOverridden():
            return _with({"round": event.round, "pairs": _pairs(event.pairs)}, bye=event.bye, reason=event.reason,
                         criteria=", ".join(event.criteria))  # fmt: skip
        case ev.PairingDiscarded():
            return _with({"round": event.round}, reason=event.reason)
        case ev.RoundPublished():
            return {"round": event.round}
        case ev.GameRoomLinked():
            return {"round": event.round, "board": event.board, "room": event.room_id}
        case ev.ResultCorrected():
            return {"round": event.round, "board": event.board, "result": event.result.value,
                    "previous": event.previous.value, "source_term": f"result.{event.source.value}",
                    "reason": event.reason}  # fmt: skip
        case ev.ResultEntered():
            return _with({"round": event.round, "board": event.board, "result": event.result.value,
                          "source_term": f"result.{event.source.value}"},
                         kazans=f"{event.kazans[0]}:{event.kazans[1]}" if event.kazans else None)  # fmt: skip
        case ev.WarningIssued():
            return _with({"player": player(event.number), "reason": event.reason}, round=event.round,
                         penalty=event.penalty)  # fmt: skip
        case ev.EvaluationSet():
            return {"evaluation_term": "evaluation.shown" if event.shown else "evaluation.off",
                    "minutes": event.delay_minutes}  # fmt: skip
        case ev.ProtestFiled():
            return {"protest": event.id, "round": event.round, "board": event.board, "person": event.filed_by}
        case ev.ProtestFeePaid():
            return {"protest": event.id, "amount": event.amount}
        case ev.ProtestConvened() | ev.ProtestNotified():
            return {"protest": event.id}
        case ev.ParticipantReadmitted():
            return {"player": player(event.number), "round": event.round}
        case ev.PairsForbidden():
            return _with({"pairs": _pairs(event.pairs), "count": len(event.pairs),
                          "source_term": f"forbidden.{event.source.value}"}, reason=event.reason)  # fmt: skip
        case ev.PairsAllowed():
            return {"pairs": _pairs(event.pairs)}
        case ev.CheckedIn():
            return {"player": player(event.number), "round": event.round,
                    "presence_term": "check_in.present" if event.present else "check_in.out"}  # fmt: skip
        case ev.ResultReported():
            return _with({"round": event.round, "board": event.board, "player": player(event.number),
                          "result": event.result.value},
                         kazans=f"{event.kazans[0]}:{event.kazans[1]}" if event.kazans else None)  # fmt: skip
        case ev.RoundConfirmed():
            return {"round": event.round, "boards": ", ".join(str(board) for board in event.boards)}
        case ev.ClockCorrected():
            return _with({"round": event.round, "board": event.board, "player": player(event.number),
                          "change": clock_change(event.delta_ms)}, reason=event.reason)  # fmt: skip
        case ev.DepartureRecorded():
            named = f"{event.player}. {event.name}" if event.name and event.player is not None else None
            where = {
                "round": event.round,
                "board": event.board,
                "player": named or (player(event.player) if event.player is not None else None),
            }
            terms: Params = {
                "departure_term": f"departure.{event.kind.value}",
                "level_term": f"level.{event.level.value}",
            }
            return _with(terms, **where, reason=event.reason)
        case ev.ProtestDecided():
            verdict = "protest.upheld" if event.upheld else "protest.rejected"
            return _with({"protest": event.id, "verdict_term": verdict},
                         result=event.corrected_result.value if event.corrected_result else None)  # fmt: skip
