"""Tie-breaks by FIDE C.07 ("Play-off and Tie-Break Regulations", 2024 and as amended in 2026), plus two togyz ones.

Each tie-break is a :class:`TieBreak`: a code and its modifiers, written as FIDE writes them (``BH/C1`` for
Buchholz cut-1, ``BH/M1`` for median Buchholz, ``PS/C1``, ``KS/L60``, ``ARO/C1``). :func:`compute` gives every
ranked player's value; direct encounter (``DE``) depends on the group of tied players and is computed by
:func:`direct_encounter_ranks` instead.

Unplayed rounds follow C.07 §16 as FIDE's own TieBreakServer implements it, in the version given as a
:class:`~toreshi.tournament.tiebreak_rules.TieBreakRules` (2024 rules, or as amended from 2026-03-01):

* a *voluntarily unplayed round* (VUR) is any round without a game over the board that did not bring a win's
  points: forfeit loss, half- or zero-point bye, absence. Forfeit wins, full-point byes and the PAB are not VURs;
* an opponent's score is *adjusted* for Buchholz-like values: the VURs without an opponent after their last
  round that was not a VUR (typically the rounds after a withdrawal) count as draws;
* in a Swiss, each of a player's own rounds without a game over the board contributes a dummy opponent whose
  score is the player's own final score; cutting drops VUR contributions first. From 2026 (§16.4) that score is
  capped: for a forfeit (a scheduled opponent exists) at that opponent's adjusted score, for a round without an
  opponent (a bye, an absence) at a draw in every round played so far;
* in a round robin the scheduled game counts as if played (everyone has the same schedule).

The togyz codes: ``BPTS`` — points scored as қостаушы (Black), the second criterion of the 2014 computer
championship after the mutual result; ``KUM`` — total kumalaks captured (final kazans of games played out;
forfeits and byes add nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from toreshi.tournament.model import Colour, Record, ResultCode, RoundEntry
from toreshi.tournament.tiebreak_rules import TieBreakRules

Value = Fraction | None


class TieBreakError(ValueError):
    """An unknown tie-break code or a modifier it does not take."""


class TieBreakCode(Enum):
    DE = "DE"
    """Direct encounter."""
    BPTS = "BPTS"
    """Points scored as қостаушы (Black) in games played over the board (togyz practice)."""
    WIN = "WIN"
    """Rounds that brought a win's points, played or not."""
    WON = "WON"
    """Games won over the board."""
    BPG = "BPG"
    """Games played as Black."""
    BWG = "BWG"
    """Games won as Black."""
    SB = "SB"
    BH = "BH"
    PS = "PS"
    KS = "KS"
    ARO = "ARO"
    TPR = "TPR"
    KUM = "KUM"
    """Total kumalaks captured."""


_CUTTABLE = {TieBreakCode.BH, TieBreakCode.SB, TieBreakCode.PS, TieBreakCode.ARO}
_SPEC = re.compile(r"^(?P<code>[A-Z]+)(?:/(?P<mod>[CML])(?P<n>\d{1,6}))?$")
"""A modifier's number has six digits at most (``int`` refuses 4300 with a bare ValueError; found by fuzzing)."""


