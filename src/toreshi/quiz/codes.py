"""Why the «Своя игра» cores say no: refusal codes with parameters, never sentences.

Three families, one per concern: :class:`QuizCode` — the game by the regulation and the room around it (presses,
buzzers, host tools); :class:`PackCode` — question packs that cannot be read or are unsafe; :class:`StageCode` —
quiz tournaments and shootouts. Parameters name teams, people and themes as they are called, give question values,
numbers (1-based, as people count) and limits, and the regulation's clause as ``clause`` (``"SI-4.7"``). Parameters
ending in ``_term`` hold one of the identifiers below (:data:`ACTIONS`, :data:`PHASES`, …), which the web layer
translates (``toreshi.texts.refusals.quiz``).

>>> from toreshi.kit.refusal import Refusal
>>> str(Refusal(QuizCode.ALREADY_ANSWERED, {"team": "Алтын", "clause": "SI-3.5"}))
"quiz_already_answered (team='Алтын', clause='SI-3.5')"
"""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode


class QuizCode(RefusalCode):
    """A command or an event that the game, or the room around it, refuses."""

    # the game's life
    NOT_CREATED = "quiz_not_created"
    ALREADY_CREATED = "quiz_already_created"
    FINISHED = "quiz_finished"
    """The game is over: nothing more is played (presses, choices, score requests)."""
    NOT_FINISHED = "quiz_not_finished"
    NOT_STARTED = "quiz_not_started"
    """The game cannot be ended before its first question (archive a game that was never played)."""
    SHOOTOUT_TIED = "quiz_shootout_tied"
    """A shootout cannot be ended while its scores still tie at an advancing place (``clause`` SI-2.2)."""
    WRONG_PHASE = "quiz_wrong_phase"
    """``action_term`` is not possible at the game's stage ``phase_term``."""
    TIME_WENT_BACK = "quiz_time_went_back"
    """An event earlier than the previous one (``at_ms``, ``last_ms``): a log out of order."""

    # SIGame's special questions (a game setting, issue 31)
    NOT_YOUR_STAKE = "quiz_not_your_stake"
    """It is ``turn``'s turn to stake, not ``team``'s."""
    STAKE_FIRST = "quiz_stake_first"
    """The chooser opens the stakes: it may not pass (``minimum``)."""
    STAKE_RANGE = "quiz_stake_range"
    """A stake from ``minimum`` to ``maximum``."""
    STAKE_PASS_ONLY = "quiz_stake_pass_only"
    """The team cannot outbid (its score is below ``minimum``): it may only pass."""
    SECRET_SELF = "quiz_secret_self"
    """The chooser hands the secret question to another team."""
    SOLO_QUESTION = "quiz_solo_question"
    """One team answers this question alone: no press to cancel."""

    # the setup
    TEAM_COUNT = "quiz_team_count"
    """``count`` teams, not ``minimum`` to ``maximum`` (``clause`` SI-3.0.1)."""
    TEAM_NAMES = "quiz_team_names"
    THEME_COUNT = "quiz_theme_count"
    """A ``game_term`` plays ``expected`` themes, the board has ``themes`` (``clause``)."""
    FINAL_KEPT = "quiz_final_kept"
    ASSISTANT_REQUIRED = "quiz_assistant_required"
    ASSISTANT_PLAYS = "quiz_assistant_plays"
    """The ``assistant`` plays for ``team``, a team in this game (``clause`` SI-4.1)."""
    SHOOTOUT_CUTS = "quiz_shootout_cuts"
    TIMERS = "quiz_timers"

    # teams and turns
    NOT_A_TEAM = "quiz_not_a_team"
    NOT_YOUR_STRIKE = "quiz_not_your_strike"
    NOT_CHOOSER = "quiz_not_chooser"
    NOT_ANSWERING = "quiz_not_answering"
    """``answering`` holds the answer, not ``team``."""

    # the board
    NO_SUCH_THEME = "quiz_no_such_theme"
    """``number``: 1-based, as the host counts themes."""
    THEME_STRUCK = "quiz_theme_struck"
    NO_SUCH_VALUE = "quiz_no_such_value"
    CELL_PLAYED = "quiz_cell_played"
    THEME_NOT_ANNOUNCED = "quiz_theme_not_announced"
    SCORE_FIRST = "quiz_score_first"
    """The last question waits for the assistant's score announcement (SI-4.7)."""
    NOT_SUDDEN_DEATH = "quiz_not_sudden_death"
    NO_SUCH_RESERVE = "quiz_no_such_reserve"
    RESERVE_USED = "quiz_reserve_used"

    # reading, pressing, answering
    READING_SIMULATED = "quiz_reading_simulated"
    READING_INTERRUPTED = "quiz_reading_interrupted"
    NO_QUESTION = "quiz_no_question"
    PRESS_NOT_MADE_YET = "quiz_press_not_made_yet"
    """A decision dated before the press it recognises (a log out of order)."""
    ALREADY_ANSWERED = "quiz_already_answered"
    ALREADY_PRESSED = "quiz_already_pressed"
    PRESS_BEFORE_OPENING = "quiz_press_before_opening"
    PRESS_AFTER_TIME = "quiz_press_after_time"
    ARBITRATING = "quiz_arbitrating"
    ANSWER_TIME_RUNS = "quiz_answer_time_runs"
    WINDOW_RUNS = "quiz_window_runs"
    EXTENSION_NOT_POSITIVE = "quiz_extension_not_positive"

    # buzzers and links
    UNMAPPED_BUTTON = "quiz_unmapped_button"
    UNMAPPED_KEY = "quiz_unmapped_key"
    KEY_TEAM = "quiz_key_team"
    """A buzzer ``key`` (or button) mapped to ``team``, who does not play in this game."""
    NO_SYNC = "quiz_no_sync"
    PROJECTOR_KEYS_OFF = "quiz_projector_keys_off"
    """The projector's link forwards keyboard buzzers only where the host enabled them."""
    NO_SUCH_LINK = "quiz_no_such_link"
    """The game has no ``role`` link to reissue (a team's code, the projector's or the assistant's token)."""
    PRESS_STALE = "quiz_press_stale"
    """A press made ``delay_ms`` before it reached the server (the phone was offline): more than ``limit_ms``."""

    # host tools
    QUESTION_IN_PLAY = "quiz_question_in_play"
    UNDO_IN_PLAY = "quiz_undo_in_play"
    NOTHING_TO_UNDO = "quiz_nothing_to_undo"
    UNDO_POINT = "quiz_undo_point"
    """Step ``step`` is not a moment the game can go back to (between questions, before the current step)."""
    GAME_CLOSED = "quiz_game_closed"
    """The game's result is closed (its stage or the game was closed): nothing of it may change (``clause`` SI-6)."""
    NOTHING_TO_RESTORE = "quiz_nothing_to_restore"
    """No strike of the final to take back (none yet, or a question was chosen since)."""
    NOT_LAST_STRUCK = "quiz_not_last_struck"
    NO_MEDIA = "quiz_no_media"
    """The question has no audio or video to play, pause or replay."""
    NO_COUNTED_ANSWER = "quiz_no_counted_answer"
    ZERO_CORRECTION = "quiz_zero_correction"
    CORRECTION_REASON = "quiz_correction_reason"
    REPLACEMENT_EITHER = "quiz_replacement_either"
    REPLACEMENT_SAME_THEME = "quiz_replacement_same_theme"
    NO_REPLACEMENT = "quiz_no_replacement"
    RESERVE_WRONG_VALUE = "quiz_reserve_wrong_value"
    PERSON_REQUIRED = "quiz_person_required"
    NOT_WARNED = "quiz_not_warned"
    NO_ASSISTANT = "quiz_no_assistant"

    # a game cut from a pack, its room and its screens
    PACK_NO_THEME = "quiz_pack_no_theme"
    """The pack has no theme of 5 questions."""
    ROUND_NO_THEME = "quiz_round_no_theme"
    TOO_FEW_THEMES = "quiz_too_few_themes"
    PICK_FIVE = "quiz_pick_five"
    """The host picked ``count`` questions of ``theme``: a board theme takes 5 (or 10, 15… for several)."""
    PICK_SHORT = "quiz_pick_short"
    """The host picked ``count`` questions of ``theme``: its last board theme would have fewer than ``minimum``."""
    NO_ROUND_PICKED = "quiz_no_round_picked"
    """From the chosen point the pack has ``available`` themes of 5 questions; the game needs ``needed``."""
    NO_FREE_CODE = "quiz_no_free_code"
    NO_SUCH_GAME = "quiz_no_such_game"
    REPORT_CLOSED = "quiz_report_closed"
    """The report opens to everyone once the game is over."""
    SERIAL_PORT_NAME = "quiz_serial_port_name"
    SERIAL_PORT_UNAVAILABLE = "quiz_serial_port_unavailable"
    """The serial ``port`` cannot be opened (absent, or busy)."""


