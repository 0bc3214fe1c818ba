"""What a 404 says is missing, by the path's prefix: a tournament, a team tournament, a quiz tour or game, a game."""

from __future__ import annotations

from toreshi.texts.i18n import N_

NO_SUCH_PAGE = N_("There is no such page here. Check the link.")

MISSING: tuple[tuple[str, str], ...] = (
    # The longest prefix first: /quiz/tours/ is a quiz tour, /quiz/ a quiz game.
    ("/quiz/tours/", N_("There is no such quiz tour here. Check the link, or pick a tour from the list.")),
    ("/quiz/teams/", N_("There is no such quiz team here. Check the link, or pick a team from the list.")),
    ("/quiz/", N_("There is no such quiz game here. Check the link, or pick a game from the list.")),
    ("/tournaments/", N_("There is no such tournament here. Check the link, or pick a tournament from the list.")),
    ("/teams/", N_("There is no such team tournament here. Check the link, or pick one from the list.")),
    ("/games/", N_("There is no such game here. Check the link, or pick a game from the list.")),
)
"""What a page under each prefix is about, so that its 404 says which kind of thing is missing."""


def missing_message(path: str) -> str:
    """The English msgid saying what is missing at ``path`` (translate it with ``gettext``).

    >>> missing_message("/tournaments/t-1/standings")
    'There is no such tournament here. Check the link, or pick a tournament from the list.'
    >>> missing_message("/nowhere")
    'There is no such page here. Check the link.'
    """
    for prefix, message in MISSING:
        if path.startswith(prefix):
            return message
    return NO_SUCH_PAGE
