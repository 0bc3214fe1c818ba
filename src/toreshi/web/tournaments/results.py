"""A tournament's results for the world (issue 29): its TRF, the results bundle and the public results site.

* :func:`tournament_trf` — the TRF16 / TRF-2026 export: results, the header records (``122`` in the tournament's
  language), the first-round colour, the seed of the drawing of lots and every override as ``###`` lines;
* :func:`bundle` — one zip: the TRF (both versions), the crosstable as print-ready HTML and PDF, every game's PGN in
  one file, the standings CSV (spreadsheet-safe cells) and the audit log (who as a role, never a login);
* :func:`site_files` — the public results site as files (``index.html`` and per language ``kk/``, ``ru/``, ``en/``:
  index, standings, crosstable, one page per round and per game), every link relative, so that the same bytes are
  served by the app at ``/results/{tid}/…`` and written by ``toreshi publish EVENT DIR`` for any web host. A game's
  page replays the game move by move from the page alone (its positions inlined as JSON, ``replay.js`` and
  ``replay.css`` beside the pages: the app's own board script and style, made to run from ``file://``).

Nothing private goes out: no player's or team's link, no token, no arbiter login, no fair-play data (a game's
page shows its record as any spectator of its room sees it: no sealed move, no evaluation).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from toreshi.kit.spreadsheet import csv_text
from toreshi.texts import i18n
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.match.export import to_pgn
from toreshi.togyz.match.state import GameState
from toreshi.tournament import crosstable as tables
from toreshi.tournament.filing import one_line, with_header
from toreshi.tournament.journal import TournamentState
from toreshi.tournament.journal.override_records import override_audit
from toreshi.tournament.journal.trf_records import with_pairing_records
from toreshi.tournament.lots import METHOD
from toreshi.tournament.model import Colour, Tournament
from toreshi.tournament.standings import trf_from_standings
from toreshi.tournament.tiebreak_rules import choose_rules
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, format_trf, to_trf2026
from toreshi.web.common.bundle import classic_script, shared_board_css
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.templates import environment
from toreshi.web.togyz import timecontrols
from toreshi.web.togyz.replay import replay_frames
from toreshi.web.togyz.texts import RESULT_SYMBOLS, ending_text, result_headline
from toreshi.web.tournaments import pairing_tools, texts

LANGUAGES = ("kk", "ru", "en")
Board = tuple[int, int]


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Words in ``language`` inside the block; the language active before comes back after it."""
    before = i18n.current_language()
    i18n.activate(language)
    try:
        yield
    finally:
        i18n.activate(before)


# --- the TRF --------------------------------------------------------------------------------------------------


def time_control_text(t: Tournament) -> str:
    """The time control in the current language (a preset's or a custom control; an older log's text)."""
    if t.control is not None:
        return timecontrols.describe(t.control)
    return t.time_control or ""


def _with_colour_and_lots(trf: TrfFile, state: TournamentState) -> TrfFile:
    """``XXC white1|black1`` after ``XXR`` (the first-round colour the pairing used) and, when the lots were drawn,
    a ``###`` line naming the seed and the method, so that the file says how to draw them again."""
    colour = RawLine("XXC " + ("white1" if state.initial_colour is Colour.WHITE else "black1"))
    extra = [colour]
    if state.lots_drawn and state.lots_seed:
        extra.append(RawLine(f"### lots drawn with seed {one_line(state.lots_seed)} ({METHOD})"))
    lines: list[PlayerRecord | RawLine] = []
    for line in trf.lines:
        lines.append(line)
        if isinstance(line, RawLine) and line.code == "XXR":
            lines.extend(extra)
            extra = []
    return TrfFile((*extra, *lines) if extra else tuple(lines))


