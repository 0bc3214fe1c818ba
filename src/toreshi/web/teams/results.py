"""A team tournament's results bundle (issue 29): one zip for the federation and the club's archive.

* the TRF-2026 (with the team records ``310``, ``362``, ``801`` and ``802``) and the TRF16 (with ``013``);
* the team standings, the team crosstable and the board tables as one print-ready HTML document and the same as a
  PDF (:func:`toreshi.web.tournaments.pdf.document_pdf`, the module the individual crosstable prints through);
* every board game in one PGN file (results only: a team match's games are entered by the arbiter, not played in
  a game room), with the teams in ``WhiteTeam`` / ``BlackTeam`` and a forfeit in a ``Forfeit`` tag;
* the team standings and the crosstable as CSV (spreadsheet-safe cells) in the reader's language;
* the audit log: every event with the arbiter as a role (never a login), corrections with their reasons.

:func:`site_files` is the tournament's public results site (kk, ru, en: the tournament and its teams, the
standings with the crosstable and the board tables, each round's matches board by board; the TRF and the PGN),
every link relative: the app serves it at ``/results/{tid}/…`` and ``toreshi publish`` writes it. No audit log,
no representative, no login in it.
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
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.templates import environment
from toreshi.web.tournaments import texts
from toreshi.web.tournaments.pdf import Grid, document_pdf
from toreshi.web.tournaments.results import LANGUAGES, document_html, site_style, speaking, zip_files

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


# --- the public results site ----------------------------------------------------------------------------------


def teams_grid(t: TeamTournament) -> Grid:
    """The teams in their board order (reserves after the boards)."""
    boards = t.settings.boards
    headers = [_("No"), _("Team"), *[_("Board %(board)s") % {"board": b} for b in range(1, boards + 1)], _("Reserves")]
    rows = []
    for team in sorted(t.teams, key=lambda x: x.number):
        players = [p.name + (f" ({p.rating})" if p.rating else "") for p in team.players]
        cells = players[:boards] + [""] * max(0, boards - len(players))
        rows.append([team.number, team.name, *cells, ", ".join(players[boards:])])
    return Grid(_("Teams"), headers, rows, name_column=1)


def round_grids(t: TeamTournament, number: int) -> list[Grid]:
    """A round's matches, one table each: board, White, the result, Black (a player with their team)."""
    grids = []
    games = [g for g in games_of(t) if g.round == number]
    for m in t.rounds[number - 1].matches:
        first = t.team(m.first).name
        if m.second is None:
            grids.append(Grid(f"{m.number}. {first} — {_('bye')}", [_("Board"), _("White"), _("Result"), _("Black")],
                              [], name_column=1))  # fmt: skip
            continue
        rows: list[list[object]] = []
        for g in (g for g in games if g.match == m.number):
            white, black = t.team(g.white_team), t.team(g.black_team)
            rows.append([g.board, f"{white.players[g.white].name} ({white.name})", g.result.value,
                         f"{black.players[g.black].name} ({black.name})"])  # fmt: skip
        heading = f"{m.number}. {first} — {t.team(m.second).name}"
        grids.append(Grid(heading, [_("Board"), _("White"), _("Result"), _("Black")], rows, name_column=1))
    return grids


def site_paths(t: TeamTournament, tid: str) -> list[str]:
    pages = ["index.html", "standings.html", *[f"round-{r.number}.html" for r in t.rounds]]
    return ["style.css", "index.html", f"{tid}.trf", "games.pgn"] + [f"{lang}/{p}" for lang in LANGUAGES for p in pages]


def site_file(state: TeamJournalState, tid: str, path: str, *, url: str | None = None) -> bytes | None:
    """One file of the team tournament's public results site (None if it has no such file); ``url``: where the
    site is read (its QR code for the hall on the index pages)."""
    t = state.t
    if path not in site_paths(t, tid):
        return None
    if path == "style.css":
        return site_style()
    if path == "index.html":
        page = environment.get_template("results/choose.html").render(t={"name": t.settings.name})
        return page.encode()
    if path == f"{tid}.trf":
        return team_trf(t).encode()
    if path == "games.pgn":
        return games_pgn(t).encode()
    language, page = path.split("/", 1)
    with speaking(language):
        nav = [("index.html", _("Teams and rounds")), ("standings.html", _("Standings"))]
        nav += [(f"round-{r.number}.html", _("Round %(n)s") % {"n": r.number}) for r in t.rounds]
        context: dict[str, object] = {"title": t.settings.name, "language": language, "languages": LANGUAGES,
                                      "page": page, "nav": nav, "heading": "", "particulars": [], "grids": [],
                                      "notes": [], "downloads": [], "qr": "", "url": url}  # fmt: skip
        if page == "index.html":
            context.update(particulars=particulars(t), grids=[teams_grid(t)], qr=qr_svg(url) if url else "",
                           downloads=[(f"../{tid}.trf", _("Tournament report file (TRF)")),
                                      ("../games.pgn", _("Every game (PGN)"))])  # fmt: skip
        elif page == "standings.html":
            context.update(heading=_("Standings"), grids=_grids(t), notes=_notes(t))
        else:
            number = int(page.removeprefix("round-").removesuffix(".html"))
            context.update(heading=_("Round %(n)s") % {"n": number}, grids=round_grids(t, number))
        return environment.get_template("results/event_site.html").render(**context).encode()


def site_files(state: TeamJournalState, tid: str, *, url: str | None = None) -> dict[str, bytes]:
    """Every file of the site by its relative path (what ``toreshi publish`` writes)."""
    files = {}
    for path in site_paths(state.t, tid):
        data = site_file(state, tid, path, url=url)
        if data is not None:
            files[path] = data
    return files
