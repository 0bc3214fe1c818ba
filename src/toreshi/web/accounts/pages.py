"""The arbiter's sign-in pages: the first start's setup (the first name and password), sign-in and sign-out.

Each is a form page that shows its own error beside what was typed (the page kit's :func:`~toreshi.web.common.
pagekit.fresh` checks the form's token first); a signed-in arbiter goes on with redirect-after-POST, to a same-site
page only (:func:`~toreshi.web.common.pagekit.safe_next`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.texts.i18n import gettext as _
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import read_form, texts
from toreshi.web.common.security import SignInLimiter, WeakPasswordError, hash_password, verify_password
from toreshi.web.common.services import kept_on_app, services_of
from toreshi.web.common.templates import render

MAX_NAME = 80


async def setup(request: Request) -> Response:
    """First start: set the first arbiter's name and password (from this machine unless allowed otherwise)."""
    services = services_of(request)
    if await services.accounts.has_arbiters():
        return pagekit.redirect("/login")
    if not (auth.is_local(request) or services.settings.allow_remote_setup):
        return render(
            request,
            "setup.html",
            status_code=403,
            error=_("Set the first password on the server itself."),
            csrf=auth.csrf_token(request),
        )
    error = ""
    name = ""
    if request.method == "POST":
        form = await read_form(request)
        fields = texts(form)
        name = fields.get("name", "")[: MAX_NAME * 2]  # shown again as typed, within reason
        if not pagekit.fresh(request, form):
            error = pagekit.expired_text()
        elif not name or len(name) > MAX_NAME:
            error = _("Enter a name.")
        elif form.get("password") != form.get("confirm"):
            error = _("The two passwords differ.")
        else:
            try:
                password = form.get("password", "")
                hashed = hash_password(password if isinstance(password, str) else "")
            except WeakPasswordError:
                error = _("A password needs at least 8 characters.")
            else:
                await services.accounts.add_arbiter(name, hashed)
                auth.sign_in(request, name)
                return pagekit.redirect("/")
    # A mistyped password keeps the typed name (the passwords are typed again, never sent back).
    return render(request, "setup.html", error=error, typed_name=name, csrf=auth.csrf_token(request))


async def login(request: Request) -> Response:
    services = services_of(request)
    if not await services.accounts.has_arbiters():
        return pagekit.redirect("/setup")
    error = ""
    target = pagekit.safe_next(request.query_params.get("next"))
    if request.method == "POST":
        form = await read_form(request)
        fields = texts(form)
        name = fields.get("name", "")
        limiter = _sign_in_limiter(request)
        client = request.client.host if request.client else ""
        if limiter.blocked(name, client):
            error = _("Too many failed attempts; wait a few minutes and try again.")
            return render(
                request, "login.html", status_code=429, error=error, next=target, csrf=auth.csrf_token(request)
            )
        hashed = await services.accounts.arbiter_hash(name)
        password = form.get("password", "")
        if not pagekit.fresh(request, form):
            error = pagekit.expired_text()
        elif not verify_password(hashed, password if isinstance(password, str) else ""):
            limiter.failed(name, client)
            error = _("Wrong name or password.")
        else:
            auth.sign_in(request, name)
            return pagekit.redirect(pagekit.safe_next(fields.get("next")))
    return render(request, "login.html", error=error, next=target, csrf=auth.csrf_token(request))


def _sign_in_limiter(request: Request) -> SignInLimiter:
    """The app's count of failed sign-ins per account and address (one per app, made on first use)."""
    return kept_on_app(request, "sign_in_limiter", SignInLimiter)


async def logout(request: Request) -> Response:
    if request.method == "POST":
        form = await read_form(request)
        if pagekit.fresh(request, form):
            auth.sign_out(request)
    return pagekit.redirect("/")


routes = [
    Route("/setup", setup, methods=["GET", "POST"]),
    Route("/login", login, methods=["GET", "POST"]),
    Route("/logout", logout, methods=["POST"]),
]
