"""A team tournament's results bundle (issue 29): one zip for the federation and the club's archive.

* the TRF-2026 (with the team records ``310``, ``362``, ``801`` and ``802``) and the TRF16 (with ``013``);
* the team standings, the team crosstable and the board tables as one print-ready HTML document and the same as a
  PDF (:func:`toreshi.web.tournaments.pdf.document_pdf`, the module the individual crosstable prints through);
* every board game in one PGN file (results only: a team match's games are entered by the arbiter, not played in
  a game room), with the teams in ``WhiteTeam`` / ``BlackTeam`` and a forfeit in a ``Forfeit`` tag;
* the team standings and the crosstable as CSV (spreadsheet-safe cells) in the reader's language;
* the audit log: every event with the arbiter as a role (never a login), corrections with their reasons.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from toreshi.kit.spreadsheet import csv_text
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.filing import one_line
from toreshi.tournament.journal.teams import (
    LineupSet,
    MatchEntered,
    TeamJournalState,
    TeamProtestFiled,
    TeamRegistered,
    TeamRepresentativesSet,
    TeamRoundPaired,
    TeamsCreated,
)
from toreshi.tournament.model import Colour, GameResult
from toreshi.tournament.teams.boards import board_prizes, board_records, games_of, minimum_games
from toreshi.tournament.teams.model import PrimaryScore, TeamSystem, TeamTournament
from toreshi.tournament.teams.tables import crosstable
from toreshi.tournament.teams.trf import team_trf
from toreshi.web.tournaments import texts
from toreshi.web.tournaments.pdf import Grid, document_pdf
from toreshi.web.tournaments.results import document_html, speaking, zip_files

AuditLine = tuple[datetime, str, str, str]

_PGN_RESULTS = {
    GameResult.WHITE_WINS: "1-0",
    GameResult.BLACK_WINS: "0-1",
    GameResult.DRAW: "1/2-1/2",
    GameResult.WHITE_FORFEIT_WIN: "1-0",
    GameResult.BLACK_FORFEIT_WIN: "0-1",
    GameResult.DOUBLE_FORFEIT: "*",
}
"""PGN has no forfeit token: as in a game room's PGN, a forfeit is the points it gives and a ``Forfeit`` tag."""


def standings_grid(t: TeamTournament) -> Grid:
    """The team standings in the reader's language: rank, number, team, MP, GP, the tie-breaks."""
    standings, _rows = crosstable(t)
    headers = [_("Rank"), _("No"), _("Team"), _("MP"), _("GP"), *[str(tb) for tb in standings.tiebreaks]]
    rows = [
        [row.rank, row.team, t.team(row.team).name, texts.points(row.match_points), texts.points(row.game_points),
         *[texts.points(v) for v in row.values]]
        for row in standings.rows
    ]  # fmt: skip
    return Grid(_("Team standings"), headers, rows)


def crosstable_grid(t: TeamTournament) -> Grid:
    """The team crosstable: per round the opponent's number, ○ / ● (White or Black on board 1) and the game
    points, then MP and GP."""
    _standings, cross = crosstable(t)
    headers = [_("Rank"), _("No"), _("Team"), *[_("R%(round)s") % {"round": r.number} for r in t.rounds]]
    headers += [_("MP"), _("GP")]
    rows: list[list[object]] = []
    for row in cross:
        by_round = {c.round: c for c in row.cells}
        cells: list[object] = []
        for r in t.rounds:
            c = by_round.get(r.number)
            if c is None:
                cells.append("")
            elif c.opponent is None:
                cells.append(_("bye"))
            else:
                cells.append(f"{c.opponent}{'○' if c.colour is Colour.WHITE else '●'} {texts.points(c.game_points)}")
        rows.append([row.rank, row.team, t.team(row.team).name, *cells, texts.points(row.match_points),
                     texts.points(row.game_points)])  # fmt: skip
    return Grid(_("Team crosstable"), headers, rows)


