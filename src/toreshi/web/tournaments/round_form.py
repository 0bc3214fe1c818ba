"""The arbiter's round page as one form (issue 28): every board's result, kazans and (for a correction) reason in
one form with one submit, usable on a 390 px phone.

The posted form is read once (:meth:`ResultsForm.read`): per board ``result_<b>``, ``kazan_white_<b>``,
``kazan_black_<b>`` and ``reason_<b>``. Every board that changes becomes an ``enter_result`` command, and all of them
are decided first against the tournament as it is, one after the other, by the pure journal (nothing written): when
any board is refused, nothing is saved and the page comes back with everything typed kept and each problem naming
its board and its field. A board left as it is sends nothing, so the same form sent twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from toreshi.kit.core import Actor, Context, fold
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.texts import refusals
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import TournamentState, decide, evolve
from toreshi.tournament.journal.check_in import Agreement, BoardReports, Report, board_reports, to_confirm
from toreshi.tournament.journal.commands import ARBITER, EnterResult
from toreshi.web.common.forms import Form
from toreshi.web.common.forms import text as _text

FIELDS = ("result", "kazan_white", "kazan_black", "reason")
_KAZAN_CODES = (TournamentCode.KAZANS_CONTRADICT_RESULT, TournamentCode.IMPOSSIBLE_KAZANS,
                TournamentCode.FORFEIT_HAS_NO_KAZANS)  # fmt: skip


@dataclass
class BoardProblem:
    board: int
    field: str
    """The form field it is about (``result``, ``kazan_white``, ``kazan_black``, ``reason``)."""
    message: str


@dataclass
class ResultsForm:
    """The round form's values by board and field (what the page shows) and its problems."""

    values: dict[int, dict[str, str]]
    problems: list[BoardProblem] = field(default_factory=list)
    confirmed: bool = False
    """The arbiter confirmed the warnings of departures from the regulation (a forfeit typed by hand)."""
    unconfirmed: bool = False
    """A board departs from the regulation and waits for that confirmation: the page shows the box."""
    level: str = ""
    """The highest warning level among the boards waiting for it (``warning``, ``serious``), shown by the box."""

    @classmethod
    def of(cls, state: TournamentState, number: int) -> ResultsForm:
        """The form as the tournament has it: each board's recorded result and kazans."""
        values = {}
        for game in state.t.round(number).games:
            kazans = game.kazans or ("", "")
            values[game.board] = {"result": game.result.value if game.result else "", "kazan_white": str(kazans[0]),
                                  "kazan_black": str(kazans[1]), "reason": ""}  # fmt: skip
        return cls(values)

    @classmethod
    def read(cls, state: TournamentState, number: int, form: Form) -> ResultsForm:
        """The posted values, for every board of the round (an absent field is empty)."""
        values = {}
        for game in state.t.round(number).games:
            values[game.board] = {name: _text(form, f"{name}_{game.board}")[:500] for name in FIELDS}
        return cls(values, confirmed=_text(form, "confirmed") == "yes")

    def value(self, board: int, name: str) -> str:
        return self.values.get(board, {}).get(name, "")

    def problem(self, board: int, name: str) -> str:
        return next((p.message for p in self.problems if p.board == board and p.field == name), "")

    def add(self, board: int, name: str, refusal: Refusal) -> None:
        if refusal.code in (TournamentCode.DEPARTURE_UNCONFIRMED, TournamentCode.DEPARTURE_NEEDS_REASON):
            self.unconfirmed = True  # the box is shown again with the reasons, until both are given
            level = str(refusal.params.get("level", ""))
            self.level = "serious" if "serious" in (level, self.level) else level or self.level
        problem = _("Board %(board)s: %(problem)s") % {"board": board, "problem": refusals.render(refusal)}
        self.problems.append(BoardProblem(board, name, problem))

    def commands(self, state: TournamentState, number: int) -> list[EnterResult]:
        """The boards that change, as commands; the problems of reading them are kept in :attr:`problems`."""
        found = []
        for game in state.t.round(number).games:
            board = game.board
            typed = self.values[board]
            kazans: list[int | None] = []
            for side in ("kazan_white", "kazan_black"):
                text = typed[side]
                if not text:
                    kazans.append(None)
                elif text.isascii() and text.isdigit() and len(text) <= 3:
                    kazans.append(int(text))
                else:
                    self.add(board, side, Refusal(Common.FIELD_NOT_NUMBER, {"field": side}))
                    kazans.append(None)
            if any(p.board == board for p in self.problems):
                continue
            white, black = kazans
            if (white is None) != (black is None):
                side = "kazan_white" if white is None else "kazan_black"
                self.add(board, side, Refusal(Common.FIELD_REQUIRED, {"field": side}))
                continue
            pair = (white, black) if white is not None and black is not None else None
            if not typed["result"]:
                if pair is not None or typed["reason"]:
                    self.add(board, "result", Refusal(Common.FIELD_REQUIRED, {"field": "result"}))
                continue  # nothing chosen: the board stays as it is
            if game.result is not None and typed["result"] == game.result.value and pair == game.kazans:
                continue  # unchanged
            found.append(EnterResult(round=number, board=board, result=typed["result"], kazans=pair,
                                     reason=typed["reason"], confirmed=self.confirmed))  # fmt: skip
        return found

    def check(self, state: TournamentState, commands: list[EnterResult], by: str, at: datetime) -> None:
        """Decide every command in turn against the tournament (nothing written); each refusal becomes a problem
        naming its board and field."""
        context = Context(Actor(ARBITER, by), now_ms=0, meta={"at": at})
        running = state
        for command in commands:
            decision = decide(running, command, context)
            if isinstance(decision, Refusal):
                self.add(command.board, _field_of(decision), decision)
                if decision.code is TournamentCode.DEPARTURE_UNCONFIRMED and not command.reason.strip():
                    # Both are asked at once: the box and the board's reason (a departure's level asks both).
                    self.add(command.board, "reason", Refusal(TournamentCode.DEPARTURE_NEEDS_REASON, decision.params))
                continue
            running = fold(evolve, running, decision)


