"""Buzzer arbitration: who pressed first (SI-3.5), fairly across connections of different latency.

A pure component: it holds no sockets and reads no clock. The live layer feeds it presses with the server's
receipt time (and, for network clients, the client's own timestamp), asks :attr:`Arbiter.decision_due_ms` when to
decide, and calls :meth:`Arbiter.decide` then. Three modes (``docs/realtime.md`` §4, ``docs/svoya-igra.md`` §5.5):

* ``ARRIVAL`` — the first press to reach the server wins (SIGame ``FirstWins``, the Telegram bots). Favours
  low-latency teams.
* ``RANDOM_WINDOW`` — after the first arrival, wait a window (300 ms, SIGame's default) and pick uniformly at
  random among the presses received in it. Hides latency differences below the window by adding luck.
* ``COMPENSATED`` (default) — place each press on the server's clock with the client's clock-sync estimate
  (offset from the minimum-round-trip ping, NTP's clock filter), no earlier than its arrival less the shortest
  one-way trip the pings measured for that connection (:attr:`ClockSync.uplink_ms`), wait just long enough for a
  press made at the same moment by any eligible team to arrive (capped), and pick the earliest. A claim of more lag
  than the connection's round trips allow (:attr:`ClockSync.plausible_lag_ms`) is not believed at all: the press
  is placed at its arrival and marked ``backdated`` (issue 26), so backdating never gains. Nothing counts for more
  than the cap on compensation (:attr:`ArbiterSettings.max_compensation_ms`): a client that delays its pongs to
  look slow is compensated no more than the cap, and the host is told (:meth:`ArbiterSettings.suspect`).

Hardware buttons wired to the server carry exact server times: a :class:`ReceivedPress` without ``client_ms``.

>>> sync = ClockSync.from_samples([PingSample(sent_ms=0, client_ms=1_000_040, received_ms=80)])
>>> sync.offset_ms, sync.rtt_max_ms
(1000000, 80)
>>> remote = ArbiterSettings(max_compensation_ms=1_000)   # a link over the internet: 80 ms round trips are honest
>>> arbiter = Arbiter.open(0, ("A", "B"), {"A": sync, "B": ClockSync.exact()}, remote)
>>> arbiter = arbiter.press(ReceivedPress("B", received_ms=1_010))              # a hardware button at 1,010 ms
>>> arbiter = arbiter.press(ReceivedPress("A", received_ms=1_040, client_ms=1_001_000))   # pressed at 1,000 ms
>>> decision = arbiter.decide(arbiter.decision_due_ms or 0)
>>> decision.winner, [p.time_ms for p in decision.order]
('A', [1000, 1010])

On a club network (the default cap, 10 ms) the same claim is not believed beyond the cap, and the button wins:

>>> club = Arbiter.open(0, ("A", "B"), {"A": sync, "B": ClockSync.exact()})
>>> club = club.press(ReceivedPress("B", received_ms=1_010))
>>> club = club.press(ReceivedPress("A", received_ms=1_040, client_ms=1_001_000))
>>> club.decide(club.decision_due_ms or 0).winner
'B'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

__all__ = [
    "DEFAULT_MAX_COMPENSATION_MS",
    "Arbiter",
    "ArbiterSettings",
    "ArbitrationMode",
    "BuzzerError",
    "ClockSync",
    "Decision",
    "PingSample",
    "PlacedPress",
    "ReceivedPress",
    "TieRule",
]


class BuzzerError(ValueError):
    """A press or a request that breaks the arbiter's contract (a team not eligible, a second press, deciding too
    early, no ping samples). The live room checks all of these before it asks, so none reaches a user: one that
    does is a programming error."""


DEFAULT_MAX_COMPENSATION_MS = 10
"""The default cap on compensation (with the slack): chosen with ``benchmarks/buzzer_fairness.py`` on a club network
(round trips 4-40 ms). A client that lies about its link gains up to the cap less its true one-way delay: at 10 ms
it beats an honest team with the same link 50 % of the time, i.e. gains nothing (52-53 % at 20 ms, 70 % at 60 ms),
while honest first presses 10 ms ahead are still recognised 95 % of the time (arrival order: 88 %). A host on a slower
network may raise it (docs/decisions.md, "Buzzer fairness")."""


STAMP_SLACK_MS = 2
"""A client stamps a touch, and a pong, when its event loop gets to it: a millisecond or two late."""

SUSPECT_RTT_MS = 100
"""A median round trip no phone on a working club network has (Wi-Fi: a few ms to a few tens)."""


class ArbitrationMode(StrEnum):
    ARRIVAL = "arrival"
    RANDOM_WINDOW = "random_window"
    COMPENSATED = "compensated"


class TieRule(StrEnum):
    """How two presses placed at the same moment are ordered in compensated mode."""

    EARLIER_ARRIVAL = "earlier_arrival"
    RANDOM = "random"


@dataclass(frozen=True, slots=True)
class PingSample:
    """One ping: the server sent it at ``sent_ms``, the client stamped ``client_ms`` (its own clock) and the
    server got the answer back at ``received_ms``."""

    sent_ms: int
    client_ms: int
    received_ms: int

    @property
    def rtt_ms(self) -> int:
        return self.received_ms - self.sent_ms


def _percentile(sorted_values: list[int], share: float) -> int:
    index = min(len(sorted_values) - 1, max(0, round(share * (len(sorted_values) - 1))))
    return sorted_values[index]


@dataclass(frozen=True, slots=True)
class ClockSync:
    """A client's clock offset (client minus server) and latency profile, from repeated pings.

    The offset lies in ``[offset_low_ms, offset_high_ms]`` (every sample bounds it: the client stamped its
    reply after the server sent and before the server received); the point estimate comes from the sample with
    the smallest round trip, whose bounds are tightest.
    """

    offset_ms: int
    offset_low_ms: int
    offset_high_ms: int
    rtt_median_ms: int
    rtt_max_ms: int
    """The 95th-percentile round trip: the longest an uplink can plausibly take."""

    @staticmethod
    def exact() -> ClockSync:
        """A source on the server's own clock (hardware buttons, the host console)."""
        return ClockSync(0, 0, 0, 0, 0)

    @staticmethod
    def from_samples(samples: Iterable[PingSample]) -> ClockSync:
        samples = sorted(samples, key=lambda s: s.rtt_ms)
        if not samples:
            raise BuzzerError("clock sync needs at least one ping sample")
        if any(s.rtt_ms < 0 for s in samples):
            raise BuzzerError("a ping came back before it was sent")
        best = samples[0]
        low = max(s.client_ms - s.received_ms for s in samples)
        high = min(s.client_ms - s.sent_ms for s in samples)
        if low > high:  # the client's clock jumped between pings: fall back on the best sample alone
            low, high = best.client_ms - best.received_ms, best.client_ms - best.sent_ms
        offset = best.client_ms - (best.sent_ms + best.received_ms) // 2
        offset = min(max(offset, low), high)
        rtts = [s.rtt_ms for s in samples]
        return ClockSync(offset, low, high, _percentile(rtts, 0.5), _percentile(rtts, 0.95))

    @property
    def uncertainty_ms(self) -> int:
        return (self.offset_high_ms - self.offset_low_ms + 1) // 2

    @property
    def uplink_ms(self) -> int:
        """The shortest one-way trip from the client the pings measured, on this offset: the least time any of its
        pongs took to arrive after the client stamped it (about half the best round trip, whatever the link's
        up/down split, since the offset was estimated from that very ping)."""
        return max(0, self.offset_ms - self.offset_low_ms)

    @property
    def plausible_lag_ms(self) -> int:
        """The most an honest press of this client plausibly claims it was made before it arrived: half its 95th
        percentile round trip, and a little for the client's own event loop (:data:`STAMP_SLACK_MS`). A claim
        beyond it is not what the server measured for the connection: it is not believed (the press is placed at
        its arrival) and it is marked (``backdated``) for the host."""
        return (self.rtt_max_ms + 1) // 2 + STAMP_SLACK_MS