@dataclass(frozen=True)
class TieBreak:
    """A tie-break with its modifiers.

    >>> TieBreak.parse("BH/C1")
    TieBreak(code=<TieBreakCode.BH: 'BH'>, cut_lowest=1, cut_highest=0, koya_limit=Fraction(50, 1), unrated_rating=None)
    >>> str(TieBreak.parse("bh/m1")), str(TieBreak.parse("KS/L60")), str(TieBreak(TieBreakCode.DE))
    ('BH/M1', 'KS/L60', 'DE')
    """

    code: TieBreakCode
    cut_lowest: int = 0
    cut_highest: int = 0
    koya_limit: Fraction = Fraction(50)
    """Koya: opponents with at least this percentage of the maximum possible score."""
    unrated_rating: int | None = None
    """ARO/TPR: the rating an unrated opponent counts with (``None``: left out)."""

    def __post_init__(self) -> None:
        if (self.cut_lowest or self.cut_highest) and self.code not in _CUTTABLE:
            raise TieBreakError(f"{self.code.value} takes no cut modifier")
        if self.cut_lowest < 0 or self.cut_highest < 0:
            raise TieBreakError("cuts must not be negative")

    @classmethod
    def parse(cls, text: str) -> TieBreak:
        match = _SPEC.match(text.strip().upper())
        if match is None:
            raise TieBreakError(f"cannot read tie-break {text[:40]!r}; write e.g. BH, BH/C1, BH/M1, KS/L60")
        try:
            code = TieBreakCode(match["code"])
        except ValueError:
            known = ", ".join(c.value for c in TieBreakCode)
            raise TieBreakError(f"unknown tie-break {match['code']!r}; known: {known}") from None
        mod, n = match["mod"], int(match["n"] or 0)
        if mod == "C":
            return cls(code, cut_lowest=n)
        if mod == "M":
            if code not in (TieBreakCode.BH, TieBreakCode.SB):
                raise TieBreakError(f"{code.value} has no median form")
            return cls(code, cut_lowest=n, cut_highest=n)
        if mod == "L":
            if code is not TieBreakCode.KS:
                raise TieBreakError(f"only Koya (KS) takes a limit, not {code.value}")
            return cls(code, koya_limit=Fraction(n))
        return cls(code)

    def __str__(self) -> str:
        if self.cut_lowest and self.cut_lowest == self.cut_highest:
            return f"{self.code.value}/M{self.cut_lowest}"
        if self.cut_lowest:
            return f"{self.code.value}/C{self.cut_lowest}"
        if self.code is TieBreakCode.KS and self.koya_limit != 50:
            return f"KS/L{self.koya_limit}"
        return self.code.value


def parse_order(codes: Iterable[str | TieBreak]) -> tuple[TieBreak, ...]:
    """A tie-break order from codes such as ``("DE", "BPTS", "SB")``."""
    return tuple(c if isinstance(c, TieBreak) else TieBreak.parse(c) for c in codes)


# --- unplayed rounds (C.07 §16) ---------------------------------------------------------------------------


def is_voluntarily_unplayed(entry: RoundEntry) -> bool:
    """A round without a game over the board that did not bring a win's points (C.07 16.2.5)."""
    return not entry.code.played and entry.code not in (
        ResultCode.FORFEIT_WIN,
        ResultCode.FULL_BYE,
        ResultCode.PAIRING_BYE,
    )


def adjusted_scores(record: Record) -> dict[int, Fraction]:
    """Each player's score as their opponents' tie-breaks see it (C.07 16.3).

    In a Swiss, the VURs without an opponent after the player's last non-VUR round count as draws, so that
    a withdrawn player's opponents are not penalised for rounds the player never came to.
    """
    scoring = record.scoring
    adjusted: dict[int, Fraction] = {}
    for player in record.participants:
        entries = record.entries.get(player, {})
        last_present = max((r for r, e in entries.items() if not is_voluntarily_unplayed(e)), default=0)
        total = Fraction(0)
        for rnd in range(1, record.rounds + 1):
            entry = entries.get(rnd)
            if entry is None:
                if not record.round_robin and rnd > last_present:
                    total += scoring.draw
                continue
            if not record.round_robin and rnd > last_present and entry.opponent is None:
                total += scoring.draw
            else:
                total += scoring.points(entry.code)
        adjusted[player] = total
    return adjusted


@dataclass(frozen=True)
class _Contribution:
    """One round's share of a Buchholz or Sonneborn–Berger sum."""

    score: Fraction
    value: Fraction
    voluntary: bool


