"""The tournament's words in the reader's language: systems, tie-breaks (and a legend of their codes), the
crosstable's columns, results' sources, protests' steps and fee states, the audit log's actions and particulars.

The cores keep codes and parameters (an audit line is an event type and its params, a protest's step an action and
its params); this module words them with the catalogues, as :mod:`toreshi.texts.refusals` words refusals.

>>> from toreshi.texts import i18n
>>> i18n.activate("ru")
>>> tiebreak_legend(["BH/C1", "DE"])
[('BH/C1', 'Бухгольц, без худших: 1'), ('DE', 'Личная встреча')]
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction

from toreshi.kit.refusal import ParamValue
from toreshi.texts import formatting, i18n
from toreshi.texts.i18n import N_
from toreshi.texts.i18n import gettext as _
from toreshi.texts.refusals import CLAUSE
from toreshi.texts.refusals import tournament as tournament_refusals
from toreshi.tournament.crosstable import Columns, Table
from toreshi.tournament.journal import AuditLine, ResultOrigin, ResultSource
from toreshi.tournament.journal.check_in import player_of_by
from toreshi.tournament.journal.state import ForbidSource
from toreshi.tournament.model import Leaving, ResultCode, TournamentSystem
from toreshi.tournament.protests import AuditEntry, FeeStatus, ProtestAction, ProtestStatus
from toreshi.tournament.tiebreaks import TieBreak, TieBreakCode, TieBreakError

# --- names ----------------------------------------------------------------------------------------------------


def system_names() -> dict[str, str]:
    return {
        TournamentSystem.SWISS.value: _("Swiss (Dutch)"),
        TournamentSystem.ROUND_ROBIN.value: _("Round robin"),
        TournamentSystem.DOUBLE_ROUND_ROBIN.value: _("Double round robin"),
    }


_TIEBREAKS: dict[str, str] = {
    TieBreakCode.DE.value: N_("Direct encounter"),
    TieBreakCode.BPTS.value: N_("Points scored as Black"),
    TieBreakCode.WIN.value: N_("Rounds won (played or not)"),
    TieBreakCode.WON.value: N_("Games won over the board"),
    TieBreakCode.BPG.value: N_("Games played as Black"),
    TieBreakCode.BWG.value: N_("Games won as Black"),
    TieBreakCode.SB.value: N_("Sonneborn–Berger"),
    TieBreakCode.BH.value: N_("Buchholz"),
    TieBreakCode.PS.value: N_("Progressive score"),
    TieBreakCode.KS.value: N_("Koya system"),
    TieBreakCode.ARO.value: N_("Average rating of the opponents"),
    TieBreakCode.TPR.value: N_("Tournament performance rating"),
    TieBreakCode.KUM.value: N_("Kumalaks captured"),
}


def tiebreak_name(text: str) -> str:
    """A tie-break's full name with its modifier (``BH/C1`` → "Buchholz, cut 1"), the code itself if unknown."""
    try:
        tiebreak = TieBreak.parse(text)
    except TieBreakError:
        return text
    msgid = _TIEBREAKS.get(tiebreak.code.value)
    if msgid is None:
        return text
    name = _(msgid)
    if tiebreak.cut_lowest and tiebreak.cut_lowest == tiebreak.cut_highest:
        return _("%(name)s, median %(n)s") % {"name": name, "n": tiebreak.cut_lowest}
    if tiebreak.cut_lowest:
        return _("%(name)s, without the %(n)s lowest") % {"name": name, "n": tiebreak.cut_lowest}
    if tiebreak.code is TieBreakCode.KS and tiebreak.koya_limit != 50:
        return _("%(name)s, opponents with %(n)s%% of the points or more") % {
            "name": name,
            "n": format(float(tiebreak.koya_limit), "g"),
        }
    return name


def tiebreak_legend(codes: Iterable[object]) -> list[tuple[str, str]]:
    """``(code, full name)`` for each tie-break of an order, to explain a table's short column headers."""
    return [(str(code), tiebreak_name(str(code))) for code in codes]


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every tie-break code and its name, for a form's hint."""
    return [(code.value, tiebreak_name(code.value)) for code in TieBreakCode]


def columns() -> Columns:
    """The crosstable's column headers in the current language."""
    return Columns(
        rank=_("Rank"),
        number=_("No"),
        name=_("Name"),
        rating=_("Rating"),
        points=_("Points"),
        round=_("R%(n)s") % {"n": "{n}"},
    )


