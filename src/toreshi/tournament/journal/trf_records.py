"""What a tournament's TRF says about its pairing tools, besides the results: the forbidden pairings, the Baku
acceleration and the arbiter's changes of a pairing.

* TRF16 (with the JaVaFo/bbpPairings extensions): ``XXP a b`` per forbidden pair, ``XXA`` per accelerated
  player (one value per round), the type ``…_BAKU``;
* TRF-2026: ``260`` per forbidden pair, ``250`` per acceleration range, the same type;
* both: one comment line (``###``, which TRF readers skip) per override of the arbiter the journal records
  (:mod:`.override_records`), e.g. ``### round 3: pairing changed, breaks C12: late``.

>>> from datetime import datetime
>>> from toreshi.tournament.journal.state import ForbiddenPair, TournamentState
>>> from toreshi.tournament.model import Tournament, TournamentSystem
>>> state = TournamentState(Tournament("Cup", TournamentSystem.SWISS, 5), forbidden=(ForbiddenPair(2, 7),))
>>> [line.text for line in pairing_lines(state, trf2026=False)]
['XXP 2 7']
>>> [line.text for line in pairing_lines(state, trf2026=True)]
['260   1 999    2    7']
"""

from __future__ import annotations

from toreshi.tournament.journal.override_records import override_comments
from toreshi.tournament.journal.pairing_tools import engine_accelerations, engine_forbidden
from toreshi.tournament.journal.state import Acceleration, TournamentState
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile
from toreshi.tournament.trf_pairing import acceleration_line, acceleration_of, forbidden_line

BAKU_SUFFIX = "_BAKU"


def _xxa_lines(state: TournamentState) -> list[str]:
    records = engine_accelerations(state)
    players = sorted({p for r in records for p in range(r.first_player, r.last_player + 1)})
    last = max((r.last_round for r in records), default=0)
    lines = []
    for player in players:
        cells = "".join(f" {float(acceleration_of(records, player, rnd)):>4.1f}" for rnd in range(1, last + 1))
        lines.append(f"XXA {player:>4}{cells}")
    return lines


def pairing_lines(state: TournamentState, *, trf2026: bool) -> list[RawLine]:
    """The records of the forbidden pairings, the acceleration and the arbiter's changes of a pairing."""
    forbidden = engine_forbidden(state)
    if trf2026:
        texts = [forbidden_line(entry) for entry in forbidden]
        texts += [acceleration_line(entry) for entry in engine_accelerations(state)]
    else:
        texts = ["XXP " + " ".join(str(p) for p in entry.players) for entry in forbidden]
        texts += _xxa_lines(state)
    texts += override_comments(state)
    return [RawLine(" ".join(text.splitlines())) for text in texts]


def with_pairing_records(trf: TrfFile, state: TournamentState, *, trf2026: bool) -> TrfFile:
    """``trf`` (a tournament's export) with :func:`pairing_lines` before the first player, and the tournament
    type marked ``_BAKU`` when the tournament is accelerated so."""
    lines: list[PlayerRecord | RawLine] = []
    for line in trf.lines:
        baku = state.acceleration is Acceleration.BAKU
        if baku and isinstance(line, RawLine) and line.code in ("092", "192") and BAKU_SUFFIX not in line.text:
            line = RawLine(line.text.rstrip() + BAKU_SUFFIX)
        lines.append(line)
    at = next((i for i, line in enumerate(lines) if isinstance(line, PlayerRecord)), len(lines))
    return TrfFile((*lines[:at], *pairing_lines(state, trf2026=trf2026), *lines[at:]))