def dummy_score(
    record: Record, entry: RoundEntry, adjusted: Mapping[int, Fraction], own_score: Fraction, rules: TieBreakRules
) -> Fraction:
    """The score of the dummy opponent that stands in for an unplayed round of a Swiss (C.07 16.4).

    2024: the player's own final score. 2026: the same, but at most the scheduled opponent's adjusted score
    for a forfeit (16.4.1), and at most a draw in every round for a round without an opponent (16.4.2).
    """
    if not rules.caps_dummy_opponents:
        return own_score
    if entry.opponent is not None:
        return min(own_score, adjusted[entry.opponent])
    return min(own_score, record.scoring.draw * record.rounds)


def _contributions(
    record: Record, player: int, adjusted: Mapping[int, Fraction], own_score: Fraction, rules: TieBreakRules
) -> list[_Contribution]:
    scoring = record.scoring
    entries = record.entries.get(player, {})
    result: list[_Contribution] = []
    for rnd in range(1, record.rounds + 1):
        entry = entries.get(rnd)
        if record.round_robin:
            # Everyone has the same schedule: the scheduled game counts as played, a rest round not at all.
            if entry is None or entry.opponent is None:
                continue
            score = adjusted[entry.opponent]
            result.append(_Contribution(score, score * scoring.points(entry.code), voluntary=False))
            continue
        if entry is None:
            entry = RoundEntry(rnd, ResultCode.ZERO_BYE)
        own = scoring.points(entry.code)
        if entry.code.played and entry.opponent is not None:
            score = adjusted[entry.opponent]
            result.append(_Contribution(score, score * own, voluntary=False))
        else:
            # C.07 16.4: a dummy opponent with the player's own score (capped from 2026).
            score = dummy_score(record, entry, adjusted, own_score, rules)
            result.append(_Contribution(score, score * own, is_voluntarily_unplayed(entry)))
    return result


def _cut(contributions: list[_Contribution], lowest: int, highest: int) -> list[_Contribution]:
    """Drop the ``lowest`` least significant values (VURs first) and the ``highest`` most significant."""
    remaining = list(contributions)
    for _ in range(min(lowest, len(remaining))):
        vurs = [c for c in remaining if c.voluntary]
        pool = vurs or remaining
        remaining.remove(min(pool, key=lambda c: (c.score, c.value)))
    for _ in range(min(highest, len(remaining))):
        remaining.remove(max(remaining, key=lambda c: (c.score, c.value)))
    return remaining


# --- the tie-breaks ---------------------------------------------------------------------------------------


def compute(tiebreak: TieBreak, record: Record, rules: TieBreakRules = TieBreakRules.C07_2026) -> dict[int, Value]:
    """The value of ``tiebreak`` for every ranked player (higher is better). Not for ``DE``.

    ``rules`` is the version of C.07 (it matters for Buchholz and Sonneborn–Berger in a Swiss with unplayed
    rounds); the newest by default, as for a tournament without a date.
    """
    players = record.ranked_players()
    code = tiebreak.code
    if code is TieBreakCode.DE:
        raise TieBreakError("direct encounter depends on the tied group: use direct_encounter_ranks")
    if code in (TieBreakCode.BH, TieBreakCode.SB):
        adjusted = adjusted_scores(record)
        values: dict[int, Value] = {}
        for p in players:
            contributions = _contributions(record, p, adjusted, record.points(p), rules)
            kept = _cut(contributions, tiebreak.cut_lowest, tiebreak.cut_highest)
            parts = [c.score if code is TieBreakCode.BH else c.value for c in kept]
            values[p] = sum(parts, Fraction(0))
        return values
    if code is TieBreakCode.PS:
        return {p: _progressive(record, p, tiebreak.cut_lowest) for p in players}
    if code is TieBreakCode.KS:
        return _koya(record, tiebreak.koya_limit)
    if code in (TieBreakCode.ARO, TieBreakCode.TPR):
        return {p: _performance(record, p, tiebreak) for p in players}
    counter = _COUNTERS[code]
    return {p: sum((counter(record, e) for e in record.rounds_of(p)), Fraction(0)) for p in players}


