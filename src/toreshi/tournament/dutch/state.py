"""What the Dutch system needs to know about each player before a round: score, colours, floats, byes.

Scores are kept in tenths of a point (a win is 10, a draw 5) so that every comparison is exact and the
packed edge weights stay integers. Only **played** games count for colours and for the rematch ban; a
forfeit keeps its scheduled opponent for the float rules but is not a meeting (C1, C.04.3 1.4.3).

With an accelerated system (Baku, C.04.5.1) the *pairing score* is the score plus the round's virtual points:
it sorts the brackets, decides the bye's score, the topscorers and, for earlier rounds, the floats (each with
that round's virtual points), as in bbpPairings. Points for tie-breaks and standings never include them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import TrfRound

WIN = 10
DRAW = 5
LOSS = 0

_POINTS = {
    ResultCode.WIN: WIN,
    ResultCode.DRAW: DRAW,
    ResultCode.LOSS: LOSS,
    ResultCode.FORFEIT_WIN: WIN,
    ResultCode.FORFEIT_LOSS: LOSS,
    ResultCode.UNRATED_WIN: WIN,
    ResultCode.UNRATED_DRAW: DRAW,
    ResultCode.UNRATED_LOSS: LOSS,
    ResultCode.HALF_BYE: DRAW,
    ResultCode.FULL_BYE: WIN,
    ResultCode.PAIRING_BYE: WIN,
    ResultCode.ZERO_BYE: LOSS,
}


class Float(Enum):
    """How a player's round compared with their opponent's score (C.04.3 1.4)."""

    DOWN = "down"
    UP = "up"
    NONE = "none"


@dataclass(frozen=True)
class PastRound:
    """One earlier round of a player, reduced to what pairing uses."""

    opponent: int | None
    """Scheduled opponent (also for a forfeit); None for byes and absences."""
    colour: Colour | None
    points: int
    played: bool
    paired: bool
    """The player took part in that round's pairing (a game, a forfeit or the pairing-allocated bye)."""

    @classmethod
    def from_trf(cls, block: TrfRound | None) -> PastRound:
        if block is None:
            return cls(None, None, LOSS, False, False)
        paired = block.opponent is not None or block.code in (ResultCode.PAIRING_BYE, ResultCode.FORFEIT_WIN)
        return cls(block.opponent, block.colour, _POINTS[block.code], block.played, paired)


@dataclass(frozen=True)
class PlayerState:
    """A player as the pairing of the next round sees them."""

    number: int
    rank: int
    """Effective pairing number, 0-based (players who never took part and are absent now are skipped)."""
    rounds: tuple[PastRound, ...]
    score: int
    """The pairing score in tenths: points so far plus this round's virtual points (none without acceleration)."""
    white_games: int
    black_games: int
    preference: Colour | None
    repeated: Colour | None
    """The colour of the last two played games when they were the same, else None."""
    played_games: int
    opponents: frozenset[int]
    """Opponents met over the board (C1)."""
    bye_eligible: bool
    """C2: no pairing-allocated bye yet and no win's points without playing."""
    forbidden: frozenset[int] = frozenset()
    """Players the organiser keeps apart from this one in this round (club, family): C1 as well."""
    accelerations: tuple[int, ...] = ()
    """Virtual points (tenths) by round index: ``accelerations[r - 1]`` when round r is paired."""

    barred: frozenset[int] = field(init=False)
    """Everyone this player may not be paired with (C1): opponents met, and the organiser's prohibitions."""
    imbalance: int = field(init=False)
    """|colour difference| over played games."""
    absolute_imbalance: bool = field(init=False)
    absolute: bool = field(init=False)
    """Absolute colour preference: |CD| > 1 or the same colour in the last two played games."""
    strong: bool = field(init=False)

    def __post_init__(self) -> None:
        # Derived once: the edge weights ask for these hundreds of thousands of times per round.
        imbalance = abs(self.white_games - self.black_games)
        absolute = imbalance > 1 or self.repeated is not None
        object.__setattr__(self, "barred", self.opponents | self.forbidden)
        object.__setattr__(self, "imbalance", imbalance)
        object.__setattr__(self, "absolute_imbalance", imbalance > 1)
        object.__setattr__(self, "absolute", absolute)
        object.__setattr__(self, "strong", not absolute and imbalance > 0)

    def acceleration(self, round_index: int) -> int:
        """The virtual points (tenths) when the round with 0-based index ``round_index`` was (or is) paired."""
        return self.accelerations[round_index] if 0 <= round_index < len(self.accelerations) else 0

    def score_before(self, rounds_back: int) -> int:
        """The pairing score ``rounds_back`` rounds ago (real points then, plus that round's virtual points)."""
        played = len(self.rounds)
        real = self.score - self.acceleration(played)
        since = sum(r.points for r in self.rounds[played - rounds_back :])
        return real - since + self.acceleration(played - rounds_back)


def build_state(
    number: int,
    rank: int,
    rounds: Sequence[PastRound],
    forbidden: frozenset[int] = frozenset(),
    accelerations: Sequence[int] = (),
) -> PlayerState:
    """Colour preference and the rest, computed from the player's earlier rounds.

    ``forbidden``: players the organiser keeps apart from this one this round; ``accelerations``: virtual points
    (tenths) by round index, ``score`` then includes those of the round being paired.
    """
    white = black = 0
    streak = 0
    last: Colour | None = None
    for r in rounds:
        if not r.played or r.colour is None:
            continue
        if r.colour is Colour.WHITE:
            white += 1
        else:
            black += 1
        streak = 1 if streak == 0 or r.colour is not last else streak + 1
        last = r.colour
    imbalance = abs(white - black)
    lower = Colour.BLACK if white > black else Colour.WHITE
    preference: Colour | None
    if imbalance > 1:
        preference = lower
    elif streak > 1:
        assert last is not None
        preference = last.other
    elif imbalance > 0:
        preference = lower
    elif streak:
        assert last is not None
        preference = last.other
    else:
        preference = None
    return PlayerState(
        number=number,
        rank=rank,
        rounds=tuple(rounds),
        score=sum(r.points for r in rounds) + (accelerations[len(rounds)] if len(accelerations) > len(rounds) else 0),
        white_games=white,
        black_games=black,
        preference=preference,
        repeated=last if streak > 1 else None,
        played_games=sum(1 for r in rounds if r.played),
        opponents=frozenset(r.opponent for r in rounds if r.played and r.opponent is not None),
        bye_eligible=not any(not r.played and r.points >= WIN for r in rounds),
        forbidden=forbidden,
        accelerations=tuple(accelerations),
    )


def float_of(player: PlayerState, rounds_back: int, by_number: Mapping[int, PlayerState]) -> Float:
    """The float ``rounds_back`` rounds ago: an unplayed round worth more than a loss is a downfloat (1.4.3)."""
    past = player.rounds[len(player.rounds) - rounds_back]
    if not past.played:
        # 1.4.3: scoring more than a loss without playing is a downfloat; a forfeit is not a meeting.
        return Float.DOWN if past.points > LOSS else Float.NONE
    own = player.score_before(rounds_back)
    opponent = by_number.get(past.opponent) if past.opponent is not None else None
    theirs = own if opponent is None else opponent.score_before(rounds_back)
    if own > theirs:
        return Float.DOWN
    if own < theirs:
        return Float.UP
    return Float.NONE
