"""The FIDE Dutch Swiss system (C.04.3, 2025 rules) as one maximum-weight matching per decision.

:func:`pair_trf` pairs round N of a TRF from the results of rounds 1..N-1 and the round-N entries ``H``, ``F``,
``Z`` (those players are not paired), as bbpPairings does. :func:`pair_players` is the engine itself, on
:class:`PlayerState` values.
"""

from __future__ import annotations

from toreshi.tournament.dutch.engine import NoValidPairingError, Pairing, RoundPairing, pair_players
from toreshi.tournament.dutch.round import PairingInputError, inferred_initial_colour, pair_trf, round_states
from toreshi.tournament.dutch.state import PlayerState

__all__ = [
    "NoValidPairingError",
    "Pairing",
    "PairingInputError",
    "PlayerState",
    "RoundPairing",
    "inferred_initial_colour",
    "pair_players",
    "pair_trf",
    "round_states",
]