def tournament_trf(state: TournamentState, *, trf2026: bool = False) -> str:
    """The tournament's TRF text (CRLF line ends): TRF16 with the JaVaFo extensions, or TRF-2026."""
    t = state.t
    system = "ROUND_ROBIN" if t.system.is_round_robin else "FIDE_DUTCH_2025"
    trf = trf_from_standings(state.standings(), one_line(t.name), t.rounds_planned, system)
    with speaking(state.language):
        allotted = time_control_text(t)  # 122 in the tournament's language (Kazakh by default)
    trf = _with_colour_and_lots(with_header(trf, t, allotted), state)
    trf = with_pairing_records(to_trf2026(trf) if trf2026 else trf, state, trf2026=trf2026)
    return format_trf(trf, "\r\n")


# --- the pieces of the bundle ---------------------------------------------------------------------------------


def standings_rows(state: TournamentState) -> list[Sequence[object]]:
    """The standings CSV's rows in the current language: the crosstable, then after an empty row the note of the
    tie-break rules (what ``export.csv`` gives)."""
    standings = state.standings()
    table = tables.crosstable(standings, state.t.name, texts.columns())
    return [table.headers, *table.rows, [], [pairing_tools.rules_note(state.t, standings.rules)]]


def audit_rows(state: TournamentState) -> list[Sequence[object]]:
    """The audit log in the current language: when (UTC), who (the role, never a login), what, the particulars."""
    teams = {team.name for team in state.t.teams}
    rows: list[Sequence[object]] = [(_("When (UTC)"), _("Who"), _("Action"), _("Details"))]
    for line in state.audit:
        rows.append((line.at.strftime("%Y-%m-%d %H:%M:%S"), texts.audit_by(line, teams, signed_in=False),
                     texts.audit_action(line), texts.audit_detail(line)))  # fmt: skip
    return rows


def games_pgn(state: TournamentState, games: Mapping[Board, GameState]) -> str:
    """Every game of the tournament in one PGN file, round by round and board by board (only games played in a
    game room have moves; the others are not in it)."""
    parts = []
    for (rnd, board), game in sorted(games.items()):
        parts.append(to_pgn(game, {"Event": one_line(state.t.name), "Round": f"{rnd}.{board}"}))
    return "\n".join(parts)


def _print_context(state: TournamentState) -> dict[str, Any]:
    t = state.t
    standings = state.standings()
    table = tables.crosstable(standings, t.name, texts.columns(), texts.points)
    return {
        "t": t,
        "table": table,
        "legend": texts.tiebreak_legend(standings.tiebreaks),
        "codes": texts.table_codes(table),
        "time_control": time_control_text(t),
        "rules_note": pairing_tools.rules_note(t, choose_rules(t.tiebreak_rules, t.start)),
        "leavings": [(lv.player, t.participant(lv.player).name, texts.leaving_text(lv)) for lv in t.leavings],
        "overrides": override_audit(state),
        "system_names": texts.system_names(),
    }


def crosstable_html(state: TournamentState, language: str) -> str:
    """The print-ready crosstable as one self-contained HTML document (its style inside it)."""
    with speaking(language):
        return environment.get_template("results/crosstable_document.html").render(
            language=language, css=_CSS, texts=texts, **_print_context(state)
        )


def bundle(state: TournamentState, tid: str, games: Mapping[Board, GameState], language: str) -> bytes:
    """The results bundle: one zip, its files named after the tournament's id."""
    from toreshi.web.tournaments.pdf import crosstable_pdf

    with speaking(language):
        files: dict[str, bytes] = {
            f"{tid}.trf": tournament_trf(state).encode(),
            f"{tid}-trf2026.txt": tournament_trf(state, trf2026=True).encode(),
            f"{tid}-crosstable.html": crosstable_html(state, language).encode(),
            f"{tid}-crosstable.pdf": crosstable_pdf(_print_context(state), language),
            f"{tid}-games.pgn": games_pgn(state, games).encode(),
            f"{tid}-standings.csv": csv_text(standings_rows(state)).encode(),
            f"{tid}-audit.csv": csv_text(audit_rows(state)).encode(),
        }
    return _zip(files, _stamp(state))


def _stamp(state: TournamentState) -> datetime:
    return state.audit[-1].at if state.audit else datetime(2026, 1, 1)


