"""Teams and participants: entered, edited, renumbered by rating, withdrawn or expelled; requested byes; warnings.

Each command becomes its event here (``decide_*``) and each event changes the state here (``apply_*``); the model
(:class:`~toreshi.tournament.model.Tournament`) refuses, with a code, what its rules do not allow.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from toreshi.kit.refusal import Common, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import (
    AddParticipant,
    AddTeam,
    DeleteEntry,
    DrawLots,
    EditParticipant,
    EditTeam,
    Expel,
    ParticipantEntry,
    RequestBye,
    SeedByRating,
    Warn,
    Withdraw,
)
from toreshi.tournament.journal.events import (
    ByeRequested,
    EntryDeleted,
    LotsDrawn,
    ParticipantAdded,
    ParticipantEdited,
    ParticipantExpelled,
    ParticipantsRenumbered,
    ParticipantWithdrawn,
    Stamp,
    TeamAdded,
    TeamEdited,
    WarningIssued,
)
from toreshi.tournament.journal.state import PlayerWarning, TournamentState
from toreshi.tournament.journal.values import FirstColour, date_of
from toreshi.tournament.lots import Entrant, draw_order, initial_colour
from toreshi.tournament.model import Colour, Participant, ResultCode, Team, Tournament

SEXES = ("m", "w", "f")


def participant_of(entry: ParticipantEntry, number: int) -> Participant:
    """The participant a form or a CSV line describes, with pairing number ``number``."""
    sex = entry.sex.strip().lower()
    if sex and sex not in SEXES:
        raise Refused(Common.FIELD_NOT_CHOICE, field="sex", value=sex)
    return Participant(
        number,
        entry.name,
        rating=entry.rating,
        club=entry.club.strip() or None,
        team=entry.team.strip() or None,
        federation_id=entry.federation_id.strip() or None,
        federation=entry.federation.strip().upper() or None,
        title=entry.title.strip() or None,
        sex=sex or None,
        birth_date=date_of(entry.birth_date, "birth_date") if entry.birth_date.strip() else None,
    )


def next_number(tournament: Tournament) -> int:
    return max((p.number for p in tournament.participants), default=0) + 1


def seeding_order(tournament: Tournament) -> tuple[int, ...]:
    """Rating order for Swiss pairing numbers: rating down, then title, then name (FIDE C.04.2 practice)."""
    ranked = sorted(tournament.participants, key=lambda p: (-(p.rating or 0), p.title or "~", p.name.lower()))
    return tuple(p.number for p in ranked)


def refuse_while_paired(state: TournamentState) -> None:
    """No one enters while a round is paired and not published: the pairing would leave them out."""
    if state.draft is not None:
        raise Refused(Code.DRAFT_BLOCKS_ENTRIES, round=state.draft.round)


# --- teams ----------------------------------------------------------------------------------------------------


def decide_team(command: AddTeam | EditTeam, stamp: Stamp) -> list[TeamAdded | TeamEdited]:
    kind = TeamAdded if isinstance(command, AddTeam) else TeamEdited
    return [kind(at=stamp.at, by=stamp.by, name=command.name, representatives=command.representatives,
                 coaches=command.coaches)]  # fmt: skip


def apply_team(state: TournamentState, event: TeamAdded | TeamEdited) -> TournamentState:
    team = Team(event.name, event.representatives, event.coaches)
    if isinstance(event, TeamAdded):
        return replace(state, tournament=state.t.with_team(team))
    state.t.team(event.name)
    teams = tuple(team if t.name == event.name else t for t in state.t.teams)
    return replace(state, tournament=replace(state.t, teams=teams))


# --- participants ---------------------------------------------------------------------------------------------


def new_teams(state: TournamentState, teams: Iterable[str | None], stamp: Stamp) -> list[TeamAdded]:
    """The teams named (in a CSV's ``team`` column, on a participant's form) that the tournament has not yet, in
    the order they are first named: entering a player of a new team creates the team (its representatives and
    coaches are added to it afterwards), so that its protests can be filed."""
    known = {team.name for team in state.t.teams}
    added: list[TeamAdded] = []
    for name in teams:
        if name and name not in known:
            known.add(name)
            added.append(TeamAdded(at=stamp.at, by=stamp.by, name=name))
    return added


def decide_participant(
    state: TournamentState, command: AddParticipant | EditParticipant, stamp: Stamp
) -> list[TeamAdded | ParticipantAdded | ParticipantEdited]:
    teams = new_teams(state, [command.team.strip() or None], stamp)
    if isinstance(command, EditParticipant):
        edited = participant_of(command, command.number)
        return [*teams, ParticipantEdited(at=stamp.at, by=stamp.by, **edited.details())]
    added = participant_of(command, next_number(state.t))
    return [*teams, ParticipantAdded(at=stamp.at, by=stamp.by, **added.details())]


def apply_added(state: TournamentState, event: ParticipantAdded) -> TournamentState:
    refuse_while_paired(state)
    return replace(state, tournament=state.t.with_participant(event.participant()))


def apply_edited(state: TournamentState, event: ParticipantEdited) -> TournamentState:
    tournament, updated = state.t, event.participant()
    tournament.participant(updated.number)
    if updated.team is not None and tournament.teams and updated.team not in {t.name for t in tournament.teams}:
        raise Refused(Code.PLAYER_TEAM_UNKNOWN, player=updated.name, team=updated.team)
    people = tuple(updated if p.number == updated.number else p for p in tournament.participants)
    return replace(state, tournament=replace(tournament, participants=people))


def decide_seeding(state: TournamentState, command: SeedByRating, stamp: Stamp) -> list[ParticipantsRenumbered]:
    return [ParticipantsRenumbered(at=stamp.at, by=stamp.by, order=seeding_order(state.t))]


def lots_order(tournament: Tournament, seed: str) -> tuple[int, ...]:
    """The pairing numbers in the order the lots give them (:func:`toreshi.tournament.lots.draw_order`)."""
    people = [Entrant(p.name, p.rating, p.title or "") for p in tournament.participants]
    numbers = {id(e): p.number for e, p in zip(people, tournament.participants, strict=True)}
    drawn = draw_order(seed, people, round_robin=tournament.system.is_round_robin)
    return tuple(numbers[id(e)] for e in drawn)


def decide_lots(state: TournamentState, command: DrawLots, stamp: Stamp) -> list[LotsDrawn]:
    if state.lots_seed is None:
        raise Refused(Code.LOTS_NO_SEED)
    if len(state.t.participants) < 2:
        raise Refused(Code.LOTS_TOO_FEW)
    colour = FirstColour.WHITE if initial_colour(state.lots_seed) is Colour.WHITE else FirstColour.BLACK
    order = lots_order(state.t, state.lots_seed)
    return [LotsDrawn(at=stamp.at, by=stamp.by, seed=state.lots_seed, order=order, initial_colour=colour)]


def apply_lots(state: TournamentState, event: LotsDrawn) -> TournamentState:
    """The numbers as :func:`apply_renumbered` gives them, the first-round colour, and the seed fixed."""
    renumbered = apply_renumbered(state, ParticipantsRenumbered(at=event.at, by=event.by, order=event.order))
    colour = Colour.WHITE if event.initial_colour is FirstColour.WHITE else Colour.BLACK
    return replace(renumbered, initial_colour=colour, lots_seed=event.seed, lots_drawn=True)


def apply_renumbered(state: TournamentState, event: ParticipantsRenumbered) -> TournamentState:
    """Pairing numbers 1, 2, … in the event's order (only before round 1; no byes or leavings recorded yet)."""
    tournament = state.t
    if state.draft is not None:
        raise Refused(Code.DRAFT_BLOCKS_NUMBERS)
    if tournament.rounds:
        raise Refused(Code.NUMBERS_FIXED_AFTER_ROUND)
    if tournament.bye_requests or tournament.leavings:
        raise Refused(Code.NUMBERS_FIXED_AFTER_BYES)
    by_number = {p.number: p for p in tournament.participants}
    if sorted(event.order) != sorted(by_number):
        raise ValueError("a renumbering lists every participant once")  # only a corrupt log says otherwise
    people = tuple(replace(by_number[old], number=new) for new, old in enumerate(event.order, start=1))
    return replace(state, tournament=replace(tournament, participants=people))


