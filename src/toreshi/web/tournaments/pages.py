"""Tournament pages: list, create and configure, participants (add, edit, CSV import), rounds (pair, override,
publish, game rooms, results), standings and crosstable (with a print view), TRF and CSV export, protests,
warnings and the audit log.

Everyone may read a tournament, and reading never writes (a finished game's result is pushed to the tournament
by the service, :mod:`toreshi.services.tournament`). Every change is an arbiter's form post (CSRF-checked): the
page reads the form into one typed command (:mod:`toreshi.tournament.journal.commands`) and hands it to the
service. A refused command changes nothing; the page comes back with the reason in its reader's language (and,
for a CSV import, every bad line: the refusal's details).
"""

from __future__ import annotations

import dataclasses
import functools
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from enum import Enum
from types import MappingProxyType
from typing import Any, TypeVar

import segno
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.services import board_calls
from toreshi.services.results import NotATournamentError, game_states, tournament_state
from toreshi.services.tournament import TournamentService, UnknownTournamentError
from toreshi.texts import i18n, refusals
from toreshi.texts.i18n import N_
from toreshi.tournament import crosstable as tables
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import CSV_FIELDS, TournamentCommand, TournamentState
from toreshi.tournament.journal.check_in import disagreements
from toreshi.tournament.journal.commands import (
    TEAM,
    AddParticipant,
    AddTeam,
    ByeKind,
    CheckIn,
    Configure,
    ConfirmRound,
    ConveneProtest,
    Create,
    DecideProtest,
    DeleteEntry,
    DiscardPairing,
    DrawLots,
    EditParticipant,
    EditTeam,
    EnterResult,
    Expel,
    FileProtest,
    ImportParticipants,
    NotifyProtest,
    OverridePairing,
    PairRound,
    ParticipantEntry,
    PayProtestFee,
    PublishRound,
    RequestBye,
    SeedByRating,
    SetEvaluation,
    Setting,
    Warn,
    Withdraw,
)
from toreshi.tournament.journal.override_records import override_audit
from toreshi.tournament.journal.values import FileLanguage, FirstColour
from toreshi.tournament.model import GameResult, Tournament, TournamentSystem
from toreshi.tournament.protests import AuditEntry, FilerRole, ProtestAction, ProtestStatus
from toreshi.tournament.tiebreak_rules import choose_rules
from toreshi.web.accounts import auth
from toreshi.web.common import forms, pagekit
from toreshi.web.common.forms import Form, read_form
from toreshi.web.common.forms import optional_int as _int
from toreshi.web.common.forms import required_int as _number
from toreshi.web.common.forms import text as _text
from toreshi.web.common.pagekit import DONE, not_found
from toreshi.web.common.services import services_of
from toreshi.web.common.spreadsheets import csv_response
from toreshi.web.common.templates import competition_loader, pages_of
from toreshi.web.togyz import control_form, timecontrols
from toreshi.web.togyz import links as game_links
from toreshi.web.tournaments import pairing_tools, results, round_form, texts

MAX_CSV_BYTES = forms.MAX_UPLOAD_BYTES
RESULTS = [r.value for r in GameResult]
E = TypeVar("E", bound=Enum)


def service(request: Request) -> TournamentService:
    return services_of(request).tournaments


# --- forms into commands --------------------------------------------------------------------------------------


def _names(form: Form, key: str) -> tuple[str, ...]:
    """Comma-separated names."""
    return tuple(part.strip() for part in _text(form, key).split(",") if part.strip())


def _choice(form: Form, key: str, choices: type[E], default: E) -> E:
    text = _text(form, key)
    return payload.read_choice({key: text}, key, choices) if text else default


def _entry(form: Form) -> dict[str, Any]:
    """The participant fields of a form (those it has)."""
    entry: dict[str, Any] = {}
    for field in dataclasses.fields(ParticipantEntry):
        if field.name == "rating":
            entry["rating"] = _int(form, "rating")
        elif field.name in form:
            entry[field.name] = _text(form, field.name)
    entry.setdefault("name", "")
    return entry


_CLEARABLE = {setting.value: setting for setting in Setting}
_SETTING_TEXTS = ("name", "venue", "time_control", "currency", "chief_arbiter", "start", "end", "bye_points")
_SETTING_NUMBERS = ("rounds", "fee", "expel_after", "max_half_byes", "late_entry_until", "last_half_bye_round",
                    "clock_correction_over_s")  # fmt: skip