def _zip(files: Mapping[str, bytes], when: datetime) -> bytes:
    """A zip of ``files`` with every entry dated ``when`` (the same tournament gives the same bytes)."""
    stamp = (max(when.year, 1980), when.month, when.day, when.hour, when.minute, when.second)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return out.getvalue()


# --- the public results site ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    """A game as the site lists it."""

    round: int
    board: int
    white: str
    black: str
    result: str
    page: str | None
    """The game's page (``game-R-B.html``) when it was played in a game room (its moves so far)."""


_RESULT_SIGNS = {"1-0": "1 – 0", "0-1": "0 – 1", "½-½": "½ – ½", "+ −": "+ – −", "− +": "− – +", "− −": "− – −"}


def _game_rows(state: TournamentState, linked: Collection[Board]) -> dict[int, list[GameRow]]:
    t = state.t
    names = {p.number: p.name for p in t.participants}
    rows: dict[int, list[GameRow]] = {}
    for rnd in t.rounds:
        for g in sorted(rnd.games, key=lambda x: x.board):
            page = f"game-{rnd.number}-{g.board}.html" if (rnd.number, g.board) in linked else None
            result = _RESULT_SIGNS.get(g.result.value, g.result.value) if g.result is not None else ""
            rows.setdefault(rnd.number, []).append(
                GameRow(rnd.number, g.board, names.get(g.white, "?"), names.get(g.black, "?"), result, page)
            )
    return rows


def site_paths(state: TournamentState, tid: str, linked: Iterable[Board]) -> list[str]:
    """Every file of the site: ``linked`` are the boards whose game has a page (played in a game room)."""
    paths = ["style.css", "replay.css", "replay.js", "index.html", f"{tid}.trf", "games.pgn"]
    pages = ["index.html", "standings.html", "crosstable.html"]
    pages += [f"round-{rnd.number}.html" for rnd in state.t.rounds]
    pages += [f"game-{rnd}-{board}.html" for rnd, board in sorted(linked)]
    return paths + [f"{language}/{page}" for language in LANGUAGES for page in pages]


_GAME_PAGE = re.compile(r"game-(\d+)-(\d+)\.html")
_ROUND_PAGE = re.compile(r"round-(\d+)\.html")


def wanted_boards(path: str) -> list[Board] | None:
    """The boards whose games ``path`` needs (``None``: every game, for ``games.pgn``; none for the others)."""
    if path == "games.pgn":
        return None
    found = _GAME_PAGE.fullmatch(path.rsplit("/", 1)[-1])
    return [(int(found[1]), int(found[2]))] if found else []


def site_file(
    state: TournamentState,
    tid: str,
    path: str,
    games: Mapping[Board, GameState],
    linked: Collection[Board],
    *,
    url: str | None = None,
) -> bytes | None:
    """One file of the public results site (None if the site has no such file). ``games``: at least the games
    :func:`wanted_boards` names for ``path``; ``linked``: the boards whose games have pages; ``url``: where the
    site will be read (its QR code for the hall is printed on the index pages; without it, no QR code)."""
    t = state.t
    if path not in site_paths(state, tid, linked):
        return None
    if path == "style.css":
        return _CSS.encode()
    if path == "replay.css":
        return (shared_board_css("#replay") + _REPLAY_CSS).encode()
    if path == "replay.js":
        return classic_script("results-replay.js").encode()
    if path == "index.html":
        return _render("results/choose.html", "kk", t=t, languages=LANGUAGES, root="")
    if path == f"{tid}.trf":
        return tournament_trf(state).encode()
    if path == "games.pgn":
        return games_pgn(state, games).encode()
    language, page = path.split("/", 1)
    with speaking(language):
        common: dict[str, Any] = {"t": t, "tid": tid, "rounds": _game_rows(state, linked), "root": "../",
                                  "here": language, "languages": LANGUAGES, "system_names": texts.system_names(),
                                  "time_control": time_control_text(t)}  # fmt: skip
        if page == "index.html":
            lots_seed = state.lots_seed if state.lots_drawn else None
            return _render("results/index.html", language, page="index", qr=qr_svg(url) if url else "", url=url,
                           lots_seed=lots_seed, **common)  # fmt: skip
        if page in ("standings.html", "crosstable.html"):
            context = {**_print_context(state), **common}
            links = _cell_links(state, context["table"], linked) if page == "crosstable.html" else {}
            return _render(f"results/{page}", language, page=page.removesuffix(".html"),
                           standings=state.standings(), links=links, **context)  # fmt: skip
        found = _ROUND_PAGE.fullmatch(page)
        if found:
            number = int(found[1])
            return _render("results/round.html", language, page="round", number=number,
                           games=common["rounds"].get(number, []), **common)  # fmt: skip
        found = _GAME_PAGE.fullmatch(page)
        assert found is not None  # site_paths lists no other page
        rnd, board = int(found[1]), int(found[2])
        game = games.get((rnd, board))
        if game is None:
            return None
        replay = _replay_context(game)
        if replay["result"] is None:  # a result the arbiter entered for a game its room did not finish
            paired = [row.result for row in common["rounds"].get(rnd, []) if row.board == board and row.result]
            replay["result"] = paired[0] if paired else None
        return _render("results/game.html", language, page="game", number=rnd, board=board, game=game,
                       **replay, **common)  # fmt: skip


