"""Which Dutch criteria a pairing breaks: for an arbiter's manual change, or a round a pairing checker disputes.

The reviewed pairing (boards with colours and the bye) is measured criterion by criterion, over the whole round,
and compared with the engine's pairing of the same round:

* the absolute criteria are broken by any occurrence: C1 (a rematch, or a pair the organiser prohibited), C2
  (the bye to a player who may not have it), C3 (two non-topscorers with the same absolute colour
  preference), C4 (more than one player left unpaired);
* a quality criterion is broken when the pairing does worse on it than the engine's pairing does: C5 (the bye
  assignee's score), C6 (pairs of different scores: downfloaters), C7 (downfloaters' scores, per scoregroup
  from the top), C9 (the bye assignee's unplayed games), C10–C11 (topscorers' colour difference beyond ±2,
  three colours in a row), C12 (players without their colour preference), C13 (… without a strong or absolute
  one, pairs of two absolutes aside), C14–C17 (the same downfloat / upfloat as one or two rounds before) and
  C18–C21 (the score differences of those floats).

C8 (choosing the downfloaters so the next bracket pairs best) is the bracket procedure's look-ahead: over a
whole round it shows in C6 and C7 of the brackets below, so it is not measured on its own. Scores are the
pairing scores the engine uses (tenths of a point, virtual points included). The result is data — criterion
codes, players and numbers — for the web to put into words.

>>> Criterion.C12.value, Criterion.C12.absolute, Criterion.C1.absolute
('C12', False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from toreshi.tournament.dutch.engine import NoValidPairingError, Pairing, RoundPairing, pair_players
from toreshi.tournament.dutch.round import PairingInputError, inferred_initial_colour, round_states
from toreshi.tournament.dutch.state import WIN, Float, PlayerState, float_of
from toreshi.tournament.model import Colour
from toreshi.tournament.trf import TrfFile
from toreshi.tournament.trf_pairing import Acceleration, ForbiddenPairs


class Criterion(Enum):
    """The Dutch criteria (C.04.3, 2025 numbering) as the engine's edge weights order them."""

    C1 = "C1"
    C2 = "C2"
    C3 = "C3"
    C4 = "C4"
    C5 = "C5"
    C6 = "C6"
    C7 = "C7"
    C9 = "C9"
    C10 = "C10"
    C11 = "C11"
    C12 = "C12"
    C13 = "C13"
    C14 = "C14"
    C15 = "C15"
    C16 = "C16"
    C17 = "C17"
    C18 = "C18"
    C19 = "C19"
    C20 = "C20"
    C21 = "C21"

    @property
    def absolute(self) -> bool:
        """C1–C4 may never be broken by the engine; any occurrence is a violation."""
        return self in _ABSOLUTE


_ABSOLUTE = frozenset({Criterion.C1, Criterion.C2, Criterion.C3, Criterion.C4})


@dataclass(frozen=True)
class Violation:
    """A criterion the reviewed pairing does worse on than the engine's (or breaks at all, C1–C4).

    ``players`` are the pairing numbers concerned in the reviewed pairing; ``value`` and ``best`` the measure
    of the reviewed pairing and of the engine's (a count, a score in tenths, or a number of unplayed games).
    """

    criterion: Criterion
    players: tuple[int, ...]
    value: int
    best: int


@dataclass(frozen=True)
class PairingReview:
    """A pairing, the engine's pairing of the same round (None if the round has no valid pairing), and the
    criteria the first breaks."""

    pairing: RoundPairing
    engine: RoundPairing | None
    violations: tuple[Violation, ...]

    @property
    def same_as_engine(self) -> bool:
        """Whether the pairing is the engine's: the same boards with the same colours, the same bye."""
        return self.engine is not None and _boards(self.pairing) == _boards(self.engine)

    @property
    def criteria(self) -> tuple[Criterion, ...]:
        return tuple(v.criterion for v in self.violations)


def _boards(pairing: RoundPairing) -> tuple[frozenset[tuple[int, int]], int | None]:
    return frozenset((p.white, p.black) for p in pairing.pairs), pairing.bye


