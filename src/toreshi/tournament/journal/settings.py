"""A tournament's settings: created, then configured; the system and the number of rounds only until round 1 is
paired, the first-round colour only until it is published."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from toreshi.clock.presets import PRESETS
from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.refusal import Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import Configure, Create, Setting
from toreshi.tournament.journal.events import Stamp, TournamentConfigured, TournamentCreated
from toreshi.tournament.journal.state import Acceleration, TournamentState
from toreshi.tournament.journal.values import FirstColour, date_of, points_of, tiebreak_order
from toreshi.tournament.lots import MAX_SEED_LENGTH, LotsError, check_seed
from toreshi.tournament.model import Colour, ResultCode, Scoring, Tournament, TournamentSystem

SettingsEvent = TournamentCreated | TournamentConfigured


def decide_settings(state: TournamentState, command: Create | Configure, stamp: Stamp) -> list[SettingsEvent]:
    creating = isinstance(command, Create)
    if creating and state.tournament is not None:
        raise Refused(Code.ALREADY_CREATED)
    cleared = set(command.cleared)
    for setting, text in ((Setting.START, command.start), (Setting.END, command.end)):
        if text is not None and not text.strip():
            cleared.add(setting)  # an empty date field: no date
    system = command.system or (TournamentSystem.SWISS if creating else None)
    rounds = command.rounds if command.rounds is not None or not creating else 0
    if creating and rounds == 0 and system is TournamentSystem.SWISS:
        raise Refused(Code.SWISS_NEEDS_ROUNDS)
    kind = TournamentCreated if creating else TournamentConfigured
    return [kind(
        at=stamp.at, by=stamp.by, name=command.name, system=system, rounds=rounds, venue=command.venue,
        time_control=command.time_control if command.control is None else None, control=command.control,
        currency=command.currency, chief_arbiter=command.chief_arbiter,
        start=date_of(command.start, "start") if command.start and command.start.strip() else None,
        end=date_of(command.end, "end") if command.end and command.end.strip() else None,
        tiebreaks=tiebreak_order(command.tiebreaks) if command.tiebreaks is not None else None,
        arbiters=command.arbiters, deputies=command.deputies, board=command.board, committee=command.committee,
        fee=command.fee,
        expel_after=command.expel_after, max_half_byes=command.max_half_byes,
        late_entry_until=command.late_entry_until, last_half_bye_round=command.last_half_bye_round,
        initial_colour=command.initial_colour,
        bye_points=points_of(command.bye_points, "bye_points") if command.bye_points else None,
        tiebreak_rules=command.tiebreak_rules, acceleration=command.acceleration,
        late_entry_missed=ResultCode(command.late_entry_missed.value) if command.late_entry_missed else None,
        lots_seed=_seed(command.lots_seed), language=command.language,
        check_in=command.check_in, report_kazans=command.report_kazans,
        clock_correction_over_s=command.clock_correction_over_s,
        cleared=tuple(setting for setting in Setting if setting in cleared),
    )]  # fmt: skip


def _seed(text: str | None) -> str | None:
    """The seed as published (stripped), or None when the form had none."""
    if text is None or not text.strip():
        return None
    try:
        return check_seed(text)
    except LotsError:
        raise Refused(Code.LOTS_BAD_SEED, maximum=MAX_SEED_LENGTH) from None


def _limit(event: SettingsEvent, setting: Setting, value: int | None, old: int | None) -> int | None:
    if setting in event.cleared:
        return None
    return value if value is not None else old


def apply_settings(state: TournamentState, event: SettingsEvent) -> TournamentState:
    old = state.tournament
    if isinstance(event, TournamentCreated) and old is not None:
        raise Refused(Code.ALREADY_CREATED)
    if isinstance(event, TournamentConfigured) and old is None:
        raise Refused(Code.NOT_CREATED)
    base = old or Tournament(name="?", system=TournamentSystem.SWISS, rounds_planned=1)
    paired = bool(old and (old.rounds or state.draft))
    system = event.system or base.system
    if paired and system is not base.system:
        raise Refused(Code.SYSTEM_FIXED)
    rounds = event.rounds if event.rounds is not None else base.rounds_planned
    if system.is_round_robin and rounds == 0:
        rounds = base.rounds_planned if old is not None else 1  # set from the entries when round 1 is paired
    if paired and rounds < len(base.rounds):
        raise Refused(Code.ROUNDS_BELOW_PLAYED, played=len(base.rounds), rounds=rounds)
    if paired and system.is_round_robin and rounds != base.rounds_planned:
        raise Refused(Code.ROUND_ROBIN_ROUNDS_FIXED)
    officials = base.officials
    if event.chief_arbiter is not None:
        officials = replace(officials, chief_arbiter=event.chief_arbiter or None)
    if event.arbiters is not None:
        officials = replace(officials, arbiters=event.arbiters)
    if event.deputies is not None:
        officials = replace(officials, deputy_chief_arbiters=event.deputies)
    if event.board is not None:
        officials = replace(officials, chief_arbiters_board=event.board)
    if event.committee is not None:
        officials = replace(officials, appeals_committee=event.committee)
    withdrawal = base.withdrawal_rules
    expel = _limit(event, Setting.EXPEL_AFTER, event.expel_after, withdrawal.expel_after_forfeit_losses)
    withdrawal = replace(withdrawal, expel_after_forfeit_losses=expel or None)  # 0: never
    byes = base.bye_rules
    byes = replace(
        byes,
        max_half_point_byes=_limit(event, Setting.MAX_HALF_BYES, event.max_half_byes, byes.max_half_point_byes),
        late_entry_until_round=_limit(
            event, Setting.LATE_ENTRY_UNTIL, event.late_entry_until, byes.late_entry_until_round
        ),
        last_round_for_half_point_bye=_limit(
            event, Setting.LAST_HALF_BYE_ROUND, event.last_half_bye_round, byes.last_round_for_half_point_bye
        ),
        late_entry_missed_round=event.late_entry_missed or byes.late_entry_missed_round,
    )
    rules = None if Setting.TIEBREAK_RULES in event.cleared else event.tiebreak_rules or base.tiebreak_rules
    scoring = base.scoring
    if old is None and system.is_round_robin:
        scoring = Scoring(pairing_bye=Fraction(0))  # sitting out a round-robin round scores nothing by default
    if event.bye_points is not None:
        scoring = replace(scoring, pairing_bye=event.bye_points)
    time_control, control = _time_control(event, base)
    tournament = replace(
        base,
        name=event.name or base.name,
        system=system,
        rounds_planned=rounds,
        start=None if Setting.START in event.cleared else event.start or base.start,
        end=None if Setting.END in event.cleared else event.end or base.end,
        venue=(event.venue or None) if event.venue is not None else base.venue,
        time_control=time_control,
        control=control,
        officials=officials,
        tiebreaks=event.tiebreaks if event.tiebreaks is not None else base.tiebreaks,
        withdrawal_rules=withdrawal,
        bye_rules=byes,
        scoring=scoring,
        tiebreak_rules=rules,
    )
    acceleration = _acceleration(state, event, system, paired)
    settings = state.protest_settings
    if event.fee is not None:
        settings = replace(settings, fee_amount=event.fee)
    if event.currency:
        settings = replace(settings, fee_currency=event.currency.upper())
    colour = state.initial_colour
    if event.initial_colour is not None:
        wanted = Colour.WHITE if event.initial_colour is FirstColour.WHITE else Colour.BLACK
        if paired and base.rounds and wanted is not colour:
            raise Refused(Code.COLOUR_FIXED)
        colour = wanted
    seed = state.lots_seed
    if event.lots_seed is not None and event.lots_seed != seed:
        if state.lots_drawn:
            raise Refused(Code.LOTS_SEED_FIXED)
        seed = event.lots_seed
    language = event.language.value if event.language is not None else state.language
    check_in = event.check_in if event.check_in is not None else state.check_in
    report_kazans = event.report_kazans if event.report_kazans is not None else state.report_kazans
    over = event.clock_correction_over_s
    return replace(
        state, tournament=tournament, protest_settings=settings, initial_colour=colour, acceleration=acceleration,
        lots_seed=seed, language=language, check_in=check_in, report_kazans=report_kazans,
        clock_correction_over_s=over if over is not None else state.clock_correction_over_s,
    )  # fmt: skip


def _time_control(event: SettingsEvent, base: Tournament) -> tuple[str | None, TimeControl | None]:
    """The preset's key (or a text an older log typed) and the control the rooms get: a custom control replaces the
    key; a preset's key reads as its control, so logs written before custom controls still give their rooms one."""
    if event.control is not None:
        return None, event.control
    if event.time_control is None:
        return base.time_control, base.control
    key = event.time_control or None
    return key, PRESETS.get(key or "")


def _acceleration(state: TournamentState, event: SettingsEvent, system: TournamentSystem, paired: bool) -> Acceleration:
    """The acceleration after ``event``: for a Swiss only, and fixed once round 1 is paired (C.04.5.1 sets the
    accelerated group before round 1)."""
    wanted = event.acceleration if event.acceleration is not None else state.acceleration
    if system.is_round_robin:
        if wanted is not Acceleration.NONE and event.acceleration is not None:
            raise Refused(Code.ACCELERATION_SWISS_ONLY)
        return Acceleration.NONE
    if paired and wanted is not state.acceleration:
        raise Refused(Code.ACCELERATION_FIXED)
    return wanted