def site_files(
    state: TournamentState, tid: str, games: Mapping[Board, GameState], *, url: str | None = None
) -> dict[str, bytes]:
    """Every file of the public results site by its relative path (what ``toreshi publish`` writes)."""
    files = {}
    for path in site_paths(state, tid, games):
        data = site_file(state, tid, path, games, set(games), url=url)
        if data is not None:
            files[path] = data
    return files


def _replay_context(game: GameState) -> dict[str, Any]:
    """A game page's replay in the current language: one frame per ply (the app's replay page's frames: positions,
    movers, tokens; no clock, no evaluation, no sealed move), the move list's rows and the texts of its script."""
    frames = replay_frames(game)
    plies = frames[1:]
    rows = [(plies[i]["move"], plies[i], plies[i + 1] if i + 1 < len(plies) else None) for i in range(0, len(plies), 2)]
    ending = game.ending
    result = RESULT_SYMBOLS[ending.result] if ending is not None else None
    headline = result_headline(game) if ending is not None else ""
    strings = {
        "white": _("White"),
        "black": _("Black"),
        "kazan": _("kazan"),
        "tuzdyk": _("tuzdyk"),
        "start": _("Starting position"),
        "ply": _("Move {number} of {total}"),
        "turn": _("Turn to move: {side}"),
        "kazans": _("kazans: {white} {white_kazan}, {black} {black_kazan}"),
        "tuzdyk_on": _("Tuzdyk — {side}: hole {hole} of {row}"),
    }
    names = {"white": game.white, "black": game.black}
    moves = (len(plies) + 1) // 2
    data = {"frames": frames, "names": names, "strings": strings, "moves": moves,
            "result": f"{result} · {headline}" if result else None}  # fmt: skip
    return {"frames": frames, "rows": rows, "strings": strings, "result": result, "headline": headline,
            "ending": ending_text(game) if ending is not None else "", "replay_data": data}  # fmt: skip


@dataclass(frozen=True)
class Segment:
    """A word of a crosstable cell, with the page of the game it names (None: no page)."""

    text: str
    page: str | None
    round: int = 0
    board: int = 0


