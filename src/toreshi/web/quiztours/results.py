"""A «Своя игра» tour's results bundle (issue 29): one zip for the club's archive and the league.

* the tour standings (the final places, then each stage's standing with why each team went on or not) and the
  games' scores as one print-ready HTML document and the same as a PDF
  (:func:`toreshi.web.tournaments.pdf.document_pdf`, the module every results document prints through);
* the standings as CSV (spreadsheet-safe cells) in the reader's language;
* each game's protocol: its report (SI-9) as CSV, one file per game room (``games/``), the columns the report's
  own CSV export has;
* the tour's log: every event (seeding, results, results amended in their rooms while the stage was open, stages
  closed, protests and rulings) and the audience rulings of the games (SI-4.5). No login, no join code, no
  team's link is in any of it.

:func:`site_files` is the tour's public results site (kk, ru, en: the tour and its games' scores, the standings),
every link relative: served at ``/results/{id}/…`` and written by ``toreshi publish``. No log, no protocol in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

from toreshi.kit.spreadsheet import csv_text
from toreshi.quiz.events import GameKind
from toreshi.quiz.tour.core import GameLink, TourState, stage_outcome
from toreshi.texts.i18n import N_
from toreshi.texts.i18n import gettext as _
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.templates import environment
from toreshi.web.tournaments.pdf import Grid, document_pdf
from toreshi.web.tournaments.results import LANGUAGES, document_html, site_style, speaking, zip_files

REASONS = {
    "place": N_("advanced by its place in the game"),
    "shootout": N_("advanced after a shootout (SI-2.2)"),
    "best_other": N_("advanced as one of the best others"),
    "out": N_("did not advance"),
    "pending": N_("waiting for games or shootouts"),
    "final": N_("final"),
}
KINDS = {"qualifying": N_("Qualifying game"), "final": N_("Final"), "shootout": N_("Shootout")}
METHODS = {"rating": N_("by rating"), "lot": N_("by lot"), "hand": N_("by hand")}
LOG_TYPES = {
    "tour_created": N_("Tour created"),
    "formula_changed": N_("Formula changed"),
    "teams_changed": N_("Teams changed"),
    "stage_seeded": N_("Stage seeded"),
    "game_linked": N_("Game room created"),
    "result_recorded": N_("Result recorded"),
    "result_amended": N_("Result amended in its room (stage still open, SI-6)"),
    "stage_closed": N_("Stage closed: its results are final (SI-6)"),
    "protest_filed": N_("Protest filed (SI-6)"),
    "protest_ruled": N_("Protest ruled"),
}


def points_text(value: Fraction | int | float) -> str:
    """Battle and league points: whole numbers as they are, halves as ``2.5``."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.2f}".rstrip("0").rstrip(".")
    return str(int(value))


def stage_title(state: TourState, index: int) -> str:
    return _("Final") if state.formula.is_final(index) else _("Stage %(n)s") % {"n": index + 1}


def game_name(link: GameLink) -> str:
    """A game of the tour as its page names it: "Game 2" in its stage, or a shootout."""
    if link.kind is GameKind.SHOOTOUT:
        return _("Shootout")
    return _("Game %(n)s") % {"n": link.game + 1}


def places_grid(state: TourState) -> Grid | None:
    """The tour's final places (None before the tour is over)."""
    if not state.finished:
        return None
    rows: list[list[object]] = []
    place = 1
    for group in state.tour.final_places():
        rows.extend([place, team] for team in group)
        place += len(group)
    return Grid(_("Tour standings"), [_("Place"), _("Team")], rows, name_column=1)


def stage_grids(state: TourState) -> list[Grid]:
    """Each stage's standing: its order, the team, its points, its score, its game, its place there, the outcome."""
    points_label = _("Score") if state.formula.scoring.value == "raw_score" else _("Battle points")
    headers = ["#", _("Team"), points_label, _("Score"), _("Game"), _("Place in the game"), _("Outcome")]
    grids = []
    for index, stage in enumerate(state.tour.stages):
        reasons = stage_outcome(state, index)
        rows = [
            [n, row.team, points_text(row.points), row.raw, row.game + 1, row.place_in_game,
             _(REASONS[reasons.get(row.team, "pending")])]
            for n, row in enumerate(stage.standings(), start=1)
        ]  # fmt: skip
        grids.append(Grid(stage_title(state, index), headers, rows, name_column=1))
    return grids


def games_grid(state: TourState) -> Grid:
    """Every game room of the tour with its teams and (once over) their scores."""
    rows: list[list[object]] = []
    for link in state.links:
        scores = ", ".join(f"{team} {score}" for team, score in link.scores) if link.scores else ""
        rows.append([stage_title(state, link.stage), game_name(link), ", ".join(link.teams), scores])
    return Grid(_("Games"), [_("Stage"), _("Game"), _("Teams"), _("Score")], rows, name_column=2)


def particulars(state: TourState) -> list[tuple[str, str]]:
    scoring = _("Raw score") if state.formula.scoring.value == "raw_score" else _("Battle points (4/2/1/0)")
    return [
        (_("Date"), state.date or "—"),
        (_("Teams"), f"{len(state.teams)}: {', '.join(state.teams)}"),
        (_("Packs"), ", ".join(pack.name for pack in state.packs) or "—"),
        (_("Formula"), scoring),
    ]


def _grids(state: TourState) -> list[Grid]:
    places = places_grid(state)
    return [*([places] if places else []), *stage_grids(state), games_grid(state)]


def _protests(state: TourState) -> list[tuple[str, str]]:
    shown = []
    for p in state.protests.protests:
        ruling = f" — {p.ruling}" + (f" ({p.note_for_future})" if p.note_for_future else "") if p.ruling else ""
        shown.append((p.team, p.text + ruling))
    return shown


