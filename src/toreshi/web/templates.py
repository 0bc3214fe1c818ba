"""Jinja2 templates with the request's language installed (gettext in templates: ``{{ _("Tournaments") }}``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from toreshi import __version__
from toreshi.web import i18n

TEMPLATE_DIR = Path(__file__).parent / "templates"
STATIC_DIR = Path(__file__).parent / "static"

environment = Environment(
    loader=FileSystemLoader(TEMPLATE_DIR),
    autoescape=select_autoescape(["html", "xml"]),
    extensions=["jinja2.ext.i18n"],
    trim_blocks=True,
    lstrip_blocks=True,
)
environment.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a page in the request's language."""
    language = request.scope.get("state", {}).get("language", i18n.DEFAULT_LANGUAGE)
    i18n.activate(language)
    page = environment.get_template(name).render(
        request=request,
        language=language,
        languages=i18n.LANGUAGE_NAMES,
        version=__version__,
        csrf_token=request.session.get("csrf", "") if "session" in request.scope else "",
        **context,
    )
    return HTMLResponse(page, status_code=status_code)
