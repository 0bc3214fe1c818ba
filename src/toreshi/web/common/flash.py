"""The outcome of a form post kept for the next page (redirect-after-POST): a refusal as its code, a notice as its
msgid, and both worded only when the next page is rendered, in that page's reader's language.

One session key for every page; a notice is one of the msgids registered with :func:`notice` (the session is the
server's, but a page words only what the app itself wrote). Only a page that shows the outcome takes it
(:func:`toreshi.web.common.pagekit.page` with a success status): a 404 or another error page leaves a pending flash
for the next page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict

from starlette.requests import Request

from toreshi.kit.refusal import Refusal
from toreshi.refusal_codes import EVERY_CODE
from toreshi.texts import refusals
from toreshi.texts.i18n import N_
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.codes import TournamentCode

__all__ = ["DONE", "EXPIRED", "Shown", "Wording", "keep", "keep_expired", "nothing", "notice", "take"]

KEY = "flash"
"""The session key of the pending outcome (one for every page)."""
MAX_PROBLEMS = 25
"""A flash keeps at most this many of a refusal's details (the rest is counted in one more line)."""

EXPIRED = N_("The form has expired; please try again.")
DONE = N_("Done.")
LINE = N_("Line %(line)s: %(problem)s")

_NOTICES: set[str] = {DONE}


class Shown(TypedDict):
    """The outcome as a page shows it: a refusal's sentence, its details (one per bad line), a notice."""

    error: str
    problems: list[str]
    notice: str


def nothing() -> Shown:
    return {"error": "", "problems": [], "notice": ""}


def notice(msgid: str) -> str:
    """Register ``msgid`` (marked with ``N_``) as a notice a page may word after a post; returns it."""
    _NOTICES.add(msgid)
    return msgid


def keep(request: Request, refusal: Refusal | None = None, notice: str = "", **params: Any) -> None:
    """Keep the outcome for the next page as codes and msgids (``params`` fill the notice's placeholders)."""
    if notice and notice not in _NOTICES:
        raise ValueError(f"not a registered notice: {notice!r}")
    kept: dict[str, Any] = {"notice": notice, "params": params}
    if refusal is not None:
        shown = refusal.details[:MAX_PROBLEMS]
        if len(refusal.details) > MAX_PROBLEMS:
            shown += (Refusal(TournamentCode.CSV_MORE_PROBLEMS, {"count": len(refusal.details) - MAX_PROBLEMS}),)
        kept["refusal"] = Refusal(refusal.code, refusal.params, shown).to_dict()
    request.session[KEY] = kept


def keep_expired(request: Request) -> None:
    """The form's token did not match (an old page, another session): nothing was done."""
    request.session[KEY] = {"expired": True}


def _problem(detail: Refusal, *, clauses: bool) -> str:
    """One detail of a refusal; its line first ("Line 3: …") unless its own sentence says the line."""
    line = detail.params.get("line")
    text = refusals.render(detail, clauses=clauses)
    if line is None or "%(line)s" in refusals.MESSAGES.get(detail.code.value, ""):
        return text
    return _(LINE) % {"line": line, "problem": text}


Wording = Callable[[dict[str, Any], bool], dict[str, Any]]
"""A page's own wording of a notice's parameters: ``(values, clauses) -> values`` (a protest's decisive step)."""


def take(request: Request, *, clauses: bool = True, wording: Wording | None = None) -> Shown:
    """The pending outcome, worded in the active language, and forgotten. ``clauses``: the regulation's clause
    numbers are shown (an arbiter's page)."""
    kept = request.session.pop(KEY, None) if "session" in request.scope else None
    shown = nothing()
    if not isinstance(kept, dict):
        return shown
    stored = kept.get("refusal")
    if kept.get("expired"):
        shown["error"] = _(EXPIRED)
    elif isinstance(stored, dict):
        refusal = Refusal.from_dict(stored, EVERY_CODE)
        shown["error"] = refusals.render(refusal, clauses=clauses)
        shown["problems"] = [_problem(detail, clauses=clauses) for detail in refusal.details]
    msgid, params = kept.get("notice"), kept.get("params")
    if isinstance(msgid, str) and msgid in _NOTICES:
        values = dict(params) if isinstance(params, dict) else {}
        if wording is not None:
            values = wording(values, clauses)
        shown["notice"] = _(msgid) % values if values else _(msgid)
    return shown
