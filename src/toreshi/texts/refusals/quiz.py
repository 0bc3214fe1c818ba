"""Messages of the «Своя игра» refusals: the game and its room (:class:`~toreshi.quiz.codes.QuizCode`), question
packs (:class:`~toreshi.quiz.codes.PackCode`), quiz tournaments and shootouts (:class:`~toreshi.quiz.codes.StageCode`).

Teams, people, themes and the pack's own names are shown as they are; the clause IDs (``SI-4.7``) too. The kinds of
things a parameter names (``*_term``: what the host tried to do, the game's stage, what part of a pack) are the
``TERMS`` below.
"""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode
from toreshi.quiz.codes import ACTIONS, PACK_TERMS, PackCode, QuizCode, StageCode, game_term, phase_term
from toreshi.texts.i18n import N_

MESSAGES: dict[RefusalCode, str] = {
    # the game's life
    QuizCode.NOT_CREATED: N_("This «Своя игра» game has not been created yet."),
    QuizCode.ALREADY_CREATED: N_("The game has already been created."),
    QuizCode.FINISHED: N_("The game is over."),
    QuizCode.NOT_FINISHED: N_("The game is not over yet."),
    QuizCode.NOT_STARTED: N_(
        "The game has not started: no question has been played, so there are no scores to end it with. Archive it "
        "instead."
    ),
    QuizCode.SHOOTOUT_TIED: N_(
        "The shootout cannot end while its scores still tie at an advancing place: play on until the first "
        "difference (%(clause)s)."
    ),
    QuizCode.WRONG_PHASE: N_("You cannot %(action_term)s now: the game is at the stage «%(phase_term)s»."),
    QuizCode.TIME_WENT_BACK: N_("An event at %(at_ms)s ms is earlier than the one before it (%(last_ms)s ms)."),
    # the setup
    QuizCode.TEAM_COUNT: N_("A game has %(minimum)s to %(maximum)s teams (%(clause)s), not %(count)s."),
    QuizCode.TEAM_NAMES: N_("Team names must differ and must not be empty."),
    QuizCode.THEME_COUNT: N_("A %(game_term)s plays %(expected)s themes (%(clause)s); the board has %(themes)s."),
    QuizCode.FINAL_KEPT: N_("The final cannot keep %(kept)s of %(themes)s themes."),
    QuizCode.ASSISTANT_REQUIRED: N_("The host appoints an assistant before the game (%(clause)s)."),
    QuizCode.ASSISTANT_PLAYS: N_(
        "The assistant %(assistant)s plays for %(team)s, a team in this game: choose one from a team that is not "
        "playing (%(clause)s)."
    ),
    QuizCode.SHOOTOUT_CUTS: N_(
        "The advancing places of a shootout must fall between its %(teams)s teams (%(clause)s)."
    ),
    QuizCode.TIMERS: N_("The reading speed, the press window and the answer time must be more than zero."),
    # teams and turns
    QuizCode.NOT_A_TEAM: N_("%(team)s does not play in this game."),
    QuizCode.NOT_YOUR_STRIKE: N_("It is %(striker)s's turn to strike a theme, not %(team)s's (%(clause)s)."),
    QuizCode.NOT_CHOOSER: N_("%(chooser)s chooses the question, not %(team)s (%(clause)s)."),
    QuizCode.NOT_ANSWERING: N_("%(answering)s is answering, not %(team)s."),
    # the board
    QuizCode.NO_SUCH_THEME: N_("There is no theme %(number)s on the board."),
    QuizCode.THEME_STRUCK: N_("The theme «%(theme)s» has been struck."),
    QuizCode.NO_SUCH_VALUE: N_("Questions are worth 1 to 5 (%(clause)s), not %(value)s."),
    QuizCode.CELL_PLAYED: N_("The question worth %(value)s in «%(theme)s» is no longer on the board."),
    QuizCode.THEME_NOT_ANNOUNCED: N_("The host has not announced the theme «%(theme)s» yet (%(clause)s)."),
    QuizCode.SCORE_FIRST: N_("The assistant must announce the score before the last question (%(clause)s)."),
    QuizCode.NOT_SUDDEN_DEATH: N_(
        "Single reserve questions come only once the shootout's theme is played out (%(clause)s)."
    ),
    QuizCode.NO_SUCH_RESERVE: N_("There is no reserve question %(number)s (the reserve holds %(count)s)."),
    QuizCode.RESERVE_USED: N_("Reserve question %(number)s has already been used."),
    # reading, pressing, answering
    QuizCode.READING_SIMULATED: N_("Reading is shown on the board: it ends by itself when the whole text is out."),
    QuizCode.READING_INTERRUPTED: N_("A press has stopped the reading; it goes on after the answer (%(clause)s)."),
    QuizCode.NO_QUESTION: N_("No question is in play."),
    QuizCode.PRESS_NOT_MADE_YET: N_("A press cannot be recognised before it was made."),
    QuizCode.ALREADY_ANSWERED: N_("%(team)s has already answered this question: one answer per team (%(clause)s)."),
    QuizCode.ALREADY_PRESSED: N_("Your press is in; the buttons are being compared."),
    QuizCode.PRESS_BEFORE_OPENING: N_("The press came before the buttons opened."),
    QuizCode.PRESS_AFTER_TIME: N_("The press came after «время»: it does not count (%(clause)s)."),
    QuizCode.ARBITRATING: N_("A press is being decided; the reading has stopped."),
    QuizCode.ANSWER_TIME_RUNS: N_("The answer time is not over yet (%(clause)s)."),
    QuizCode.WINDOW_RUNS: N_("The time to press is not over yet (%(clause)s)."),
    QuizCode.EXTENSION_NOT_POSITIVE: N_("Extra time must be more than zero."),
    # buzzers and links
    QuizCode.UNMAPPED_BUTTON: N_("Button %(button)s is not connected to a team."),
    QuizCode.UNMAPPED_KEY: N_("The key %(key)s is not a team's buzzer."),
    QuizCode.KEY_TEAM: N_("The buzzer %(key)s is given to %(team)s, who does not play in this game."),
    QuizCode.NO_SYNC: N_("The connection's delay has not been measured yet; wait a moment."),
    QuizCode.PROJECTOR_KEYS_OFF: N_("Keyboard buzzers are not enabled on the projector; the host can enable them."),
    QuizCode.PRESS_STALE: N_(
        "The press reached the server %(delay_ms)s ms after it was made (the phone had no connection): "
        "it does not count."
    ),
    QuizCode.NO_SUCH_LINK: N_("This game has no link “%(role)s” to reissue."),
    # host tools
    QuizCode.QUESTION_IN_PLAY: N_("Question %(question)s is still in play: reverse a ruling once it is over."),
    QuizCode.UNDO_IN_PLAY: N_("The question is still in play: cancel the press, or undo once the question is over."),
    QuizCode.NOTHING_TO_UNDO: N_("There is no ruling to undo."),
    QuizCode.PICK_SHORT: N_(
        "«%(theme)s»: %(count)s questions picked would leave a board theme of fewer than %(minimum)s questions."
    ),
    QuizCode.NOT_YOUR_STAKE: N_("It is %(turn)s's turn to stake, not %(team)s's."),
    QuizCode.STAKE_FIRST: N_("The team that chose the question opens the stakes: at least %(minimum)s, no pass."),
    QuizCode.STAKE_RANGE: N_("A stake from %(minimum)s to %(maximum)s points."),
    QuizCode.STAKE_PASS_ONLY: N_("Your score cannot cover a stake of %(minimum)s: you may only pass."),
    QuizCode.SECRET_SELF: N_("The secret question goes to another team than the one that chose it."),
    QuizCode.SOLO_QUESTION: N_("One team answers this question alone: there is no press to cancel."),
    QuizCode.UNDO_POINT: N_(
        "The game can go back only to a moment between questions before now (step %(step)s is not one)."
    ),
    QuizCode.GAME_CLOSED: N_(
        "The game's result is closed: its stage is over, so nothing of it may change any more (%(clause)s)."
    ),
    QuizCode.NO_MEDIA: N_("This question has no audio or video to play."),
    QuizCode.NOTHING_TO_RESTORE: N_("There is no struck theme to restore (or a question has been chosen since)."),
    QuizCode.NOT_LAST_STRUCK: N_("Only the last struck theme can be restored: «%(theme)s»."),
    QuizCode.NO_COUNTED_ANSWER: N_("%(team)s gave no counted answer to question %(question)s."),
    QuizCode.ZERO_CORRECTION: N_("A score correction of 0 changes nothing."),
    QuizCode.CORRECTION_REASON: N_("A score correction needs a reason for the record."),
    QuizCode.REPLACEMENT_EITHER: N_(
        "Replace the question by either another theme's question or a reserve question (%(clause)s)."
    ),
    QuizCode.REPLACEMENT_SAME_THEME: N_("The replacement must come from another theme (%(clause)s)."),
    QuizCode.NO_REPLACEMENT: N_("The theme «%(theme)s» has no unplayed question worth %(value)s (%(clause)s)."),
    QuizCode.RESERVE_WRONG_VALUE: N_(
        "Reserve question %(number)s is worth %(reserve_value)s, not %(value)s (%(clause)s)."
    ),
    QuizCode.PERSON_REQUIRED: N_("Name the person who prompted."),
    QuizCode.NOT_WARNED: N_("%(person)s has not been warned: a sanction follows a repeated prompt (%(clause)s)."),
    QuizCode.NO_ASSISTANT: N_("This game has no assistant to announce the score."),
    # a game from a pack, its room and screens
    QuizCode.PACK_NO_THEME: N_("The pack has no theme of 5 questions."),
    QuizCode.PICK_FIVE: N_(
        "%(count)s questions are picked in the theme «%(theme)s»: pick 5 (or 10, 15 for several board themes), or none."
    ),
    QuizCode.NO_ROUND_PICKED: N_("Pick at least one round of the pack."),
    QuizCode.ROUND_NO_THEME: N_("Round %(round)s of the pack has no theme of 5 questions."),
    QuizCode.TOO_FEW_THEMES: N_(
        "From that point the pack has %(available)s themes of 5 questions; this game needs %(needed)s."
    ),
    QuizCode.NO_FREE_CODE: N_("Could not find a free room code; try again."),
    QuizCode.NO_SUCH_GAME: N_("There is no such game."),
    QuizCode.REPORT_CLOSED: N_("The report opens once the game is over."),
    QuizCode.SERIAL_PORT_NAME: N_("A serial port is a /dev/ path or COM and a number."),
    QuizCode.SERIAL_PORT_UNAVAILABLE: N_("The port %(port)s cannot be opened: it is not there, or it is busy."),
    # packs
    PackCode.NOT_A_PACK: N_("This is not a question pack: neither a .siq archive, nor SIQ XML, nor db.chgk.info text."),
    PackCode.FILE_TOO_LARGE: N_("The file is larger than %(limit)s bytes."),
    PackCode.NOT_A_ZIP: N_("The file is not a ZIP archive (a .siq file is one)."),
    PackCode.ENTRY_UNREADABLE: N_("The file %(entry)s in the archive cannot be unpacked."),
    PackCode.NO_CONTENT: N_("The archive has no %(entry)s: it is not a SIGame pack."),
    PackCode.XML_MALFORMED: N_("%(entry)s is not well-formed XML (line %(line)s, column %(column)s)."),
    PackCode.XML_FORBIDDEN: N_("%(entry)s uses a forbidden XML feature (a DTD, an entity or an external reference)."),
    PackCode.XML_TOO_LARGE: N_("%(entry)s is %(size)s bytes, more than %(limit)s."),
    PackCode.XML_TOO_DEEP: N_("%(entry)s nests elements %(depth)s deep, more than %(limit)s."),
    PackCode.XML_TOO_MANY_ELEMENTS: N_("%(entry)s has more than %(limit)s elements."),
    PackCode.WRONG_ROOT: N_("%(entry)s starts with <%(root)s>, not <package>."),
    PackCode.BAD_VERSION: N_("The pack's version %(value)s is not a number."),
    PackCode.UNSUPPORTED_VERSION: N_("Pack version %(version)s is not supported (versions up to %(maximum)s are)."),
    PackCode.BAD_VALUE: N_("«%(value)s» is not %(kind_term)s."),
    PackCode.BAD_ATTRIBUTE: N_("<%(element)s>: %(name)s=«%(value)s» is not %(kind_term)s."),
    PackCode.UNKNOWN_TYPE: N_("<%(element)s> has an unknown type «%(value)s»."),
    PackCode.ENTRY_NAME_TOO_LONG: N_("A file name in the archive is %(length)s characters long, more than %(limit)s."),
    PackCode.ENTRY_NAME_UNSAFE: N_("The file name %(entry)s in the archive is refused: %(reason_term)s."),
    PackCode.ENTRY_EMPTY_NAME: N_("The archive has a file without a name."),
    PackCode.ENTRY_TWICE: N_("The file %(entry)s appears twice in the archive."),
    PackCode.ENTRY_ENCRYPTED: N_("The file %(entry)s in the archive is encrypted."),
    PackCode.TOO_MANY_ENTRIES: N_("The archive has %(count)s files, more than %(limit)s."),
    PackCode.ENTRY_TOO_LARGE: N_("The file %(entry)s unpacks to %(size)s bytes, more than %(limit)s."),
    PackCode.ENTRY_RATIO: N_(
        "The file %(entry)s is compressed %(ratio)s to 1, more than %(limit)s to 1: it looks like a zip bomb."
    ),
    PackCode.ARCHIVE_TOO_LARGE: N_("The archive unpacks to %(size)s bytes, more than %(limit)s."),
    PackCode.TEXT_TOO_LARGE: N_("The text is too large: %(size)s, at most %(limit)s."),
    PackCode.TEXT_TOO_LONG: N_("%(item_term)s (%(place)s): %(length)s characters, at most %(limit)s."),
    PackCode.TOO_MANY_ROUNDS: N_("%(place)s: %(count)s rounds, at most %(limit)s."),
    PackCode.TOO_MANY_THEMES: N_("%(place)s: %(count)s themes, at most %(limit)s."),
    PackCode.TOO_MANY_QUESTIONS: N_("%(place)s: %(count)s questions, at most %(limit)s."),
    PackCode.TOO_MANY_PARAMETERS: N_("%(place)s: %(count)s parameters, at most %(limit)s."),
    PackCode.TOO_MANY_CONTENT_ITEMS: N_("%(place)s: %(count)s content items, at most %(limit)s."),
    PackCode.TOO_MANY_SCRIPT_STEPS: N_("%(place)s: %(count)s script steps, at most %(limit)s."),
    PackCode.TOO_MANY_AUTHORS: N_("%(place)s: %(count)s authors, at most %(limit)s."),
    PackCode.TOO_MANY_SOURCES: N_("%(place)s: %(count)s sources, at most %(limit)s."),
    PackCode.TOO_MANY_NUMBERS: N_("%(place)s offers %(count)s numbers to choose from, at most %(limit)s."),
    PackCode.MEDIA_TWICE: N_("The media file %(entry)s appears twice in the pack."),
    PackCode.MEDIA_NAME: N_("The media file name %(name)s cannot be a file of an archive."),
    PackCode.UNWRITABLE_TEXT: N_("<%(element)s> holds a control character that XML cannot carry."),
    PackCode.CHGK_NO_QUESTION: N_("There is no «Вопрос N:» field: this is not a db.chgk.info question file."),
    PackCode.CHGK_SECOND_FIELD: N_("Line %(line)s: a second «%(label)s» field for the same «Вопрос»."),
    PackCode.CHGK_FIELD_FIRST: N_("Line %(line)s: «%(label)s» before any «Вопрос»."),
    PackCode.CHGK_NO_THEME_NAME: N_("«Вопрос» at line %(line)s: no theme name before the numbered questions."),
    PackCode.CHGK_NO_ANSWER_FIELD: N_("«Вопрос» at line %(line)s (theme «%(theme)s») has no «Ответ» field."),
    PackCode.CHGK_NOT_NUMBERED: N_(
        "«Вопрос» at line %(line)s (theme «%(theme)s»): «%(label)s» is not numbered like the questions."
    ),
    PackCode.CHGK_NO_ANSWER: N_("«Вопрос» at line %(line)s (theme «%(theme)s»): question %(question)s has no answer."),
    PackCode.CHGK_BAD_NUMBER: N_(
        "«Вопрос» at line %(line)s (theme «%(theme)s»), «%(label)s»: item %(number)s does not follow a numbering "
        "1, 2, 3 or 10, 20, 30."
    ),
    PackCode.CHGK_NUMBER_TWICE: N_(
        "«Вопрос» at line %(line)s (theme «%(theme)s»), «%(label)s»: item %(number)s appears twice."
    ),
    PackCode.CHGK_NO_SUCH_QUESTION: N_(
        "«Вопрос» at line %(line)s (theme «%(theme)s»), «%(label)s»: item %(number)s has no question."
    ),
    PackCode.CHGK_MIXED: N_("Line %(line)s: «%(label)s» mixes numbered and unnumbered text."),
    # quiz tournaments and shootouts
    StageCode.GAME_SIZE: N_("A game has 2 to %(maximum)s teams (%(clause)s), not %(size)s."),
    StageCode.TEAM_TWICE: N_("%(team)s is listed twice."),
    StageCode.TOO_FEW_TEAMS: N_("A stage needs at least 2 teams."),
    StageCode.CANNOT_SPLIT: N_("%(teams)s teams cannot be split into games of 2 to %(size)s."),
    StageCode.POINTS_TABLE: N_("The battle-point table %(table)s has no points for %(places)s places."),
    StageCode.ADVANCE_ALL: N_("Advancing %(advancing)s per game would take every team of a game of %(size)s."),
    StageCode.NO_SUCH_GAME: N_("Stage %(stage)s has no game %(game)s."),
    StageCode.ALREADY_RECORDED: N_(
        "Game %(game)s of stage %(stage)s is already recorded: results are final (%(clause)s)."
    ),
    StageCode.WRONG_TEAMS: N_("Game %(game)s is played by %(teams)s."),
    StageCode.NO_SHOOTOUT_PENDING: N_("No shootout is waiting for %(teams)s."),
    StageCode.SHOOTOUT_UNDECIDED: N_("The shootout's scores still leave a tie at an advancing place (%(clause)s)."),
    StageCode.GAMES_WITHOUT_RESULTS: N_("Stage %(stage)s has games without results."),
    StageCode.SHOOTOUTS_PENDING: N_("Shootouts are still to be played by %(teams)s (%(clause)s)."),
    StageCode.LATER_STAGE_TEAMS: N_("A later stage takes the teams that advanced from the stage before it."),
    StageCode.FIRST_STAGE_TEAMS: N_("The first stage needs its teams."),
    StageCode.NO_STAGE: N_("The tour has no stage yet."),
    StageCode.EARLIER_STAGE_FINAL: N_(
        "Only the current stage takes new results; earlier stages are final (%(clause)s)."
    ),
    StageCode.TOUR_NOT_FINISHED: N_("The tour %(tour)s is not over yet."),
    StageCode.TOUR_TWICE: N_("The tour %(tour)s is already in the league table."),
    StageCode.RATED_GAME_SIZE: N_("A rated game has 2 to %(maximum)s teams, not %(count)s."),
    StageCode.PROTEST_OTHER_TOUR: N_("The protest names the tour %(protest_tour)s, not %(tour)s."),
    StageCode.PROTEST_NO_GAME: N_("The tour %(tour)s has no game %(game)s in stage %(stage)s."),
    StageCode.PROTEST_NOT_PLAYED: N_("%(team)s did not play game %(game)s of stage %(stage)s."),
    StageCode.PROTEST_TEXT: N_("A protest needs its text."),
    StageCode.NO_SUCH_PROTEST: N_("There is no protest %(number)s."),
    StageCode.PROTEST_RULED: N_("Protest %(number)s already has a ruling."),
    StageCode.BAD_BOUNDARIES: N_("The advancing places must fall between the teams of the shootout."),
    StageCode.NO_BOUNDARY: N_("A shootout needs at least one advancing place among the tied teams (%(clause)s)."),
    StageCode.SHOOTOUT_PLAYERS: N_("The shootout is for %(teams)s, not for %(played)s."),
}

