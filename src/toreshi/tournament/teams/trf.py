"""A team competition as a TRF: the players' ``001`` records with every board game, and the teams' records.

Columns are 1-based and inclusive, as in ``docs/tournaments.md`` §4 (TRF16 and TRF-2026):

- ``001`` — one per listed player, numbered team by team in board order (team 1's list first). Round r's block
  at columns 92 + 10(r−1): the opponent's number (4), the colour, the result; a round the player was not fielded
  in is ``0000 - Z`` (no game, no points).
- ``013`` (TRF16 team record) — name at 5–36, then the players' numbers at 37–40, 42–45, … (5 columns apart);
- ``310`` (TRF-2026, replaces ``013``) — team number 5–7, name 9–40, nickname 42–46, strength 48–53, match
  points 55–60, game points 62–67, rank 69–71, the players' numbers from column 74 (74–77, 79–82, …);
- ``352`` (TRF-2026) — the board colour sequence of the first-named team from column 5 (``WBWB``), and ``142`` the
  number of rounds (a TRF16 file says ``XXR`` instead and has neither);
- TRF-2026 only: ``320`` — the pairing-allocated bye: its match points 5–8 and game points 10–13 (``11.5``), then
  the PAB team of each round at 15–17, 19–21, … (``000`` for none); ``330`` — a match forfeited as a whole (no board
  played over the board): ``+-`` / ``-+`` (the White team, first-named, or the Black team won) or ``--``, at 5–6,
  round 8–10, White team 12–14, Black team 16–18; ``300`` — a team that played out of its default order (not its
  first N players): round 5–7, team 9–11, opponent 13–15, the players' numbers by board at 17–20, 22–25, …

- TRF-2026 only: ``362`` — the team point system, written always (the text makes it mandatory only when it differs
  from 2 / 1 / 0): ``TW`` at 5–6 with its value at 8–11, ``TD`` at 14–15 / 17–20, ``TL`` at 23–24 / 26–29 (the
  text lists the codes without columns; this follows the pairs of ``162``, nine columns apart);
- TRF-2026 only, informative (issue 29): ``802`` — per team: number 5–7, nickname 9–13, match points 15–20, game
  points 22–27, then per round, 13 columns apart from column 29: the opponent 29–31 (or ``PAB``, ``ZPB`` for no
  match), its colour on board 1 at 33, the game points 35–38, ``f`` at 39 for a match forfeited as a whole — as the
  text's column table says; ``801`` — the same header, then per round from column 29 the opponent 29–31, the colour
  at 33, the board results from 35 (one letter per board, the team's side: ``1 = 0 + -``, blank when not entered),
  a blank, and the list places of the players fielded (1–9, then ``A``…): the text gives ``801`` no column table,
  this follows its example's comment header ``T01 C RRRR BBBB``; each is preceded by a ``###`` line naming the
  columns, as the text's examples are.

Checked against the TRF-2026 text's tables (:func:`read_802` reads a ``802`` line back).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from toreshi.tournament.model import GameResult, format_points
from toreshi.tournament.teams.boards import games_of
from toreshi.tournament.teams.model import GAME_POINTS, Match, TeamSystem, TeamTournament, first_team_white
from toreshi.tournament.teams.scoring import team_rounds
from toreshi.tournament.teams.tiebreaks import team_standings


def _put(line: list[str], first: int, text: str) -> None:
    """Write ``text`` into ``line`` starting at 1-based column ``first``."""
    end = first - 1 + len(text)
    if len(line) < end:
        line.extend(" " * (end - len(line)))
    line[first - 1 : end] = list(text)


def _points(value: Fraction, width: int) -> str:
    return f"{float(value):.1f}".rjust(width)


def player_numbers(t: TeamTournament) -> dict[tuple[int, int], int]:
    """(team, place) → the player's TRF number."""
    numbers: dict[tuple[int, int], int] = {}
    for team in sorted(t.teams, key=lambda x: x.number):
        for place in range(len(team.players)):
            numbers[(team.number, place)] = len(numbers) + 1
    return numbers


_CODES = {
    GameResult.WHITE_WINS: ("1", "0"),
    GameResult.BLACK_WINS: ("0", "1"),
    GameResult.DRAW: ("=", "="),
    GameResult.WHITE_FORFEIT_WIN: ("+", "-"),
    GameResult.BLACK_FORFEIT_WIN: ("-", "+"),
    GameResult.DOUBLE_FORFEIT: ("-", "-"),
}