def _settings(form: Form) -> dict[str, Any]:
    """The settings a form has: an empty number field is "none" (``cleared``) where a setting can be none."""
    values: dict[str, Any] = {key: _text(form, key) for key in _SETTING_TEXTS if key in form}
    if "control" in form:
        values.update(_control_setting(form))
    cleared = []
    for key in _SETTING_NUMBERS:
        if key not in form:
            continue
        number = _int(form, key)
        if number is not None:
            values[key] = number
        elif key in _CLEARABLE:
            cleared.append(_CLEARABLE[key])
    for key in ("tiebreaks", "arbiters", "deputies", "board", "committee"):
        if key in form:
            values[key] = _names(form, key)
    if _text(form, "system"):
        values["system"] = _choice(form, "system", TournamentSystem, TournamentSystem.SWISS)
    if _text(form, "initial_colour"):
        values["initial_colour"] = _choice(form, "initial_colour", FirstColour, FirstColour.WHITE)
    if _text(form, "lots_seed"):
        values["lots_seed"] = _text(form, "lots_seed")
    if _text(form, "language"):
        values["language"] = _choice(form, "language", FileLanguage, FileLanguage.KK)
    cleared += pairing_tools.settings_of(form, values)
    if "check_in_shown" in form:  # the settings form's checkbox (absent from the form when off)
        values["check_in"] = _text(form, "check_in") == "on"
    if "report_kazans_shown" in form:  # the same for the kazans the players give with their results
        values["report_kazans"] = _text(form, "report_kazans") == "on"
    values["cleared"] = tuple(cleared)
    return values


def _control_setting(form: Form) -> dict[str, Any]:
    """The time control the form chose: a preset's key (``time_control``) or a custom ``control``; raises
    :class:`~toreshi.kit.refusal.Refused` naming the field (the clock's own checks refuse what cannot be played)."""
    typed = {key: _text(form, key) for key in control_form.FIELDS}
    control = control_form.control_from_form(typed)
    if typed["control"] == control_form.CUSTOM:
        return {"control": control}
    return {"time_control": typed["control"]}


def _control_values(t: Tournament) -> dict[str, str]:
    """The time-control fields showing the tournament's control (its preset, or its custom periods)."""
    return control_form.values_of(t.time_control, t.control)


def _create(form: Form) -> Create:
    values = {key: value for key, value in _settings(form).items() if value not in ("", ())}
    values.setdefault("name", "")
    if values.get("system", TournamentSystem.SWISS) is not TournamentSystem.SWISS and "rounds" not in values:
        values["rounds"] = 0  # a round robin's rounds follow from its entries
    return Create(**values)


