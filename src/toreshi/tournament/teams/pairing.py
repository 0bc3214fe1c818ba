"""Pairing a team round: a Berger round robin, or a Swiss by the Dutch engine on match points.

**Team Swiss.** FIDE's team Swiss (C.04.6) pairs teams by match points, with the team's colour the colour of its
board 1, no team meeting another twice, and at most one pairing-allocated bye. This project reuses its Dutch
engine (:mod:`toreshi.tournament.dutch`, C.04.3) for it: each team is one "player" whose score is the match
result scaled to the engine's tenths (a won match 10, a drawn one 5, a lost one 0 — the 2 / 1 / 0 ladder, so
scoregroups are those of match points, whatever the configured values), whose pairing number is its starting
rank, and whose colour history is its board-1 colours. C.04.6's own secondary criteria (game-point tie-breaks
inside a scoregroup, its "semi-absolute" colour rules) are not reproduced: ``docs/decisions.md`` says so.
A match won by forfeit on every board is not a meeting (the teams may be paired again), as for individual forfeits.
"""

from __future__ import annotations

from toreshi.kit.refusal import Refused
from toreshi.tournament.berger import berger_round
from toreshi.tournament.dutch import NoValidPairingError, pair_players
from toreshi.tournament.dutch.state import DRAW, LOSS, WIN, PastRound, PlayerState, build_state
from toreshi.tournament.model import Colour
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.teams.model import Match, TeamRound, TeamSystem, TeamTournament
from toreshi.tournament.teams.scoring import TeamRoundScore, team_rounds


def check_can_pair(t: TeamTournament) -> int:
    """The number of the round to pair next, or a refusal."""
    if len(t.teams) < 2:
        raise Refused(TeamCode.TOO_FEW_TEAMS, teams=len(t.teams))
    if t.rounds and not t.rounds[-1].finished:
        raise Refused(TeamCode.ROUND_INCOMPLETE, round=t.rounds[-1].number)
    planned = t.rounds_planned
    if len(t.rounds) >= planned:
        raise Refused(TeamCode.ALL_ROUNDS_PAIRED, rounds=planned)
    return len(t.rounds) + 1


def _tenths(r: TeamRoundScore, t: TeamTournament) -> int:
    if r.match_points >= t.settings.points.win:
        return WIN
    if r.match_points >= t.settings.points.draw and r.match_points > t.settings.points.loss:
        return DRAW
    return LOSS


def _states(t: TeamTournament) -> dict[int, PlayerState]:
    rows = team_rounds(t)
    states = {}
    for rank, team in enumerate(sorted(t.teams, key=lambda x: x.number)):
        past = [
            PastRound(r.opponent, r.colour if r.played else None, _tenths(r, t), r.played, True)
            for r in rows[team.number]
        ]
        states[team.number] = build_state(team.number, rank, past)
    return states


def pair_next_round(t: TeamTournament) -> TeamRound:
    """The next round's matches, each team with its default line-up (its first N players)."""
    number = check_can_pair(t)
    lineup = t.default_lineup()
    pairs: list[tuple[int, int | None]] = []
    if t.settings.system is TeamSystem.ROUND_ROBIN:
        for board in berger_round(len(t.teams), number):
            pairs.append((board.white, board.black))
    else:
        states = _states(t)
        try:
            pairing = pair_players(list(states.values()), states, played_rounds=number - 1,
                                   planned_rounds=t.rounds_planned, initial_colour=Colour.WHITE)  # fmt: skip
        except NoValidPairingError:
            raise Refused(TeamCode.NO_VALID_PAIRING, round=number) from None
        pairs = [(p.white, p.black) for p in pairing.pairs]
        if pairing.bye is not None:
            pairs.append((pairing.bye, None))
    matches = tuple(
        Match(i, first, second, lineup, lineup if second is not None else ())
        for i, (first, second) in enumerate(pairs, start=1)
    )
    return TeamRound(number, matches)