TERMS: dict[str, str] = {
    # what the host tried to do (``action_term``), in the form "You cannot … now" takes
    ACTIONS["draw"]: N_("draw the first chooser"),
    ACTIONS["strike"]: N_("strike a theme"),
    ACTIONS["announce"]: N_("announce a theme"),
    ACTIONS["choose"]: N_("choose a question"),
    ACTIONS["reserve"]: N_("ask a reserve question"),
    ACTIONS["finish_reading"]: N_("finish reading"),
    ACTIONS["press"]: N_("press the button"),
    ACTIONS["judge"]: N_("judge an answer"),
    ACTIONS["expire"]: N_("end the answer time"),
    ACTIONS["extend"]: N_("give more time"),
    ACTIONS["clarify"]: N_("ask to clarify"),
    ACTIONS["call_time"]: N_("call «время»"),
    ACTIONS["cancel_press"]: N_("cancel the press"),
    ACTIONS["replace"]: N_("replace the question"),
    ACTIONS["stake"]: N_("make a stake"),
    ACTIONS["give"]: N_("hand the secret question to a team"),
    # the game's stages (``phase_term``)
    phase_term("not_created"): N_("not created yet"),
    phase_term("draw"): N_("the draw of the first chooser"),
    phase_term("striking"): N_("striking themes"),
    phase_term("choosing"): N_("choosing a question"),
    phase_term("reading"): N_("reading the question"),
    phase_term("press_window"): N_("the time to press"),
    phase_term("answering"): N_("answering"),
    phase_term("finished"): N_("game over"),
    phase_term("staking"): N_("stakes on a stake question"),
    phase_term("giving"): N_("handing the secret question"),
    # kinds of games (``game_term``)
    game_term("qualifying"): N_("qualifying game"),
    game_term("final"): N_("final"),
    game_term("shootout"): N_("shootout"),
    # what a text of a pack is (``item_term``)
    PACK_TERMS["package_name"]: N_("The pack's name"),
    PACK_TERMS["round_name"]: N_("The round's name"),
    PACK_TERMS["theme_name"]: N_("The theme's name"),
    PACK_TERMS["tag"]: N_("A tag"),
    PACK_TERMS["question_type"]: N_("The question's type"),
    PACK_TERMS["right_answer"]: N_("A right answer"),
    PACK_TERMS["wrong_answer"]: N_("A wrong answer"),
    PACK_TERMS["parameter_name"]: N_("A parameter's name"),
    PACK_TERMS["parameter_value"]: N_("A parameter's value"),
    PACK_TERMS["content"]: N_("A content item"),
    PACK_TERMS["author"]: N_("An author"),
    PACK_TERMS["source"]: N_("A source"),
    PACK_TERMS["comments"]: N_("The comments"),
    PACK_TERMS["showman_comments"]: N_("The host's comments"),
    PACK_TERMS["extension"]: N_("The extension"),
    # what a value should have been (``kind_term``)
    PACK_TERMS["integer"]: N_("a whole number"),
    PACK_TERMS["boolean"]: N_("True or False"),
    PACK_TERMS["number"]: N_("a number"),
    PACK_TERMS["number_set"]: N_("a number set (300, [100;500] or [100;500]/100)"),
    # why an archive's file name is refused (``reason_term``)
    PACK_TERMS["control"]: N_("it holds control characters"),
    PACK_TERMS["backslash"]: N_("it holds a backslash"),
    PACK_TERMS["absolute"]: N_("it is an absolute path"),
    PACK_TERMS["traversal"]: N_("it leads out of the archive"),
    # the fields of the quiz commands
    "team": N_("Team"),
    "theme": N_("Theme"),
    "value": N_("Value"),
    "reserve": N_("Reserve question"),
    "question": N_("Question"),
    "explanation": N_("About the theme"),
    "ms": N_("Time"),
    "reason": N_("Reason"),
    "scope": N_("How long"),
    "person": N_("Person"),
    "note": N_("Note"),
    "delta": N_("Points"),
    "key": N_("Buzzer key"),
    "keys": N_("Buzzer keys"),
    "button": N_("Button"),
    "buttons": N_("Buttons"),
    "tc": N_("Touch time"),
    # the roles of a quiz room
    "host": N_("Host"),
    "assistant": N_("Assistant"),
    "projector": N_("Projector"),
    "spectator": N_("Spectator"),
    "arbiter": N_("Arbiter"),
}
