"""Why the JSON API refuses a request before any room sees it (messages in ``toreshi.web.refusals.togyz``)."""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode
from toreshi.refusal_codes import EVERY_CODE


class ApiCode(RefusalCode):
    SIGN_IN_REQUIRED = "sign_in_required"
    """Only a signed-in arbiter may do this."""
    CSRF_FAILED = "csrf_failed"
    """The ``X-CSRF-Token`` header is missing or wrong (``GET /api/session`` gives it)."""
    BODY_NOT_JSON = "body_not_json"
    """The body is not a JSON object."""
    UNKNOWN_TIME_CONTROL = "unknown_time_control"
    """``control`` names no preset (``presets`` lists them)."""
    NO_SUCH_ROOM = "no_such_room"


WEB_CODES = EVERY_CODE.including(ApiCode)
"""Every code a page may keep for the next page (a flash) and read back: the cores' and the API's."""