def _field_of(refusal: Refusal) -> str:
    named = refusal.params.get("field")
    if refusal.code is TournamentCode.DEPARTURE_NEEDS_REASON:
        return "reason"  # a correction (a departure from the regulation) says why
    if refusal.code in _KAZAN_CODES or named == "kazans":
        return "kazan_white"
    return str(named) if named in FIELDS else "result"


def reports_of(state: TournamentState, number: int) -> dict[int, BoardReports]:
    """The players' reports of the round's boards that have any."""
    return {
        g.board: reports for g in state.t.round(number).games
        if (reports := board_reports(state, number, g.board)).agreement is not Agreement.NONE
    }  # fmt: skip


def confirmable(state: TournamentState, number: int) -> list[int]:
    """The boards whose players agree and that wait for the arbiter's confirmation."""
    return [board for board, _result, _at in to_confirm(state, number)]


def given_text(report: Report | None) -> str:
    """What one player gave: ``1-0``, with the kazans (White's:Black's) when given: ``1-0 (90:50)``; ``…`` none."""
    if report is None:
        return "…"
    kazans = f" ({report.kazans[0]}:{report.kazans[1]})" if report.kazans is not None else ""
    return f"{report.result.value}{kazans}"


def agreement_text(reports: BoardReports) -> str:
    """Where the players' results of a board stand, in the reader's language."""
    if reports.only_kazans_differ:
        return _("the players give the same result but different kazans: decide the result")
    texts: dict[Agreement, Any] = {
        Agreement.ONE: _("one player has given the result"),
        Agreement.AGREED: _("both players agree: waits for your confirmation"),
        Agreement.DISAGREED: _("the players disagree: decide the result"),
    }
    return str(texts.get(reports.agreement, ""))


def refused_problem(form: ResultsForm, why: Refused, board: int) -> None:
    """A refusal met while saving (the tournament changed meanwhile) kept as a problem of its board."""
    form.add(board, _field_of(why.refusal), why.refusal)
