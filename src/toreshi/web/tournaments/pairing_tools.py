"""The tournament pages' pairing tools (issue 17 §1, §3): the settings of the tie-break rules, the acceleration and
the late entrants' missed rounds; forbidden pairings; re-entries; the review of a changed pairing; the note of the
tie-break rules on the standings, the print view and the CSV.

The forms become typed commands here (:data:`ACTIONS`, merged into the pages' own), as in
:mod:`toreshi.web.tournaments.pages`; the words are the catalogues' (area ``tournament``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.texts import refusals
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.journal import TournamentCommand, TournamentState
from toreshi.tournament.journal.commands import (
    AllowPair,
    ByeKind,
    ForbidPair,
    ForbidSameClub,
    ImportForbidden,
    Readmit,
    Setting,
)
from toreshi.tournament.journal.pairing import violation_refusals
from toreshi.tournament.journal.pairing_tools import pairs_of_clubs
from toreshi.tournament.journal.state import Acceleration
from toreshi.tournament.model import Tournament
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.web.common.forms import Form
from toreshi.web.common.forms import optional_int as _int
from toreshi.web.common.forms import required_int as _number
from toreshi.web.common.forms import text as _text

AUTO = "auto"
"""The tie-break rules' choice "by the start date"."""
MAX_TRF_BYTES = 512 * 1024
"""What the pages read of an upload (:data:`toreshi.web.tournaments.pages.MAX_CSV_BYTES`)."""


# --- settings -------------------------------------------------------------------------------------------------


def settings_of(form: Form, values: dict[str, Any]) -> list[Setting]:
    """The form's tie-break rules, acceleration and late entrants' score into ``values``; the settings to clear."""
    cleared = []
    if "tiebreak_rules" in form:
        text = _text(form, "tiebreak_rules")
        if text in ("", AUTO):
            cleared.append(Setting.TIEBREAK_RULES)
        else:
            values["tiebreak_rules"] = payload.read_choice({"tiebreak_rules": text}, "tiebreak_rules", TieBreakRules)
    if _text(form, "acceleration"):
        values["acceleration"] = payload.read_choice(form, "acceleration", Acceleration)
    if _text(form, "late_entry_missed"):
        values["late_entry_missed"] = payload.read_choice(form, "late_entry_missed", ByeKind)
    return cleared


def rules_choices() -> list[tuple[str, str]]:
    """The tie-break rules a form offers: by the start date, or either version."""
    return [
        (AUTO, _("In force on the start date")),
        (TieBreakRules.C07_2024.value, rules_title(TieBreakRules.C07_2024)),
        (TieBreakRules.C07_2026.value, rules_title(TieBreakRules.C07_2026)),
    ]


def acceleration_names() -> dict[str, str]:
    return {
        Acceleration.NONE.value: _("No acceleration"),
        Acceleration.BAKU.value: _("Baku acceleration (FIDE C.04.5.1)"),
    }


def rules_title(rules: TieBreakRules) -> str:
    """``FIDE C.07 in force from 2026-03-01`` in the reader's language."""
    return _("FIDE C.07 in force from %(date)s") % {"date": rules.effective.isoformat()}


def rules_note(tournament: Tournament, rules: TieBreakRules) -> str:
    """Which rules the tie-breaks were computed by, and why: the setting, or the start date."""
    title = rules_title(rules)
    if tournament.tiebreak_rules is not None:
        return _("Tie-breaks: %(rules)s (chosen in the settings).") % {"rules": title}
    if tournament.start is None:
        return _("Tie-breaks: %(rules)s (no start date: the newest rules).") % {"rules": title}
    return _("Tie-breaks: %(rules)s (in force on the start date, %(start)s).") % {
        "rules": title,
        "start": tournament.start.isoformat(),
    }


# --- forbidden pairings and re-entries ------------------------------------------------------------------------


def new_club_pairs(state: TournamentState) -> int:
    """How many pairs of one club are not forbidden yet (the "same club" button says it)."""
    return sum(1 for pair in pairs_of_clubs(state.t.participants) if state.forbidden_pair(*pair) is None)


def _import(form: Form) -> ImportForbidden:
    text = _text(form, "trf")
    upload = form.get("file", b"")
    if upload is None:
        raise Refused(Common.FIELD_TOO_LARGE, field="trf", maximum=MAX_TRF_BYTES)
    if isinstance(upload, bytes) and upload:
        text = upload.decode("utf-8-sig", errors="replace")
    return ImportForbidden(trf=text, reason=_text(form, "reason"))


ACTIONS: dict[str, tuple[Callable[[Form], TournamentCommand], str]] = {
    "readmit": (lambda f: Readmit(number=_number(f, "number"), round=_int(f, "round"), reason=_text(f, "reason")),
                ""),
    "forbid": (lambda f: ForbidPair(first=_number(f, "first"), second=_number(f, "second"),
                                    reason=_text(f, "reason")), "/forbidden"),
    "forbid-club": (lambda f: ForbidSameClub(reason=_text(f, "reason")), "/forbidden"),
    "import-forbidden": (_import, "/forbidden"),
    "allow": (lambda f: AllowPair(first=_number(f, "first"), second=_number(f, "second")), "/forbidden"),
}  # fmt: skip


# --- a changed pairing ----------------------------------------------------------------------------------------


def review_of(refusal: Refusal, form: Form) -> dict[str, Any]:
    """What the round page shows to confirm a changed pairing: why it was stopped, each criterion it breaks, and
    the change as typed (to send again with the confirmation)."""
    return {
        "message": refusals.render(refusal),
        "criteria": [refusals.render(detail) for detail in refusal.details],
        "pairs": _text(form, "pairs"),
        "bye": _text(form, "bye"),
        "reason": _text(form, "reason"),
    }


# --- the pairing checker's verdict on a round -----------------------------------------------------------------


def pairing_verdict(state: TournamentState, number: int) -> dict[str, Any] | None:
    """What the round page says of the checker's verdict on round ``number`` (None: a round robin): whether the
    Dutch engine pairs it the same, else each criterion the round's pairing breaks, worded."""
    from toreshi.tournament.journal.verdict import round_check  # the engine is large; only a Swiss needs it

    check = round_check(state, number)
    if check is None:
        return None
    return {
        "agrees": check.agrees,
        "no_pairing": check.engine is None,
        "criteria": [refusals.render(r) for r in violation_refusals(state.t, check.violations)],
    }
