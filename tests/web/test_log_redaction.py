"""Player links do not reach the logs in clear (issue 26): a real ``toreshi serve`` is asked for pages with a
player's token, a team's join code and a sign-in carrying a link in ``next=``; its log holds none of them."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.web.common import log_redaction
from toreshi.web.common.log_redaction import REDACTED, redacted

from ..served import Server

SECRETS = ("tok-SECRET-1", "SECRET2JOIN", "tok-SECRET-3")


def test_a_served_app_logs_no_player_link(tmp_path: Path) -> None:
    server = Server(tmp_path)
    try:
        with httpx.Client(base_url=server.url, timeout=5) as client:
            client.get(f"/games/g-0000?token={SECRETS[0]}&lang=ru")
            client.get(f"/j/{SECRETS[1]}")
            client.get(f"/quiz/join?code={SECRETS[1]}")
            client.get(f"/login?next=%2Fgames%2Fg-0000%3Ftoken%3D{SECRETS[2]}%26lang%3Dkk")
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "GET /games/g-0000?token=" + REDACTED + "&lang=ru" in log  # the line is there, its secret is not
    assert not [secret for secret in SECRETS if secret in log], log


@given(st.text(min_size=1, max_size=30))
@settings(max_examples=80)
def test_any_token_value_is_redacted_plain_or_inside_next(secret: str) -> None:
    value = quote(secret, safe="")  # as it travels in a URL
    line = f'1.2.3.4:5 - "GET /games/g-1?lang=kk&token={value}&print=1 HTTP/1.1" 200'
    assert redacted(line) == f'1.2.3.4:5 - "GET /games/g-1?lang=kk&token={REDACTED}&print=1 HTTP/1.1" 200'
    nested = quote(f"/games/g-1?code={value}&lang=kk", safe="")  # a link inside the sign-in's next=
    assert redacted(f"GET /login?next={nested} HTTP/1.1") == (
        f"GET /login?next={quote('/games/g-1?code=', safe='')}{REDACTED}{quote('&lang=kk', safe='')} HTTP/1.1"
    )


def test_the_filter_sits_on_uvicorn_s_loggers(caplog: pytest.LogCaptureFixture) -> None:
    log_redaction.install()
    log_redaction.install()  # once, however often the app starts
    assert sum(isinstance(f, log_redaction.RedactSecrets) for f in logging.getLogger("uvicorn.access").filters) == 1
    with caplog.at_level(logging.INFO, logger="uvicorn.access"), caplog.at_level(logging.INFO, logger="uvicorn.error"):
        logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET",
                                                 "/games/g-1?token=abc123", "1.1", 200)  # fmt: skip
        logging.getLogger("uvicorn.error").info('%s - "WebSocket %s" [accepted]', "1.2.3.4:5", "/ws/x?token=abc123")
    assert "abc123" not in caplog.text and caplog.text.count(REDACTED) == 2
