"""The players' side of a tournament day (issue 28) and the arbiter's pages that go with it.

- ``GET /tournaments/{tid}/check-in``: who has checked in for the next round (the arbiter checks a player in or out
  by hand there, through ``/do/check-in``);
- ``GET /tournaments/{tid}/player-links``: every player's personal link and QR code on one printable sheet (the
  arbiter's; shown again at any time, derived on the server); ``POST`` makes the links of the players who have
  none, ``POST …/player-links/{number}/reissue`` revokes one and gives a new one;
- ``GET /tournaments/{tid}/me?token=…``: the player's own page, by their link only (404 without a valid one, a
  revoked link included): check in for the next round, and give the result of a game on a physical board;
  ``POST`` does it, as the player (:data:`~toreshi.tournament.journal.commands.PLAYER`);
- ``POST /tournaments/{tid}/rounds/{number}/results``: the round page's one form (:mod:`.round_form`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.services import player_links
from toreshi.services.tournament import UnknownTournamentError
from toreshi.texts import refusals
from toreshi.texts.i18n import N_
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import TournamentState
from toreshi.tournament.journal.check_in import board_reports, check_in_open, check_in_round
from toreshi.tournament.journal.commands import PLAYER, CheckIn, ReportResult
from toreshi.tournament.model import GameResult, PairedGame
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import read_form
from toreshi.web.common.forms import text as _text
from toreshi.web.common.pagekit import DONE
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.templates import not_found, render_page
from toreshi.web.togyz.links import base_url
from toreshi.web.tournaments import round_form
from toreshi.web.tournaments.pages import _back, _load, _page, _round_response, service

LINKS_MADE = pagekit.notice(N_("Player links made: %(count)s."))
LINK_REISSUED = pagekit.notice(N_("A new link for %(player)s: the old one no longer opens the player's page."))
RESULTS_SAVED = pagekit.notice(N_("Results saved: %(count)s."))
NOTHING_CHANGED = pagekit.notice(N_("Nothing changed: every board is as it was."))
CHECKED_IN = pagekit.notice(N_("You are checked in for round %(round)s."))
CHECKED_OUT = pagekit.notice(N_("You are no longer checked in for round %(round)s."))
REPORTED = pagekit.notice(
    N_("Your result is sent. It counts once your opponent gives the same and the arbiter confirms it.")
)

OUTCOMES = ("win", "draw", "loss")
"""What a player says of their own game; the page turns it into the result from White's side."""


def _result_of(outcome: str, white: bool) -> str:
    if outcome == "draw":
        return GameResult.DRAW.value
    won = outcome == "win"
    winner = GameResult.WHITE_WINS if won == white else GameResult.BLACK_WINS
    return str(winner.value)


def outcome_of(result: GameResult, white: bool) -> str:
    """The result from the player's side: ``win``, ``draw`` or ``loss`` (a forfeit as a win or a loss)."""
    if result in (GameResult.DRAW,):
        return "draw"
    if result is GameResult.DOUBLE_FORFEIT:
        return "loss"
    white_won = result in (GameResult.WHITE_WINS, GameResult.WHITE_FORFEIT_WIN)
    return "win" if white_won == white else "loss"


def outcome_names() -> dict[str, str]:
    return {"win": _("I won"), "draw": _("Draw"), "loss": _("I lost")}


# --- the arbiter's pages --------------------------------------------------------------------------------------