def _cell_links(state: TournamentState, table: tables.Table, linked: Collection[Board]) -> dict[str, list[Segment]]:
    """The crosstable's cells that name games with a page, by ``"row-column"``: the cell's words, each with the
    page of its game (a round robin's cell names every game of the pair, in round order)."""
    played: dict[int, list[tuple[int, int, Board]]] = {}  # a player's games: (round, opponent, board)
    for rnd in state.t.rounds:
        for g in rnd.games:
            played.setdefault(g.white, []).append((rnd.number, g.black, (rnd.number, g.board)))
            played.setdefault(g.black, []).append((rnd.number, g.white, (rnd.number, g.board)))
    standings = state.standings()
    order = [row.player.number for row in standings.rows]
    columns = len(order) if standings.record.round_robin else standings.record.rounds
    first = 4  # rank, number, name, rating; then the opponents (round robin) or the rounds (Swiss)
    links: dict[str, list[Segment]] = {}
    for r, (player, row) in enumerate(zip(order, table.rows, strict=True)):
        games = sorted(played.get(player, []))
        for column in range(columns):
            if standings.record.round_robin:
                pair = [board for _round, them, board in games if them == order[column]]
            else:
                pair = [board for number, _them, board in games if number == column + 1]
            words = row[first + column].split()
            if pair and len(words) == len(pair) and any(board in linked for board in pair):
                links[f"{r}-{first + column}"] = [
                    Segment(word, f"game-{board[0]}-{board[1]}.html" if board in linked else None, *board)
                    for word, board in zip(words, pair, strict=True)
                ]
    return links


def _render(name: str, language: str, **context: Any) -> bytes:
    page = environment.get_template(name).render(language=language, css_href="style.css", texts=texts, **context)
    return page.encode()


_CSS = """
:root { color-scheme: light; --ink: #1b1b1b; --muted: #555; --line: #c8c8c8; --accent: #0b5c8a; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Noto Sans", Arial, sans-serif; color: var(--ink); background: #fff;
  margin: 0 auto; max-width: 72rem; padding: 1rem; line-height: 1.45; }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline; justify-content: space-between;
  border-bottom: 2px solid var(--accent); margin-bottom: 1rem; }
header.site h1 { font-size: 1.4rem; margin: .2rem 0; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .3rem .9rem; padding: 0; margin: .4rem 0; }
nav a, a { color: var(--accent); }
nav a[aria-current="page"] { font-weight: bold; color: var(--ink); text-decoration: none; }
.languages { font-size: .9rem; }
.table-scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid var(--line); padding: .25rem .45rem; text-align: center; white-space: nowrap; }
td.name, th.name { text-align: left; }
.particulars dt { font-weight: bold; } .particulars dd { margin: 0 0 .4rem; }
.qr svg { width: 9rem; height: 9rem; }
.hint, .note { color: var(--muted); font-size: .9rem; }
ol.moves { columns: 12rem; padding-left: 2.5rem; }
.signatures .line { display: inline-block; width: 14rem; border-bottom: 1px solid var(--ink); }
.signatures .line.short { width: 8rem; }
@media (max-width: 40rem) {
  body { padding: .6rem; } header.site h1 { font-size: 1.15rem; } th, td { padding: .2rem .3rem; } }
@media print { nav, .languages, .no-print { display: none; } body { max-width: none; } }
"""

# A game page's layout around the shared board (replay.css: the board's rules of toreshi.css come first).
_REPLAY_CSS = """
#replay { display: grid; grid-template-columns: minmax(0, 2.2fr) minmax(15rem, 1fr); gap: 1.25rem; align-items: start; }
@media (max-width: 56rem) { #replay { grid-template-columns: minmax(0, 1fr); } }
#replay .play { width: 100%; max-width: max(20rem, calc((100vh - 16rem) * 2.7)); margin: 0 auto; }
#replay .turn-badge { font-weight: 700; color: var(--accent); white-space: nowrap; }
#replay .player-bar:not(.to-move) .turn-badge { visibility: hidden; }
.replay-nav { display: flex; flex-wrap: wrap; gap: .5rem; }
.replay-nav button { min-height: 2.75rem; border: 1px solid var(--line); border-radius: var(--radius);
  background: var(--surface); color: var(--ink); cursor: pointer; }
.replay-nav button:disabled { opacity: .4; cursor: default; }
#replay button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
#replay .moves { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius);
  padding: .6rem .8rem; }
#replay .moves h3 { margin: 0 0 .4rem; }
@media (max-width: 40rem) { .replay-nav .replay-ply { order: -1; flex-basis: 100%; } }
#moves { margin: 0; } #moves th, #moves td { border-width: 0 0 1px; }
#moves td .replay-move { background: none; border: 0; cursor: pointer; min-height: 1.8rem; }
"""