def _import(form: Form) -> ImportParticipants:
    text = _text(form, "csv")
    upload = form.get("file", b"")
    if upload is None:
        raise Refused(TournamentCode.CSV_TOO_LARGE, maximum=MAX_CSV_BYTES // 1024)
    if isinstance(upload, bytes) and upload:
        try:
            text = upload.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Refused(TournamentCode.CSV_NOT_UTF8) from None
    return ImportParticipants(csv="\n".join(text.splitlines()))  # any line ends, one kind


def _pairs(text: str) -> tuple[tuple[int, int], ...]:
    """``12 7`` or ``12-7`` per line (White first) → pairs; refuses a line that is not two pairing numbers."""
    pairs = []
    for index, line in enumerate(text.splitlines(), start=1):
        cleaned = line.replace("-", " ").replace("–", " ").replace(",", " ").split()
        if not cleaned:
            continue
        if len(cleaned) != 2 or not all(x.isascii() and x.isdigit() for x in cleaned):
            raise Refused(TournamentCode.PAIRS_LINE, line=index)
        pairs.append((int(cleaned[0]), int(cleaned[1])))
    return tuple(pairs)


def _result(form: Form) -> EnterResult:
    white, black = _int(form, "kazan_white"), _int(form, "kazan_black")
    if (white is None) != (black is None):
        raise Refused(Common.FIELD_REQUIRED, field="kazan_white" if white is None else "kazan_black")
    kazans = (white, black) if white is not None and black is not None else None
    return EnterResult(round=_number(form, "round"), board=_number(form, "board"), result=_text(form, "result"),
                       kazans=kazans, reason=_text(form, "reason"))  # fmt: skip


def _protest(form: Form) -> FileProtest:
    # For a team the arbiter files for, the filer is the arbiter (the journal records the signed-in name).
    for_team = _text(form, "for_team")
    return FileProtest(
        round=_number(form, "round"), board=_number(form, "board"), filed_by=_text(form, "filed_by") or for_team,
        role=_choice(form, "role", FilerRole, FilerRole.REPRESENTATIVE), text=_text(form, "text"),
        fee_paid=_int(form, "fee_paid") or 0, currency=_text(form, "currency"), for_team=for_team,
    )  # fmt: skip


def _decision(form: Form) -> DecideProtest:
    return DecideProtest(
        id=_text(form, "id"), upheld=_text(form, "upheld") == "yes", members=_names(form, "members"),
        reasons=_text(form, "reasons"), corrected_result=_text(form, "corrected_result") or None,
    )  # fmt: skip


def _leaving(kind: type[Withdraw] | type[Expel]) -> Callable[[Form], TournamentCommand]:
    def read(form: Form) -> TournamentCommand:
        return kind(number=_number(form, "number"), after_round=_int(form, "after_round"), reason=_text(form, "reason"))

    return read


ACTIONS: dict[str, tuple[Callable[[Form], TournamentCommand], str]] = {
    # action: (form → command, where to go back)
    "configure": (lambda f: Configure(**_settings(f)), "/settings"),
    "add-team": (lambda f: AddTeam(name=_text(f, "name"), representatives=_names(f, "representatives"),
                                   coaches=_names(f, "coaches")), ""),
    "edit-team": (lambda f: EditTeam(name=_text(f, "name"), representatives=_names(f, "representatives"),
                                     coaches=_names(f, "coaches")), ""),
    "add-participant": (lambda f: AddParticipant(**_entry(f), reason=_text(f, "reason")), ""),
    "edit-participant": (lambda f: EditParticipant(number=_number(f, "number"), **_entry(f)), ""),
    "import": (_import, ""),
    "seed": (lambda f: SeedByRating(), ""),
    "draw-lots": (lambda f: DrawLots(), ""),
    "withdraw": (_leaving(Withdraw), ""),
    "delete-entry": (lambda f: DeleteEntry(number=_number(f, "number"), reason=_text(f, "reason")), ""),
    "expel": (_leaving(Expel), ""),
    "bye": (lambda f: RequestBye(number=_number(f, "number"), round=_int(f, "round"),
                                 code=_choice(f, "code", ByeKind, ByeKind.HALF)), ""),
    "evaluation": (lambda f: SetEvaluation(shown=_text(f, "shown") == "on", delay_minutes=_number(f, "delay_minutes")),
                   "/settings"),
    "warn": (lambda f: Warn(number=_number(f, "number"), round=_int(f, "round"), reason=_text(f, "reason"),
                            penalty=_text(f, "penalty")), "/audit"),
    "pair": (lambda f: PairRound(), "/rounds/{next}"),
    "override": (lambda f: OverridePairing(pairs=_pairs(_text(f, "pairs")), bye=_int(f, "bye"),
                                           reason=_text(f, "reason"), confirmed=_text(f, "confirmed") == "yes"),
                 "/rounds/{draft}"),
    "discard": (lambda f: DiscardPairing(reason=_text(f, "reason")), ""),
    "publish": (lambda f: PublishRound(), "/rounds/{draft}"),
    "result": (_result, "/rounds/{round}"),
    "file-protest": (_protest, "/protests"),
    "pay-fee": (lambda f: PayProtestFee(id=_text(f, "id"), amount=_number(f, "amount"),
                                        currency=_text(f, "currency")), "/protests"),
    "convene": (lambda f: ConveneProtest(id=_text(f, "id"), board=_names(f, "board"), committee=_names(f, "committee"),
                                         unpaid_confirmed=_text(f, "unpaid_confirmed") == "yes"), "/protests"),
    "decide": (_decision, "/protests"),
    "notify": (lambda f: NotifyProtest(id=_text(f, "id"), recipient=_text(f, "recipient")), "/protests"),
    "check-in": (lambda f: CheckIn(number=_number(f, "number"), present=_text(f, "present") != "no"), "/check-in"),
    "confirm-round": (lambda f: ConfirmRound(round=_number(f, "round")), "/rounds/{round}"),
    **pairing_tools.ACTIONS,
}  # fmt: skip


# --- messages of the last action ------------------------------------------------------------------------------


def _notice_values(values: dict[str, Any], clauses: bool) -> dict[str, Any]:
    """A protest's decisive step (kept with its notice) worded in the reader's language; the audit log's words (a
    departure's kind and level)."""
    if isinstance(values.get("step"), dict):
        values["why"] = _protest_reason(values.pop("step"), clauses=clauses)
    for key, value in list(values.items()):
        if key.endswith("_term") and isinstance(value, str):
            values[key] = texts.term(value)
    return values


def _filed_notice(request: Request, state: TournamentState, protest_id: str) -> None:
    """Say what became of a protest just filed: the desk decides at once whether it is accepted (TK-P1..P3), so
    the notice tells the truth first ("not accepted: filed after the next round was paired")."""
    protest = next((p for p in state.protests if p.id == protest_id), None)
    if protest is None:  # pragma: no cover - a filed protest is in the state
        pagekit.keep(request, notice=DONE)
        return
    last = protest.log[-1]
    step = {"action": last.action.value, "params": dict(last.params)}
    if protest.status is ProtestStatus.NOT_ACCEPTED:
        pagekit.keep(request, notice=PROTEST_NOT_ACCEPTED, step=step)
    elif protest.status is ProtestStatus.ACCEPTED_NOT_CONSIDERED:
        pagekit.keep(request, notice=PROTEST_NOT_CONSIDERED, step=step)
    elif protest.status is ProtestStatus.ACCEPTED:
        pagekit.keep(request, notice=PROTEST_ACCEPTED)
    else:
        pagekit.keep(request, notice=PROTEST_RECEIVED)


def _protest_reason(step: dict[str, Any], *, clauses: bool) -> str:
    try:
        action = ProtestAction(step.get("action"))
    except ValueError:
        return ""
    params = step.get("params") if isinstance(step.get("params"), dict) else {}
    entry = AuditEntry(datetime.now(UTC), action, "", MappingProxyType(dict(params or {})))
    return texts.protest_reason(entry, clauses=clauses)


ROOMS_MADE = pagekit.notice(N_("Game rooms created: %(count)s."))
CLOCKS_STARTED = pagekit.notice(N_("Clocks started: %(count)s."))
CLOCKS_ALREADY_RUNNING = pagekit.notice(N_("Every live game of this round has already started."))
COLLECTED = pagekit.notice(N_("Results collected from live games: %(count)s."))
PROTEST_RECEIVED = pagekit.notice(N_("The protest was received. Pay the fee to the chief arbiter."))
PROTEST_ACCEPTED = pagekit.notice(
    N_("The protest was received and accepted; the chief arbiters' board will consider it.")
)
PROTEST_NOT_ACCEPTED = pagekit.notice(N_("The protest was received but not accepted: %(why)s."))
PROTEST_NOT_CONSIDERED = pagekit.notice(N_("The protest was received but will not be considered: %(why)s."))
CALL_ANSWERED = pagekit.notice(N_("The call on board %(board)s is answered: the players see that you are coming."))
FAIRPLAY_STARTED = pagekit.notice(N_("The engine is analysing the tournament's games."))
FAIRPLAY_RUNNING = pagekit.notice(N_("A report is being computed already."))
DEPARTURE_LOGGED = pagekit.notice(
    N_("Done. The audit log records it as a departure from the regulation (%(level_term)s): %(departure_term)s.")
)


# --- pages ----------------------------------------------------------------------------------------------------


def _page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    """A tournament page. Regulation clause numbers (TK-…) are for the arbiter's console: ``clauses`` is whether
    this reader sees them (a signed-in arbiter, not on a team's own page)."""
    clauses = pagekit.shows_clauses(request) and not context.pop("for_team", False)
    return pagekit.page(
        request,
        name,
        status_code,
        clauses=clauses,
        wording=_notice_values,
        system_names=texts.system_names(),
        texts=texts,
        format_points=texts.points,
        **context,
    )


def _back(tid: str, where: str = "") -> RedirectResponse:
    return pagekit.redirect(f"/tournaments/{tid}{where}")


async def tournament_list(request: Request) -> Response:
    found = await service(request).tournaments()
    items = [
        {"id": tid, "name": s.t.name, "system": s.t.system.value, "players": len(s.t.participants),
         "rounds": len(s.t.rounds), "planned": s.t.rounds_planned}
        for tid, s in found if s.tournament is not None
    ]  # fmt: skip
    return _page(request, "tournaments/list.html", tournaments=items)


_load = competition_loader(lambda request, tid: service(request).state(tid), UnknownTournamentError)


_reading = pages_of(_load)
"""A page of one tournament: it gets the tournament's id and state, or the visitor a 404."""


def _players(state: TournamentState) -> dict[int, str]:
    return {p.number: p.name for p in state.t.participants}


@_reading
async def overview(request: Request, tid: str, state: TournamentState) -> Response:
    t = state.t
    return _page(
        request,
        "tournaments/overview.html",
        tid=tid,
        state=state,
        t=t,
        leaving={lv.player: lv for lv in t.leavings},
        csv_fields=", ".join(CSV_FIELDS),
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        time_control=_time_control_text(t),
        entered=dict(t.entered_round),
    )


@auth.arbiter_only
@_reading
async def settings_page(request: Request, tid: str, state: TournamentState) -> Response:
    return _page(
        request,
        "tournaments/settings.html",
        tid=tid,
        t=state.t,
        state=state,
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        periods=range(1, control_form.MAX_PERIODS + 1),
        control_values=_control_values(state.t),
        tiebreak_choices=texts.tiebreak_choices(),
        rules_choices=pairing_tools.rules_choices(),
        acceleration_names=pairing_tools.acceleration_names(),
        rules_note=pairing_tools.rules_note(state.t, choose_rules(state.t.tiebreak_rules, state.t.start)),
        suggested_seed=secrets.token_hex(4),
    )


async def round_page(request: Request) -> Response:
    return await _round_response(request)


async def _round_response(
    request: Request,
    number: int | None = None,
    review: Any = None,
    results_form: Any = None,
    status_code: int = 200,
) -> Response:
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    number = number if number is not None else pagekit.path_number(request, "number")
    if number is None:
        return not_found(request)
    draft = state.draft if state.draft is not None and state.draft.round == number else None
    if draft is None and not 1 <= number <= len(state.t.rounds):
        return not_found(request)
    # The players' calls to the arbiter, for the arbiter only (read from the games' logs).
    calls = (
        []
        if draft is not None or not auth.signed_in(request)
        else await board_calls.calls_of_round(service(request), state, number)
    )
    return _page(
        request,
        "tournaments/round.html",
        status_code=status_code,
        results_form=results_form or round_form.ResultsForm.of(state, number) if draft is None else None,
        reports=round_form.reports_of(state, number) if draft is None else {},
        to_confirm=round_form.confirmable(state, number) if draft is None else [],
        disputed=disagreements(state, number) if draft is None else [],
        round_form=round_form,
        tid=tid,
        state=state,
        t=state.t,
        number=number,
        rnd=None if draft is not None else state.t.round(number),
        draft=draft,
        names=_players(state),
        results=RESULTS,
        presets=timecontrols.preset_names(),
        periods=range(1, control_form.MAX_PERIODS + 1),
        control_values=_control_values(state.t),
        time_control=_time_control_text(state.t) or "—",
        review=review,
        pairing_verdict=pairing_tools.pairing_verdict(state, number),
        calls=calls,
    )


def _crosstable(state: TournamentState) -> tables.Table:
    return tables.crosstable(state.standings(), state.t.name, texts.columns(), texts.points)


@_reading
async def standings_page(request: Request, tid: str, state: TournamentState) -> Response:
    standings, table = state.standings(), _crosstable(state)
    legend = texts.tiebreak_legend(standings.tiebreaks)
    rules_note = pairing_tools.rules_note(state.t, standings.rules)
    if request.query_params.get("print"):
        t = state.t
        leavings = [(lv.player, t.participant(lv.player).name, texts.leaving_text(lv)) for lv in t.leavings]
        return _page(request, "tournaments/crosstable_print.html", tid=tid, t=t, table=table, legend=legend,
                     codes=texts.table_codes(table), time_control=_time_control_text(t),
                     leavings=leavings, rules_note=rules_note, overrides=override_audit(state),
                     departures=texts.departures(state.audit))  # fmt: skip
    return _page(request, "tournaments/standings.html", tid=tid, state=state, t=state.t, standings=standings,
                 table=table, legend=legend, rules_note=rules_note)  # fmt: skip


@_reading
async def export(request: Request, tid: str, state: TournamentState) -> Response:
    t = state.t
    kind = request.path_params["format"]
    standings = state.standings()
    if kind in ("trf", "trf26"):
        # 122 in the tournament's language (its setting, Kazakh by default): the file names the event's control.
        text = results.tournament_trf(state, trf2026=kind == "trf26")
        name = f"{tid}.trf" if kind == "trf" else f"{tid}-trf2026.txt"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return PlainTextResponse(text, headers=headers, media_type="text/plain; charset=utf-8")
    if kind == "zip":
        # The results bundle (issue 29): public like the TRF, the crosstable and the audit page it is made of.
        games = await game_states(services_of(request).store, state)
        data = results.bundle(state, tid, games, i18n.current_language())
        headers = {"Content-Disposition": f'attachment; filename="{tid}-results.zip"'}
        return Response(data, media_type="application/zip", headers=headers)
    if kind == "csv":
        # The headers in the reader's language; the numbers as data (``1.5``), for any spreadsheet to read; after an
        # empty line, the note of the tie-break rules (one cell).
        table = tables.crosstable(standings, t.name, texts.columns())
        note = pairing_tools.rules_note(t, standings.rules)
        return csv_response([table.headers, *table.rows, [], [note]], f"{tid}.csv",
                            {"Content-Language": i18n.current_language()})  # fmt: skip
    return not_found(request)


_SITE_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8",
               ".trf": "text/plain; charset=utf-8", ".pgn": "application/x-chess-pgn"}  # fmt: skip