@dataclass(frozen=True, slots=True)
class ReceivedPress:
    """A press as the server received it. ``client_ms`` is the client's timestamp on its own clock; ``None``
    for a source on the server's clock (a hardware button), whose press time is ``received_ms``."""

    team: str
    received_ms: int
    client_ms: int | None = None


@dataclass(frozen=True, slots=True)
class PlacedPress:
    """A press placed on the server's clock, with everything an appeal needs to check the placement."""

    press: ReceivedPress
    time_ms: int
    uncertainty_ms: int = 0
    clamped: bool = False
    """The client's claim was impossible given its round trip (or before the buttons opened) and was moved."""
    backdated: bool = False
    """The client claimed more lag than the server measured for its connection (:meth:`Arbiter.allowed_lag_ms`)."""

    @property
    def team(self) -> str:
        return self.press.team


@dataclass(frozen=True, slots=True)
class ArbiterSettings:
    mode: ArbitrationMode = ArbitrationMode.COMPENSATED
    random_window_ms: int = 300
    """RANDOM_WINDOW: the collection window after the first arrival (SIGame's default)."""
    slack_ms: int = 20
    """COMPENSATED: added to a client's worst round trip when bounding its uplink."""
    min_window_ms: int = 30
    max_window_ms: int = 1_000
    """COMPENSATED: the wait after the first arrival is at least ``min`` and at most ``max``."""
    tie_margin_ms: int = 0
    """COMPENSATED: presses placed this close are simultaneous and ordered by :attr:`tie_rule`."""
    tie_rule: TieRule = TieRule.EARLIER_ARRIVAL
    max_compensation_ms: int = DEFAULT_MAX_COMPENSATION_MS
    """COMPENSATED: no team's uplink bound (its round trip plus :attr:`slack_ms`) counts for more than this. What a
    club network can honestly have (docs/decisions.md, "Buzzer fairness"); a team measured slower is placed as if
    its round trip were the cap — a lying client gains no more than the cap — and is shown to the host as suspect."""

    suspect_rtt_ms: int = SUSPECT_RTT_MS

    def suspect(self, sync: ClockSync) -> bool:
        """Whether a link is shown to the host as suspect: its median round trip exceeds both the cap and what a
        phone on a working club network has (:data:`SUSPECT_RTT_MS`). A phone on Wi-Fi often takes more than the
        10 ms cap and gains nothing from it; one that holds its pongs back to look slow shows as suspect."""
        return sync.rtt_median_ms > max(self.max_compensation_ms, self.suspect_rtt_ms)


