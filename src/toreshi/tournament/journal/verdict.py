"""The pairing checker's verdict on one round of a Swiss paired in the app (issue 29: an arbiter can be audited).

Round N is re-paired by the Dutch engine from what the tournament holds before it — rounds 1..N-1 with their
results as they stand now, the round-N absences, the forbidden pairings and the acceleration — and compared with
the round as paired (the engine's draft, or the arbiter's change of it): boards, colours and the
pairing-allocated bye, as the free checker (:func:`toreshi.tournament.dutch.checker.check_trf`) compares a
file's round. When they differ, the Dutch criteria the round's pairing breaks are listed.

It is a pure computation, made for the round page on every reading (nothing is stored: a verdict that a later
result correction changes is the verdict the checker gives on the exported file too). A round robin has none:
the Berger tables are not criteria.
"""

from __future__ import annotations

from dataclasses import replace

from toreshi.tournament.dutch.checker import RoundCheck
from toreshi.tournament.dutch.engine import NoValidPairingError, RoundPairing
from toreshi.tournament.dutch.review import manual_pairing, review_pairing
from toreshi.tournament.dutch.round import pair_trf
from toreshi.tournament.journal.pairing import pairing_trf
from toreshi.tournament.journal.pairing_tools import engine_accelerations, engine_forbidden
from toreshi.tournament.journal.state import TournamentState
from toreshi.tournament.model import ResultCode


def round_pairing(state: TournamentState, number: int) -> RoundPairing | None:
    """Round ``number`` as paired: the draft's boards, or the published round's; None for a round not paired."""
    draft = state.draft
    if draft is not None and draft.round == number:
        return manual_pairing(draft.pairs, draft.bye)
    t = state.t
    if not 1 <= number <= len(t.rounds):
        return None
    rnd = t.round(number)
    bye = next((b.player for b in rnd.byes if b.code is ResultCode.PAIRING_BYE), None)
    return manual_pairing([(g.white, g.black) for g in rnd.games], bye)


def round_check(state: TournamentState, number: int) -> RoundCheck | None:
    """The checker's verdict on round ``number`` (None: a round robin, or no such round paired)."""
    t = state.t
    recorded = round_pairing(state, number)
    if t.system.is_round_robin or recorded is None:
        return None
    before = pairing_trf(replace(t, rounds=t.rounds[: number - 1]), state.initial_colour)
    colour, forbidden, accelerations = state.initial_colour, engine_forbidden(state), engine_accelerations(state)
    try:
        engine: RoundPairing | None = pair_trf(before, number, initial_colour=colour, forbidden=forbidden,
                                               accelerations=accelerations)  # fmt: skip
    except NoValidPairingError:
        engine = None
    check = RoundCheck(number, recorded, engine)
    if check.agrees:
        return check
    review = review_pairing(before, number, recorded, initial_colour=colour, forbidden=forbidden,
                            accelerations=accelerations)  # fmt: skip
    return replace(check, violations=review.violations)
