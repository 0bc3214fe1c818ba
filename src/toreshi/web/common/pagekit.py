"""The one page kit: how every page of the app answers a form post, and how it shows what came of it.

A post goes through the same steps on every page:

1. the form is read once (:func:`toreshi.web.common.forms.read_form`; fields are taken out with the kit's readers,
   so a bad field is refused naming the field, in the reader's language);
2. the form token (CSRF) is checked **before anything else**: before a record is looked up, before a field is read
   into a command (:func:`posted`; an expired token goes back with the "form has expired" flash);
3. the command runs; a refusal (:class:`~toreshi.kit.refusal.Refused`) is kept as its code (:func:`refused`) and
   worded on the next page in that page's reader's language;
4. redirect-after-POST (303) to the page the action belongs to, with the outcome as a flash (:func:`done`).

A page is rendered with :func:`page`, which shows (and forgets) the pending flash; a not-found answer
(:func:`not_found`), every error page and a page that shows no flash (:func:`plain`: a game's screen, an
overlay, a form page with its own error line) leave a pending flash for the next page. A form page that shows its own
error beside the typed values (a new tournament, sign-in) uses :func:`fresh`, :func:`expired_text` and
:func:`refusal_text`. Error pages for what no handler answered are :mod:`toreshi.web.common.errors`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from toreshi.kit.refusal import Refusal, Refused
from toreshi.texts import refusals
from toreshi.texts.i18n import gettext as _
from toreshi.web.accounts import auth
from toreshi.web.common import flash, forms
from toreshi.web.common.flash import DONE, EXPIRED, Shown, Wording, notice
from toreshi.web.common.forms import Form
from toreshi.web.common.templates import not_found, render_page

__all__ = [
    "DONE",
    "EXPIRED",
    "Form",
    "Shown",
    "done",
    "expired",
    "expired_text",
    "fresh",
    "keep",
    "not_found",
    "notice",
    "numbered_post",
    "page",
    "path_number",
    "plain",
    "posted",
    "redirect",
    "refusal_text",
    "refused",
    "safe_next",
    "shows_clauses",
]

keep = flash.keep
"""Keep an outcome for the next page without answering yet (``keep(request, refusal, notice=…, **params)``)."""


def redirect(url: str) -> RedirectResponse:
    """Redirect-after-POST: the browser GETs ``url`` (303), so a reload never posts the form again."""
    return RedirectResponse(url, status_code=303)


def path_number(request: Request, name: str) -> int | None:
    """A whole number of the path (a round's, a board's), or ``None`` (the page answers 404): ASCII digits only,
    at most six (``int("٣")`` is 3, ``int("²")`` fails: neither is a round's number)."""
    typed = str(request.path_params.get(name, ""))
    return int(typed) if typed.isascii() and typed.isdigit() and len(typed) <= 6 else None


def safe_next(target: str | None) -> str:
    """Where to go on after a form: a same-site path only (no open redirect), else the home page.

    >>> safe_next("/games/new"), safe_next("//evil.example/"), safe_next("https://evil.example/"), safe_next(None)
    ('/games/new', '/', '/', '/')
    """
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


def fresh(request: Request, form: Form) -> bool:
    """The form carries this session's token (CSRF): a form of this app, sent now by this browser."""
    token = form.get("csrf")
    return auth.csrf_ok(request, token if isinstance(token, str) else None)


async def posted(request: Request, back: str, **limits: Any) -> Form | Response:
    """The form read once, its token checked first: the form, or (an expired or forged token) the answer already
    due: back to ``back`` with the "form has expired" flash, nothing looked up, read or changed. ``limits`` are
    :func:`~toreshi.web.common.forms.read_form`'s."""
    form = await forms.read_form(request, **limits)
    return form if fresh(request, form) else expired(request, back)


def expired(request: Request, back: str) -> RedirectResponse:
    """A form whose token did not match (an old page, another session): nothing done; back to ``back``, which
    says the form has expired."""
    flash.keep_expired(request)
    return redirect(back)


async def numbered_post(
    request: Request, name: str, back: Callable[[int], str], **limits: Any
) -> tuple[int, Form] | Response:
    """A post to a numbered part of a record (a tournament's round): the path's number ``name`` and the form read
    once, or the answer already due: a 404 for a number that is not one, else :func:`posted`'s expired redirect
    (to ``back(number)``)."""
    number = path_number(request, name)
    if number is None:
        return not_found(request)
    form = await posted(request, back(number), **limits)
    return form if isinstance(form, Response) else (number, form)


def refused(request: Request, why: Refused | Refusal, back: str) -> RedirectResponse:
    """A refused command: nothing changed; back to ``back``, which words the refusal in its reader's language."""
    flash.keep(request, why.refusal if isinstance(why, Refused) else why)
    return redirect(back)


def done(request: Request, back: str, notice: str = DONE, **params: Any) -> RedirectResponse:
    """The command was applied (and persisted): back to ``back``, which says so (a registered notice)."""
    flash.keep(request, notice=notice, **params)
    return redirect(back)


def expired_text() -> str:
    """The "form has expired" sentence, for a form page that shows its error beside the typed values."""
    return _(EXPIRED)


def refusal_text(why: Refused, *, clauses: bool = True) -> str:
    """A refusal's sentence in the reader's language, for a form page that shows it beside the typed values."""
    return refusals.text_of(why, clauses=clauses)


def shows_clauses(request: Request) -> bool:
    """Regulation clause numbers (TK-…, SI-…) are for the arbiter's console: a signed-in arbiter sees them."""
    return auth.signed_in(request) is not None


def page(
    request: Request,
    name: str,
    status_code: int = 200,
    *,
    clauses: bool | None = None,
    wording: Wording | None = None,
    **context: Any,
) -> HTMLResponse:
    """A page in the reader's language, with its header (the signed-in arbiter, the sign-out form's token), the
    pending flash worded (and forgotten) and ``clauses`` (:func:`shows_clauses` unless given). A page answered
    with an error status (a 404, a form refused with 400) leaves the flash for the next page."""
    shown_clauses = shows_clauses(request) if clauses is None else clauses
    shown = flash.take(request, clauses=shown_clauses, wording=wording) if status_code < 400 else flash.nothing()
    return render_page(request, name, status_code, clauses=shown_clauses, flash=shown, **context)


def plain(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A page that shows no flash (a game's screen, an overlay, a form page with its own error line): its header
    and the reader's language, and the pending flash left for the next page that shows one."""
    return render_page(request, name, status_code, **context)