async def results_site(request: Request) -> Response:
    """``GET /results/{tid}/{path}``: the public results site, the same files ``toreshi publish`` writes (read
    from the store, never from a live room: reading it starts nothing)."""
    tid, path = request.path_params["tid"], request.path_params.get("path")
    if path is None:
        return RedirectResponse(f"/results/{tid}/", status_code=303)
    store = services_of(request).store
    try:
        state = await tournament_state(store, tid)
    except NotATournamentError:
        return not_found(request)
    path = path or "index.html"
    boards = results.wanted_boards(path)  # a page reads only the game it shows
    games = await game_states(store, state, boards)
    linked = set(games) if boards is None else set(state.game_rooms)
    url = str(request.url_for("results_site", tid=tid))
    data = results.site_file(state, tid, path, games, linked, url=url)
    if data is None:
        return not_found(request)
    suffix = "." + path.rsplit(".", 1)[-1]
    return Response(data, media_type=_SITE_TYPES.get(suffix, "application/octet-stream"))


def _time_control_text(t: Tournament) -> str:
    """A tournament's time control in the reader's words (a preset's or a custom control; an older log's text)."""
    if t.control is not None:
        return timecontrols.describe(t.control)
    return t.time_control or ""


def _games_with_results(state: TournamentState) -> list[tuple[int, int, str, str]]:
    names = _players(state)
    return [
        (rnd.number, g.board, names[g.white], names[g.black])
        for rnd in state.t.rounds
        for g in rnd.games
        if g.result is not None
    ]


