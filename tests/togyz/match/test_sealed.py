"""Adjournment with a sealed move (TK-A2, TK-A3, TK-A4) and its commitment."""

from __future__ import annotations

from toreshi.clock import CLASSICAL_60, minutes
from toreshi.togyz import BLACK, WHITE, Termination
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.events import GameAdjourned, event_to_dict
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.sealed import commit, new_salt, verify
from toreshi.togyz.match.settings import GameSettings, SealedMovePolicy
from toreshi.togyz.match.state import GameStatus

from .game_fixtures import SALT, play, refusal, started


def _adjourned(policy: SealedMovePolicy = SealedMovePolicy.REFUSE_ILLEGAL, hole: int = 9) -> MatchGame:
    game = started(CLASSICAL_60, GameSettings(sealed_move_policy=policy))
    game = game.move(WHITE, 7, now_ms=minutes(3)).move(BLACK, 9, now_ms=minutes(5))
    # White thinks 4 more minutes, then seals.
    return game.adjourn(WHITE, hole, SALT, now_ms=minutes(9))


def test_sealing_records_the_envelope_but_not_the_move() -> None:
    # TK-A2: the player to move writes the move secretly. TK-A3: the envelope records names, sealer, position,
    # move number and each player's used time.
    before = started(CLASSICAL_60).move(WHITE, 7, now_ms=minutes(3)).move(BLACK, 9, now_ms=minutes(5))
    game = _adjourned()
    state = game.state
    assert state.status is GameStatus.ADJOURNED and state.clock.running_side is None
    envelope = state.envelope
    assert envelope is not None
    assert (envelope.white, envelope.black, envelope.sealer) == ("Abay", "Bolat", WHITE)
    assert envelope.fen == to_fen(before.state.board) and envelope.move_number == 2
    assert (envelope.white_used_ms, envelope.black_used_ms) == (minutes(7), minutes(2))
    assert envelope.commitment == commit(9, SALT)
    stored = event_to_dict(game.events[-1])
    assert stored["commitment"] == envelope.commitment
    assert "hole" not in stored and SALT not in str(stored)


def test_only_the_player_to_move_seals_a_legal_move() -> None:
    game = started(CLASSICAL_60).move(WHITE, 7, now_ms=1_000)
    assert refusal(lambda: game.adjourn(WHITE, 1, SALT, now_ms=2_000)) == (
        TogyzCode.SEALER_NOT_TO_MOVE,
        {"player": "Abay", "to_move": "Bolat"},
    )
    assert refusal(lambda: game.adjourn(BLACK, 1, "short", now_ms=2_000)) == (TogyzCode.SALT_TOO_SHORT, {"minimum": 32})
    pending = game.move(BLACK, 1, now_ms=2_000, press=False)
    assert refusal(lambda: pending.adjourn(WHITE, 2, SALT, now_ms=3_000)) == (
        TogyzCode.SEAL_AFTER_PRESS,
        {"player": "Bolat"},
    )
    assert refusal(lambda: game.adjourn(BLACK, 10, SALT, now_ms=2_000)) == (TogyzCode.NO_SUCH_HOLE, {"hole": 10})


def test_sealing_from_an_empty_hole_is_refused() -> None:
    game, _ = play(started(CLASSICAL_60), [1, 1, 1, 1], at=0)
    assert game.state.board.holes(WHITE)[0] == 0
    assert refusal(lambda: game.adjourn(WHITE, 1, SALT, now_ms=3_000)) == (
        TogyzCode.SEALED_MOVE_ILLEGAL,
        {"player": "Abay", "hole": 1},
    )
    assert game.state.status is GameStatus.LIVE


def test_resumption_restores_clocks_and_accepts_only_the_sealed_move() -> None:
    # TK-A4: the position and used times are restored, the envelope is opened, the sealer's clock runs, and the
    # sealer must play the sealed move.
    game = _adjourned()
    assert game.state.unsigned_warnings(10**9) == []
    not_intact = (TogyzCode.ENVELOPE_NOT_INTACT, {"clause": "TK-A4"})
    assert refusal(lambda: game.open_envelope(8, SALT, now_ms=minutes(60 * 24))) == not_intact
    assert refusal(lambda: game.open_envelope(9, new_salt(), now_ms=minutes(60 * 24))) == not_intact
    assert refusal(lambda: game.move(WHITE, 9, now_ms=minutes(60 * 24))) == (TogyzCode.GAME_ADJOURNED, {})
    resumed_at = minutes(60 * 24)
    game = game.open_envelope(9, SALT, now_ms=resumed_at)
    assert game.state.status is GameStatus.LIVE and game.state.clock.running_side is WHITE
    assert game.state.clock.remaining(WHITE, resumed_at) == minutes(60) - minutes(7)
    assert game.state.clock.remaining(BLACK, resumed_at) == minutes(60) - minutes(2)
    assert refusal(lambda: game.move(WHITE, 8, now_ms=resumed_at + 5_000)) == (
        TogyzCode.MUST_PLAY_SEALED_MOVE,
        {"player": "Abay", "hole": 9, "clause": "TK-A4"},
    )
    game = game.move(WHITE, 9, now_ms=resumed_at + 5_000)
    assert game.state.sealed_hole is None and game.state.clock.running_side is BLACK
    assert MatchGame.replay(game.events).state == game.state


def test_illegal_sealed_move_loses_in_paper_mode() -> None:
    # Setting: like a paper envelope, anything can be sealed; an illegal sealed move loses when opened.
    game = started(CLASSICAL_60, GameSettings(sealed_move_policy=SealedMovePolicy.ILLEGAL_LOSES))
    game, at = play(game, [1, 1, 1, 1], at=0)
    game = game.adjourn(WHITE, 1, SALT, now_ms=at + 1_000)
    game = game.open_envelope(1, SALT, now_ms=at + 2_000)
    assert game.state.result is GameResult.BLACK_WINS
    assert game.state.ending is not None and game.state.ending.termination is Termination.ARBITER
    assert (game.state.ending.note.value, game.state.ending.side) == ("sealed_move_illegal", WHITE)


def test_resigning_an_adjourned_game() -> None:
    game = _adjourned().resign(WHITE, now_ms=minutes(30))
    assert game.state.result is GameResult.BLACK_WINS


def test_commitment_is_checked_and_bound_to_the_hole() -> None:
    salt = new_salt()
    assert len(salt) == 32 and salt != new_salt()
    assert verify(commit(4, salt), 4, salt)
    assert not verify(commit(4, salt), 5, salt)
    assert not verify(commit(4, salt), 4, "0" * 32)
    assert not verify(commit(4, salt), 10, salt)
    assert refusal(lambda: commit(0, salt)) == (TogyzCode.NO_SUCH_HOLE, {"hole": 0})


def test_malformed_commitment_in_a_log_is_refused() -> None:
    game = started(CLASSICAL_60)
    assert refusal(lambda: game.apply(GameAdjourned(10, WHITE, "abc"))) == (TogyzCode.BAD_COMMITMENT, {})
