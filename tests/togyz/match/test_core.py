"""The togyz core on the kit: ``decide`` returns events or a refusal (never raises one), ``evolve`` folds them, and
what an actor may do (``can``) is exactly what ``decide`` accepts."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.clock import BLITZ, TimeControl
from toreshi.clock.flag import FlagMode
from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Common, Refusal
from toreshi.togyz.match import core
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import (
    AcceptDraw,
    Adjourn,
    CancelAdjournment,
    ClaimFlag,
    Create,
    DeclareDefault,
    DeclineDraw,
    ExtendBothFlags,
    Move,
    OfferDraw,
    Pause,
    PressClock,
    RequestAdjournment,
    Resign,
    Resume,
    Sign,
    Start,
    TogyzCommand,
)
from toreshi.togyz.match.core import Match, decide, evolve, fold
from toreshi.togyz.match.events import GameEvent
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.settings import GameSettings

ARBITER, WHITE, BLACK = Actor("arbiter"), Actor("white"), Actor("black")
SALT = "5eed" * 8


def at(actor: Actor, now_ms: int) -> Context:
    return Context(actor, now_ms)


def new_match(control: TimeControl = BLITZ, game_settings: GameSettings | None = None) -> Match:
    create = Create("Асқар", "Бекзат", control, game_settings or GameSettings())
    return fold(Match(), decide(Match(), create, at(ARBITER, 0)))


def test_before_the_game_only_the_arbiter_creates() -> None:
    assert decide(Match(), Start(), at(ARBITER, 0)) == Refusal(TogyzCode.NO_GAME)
    assert decide(Match(), Create("a", "b", BLITZ), at(WHITE, 0)) == Refusal(TogyzCode.NO_GAME)
    match = new_match()
    assert match.state is not None and match.state.names() == ("Асқар", "Бекзат")
    assert decide(match, Create("a", "b", BLITZ), at(ARBITER, 1)) == Refusal(TogyzCode.ALREADY_CREATED)


def test_roles_come_from_the_connection() -> None:
    match = fold(new_match(), decide(new_match(), Start(), at(ARBITER, 0)))
    assert decide(match, Start(), at(WHITE, 1)) == Refusal(Common.FORBIDDEN, {"command": "start", "role": "white"})
    assert decide(match, Resign(), at(Actor("spectator"), 1)) == Refusal(
        Common.FORBIDDEN, {"command": "resign", "role": "spectator"}
    )
    assert decide(match, Resign(), at(Actor("team:1"), 1)) == Refusal(
        Common.FORBIDDEN, {"command": "resign", "role": "spectator"}
    )


def test_decide_then_evolve_is_the_game_fold() -> None:
    match = new_match()
    steps: list[tuple[TogyzCommand, Actor, int]] = [
        (Start(), ARBITER, 0),
        (Move(7, offer_draw=True), WHITE, 1_000),
        (DeclineDraw(), BLACK, 1_500),
        (Move(9), BLACK, 2_000),
        (RequestAdjournment(), ARBITER, 2_500),
        (Adjourn(1, SALT), WHITE, 3_000),
    ]
    events: list[GameEvent] = []
    for command, actor, now in steps:
        decided = decide(match, command, at(actor, now))
        assert not isinstance(decided, Refusal), (command, decided)
        events.extend(decided)
        match = fold(match, decided)
    assert match.game is not None
    assert match.game.events[1:] == tuple(event for event in events if event.type != "adjournment_requested")
    assert MatchGame.replay(match.game.events).state == match.game.state
    assert not match.adjournment_requested  # sealing settles the request


def test_a_refusal_names_the_players() -> None:
    match = fold(new_match(), decide(new_match(), Start(absent=(core.PLAYERS["black"],)), at(ARBITER, 0)))
    match = fold(match, decide(match, Move(7), at(WHITE, 100)))
    refusal = decide(match, Move(1), at(BLACK, 200))
    assert refusal == Refusal(TogyzCode.NOT_ARRIVED, {"player": "Бекзат", "clause": "TK-C6"})
    refusal = decide(match, PressClock(), at(WHITE, 300))
    assert refusal == Refusal(TogyzCode.NOT_YOUR_CLOCK, {"player": "Асқар", "opponent": "Бекзат"})


PROBES: list[tuple[TogyzCommand, tuple[Actor, ...]]] = [
    (OfferDraw(), (WHITE, BLACK)),
    (AcceptDraw(), (WHITE, BLACK)),
    (DeclineDraw(), (WHITE, BLACK)),
    (Resign(), (WHITE, BLACK)),
    (Sign(), (WHITE, BLACK)),
    (PressClock(), (WHITE, BLACK)),
    (ClaimFlag(), (WHITE, BLACK)),
    (Start(), (ARBITER,)),
    (Pause(), (ARBITER,)),
    (Resume(), (ARBITER,)),
    (ExtendBothFlags(), (ARBITER,)),
    (DeclareDefault(), (ARBITER,)),
    (RequestAdjournment(), (ARBITER,)),
    (CancelAdjournment(), (ARBITER,)),
]

actions = st.lists(
    st.tuples(
        st.sampled_from(
            [*(command for command, _ in PROBES), Move(1), Move(5), Move(9), Move(7, press=False), Adjourn(3, SALT)]
        ),
        st.sampled_from([WHITE, BLACK, ARBITER]),
        st.integers(0, 20_000),
    ),
    max_size=60,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=actions, claim=st.booleans(), begun=st.booleans())
def test_can_is_exactly_what_decide_accepts(
    actions: list[tuple[TogyzCommand, Actor, int]], claim: bool, begun: bool
) -> None:
    flags = GameSettings(flag_mode=FlagMode.CLAIM if claim else FlagMode.AUTOMATIC)
    match, now = new_match(TimeControl.sudden_death(30_000), flags), 0
    if begun:
        match = fold(match, decide(match, Start(), at(ARBITER, 0)))
    for command, actor, advance in actions:
        now += advance
        for who in (WHITE, BLACK, ARBITER):
            listed = set(core.can(match, who, now))
            for probe, roles in PROBES:
                if who in roles:
                    accepted = not isinstance(decide(match, probe, at(who, now)), Refusal)
                    assert accepted == (probe.type in listed), (probe, who, listed)
            holes = core.playable_holes(match.state) if match.state is not None else []
            assert ("move" in listed) == any(
                not isinstance(decide(match, Move(hole), at(who, now)), Refusal) for hole in holes
            )
            sealing = [not isinstance(decide(match, Adjourn(hole, SALT), at(who, now)), Refusal) for hole in holes]
            assert ("adjourn" in listed) == (who is not ARBITER and any(sealing)), (who, listed)
        decided = decide(match, command, at(actor, now))
        if not isinstance(decided, Refusal):
            match = evolve(match, decided[0]) if len(decided) == 1 else fold(match, decided)
        due = core.due(match, now)
        match = fold(match, due)


def _adjourning(match: Match, now: int) -> Match:
    return fold(match, decide(match, RequestAdjournment(), at(ARBITER, now)))


def test_once_the_arbiter_adjourns_the_only_move_is_the_sealed_one() -> None:
    """TK-A2, from the arbiter's side: after the arbiter adjourns, the player to move cannot play openly (which
    would pass the duty to seal to the opponent); only sealing, by that player, is accepted."""
    match = fold(new_match(), decide(new_match(), Start(), at(ARBITER, 0)))
    match = _adjourning(match, 1_000)
    assert match.sealer is core.PLAYERS["white"]
    refused = Refusal(TogyzCode.SEAL_ONLY_WHILE_ADJOURNING, {"player": "Асқар", "clause": "TK-A2"})
    for hole in range(1, 10):
        assert decide(match, Move(hole), at(WHITE, 2_000)) == refused
    assert "move" not in core.can(match, WHITE, 2_000)
    assert "adjourn" in core.can(match, WHITE, 2_000)
    assert "adjourn" not in core.can(match, BLACK, 2_000)
    assert decide(match, Adjourn(3, SALT), at(BLACK, 2_000)) == Refusal(
        TogyzCode.SEALER_NOT_TO_MOVE, {"player": "Бекзат", "to_move": "Асқар"}
    )
    sealed = fold(match, decide(match, Adjourn(3, SALT), at(WHITE, 2_500)))
    assert sealed.state is not None and sealed.state.envelope is not None
    assert sealed.state.envelope.sealer is core.PLAYERS["white"]
    # Cancelling the adjournment gives open play back.
    cancelled = fold(match, decide(match, CancelAdjournment(), at(ARBITER, 2_000)))
    assert not isinstance(decide(cancelled, Move(3), at(WHITE, 2_500)), Refusal)


def test_adjourned_after_a_move_on_the_board_the_press_completes_it_and_the_opponent_seals() -> None:
    """Adjourned between a move and its press: pressing completes the move already made (not open play); the
    player whose turn it is on the board seals, and nobody else."""
    match = fold(new_match(), decide(new_match(), Start(), at(ARBITER, 0)))
    match = fold(match, decide(match, Move(7, press=False), at(WHITE, 1_000)))
    match = _adjourning(match, 1_500)
    assert match.sealer is core.PLAYERS["black"]
    match = fold(match, decide(match, PressClock(), at(WHITE, 2_000)))
    assert decide(match, Move(1), at(BLACK, 2_500)) == Refusal(
        TogyzCode.SEAL_ONLY_WHILE_ADJOURNING, {"player": "Бекзат", "clause": "TK-A2"}
    )
    assert "adjourn" not in core.can(match, WHITE, 2_500)
    sealed = fold(match, decide(match, Adjourn(1, SALT), at(BLACK, 3_000)))
    assert sealed.state is not None and sealed.state.envelope is not None
    assert sealed.state.envelope.sealer is core.PLAYERS["black"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=actions)
def test_the_duty_to_seal_never_moves(actions: list[tuple[TogyzCommand, Actor, int]]) -> None:
    """Whatever anyone sends after the arbiter adjourns, no move is played openly, and the game is adjourned (if
    at all) with the player who was to move when the arbiter adjourned as the sealer."""
    created = new_match(TimeControl.sudden_death(600_000))
    match = fold(created, decide(created, Start(), at(ARBITER, 0)))
    match, now = _adjourning(match, 0), 0
    assert match.state is not None
    sealer = match.state.board.turn
    for command, actor, advance in actions:
        now += advance
        decided = decide(match, command, at(actor, now))
        if isinstance(decided, Refusal):
            continue
        if not match.adjournment_requested:
            break  # cancelled, sealed or over: the adjournment has ended
        assert "move_played" not in [event.type for event in decided], (command, actor)
        match = fold(match, decided)
        state = match.state
        assert state is not None
        if state.envelope is not None:
            assert state.envelope.sealer is sealer
        elif match.adjournment_requested:
            assert match.sealer is sealer and state.board.turn is sealer