def _sections(state: TourState) -> list[tuple[str, Sequence[tuple[str, str]]]]:
    return [(_("Protests (SI-6)"), _protests(state))]


def standings_html(state: TourState, language: str) -> str:
    with speaking(language):
        return document_html(state.name, particulars(state), _grids(state), language, subtitle=_("Tour standings"),
                             sections=_sections(state), signature=(_("Host"), ""))  # fmt: skip


def standings_pdf(state: TourState, language: str) -> bytes:
    with speaking(language):
        return document_pdf(state.name, particulars(state), _grids(state), language, sections=_sections(state),
                            signature=(_("Host"), ""))  # fmt: skip


def standings_rows(state: TourState) -> list[Sequence[object]]:
    """The standings CSV: the final places (stage column: the tour), then every stage's standing."""
    rows: list[Sequence[object]] = [[_("Stage"), "#", _("Team"), _("Points"), _("Score"), _("Game"),
                                     _("Place in the game"), _("Outcome")]]  # fmt: skip
    places = places_grid(state)
    if places is not None:
        rows.extend([_("Tour standings"), place, team, "", "", "", "", ""] for place, team in places.rows)
    for grid in stage_grids(state):
        rows.extend([grid.heading, *row] for row in grid.rows)
    return rows


def _log_detail(key: str, value: str) -> str:
    if key == "kind":
        return _(KINDS.get(value, value))
    if key == "method":
        return _(METHODS.get(value, value))
    if key == "stage":
        return _("Stage %(n)s") % {"n": value}
    return value


def log_rows(state: TourState, audience: Sequence[tuple[GameLink, Mapping[str, Any]]]) -> list[Sequence[object]]:
    """The tour's log as the tour's page words it (every event, a result amended with what it replaced), then the
    audience rulings of its games (SI-4.5)."""
    rows: list[Sequence[object]] = [[_("When (UTC)"), _("Action"), _("Details")]]
    for at, kind, params in state.log:
        details = " · ".join(_log_detail(key, value) for key, value in params if key != "room")
        rows.append([at[:19].replace("T", " "), _(LOG_TYPES.get(kind, kind)), details])
    for link, ruling in audience:
        if ruling.get("type") == "audience_warned":
            what = _("warned")
        elif ruling.get("scope") == "round":
            what = _("removed until the end of the round of games")
        else:
            what = _("removed until the end of the game")
        where = f"{stage_title(state, link.stage)}, {game_name(link)}"
        rows.append(["", f"{where} (SI-4.5)", f"{ruling.get('person', '')}: {what}"])
    return rows


def game_file(state: TourState, link: GameLink) -> str:
    """The name of a game's protocol in the bundle: its stage, its game (or a shootout) and its room."""
    place = "shootout" if link.kind is GameKind.SHOOTOUT else f"game{link.game + 1}"
    return f"games/stage{link.stage + 1}-{place}-{link.room_id}.csv"


def bundle(
    state: TourState,
    tour_id: str,
    language: str,
    protocols: Mapping[str, Sequence[Sequence[object]]],
    audience: Sequence[tuple[GameLink, Mapping[str, Any]]] = (),
) -> bytes:
    """The tour's results bundle; ``protocols``: each game room's report as CSV rows, by room id (a room that
    could not be read is left out); ``audience``: the audience rulings of the tour's games."""
    with speaking(language):
        files: dict[str, bytes] = {
            f"{tour_id}-standings.html": standings_html(state, language).encode(),
            f"{tour_id}-standings.pdf": standings_pdf(state, language),
            f"{tour_id}-standings.csv": csv_text(standings_rows(state)).encode(),
            f"{tour_id}-log.csv": csv_text(log_rows(state, audience)).encode(),
        }
        for link in state.links:
            rows = protocols.get(link.room_id)
            if rows is not None:
                files[game_file(state, link)] = csv_text(rows).encode()
    stamps = [at for at, _kind, _params in state.log if at]
    when = datetime.fromisoformat(max(stamps)) if stamps else datetime(2026, 1, 1)
    return zip_files(files, when)


# --- the public results site ----------------------------------------------------------------------------------

SITE_PAGES = ("index.html", "standings.html")


def site_paths() -> list[str]:
    return ["style.css", "index.html"] + [f"{lang}/{page}" for lang in LANGUAGES for page in SITE_PAGES]


def site_file(state: TourState, path: str, *, url: str | None = None) -> bytes | None:
    """One file of the tour's public results site (None if it has no such file); ``url``: where the site is read
    (its QR code for the hall on the index pages)."""
    if path not in site_paths():
        return None
    if path == "style.css":
        return site_style()
    if path == "index.html":
        return environment.get_template("results/choose.html").render(t={"name": state.name}).encode()
    language, page = path.split("/", 1)
    with speaking(language):
        nav = [("index.html", _("Games")), ("standings.html", _("Tour standings"))]
        context: dict[str, object] = {"title": state.name, "language": language, "languages": LANGUAGES,
                                      "page": page, "nav": nav, "heading": "", "particulars": [], "grids": [],
                                      "notes": [], "downloads": [], "qr": "", "url": url}  # fmt: skip
        if page == "index.html":
            context.update(particulars=particulars(state), grids=[games_grid(state)], qr=qr_svg(url) if url else "")
        else:
            places = places_grid(state)
            context.update(heading=_("Tour standings"), grids=[*([places] if places else []), *stage_grids(state)])
        return environment.get_template("results/event_site.html").render(**context).encode()


def site_files(state: TourState, *, url: str | None = None) -> dict[str, bytes]:
    """Every file of the site by its relative path (what ``toreshi publish`` writes)."""
    files = {}
    for path in site_paths():
        data = site_file(state, path, url=url)
        if data is not None:
            files[path] = data
    return files
