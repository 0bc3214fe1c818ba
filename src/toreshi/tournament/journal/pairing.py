"""Pairing a round: the Berger tables for a round robin, the FIDE Dutch engine for a Swiss; the draft the arbiter
may override (with a reason) or discard, until it is published.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.tournament.berger import berger_round, berger_rounds
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.check_in import absent_forfeits, absent_players, with_absences, without_absences
from toreshi.tournament.journal.commands import DiscardPairing, OverridePairing, PairRound, PublishRound
from toreshi.tournament.journal.events import (
    PairingDiscarded,
    PairingOverridden,
    ResultEntered,
    RoundPaired,
    RoundPublished,
    Stamp,
)
from toreshi.tournament.journal.pairing_tools import engine_accelerations, engine_forbidden
from toreshi.tournament.journal.state import DraftRound, PairingChange, PairingMethod, TournamentState
from toreshi.tournament.model import Colour, ResultCode, Tournament, TournamentSystem
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound
from toreshi.tournament.trf_pairing import Acceleration, ForbiddenPairs

if TYPE_CHECKING:
    from toreshi.tournament.dutch.review import Violation

Pairs = tuple[tuple[int, int], ...]


def berger_pairing(tournament: Tournament, round_number: int) -> tuple[Pairs, int | None]:
    """Round ``round_number`` of the round robin by the Berger tables, Berger numbers = pairing-number order."""
    numbers = sorted(p.number for p in tournament.participants)
    if len(numbers) < 2:
        raise Refused(Code.ROUND_ROBIN_TOO_SMALL)
    double = tournament.system is TournamentSystem.DOUBLE_ROUND_ROBIN
    boards = berger_round(len(numbers), round_number, double=double)
    pairs = tuple((numbers[b.white - 1], numbers[b.black - 1]) for b in boards if b.black is not None)
    byes = [numbers[b.white - 1] for b in boards if b.black is None]
    return pairs, byes[0] if byes else None


def round_robin_rounds(tournament: Tournament) -> int:
    double = tournament.system is TournamentSystem.DOUBLE_ROUND_ROBIN
    return berger_rounds(len(tournament.participants), double=double)


def pairing_trf(tournament: Tournament, initial_colour: Colour = Colour.WHITE) -> TrfFile:
    """The TRF the Dutch engine pairs the next round from: rounds 1..N-1 and the round-N absences (H, Z)."""
    number = len(tournament.rounds) + 1
    record = tournament.record()
    to_pair = set(tournament.players_to_pair(number))
    requested = {b.player: b.code for b in tournament.bye_requests if b.round == number}
    lines: list[PlayerRecord | RawLine] = [
        RawLine(f"012 {tournament.name}"),
        RawLine(f"XXR {tournament.rounds_planned}"),
        RawLine("XXC " + ("white1" if initial_colour is Colour.WHITE else "black1")),
    ]
    for p in sorted(tournament.participants, key=lambda p: p.number):
        blocks: list[TrfRound | None] = []
        entries = record.entries.get(p.number, {})
        for rnd in range(1, number):
            entry = entries.get(rnd)
            if entry is None:
                blocks.append(TrfRound(None, None, ResultCode.ZERO_BYE))
            else:
                colour = entry.colour if entry.code.has_opponent else None
                blocks.append(TrfRound(entry.opponent, colour, entry.code))
        if p.number not in to_pair:
            blocks.append(TrfRound(None, None, requested.get(p.number, ResultCode.ZERO_BYE)))
        lines.append(PlayerRecord(p.number, p.name, rating=p.rating, rounds=tuple(blocks)))
    return TrfFile(tuple(lines))


def dutch_pairing(
    tournament: Tournament,
    initial_colour: Colour,
    forbidden: Sequence[ForbiddenPairs] = (),
    accelerations: Sequence[Acceleration] = (),
) -> tuple[Pairs, int | None]:
    """The next Swiss round by the FIDE Dutch engine (:func:`toreshi.tournament.dutch.pair_trf`), keeping apart
    the ``forbidden`` pairs (C1) and adding the ``accelerations``' virtual points to the pairing scores."""
    from toreshi.tournament.dutch import NoValidPairingError, pair_trf  # the engine is large; only a Swiss needs it

    number = len(tournament.rounds) + 1
    try:
        pairing = pair_trf(pairing_trf(tournament, initial_colour), number, initial_colour=initial_colour,
                           forbidden=forbidden, accelerations=accelerations)  # fmt: skip
    except NoValidPairingError:
        raise Refused(Code.NO_PAIRING_FOUND, round=number) from None
    return tuple((p.white, p.black) for p in pairing.pairs), pairing.bye


