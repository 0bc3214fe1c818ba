"""The reconnect history never hands a client a list with a hole: either every event after its version, in order, or
``None`` (take a snapshot)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.live.history import History
from toreshi.live.protocol import EventFrame


@settings(max_examples=300)
@given(
    capacity=st.integers(1, 6),
    steps=st.lists(st.integers(1, 3), max_size=20),
    asked=st.integers(0, 70),
)
def test_since_gives_every_later_event_in_order_or_none(capacity: int, steps: list[int], asked: int) -> None:
    history = History(capacity)
    version = 0
    kept: list[int] = []  # the versions a correct history may still hold, oldest first
    for step in steps:
        version += step  # a step over 1 is a gap (a resync): what came before no longer connects
        kept = [*kept, version] if step == 1 else [version]
        kept = kept[-capacity:]
        history.add(version, _event(version))
    answer = history.since(asked)
    if asked == version:
        assert answer == []  # the client is current
        return
    if answer is None:
        # Only when the events after `asked` are not all here (or the client is ahead of the room).
        assert asked > version or not kept or asked + 1 < kept[0]
        return
    assert [message.v for message in answer] == list(range(asked + 1, version + 1))


def test_the_oldest_kept_event_is_given_to_a_client_just_before_it() -> None:
    history = History(capacity=3)
    for version in range(1, 6):
        history.add(version, _event(version))
    assert history.since(2) == [_event(3), _event(4), _event(5)]
    assert history.since(1) is None  # version 2 is gone
    assert history.since(6) is None  # a client ahead of the room (a room rebuilt from an older log) starts again


def _event(version: int) -> EventFrame:
    return EventFrame("g-1", version, "moved", {}, ts=version * 1000)
