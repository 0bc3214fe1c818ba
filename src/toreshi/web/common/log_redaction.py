"""Player links never reach a log in clear (issue 26): uvicorn writes the path and query of every request to its
access log (``uvicorn.access``) and of every socket to its error log (``uvicorn.error``); a player's link
(``?token=…``), a team's join code (``?code=…``, ``/j/{code}``) and the same inside a sign-in's ``next=`` (percent-
encoded) are written as ``[redacted]``. A log file shared with whoever helps the club, or kept on a laptop, then
opens no game.

:func:`install` puts the filter on those loggers; the app calls it at start-up, after uvicorn
has configured its logging, so it holds however the app is served (``toreshi serve``, ``uvicorn``, gunicorn).
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"

_SECRET_QUERY = re.compile(r"(?P<key>[?&;](?:token|code)=)[^&\s\"#]*")
"""A ``token`` or ``code`` parameter of the URL and its value (up to the next parameter)."""

_NESTED_SECRET = re.compile(r"(?P<key>(?:%3[Ff]|%26)(?:token|code)%3[Dd])(?:[^&\s\"#%]|%(?!26|23)[0-9A-Fa-f]{2})*")
"""The same, percent-encoded inside another parameter (``next=%2Fgames%3Ftoken%3D…%26lang%3Dkk``)."""

_JOIN_PATH = re.compile(r"(?P<key>/j/)[^/?\s\"#]+")
"""A team's join link carries its code in the path."""

LOGGERS = ("uvicorn.access", "uvicorn.error")
"""Where paths are written: uvicorn's request lines and its socket lines (the app's own loggers write no path)."""


def redacted(text: str) -> str:
    """``text`` with every player's token and team code replaced by :data:`REDACTED`.

    >>> redacted('127.0.0.1:5 - "GET /games/g-1?token=abc&lang=kk HTTP/1.1" 200')
    '127.0.0.1:5 - "GET /games/g-1?token=[redacted]&lang=kk HTTP/1.1" 200'
    >>> redacted("/login?next=/games/g-1%3Ftoken%3Dabc%26x%3D1 /j/ABCD12 /join?code=QW-12")
    '/login?next=/games/g-1%3Ftoken%3D[redacted]%26x%3D1 /j/[redacted] /join?code=[redacted]'
    """
    text = _NESTED_SECRET.sub(lambda m: m.group("key") + REDACTED, text)
    text = _SECRET_QUERY.sub(lambda m: m.group("key") + REDACTED, text)
    return _JOIN_PATH.sub(lambda m: m.group("key") + REDACTED, text)


def _clean(value: object) -> object:
    return redacted(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and its string arguments (it never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(value) for key, value in record.args.items()}
        return True


_FILTER = RedactSecrets()


def install() -> None:
    """Put the one filter on :data:`LOGGERS` (once each, however often the app starts)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