def points(value: Fraction) -> str:
    """Points as the reader writes numbers: ``4,5`` in Kazakh and Russian, ``4.5`` in English."""
    shown: float | int = value.numerator if value.denominator == 1 else float(value)
    return formatting.format_number(shown, i18n.current_language())


def status_names() -> dict[str, str]:
    return {
        ProtestStatus.AWAITING_FEE.value: _("Awaiting the fee"),
        ProtestStatus.ACCEPTED.value: _("Accepted"),
        ProtestStatus.NOT_ACCEPTED.value: _("Not accepted"),
        ProtestStatus.ACCEPTED_NOT_CONSIDERED.value: _("Accepted, not considered"),
        ProtestStatus.NOT_CONSIDERED_UNPAID.value: _("Not considered: fee unpaid"),
        ProtestStatus.UNDER_CONSIDERATION.value: _("Under consideration"),
        ProtestStatus.DECIDED.value: _("Decided"),
        ProtestStatus.NOTIFIED.value: _("Decision notified"),
    }


def fee_names() -> dict[str, str]:
    return {
        FeeStatus.UNPAID.value: _("not paid"),
        FeeStatus.PAID.value: _("paid"),
        FeeStatus.REFUNDED.value: _("refunded"),
        FeeStatus.TRANSFERRED.value: _("to the arbiters' pay"),
    }


def result_origin(origin: ResultOrigin) -> str:
    """Who entered a result, when it was not the arbiter: "live game", "protest P1"."""
    if origin.source is ResultSource.LIVE:
        return _("live game")
    if origin.source is ResultSource.PROTEST:
        return _("protest %(id)s") % {"id": origin.protest}
    if origin.source is ResultSource.PLAYERS:
        return _("players")
    if origin.source is ResultSource.ABSENT:
        return _("not checked in")
    return ""


def bye_name(code: ResultCode) -> str:
    """A bye by its name and TRF letter: "Half-point bye (H)"."""
    names = {
        ResultCode.PAIRING_BYE: N_("Pairing-allocated bye"),
        ResultCode.HALF_BYE: N_("Half-point bye"),
        ResultCode.FULL_BYE: N_("Full-point bye"),
        ResultCode.ZERO_BYE: N_("Zero-point bye"),
    }
    return f"{_(names[code])} ({code.value})" if code in names else code.value


_CODES: tuple[tuple[str, str], ...] = (
    ("1", N_("won")),
    ("½", N_("drawn")),
    ("0", N_("lost")),
    ("+", N_("won by default (the opponent did not play)")),
    ("−", N_("lost by default (did not play)")),
    ("w", N_("played as White (бастаушы)")),
    ("b", N_("played as Black (қостаушы)")),
    ("U", N_("pairing-allocated bye")),
    ("H", N_("half-point bye")),
    ("F", N_("full-point bye")),
    ("Z", N_("zero-point bye: absent, withdrawn or not yet entered")),
    ("×", N_("the player's own square")),
    ("( )", N_("a game against a player whose results were annulled: shown, not counted")),
    ("=", N_("rank shared")),
)
"""The symbols of the crosstable's cells (:mod:`toreshi.tournament.crosstable`), explained."""


def table_codes(table: Table) -> list[tuple[str, str]]:
    """What the codes that appear in ``table``'s cells mean (only those it uses), in the reader's language."""
    cells = " ".join(cell for row in table.rows for cell in row[4:]) + " " + " ".join(row[0] for row in table.rows)
    used = []
    for code, msgid in _CODES:
        present = "(" in cells if code == "( )" else code in cells
        if code in ("w", "b"):
            present = any(code in c and any(ch.isdigit() for ch in c) for c in cells.split())  # "12b½"
        if present:
            used.append((code, _(msgid)))
    return used


def leaving_text(leaving: Leaving) -> str:
    """A withdrawal or an expulsion as the printed crosstable states it: when, and why."""
    after = {"n": leaving.after_round}
    if leaving.kind.value == "expelled":
        text = _("expelled after round %(n)s") % after
    else:
        text = _("withdrew after round %(n)s") % after
    why = leaving_reason(leaving)
    return f"{text}: {why}" if why else text


def forbid_source(source: ForbidSource) -> str:
    """Where a forbidden pairing came from: by hand, the same club, a TRF."""
    return _(_TERMS[f"forbidden.{source.value}"])


