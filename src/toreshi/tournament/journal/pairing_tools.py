"""The pairing tools of a Swiss: forbidden pairings (by hand, the same club, a TRF's ``XXP``/``260`` records), Baku
acceleration (C.04.5.1) and re-entries — what the Dutch engine is given besides the results.

A forbidden pairing is an absolute criterion for the engine (C1, as a rematch is): the engine never pairs the two,
and a round that cannot be paired without them is refused (``no_pairing_found``). The accelerated group of the Baku
method is the players entered before round 1, in pairing-number order.

>>> pairs_of_clubs([Participant(1, "A", club="Алматы"), Participant(2, "B", club="алматы "),
...                 Participant(3, "C", club="Тараз"), Participant(4, "D")])
[(1, 2)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations

from toreshi.kit.refusal import Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import AllowPair, ForbidPair, ForbidSameClub, ImportForbidden, Readmit
from toreshi.tournament.journal.events import PairsAllowed, PairsForbidden, ParticipantReadmitted, Stamp
from toreshi.tournament.journal.state import Acceleration, ForbiddenPair, ForbidSource, TournamentState, low_high
from toreshi.tournament.model import Participant, Tournament
from toreshi.tournament.trf import TrfError, parse_trf
from toreshi.tournament.trf_pairing import (
    ALL_ROUNDS,
    ForbiddenPairs,
    baku_accelerations,
    read_forbidden,
)
from toreshi.tournament.trf_pairing import Acceleration as VirtualPoints

Pair = tuple[int, int]


def pairs_of_clubs(participants: Iterable[Participant]) -> list[Pair]:
    """Every two participants of one club (the club field compared without case and outer spaces)."""
    clubs: dict[str, list[int]] = {}
    for p in participants:
        if p.club and p.club.strip():
            clubs.setdefault(p.club.strip().casefold(), []).append(p.number)
    return sorted(low_high(a, b) for members in clubs.values() for a, b in combinations(sorted(members), 2))


# --- deciding -------------------------------------------------------------------------------------------------


def decide_forbid(state: TournamentState, command: ForbidPair, stamp: Stamp) -> list[PairsForbidden]:
    return [PairsForbidden(at=stamp.at, by=stamp.by, pairs=(low_high(command.first, command.second),),
                           reason=command.reason, source=ForbidSource.HAND)]  # fmt: skip


def decide_same_club(state: TournamentState, command: ForbidSameClub, stamp: Stamp) -> list[PairsForbidden]:
    new = tuple(pair for pair in pairs_of_clubs(state.t.participants) if state.forbidden_pair(*pair) is None)
    if not new:
        raise Refused(Code.NO_CLUB_PAIRS)
    return [PairsForbidden(at=stamp.at, by=stamp.by, pairs=new, reason=command.reason, source=ForbidSource.CLUB)]


def decide_import_forbidden(state: TournamentState, command: ImportForbidden, stamp: Stamp) -> list[PairsForbidden]:
    """The prohibitions of a TRF for the whole tournament, of players this tournament has, as pairs; pairs
    forbidden already are left out. A prohibition limited to some rounds is taken for every round."""
    try:
        found = read_forbidden(parse_trf(command.trf))
    except TrfError:
        raise Refused(Code.TRF_UNREADABLE) from None
    numbers = {p.number for p in state.t.participants}
    pairs: dict[Pair, None] = {}  # in the file's order, each once
    for entry in found:
        # Only this tournament's players, each once, before pairing them up: a pasted line of 100,000 ids would
        # otherwise be billions of pairs (found by fuzzing).
        players = [number for number in dict.fromkeys(entry.players) if number in numbers]
        for a, b in combinations(players, 2):
            pair = low_high(a, b)
            if pair not in pairs and state.forbidden_pair(*pair) is None:
                pairs[pair] = None
    if not pairs:
        raise Refused(Code.TRF_NO_FORBIDDEN)
    return [PairsForbidden(at=stamp.at, by=stamp.by, pairs=tuple(pairs), reason=command.reason,
                           source=ForbidSource.TRF)]  # fmt: skip


def decide_allow(state: TournamentState, command: AllowPair, stamp: Stamp) -> list[PairsAllowed]:
    return [PairsAllowed(at=stamp.at, by=stamp.by, pairs=(low_high(command.first, command.second),))]


def decide_readmit(state: TournamentState, command: Readmit, stamp: Stamp) -> list[ParticipantReadmitted]:
    round_number = command.round if command.round is not None else state.next_round
    return [ParticipantReadmitted(at=stamp.at, by=stamp.by, number=command.number, round=round_number)]


# --- applying -------------------------------------------------------------------------------------------------


def apply_forbidden(state: TournamentState, event: PairsForbidden) -> TournamentState:
    t = state.t
    if t.system.is_round_robin:
        raise Refused(Code.FORBIDDEN_SWISS_ONLY)
    added: list[ForbiddenPair] = []
    for low, high in event.pairs:
        t.participant(low)
        t.participant(high)
        if low == high:
            raise Refused(Code.FORBID_ITSELF, player=t.label(low))
        if state.forbidden_pair(low, high) is not None or any((p.low, p.high) == (low, high) for p in added):
            raise Refused(Code.ALREADY_FORBIDDEN, first=t.label(low), second=t.label(high))
        added.append(ForbiddenPair(low, high, event.reason, event.source))
    return replace(state, forbidden=(*state.forbidden, *added))


def apply_allowed(state: TournamentState, event: PairsAllowed) -> TournamentState:
    gone = set()
    for low, high in event.pairs:
        if state.forbidden_pair(low, high) is None:
            raise Refused(Code.NOT_FORBIDDEN, first=state.t.label(low), second=state.t.label(high))
        gone.add((low, high))
    return replace(state, forbidden=tuple(p for p in state.forbidden if (p.low, p.high) not in gone))


def apply_readmitted(state: TournamentState, event: ParticipantReadmitted) -> TournamentState:
    if state.draft is not None and state.draft.round >= event.round:
        raise Refused(Code.DRAFT_BLOCKS_ENTRIES, round=state.draft.round)
    return replace(state, tournament=state.t.readmit(event.number, event.round))


# --- what the engine is given ---------------------------------------------------------------------------------


def engine_forbidden(state: TournamentState) -> tuple[ForbiddenPairs, ...]:
    """The forbidden pairings as the engine's prohibitions (every round)."""
    return tuple(ForbiddenPairs((p.low, p.high), 1, ALL_ROUNDS) for p in state.forbidden)


def first_round_players(tournament: Tournament) -> list[int]:
    """The players entered before round 1, in pairing-number order (the Baku method's accelerated group is
    taken from them)."""
    return sorted(p.number for p in tournament.participants if tournament.entered_round.get(p.number, 1) == 1)


def engine_accelerations(state: TournamentState) -> tuple[VirtualPoints, ...]:
    """The virtual points of the tournament's acceleration (none without one)."""
    if state.acceleration is Acceleration.NONE or state.t.system.is_round_robin:
        return ()
    t = state.t
    try:
        return baku_accelerations(first_round_players(t), t.rounds_planned, t.scoring.win, t.scoring.draw)
    except TrfError:
        raise Refused(Code.BAKU_NOT_POSSIBLE) from None
