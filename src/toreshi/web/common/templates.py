"""Jinja2 templates with the request's language installed (gettext in templates: ``{{ _("Tournaments") }}``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from toreshi import __version__
from toreshi.texts import formatting, i18n
from toreshi.web.accounts import auth
from toreshi.web.common.install_links import manifest_href
from toreshi.web.common.missing import missing_message

TEMPLATE_DIR = Path(__file__).parent.parent / "templates"
STATIC_DIR = Path(__file__).parent.parent / "static"

environment = Environment(
    loader=FileSystemLoader(TEMPLATE_DIR),
    autoescape=select_autoescape(["html", "xml"]),
    extensions=["jinja2.ext.i18n"],
    trim_blocks=True,
    lstrip_blocks=True,
)
environment.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
environment.globals["missing_message"] = missing_message  # the 404 page says which kind of record is missing
environment.globals["manifest_href"] = manifest_href


def _language(context: Context) -> str:
    return str(context.get("language", i18n.DEFAULT_LANGUAGE))


def _zone(context: Context) -> str:
    return str(context.get("timezone", formatting.DEFAULT_TIMEZONE))


# Locale-aware filters: {{ when|datetime }}, {{ delay_ms|seconds }}, {{ elapsed_ms|clock }} (toreshi.texts.formatting).
environment.filters.update(
    {
        "datetime": pass_context(lambda c, v: formatting.format_datetime(v, _language(c), _zone(c))),
        "datetime_seconds": pass_context(lambda c, v: formatting.format_datetime_seconds(v, _language(c), _zone(c))),
        "time": pass_context(
            lambda c, v, seconds=False: formatting.format_time(v, _language(c), _zone(c), seconds=seconds)
        ),
        "date": pass_context(lambda c, v: formatting.format_date(v, _language(c), _zone(c))),
        "number": pass_context(lambda c, v: formatting.format_number(v, _language(c))),
        "seconds": pass_context(lambda c, v, digits=1: formatting.format_seconds(v, _language(c), digits=digits)),
        "milliseconds": pass_context(lambda c, v: formatting.format_milliseconds(v, _language(c))),
        "clock": lambda v, tenths=True: formatting.format_clock(v, tenths=tenths),
    }
)


def club_timezone(request: Request) -> str:
    services = getattr(request.app.state, "services", None)
    settings = getattr(services, "settings", None)
    return str(getattr(settings, "timezone", formatting.DEFAULT_TIMEZONE))


_JSON_IN_HTML = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def embed_json(value: Any) -> str:
    r"""JSON text safe inside a ``<script type="application/json">`` block (read back with ``JSON.parse``): every
    ``<``, ``>`` and ``&`` and the line separators U+2028/U+2029 are written as ``\uXXXX`` escapes, so no value
    (a team named ``<!--<script>``, say) can end the block or switch the HTML parser into another state.

    >>> print(embed_json({"name": "<!--<script></script>&"}))
    {"name": "\u003c!--\u003cscript\u003e\u003c/script\u003e\u0026"}
    """
    return json.dumps(value, ensure_ascii=False).translate(_JSON_IN_HTML)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a page in the request's language."""
    language = request.scope.get("state", {}).get("language", i18n.DEFAULT_LANGUAGE)
    i18n.activate(language)
    page = environment.get_template(name).render(
        request=request,
        language=language,
        languages=i18n.LANGUAGE_NAMES,
        timezone=club_timezone(request),
        version=__version__,
        csrf_token=request.session.get("csrf", "") if "session" in request.scope else "",
        **context,
    )
    return HTMLResponse(page, status_code=status_code)


def render_page(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """:func:`render` a page with what its header shows: the signed-in arbiter (``None`` for a visitor) and the
    CSRF token of the sign-out form."""
    return render(request, name, status_code, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request), **context)


def not_found(request: Request) -> HTMLResponse:
    """The page for what is not there (or not for this visitor), with status 404; it says which kind of record
    (a tournament, a team tournament, a quiz tour, a game …) by the path (``toreshi.web.common.missing``)."""
    return render_page(request, "not_found.html", status_code=404)


S = TypeVar("S")
Handler = Callable[[Request], Awaitable[Response]]


class Founded(Protocol):
    """A competition's state: ``tournament`` is None until its creating command is applied."""

    @property
    def tournament(self) -> object | None: ...


C = TypeVar("C", bound=Founded)


def competition_loader(
    state_of: Callable[[Request, str], Awaitable[C]], unknown: type[LookupError]
) -> Callable[[Request], Awaitable[tuple[str, C] | None]]:
    """The ``load`` of :func:`pages_of` for a competition named by the path's ``tid`` (a tournament, a team
    tournament): its id and state, or None for an id ``state_of`` refuses with ``unknown`` or one not created yet."""

    async def load(request: Request) -> tuple[str, C] | None:
        tid = request.path_params["tid"]
        try:
            state = await state_of(request, tid)
        except unknown:
            return None
        return (tid, state) if state.tournament is not None else None

    return load


def pages_of(
    load: Callable[[Request], Awaitable[tuple[str, S] | None]],
) -> Callable[[Callable[[Request, str, S], Awaitable[Response]]], Handler]:
    """A decorator for the pages of one record (a tournament, a team tournament, a quiz tour): ``load`` finds the
    record's id and state for the request, the page gets them (``page(request, id, state)``), or the visitor the 404
    page."""

    def decorate(page: Callable[[Request, str, S], Awaitable[Response]]) -> Handler:
        @functools.wraps(page)
        async def read(request: Request) -> Response:
            loaded = await load(request)
            if loaded is None:
                return not_found(request)
            return await page(request, *loaded)

        return read

    return decorate