@dataclass(frozen=True)
class _Measure:
    """One criterion's measure of a pairing: what is compared (``value``, or ``groups`` for C7) and the players."""

    value: int
    players: tuple[int, ...]
    groups: tuple[tuple[int, int], ...] = ()
    """C7: (score, downfloaters of that score), the highest score first."""


class _Tally:
    """What a pairing does on each criterion: amounts and the players concerned."""

    def __init__(self) -> None:
        self.amounts: dict[Criterion, int] = dict.fromkeys(Criterion, 0)
        self.players: dict[Criterion, set[int]] = {c: set() for c in Criterion}
        self.downfloaters: dict[int, int] = {}

    def note(self, criterion: Criterion, amount: int, *players: int) -> None:
        self.amounts[criterion] += amount
        self.players[criterion].update(players)

    def measures(self) -> dict[Criterion, _Measure]:
        result = {c: _Measure(self.amounts[c], tuple(sorted(self.players[c]))) for c in Criterion}
        groups = tuple(sorted(self.downfloaters.items(), reverse=True))
        c7 = result[Criterion.C7]
        result[Criterion.C7] = _Measure(c7.value, c7.players, groups)
        return result


def measure_pairing(
    pairing: RoundPairing,
    present: Sequence[PlayerState],
    everyone: Mapping[int, PlayerState],
    *,
    played_rounds: int,
    planned_rounds: int,
) -> dict[Criterion, _Measure]:
    """Every criterion's measure of ``pairing`` among the ``present`` players (see the module docstring)."""
    by_number = {p.number: p for p in present}
    seen = [n for board in pairing.pairs for n in (board.white, board.black)]
    if pairing.bye is not None:
        seen.append(pairing.bye)
    unknown = sorted({n for n in seen if n not in by_number})
    twice = sorted({n for n in seen if seen.count(n) > 1})
    if unknown or twice:
        raise PairingInputError(f"the pairing names players who are not to be paired {unknown} or twice {twice}")
    unpaired = [n for n in by_number if n not in seen]
    bye = pairing.bye
    if bye is None and len(unpaired) == 1:
        bye, unpaired = unpaired[0], []
    last_round = played_rounds >= planned_rounds - 1
    threshold = played_rounds * WIN >> 1

    def topscorer(p: PlayerState) -> bool:
        return last_round and p.score > threshold

    tally = _Tally()
    for board in pairing.pairs:
        white, black = by_number[board.white], by_number[board.black]
        if black.number in white.barred:
            tally.note(Criterion.C1, 1, white.number, black.number)
        same_absolute = white.absolute and black.absolute and white.preference is black.preference
        if same_absolute and not (topscorer(white) or topscorer(black)):
            tally.note(Criterion.C3, 1, white.number, black.number)
        high, low = (white, black) if (white.score, -white.rank) >= (black.score, -black.rank) else (black, white)
        difference = high.score - low.score
        if difference:
            tally.note(Criterion.C6, 1, high.number)
            tally.note(Criterion.C7, high.score, high.number)
            tally.downfloaters[high.score] = tally.downfloaters.get(high.score, 0) + 1
            for rounds_back, down, up, down_sum, up_sum in (
                (1, Criterion.C14, Criterion.C15, Criterion.C18, Criterion.C19),
                (2, Criterion.C16, Criterion.C17, Criterion.C20, Criterion.C21),
            ):
                if _float(high, rounds_back, everyone, played_rounds) is Float.DOWN:
                    tally.note(down, 1, high.number)
                    tally.note(down_sum, difference, high.number)
                if _float(low, rounds_back, everyone, played_rounds) is Float.UP:
                    tally.note(up, 1, low.number)
                    tally.note(up_sum, difference, low.number)
        with_topscorer = topscorer(white) or topscorer(black)
        _colours(tally, white, Colour.WHITE, black, with_topscorer)
        _colours(tally, black, Colour.BLACK, white, with_topscorer)
    if bye is not None:
        sitting = by_number[bye]
        if not sitting.bye_eligible:
            tally.note(Criterion.C2, 1, bye)
        tally.note(Criterion.C5, sitting.score, bye)
        tally.note(Criterion.C9, played_rounds - sitting.played_games, bye)
    if unpaired:
        tally.note(Criterion.C4, len(unpaired), *unpaired)
    return tally.measures()