@_reading
async def protests_page(request: Request, tid: str, state: TournamentState) -> Response:
    return _page(
        request,
        "tournaments/protests.html",
        tid=tid,
        state=state,
        t=state.t,
        games=_games_with_results(state),
        filers=sorted(state.t.protest_filers()),
        open_statuses={s.value for s in ProtestStatus if not s.closed},
        results=RESULTS,
        names=_players(state),
    )


@_reading
async def audit_page(request: Request, tid: str, state: TournamentState) -> Response:
    return _page(request, "tournaments/audit.html", tid=tid, state=state, t=state.t, names=_players(state),
                 team_names={team.name for team in state.t.teams},
                 departures=texts.departures(state.audit))  # fmt: skip


@_reading
async def forbidden_page(request: Request, tid: str, state: TournamentState) -> Response:
    """The forbidden pairings of a Swiss: listed, added by hand or from the clubs or a TRF, lifted."""
    return _page(request, "tournaments/forbidden.html", tid=tid, state=state, t=state.t, names=_players(state),
                 club_pairs=pairing_tools.new_club_pairs(state))  # fmt: skip


# --- changing ---------------------------------------------------------------------------------------------


@auth.arbiter_only
async def new_tournament(request: Request) -> Response:
    values: dict[str, Any] = {
        **control_form.values_of("rapid", None),
        "name": "", "system": "swiss_dutch", "rounds": "7", "fee": "1000",
        "currency": "KZT", "tiebreaks": "", "venue": "", "start": "", "end": "", "chief_arbiter": "",
        "deputies": "", "tiebreak_rules": pairing_tools.AUTO, "acceleration": "none",
    }  # fmt: skip
    error = ""
    if request.method == "POST":
        form = await read_form(request)
        values.update({k: _text(form, k) for k in values if k not in control_form.FIELDS})
        values.update({k: _text(form, k) for k in control_form.FIELDS if k in form})
        if "control" not in form and "time_control" in form:
            values["control"] = _text(form, "time_control")  # a preset's key, as the form before custom controls sent
        if not pagekit.fresh(request, form):
            error = pagekit.expired_text()
        else:
            try:
                tid = await service(request).create(auth.signed_in(request) or "arbiter", _create(values))
            except Refused as refused:
                error = pagekit.refusal_text(refused)
            else:
                return _back(tid)
    return pagekit.plain(
        request,
        "tournaments/new.html",
        values=values,
        error=error,
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        periods=range(1, control_form.MAX_PERIODS + 1),
        system_names=texts.system_names(),
        rules_choices=pairing_tools.rules_choices(),
        acceleration_names=pairing_tools.acceleration_names(),
    )


