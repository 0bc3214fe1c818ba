"""A real SIGame pack's media in the game core (issue 14): the board keeps each item's placement, the press window
waits for audio and video that SIGame waits for (waitForFinish), a press during them interrupts them (SI-3.6), the
host controls them, and each screen may load only what it may see now. And any pack: the host picks 5 questions
per theme (the five lowest prices by default), several rounds, special types played as ordinary questions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from toreshi.kit.core import Actor, Context, fold
from toreshi.kit.refusal import Refusal, Refused
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import GameKind, GameSetup, ReadingFinished, ReadingMode
from toreshi.quiz.game import Phase
from toreshi.quiz.pack import ContentType, Package, Placement
from toreshi.quiz.play.commands import (
    TICK,
    Choose,
    CreateGame,
    Draw,
    FinishReading,
    Key,
    Media,
    MediaAction,
    MediaFinished,
)
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.events import EVENTS, MediaControlled, QuizCreated
from toreshi.quiz.play.media import find_item
from toreshi.quiz.play.setup import apply_picks, default_picks, needs_choice, pack_choices, setup_from_pack
from toreshi.quiz.play.state import PlayState, evolve
from toreshi.quiz.siq import read_siq

TEAMS = ("Алтын", "Барыс")
HOST = Actor("host", "Жанна")
PROJECTOR = Actor("projector")


@pytest.fixture(scope="module")
def new_pack(shared_data: Path) -> Package:
    path = shared_data / "quiz" / "siq" / "SIGameTestNew.siq"
    return read_siq(path.read_bytes())


def media_theme(pack: Package) -> Package:
    """«Контент вопросов»: spoken line + text, image + spoken line, audio, video, HTML (question indexes)."""
    return apply_picks(pack, {0}, {(0, 1): (1, 2, 3, 4, 13)})


def play(state: PlayState, command: object, actor: Actor = HOST, now: int = 0) -> PlayState:
    decided = decide(state, command, Context(actor, now, random.Random(1), {}))  # type: ignore[arg-type]
    assert not isinstance(decided, Refusal), decided
    return fold(evolve, state, decided)


def game(pack: Package, reading: ReadingMode = ReadingMode.SIMULATED) -> PlayState:
    setup, _notes = setup_from_pack(media_theme(pack), kind=GameKind.SHOOTOUT, teams=TEAMS, assistant=None)
    setup = GameSetup(setup.teams, setup.board, kind=setup.kind, reading=reading, shootout_cuts=setup.shootout_cuts)
    state = play(PlayState(), CreateGame(setup, keys={"1": TEAMS[0], "2": TEAMS[1]}))
    return play(state, Draw(TEAMS[0]))


def test_the_board_keeps_each_item_with_its_placement_and_the_projector_text_leaves_spoken_lines_out(
    new_pack: Package,
) -> None:
    board = game(new_pack).game._setup.board
    spoken, image, audio, video, html = board.themes[0].cells
    assert [item.placement for item in spoken.items] == [Placement.REPLIC, Placement.SCREEN]
    assert spoken.text == "А это второй фрагмент вопроса. " + spoken.items[1].value.split(". ", 1)[1].strip()
    assert "устный" not in spoken.text
    assert (image.items[0].type, image.items[0].ref, image.items[0].value) == (
        ContentType.IMAGE,
        True,
        "sample-boat-400x300.png",
    )
    assert image.text == ""  # its only text is the host's spoken comment
    assert audio.waits_for_media and video.waits_for_media
    assert not image.waits_for_media and not html.waits_for_media
    assert html.items[0].type is ContentType.HTML


def test_a_text_question_encodes_as_before_and_media_items_round_trip(new_pack: Package) -> None:
    plain = QuizCreated(0, GameSetup(TEAMS, Board.of("Текст"), kind=GameKind.SHOOTOUT, shootout_cuts=(1,)))
    cell = EVENTS.encode(plain)["setup"]["board"]["themes"][0]["cells"][0]
    assert set(cell) == {"value", "text", "answers", "source_price", "empty"}  # as logs were written before
    setup = game(new_pack).game._setup
    encoded = EVENTS.encode(QuizCreated(0, setup))
    audio = encoded["setup"]["board"]["themes"][0]["cells"][2]
    assert audio["items"][0]["type"] == "audio" and audio["items"][0]["placement"] == "background"
    assert EVENTS.decode(encoded) == QuizCreated(0, setup)


def test_the_press_window_waits_for_the_audio_then_opens_when_the_projector_says_it_ended(new_pack: Package) -> None:
    state = play(game(new_pack), Choose(0, 3), now=1_000)
    current = state.game.current
    assert current is not None and current.reading_total_ms is None  # simulated reading does not time it
    assert state.game.at(60_000).phase is Phase.READING  # however long: the window waits for the audio
    assert decide(state, MediaFinished(question=2), Context(PROJECTOR, 4_000)) == []  # another question: nothing
    assert isinstance(decide(state, MediaFinished(question=1), Context(Actor("team", TEAMS[0]), 4_000)), Refusal)
    opened = play(state, MediaFinished(question=1), PROJECTOR, now=4_000)
    assert opened.game.phase is Phase.PRESS_WINDOW and opened.game.current.window_start_ms == 4_000  # type: ignore[union-attr]
    assert decide(opened, MediaFinished(question=1), Context(PROJECTOR, 4_100)) == []  # said twice: once is enough


def test_a_press_during_the_video_interrupts_it_and_its_end_then_opens_nothing(new_pack: Package) -> None:
    state = play(game(new_pack), Choose(0, 4), now=1_000)
    pressed = play(state, Key("2"), now=2_000)
    for _ in range(3):
        deadline = pressed.deadline_ms()
        if pressed.game.phase is Phase.ANSWERING or deadline is None:
            break
        pressed = play(pressed, TICK, Actor("timer"), deadline)
    assert pressed.game.phase is Phase.ANSWERING and pressed.game.current.answering_team == TEAMS[1]  # type: ignore[union-attr]
    assert decide(pressed, MediaFinished(question=1), Context(PROJECTOR, 3_000)) == []


def test_the_host_plays_pauses_replays_and_sets_the_volume(new_pack: Package) -> None:
    state = game(new_pack)
    assert decide(state, Media(MediaAction.PLAY), Context(HOST, 0)) == Refusal(QuizCode.NO_MEDIA)
    on_text = play(state, Choose(0, 1), now=1_000)
    assert decide(on_text, Media(MediaAction.PAUSE), Context(HOST, 1_100)) == Refusal(QuizCode.NO_MEDIA)
    on_audio = play(state, Choose(0, 3), now=1_000)
    paused = play(on_audio, Media(MediaAction.PAUSE), now=1_500)
    assert paused.media == MediaControlled(1_500, 1, MediaAction.PAUSE) and paused.media_count == 1
    replayed = play(paused, Media(MediaAction.REPLAY), now=1_600)
    assert replayed.media_count == 2 and replayed.game.phase is Phase.READING  # the window still waits
    quiet = play(replayed, Media(MediaAction.VOLUME, level=0), now=1_700)
    assert quiet.volume == 0 and quiet.media_count == 2
    assert isinstance(decide(quiet, Media(MediaAction.PLAY), Context(PROJECTOR, 1_800)), Refusal)


def test_the_host_finishes_reading_by_hand_if_the_projector_is_silent(new_pack: Package) -> None:
    state = play(game(new_pack, ReadingMode.HOST), Choose(0, 3), now=1_000)
    assert play(state, FinishReading(), now=9_000).game.phase is Phase.PRESS_WINDOW
    decided = decide(state, MediaFinished(question=1), Context(PROJECTOR, 4_000))
    assert decided == [ReadingFinished(4_000)]


def test_a_screen_may_load_the_items_in_play_the_host_any_and_nobody_the_spoken_lines_or_early_answers(
    new_pack: Package,
) -> None:
    state = game(new_pack)
    assert find_item(state, "0-2", "q", 0, host=False) is None  # not chosen yet
    assert find_item(state, "0-2", "q", 0, host=True) is not None  # the host previews
    in_play = play(state, Choose(0, 2), now=1_000)
    assert find_item(in_play, "0-2", "q", 0, host=False) is not None
    assert find_item(in_play, "0-2", "q", 1, host=False) is None  # the spoken comment is the host's
    assert find_item(in_play, "0-3", "q", 0, host=False) is None  # another question
    for key, part, index in (("../0-2", "q", 0), ("0-2", "a", 0), ("0-2", "q", -1), ("r0", "q", 0), ("9-1", "q", 0)):
        assert find_item(in_play, key, part, index, host=True) is None, key


def test_long_themes_default_to_their_five_lowest_prices_and_short_ones_play_whole(new_pack: Package) -> None:
    assert needs_choice(new_pack)
    picks = default_picks(new_pack)
    # issue 31: the 2-question theme is no longer left out: it plays whole, spread over the grid
    assert picks[(0, 0)] == (0, 1, 2, 3, 4) and picks[(0, 1)] == (0, 1, 2, 3, 4) and picks[(0, 2)] == (0, 1)
    assert picks[(1, 0)] == ()  # a SIGame final's one-question theme is no board theme
    choices = pack_choices(new_pack)
    themes = choices[0].themes
    assert [theme.usable for theme in themes] == [True, True, True]
    assert [q.kind for q in themes[0].questions[:4]] == ["", "stake", "secret", "secret"]
    assert themes[0].questions[8].empty and choices[1].final
    assert themes[1].questions[2].media == ("image",)


def test_ten_picked_make_two_board_themes_and_a_lone_question_is_refused(new_pack: Package) -> None:
    cut = apply_picks(new_pack, {0, 1}, {(0, 1): tuple(range(10)), (0, 0): (0, 1, 2, 3, 4)})
    assert [theme.name for theme in cut.rounds[0].themes] == [
        "Вопросы разных типов",
        "Контент вопросов",
        "Контент вопросов (2)",
    ]
    assert len(cut.rounds) == 1  # the final's 1-question themes give nothing: the round is left out
    board = Board.from_themes(cut.rounds[0].themes)
    assert board.themes[0].cells[1].kind == "stake"  # played as an ordinary question; the host is told
    with pytest.raises(Refused) as refused:
        apply_picks(new_pack, {0}, {(0, 1): (0, 1, 2, 3, 4, 5)})  # 5 + 1: a board theme of one question
    assert refused.value.refusal == Refusal(
        QuizCode.PICK_SHORT, {"theme": "Контент вопросов", "count": 6, "minimum": 2}
    )
    with pytest.raises(Refused):
        apply_picks(new_pack, set(), {})