def broken_criteria(state: TournamentState, pairs: Pairs, bye: int | None) -> list[Refusal]:
    """The Dutch criteria a changed pairing of the draft round breaks, compared with the engine's pairing of the
    same round (:func:`toreshi.tournament.dutch.review.review_pairing`), one ``criterion_broken`` each; none for a
    round robin (the Berger tables are not criteria)."""
    from toreshi.tournament.dutch.review import manual_pairing, review_pairing

    draft = draft_of(state)
    if draft.method is not PairingMethod.DUTCH:
        return []
    t = state.t
    review = review_pairing(
        pairing_trf(t, state.initial_colour), draft.round, manual_pairing(pairs, bye),
        initial_colour=state.initial_colour, forbidden=engine_forbidden(state),
        accelerations=engine_accelerations(state),
    )  # fmt: skip
    return violation_refusals(t, review.violations)


def violation_refusals(tournament: Tournament, violations: Sequence[Violation]) -> list[Refusal]:
    """One ``criterion_broken`` per violated Dutch criterion, naming the players concerned."""
    broken = []
    for v in violations:
        code = v.criterion.value
        params = {"criterion": code, "term": f"criterion.{code}", "players": tournament.labels(v.players)}
        broken.append(Refusal(Code.CRITERION_BROKEN, params))
    return broken


def draft_of(state: TournamentState) -> DraftRound:
    if state.draft is None:
        raise Refused(Code.NO_DRAFT)
    return state.draft


def check_pairing(state: TournamentState, round_number: int, pairs: Sequence[tuple[int, int]], bye: int | None) -> None:
    """Refuses a pairing that does not pair every player to pair exactly once (the model says who and how)."""
    if round_number != state.next_round:
        raise ValueError(f"round {round_number} paired, round {state.next_round} next")  # only in a corrupt log
    for white, black in pairs:
        if white == black:
            raise Refused(Code.PLAYS_ITSELF, player=state.t.label(white))
    state.t.add_round(pairs, pairing_bye=bye)


# --- deciding -------------------------------------------------------------------------------------------------


def decide_pairing(state: TournamentState, command: PairRound, stamp: Stamp) -> list[RoundPaired]:
    t, number = state.t, state.next_round
    if state.draft is not None:
        raise Refused(Code.DRAFT_PENDING, round=state.draft.round)
    if t.system.is_round_robin:
        if not t.rounds and len(t.participants) < 2:
            raise Refused(Code.ROUND_ROBIN_TOO_SMALL)  # before "all 0 rounds are paired"
        planned = round_robin_rounds(t) if not t.rounds else t.rounds_planned
        if number > planned:
            raise Refused(Code.ALL_ROUNDS_PAIRED, rounds=planned)
        pairs, bye = berger_pairing(t, number)
        method = PairingMethod.BERGER
    else:
        if number > t.rounds_planned:
            raise Refused(Code.ALL_ROUNDS_PAIRED, rounds=t.rounds_planned)
        if t.rounds and not t.rounds[-1].complete:
            raise Refused(Code.ROUND_INCOMPLETE, round=number - 1)
        # With check-in on, only those checked in are paired; the others are absent in this round (Z).
        absent = absent_players(state, number)
        t = with_absences(t, number, absent)
        if len(t.players_to_pair(number)) < 2:
            raise Refused(Code.TOO_FEW_TO_PAIR)
        pairs, bye = dutch_pairing(t, state.initial_colour, engine_forbidden(state), engine_accelerations(state))
        return [RoundPaired(at=stamp.at, by=stamp.by, round=number, method=PairingMethod.DUTCH, pairs=pairs, bye=bye,
                            absent=absent)]  # fmt: skip
    return [RoundPaired(at=stamp.at, by=stamp.by, round=number, method=method, pairs=pairs, bye=bye)]


