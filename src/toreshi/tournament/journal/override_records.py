"""The arbiter's overrides as the TRF carries them (issue 29: every override travels with the tournament).

One comment line (``###``: TRF readers skip it, :func:`toreshi.tournament.trf.parse_trf` keeps it as text, the
pairing checker ignores it) per decision of the arbiter that the regulation allows and an auditor must see, from
the journal, in the order of the rounds they concern, each with its warning level (journal/departures) in
brackets and the reason, e.g.::

    ### round 2: pairing changed, breaks C12, C13 [warning]: TV
    ### round 2: bye given to 4. Бек, not 6. Нур [serious]: travel
    ### round 2 board 1: result corrected from 1-0 to 0-1 [warning]: the scoresheet
    ### round 3 board 2: forfeit +- entered [warning]: did not come
    ### round 3 board 1: clock of 2. Асан corrected by +2:00 [warning]: clock fault
    ### round 3: 5. Абай withdrawn after round 2 [info]: ill
    ### round 4: 9. Бек late entry, paired from round 4 [warning]: delayed flight

In English words and the TRF's result letters (a file for the rating office, not a page). Without the arbiter's
login: the export is public and a login is half of what opens the arbiter's account (the audit page shows it
only to a signed-in arbiter); the file's ``102``/``112`` records name the arbiters. A line of a log written before
departures were recorded has no level.
"""

from __future__ import annotations

from dataclasses import dataclass

from toreshi.kit.refusal import ParamValue
from toreshi.tournament.journal.state import AuditLine, ResultSource, TournamentState
from toreshi.tournament.model import GameResult

_TRF_RESULT = {
    GameResult.WHITE_WINS: "1-0",
    GameResult.BLACK_WINS: "0-1",
    GameResult.DRAW: "1/2-1/2",
    GameResult.WHITE_FORFEIT_WIN: "+-",
    GameResult.BLACK_FORFEIT_WIN: "-+",
    GameResult.DOUBLE_FORFEIT: "--",
}
_LEVEL_PREFIX = "level."


def _result(value: ParamValue) -> str:
    try:
        return _TRF_RESULT[GameResult(value)]
    except ValueError:
        return str(value)


def _int(value: ParamValue | None) -> int:
    return value if isinstance(value, int) else 0


@dataclass(frozen=True)
class Override:
    """One override in effect: the round it concerns, its words in the TRF, the audit line that records it."""

    round: int
    text: str
    line: AuditLine | None
    """None for a late entry a log recorded no departure for (written before departures were)."""


def _words(line: AuditLine) -> tuple[int, str] | None:
    """The override an audit line records (without its level and reason), with the round it concerns; None for
    an ordinary step."""
    p = dict(line.params)
    rnd = _int(p.get("round"))
    board = f"round {rnd} board {p.get('board')}"
    match line.action:
        case "pairing_overridden":
            criteria = f", breaks {p['criteria']}" if p.get("criteria") else ""
            return rnd, f"round {rnd}: pairing changed{criteria}"
        case "result_corrected":
            return rnd, f"{board}: result corrected from {_result(p['previous'])} to {_result(p['result'])}"
        case "result_entered" if p.get("source_term") == f"result.{ResultSource.ARBITER.value}":
            result = _result(p["result"])
            return (rnd, f"{board}: forfeit {result} entered") if result in ("+-", "-+", "--") else None
        case "participant_withdrawn" | "participant_expelled":
            verb = "withdrawn" if line.action == "participant_withdrawn" else "expelled"
            return rnd + 1, f"round {rnd + 1}: {p['player']} {verb} after round {rnd}"
        case "participant_readmitted":
            return rnd, f"round {rnd}: {p['player']} readmitted (withdrawal rule set aside)"
        case "warning_issued" if p.get("penalty"):
            return rnd, f"round {rnd}: {p['player']} penalised, {p['penalty']}"
        case "clock_corrected":
            return rnd, f"{board}: clock of {p['player']} corrected by {p['change']}"
    return None


def _annotated(words: str, line: AuditLine, departure: AuditLine | None) -> str:
    level = str(departure.params.get("level_term", "")).removeprefix(_LEVEL_PREFIX) if departure else ""
    reason = line.params.get("reason") or (departure.params.get("reason") if departure else None)
    return words + (f" [{level}]" if level else "") + (f": {reason}" if reason else "")


def overrides(state: TournamentState) -> list[Override]:
    """Every override in effect, by round (then in the order they were made): the changes of a pairing that was
    kept (not discarded), the bye it forced, and every other override of the journal."""
    found: list[Override] = []
    pending: list[Override] = []  # the draft's changes: kept once it is published, gone if it is discarded
    departure: AuditLine | None = None  # the departure recorded just before an action's own line
    late: dict[str, AuditLine] = {}
    t = state.tournament
    for line in state.audit:
        if line.action == "departure_recorded":
            departure = line
            continue
        late_entry = departure is not None and departure.params.get("departure_term") == "departure.late_entry"
        if line.action == "participant_added" and departure is not None and late_entry:
            late[str(line.params.get("player", ""))] = departure  # by the entrant's label, as added
        words = _words(line)
        if line.action == "pairing_overridden" and words is not None:
            pending.append(Override(words[0], _annotated(words[1], line, departure), line))
            if departure is not None and departure.params.get("departure_term") == "departure.forced_bye":
                bye = f"round {words[0]}: bye given to {departure.params.get('player')} by the arbiter"
                pending.append(Override(words[0], _annotated(bye, line, departure), None))  # the report: above
        elif line.action == "pairing_discarded":
            pending.clear()
        elif line.action == "round_published":
            found += pending
            pending.clear()
        elif words is not None:
            found.append(Override(words[0], _annotated(words[1], line, departure), line))
        departure = None
    if t is not None:
        for number, first in sorted(t.entered_round.items()):
            if first > 1:
                label = t.label(number)
                recorded = late.get(label)
                entry = f"round {first}: {label} late entry, paired from round {first}"
                text = _annotated(entry, recorded, recorded) if recorded is not None else entry
                found.append(Override(first, text, recorded))
    found.sort(key=lambda item: item.round)  # stable: within a round, the journal's order
    return found


def override_comments(state: TournamentState) -> list[str]:
    """The ``###`` lines of every override the journal records, by round (then in the order they were made)."""
    return ["### " + " ".join(override.text.splitlines()) for override in overrides(state)]


def override_audit(state: TournamentState) -> list[AuditLine]:
    """The audit lines of the overrides in effect, for the printed report (worded by the page)."""
    return [override.line for override in overrides(state) if override.line is not None]
