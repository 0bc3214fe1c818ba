"""A tournament as an event log: the arbiter's commands become typed events, the state is their fold.

A tournament room (:mod:`toreshi.live.rooms.tournament`) stores one event per arbiter action: the tournament
created or configured, teams and participants added, edited, imported from CSV, renumbered, withdrawn or expelled,
byes requested, a round paired (Berger or Dutch), a pairing overridden (with who and why) or discarded, a round
published, a game room linked to a board, a result entered, reported by a finished game room, or corrected,
warnings, and each step of a protest. Every event names who did it (``by``) and when (``at``, the server's aware
wall time, never read from a clock here).

- :mod:`.commands` and :mod:`.events` — the typed commands and events, each family with its
  :class:`~toreshi.kit.codec.Codec`;
- :mod:`.decide` — ``decide(state, command, context) → events | Refusal``; :mod:`.evolve` — ``evolve(state,
  event) → state`` and the replay of a log;
- one module per concern: :mod:`.settings`, :mod:`.participants`, :mod:`.csv_import`, :mod:`.pairing`,
  :mod:`.results`, :mod:`.protests` (the glue to :mod:`toreshi.tournament.protests`), :mod:`.audit`.

>>> from datetime import datetime
>>> from toreshi.kit.core import Actor, Context, fold
>>> from toreshi.tournament.model import TournamentSystem
>>> from toreshi.tournament.journal.commands import AddParticipant, Create, EnterResult, PairRound, PublishRound
>>> at = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
>>> context = Context(Actor("arbiter", "chief"), now_ms=0, meta={"at": at})
>>> state = TournamentState()
>>> for command in [Create(name="Cup", system=TournamentSystem.ROUND_ROBIN), AddParticipant(name="Abenov"),
...                 AddParticipant(name="Bekov"), PairRound(), PublishRound(),
...                 EnterResult(round=1, board=1, result="0-1")]:
...     state = fold(evolve, state, decide(state, command, context))
>>> [(row.player.name, str(row.points)) for row in state.standings().rows]
[('Bekov', '1'), ('Abenov', '0')]
"""

from __future__ import annotations

from toreshi.tournament.journal.commands import COMMANDS, TournamentCommand
from toreshi.tournament.journal.csv_import import CSV_FIELDS, IMPORT_CHUNK, parse_participants
from toreshi.tournament.journal.decide import decide
from toreshi.tournament.journal.events import EVENT_TYPES, EVENTS, TournamentEvent, decode_event, encode_event
from toreshi.tournament.journal.evolve import evolve, replay, replay_stored
from toreshi.tournament.journal.state import (
    AuditLine,
    DraftRound,
    PairingMethod,
    PlayerWarning,
    ResultOrigin,
    ResultSource,
    TournamentState,
)

__all__ = [
    "COMMANDS",
    "CSV_FIELDS",
    "EVENTS",
    "EVENT_TYPES",
    "IMPORT_CHUNK",
    "AuditLine",
    "DraftRound",
    "PairingMethod",
    "PlayerWarning",
    "ResultOrigin",
    "ResultSource",
    "TournamentCommand",
    "TournamentEvent",
    "TournamentState",
    "decide",
    "decode_event",
    "encode_event",
    "evolve",
    "parse_participants",
    "replay",
    "replay_stored",
]