def _where(template: str, state: TournamentState, form: Form) -> str:
    draft = state.draft.round if state.draft is not None else len(state.t.rounds)
    return template.format(next=draft, draft=draft, round=_text(form, "round") or draft)


@auth.arbiter_only
async def act(request: Request) -> Response:
    """``POST /tournaments/{tid}/do/{action}``: one arbiter action, then back to the page it belongs to."""
    tid, action = request.path_params["tid"], request.path_params["action"]
    if action not in ACTIONS:
        return not_found(request)
    read, where = ACTIONS[action]
    form = await read_form(request)
    back = _text(form, "back") if _text(form, "back").startswith("/tournaments/") else ""
    if not pagekit.fresh(request, form):
        return pagekit.expired(request, back or f"/tournaments/{tid}")
    svc = service(request)
    try:
        state = await svc.state(tid)
    except UnknownTournamentError:
        return not_found(request)
    try:
        command = _confirmed(read(form), form)
        if isinstance(command, FileProtest):
            white, black = await svc.signed_times(tid, command.round, command.board)
            command = dataclasses.replace(command, white_signed_at=white, black_signed_at=black)
        before, lines = len(state.protests), len(state.audit)
        state = await svc.command(tid, command, auth.signed_in(request) or "arbiter")
    except Refused as refused:
        if refused.refusal.code is TournamentCode.OVERRIDE_BREAKS_CRITERIA and state.draft is not None:
            # The arbiter sees which criteria the change breaks, with the change kept in the form, to confirm it.
            return await _round_response(request, number=state.draft.round, review=pairing_tools.review_of(
                refused.refusal, form))  # fmt: skip
        if refused.refusal.code in DEPARTURE_CODES:
            # The action departs from the regulation: the warning with its level, the form kept, to confirm it
            # (or to write the reason) and send it again.
            return _departure_response(request, tid, state, action, refused.refusal, form)
        pagekit.keep(request, refused.refusal)
        if action == "pair":
            where = ""  # nothing was paired: back to the tournament, where the reason is shown (not a missing round)
    else:
        if isinstance(command, FileProtest) and len(state.protests) > before:
            _filed_notice(request, state, command.id or f"P{before + 1}")
        elif departed := texts.departures(state.audit[lines:]):
            recorded = departed[0].params
            pagekit.keep(request, notice=DEPARTURE_LOGGED, departure_term=str(recorded["departure_term"]),
                         level_term=str(recorded["level_term"]))  # fmt: skip
        else:
            pagekit.keep(request, notice=DONE)
        if state.draft is None and action == "pair":
            where = ""
    return pagekit.redirect(back or f"/tournaments/{tid}{_where(where, state, form)}")


DEPARTURE_CODES = frozenset({TournamentCode.DEPARTURE_UNCONFIRMED, TournamentCode.DEPARTURE_NEEDS_REASON})
_NOT_RESENT = frozenset({"csrf", "confirmed", "file"})