async def check_in_page(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    number = check_in_round(state)
    expected = state.t.players_to_pair(number) if not state.t.rounds or number <= state.t.rounds_planned else []
    present = state.checked_in(number)
    return _page(request, "tournaments/check_in.html", tid=tid, state=state, t=state.t, number=number,
                 expected=expected, present=present, open=check_in_open(state),
                 absences=state.absences)  # fmt: skip


def _player_url(request: Request, tid: str, secret: str) -> str:
    return f"{base_url(request)}/tournaments/{tid}/me?{urlencode({'token': secret})}"


@auth.arbiter_only
async def links_sheet(request: Request) -> Response:
    """Every player's link with its QR code, on one printable sheet. Reading it writes nothing."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    links = await player_links.player_links(service(request), tid)
    cards = []
    for p in state.t.participants:
        link = links.get(p.number)
        url = _player_url(request, tid, link.secret) if link is not None and link.secret else ""
        cards.append({"number": p.number, "name": p.name, "url": url, "qr": qr_svg(url) if url else "",
                      "generation": link.generation if link is not None else None})  # fmt: skip
    missing = sum(1 for card in cards if not card["url"])
    return _page(request, "tournaments/player_links.html", tid=tid, state=state, t=state.t, cards=cards,
                 missing=missing)  # fmt: skip


@auth.arbiter_only
async def make_links(request: Request) -> Response:
    tid = request.path_params["tid"]
    form = await read_form(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        return pagekit.expired(request, f"/tournaments/{tid}/player-links")
    try:
        made = await player_links.issue_player_links(service(request), tid)
    except UnknownTournamentError:
        return not_found(request)
    pagekit.keep(request, notice=LINKS_MADE, count=made)
    return _back(tid, "/player-links")


@auth.arbiter_only
async def reissue_link(request: Request) -> Response:
    tid = request.path_params["tid"]
    form = await read_form(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        return pagekit.expired(request, f"/tournaments/{tid}/player-links")
    number_text = request.path_params["number"]
    if not number_text.isdigit() or len(number_text) > 5:
        return not_found(request)
    try:
        state = await service(request).state(tid)
        await player_links.reissue_player_link(service(request), tid, int(number_text))
    except UnknownTournamentError:
        return not_found(request)
    except Refused as why:
        pagekit.keep(request, why.refusal)
        return _back(tid, "/player-links")
    pagekit.keep(request, notice=LINK_REISSUED, player=state.t.label(int(number_text)))
    return RedirectResponse(f"/tournaments/{tid}/player-links#player-{int(number_text)}", status_code=303)


@auth.arbiter_only
async def save_results(request: Request) -> Response:
    """``POST /tournaments/{tid}/rounds/{number}/results``: the round's one form. Nothing is saved unless every
    board is right; then each changed board is one ``enter_result``."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    number_text = request.path_params["number"]
    if not number_text.isdigit() or not 1 <= int(number_text) <= len(state.t.rounds):
        return not_found(request)
    number = int(number_text)
    form = await read_form(request)
    typed = round_form.ResultsForm.read(state, number, form)
    if not auth.csrf_ok(request, form.get("csrf")):
        # What was typed is kept: the page comes back with it and says the form expired, to be sent again.
        typed.problems.append(round_form.BoardProblem(0, "", pagekit.expired_text()))
        return await _round_response(request, number=number, results_form=typed, status_code=400)
    by = auth.signed_in(request) or "arbiter"
    commands = typed.commands(state, number)
    typed.check(state, commands, by, service(request).clock())  # every board's problem at once
    if typed.problems:
        return await _round_response(request, number=number, results_form=typed, status_code=400)
    saved = 0
    for command in commands:
        try:
            await service(request).command(tid, command, by)
        except Refused as why:  # the tournament changed since the check: say which board, keep the rest typed
            round_form.refused_problem(typed, why, command.board)
            return await _round_response(request, number=number, results_form=typed, status_code=400)
        saved += 1
    if saved:
        pagekit.keep(request, notice=RESULTS_SAVED, count=saved)
    else:
        pagekit.keep(request, notice=NOTHING_CHANGED)
    return _back(tid, f"/rounds/{number}")


# --- the player's page ----------------------------------------------------------------------------------------


def _current_game(state: TournamentState, player: int) -> PairedGame | None:
    """The player's game in the last published round, if they play in it."""
    if not state.t.rounds:
        return None
    for game in state.t.rounds[-1].games:
        if player in (game.white, game.black):
            return game
    return None


async def _player(request: Request, token: str) -> tuple[str, TournamentState, int] | None:
    tid = request.path_params["tid"]
    try:
        number = await player_links.player_of(service(request), tid, token)
        state = await service(request).state(tid)
    except UnknownTournamentError:
        return None
    if number is None or state.tournament is None:
        return None
    if not any(p.number == number for p in state.t.participants):
        return None
    return tid, state, number


def _refused_link(request: Request) -> Response:
    # A forged link and a revoked one look alike: neither says whether the token ever worked.
    return render_page(request, "tournaments/player_link_refused.html", status_code=404)


@dataclass
class TypedResult:
    """The player's result form as sent: the outcome and the kazans typed (own, the opponent's), and the problem
    that sent it back (the page shows it beside the fields, nothing typed lost)."""

    outcome: str = ""
    mine: str = ""
    theirs: str = ""
    problem: str = ""
    field: str = ""
    """The field the problem is about: ``outcome``, ``kazan_mine``, ``kazan_theirs`` or ``kazans`` (both)."""


KAZAN_FIELDS = ("kazan_mine", "kazan_theirs")
_KAZAN_CODES = (TournamentCode.IMPOSSIBLE_KAZANS, TournamentCode.KAZANS_CONTRADICT_RESULT,
                TournamentCode.FORFEIT_HAS_NO_KAZANS, TournamentCode.KAZANS_NOT_ASKED)  # fmt: skip
_PLAYER_WORDS = {
    TournamentCode.IMPOSSIBLE_KAZANS.value: N_(
        "The two kazans together hold at most 162 kumalaks: %(mine)s and %(theirs)s cannot be right."
    ),
    TournamentCode.KAZANS_CONTRADICT_RESULT.value: N_(
        "Your kazan %(mine)s, your opponent's %(theirs)s: a player with 82 kumalaks or more in the kazan won the "
        "game, so “%(outcome)s” cannot be right."
    ),
}
"""The arbiter's kazan checks, worded for the player: their own kazan first, their choice by its name."""


def _kazan_number(typed: TypedResult, name: str) -> int | None:
    """A kazan typed: 0–999 in plain digits, or a problem named by its field (None then)."""
    text = typed.mine if name == "kazan_mine" else typed.theirs
    if text.isascii() and text.isdigit() and len(text) <= 3:
        return int(text)
    code = Common.FIELD_REQUIRED if not text else Common.FIELD_NOT_NUMBER
    _problem(typed, name, Refusal(code, {"field": name}))
    return None


def _problem(typed: TypedResult, name: str, refusal: Refusal) -> None:
    if not typed.problem:
        typed.problem, typed.field = refusals.render(refusal, clauses=False), name


def _kazans_problem(typed: TypedResult, refusal: Refusal) -> None:
    """A refusal of the kazans a player gave, in the player's words (their own kazan first)."""
    words = _PLAYER_WORDS.get(refusal.code.value)
    if words is None:
        _problem(typed, "kazans", refusal)
        return
    outcome = outcome_names().get(typed.outcome, typed.outcome)
    typed.problem = _(words) % {"mine": typed.mine, "theirs": typed.theirs, "outcome": outcome}
    typed.field = "kazans"


async def player_page(request: Request) -> Response:
    form = await read_form(request) if request.method == "POST" else {}
    token = _text(form, "token") or request.query_params.get("token", "")
    here = f"/tournaments/{request.path_params['tid']}/me?{urlencode({'token': token})}"
    if request.method == "POST" and not pagekit.fresh(request, form):
        return pagekit.expired(request, here)  # the form token first, before the link is looked up
    found = await _player(request, token)
    if found is None:
        return _refused_link(request)
    tid, state, number = found
    if request.method == "POST":
        typed = await _player_action(request, tid, state, number, form)
        if typed is not None:  # sent back: the problem beside the fields, everything typed kept
            return _player_response(request, tid, state, number, token, typed, status_code=400)
        return RedirectResponse(here, status_code=303)
    return _player_response(request, tid, state, number, token, None)


def _player_response(
    request: Request, tid: str, state: TournamentState, number: int, token: str, typed: TypedResult | None,
    status_code: int = 200,
) -> Response:  # fmt: skip
    game = _current_game(state, number)
    rnd = len(state.t.rounds)
    reports = board_reports(state, rnd, game.board) if game is not None else None
    white = game is not None and game.white == number
    mine = (reports.white if white else reports.black) if reports is not None else None
    theirs = (reports.black if white else reports.white) if reports is not None else None
    opponent = (game.black if white else game.white) if game is not None else None
    given = _own_kazans(mine.kazans, white) if mine is not None and mine.kazans is not None else None
    if typed is None:
        typed = TypedResult(outcome=outcome_of(mine.result, white) if mine is not None else "",
                            mine=str(given[0]) if given else "", theirs=str(given[1]) if given else "")  # fmt: skip
    return _page(
        request, "tournaments/player.html", status_code, for_team=True, tid=tid, state=state, t=state.t,
        token=token, me=state.t.participant(number), check_round=check_in_round(state), open=check_in_open(state),
        checked_in=number in state.checked_in(check_in_round(state)),
        expected=number in state.t.players_to_pair(check_in_round(state)) if check_in_open(state) else False,
        game=game, rnd=rnd, white=white, opponent=state.t.label(opponent) if opponent else "",
        live=game is not None and state.room_of(rnd, game.board) is not None,
        mine=outcome_of(mine.result, white) if mine is not None else "", given_kazans=given,
        theirs=outcome_of(theirs.result, not white) if theirs is not None else "",
        agreement=reports.agreement.value if reports is not None else "none",
        only_kazans_differ=reports is not None and reports.only_kazans_differ,
        outcome=outcome_of(game.result, white) if game is not None and game.result is not None else "",
        outcomes=outcome_names(), typed=typed,
    )  # fmt: skip


def _own_kazans(kazans: tuple[int, int], white: bool) -> tuple[int, int]:
    """``(White, Black)`` as the player reads it: their own kazan first, then the opponent's (and back again)."""
    return kazans if white else (kazans[1], kazans[0])


async def _player_action(
    request: Request, tid: str, state: TournamentState, number: int, form: dict[str, str]
) -> TypedResult | None:
    """Do what the player's form asks; a result form with a problem comes back (:class:`TypedResult`) to be shown
    again, anything else is answered by the page it goes back to (its notice or refusal kept for it)."""
    action = _text(form, "action")
    by = str(number)
    try:
        if action in ("check-in", "check-out"):
            present = action == "check-in"
            await service(request).command(tid, CheckIn(number=number, present=present), by, role=PLAYER)
            notice = CHECKED_IN if present else CHECKED_OUT
            pagekit.keep(request, notice=notice, round=check_in_round(state))
        elif action == "report":
            return await _report(request, tid, state, number, form)
    except Refused as why:
        pagekit.keep(request, why.refusal)
    return None


async def _report(
    request: Request, tid: str, state: TournamentState, number: int, form: dict[str, str]
) -> TypedResult | None:
    game = _current_game(state, number)
    if game is None:
        pagekit.keep(request, notice=DONE)
        return None
    typed = TypedResult(outcome=_text(form, "outcome")[:20], mine=_text(form, "kazan_mine")[:20],
                        theirs=_text(form, "kazan_theirs")[:20])  # fmt: skip
    if typed.outcome not in OUTCOMES:
        code = Common.FIELD_REQUIRED if not typed.outcome else Common.FIELD_NOT_CHOICE
        _problem(typed, "outcome", Refusal(code, {"field": "result", "value": typed.outcome}))
    white = game.white == number
    kazans = None
    if state.report_kazans:  # asked: both kazans; not asked, the form has no such fields (any sent are not read)
        own, other = (_kazan_number(typed, name) for name in KAZAN_FIELDS)
        if own is not None and other is not None:
            kazans = _own_kazans((own, other), white)
    if typed.problem:
        return typed
    command = ReportResult(round=game.round, board=game.board, number=number, result=_result_of(typed.outcome, white),
                           kazans=kazans)  # fmt: skip
    try:
        await service(request).command(tid, command, str(number), role=PLAYER)
    except Refused as why:
        if why.code in _KAZAN_CODES or why.refusal.params.get("field") == "kazans":
            _kazans_problem(typed, why.refusal)
            return typed
        raise
    pagekit.keep(request, notice=REPORTED)
    return None


routes = [
    Route("/tournaments/{tid}/check-in", check_in_page),
    Route("/tournaments/{tid}/player-links", links_sheet),
    Route("/tournaments/{tid}/player-links", make_links, methods=["POST"]),
    Route("/tournaments/{tid}/player-links/{number}/reissue", reissue_link, methods=["POST"]),
    Route("/tournaments/{tid}/me", player_page, methods=["GET", "POST"]),
    Route("/tournaments/{tid}/rounds/{number}/results", save_results, methods=["POST"]),
]