def leaving_reason(leaving: Leaving, clauses: bool = True) -> str:
    """Why a player left: the arbiter's words, or the rule that expelled them (its clause for the arbiter)."""
    if leaving.forfeit_losses is not None:
        if not clauses:
            return _("%(count)s games lost by default") % {"count": leaving.forfeit_losses}
        return _("%(count)s games lost by default (TK-R10)") % {"count": leaving.forfeit_losses}
    return leaving.reason


# --- parameters -----------------------------------------------------------------------------------------------

_TERMS: dict[str, str] = {
    "result.arbiter": N_("the arbiter"),
    "result.live": N_("live game"),
    "result.protest": N_("protest"),
    "pairing.berger": N_("Berger tables"),
    "pairing.dutch": N_("FIDE Dutch system"),
    "protest.upheld": N_("upheld"),
    "protest.rejected": N_("rejected"),
    "protest.representative": N_("team representative"),
    "protest.coach": N_("coach"),
    "protest.fee.refunded": N_("refunded"),
    "protest.fee.transferred": N_("to the arbiters' pay"),
    "forbidden.hand": N_("by hand"),
    "forbidden.club": N_("same club"),
    "forbidden.trf": N_("from a TRF"),
    "evaluation.shown": N_("shown to spectators"),
    "evaluation.off": N_("switched off"),
    "colour.white": N_("the top seed has White"),
    "colour.black": N_("the top seed has Black"),
    "result.players": N_("given by both players, confirmed by the arbiter"),
    "result.absent": N_("not checked in: lost by default"),
    "check_in.present": N_("checked in"),
    "check_in.out": N_("checked out"),
    "level.info": N_("for information"),
    "level.warning": N_("warning"),
    "level.serious": N_("serious"),
    **{key: msgid for key, msgid in tournament_refusals.TERMS.items() if key.startswith("departure.")},
}
_AMOUNTS = frozenset({"amount"})


def _values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    values = {}
    for key, value in params.items():
        if key.endswith("_term") and isinstance(value, str):
            values[key] = _(_TERMS[value]) if value in _TERMS else value
        elif key in _AMOUNTS and isinstance(value, int):
            values[key] = formatting.format_number(value, i18n.current_language())
        else:
            values[key] = str(value)
    return values


def term(identifier: str) -> str:
    """A word of the audit log (``level.warning``, ``departure.late_entry`` …) in the reader's language."""
    return _(_TERMS[identifier]) if identifier in _TERMS else identifier


def departures(audit: Iterable[AuditLine]) -> list[AuditLine]:
    """The audit lines that record a departure from the regulation (with its level and reason), oldest first."""
    return [line for line in audit if line.action == "departure_recorded"]


def departure_where(line: AuditLine) -> str:
    """A departure's kind and where it happened (round, board, player), in the reader's language."""
    parts = [term(str(line.params.get("departure_term", "")))]
    for key, msgid in _EXTRAS:
        if key in ("round", "board", "player") and key in line.params:
            parts.append(_worded(msgid, line.params))
    return "; ".join(parts)


def particulars(params: Mapping[str, ParamValue]) -> str:
    """The player, the round and the board among ``params``, worded (``player 2. Бекзат; round 1``)."""
    return "; ".join(_worded(msgid, params) for key, msgid in _EXTRAS if key in ("player", "round", "board")
                     and key in params)  # fmt: skip


def _worded(msgid: str, params: Mapping[str, ParamValue]) -> str:
    return _(msgid) % _values(params)


# --- the audit log --------------------------------------------------------------------------------------------