def _progressive(record: Record, player: int, cut_first: int) -> Fraction:
    running, total = Fraction(0), Fraction(0)
    entries = record.entries.get(player, {})
    for rnd in range(1, record.rounds + 1):
        entry = entries.get(rnd)
        running += record.scoring.points(entry.code) if entry else Fraction(0)
        if rnd > cut_first:
            total += running
    return total


def max_games(record: Record) -> int:
    """Games a player can play: every other ranked player once per cycle in a round robin, else the rounds."""
    if record.round_robin:
        return (len(record.ranked_players()) - 1) * record.cycles
    return record.rounds


def _koya(record: Record, limit_percent: Fraction) -> dict[int, Value]:
    limit = limit_percent / 100 * record.scoring.win * max_games(record)
    totals = {p: record.points(p) for p in record.participants}
    values: dict[int, Value] = {}
    for p in record.ranked_players():
        values[p] = sum(
            (
                record.scoring.points(e.code)
                for e in record.rounds_of(p)
                if e.opponent is not None and totals[e.opponent] >= limit
            ),
            Fraction(0),
        )
    return values


def _rating_points(code: ResultCode) -> Fraction:
    # Performance always counts 1 / ½ / 0, whatever the tournament's point system.
    if code in (ResultCode.WIN, ResultCode.UNRATED_WIN):
        return Fraction(1)
    if code in (ResultCode.DRAW, ResultCode.UNRATED_DRAW):
        return Fraction(1, 2)
    return Fraction(0)


def _performance(record: Record, player: int, tiebreak: TieBreak) -> Value:
    games: list[tuple[int, Fraction]] = []
    for entry in record.rounds_of(player):
        if not entry.code.played or entry.opponent is None:
            continue
        rating = record.participants[entry.opponent].rating
        rating = rating if rating is not None else tiebreak.unrated_rating
        if rating is not None:
            games.append((rating, _rating_points(entry.code)))
    games.sort(key=lambda g: g[0])
    games = games[tiebreak.cut_lowest : len(games) - tiebreak.cut_highest]
    if not games:
        return None
    aro = average_rating([r for r, _ in games])
    if tiebreak.code is TieBreakCode.ARO:
        return Fraction(aro)
    score = sum((s for _, s in games), Fraction(0))
    return Fraction(aro + rating_difference(score / len(games)))


def average_rating(ratings: list[int]) -> int:
    """The mean rating, rounded half up (FIDE).

    >>> average_rating([2000, 2001]), average_rating([1800, 1900, 2000])
    (2001, 1900)
    """
    mean = Fraction(sum(ratings), len(ratings))
    return int(mean + Fraction(1, 2)) if mean >= 0 else -int(-mean + Fraction(1, 2))


