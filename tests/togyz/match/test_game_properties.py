"""Random command sequences never break the game's invariants, only refusals refuse them (never another
exception), and the log always replays to the same state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toreshi.clock import ClockState, TimeControl
from toreshi.clock.flag import FlagMode
from toreshi.kit.refusal import Refused
from toreshi.togyz import BLACK, WHITE, Side
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.events import Actor, ProtestFiled, ResultSigned
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings, SealedMovePolicy
from toreshi.togyz.match.state import GameStatus

from .game_fixtures import SALT

COMMANDS = [
    "move",
    "move",
    *["move_legal"] * 16,
    "press",
    "offer",
    "accept",
    "decline",
    "tick",
    "claim",
    "pause",
    "resume",
    "add",
    "set",
    "extend",
    "adjourn",
    "open",
    "open_wrong",
    "arrive",
    "default",
    "sign",
    "protest",
    "resign",
    "decide",
]
steps = st.lists(
    st.tuples(
        st.sampled_from(COMMANDS),
        st.sampled_from([WHITE, BLACK]),
        st.integers(1, 9),
        st.one_of(st.integers(0, 1_500), st.integers(0, 1_500), st.integers(0, 1_500), st.integers(0, 90_000)),
        st.booleans(),
    ),
    min_size=1,
    max_size=150,
)
game_settings = st.builds(
    GameSettings,
    flag_mode=st.sampled_from(list(FlagMode)),
    flag_with_81_draws=st.booleans(),
    complete_move_after_flag=st.booleans(),
    late_limit_ms=st.integers(0, 120_000),
    sealed_move_policy=st.sampled_from(list(SealedMovePolicy)),
    lag_compensation=st.booleans(),
)
absent: st.SearchStrategy[set[Side]] = st.one_of(st.just(set()), st.sets(st.sampled_from([WHITE, BLACK]), max_size=2))


def _run(
    game: MatchGame, command: str, side: Side, hole: int, now: int, flag: bool, sealed: dict[str, int]
) -> MatchGame:
    state = game.state
    if command == "move":
        return game.move(side, hole, now_ms=now, offer_draw=flag, press=not flag or hole % 2 == 0, lag_ms=hole * 50)
    if command == "move_legal":
        legal = state.board.legal_moves()
        mover = state.board.turn
        return game.move(mover, legal[hole % len(legal)] if legal else hole, now_ms=now, offer_draw=flag)
    if command == "press":
        return game.press(state.clock.active if flag else side, now_ms=now)
    if command == "offer":
        return game.offer_draw(side, now_ms=now)
    if command == "accept":
        return game.accept_draw(side, now_ms=now)
    if command == "decline":
        return game.decline_draw(side, now_ms=now)
    if command == "tick":
        return game.tick(now_ms=now)
    if command == "claim":
        return game.claim_flag(Actor.ARBITER if flag else Actor.player(side), now_ms=now)
    if command == "pause":
        return game.pause(Actor.player(side), now_ms=now)
    if command == "resume":
        return game.resume(now_ms=now)
    if command == "add":
        return game.add_time(side, (hole - 5) * 30_000, now_ms=now)
    if command == "set":
        return game.set_clocks(hole * 10_000, (10 - hole) * 10_000, now_ms=now)
    if command == "extend":
        return game.extend_both_flags(now_ms=now)
    if command == "adjourn":
        sealer = state.board.turn if flag else side
        result = game.adjourn(sealer, hole, SALT, now_ms=now)
        sealed["hole"] = hole
        return result
    if command == "open":
        return game.open_envelope(sealed.get("hole", hole), SALT, now_ms=now)
    if command == "open_wrong":
        return game.open_envelope(hole, "f" * 32, now_ms=now)
    if command == "arrive":
        return game.arrive(side, now_ms=now)
    if command == "default":
        return game.declare_default(now_ms=now)
    if command == "sign":
        return game.sign(side, now_ms=now)
    if command == "protest":
        return game.file_protest(side, now_ms=now)
    if command == "resign":
        return game.resign(side, now_ms=now) if flag and hole == 9 else game
    if command == "decide":
        return game.decide(GameResult.DRAW, "arbiters' decision", now_ms=now) if flag and hole == 9 else game
    raise AssertionError(command)


def _check_invariants(game: MatchGame, now: int) -> None:
    state = game.state
    clock = state.clock
    for side in (WHITE, BLACK):
        assert clock.remaining(side, now) >= 0
        assert clock.side(side).used_ms >= 0
    assert state.board.total() == 162
    if state.status is GameStatus.LIVE:
        assert clock.running_side in (WHITE, BLACK)  # exactly one dial runs while the game is live
    else:
        assert clock.running_side is None
    if state.status is GameStatus.FINISHED:
        assert state.ending is not None and clock.state in (ClockState.STOPPED, ClockState.NOT_STARTED)
    assert state.draw_offer is None or state.draw_offer in state.draw_offers_made
    assert all(ply.token[0] == str(ply.hole) for ply in state.plies)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(st.integers(2_000, 30_000), st.integers(30_000, 1_200_000)),
    game_settings,
    absent,
    st.integers(0, 2**32),
    st.integers(0, 250),
    steps,
)
def test_random_commands_keep_the_invariants(
    base_ms: int,
    rules: GameSettings,
    missing: set[Side],
    seed: int,
    opening_plies: int,
    commands: list[tuple[str, Side, int, int, bool]],
) -> None:
    game = MatchGame.create("A", "B", TimeControl.sudden_death(base_ms), rules, now_ms=0)
    try:
        game = game.start(now_ms=0, absent=missing)
    except Refused:
        game = game.start(now_ms=0)
    now = 0
    # A random opening of legal moves, so that the commands also meet deep positions and board endings.
    rng = random.Random(seed)
    for _ in range(opening_plies):
        legal = game.state.board.legal_moves()
        if game.state.status is not GameStatus.LIVE or not legal or game.state.absent:
            break
        now += 5
        game = game.move(game.state.board.turn, rng.choice(legal), now_ms=now)
    sealed: dict[str, int] = {}
    for command, side, hole, advance, flag in commands:
        now += advance
        before, board_before = game, to_fen(game.state.board)
        try:
            game = _run(game, command, side, hole, now, flag, sealed)
        except Refused:
            # A refused command leaves the game as it was: the board (the one mutable part) is untouched. Only
            # refusals: any other exception is a bug, and fails the test.
            assert game is before and to_fen(game.state.board) == board_before
            continue
        new_events = game.events[len(before.events) :]
        assert game.events[: len(before.events)] == before.events  # the log is append-only
        if before.state.is_over:
            assert all(isinstance(event, ResultSigned | ProtestFiled) for event in new_events)
        _check_invariants(game, now)
    event(f"status {game.state.status.value}")
    event(f"{len(game.state.plies) // 50 * 50}+ plies")
    replayed = MatchGame.from_dicts(game.to_dicts())
    assert replayed.state == game.state
