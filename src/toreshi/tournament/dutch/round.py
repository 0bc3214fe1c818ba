"""From a TRF to the players of one round: who is present, their history, prohibitions, virtual points, and the
initial colour."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from toreshi.tournament.dutch.engine import MatchingStats, RoundPairing, pair_players
from toreshi.tournament.dutch.state import WIN, PastRound, PlayerState, build_state
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import TrfError, TrfFile
from toreshi.tournament.trf_pairing import (
    Acceleration,
    ForbiddenPairs,
    acceleration_of,
    baku_accelerations,
    forbidden_in_round,
    is_baku,
    read_accelerations,
    read_forbidden,
)

_ABSENCES = frozenset({ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.ZERO_BYE})


class PairingInputError(ValueError):
    """A TRF that cannot be paired as asked (no round count, a round out of range, contradictory games)."""


def pairing_accelerations(trf: TrfFile) -> tuple[Acceleration, ...]:
    """The file's accelerations: its ``250``/``XXA`` records, else the Baku method's when the tournament type asks
    for it (``…_BAKU``), computed from the players in pairing-id order (FIDE's group size, C.04.5.1)."""
    try:
        explicit = read_accelerations(trf)
        if explicit or not is_baku(trf):
            return explicit
        return baku_accelerations([p.number for p in trf.players], trf.rounds or trf.played_rounds)
    except TrfError as error:
        raise PairingInputError(str(error)) from None


def round_states(
    trf: TrfFile,
    round_number: int,
    *,
    forbidden: Sequence[ForbiddenPairs] | None = None,
    accelerations: Sequence[Acceleration] | None = None,
) -> tuple[list[PlayerState], dict[int, PlayerState]]:
    """The players to pair in ``round_number`` and every player's state (absent ones too).

    A player is skipped in the effective pairing numbers when absent now and never paired before, as
    bbpPairings does; that number decides colours by rule 5. ``forbidden`` and ``accelerations`` default to
    the file's own records (``260``/``XXP``, ``250``/``XXA`` or a ``…_BAKU`` type).
    """
    if round_number < 1:
        raise PairingInputError(f"round must be at least 1, not {round_number}")
    try:
        prohibitions = read_forbidden(trf) if forbidden is None else tuple(forbidden)
    except TrfError as error:
        raise PairingInputError(str(error)) from None
    barred = forbidden_in_round(prohibitions, round_number)
    virtual = pairing_accelerations(trf) if accelerations is None else tuple(accelerations)
    histories: dict[int, list[PastRound]] = {}
    absent: set[int] = set()
    for p in trf.players:
        histories[p.number] = [PastRound.from_trf(p.round(r)) for r in range(1, round_number)]
        now = p.round(round_number)
        if now is not None and now.code in _ABSENCES:
            absent.add(p.number)
    everyone: dict[int, PlayerState] = {}
    present: list[PlayerState] = []
    rank = 0
    for p in trf.players:
        history = histories[p.number]
        valid = p.number not in absent or any(r.paired for r in history)
        extra = [_tenths(acceleration_of(virtual, p.number, r)) for r in range(1, round_number + 1)] if virtual else []
        state = build_state(p.number, rank if valid else -1, history, barred.get(p.number, frozenset()), extra)
        everyone[p.number] = state
        if valid:
            rank += 1
            if p.number not in absent:
                present.append(state)
    _check_games(everyone, round_number)
    return present, everyone


def _tenths(points: Fraction) -> int:
    tenths = points * WIN
    if tenths.denominator != 1:
        raise PairingInputError(f"virtual points {points} are not a number of tenths")
    return int(tenths)


def _check_games(everyone: dict[int, PlayerState], round_number: int) -> None:
    for p in everyone.values():
        for index, r in enumerate(p.rounds, start=1):
            if not r.played or r.opponent is None:
                continue
            other = everyone.get(r.opponent)
            back = other.rounds[index - 1] if other is not None else None
            if back is None or not back.played or back.opponent != p.number or back.colour is r.colour:
                raise PairingInputError(
                    f"round {index}: the game of player {p.number} against {r.opponent} "
                    "is not recorded the same way by the opponent"
                )


def inferred_initial_colour(trf: TrfFile, round_number: int) -> Colour | None:
    """The top seed's round-1 colour as bbpPairings infers it from the earliest round with colours.

    The first player (by pairing number) who had taken part in a pairing by then sets it: their colour in that
    round, reversed if an odd number of such players come before them.
    """
    rounds = range(1, round_number)
    with_colour = [r for r in rounds if any((b := p.round(r)) is not None and b.colour for p in trf.players)]
    if not with_colour:
        return None
    first = with_colour[0]
    counter = 0
    for p in trf.players:
        took_part = any(PastRound.from_trf(p.round(r)).paired for r in range(1, first + 1))
        if not took_part:
            continue
        block = p.round(first)
        colour = block.colour if block is not None else None
        if colour is not None:
            return colour.other if counter & 1 else colour
        counter += 1
    return None


def pair_trf(
    trf: TrfFile,
    round_number: int,
    *,
    initial_colour: Colour | None = None,
    forbidden: Sequence[ForbiddenPairs] | None = None,
    accelerations: Sequence[Acceleration] | None = None,
    shortcuts: bool = True,
    stats: MatchingStats | None = None,
) -> RoundPairing:
    """Pair ``round_number`` by the Dutch system from the earlier rounds of ``trf``.

    ``initial_colour`` (the top seed's round-1 colour) overrides the file's ``XXC``/``152`` record; without
    either it is inferred from the earlier rounds, and White when there are none. ``forbidden`` (prohibited
    pairings) and ``accelerations`` (virtual points) override the file's records. ``shortcuts`` and ``stats`` are
    :func:`~toreshi.tournament.dutch.engine.pair_players`'s.

    Raises :class:`PairingInputError` for a file that cannot be paired as asked and
    :class:`~toreshi.tournament.dutch.engine.NoValidPairingError` when no pairing satisfies the absolute criteria.
    """
    planned = trf.rounds
    if planned is None:
        raise PairingInputError("the TRF does not say how many rounds the tournament has (XXR or 142 record)")
    if round_number > planned:
        raise PairingInputError(f"round {round_number} is beyond the {planned} rounds of the tournament")
    present, everyone = round_states(trf, round_number, forbidden=forbidden, accelerations=accelerations)
    initial = initial_colour or trf.initial_colour or inferred_initial_colour(trf, round_number) or Colour.WHITE
    return pair_players(
        present,
        everyone,
        played_rounds=round_number - 1,
        planned_rounds=planned,
        initial_colour=initial,
        shortcuts=shortcuts,
        stats=stats,
    )