def board_grids(t: TeamTournament) -> list[Grid]:
    """One table per board: the players, their teams, games, points and percentage; a board prize marked 🏆 in
    the HTML (the PDF's font has no such sign: there it is a star)."""
    prizes = board_prizes(t)
    grids = []
    for board, records in board_records(t).items():
        rows = []
        for rec in records:
            team = t.team(rec.team)
            mark = " *" if rec in prizes[board] else ""
            rows.append([team.players[rec.place].name + mark, team.name, rec.games, texts.points(rec.points),
                         f"{float(rec.percentage):.1f}"])  # fmt: skip
        grids.append(Grid(_("Board %(board)s") % {"board": board},
                          [_("Player"), _("Team"), _("Games"), _("Points"), "%"], rows, name_column=0))  # fmt: skip
    return grids


def particulars(t: TeamTournament) -> list[tuple[str, str]]:
    s = t.settings
    system = _("Team Swiss (Dutch on match points)") if s.system is TeamSystem.SWISS else _("Team round robin")
    if s.primary is PrimaryScore.MATCH:
        points = f"{_('Match points')} {texts.points(s.points.win)}/{texts.points(s.points.draw)}/" + texts.points(
            s.points.loss
        )
    else:
        points = _("Game points")
    return [
        (_("System"), system),
        (_("Dates"), s.start or "—"),
        (_("Boards"), str(s.boards)),
        (_("Rounds"), f"{len(t.rounds)} / {t.rounds_planned}"),
        (_("Primary score"), points),
        (_("Teams"), str(len(t.teams))),
    ]


def _notes(t: TeamTournament) -> list[str]:
    standings, _cross = crosstable(t)
    return [
        _("Tie-breaks by FIDE C.07 in its version of %(date)s (the rules in force on the start date).")
        % {"date": standings.rules.effective.isoformat()},
        _("○ the team had White on board 1, ● Black; then its game points in the match."),
        _("Board prizes: the best percentage with at least %(games)s games on the board.")
        % {"games": minimum_games(t)},
    ]


def _legend() -> list[tuple[str, str]]:
    return [
        ("MPVGP", _("the other score: game points when match points rank first, match points otherwise")),
        ("BH", _("Buchholz: the opponents' scores")),
        ("SB", _("Sonneborn–Berger: each opponent's score times the score against them")),
        ("DE", _("direct encounter: the place among the tied teams")),
    ]


def _grids(t: TeamTournament) -> list[Grid]:
    return [standings_grid(t), crosstable_grid(t), *board_grids(t)]


def _sections() -> list[tuple[str, Sequence[tuple[str, str]]]]:
    return [(_("Tie-breaks, in order"), _legend())]


def standings_html(t: TeamTournament, language: str) -> str:
    """The standings, the crosstable and the board tables as one self-contained HTML document."""
    with speaking(language):
        return document_html(t.settings.name, particulars(t), _grids(t), language, subtitle=_("Team standings"),
                             notes=_notes(t), sections=_sections(), signature=(_("Chief arbiter"), ""))  # fmt: skip


def standings_pdf(t: TeamTournament, language: str) -> bytes:
    """The same document as a PDF."""
    with speaking(language):
        return document_pdf(t.settings.name, particulars(t), _grids(t), language, notes=_notes(t),
                            sections=_sections(), signature=(_("Chief arbiter"), ""))  # fmt: skip


def games_pgn(t: TeamTournament) -> str:
    """Every board game with a result, round by round, match by match, board by board."""
    parts = []
    event = one_line(t.settings.name)
    date = t.settings.start.replace("-", ".") if t.settings.start else "????.??.??"
    for g in games_of(t):
        white_team, black_team = t.team(g.white_team), t.team(g.black_team)
        tags = {
            "Event": event,
            "Site": "toreshi",
            "Date": date,
            "Round": f"{g.round}.{g.match}",
            "Board": str(g.board),
            "White": white_team.players[g.white].name,
            "Black": black_team.players[g.black].name,
            "WhiteTeam": white_team.name,
            "BlackTeam": black_team.name,
            "Result": _PGN_RESULTS[g.result],
        }
        if not g.result.played:
            tags["Forfeit"] = g.result.value
        lines = [f'[{name} "{_escape(value)}"]' for name, value in tags.items()]
        parts.append("\n".join([*lines, "", tags["Result"]]) + "\n")
    return "\n".join(parts)