def _confirmed(command: TournamentCommand, form: Form) -> TournamentCommand:
    """The command with the arbiter's confirmation of a departure's warning, when the form confirms it (the
    confirmation page's box) and the command takes one."""
    if _text(form, "confirmed") == "yes" and any(f.name == "confirmed" for f in dataclasses.fields(command)):
        return dataclasses.replace(command, confirmed=True)  # type: ignore[arg-type]
    return command


def _departure_where(state: TournamentState, form: Form) -> str:
    """Whom and what the action concerns (the player, the round, the board), as the warning page names them."""
    params: dict[str, str | int] = {}
    number = _text(form, "number")
    if number.isdigit() and int(number) in _players(state):
        params["player"] = state.t.label(int(number))
    elif _text(form, "name"):
        params["player"] = _text(form, "name")
    for key in ("round", "after_round", "board"):
        value = _text(form, key)
        if value.isdigit():
            params["round" if key == "after_round" else key] = int(value)
    return texts.particulars(params)


def _departure_response(
    request: Request, tid: str, state: TournamentState, action: str, refusal: Refusal, form: Form
) -> Response:
    """The warning of an action that departs from the regulation: what it is, its level (confirmation, or a written
    reason), the form's fields kept to send again. Nothing was changed."""
    level = str(refusal.params.get("level", ""))
    kept = [(key, value) for key, value in form.items() if key not in _NOT_RESENT and key != "reason"
            and isinstance(value, str)]  # fmt: skip
    return _page(
        request,
        "tournaments/departure.html",
        where=_departure_where(state, form),
        tid=tid,
        state=state,
        t=state.t,
        action=action,
        warning=refusals.render(refusal),
        level=level,
        level_text=texts.term(f"level.{level}"),
        kept=kept,
        reason=_text(form, "reason"),
        needs_reason=refusal.code is TournamentCode.DEPARTURE_NEEDS_REASON,
        confirmed=_text(form, "confirmed") == "yes",
    )


def round_url(tid: str, number: int, where: str = "") -> str:
    return f"/tournaments/{tid}/rounds/{number}{where}"


RoundAction = Callable[[Request, str, int, Form], Awaitable[Response]]


def round_post(action: RoundAction) -> Callable[[Request], Awaitable[Response]]:
    """A round's form (make the games, start the clocks, answer a call) through the page kit: the action gets the
    tournament's id, the round's number and the form (``action(request, tid, number, form)``), or the visitor the
    answer already due (a 404 for a number that is not one, back to the round when the form expired)."""

    @functools.wraps(action)
    async def posted(request: Request) -> Response:
        tid = request.path_params["tid"]
        read = await pagekit.numbered_post(request, "number", lambda number: round_url(tid, number))
        return read if isinstance(read, Response) else await action(request, tid, *read)

    return posted


@auth.arbiter_only
@round_post
async def create_games(request: Request, tid: str, number: int, form: Form) -> Response:
    """Game rooms for the boards of a round; then the round's sheet of the players' links."""
    back = round_url(tid, number)
    try:
        state = await service(request).state(tid)
    except UnknownTournamentError:
        return not_found(request)
    try:
        # The control chosen on the round's page (the tournament's unless changed), else the tournament's own.
        typed = {key: _text(form, key) for key in control_form.FIELDS}
        control = control_form.control_from_form(typed) if "control" in form else state.t.control
    except Refused as refused:
        return pagekit.refused(request, refused, back)
    if control is None:
        return pagekit.refused(request, Refusal(Common.FIELD_REQUIRED, {"field": "time_control"}), back)
    flag = "claim" if form.get("flag") == "claim" else "automatic"
    try:
        made = await service(request).create_game_rooms(
            tid, number, auth.signed_in(request) or "arbiter", control.to_dict(), {"flag_mode": flag}
        )
    except Refused as refused:
        return pagekit.refused(request, refused, back)
    # The links are derived on the server: the round's sheet shows (and prints) them now and at any time after.
    return pagekit.done(request, round_url(tid, number, "/links"), ROOMS_MADE, count=len(made))


@auth.arbiter_only
@round_post
async def start_clocks(request: Request, tid: str, number: int, _form: Form) -> Response:
    """``POST /tournaments/{tid}/rounds/{number}/start``: every live game of the round starts at once."""
    back = round_url(tid, number)
    try:
        started, refused = await service(request).start_round_clocks(tid, number, auth.signed_in(request) or "arbiter")
    except UnknownTournamentError:
        return not_found(request)
    except Refused as why:
        return pagekit.refused(request, why, back)
    boards = ", ".join(str(board) for board in refused)
    problems = Refusal(TournamentCode.CLOCKS_NOT_STARTED, {"boards": boards}, tuple(refused.values()))
    notice = CLOCKS_STARTED if started or refused else CLOCKS_ALREADY_RUNNING
    pagekit.keep(request, problems if refused else None, notice=notice, count=started)
    return pagekit.redirect(back)


