"""Who may start a practice game, and which game makes room (issue 26): the pure decision behind the form."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.services.practice_quota import Admission, PracticeLimits, Refusal, Seat, admit, idle_rooms

LIMITS = PracticeLimits(max_games=6, per_browser=3, per_address=4, idle_seconds=600)


def seat(room: str, browser: str, address: str = "10.0.0.1", last_move: float = 1000.0) -> Seat:
    return Seat(room, browser, address, last_move)


def test_a_browser_holds_its_quota_then_may_end_its_oldest_game() -> None:
    held = [seat("a", "flood", last_move=900), seat("b", "flood", last_move=800), seat("c", "flood", last_move=950)]
    assert admit(held, "flood", "10.0.0.1", LIMITS, 1000) == Admission(refused=Refusal.BROWSER)
    assert admit(held, "flood", "10.0.0.1", LIMITS, 1000, end_oldest=True) == Admission(reclaim=("b",))


def test_an_address_holds_its_quota_whatever_its_cookies() -> None:
    held = [seat(f"r{index}", f"cookie-{index}") for index in range(4)]
    assert admit(held, "cookie-new", "10.0.0.1", LIMITS, 1000).refused is Refusal.ADDRESS
    assert admit(held, "cookie-new", "10.0.0.2", LIMITS, 1000) == Admission()


def test_idle_games_are_reclaimed_and_make_room() -> None:
    held = [seat("old", "x", last_move=0), seat("new", "x", last_move=900)]
    assert idle_rooms(held, LIMITS, 1000) == ["old"]
    assert admit([*held, seat("n", "x", last_move=990)], "x", "10.0.0.9", LIMITS, 1000) == Admission(reclaim=("old",))


def test_a_full_instance_takes_the_longest_idle_game_of_whoever_holds_the_most() -> None:
    held = [
        seat("f1", "flood", "10.0.0.1", last_move=700),
        seat("f2", "flood", "10.0.0.1", last_move=650),
        seat("f3", "flood", "10.0.0.1", last_move=900),
        seat("p1", "pair", "10.0.0.2", last_move=100 + 500),
        seat("p2", "pair", "10.0.0.2", last_move=600),
        seat("s1", "single", "10.0.0.3", last_move=500),
    ]
    assert admit(held, "newcomer", "10.0.0.4", LIMITS, 1000) == Admission(reclaim=("f2",))


def test_a_full_instance_of_single_games_is_full() -> None:
    held = [seat(f"r{index}", f"b{index}", f"10.0.0.{index}") for index in range(6)]
    assert admit(held, "newcomer", "10.0.1.1", LIMITS, 1000) == Admission(refused=Refusal.FULL)


seats = st.lists(
    st.builds(
        Seat,
        st.uuids().map(str),
        st.sampled_from(["flood", "a", "b", "c", "", "d"]),
        st.sampled_from(["10.0.0.1", "10.0.0.2", "10.0.0.3"]),
        st.floats(0, 1000),
    ),
    max_size=12,
    unique_by=lambda found: found.room_id,
)


@settings(max_examples=150, deadline=None)
@given(seats, st.integers(1, 8), st.integers(1, 4), st.integers(1, 8))
def test_a_newcomer_is_never_shut_out_while_someone_holds_more_than_one(
    held: list[Seat], max_games: int, per_browser: int, per_address: int
) -> None:
    limits = PracticeLimits(max_games=max_games, per_browser=per_browser, per_address=per_address, idle_seconds=600)
    now = 1000.0
    answer = admit(held, "newcomer", "10.9.9.9", limits, now)
    left = [found for found in held if found.room_id not in answer.reclaim]
    # Only games being played are reclaimed, and only as many as needed: idle ones, then one per missing seat.
    assert set(answer.reclaim) <= {found.room_id for found in held}
    assert set(idle_rooms(held, limits, now)) <= set(answer.reclaim)
    if answer.refused is None:
        assert len(left) < max_games
        assert len(answer.reclaim) <= len(idle_rooms(held, limits, now)) + max(0, len(held) - max_games + 1)
    else:
        # A newcomer (its own browser, a fresh address) is refused only when every game has a different holder.
        assert answer.refused is Refusal.FULL
        holders = [found.browser or found.room_id for found in left]
        assert len(holders) == len(set(holders)) and len(left) >= max_games