class PackCode(RefusalCode):
    """A question pack that cannot be read, or that breaks a safety limit (:mod:`toreshi.quiz.limits`).

    ``place`` is where in the pack, as the pack's own names so that it reads the same in every language: the pack's
    name for the pack itself, else the path ``"Бой 1 › Реки › 300"`` (round, theme, question price, parameter);
    ``item_term`` names the kind of text (a theme name, an answer, a comment)."""

    NOT_A_PACK = "pack_not_a_pack"
    FILE_TOO_LARGE = "pack_file_too_large"
    NOT_A_ZIP = "pack_not_a_zip"
    ENTRY_UNREADABLE = "pack_entry_unreadable"
    """``entry`` cannot be decompressed (a bad CRC, an unknown method)."""
    NO_CONTENT = "pack_no_content"
    """The archive has no ``entry`` (``content.xml``): not a SIGame package."""
    XML_MALFORMED = "pack_xml_malformed"
    """``what`` is not well-formed XML (``line``, ``column`` when known)."""
    XML_FORBIDDEN = "pack_xml_forbidden"
    """``what`` uses a DTD, an entity or an external reference."""
    XML_TOO_LARGE = "pack_xml_too_large"
    XML_TOO_DEEP = "pack_xml_too_deep"
    XML_TOO_MANY_ELEMENTS = "pack_xml_too_many_elements"
    WRONG_ROOT = "pack_wrong_root"
    BAD_VERSION = "pack_bad_version"
    UNSUPPORTED_VERSION = "pack_unsupported_version"
    BAD_VALUE = "pack_bad_value"
    """A ``value`` that is not the ``kind_term`` the format wants (a whole number, True or False, a number set)."""
    BAD_ATTRIBUTE = "pack_bad_attribute"
    """The attribute ``name`` of ``<element>`` is ``value``, not a ``kind_term``."""
    UNKNOWN_TYPE = "pack_unknown_type"
    """An element of an unknown ``type`` (``element``: a parameter, a content item, a scenario atom)."""
    # archives
    ENTRY_NAME_TOO_LONG = "pack_entry_name_too_long"
    ENTRY_NAME_UNSAFE = "pack_entry_name_unsafe"
    """``entry``: control characters, a backslash, an absolute path or ``..`` (``reason_term``)."""
    ENTRY_EMPTY_NAME = "pack_entry_empty_name"
    ENTRY_TWICE = "pack_entry_twice"
    ENTRY_ENCRYPTED = "pack_entry_encrypted"
    TOO_MANY_ENTRIES = "pack_too_many_entries"
    ENTRY_TOO_LARGE = "pack_entry_too_large"
    """``entry`` unpacks to ``size`` bytes (or more), more than ``limit``."""
    ENTRY_RATIO = "pack_entry_ratio"
    """``entry`` is compressed ``ratio``:1, more than ``limit``:1 — a zip bomb."""
    ARCHIVE_TOO_LARGE = "pack_archive_too_large"
    TEXT_TOO_LARGE = "pack_text_too_large"
    # content limits (SIGame's PackageLimits)
    TEXT_TOO_LONG = "pack_text_too_long"
    """The ``item_term`` at ``place`` is ``length`` characters, more than ``limit``."""
    TOO_MANY_ROUNDS = "pack_too_many_rounds"
    """``place`` has ``count`` of them, more than ``limit`` (and so on for the others)."""
    TOO_MANY_THEMES = "pack_too_many_themes"
    TOO_MANY_QUESTIONS = "pack_too_many_questions"
    TOO_MANY_PARAMETERS = "pack_too_many_parameters"
    TOO_MANY_CONTENT_ITEMS = "pack_too_many_content_items"
    TOO_MANY_SCRIPT_STEPS = "pack_too_many_script_steps"
    TOO_MANY_AUTHORS = "pack_too_many_authors"
    TOO_MANY_SOURCES = "pack_too_many_sources"
    TOO_MANY_NUMBERS = "pack_too_many_numbers"
    """A number set offers ``count`` numbers to choose from, more than ``limit``."""
    # writing
    MEDIA_TWICE = "pack_media_twice"
    MEDIA_NAME = "pack_media_name"
    UNWRITABLE_TEXT = "pack_unwritable_text"
    # db.chgk.info text
    CHGK_NO_QUESTION = "pack_chgk_no_question"
    CHGK_SECOND_FIELD = "pack_chgk_second_field"
    """``line``: a second ``label`` field for the same «Вопрос»."""
    CHGK_FIELD_FIRST = "pack_chgk_field_first"
    CHGK_NO_THEME_NAME = "pack_chgk_no_theme_name"
    CHGK_NO_ANSWER_FIELD = "pack_chgk_no_answer_field"
    CHGK_NOT_NUMBERED = "pack_chgk_not_numbered"
    CHGK_NO_ANSWER = "pack_chgk_no_answer"
    CHGK_BAD_NUMBER = "pack_chgk_bad_number"
    CHGK_NUMBER_TWICE = "pack_chgk_number_twice"
    CHGK_NO_SUCH_QUESTION = "pack_chgk_no_such_question"
    CHGK_MIXED = "pack_chgk_mixed"


