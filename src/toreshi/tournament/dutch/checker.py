"""A free pairings checker (FIDE C.04.A): re-pair every round of a TRF and report the rounds that differ.

Round N is paired from rounds 1..N-1 and the round-N absences (``H``, ``F``, ``Z``, or a blank block), with the
file's prohibited pairings and accelerations, and compared with what the file records — boards, colours and
the pairing-allocated bye. A file that does not give its number of rounds is taken as complete. The top seed's
round-1 colour is the file's (``XXC``/``152``), else inferred from its earliest round with colours, as
bbpPairings' checker does. For a round that differs, the criteria the file's pairing breaks compared with the
engine's are listed (:mod:`.review`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from toreshi.tournament.dutch.engine import NoValidPairingError, Pairing, RoundPairing
from toreshi.tournament.dutch.review import Violation, review_pairing
from toreshi.tournament.dutch.round import inferred_initial_colour, pair_trf
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import RawLine, TrfFile, TrfRound


@dataclass(frozen=True)
class RoundCheck:
    """One round: what the file records, what the engine pairs (None: no valid pairing), the criteria the
    file's pairing breaks when they differ."""

    round: int
    recorded: RoundPairing
    engine: RoundPairing | None
    violations: tuple[Violation, ...] = ()

    @property
    def agrees(self) -> bool:
        return self.engine is not None and _key(self.engine) == _key(self.recorded)

    def only_in_file(self) -> list[tuple[int, int]]:
        engine = _key(self.engine)[0] if self.engine is not None else frozenset()
        return sorted(_key(self.recorded)[0] - engine)

    def only_in_engine(self) -> list[tuple[int, int]]:
        if self.engine is None:
            return []
        return sorted(_key(self.engine)[0] - _key(self.recorded)[0])


def _key(pairing: RoundPairing) -> tuple[frozenset[tuple[int, int]], int | None]:
    return frozenset((p.white, p.black) for p in pairing.pairs), pairing.bye


def recorded_round(trf: TrfFile, number: int) -> RoundPairing:
    """The boards (White first) and the pairing-allocated bye of round ``number`` as the file records them.

    Forfeited games count as boards (they were paired); half-, full- and zero-point byes are not part of it.
    """
    boards: list[Pairing] = []
    bye = None
    for p in trf.players:
        block = p.round(number)
        if block is None:
            continue
        if block.code is ResultCode.PAIRING_BYE:
            bye = p.number
        elif block.opponent is not None and block.colour is Colour.WHITE:
            boards.append(Pairing(p.number, block.opponent))
        elif block.opponent is not None and block.colour is None and p.number < block.opponent:
            boards.append(Pairing(p.number, block.opponent))  # a forfeit written without colours
    return RoundPairing(tuple(sorted(boards, key=lambda b: (b.white, b.black))), bye)


def _absences_marked(trf: TrfFile, number: int) -> TrfFile:
    """Blank blocks of a recorded round are absences (``Z``), not players still to pair."""
    absent = TrfRound(None, None, ResultCode.ZERO_BYE)

    def marked(rounds: tuple[TrfRound | None, ...]) -> tuple[TrfRound | None, ...]:
        padded = (*rounds, *([None] * (number - len(rounds))))
        return (*padded[: number - 1], absent, *padded[number:])

    blank = [p for p in trf.players if p.round(number) is None]
    return trf.with_players(replace(p, rounds=marked(p.rounds)) for p in blank) if blank else trf


def check_trf(trf: TrfFile, *, initial_colour: Colour | None = None, explain: bool = True) -> list[RoundCheck]:
    """Every recorded round of ``trf`` re-paired; ``explain`` adds the broken criteria of rounds that differ."""
    played = trf.played_rounds
    if trf.rounds is None:
        # A file without its number of rounds (bbpPairings' generator writes none) is taken as complete.
        trf = TrfFile((RawLine(f"XXR {played}"), *trf.lines))
    initial = initial_colour or trf.initial_colour or inferred_initial_colour(trf, played + 1) or Colour.WHITE
    checks = []
    for number in range(1, played + 1):
        source = _absences_marked(trf, number)
        recorded = recorded_round(trf, number)
        try:
            engine: RoundPairing | None = pair_trf(source, number, initial_colour=initial)
        except NoValidPairingError:
            engine = None
        check = RoundCheck(number, recorded, engine)
        if explain and not check.agrees:
            review = review_pairing(source, number, recorded, initial_colour=initial)
            check = replace(check, violations=review.violations)
        checks.append(check)
    return checks