# FIDE Rating Regulations 8.1(a): the rating difference dp for a fractional score p = 0.00, 0.01, …, 1.00.
_DP_TABLE = (
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383,
    -366, -351, -336, -322, -309, -296, -284, -273, -262, -251,
    -240, -230, -220, -211, -202, -193, -184, -175, -166, -158,
    -149, -141, -133, -125, -117, -110, -102, -95, -87, -80,
    -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def rating_difference(p: Fraction) -> int:
    """dp for a fractional score, ``p`` rounded half up to two decimals first (FIDE 8.1(a)).

    >>> rating_difference(Fraction(1, 2)), rating_difference(Fraction(2, 3)), rating_difference(Fraction(1))
    (0, 125, 800)
    """
    if not 0 <= p <= 1:
        raise TieBreakError(f"a fractional score lies in 0..1, got {p}")
    return _DP_TABLE[int(p * 100 + Fraction(1, 2))]


def _brought_a_win(record: Record, entry: RoundEntry) -> bool:
    """WIN counts every round worth a win's points, over the board or not (forfeit win, full bye, PAB)."""
    if entry.code in (ResultCode.LOSS, ResultCode.FORFEIT_LOSS, ResultCode.ZERO_BYE, ResultCode.UNRATED_LOSS):
        return False
    return record.scoring.points(entry.code) == record.scoring.win


def _won(entry: RoundEntry) -> bool:
    return entry.code in (ResultCode.WIN, ResultCode.UNRATED_WIN)


_Counter = Callable[[Record, RoundEntry], Fraction]
_COUNTERS: dict[TieBreakCode, _Counter] = {
    TieBreakCode.WIN: lambda record, e: Fraction(int(_brought_a_win(record, e))),
    TieBreakCode.WON: lambda record, e: Fraction(int(_won(e))),
    TieBreakCode.BPG: lambda record, e: Fraction(int(e.code.played and e.colour is Colour.BLACK)),
    TieBreakCode.BWG: lambda record, e: Fraction(int(_won(e) and e.colour is Colour.BLACK)),
    TieBreakCode.BPTS: lambda record, e: (
        record.scoring.points(e.code) if e.code.played and e.colour is Colour.BLACK else Fraction(0)
    ),
    TieBreakCode.KUM: lambda record, e: Fraction(e.kumalaks or 0) if e.code.played else Fraction(0),
}


# --- direct encounter -------------------------------------------------------------------------------------


def direct_encounter_ranks(record: Record, group: Iterable[int]) -> dict[int, int]:
    """Ranks 1, 2, … inside a group of tied players by their games against each other (C.07 6).

    If every member has met every other (always so in a round robin), players are ordered by the points
    scored against the group, repeated meetings with one opponent averaged; a sub-group still tied is
    ranked again on its own games. If not all have met (a Swiss), a player goes ahead only when their score
    against the group beats the most any other member could reach by winning every missing game. Players
    the rule cannot separate share a rank.
    """
    members = sorted(set(group))
    ranks: dict[int, int] = {}
    _rank_group(record, members, 1, ranks)
    return ranks


def _rank_group(record: Record, members: list[int], first_rank: int, ranks: dict[int, int]) -> None:
    if len(members) == 1:
        ranks[members[0]] = first_rank
        return
    scores: dict[int, Fraction] = {}
    met_all = True
    for player in members:
        against: dict[int, list[Fraction]] = {}
        for entry in record.rounds_of(player):
            counts = entry.opponent in members and (entry.code.played or record.round_robin)
            if counts and entry.opponent is not None:
                against.setdefault(entry.opponent, []).append(record.scoring.points(entry.code))
        scores[player] = sum((Fraction(sum(s, Fraction(0)), len(s)) for s in against.values()), Fraction(0))
        missing = len(members) - 1 - len(against)
        if missing and not record.round_robin:
            met_all = False
    if met_all:
        _split_by_scores(record, members, scores, first_rank, ranks)
        return
    best_possible = {
        p: scores[p] + record.scoring.win * (len(members) - 1 - _opponents_met(record, p, members)) for p in members
    }
    order = sorted(members, key=lambda p: (-scores[p], -best_possible[p], p))
    rank = first_rank
    for i, player in enumerate(order):
        rest = order[i + 1 :]
        if rest and scores[player] > max(best_possible[q] for q in rest):
            ranks[player] = rank
            rank += 1
            continue
        tied = order[i:]
        if len(tied) < len(members):
            _rank_group(record, sorted(tied), rank, ranks)
        else:
            for q in tied:
                ranks[q] = rank
        return


def _opponents_met(record: Record, player: int, members: list[int]) -> int:
    return len({e.opponent for e in record.rounds_of(player) if e.code.played and e.opponent in members})


def _split_by_scores(
    record: Record, members: list[int], scores: Mapping[int, Fraction], first_rank: int, ranks: dict[int, int]
) -> None:
    rank = first_rank
    for value in sorted(set(scores.values()), reverse=True):
        tied = [p for p in members if scores[p] == value]
        if len(tied) < len(members):
            _rank_group(record, tied, rank, ranks)
        else:
            for p in tied:
                ranks[p] = rank
        rank += len(tied)