class StageCode(RefusalCode):
    """Quiz tournaments (:mod:`toreshi.quiz.tournament`) and shootouts (:mod:`toreshi.quiz.shootout`)."""

    GAME_SIZE = "quiz_stage_game_size"
    TEAM_TWICE = "quiz_stage_team_twice"
    TOO_FEW_TEAMS = "quiz_stage_too_few_teams"
    CANNOT_SPLIT = "quiz_stage_cannot_split"
    POINTS_TABLE = "quiz_stage_points_table"
    ADVANCE_ALL = "quiz_stage_advance_all"
    NO_SUCH_GAME = "quiz_stage_no_such_game"
    ALREADY_RECORDED = "quiz_stage_already_recorded"
    WRONG_TEAMS = "quiz_stage_wrong_teams"
    NO_SHOOTOUT_PENDING = "quiz_stage_no_shootout_pending"
    SHOOTOUT_UNDECIDED = "quiz_stage_shootout_undecided"
    GAMES_WITHOUT_RESULTS = "quiz_stage_games_without_results"
    SHOOTOUTS_PENDING = "quiz_stage_shootouts_pending"
    LATER_STAGE_TEAMS = "quiz_stage_later_stage_teams"
    FIRST_STAGE_TEAMS = "quiz_stage_first_stage_teams"
    NO_STAGE = "quiz_stage_no_stage"
    EARLIER_STAGE_FINAL = "quiz_stage_earlier_stage_final"
    TOUR_NOT_FINISHED = "quiz_stage_tour_not_finished"
    TOUR_TWICE = "quiz_stage_tour_twice"
    RATED_GAME_SIZE = "quiz_stage_rated_game_size"
    PROTEST_OTHER_TOUR = "quiz_stage_protest_other_tour"
    PROTEST_NO_GAME = "quiz_stage_protest_no_game"
    PROTEST_NOT_PLAYED = "quiz_stage_protest_not_played"
    PROTEST_TEXT = "quiz_stage_protest_text"
    NO_SUCH_PROTEST = "quiz_stage_no_such_protest"
    PROTEST_RULED = "quiz_stage_protest_ruled"
    BAD_BOUNDARIES = "quiz_stage_bad_boundaries"
    NO_BOUNDARY = "quiz_stage_no_boundary"
    SHOOTOUT_PLAYERS = "quiz_stage_shootout_players"