def _float(p: PlayerState, rounds_back: int, everyone: Mapping[int, PlayerState], played: int) -> Float:
    return float_of(p, rounds_back, everyone) if played >= rounds_back else Float.NONE


def _colours(tally: _Tally, player: PlayerState, colour: Colour, opponent: PlayerState, with_topscorer: bool) -> None:
    """C10–C13 for one player of a board."""
    if with_topscorer:
        difference = player.white_games - player.black_games + (1 if colour is Colour.WHITE else -1)
        if abs(difference) > 2:
            tally.note(Criterion.C10, 1, player.number)
        if player.repeated is colour:
            tally.note(Criterion.C11, 1, player.number)
    if player.preference is not None and player.preference is not colour:
        tally.note(Criterion.C12, 1, player.number)
        if (player.strong or player.absolute) and not (player.absolute and opponent.absolute):
            tally.note(Criterion.C13, 1, player.number)


def _worse_c7(ours: _Measure, best: _Measure) -> bool:
    """Downfloaters per scoregroup, from the highest score down: the first score where the counts differ
    decides, and more downfloaters there is worse."""
    mine, theirs = dict(ours.groups), dict(best.groups)
    for score in sorted(set(mine) | set(theirs), reverse=True):
        if mine.get(score, 0) != theirs.get(score, 0):
            return mine.get(score, 0) > theirs.get(score, 0)
    return False


def violations(measured: Mapping[Criterion, _Measure], engine: Mapping[Criterion, _Measure] | None) -> list[Violation]:
    """The criteria ``measured`` breaks, compared with the engine's measures (None: no engine pairing exists)."""
    found = []
    for criterion in Criterion:
        ours = measured[criterion]
        if engine is None and not criterion.absolute:
            continue  # without a valid pairing there is nothing to measure the quality criteria against
        best = engine[criterion] if engine is not None else _Measure(0, ())
        if criterion.absolute:
            broken = ours.value > 0
        elif criterion is Criterion.C7:
            broken = _worse_c7(ours, best)
        else:
            broken = ours.value > best.value
        if broken:
            found.append(Violation(criterion, ours.players, ours.value, best.value))
    return found


def review_pairing(
    trf: TrfFile,
    round_number: int,
    pairing: RoundPairing,
    *,
    initial_colour: Colour | None = None,
    forbidden: Sequence[ForbiddenPairs] | None = None,
    accelerations: Sequence[Acceleration] | None = None,
) -> PairingReview:
    """The criteria ``pairing`` (a manual change, or what a file records) breaks in round ``round_number`` of
    ``trf``, against the engine's pairing of that round from the same earlier rounds."""
    present, everyone = round_states(trf, round_number, forbidden=forbidden, accelerations=accelerations)
    planned = trf.rounds or round_number
    measured = measure_pairing(pairing, present, everyone, played_rounds=round_number - 1, planned_rounds=planned)
    # The top seed's round-1 colour: given, or the file's, or inferred from every round the file records.
    inferred = inferred_initial_colour(trf, max(round_number, trf.played_rounds + 1))
    initial = initial_colour or trf.initial_colour or inferred or Colour.WHITE
    try:
        engine: RoundPairing | None = pair_players(
            present, everyone, played_rounds=round_number - 1, planned_rounds=planned, initial_colour=initial
        )
    except NoValidPairingError:
        engine = None
    best = (
        None
        if engine is None
        else measure_pairing(engine, present, everyone, played_rounds=round_number - 1, planned_rounds=planned)
    )
    return PairingReview(pairing, engine, tuple(violations(measured, best)))


def manual_pairing(boards: Sequence[tuple[int, int]], bye: int | None = None) -> RoundPairing:
    """A pairing from (white, black) boards as an arbiter enters them."""
    return RoundPairing(tuple(Pairing(w, b) for w, b in boards), bye)