def team_trf(t: TeamTournament, *, line_end: str = "\r", team_record: str = "310") -> str:
    """The TRF text (``team_record`` ``"310"`` for TRF-2026, ``"013"`` for TRF16)."""
    numbers = player_numbers(t)
    rounds = len(t.rounds)
    blocks: dict[int, dict[int, tuple[int, str, str]]] = {n: {} for n in numbers.values()}
    points: dict[int, Fraction] = dict.fromkeys(numbers.values(), Fraction(0))
    for g in games_of(t):
        w, b = numbers[(g.white_team, g.white)], numbers[(g.black_team, g.black)]
        cw, cb = _CODES[g.result]
        blocks[w][g.round] = (b, "w", cw)
        blocks[b][g.round] = (w, "b", cb)
        pw, pb = GAME_POINTS[g.result]
        points[w] += pw
        points[b] += pb
    order = sorted(points, key=lambda n: (-points[n], n))
    rank = {n: i for i, n in enumerate(order, start=1)}
    s = t.settings
    lines = [f"012 {s.name}"]
    if s.start:
        lines.append(f"042 {s.start.replace('-', '/')}")
    lines += [f"062 {len(numbers)}", f"082 {len(t.teams)}"]
    lines.append(
        "092 " + ("Team round robin" if s.system is TeamSystem.ROUND_ROBIN else "Team Swiss (Dutch on match points)")
    )
    if team_record == "013":
        lines.append(f"XXR {t.rounds_planned}")  # TRF16 has no 142 (JaVaFo's extension, as bbpPairings reads it)
    else:
        lines.append(f"142 {t.rounds_planned}")
        lines.append("352 " + "".join("W" if first_team_white(b) else "B" for b in range(1, s.boards + 1)))
    for team in sorted(t.teams, key=lambda x: x.number):
        for place, player in enumerate(team.players):
            n = numbers[(team.number, place)]
            line = list("001")
            _put(line, 5, str(n).rjust(4))
            _put(line, 15, player.name[:33].ljust(33))
            if player.rating:
                _put(line, 49, str(player.rating).rjust(4))
            _put(line, 81, _points(points[n], 4))
            _put(line, 86, str(rank[n]).rjust(4))
            for r in range(1, rounds + 1):
                opponent, colour, code = blocks[n].get(r, (0, "-", "Z"))
                shown = f"{opponent:4d}" if opponent else "0000"
                _put(line, 92 + 10 * (r - 1), f"{shown} {colour} {code}")
            lines.append("".join(line).rstrip())
    if team_record == "310":
        lines.extend(_team_2026_records(t, numbers))
        lines.append(_team_points_line(t))
    standings = {row.team: row for row in team_standings(t).rows}
    for team in sorted(t.teams, key=lambda x: x.number):
        ids = [numbers[(team.number, place)] for place in range(len(team.players))]
        line = list(team_record)
        if team_record == "013":
            _put(line, 5, team.name[:32].ljust(32))
            for i, n in enumerate(ids):
                _put(line, 37 + 5 * i, str(n).rjust(4))
        else:
            row = standings[team.number]
            _put(line, 5, str(team.number).rjust(3))
            _put(line, 9, team.name[:32].ljust(32))
            _put(line, 48, str(team.strength(s.boards)).rjust(6))
            _put(line, 55, _points(row.match_points, 6))
            _put(line, 62, _points(row.game_points, 6))
            _put(line, 69, str(row.rank).rjust(3))
            for i, n in enumerate(ids):
                _put(line, 74 + 5 * i, str(n).rjust(4))
        lines.append("".join(line).rstrip())
    if team_record == "310":
        lines.extend(_crosstable_records(t))
    return line_end.join(lines) + line_end


def _team_points_line(t: TeamTournament) -> str:
    p = t.settings.points
    fields = [(5, "TW"), (8, _points(p.win, 4)), (14, "TD"), (17, _points(p.draw, 4)), (23, "TL"),
              (26, _points(p.loss, 4))]  # fmt: skip
    return _record("362", fields)


_PLACES = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _board_letters(match: Match, side: int) -> str:
    """The team's result on each board (``1 = 0 + -``), from its side."""
    letters = []
    for board, result in enumerate(match.results, start=1):
        white, black = _CODES[result]
        first_white = first_team_white(board)
        letters.append((white if first_white else black) if side == 0 else (black if first_white else white))
    return "".join(letters)