@dataclass(frozen=True, slots=True)
class Decision:
    winner: str
    order: tuple[PlacedPress, ...]
    """Every press considered, first to last: the "lost button" display and the appeal record."""
    decided_ms: int
    first_arrival_ms: int
    tie: bool = False
    """The winner was picked by a tie rule or at random, not by time alone."""

    @property
    def added_delay_ms(self) -> int:
        """How long the decision waited after the first press arrived."""
        return self.decided_ms - self.first_arrival_ms


@dataclass(frozen=True, slots=True)
class Arbiter:
    """The presses for one opening of the buttons (a question, or its reopening after "неверно", SI-3.9)."""

    open_ms: int
    eligible: frozenset[str]
    syncs: Mapping[str, ClockSync]
    settings: ArbiterSettings = ArbiterSettings()
    presses: tuple[PlacedPress, ...] = ()

    @staticmethod
    def open(
        open_ms: int,
        eligible: Iterable[str],
        syncs: Mapping[str, ClockSync],
        settings: ArbiterSettings | None = None,
    ) -> Arbiter:
        """Open the buttons at server time ``open_ms`` for the teams that may still answer (SI-3.5)."""
        teams = frozenset(eligible)
        missing = sorted(t for t in teams if t not in syncs)
        settings = settings or ArbiterSettings()
        if missing and settings.mode is ArbitrationMode.COMPENSATED:
            raise BuzzerError(f"no clock sync for {', '.join(missing)}; ping them before opening the buttons")
        return Arbiter(open_ms, teams, dict(syncs), settings)

    def press(self, press: ReceivedPress) -> Arbiter:
        if press.team not in self.eligible:
            raise BuzzerError(f"{press.team!r} may not press now (already answered, or not in this game)")
        if any(p.team == press.team for p in self.presses):
            raise BuzzerError(f"{press.team!r} has already pressed")
        if self.presses and press.received_ms < self.presses[-1].press.received_ms:
            raise BuzzerError("presses must be fed in the order the server received them")
        return replace(self, presses=(*self.presses, self._place(press)))

    def _place(self, press: ReceivedPress) -> PlacedPress:
        if press.client_ms is None or self.settings.mode is not ArbitrationMode.COMPENSATED:
            return PlacedPress(press, press.received_ms)
        sync = self.syncs[press.team]
        claimed = press.client_ms - sync.offset_ms
        # Physics: a press is no later than its arrival; and it is placed no earlier than its arrival less the
        # connection's own measured one-way trip (and the cap): a claim of more lag than the server measured for
        # this connection gains nothing over an honest claim on the same link (issue 26).
        backdated = press.received_ms - claimed > sync.plausible_lag_ms
        if backdated:  # not believed at all: placed at its arrival, as a press with no claim would be
            return PlacedPress(press, press.received_ms, sync.uncertainty_ms, clamped=True, backdated=True)
        earliest = max(self.open_ms, press.received_ms - self.allowed_lag_ms(press.team))
        placed = min(max(claimed, earliest), press.received_ms)
        return PlacedPress(press, placed, sync.uncertainty_ms, clamped=placed != claimed, backdated=backdated)

    def allowed_lag_ms(self, team: str) -> int:
        """The most a press of ``team`` may claim it was made before it arrived and still be placed as claimed: the
        shortest one-way trip its pings measured (:attr:`ClockSync.uplink_ms`), never more than the uplink bound
        (:meth:`_uplink_bound`, capped by :attr:`ArbiterSettings.max_compensation_ms`)."""
        sync = self.syncs.get(team)
        if sync is None:
            return 0
        return min(sync.uplink_ms, self._uplink_bound(team))

    def _uplink_bound(self, team: str) -> int:
        sync = self.syncs.get(team)
        if sync is None or sync.rtt_max_ms == 0:
            return 0
        return min(sync.rtt_max_ms + self.settings.slack_ms, self.settings.max_compensation_ms)

    @property
    def first_arrival_ms(self) -> int | None:
        return self.presses[0].press.received_ms if self.presses else None

    @property
    def decision_due_ms(self) -> int | None:
        """When to decide; ``None`` until the first press arrives."""
        first = self.first_arrival_ms
        if first is None:
            return None
        settings = self.settings
        if settings.mode is ArbitrationMode.ARRIVAL:
            return first
        if settings.mode is ArbitrationMode.RANDOM_WINDOW:
            return first + settings.random_window_ms
        pressed = {p.team for p in self.presses}
        waiting = self.eligible - pressed
        if not waiting:
            return self.presses[-1].press.received_ms
        # A press made at the earliest placed moment by a team yet to be heard from arrives by then.
        earliest = min(p.time_ms for p in self.presses)
        needed = earliest + max(self._uplink_bound(t) for t in waiting)
        # Never below the latest press already in: it takes part whatever the new estimate says.
        latest = self.presses[-1].press.received_ms
        return max(latest, min(first + settings.max_window_ms, max(first + settings.min_window_ms, needed)))

    def decide(self, now_ms: int, rng: random.Random | None = None) -> Decision:
        """The winner and the full order. ``rng`` draws the random pick (RANDOM_WINDOW, or a random tie rule) and
        is required when one is made: the arbiter has no randomness of its own."""
        due = self.decision_due_ms
        if due is None:
            raise BuzzerError("nobody has pressed")
        if now_ms < due:
            raise BuzzerError(f"too early to decide: wait until {due} ms")
        first = self.presses[0].press.received_ms
        # Presses fed in before the decision all count, except in RANDOM_WINDOW, whose window is fixed.
        considered = list(self.presses)
        mode = self.settings.mode
        if mode is ArbitrationMode.RANDOM_WINDOW:
            considered = [p for p in considered if p.press.received_ms <= due]
            pick = _draw(rng, len(considered))
            winner = considered[pick]
            order = (winner, *(p for p in considered if p is not winner))
            return Decision(winner.team, order, now_ms, first, tie=len(considered) > 1)
        ordered = sorted(considered, key=lambda p: (p.time_ms, p.press.received_ms))
        tie = False
        if mode is ArbitrationMode.COMPENSATED and len(ordered) > 1:
            level = [p for p in ordered if p.time_ms - ordered[0].time_ms <= self.settings.tie_margin_ms]
            if len(level) > 1:
                tie = True
                rest = [p for p in ordered if p not in level]
                if self.settings.tie_rule is TieRule.EARLIER_ARRIVAL:
                    ordered = [*sorted(level, key=lambda p: p.press.received_ms), *rest]
                else:
                    chosen = level[_draw(rng, len(level))]
                    ordered = [chosen, *(p for p in ordered if p is not chosen)]
        return Decision(ordered[0].team, tuple(ordered), now_ms, first, tie=tie)


def _draw(rng: random.Random | None, count: int) -> int:
    if rng is None:
        raise TypeError("a random pick needs the generator passed to Arbiter.decide")
    return rng.randrange(count)
