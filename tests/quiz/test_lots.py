"""SI-3.2 (issue 29): the order of choice at the start of a game is drawn by lot from a seed published before the
draw: the same seed and teams draw the same order on any machine, whatever order the teams were typed in; the
documented vectors hold; the host's draw uses the game's seed and an override is logged."""

from __future__ import annotations

import hashlib
import random

import pytest

from toreshi.kit.core import Actor, Context, fold
from toreshi.kit.lots import METHOD, LotsError, fold_name, lot, new_seed, order_by_lot
from toreshi.kit.refusal import Refusal, Refused
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, FirstChooserDrawn, GameCreated, GameSetup
from toreshi.quiz.game import GameState, Phase
from toreshi.quiz.lots import WHAT, choice_order
from toreshi.quiz.play.commands import CreateGame, Draw
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алау", "Барыс", "Қыран")
HOST = Actor("host", "Жанна")

# The vectors docs/decisions.md and the module's docstring publish: anyone re-implementing the method checks them.
VECTORS = [
    ("2026-spring", ("Алау", "Барыс", "Қыран"), ("Алау", "Қыран", "Барыс")),
    ("si-final", ("A", "B", "C", "D"), ("B", "D", "C", "A")),
]


@pytest.mark.parametrize(("seed", "teams", "order"), VECTORS)
def test_the_documented_vectors(seed: str, teams: tuple[str, ...], order: tuple[str, ...]) -> None:
    assert choice_order(seed, teams) == order


def test_a_lot_is_the_sha256_of_the_method_the_seed_what_and_the_folded_name() -> None:
    by_hand = hashlib.sha256(f"{METHOD}\x1f2026-spring\x1f{WHAT}\x1fалау".encode()).digest()
    assert lot("2026-spring", WHAT, fold_name("  АЛАУ ")) == by_hand
    digests = sorted((lot("2026-spring", WHAT, fold_name(team)), team) for team in TEAMS)
    assert tuple(team for _, team in digests) == choice_order("2026-spring", TEAMS)


def test_the_same_seed_draws_the_same_order_whatever_the_typing_order_and_other_seeds_other_orders() -> None:
    first = choice_order("Тараз 2026", TEAMS)
    assert sorted(first) == sorted(TEAMS)
    assert choice_order("Тараз 2026", tuple(reversed(TEAMS))) == first
    assert choice_order("  Тараз 2026 ", TEAMS) == first  # the published seed is stripped
    orders = {choice_order(f"seed {n}", TEAMS) for n in range(40)}
    assert len(orders) == 6  # every order of three teams comes up
    assert {order[0] for order in orders} == set(TEAMS)
    with pytest.raises(LotsError):
        choice_order(" \n ", TEAMS)


def test_the_quiz_and_the_tournament_draw_with_one_mechanism_but_different_lots() -> None:
    assert order_by_lot("s", WHAT, TEAMS) == list(choice_order("s", TEAMS))
    assert lot("s", WHAT, "алау") != lot("s", "order", "алау")  # what is drawn is in every digest


def test_a_new_seed_comes_from_the_generator_given() -> None:
    assert new_seed(random.Random(5)) == new_seed(random.Random(5))
    assert len({new_seed(random.Random(n)) for n in range(20)}) == 20
    assert len(new_seed(random.Random(5))) == 11 and new_seed(random.Random(5))[5] == "-"


def _created(seed: str = "") -> PlayState:
    setup = GameSetup(TEAMS, Board.of(*"12345"), assistant=Assistant("Ерлан", "Тұлпар"), lots_seed=seed)
    ctx = Context(HOST, 0, random.Random(3))
    decided = decide(PlayState(), CreateGame(setup), ctx)
    assert not isinstance(decided, Refusal)
    return fold(evolve, PlayState(), decided)


def test_a_new_game_gets_a_seed_from_the_rooms_generator_and_keeps_one_it_was_given() -> None:
    assert _created().game._setup.lots_seed == new_seed(random.Random(3))
    assert _created("Кубок-1").game._setup.lots_seed == "Кубок-1"
    game = _created("Кубок-1").game
    assert game.phase is Phase.DRAW and game.first_chooser is None  # published before the draw


def test_the_hosts_draw_is_the_seeds_order_recorded_with_the_seed() -> None:
    state = _created("Кубок-1")
    drawn = decide(state, Draw(), Context(HOST, 10, random.Random(99)))
    order = choice_order("Кубок-1", TEAMS)
    assert drawn == [FirstChooserDrawn(10, order[0], seed="Кубок-1", order=order)]
    assert decide(state, Draw(), Context(HOST, 10, random.Random(1))) == drawn  # the room's generator plays no part
    after = fold(evolve, state, drawn).game
    assert after.first_chooser == after.chooser == order[0]
    assert after.audit == ()  # a draw by lot is no host's intervention


def test_a_host_who_names_another_first_chooser_overrides_the_lot_and_the_log_says_so() -> None:
    state = _created("Кубок-1")
    order = choice_order("Кубок-1", TEAMS)
    drawn = decide(state, Draw(order[2]), Context(HOST, 10))
    assert drawn == [FirstChooserDrawn(10, order[2], seed="Кубок-1", order=order, overridden=True)]
    game = fold(evolve, state, drawn).game
    assert game.first_chooser == order[2] and game.audit == tuple(drawn)
    same = decide(state, Draw(order[0]), Context(HOST, 10))  # naming the lot's own first is no override
    assert same == [FirstChooserDrawn(10, order[0], seed="Кубок-1", order=order)]


def test_a_recorded_order_that_is_not_of_the_games_teams_is_refused() -> None:
    setup = GameSetup(TEAMS, Board.of(*"12345"), assistant=Assistant("Ерлан", "Тұлпар"), lots_seed="x")
    game = GameState().apply(GameCreated(0, setup))
    with pytest.raises(Refused) as refused:
        game.apply(FirstChooserDrawn(1, "Алау", seed="x", order=("Алау", "Барыс", "Бүркіт")))
    assert refused.value.code == QuizCode.NOT_A_TEAM
