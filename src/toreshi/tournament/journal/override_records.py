"""The arbiter's overrides as the TRF carries them (issue 29: every override travels with the tournament).

One comment line (``###``: TRF readers skip it, :func:`toreshi.tournament.trf.parse_trf` keeps it as text, the
pairing checker ignores it) per decision of the arbiter that the regulation allows and an auditor must see, from
the journal, in the order of the rounds they concern, e.g.::

    ### round 2: pairing changed, breaks C12, C13: TV
    ### round 2 board 1: result corrected from 1-0 to 0-1: the scoresheet
    ### round 3 board 2: forfeit +- entered
    ### round 3: 5. Абай withdrawn after round 2: ill
    ### round 4: 9. Бек late entry, paired from round 4

In English words and the TRF's result letters (a file for the rating office, not a page). Without the arbiter's
login: the export is public and a login is half of what opens the arbiter's account (the audit page shows it
only to a signed-in arbiter); the file's ``102``/``112`` records name the arbiters. A clock correction is
not here: it lives in the game room's own journal (and its PGN), not in the tournament's.
"""

from __future__ import annotations

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


def _result(value: ParamValue) -> str:
    try:
        return _TRF_RESULT[GameResult(value)]
    except ValueError:
        return str(value)


def _reason(params: dict[str, ParamValue]) -> str:
    reason = params.get("reason")
    return f": {reason}" if reason else ""


def _int(value: ParamValue | None) -> int:
    return value if isinstance(value, int) else 0


def _from_audit(line: AuditLine) -> tuple[int, str] | None:
    """The override an audit line records, with the round it concerns; None for an ordinary step."""
    p = dict(line.params)
    rnd = _int(p.get("round"))
    board = f"round {rnd} board {p.get('board')}"
    match line.action:
        case "result_corrected":
            return rnd, (f"{board}: result corrected from {_result(p['previous'])} to "
                         f"{_result(p['result'])}{_reason(p)}")  # fmt: skip
        case "result_entered" if p.get("source_term") == f"result.{ResultSource.ARBITER.value}":
            result = _result(p["result"])
            return (rnd, f"{board}: forfeit {result} entered") if result in ("+-", "-+", "--") else None
        case "participant_withdrawn" | "participant_expelled":
            verb = "withdrawn" if line.action == "participant_withdrawn" else "expelled"
            return rnd + 1, f"round {rnd + 1}: {p['player']} {verb} after round {rnd}{_reason(p)}"
        case "participant_readmitted":
            return rnd, f"round {rnd}: {p['player']} readmitted"
        case "warning_issued" if p.get("penalty"):
            return rnd, f"round {rnd}: {p['player']} penalised, {p['penalty']}{_reason(p)}"
    return None


def override_comments(state: TournamentState) -> list[str]:
    """The ``###`` lines of every override the journal records, by round (then in the order they were made)."""
    found: list[tuple[int, str]] = []
    for change in state.pairing_changes:
        broken = f", breaks {', '.join(change.criteria)}" if change.criteria else ""
        found.append((change.round, f"round {change.round}: pairing changed{broken}: {change.reason}"))
    for line in state.audit:
        override = _from_audit(line)
        if override is not None:
            found.append(override)
    t = state.tournament
    if t is not None:
        for number, first in sorted(t.entered_round.items()):
            if first > 1:
                found.append((first, f"round {first}: {t.label(number)} late entry, paired from round {first}"))
    found.sort(key=lambda item: item[0])  # stable: within a round, the journal's order
    return ["### " + " ".join(text.splitlines()) for _, text in found]


def override_audit(state: TournamentState) -> list[AuditLine]:
    """The audit lines of the overrides in effect, for the printed report (worded by the page): the changes of
    a pairing that was kept (not discarded), and every other override :func:`override_comments` writes."""
    kept: list[AuditLine] = []
    pending: list[AuditLine] = []
    for line in state.audit:
        if line.action == "pairing_overridden":
            pending.append(line)
        elif line.action == "pairing_discarded":
            pending.clear()  # the draft and its changes are gone: nothing of them was played
        elif line.action == "round_published":
            kept += pending
            pending.clear()
        elif _from_audit(line) is not None:
            kept.append(line)
    return kept
