"""The language a command's own refusals are written in: ``TORESHI_LANGUAGE``, else the ``LANG`` of the shell
(``kk``, ``ru``; anything else English). Only a command that has something to say reads the catalogues."""

from __future__ import annotations

import os

from toreshi.kit.refusal import Refusal


def cli_language() -> str:
    wanted = (os.environ.get("TORESHI_LANGUAGE") or os.environ.get("LANG") or "en")[:2].lower()
    return wanted if wanted in ("kk", "ru", "en") else "en"


def say(refusal: Refusal) -> str:
    """A refusal as one line in :func:`cli_language`."""
    from toreshi.texts import i18n
    from toreshi.texts.refusals import render

    i18n.activate(cli_language())
    return " ".join(render(refusal).split())


def said(msgid: str, **params: object) -> str:
    """A message of the catalogues (``%(name)s`` placeholders) as one line in :func:`cli_language`."""
    from toreshi.texts import i18n

    i18n.activate(cli_language())
    return " ".join((i18n.gettext(msgid) % params if params else i18n.gettext(msgid)).split())