# --- deleting an entry ----------------------------------------------------------------------------------------


def decide_delete(state: TournamentState, command: DeleteEntry, stamp: Stamp) -> list[EntryDeleted]:
    player = state.t.participant(command.number)
    return [EntryDeleted(at=stamp.at, by=stamp.by, number=player.number, name=player.name, reason=command.reason)]


def apply_deleted(state: TournamentState, event: EntryDeleted) -> TournamentState:
    """The entry goes with everything that names its pairing number (requested byes, forbidden pairs, warnings);
    the other numbers stay as they are (numbering by rating closes the gap)."""
    tournament, number = state.t, event.number
    tournament.participant(number)
    if tournament.rounds or state.draft is not None:
        raise Refused(Code.ENTRY_DELETE_AFTER_PAIRING, player=tournament.label(number))
    tournament = replace(
        tournament,
        participants=tuple(p for p in tournament.participants if p.number != number),
        bye_requests=tuple(b for b in tournament.bye_requests if b.player != number),
        leavings=tuple(lv for lv in tournament.leavings if lv.player != number),
    )
    return replace(
        state,
        tournament=tournament,
        forbidden=tuple(f for f in state.forbidden if number not in (f.low, f.high)),
        warnings=tuple(w for w in state.warnings if w.player != number),
    )