_ACTIONS: dict[str, tuple[str, str | None]] = {
    "tournament_created": (N_("Tournament created"), None),
    "tournament_configured": (N_("Settings changed"), None),
    "team_added": (N_("Team added"), N_("Team %(team)s")),
    "team_edited": (N_("Team changed"), N_("Team %(team)s")),
    "participant_added": (N_("Participant added"), N_("Participant %(player)s")),
    "participant_edited": (N_("Participant changed"), N_("Participant %(player)s")),
    "participants_imported": (N_("Participants imported from CSV"), N_("Participants: %(count)s")),
    "participants_renumbered": (N_("Numbered by rating"), N_("Participants: %(count)s")),
    "lots_drawn": (N_("Lots drawn"), N_("Seed %(seed)s: %(count)s participants; %(colour_term)s in round 1")),
    "participant_withdrawn": (N_("Withdrawn"), N_("%(player)s after round %(round)s")),
    "entry_deleted": (N_("Entry deleted"), N_("Participant %(player)s")),
    "participant_expelled": (N_("Expelled"), N_("%(player)s after round %(round)s")),
    "bye_requested": (N_("Bye requested"), N_("%(player)s, round %(round)s: bye %(code)s")),
    "round_paired": (N_("Round paired"), N_("Round %(round)s: %(pairs)s")),
    "pairing_overridden": (N_("Pairing overridden"), N_("Round %(round)s: %(pairs)s")),
    "pairing_discarded": (N_("Pairing discarded"), N_("Round %(round)s")),
    "round_published": (N_("Round published"), N_("Round %(round)s")),
    "game_room_linked": (N_("Game room linked"), N_("Round %(round)s, board %(board)s: room %(room)s")),
    "result_entered": (N_("Result entered"), N_("Round %(round)s, board %(board)s: %(result)s")),
    "result_corrected": (
        N_("Result corrected"),
        N_("Round %(round)s, board %(board)s: %(result)s (was %(previous)s)"),
    ),
    "warning_issued": (N_("Warning or penalty"), N_("%(player)s, reason: %(reason)s")),
    "evaluation_set": (N_("Evaluation bar for spectators"), N_("%(evaluation_term)s (delay: %(minutes)s min)")),
    "protest_filed": (N_("Protest filed"), N_("Protest %(protest)s: round %(round)s, board %(board)s, %(person)s")),
    "protest_fee_paid": (N_("Protest fee paid"), N_("Protest %(protest)s: %(amount)s")),
    "protest_convened": (N_("The board met"), N_("Protest %(protest)s")),
    "protest_decided": (N_("Protest decided"), N_("Protest %(protest)s: %(verdict_term)s")),
    "protest_notified": (N_("Decision notified"), N_("Protest %(protest)s")),
    "participant_readmitted": (N_("Re-entered"), N_("%(player)s from round %(round)s")),
    "pairs_forbidden": (N_("Pairings forbidden"), N_("Pairs: %(pairs)s (%(source_term)s)")),
    "pairs_allowed": (N_("Forbidden pairing lifted"), N_("Pairs: %(pairs)s")),
    "checked_in": (N_("Check-in"), N_("%(player)s, round %(round)s: %(presence_term)s")),
    "result_reported": (
        N_("Result given by a player"),
        N_("Round %(round)s, board %(board)s: %(player)s gave %(result)s"),
    ),
    "round_confirmed": (N_("Players' results confirmed"), N_("Round %(round)s, boards %(boards)s")),
    "departure_recorded": (N_("Departure from the regulation"), N_("%(departure_term)s; level: %(level_term)s")),
    "clock_corrected": (
        N_("Clock corrected in the game room"),
        N_("Round %(round)s, board %(board)s: %(player)s, %(change)s"),
    ),
}
_EXTRAS: tuple[tuple[str, str], ...] = (
    ("name", N_("name: %(name)s")),
    ("method_term", N_("pairing by %(method_term)s")),
    ("bye", N_("bye: %(bye)s")),
    ("kazans", N_("kazans %(kazans)s")),
    ("round", N_("round %(round)s")),
    ("board", N_("board %(board)s")),
    ("player", N_("player %(player)s")),
    ("penalty", N_("penalty: %(penalty)s")),
    ("result", N_("result corrected to %(result)s")),
    ("reason", N_("reason: %(reason)s")),
    ("criteria", N_("breaks the Dutch criteria %(criteria)s, confirmed by the arbiter")),
    ("absent", N_("absent, not checked in: %(absent)s")),
)
"""Particulars an event has only sometimes, added after its main one when it has them."""


def audit_action(line: AuditLine) -> str:
    known = _ACTIONS.get(line.action)
    return _(known[0]) if known is not None else line.action


def audit_by(line: AuditLine, teams: Collection[str] = (), *, signed_in: bool = False) -> str:
    """Who, as the audit log shows it: the game room when the service reported a result, a team (its link files
    protests, TK-P1) by its name, and otherwise the arbiter by the role, never by the login name they sign in
    with (a login is half of what opens the arbiter's account) — except to a signed-in arbiter, who reads
    which of the club's arbiters did it."""
    if not line.by:
        return _("live game")
    player = player_of_by(line.by)
    if player is not None:
        return _("Player %(number)s (own link)") % {"number": player}
    return line.by if line.by in teams else arbiter_shown(line.by, signed_in=signed_in)


def arbiter_shown(login: str, *, signed_in: bool) -> str:
    """An arbiter in a log: "Arbiter" in the reader's language; the login too for a signed-in arbiter."""
    return f"{_('Arbiter')} ({login})" if signed_in else _("Arbiter")


