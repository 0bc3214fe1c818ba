"""Messages of the team competition's refusals (:class:`~toreshi.tournament.teams.codes.TeamCode`)."""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode
from toreshi.texts.i18n import N_
from toreshi.tournament.teams.codes import TeamCode as T

MESSAGES: dict[RefusalCode, str] = {
    T.NOT_CREATED: N_("The team tournament has not been created yet."),
    T.ALREADY_CREATED: N_("The team tournament has already been created."),
    T.BOARDS_OUT_OF_RANGE: N_("A team plays on %(minimum)s to %(maximum)s boards, not %(boards)s."),
    T.POINTS_ORDER: N_(
        "A won match must be worth more than a drawn one, and a drawn one at least a lost one"
        " (%(win)s, %(draw)s, %(loss)s)."
    ),
    T.UNKNOWN_TIEBREAK: N_("Unknown team tie-break: %(tiebreak)s."),
    T.TEAM_NAME_TAKEN: N_("Team %(team)s is already registered."),
    T.TOO_FEW_PLAYERS: N_("Team %(team)s has %(players)s players for %(boards)s boards."),
    T.TOO_MANY_PLAYERS: N_("Team %(team)s may list at most %(maximum)s players (boards and reserves)."),
    T.PLAYER_TWICE: N_("%(player)s is listed twice in team %(team)s."),
    T.PLAYER_IN_OTHER_TEAM: N_("%(player)s already plays for team %(team)s."),
    T.REGISTRATION_CLOSED: N_("Teams are registered before round 1 is paired."),
    T.TOO_FEW_TEAMS: N_("At least two teams are needed (registered: %(teams)s)."),
    T.ALL_ROUNDS_PAIRED: N_("All %(rounds)s rounds have been paired."),
    T.ROUND_INCOMPLETE: N_("Round %(round)s still has matches without a result."),
    T.NO_VALID_PAIRING: N_("Round %(round)s cannot be paired without two teams meeting again."),
    T.UNKNOWN_ROUND: N_("Round %(round)s has not been paired."),
    T.UNKNOWN_MATCH: N_("Round %(round)s has no match %(match)s."),
    T.UNKNOWN_TEAM: N_("There is no team number %(team)s."),
    T.NOT_IN_MATCH: N_("Team %(team)s has no match in round %(round)s."),
    T.WRONG_RESULT_COUNT: N_("Round %(round)s, match %(match)s: %(boards)s board results are needed, %(given)s given."),
    T.BYE_HAS_NO_RESULT: N_("Round %(round)s, match %(match)s is a bye: it has no result to enter."),
    T.LINEUP_SIZE: N_("Team %(team)s: the line-up needs %(boards)s players, %(given)s given."),
    T.LINEUP_UNKNOWN_PLAYER: N_("Team %(team)s has no player number %(player)s on its list."),
    T.LINEUP_ORDER: N_("Team %(team)s: the line-up must keep the team's board order."),
    T.LINEUP_AFTER_RESULT: N_("Round %(round)s: the line-up of %(team)s cannot change after the match's result."),
    T.CSV_LINE: N_("The team list cannot be read at line %(line)s (%(field)s)."),
    T.CSV_EMPTY: N_("The team list is empty."),
    T.UNKNOWN_BOARD: N_("Round %(round)s, match %(match)s has no board %(board)s."),
    T.MATCH_NOT_ENTERED: N_("Round %(round)s, match %(match)s has no result yet: a protest is filed after it."),
    T.NO_ROUNDS: N_("A team Swiss needs at least one round."),
    T.CORRECTION_NEEDS_REASON: N_("Round %(round)s, match %(match)s already has a result: say why it changes."),
}

TERMS: dict[str, str] = {
    "team": N_("Team"),
    "player": N_("Player"),
    "rating": N_("Rating"),
    # the team forms' fields (a refusal names the field it could not read)
    "boards": N_("Boards"),
    "primary": N_("Primary score"),
    "match": N_("Match"),
    "match_win": N_("Match points for a win"),
    "match_draw": N_("Match points for a draw"),
    "match_loss": N_("Match points for a loss"),
    "board_prize_min_games": N_("Board prizes: minimum games"),
    "places": N_("Places on the team list"),
    "players": N_("Players"),
    "representatives": N_("Representatives"),
}