def decide_override(state: TournamentState, command: OverridePairing, stamp: Stamp) -> list[PairingOverridden]:
    draft = draft_of(state)
    if any(len(pair) != 2 for pair in command.pairs):
        raise Refused(Common.BAD_REQUEST, field="pairs")  # a pair is White's and Black's pairing numbers
    check_pairing(state, draft.round, command.pairs, command.bye)
    broken = broken_criteria(state, command.pairs, command.bye)
    criteria = tuple(str(b.params["criterion"]) for b in broken)
    if broken and not command.confirmed:
        raise Refused(Code.OVERRIDE_BREAKS_CRITERIA, round=draft.round, criteria=", ".join(criteria),
                      details=tuple(broken))  # fmt: skip
    return [PairingOverridden(at=stamp.at, by=stamp.by, round=draft.round, pairs=command.pairs, bye=command.bye,
                              reason=command.reason, criteria=criteria)]  # fmt: skip


def decide_discard(state: TournamentState, command: DiscardPairing, stamp: Stamp) -> list[PairingDiscarded]:
    return [PairingDiscarded(at=stamp.at, by=stamp.by, round=draft_of(state).round, reason=command.reason)]


def decide_publish(state: TournamentState, command: PublishRound, stamp: Stamp) -> list[RoundPublished | ResultEntered]:
    draft = draft_of(state)
    # A round robin with check-in on: the games of players who have not checked in are lost by default (TK-R4).
    return [RoundPublished(at=stamp.at, by=stamp.by, round=draft.round), *absent_forfeits(state, draft, stamp)]


# --- applying -------------------------------------------------------------------------------------------------


def apply_paired(state: TournamentState, event: RoundPaired) -> TournamentState:
    if state.draft is not None:
        raise Refused(Code.DRAFT_PENDING, round=state.draft.round)
    t = state.t
    if t.system.is_round_robin and event.round == 1 and not t.rounds:
        state = replace(state, tournament=replace(t, rounds_planned=round_robin_rounds(t)))
    if event.absent:
        absences = {**state.absences, event.round: event.absent}
        state = replace(state, tournament=with_absences(state.t, event.round, event.absent),
                        absences=MappingProxyType(absences))  # fmt: skip
    check_pairing(state, event.round, event.pairs, event.bye)
    return replace(state, draft=DraftRound(event.round, event.method, event.pairs, event.bye, engine_bye=event.bye))


def apply_overridden(state: TournamentState, event: PairingOverridden) -> TournamentState:
    draft = draft_of(state)
    check_pairing(state, draft.round, event.pairs, event.bye)
    change = PairingChange(draft.round, event.by, event.reason, event.criteria)
    return replace(state, draft=replace(draft, pairs=event.pairs, bye=event.bye, overridden=True),
                   pairing_changes=(*state.pairing_changes, change))  # fmt: skip


def apply_discarded(state: TournamentState, event: PairingDiscarded) -> TournamentState:
    draft = draft_of(state)
    kept = tuple(change for change in state.pairing_changes if change.round != draft.round)
    return replace(without_absences(state, draft), draft=None, pairing_changes=kept)


def apply_published(state: TournamentState, event: RoundPublished) -> TournamentState:
    draft = draft_of(state)
    if event.round != draft.round:
        raise ValueError(f"round {event.round} published, round {draft.round} paired")  # only in a corrupt log
    tournament = state.t.add_round(draft.pairs, pairing_bye=draft.bye, paired_at=event.at)
    return replace(state, tournament=tournament, draft=None)