@auth.arbiter_only
async def link_sheet(request: Request) -> Response:
    """``GET /tournaments/{tid}/rounds/{number}/links``: the players' links of a round's games on one printable
    sheet (names, boards, QR codes), shown again at any time and from any browser: the links are derived on the
    server (:mod:`toreshi.web.togyz.links`), nothing of them is in the session. Reading it writes nothing."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    number = pagekit.path_number(request, "number")
    if number is None or not 1 <= number <= len(state.t.rounds):
        return not_found(request)
    rooms = [room for g in state.t.round(number).games if (room := state.room_of(number, g.board)) is not None]
    games = await game_links.links_of_games(request, rooms)
    return _page(request, "tournaments/links.html", tid=tid, state=state, t=state.t, number=number, games=games)


@auth.arbiter_only
async def collect(request: Request) -> Response:
    """The arbiter asks now for the results of finished live games that have not reached the tournament yet
    (they are pushed when a game ends; this is the same reconciliation the app runs in the background)."""
    tid = request.path_params["tid"]
    form = await pagekit.posted(request, f"/tournaments/{tid}")
    if isinstance(form, Response):
        return form
    try:
        count = await service(request).reconcile(tid)
    except UnknownTournamentError:
        return not_found(request)
    back = _text(form, "back")
    return pagekit.done(request, back if back.startswith("/tournaments/") else f"/tournaments/{tid}", COLLECTED,
                        count=count)  # fmt: skip


@auth.arbiter_only
async def team_link(request: Request) -> Response:
    """A new secret protest link for a team's representatives and coaches, shown once (with a QR code)."""
    tid = request.path_params["tid"]
    form = await pagekit.posted(request, f"/tournaments/{tid}")
    if isinstance(form, Response):
        return form
    team = _text(form, "team")
    try:
        state = await service(request).state(tid)
        token = await service(request).issue_team_link(tid, team)
    except UnknownTournamentError:
        return not_found(request)
    except Refused as refused:
        return pagekit.refused(request, refused, f"/tournaments/{tid}")
    url = f"{str(request.base_url).rstrip('/')}/tournaments/{tid}/protest?token={token}"
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#1b1b1b", light="#ffffff")
    return _page(request, "tournaments/team_link.html", tid=tid, state=state, t=state.t, team=team, url=url, qr=qr)


async def team_protest(request: Request) -> Response:
    """The team's own page: its protests and their status, and the form to file one (TK-P1)."""
    tid = request.path_params["tid"]
    svc = service(request)
    form = await read_form(request) if request.method == "POST" else {}
    token = _text(form, "token") or request.query_params.get("token", "")
    back = f"/tournaments/{tid}/protest?token={token}"
    if request.method == "POST" and not pagekit.fresh(request, form):
        return pagekit.expired(request, back)
    try:
        team = await svc.team_of(tid, token)
        state = await svc.state(tid)
    except UnknownTournamentError:
        return not_found(request)
    if state.tournament is None:
        return not_found(request)
    if team is None:
        # A forged link and one replaced by a newer link look alike: neither says whether the token ever worked.
        return pagekit.plain(request, "tournaments/protest_link_refused.html", status_code=404)
    if request.method == "POST":
        try:
            command = _protest({key: form[key] for key in ("round", "board", "filed_by", "role", "text")
                                if key in form})  # fmt: skip
            white, black = await svc.signed_times(tid, command.round, command.board)
            command = dataclasses.replace(command, white_signed_at=white, black_signed_at=black)
            before = len(state.protests)
            state = await svc.command(tid, command, team, role=TEAM)
        except Refused as refused:
            return pagekit.refused(request, refused, back)
        _filed_notice(request, state, f"P{before + 1}")
        return pagekit.redirect(back)
    return _page(
        request,
        "tournaments/team_protest.html",
        tid=tid,
        state=state,
        t=state.t,
        team=state.t.team(team),
        token=token,
        games=_games_with_results(state),
        protests=[p for p in state.protests if p.team == team],
        for_team=True,
    )


routes = [
    Route("/tournaments", tournament_list),
    Route("/tournaments/new", new_tournament, methods=["GET", "POST"]),
    Route("/tournaments/{tid}", overview),
    Route("/tournaments/{tid}/settings", settings_page),
    Route("/tournaments/{tid}/rounds/{number}", round_page),
    Route("/tournaments/{tid}/rounds/{number}/games", create_games, methods=["POST"]),
    Route("/tournaments/{tid}/rounds/{number}/start", start_clocks, methods=["POST"]),
    Route("/tournaments/{tid}/rounds/{number}/links", link_sheet),
    Route("/tournaments/{tid}/standings", standings_page),
    Route("/tournaments/{tid}/export.{format}", export),
    Route("/tournaments/{tid}/protests", protests_page),
    Route("/tournaments/{tid}/audit", audit_page),
    Route("/tournaments/{tid}/forbidden", forbidden_page),
    Route("/tournaments/{tid}/collect", collect, methods=["POST"]),
    Route("/tournaments/{tid}/do/{action}", act, methods=["POST"]),
    Route("/tournaments/{tid}/team-link", team_link, methods=["POST"]),
    Route("/tournaments/{tid}/protest", team_protest, methods=["GET", "POST"]),
    Route("/results/{tid}", results_site),
    Route("/results/{tid}/{path:path}", results_site),
]