def _crosstable_records(t: TeamTournament) -> list[str]:
    """The informative ``802`` and ``801`` lines, one per team (see the module's description)."""
    rows = team_rounds(t)
    standings = {row.team: row for row in team_standings(t).rows}
    boards = t.settings.boards
    short: list[str] = ["### TTT NNNNN MMMMMM GGGGGG  T01 C GGGGf"]
    long: list[str] = ["### TTT NNNNN MMMMMM GGGGGG  T01 C " + "R" * boards + " " + "B" * boards]
    for team in sorted(t.teams, key=lambda x: x.number):
        row = standings[team.number]
        head = [(5, f"{team.number:>3}"), (15, _points(row.match_points, 6)), (22, _points(row.game_points, 6))]
        by_round = {score.round: score for score in rows.get(team.number, ())}
        fields_802, fields_801 = list(head), list(head)
        for index, r in enumerate(t.rounds):
            at = 29 + 13 * index
            at_801 = 29 + (8 + 2 * boards) * index
            match = r.match_of(team.number)
            score = by_round.get(r.number)
            if match is None or score is None:
                fields_802 += [(at, "ZPB" if match is None else "   "), (at + 6, _points(Fraction(0), 4))]
                fields_801 += [(at_801, "ZPB" if match is None else "   ")]
                continue
            if match.second is None:
                fields_802 += [(at, "PAB"), (at + 6, _points(score.game_points, 4))]
                fields_801 += [(at_801, "PAB")]
                continue
            colour = "w" if match.side_of(team.number) == 0 else "b"
            fields_802 += [(at, f"{score.opponent:>3}"), (at + 4, colour), (at + 6, _points(score.game_points, 4))]
            if not match.played():
                fields_802.append((at + 10, "f"))
            side = match.side_of(team.number)
            places = "".join(_PLACES[place] if place < len(_PLACES) else "?" for place in match.lineup_of(team.number))
            letters = _board_letters(match, side).ljust(boards)
            fields_801 += [(at_801, f"{score.opponent:>3}"), (at_801 + 4, colour), (at_801 + 6, letters),
                           (at_801 + 7 + boards, places)]  # fmt: skip
        short.append(_record("802", fields_802))
        long.append(_record("801", fields_801))
    return [*long, *short]


@dataclass(frozen=True)
class TeamRound802:
    """One round of a ``802`` line read back: the opponent (None for a bye or no match), the bye's kind, the
    colour on board 1, the game points and whether the match was forfeited."""

    opponent: int | None
    bye: str
    colour: str
    game_points: Fraction
    forfeited: bool


def read_802(line: str) -> tuple[int, Fraction, Fraction, list[TeamRound802]]:
    """A ``802`` line: the team's number, match points, game points and its rounds."""
    team = int(line[4:7])
    mp, gp = Fraction(line[14:20].strip()), Fraction(line[21:27].strip())
    rounds: list[TeamRound802] = []
    at = 28
    while at < len(line):
        block = line[at : at + 13].ljust(13)
        who = block[0:3].strip()
        number = int(who) if who.isdigit() else None
        points = Fraction(block[6:10].strip() or "0")
        rounds.append(TeamRound802(number, "" if number else who, block[4].strip(), points, block[10] in "fF"))
        at += 13
    return team, mp, gp, rounds


def _record(code: str, fields: list[tuple[int, str]]) -> str:
    line = list(code)
    for first, text in fields:
        _put(line, first, text)
    return "".join(line).rstrip()


def _team_2026_records(t: TeamTournament, numbers: dict[tuple[int, int], int]) -> list[str]:
    out: list[str] = []
    byes = [next((m.first for m in r.matches if m.second is None), 0) for r in t.rounds]
    if any(byes):
        fields = [(5, _points(t.settings.points.win, 4)), (10, _points(Fraction(t.settings.boards), 4))]
        fields += [(15 + 4 * i, f"{team:03d}") for i, team in enumerate(byes)]
        out.append(_record("320", fields))
    for r in t.rounds:
        for m in r.matches:
            if m.second is None or not m.results or m.played():
                continue
            first, second = m.game_points()
            kind = "--" if m.nobody_came() else "+-" if first > second else "-+" if second > first else ""
            if kind:
                out.append(_record("330", [(5, kind), (8, f"{r.number:03d}"), (12, f"{m.first:03d}"),
                                           (16, f"{m.second:03d}")]))  # fmt: skip
    default = t.default_lineup()
    for r in t.rounds:
        for m in r.matches:
            if m.second is None:
                continue
            for team, opponent, lineup in ((m.first, m.second, m.first_lineup), (m.second, m.first, m.second_lineup)):
                if lineup == default:
                    continue
                fields = [(5, f"{r.number:03d}"), (9, f"{team:03d}"), (13, f"{opponent:03d}")]
                fields += [(17 + 5 * i, f"{numbers[(team, place)]:04d}") for i, place in enumerate(lineup)]
                out.append(_record("300", fields))
    return out


__all__ = ["TeamRound802", "format_points", "player_numbers", "read_802", "team_trf"]