# --- leaving --------------------------------------------------------------------------------------------------


def decide_leaving(
    state: TournamentState, command: Withdraw | Expel, stamp: Stamp
) -> list[ParticipantWithdrawn | ParticipantExpelled]:
    after = command.after_round if command.after_round is not None else len(state.t.rounds)
    kind = ParticipantWithdrawn if isinstance(command, Withdraw) else ParticipantExpelled
    return [kind(at=stamp.at, by=stamp.by, number=command.number, after_round=after, reason=command.reason)]


def apply_left(state: TournamentState, event: ParticipantWithdrawn | ParticipantExpelled) -> TournamentState:
    draft, tournament = state.draft, state.t
    swiss = not tournament.system.is_round_robin  # a round robin keeps a leaver's games: they become forfeits
    paired = draft is not None and event.number in {x for pair in draft.pairs for x in pair}
    if swiss and draft is not None and paired and event.after_round < draft.round:
        raise Refused(Code.LEAVER_IS_PAIRED, round=draft.round, player=tournament.label(event.number))
    if isinstance(event, ParticipantExpelled):
        return replace(state, tournament=tournament.expel(event.number, event.after_round, event.reason))
    return replace(state, tournament=tournament.withdraw(event.number, event.after_round, event.reason))


# --- byes and warnings ----------------------------------------------------------------------------------------


def decide_bye(state: TournamentState, command: RequestBye, stamp: Stamp) -> list[ByeRequested]:
    round_number = command.round if command.round is not None else state.next_round
    code = ResultCode(command.code.value)
    return [ByeRequested(at=stamp.at, by=stamp.by, number=command.number, round=round_number, code=code)]


def apply_bye(state: TournamentState, event: ByeRequested) -> TournamentState:
    if state.draft is not None and state.draft.round == event.round:
        raise Refused(Code.ROUND_ALREADY_PAIRED, round=event.round)
    return replace(state, tournament=state.t.request_bye(event.number, event.round, event.code))


def decide_warning(command: Warn, stamp: Stamp) -> list[WarningIssued]:
    return [WarningIssued(at=stamp.at, by=stamp.by, number=command.number, round=command.round,
                          reason=command.reason, penalty=command.penalty)]  # fmt: skip


def apply_warning(state: TournamentState, event: WarningIssued) -> TournamentState:
    state.t.participant(event.number)
    warning = PlayerWarning(event.at, event.by, event.number, event.round, event.reason, event.penalty)
    return replace(state, warnings=(*state.warnings, warning))