def _escape(value: str) -> str:
    return one_line(value).replace("\\", "\\\\").replace('"', '\\"')


def audit_lines(state: TeamJournalState, *, signed_in: bool = False) -> list[tuple[datetime, str, str, str]]:
    """(time, who, action, details) of every event, newest first, in the reader's language; who is the arbiter's
    role, never their login, unless a signed-in arbiter reads it (:func:`.tournament_texts.arbiter_shown`)."""
    t = state.t
    lines = []
    for event in reversed(state.log):
        match event:
            case TeamsCreated():
                action, detail = _("Team tournament created"), event.name
            case TeamRegistered():
                action, detail = _("Team registered"), f"{event.number}. {event.name}"
            case TeamRoundPaired():
                action = _("Round %(round)s paired") % {"round": event.round}
                detail = ", ".join(f"{m.first}–{m.second if m.second is not None else _('bye')}" for m in event.matches)
            case LineupSet():
                action = _("Line-up set for round %(round)s") % {"round": event.round}
                team = t.team(event.team)
                detail = f"{team.name}: " + ", ".join(team.players[p].name for p in event.places)
            case MatchEntered():
                params = {"round": event.round, "match": event.match}
                if event.previous:
                    action = _("Round %(round)s, match %(match)s corrected") % params
                    detail = (
                        " ".join(r.value for r in event.previous) + " → " + " ".join(r.value for r in event.results)
                    )
                    detail += f" ({event.reason})"
                else:
                    action = _("Round %(round)s, match %(match)s entered") % params
                    detail = " ".join(r.value for r in event.results)
            case TeamRepresentativesSet():
                action = _("Representatives set")
                detail = f"{t.team(event.team).name}: " + ", ".join(event.representatives)
            case TeamProtestFiled():
                action = _("Protest %(id)s filed") % {"id": event.id}
                where = _("Round %(round)s, match %(match)s, board %(board)s") % {
                    "round": event.round, "match": event.match, "board": event.board}  # fmt: skip
                status = texts.status_names()[event.status.value]
                detail = f"{where}: {t.team(event.team).name}, {event.filed_by} — {status}"
        who = texts.arbiter_shown(event.by, signed_in=signed_in) if event.by else ""
        lines.append((event.at, who, action, detail))
    return lines


def audit_rows(lines: Sequence[AuditLine]) -> list[Sequence[object]]:
    """The audit log in time order: when (UTC), who (a role), what, the particulars."""
    rows: list[Sequence[object]] = [(_("When (UTC)"), _("Who"), _("Action"), _("Details"))]
    for at, who, action, detail in sorted(lines, key=lambda line: line[0]):
        rows.append((at.strftime("%Y-%m-%d %H:%M:%S"), who, action, detail))
    return rows


def grid_rows(grid: Grid) -> list[Sequence[object]]:
    return [grid.headers, *grid.rows]


def bundle(state: TeamJournalState, tid: str, language: str, audit: Sequence[AuditLine]) -> bytes:
    """The team tournament's results bundle; ``audit``: its audit lines as the public audit page words them (the
    arbiter as a role), in ``language``."""
    t = state.t
    with speaking(language):
        files: dict[str, bytes] = {
            f"{tid}-trf2026.txt": team_trf(t).encode(),
            f"{tid}-trf16.trf": team_trf(t, team_record="013").encode(),
            f"{tid}-standings.html": standings_html(t, language).encode(),
            f"{tid}-standings.pdf": standings_pdf(t, language),
            f"{tid}-games.pgn": games_pgn(t).encode(),
            f"{tid}-standings.csv": csv_text(grid_rows(standings_grid(t))).encode(),
            f"{tid}-crosstable.csv": csv_text(grid_rows(crosstable_grid(t))).encode(),
            f"{tid}-audit.csv": csv_text(audit_rows(audit)).encode(),
        }
    when = max((line[0] for line in audit), default=datetime(2026, 1, 1))
    return zip_files(files, when)