ACTIONS = {
    "draw": "quiz_action_draw",
    "strike": "quiz_action_strike",
    "announce": "quiz_action_announce",
    "choose": "quiz_action_choose",
    "reserve": "quiz_action_reserve",
    "finish_reading": "quiz_action_finish_reading",
    "press": "quiz_action_press",
    "judge": "quiz_action_judge",
    "expire": "quiz_action_expire",
    "extend": "quiz_action_extend",
    "clarify": "quiz_action_clarify",
    "call_time": "quiz_action_call_time",
    "cancel_press": "quiz_action_cancel_press",
    "replace": "quiz_action_replace",
    "stake": "quiz_action_stake",
    "give": "quiz_action_give",
}
"""What the game was asked to do, as the ``action_term`` of a refusal."""


PACK_TERMS = {
    # what a text of a pack is (``item_term``)
    "package_name": "pack_item_package_name",
    "round_name": "pack_item_round_name",
    "theme_name": "pack_item_theme_name",
    "tag": "pack_item_tag",
    "question_type": "pack_item_question_type",
    "right_answer": "pack_item_right_answer",
    "wrong_answer": "pack_item_wrong_answer",
    "parameter_name": "pack_item_parameter_name",
    "parameter_value": "pack_item_parameter_value",
    "content": "pack_item_content",
    "author": "pack_item_author",
    "source": "pack_item_source",
    "comments": "pack_item_comments",
    "showman_comments": "pack_item_showman_comments",
    "extension": "pack_item_extension",
    # what a value should have been (``kind_term``)
    "integer": "pack_kind_integer",
    "boolean": "pack_kind_boolean",
    "number": "pack_kind_number",
    "number_set": "pack_kind_number_set",
    # why an archive entry's name is refused (``reason_term``)
    "control": "pack_reason_control",
    "backslash": "pack_reason_backslash",
    "absolute": "pack_reason_absolute",
    "traversal": "pack_reason_traversal",
}
"""The term identifiers of :class:`PackCode` parameters, by a short name."""

PLACE_SEPARATOR = " › "


def place_of(*names: str) -> str:
    """Where in a pack, as its own names (each cut to 60 characters): ``place_of("Бой 1", "Реки", "300")``.

    >>> place_of("Бой 1", "Реки", "300")
    'Бой 1 › Реки › 300'
    """
    return PLACE_SEPARATOR.join(name if len(name) <= 60 else name[:59] + "…" for name in names)


def phase_term(phase: str) -> str:
    """The ``phase_term`` of a game stage (:class:`toreshi.quiz.game.Phase` value)."""
    return f"quiz_phase_{phase}"


def game_term(kind: str) -> str:
    """The ``game_term`` of a game kind (:class:`toreshi.quiz.events.GameKind` value)."""
    return f"quiz_game_{kind}"
