"""A team list from CSV: one line per player, in board order, ``team,player,rating[,representative]``.

The first line may be a header (``team`` in its first cell). Consecutive lines of a team give its list in board
order (first the boards, then the reserves); a value in ``representative`` adds that person to the team's
representatives (TK-P1). Every bad line is reported at once, as one refusal per line.
"""

from __future__ import annotations

import csv
import io

from toreshi.kit import payload
from toreshi.kit.refusal import Refusal, Refused
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.teams.model import Team, TeamPlayer

MAX_LINES = 2_000


def parse_teams(text: str, first_number: int = 1) -> list[Team]:
    rows = list(csv.reader(io.StringIO(text.strip())))
    if rows and rows[0] and rows[0][0].strip().casefold() == "team":
        rows = [["#header"], *rows[1:]]
    teams: dict[str, tuple[list[TeamPlayer], list[str]]] = {}
    problems: list[Refusal] = []
    for index, row in enumerate(rows[:MAX_LINES], start=1):
        if row == ["#header"] or not any(cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row] + ["", "", "", ""]
        team, player, rating_text, representative = cells[:4]
        try:
            team = payload.check_name(team, "team", max_length=80)
            player = payload.check_name(player, "player", max_length=80)
            rating = payload.int_from_text(rating_text, "rating", minimum=0, maximum=4000) if rating_text else None
        except Refused as refused:
            problems.append(Refusal(TeamCode.CSV_LINE, {"line": index, "field": str(refused.params.get("field", ""))}))
            continue
        players, reps = teams.setdefault(team, ([], []))
        players.append(TeamPlayer(player, rating))
        if representative and representative not in reps:
            reps.append(representative[:80])
    if problems:
        raise Refused(TeamCode.CSV_LINE, details=tuple(problems), line=int(problems[0].params["line"]),
                      field=str(problems[0].params["field"]))  # fmt: skip
    if not teams:
        raise Refused(TeamCode.CSV_EMPTY)
    return [
        Team(first_number + i, name, tuple(players), tuple(reps))
        for i, (name, (players, reps)) in enumerate(teams.items())
    ]