def audit_detail(line: AuditLine) -> str:
    """The line's particulars as one phrase: the main one of its action, then the optional ones it has."""
    known = _ACTIONS.get(line.action)
    main = known[1] if known is not None else None
    used = set(_placeholders(main)) if main else set()
    parts = [_worded(main, line.params)] if main else []
    for key, msgid in _EXTRAS:
        if key in line.params and key not in used:
            parts.append(_worded(msgid, line.params))
    if line.params.get("source_term") == "result.live":
        parts.append(_("from the game room"))
    return "; ".join(parts)


def _placeholders(msgid: str) -> list[str]:
    return [part.split(")s", 1)[0] for part in msgid.split("%(")[1:]]


# --- a protest's own journal ----------------------------------------------------------------------------------

_STEPS: dict[ProtestAction, str] = {
    ProtestAction.FILED: N_("Filed: round %(round)s, board %(board)s; as %(role_term)s"),
    ProtestAction.ACCEPTED_NOT_CONSIDERED: N_(
        "Accepted, not considered: the result was written and signed by both players (%(clause)s)"
    ),
    ProtestAction.AWAITING_FEE: N_("Awaiting the fee of %(amount)s %(currency)s"),
    ProtestAction.ACCEPTED: N_("Accepted: the fee of %(amount)s %(currency)s is paid"),
    ProtestAction.FEE_PAID: N_("Fee paid: %(amount)s %(currency)s"),
    ProtestAction.NOT_CONSIDERED: N_("Not considered: the fee was not paid (%(clause)s)"),
    ProtestAction.MEETING: N_("The board meets: %(board)s; appeals committee: %(committee)s"),
    ProtestAction.UPHELD: N_("Upheld by %(members)s; fee: %(fee_term)s"),
    ProtestAction.REJECTED: N_("Rejected by %(members)s; fee: %(fee_term)s"),
    ProtestAction.NOTIFIED: N_("The decision was told to %(recipient)s"),
}
_LATE = N_("Not accepted: filed %(minutes)s min after the end of the game; the limit is %(limit)s min (%(clause)s)")
_AFTER_PAIRING = N_("Not accepted: filed after the next round was paired (%(clause)s)")


_REASONS: dict[ProtestAction, str] = {
    ProtestAction.ACCEPTED_NOT_CONSIDERED: N_("the result was written and signed by both players (%(clause)s)"),
}
_LATE_REASON = N_("filed %(minutes)s min after the end of the game; the limit is %(limit)s min (%(clause)s)")
_AFTER_PAIRING_REASON = N_("filed after the next round was paired (%(clause)s)")


def _cited(msgid: str, params: Mapping[str, ParamValue], clauses: bool) -> str:
    """A message worded, without its `` (%(clause)s)`` when clause numbers are not for this reader."""
    text = _(msgid)
    if not clauses:
        text = CLAUSE.sub("", text)
    return text % _values(params)


def protest_reason(entry: AuditEntry, *, clauses: bool = True) -> str:
    """Why the desk closed a protest at once (not accepted, or accepted and not considered), as a clause."""
    if entry.action is ProtestAction.NOT_ACCEPTED:
        return _cited(_LATE_REASON if "minutes" in entry.params else _AFTER_PAIRING_REASON, entry.params, clauses)
    msgid = _REASONS.get(entry.action)
    return _cited(msgid, entry.params, clauses) if msgid is not None else ""


def protest_step(entry: AuditEntry, clauses: bool = True) -> str:
    """One step of a protest's journal, worded (without the clause numbers unless ``clauses``)."""
    if entry.action is ProtestAction.NOT_ACCEPTED:
        return _cited(_LATE if "minutes" in entry.params else _AFTER_PAIRING, entry.params, clauses)
    text = _cited(_STEPS[entry.action], entry.params, clauses)
    if "result" in entry.params:
        text += "; " + _worded(N_("result corrected to %(result)s"), entry.params)
    return text


def protest_actor(entry: AuditEntry, *, signed_in: bool = False) -> str:
    """Who took the step: a person (the filer, by the name they gave; the arbiter who took the fee, by the role:
    :func:`arbiter_shown`), the chief arbiters' board, or the regulation applied at once."""
    if entry.action is ProtestAction.FEE_PAID and entry.actor:
        return arbiter_shown(entry.actor, signed_in=signed_in)
    if entry.actor:
        return entry.actor
    return _("Chief arbiters' board") if entry.action.by_board else _("By the regulation")
