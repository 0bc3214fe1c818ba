"""The reconnect history never hands a client a list with a hole: either every event after its version, in order, or
``None`` (take a snapshot)."""

from __future__ import annotations

import pytest
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


def test_an_empty_history_knows_a_new_client_is_current_and_a_returning_one_is_not() -> None:
    history = History(capacity=1)
    assert history.last_version is None
    assert history.since(0) == []  # nothing happened yet: a client that saw nothing is current
    assert history.since(1) is None  # a client that saw events this history never had must take a snapshot


def test_a_history_holds_at_least_one_event() -> None:
    with pytest.raises(ValueError, match="at least one"):
        History(capacity=0)
    history = History(capacity=1)
    history.add(1, _event(1))
    history.add(2, _event(2))
    assert history.since(1) == [_event(2)] and history.since(0) is None and history.last_version == 2


def test_a_gap_in_the_versions_forgets_what_came_before_it() -> None:
    history = History(capacity=10)
    for version in (1, 2, 3):
        history.add(version, _event(version))
    history.add(7, _event(7))  # a resync: 4-6 were never seen here
    assert history.last_version == 7
    assert history.since(6) == [_event(7)]
    assert history.since(3) is None and history.since(2) is None  # the events before the gap no longer connect
    history.add(8, _event(8))
    assert history.since(6) == [_event(7), _event(8)] and history.since(7) == [_event(8)] and history.since(8) == []
