"""Messages of the refusals that every room and form can give (:class:`toreshi.kit.refusal.Common`)."""

from __future__ import annotations

from toreshi.kit.refusal import Common, RefusalCode
from toreshi.texts.i18n import N_

MESSAGES: dict[RefusalCode, str] = {
    Common.BAD_REQUEST: N_("The request was not understood."),
    Common.UNKNOWN_COMMAND: N_("This room has no such command."),
    Common.FORBIDDEN: N_("You may not do this here."),
    Common.NOT_NOW: N_("This cannot be done now."),
    Common.RATE_LIMITED: N_("Too many requests at once; wait a moment."),
    Common.MOVED: N_("The room moved to another server; look at the board before you try again."),
    Common.FIELD_REQUIRED: N_("%(field)s: this field is required."),
    Common.FIELD_NOT_INTEGER: N_("%(field)s: enter a whole number."),
    Common.FIELD_NOT_NUMBER: N_("%(field)s: enter a number."),
    Common.FIELD_NOT_BOOLEAN: N_("%(field)s: answer yes or no."),
    Common.FIELD_NOT_TEXT: N_("%(field)s: enter a text."),
    Common.FIELD_NOT_LIST: N_("%(field)s: a list is expected."),
    Common.FIELD_TOO_SMALL: N_("%(field)s: at least %(minimum)s."),
    Common.FIELD_TOO_LARGE: N_("%(field)s: not more than %(maximum)s."),
    Common.FIELD_TOO_LONG: N_("%(field)s: at most %(maximum)s characters."),
    Common.FIELD_EMPTY: N_("%(field)s: must not be empty."),
    Common.FIELD_CONTROL_CHARACTERS: N_("%(field)s: line breaks and control characters are not allowed."),
    Common.FIELD_NOT_CHOICE: N_("%(field)s: choose one of the offered values."),
}

TERMS: dict[str, str] = {
    "name": N_("Name"),
    "hole": N_("Hole"),
}
