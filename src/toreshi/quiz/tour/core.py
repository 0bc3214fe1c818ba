"""A club's «Своя игра» tour as a pure core: typed commands and events, ``decide`` and ``evolve`` (the room kit).

A tour is one evening of the club (SI-2.1, SI-5): its teams from the club's register, its packs, and a formula the
host may change until the first game starts — how many qualifying stages, how many teams go through from each game
and as the best of the others, battle points or raw scores, and whether a final (11 themes struck to 5, SI-3.3)
ends it. The stages themselves are :class:`toreshi.quiz.tournament.Stage` s: the arithmetic of places, shootouts
(SI-2.2) and advancement lives there; this core keeps the order of things:

* a stage is seeded (by rating — the order is given —, by lot with the injected generator, or by hand);
* each game gets its room (:class:`LinkGame`), with the next unused themes of the tour's packs, so that no
  question is played twice in a tour, the shootouts' reserve questions included;
* a finished room's scores come back as :class:`RecordResult` from the ``system`` actor; a tie across an
  advancing place then waits for its shootout, whose room gets exactly the tied teams;
* protests (SI-6) are recorded against a game and never change a result.

Wall times are the service's (``context.meta["at"]``, an ISO string): the tour's log shows them. Refusals are
:class:`~toreshi.quiz.tour.codes.QuizTourCode` s with parameters.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.kit.core import Context
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.quiz.events import MAX_TEAMS, GameKind
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.quiz.tournament import (
    ProtestLog,
    QuizProtest,
    Scoring,
    Seeding,
    ShootoutNeed,
    Stage,
    StageSettings,
    Tour,
    plan_games,
)

__all__ = [
    "COMMANDS",
    "EVENTS",
    "HOST",
    "RESERVE_THEMES",
    "SYSTEM",
    "THEMES_PER_GAME",
    "ChangeFormula",
    "ChangeTeams",
    "CloseStage",
    "CreateTour",
    "FileProtest",
    "Formula",
    "GameLink",
    "LinkGame",
    "PackInfo",
    "RecordResult",
    "ResultAmended",
    "RuleProtest",
    "SeedStage",
    "StageClosed",
    "StageRule",
    "TourState",
    "closed_links",
    "decide",
    "evolve",
    "is_closed",
    "stage_outcome",
    "suggest_assistant",
]

HOST = "host"
SYSTEM = "system"
"""The service pushing a finished game room's scores."""

THEMES_PER_GAME = {GameKind.QUALIFYING: 5, GameKind.FINAL: 11, GameKind.SHOOTOUT: 1}
RESERVE_THEMES = {GameKind.QUALIFYING: 1, GameKind.FINAL: 1, GameKind.SHOOTOUT: 2}
"""Themes each game keeps in reserve: replacements (SI-4.6) and a shootout's single questions (SI-2.2)."""
MAX_TOUR_TEAMS = 64
CROSS = -1
"""The ``game`` of a shootout between teams of different games (for the best others)."""

_NAME = spec(name=True, max_length=80)


@dataclass(frozen=True, slots=True)
class StageRule:
    """One qualifying stage: how many of each game go through, and how many more by the stage standing."""

    advance_per_game: int = field(default=2, metadata=spec(minimum=0, maximum=MAX_TEAMS - 1))
    advance_best_others: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_TOUR_TEAMS))


@dataclass(frozen=True, slots=True)
class Formula:
    """The tour's formula, "decided on the spot" (SI-2.1, SI-5)."""

    stages: tuple[StageRule, ...] = field(default=(StageRule(),), metadata=spec(max_items=4))
    scoring: Scoring = Scoring.BATTLE_POINTS
    final: bool = True
    """The advancing teams of the last stage play a final of 11 themes struck to 5 (SI-3.3)."""
    game_size: int = field(default=MAX_TEAMS, metadata=spec(minimum=2, maximum=MAX_TEAMS))

    @property
    def stage_count(self) -> int:
        return len(self.stages) + (1 if self.final else 0)

    def is_final(self, stage: int) -> bool:
        return self.final and stage == len(self.stages)

    def settings(self, stage: int) -> StageSettings:
        if self.is_final(stage):
            return StageSettings("final", self.game_size, 0, 0, self.scoring, seeding=Seeding.SNAKE)
        rule = self.stages[stage]
        return StageSettings(
            str(stage + 1), self.game_size, rule.advance_per_game, rule.advance_best_others, self.scoring
        )

    def kind(self, stage: int) -> GameKind:
        return GameKind.FINAL if self.is_final(stage) else GameKind.QUALIFYING


@dataclass(frozen=True, slots=True)
class PackInfo:
    name: str = field(metadata=spec(max_length=200))
    themes: int = field(metadata=spec(minimum=0, maximum=10_000))
    """Playable themes (5 questions each) in pack order."""


# --- commands ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateTour:
    type: ClassVar[str] = "create"
    name: str = field(metadata=_NAME)
    date: str = field(metadata=spec(max_length=10))
    teams: tuple[str, ...] = field(metadata=spec(name=True, max_length=80, max_items=MAX_TOUR_TEAMS))
    packs: tuple[PackInfo, ...] = field(metadata=spec(max_items=20))
    formula: Formula = Formula()


@dataclass(frozen=True, slots=True)
class ChangeFormula:
    type: ClassVar[str] = "change_formula"
    formula: Formula


@dataclass(frozen=True, slots=True)
class ChangeTeams:
    type: ClassVar[str] = "change_teams"
    teams: tuple[str, ...] = field(metadata=spec(name=True, max_length=80, max_items=MAX_TOUR_TEAMS))


@dataclass(frozen=True, slots=True)
class SeedStage:
    """Seed the next stage (or re-seed the first before any game starts): ``rating`` deals ``order`` (best first)
    1-2-2-1 across the games, ``lot`` draws, ``hand`` takes ``games`` as they are."""

    type: ClassVar[str] = "seed"
    method: str = field(metadata=spec(max_length=10))
    order: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_length=80, max_items=MAX_TOUR_TEAMS))
    games: tuple[tuple[str, ...], ...] = field(
        default=(), metadata=spec(name=True, max_length=80, max_items=MAX_TOUR_TEAMS)
    )


@dataclass(frozen=True, slots=True)
class LinkGame:
    """A game's room was created with its teams: the stage's game ``game`` or, with ``shootout``, the shootout of
    the tied ``teams`` (``game`` = -1 across games). ``theme_start`` must be the tour's next unused theme."""

    type: ClassVar[str] = "link_game"
    room_id: str = field(metadata=spec(max_length=64))
    stage: int = field(metadata=spec(minimum=0, maximum=10))
    game: int = field(metadata=spec(minimum=CROSS, maximum=MAX_TOUR_TEAMS))
    theme_start: int = field(metadata=spec(minimum=0, maximum=100_000))
    assistant_team: str = field(default="", metadata=spec(max_length=80))
    shootout: bool = False
    teams: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_length=80, max_items=MAX_TEAMS))


@dataclass(frozen=True, slots=True)
class RecordResult:
    """A linked room's final scores (the ``system`` actor, from the room's end)."""

    type: ClassVar[str] = "record_result"
    room_id: str = field(metadata=spec(max_length=64))
    scores: Mapping[str, int] = field(metadata=spec(max_items=MAX_TEAMS, minimum=-100_000, maximum=100_000))


@dataclass(frozen=True, slots=True)
class CloseStage:
    """The host closes the stage ``stage`` (0-based): its results are final from now on (SI-6); a later stage
    being seeded, or a shootout made from a game's result, closes what it was made from by itself."""

    type: ClassVar[str] = "close_stage"
    stage: int = field(metadata=spec(minimum=0, maximum=10))


@dataclass(frozen=True, slots=True)
class FileProtest:
    type: ClassVar[str] = "file_protest"
    room_id: str = field(metadata=spec(max_length=64))
    team: str = field(metadata=_NAME)
    text: str = field(metadata=spec(max_length=2_000, multiline=True))


@dataclass(frozen=True, slots=True)
class RuleProtest:
    type: ClassVar[str] = "rule_protest"
    number: int = field(metadata=spec(minimum=1, maximum=10_000))
    ruling: str = field(metadata=spec(max_length=2_000, multiline=True))
    note: str = field(default="", metadata=spec(max_length=2_000, multiline=True))


Command = (
    CreateTour | ChangeFormula | ChangeTeams | SeedStage | LinkGame | RecordResult | CloseStage | FileProtest
    | RuleProtest
)  # fmt: skip
COMMANDS = Codec(
    CreateTour, ChangeFormula, ChangeTeams, SeedStage, LinkGame, RecordResult, CloseStage, FileProtest, RuleProtest
)


# --- events --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TourCreated:
    type: ClassVar[str] = "tour_created"
    at: str
    name: str
    date: str
    teams: tuple[str, ...]
    packs: tuple[PackInfo, ...]
    formula: Formula


@dataclass(frozen=True, slots=True)
class FormulaChanged:
    type: ClassVar[str] = "formula_changed"
    at: str
    formula: Formula


@dataclass(frozen=True, slots=True)
class TeamsChanged:
    type: ClassVar[str] = "teams_changed"
    at: str
    teams: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StageSeeded:
    type: ClassVar[str] = "stage_seeded"
    at: str
    stage: int
    method: str
    games: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class LinkedRoom:
    """A game room as it was linked into the tour: when, where it stands (stage, game, kind), its teams, the
    assistant's team and its themes. The event that links it and the state's :class:`GameLink` both are one."""

    at: str
    room_id: str
    stage: int
    game: int
    kind: GameKind
    teams: tuple[str, ...]
    assistant_team: str
    theme_start: int
    theme_count: int
    cuts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameLinked(LinkedRoom):
    type: ClassVar[str] = "game_linked"


@dataclass(frozen=True, slots=True)
class ResultRecorded:
    type: ClassVar[str] = "result_recorded"
    at: str
    room_id: str
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class ResultAmended:
    """A recorded result changed in its room (an undo, a reversal, a correction) while its stage was open: the
    stage's standings follow. ``was`` keeps the result it replaced, for the log."""

    type: ClassVar[str] = "result_amended"
    at: str
    room_id: str
    scores: tuple[tuple[str, int], ...]
    was: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class StageClosed:
    type: ClassVar[str] = "stage_closed"
    at: str
    stage: int


@dataclass(frozen=True, slots=True)
class ProtestFiled:
    type: ClassVar[str] = "protest_filed"
    at: str
    room_id: str
    stage: int
    game: int
    team: str
    text: str


@dataclass(frozen=True, slots=True)
class ProtestRuled:
    type: ClassVar[str] = "protest_ruled"
    at: str
    number: int
    ruling: str
    note: str


Event = (
    TourCreated
    | FormulaChanged
    | TeamsChanged
    | StageSeeded
    | GameLinked
    | ResultRecorded
    | ResultAmended
    | StageClosed
    | ProtestFiled
    | ProtestRuled
)
EVENTS = Codec(
    TourCreated, FormulaChanged, TeamsChanged, StageSeeded, GameLinked, ResultRecorded, ResultAmended, StageClosed,
    ProtestFiled, ProtestRuled,
)  # fmt: skip


# --- state ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLink(LinkedRoom):
    """A game room of the tour: as it was linked and (once over) its scores."""

    scores: tuple[tuple[str, int], ...] | None = None


@dataclass(frozen=True, slots=True)
class TourState:
    created: bool = False
    name: str = ""
    date: str = ""
    teams: tuple[str, ...] = ()
    packs: tuple[PackInfo, ...] = ()
    formula: Formula = Formula()
    tour: Tour = field(default_factory=lambda: Tour("tour"))
    seeding: tuple[str, ...] = ()
    """How each stage was seeded (``rating``, ``lot``, ``hand``)."""
    links: tuple[GameLink, ...] = ()
    themes_used: int = 0
    protests: ProtestLog = field(default_factory=ProtestLog)
    closed: frozenset[int] = frozenset()
    """Stages the host closed (SI-6); :func:`is_closed` tells every way a game's result becomes final."""
    log: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = ()
    """(wall time, event type, parameters) of every event: the tour's log."""

    @property
    def started(self) -> bool:
        return bool(self.links)

    @property
    def themes_total(self) -> int:
        return sum(p.themes for p in self.packs)

    def link(self, room_id: str) -> GameLink | None:
        return next((link for link in self.links if link.room_id == room_id), None)

    def game_link(self, stage: int, game: int) -> GameLink | None:
        return next(
            (x for x in self.links if x.stage == stage and x.game == game and x.kind is not GameKind.SHOOTOUT), None
        )

    def shootout_link(self, stage: int, need: ShootoutNeed) -> GameLink | None:
        return next(
            (
                x
                for x in self.links
                if x.stage == stage and x.kind is GameKind.SHOOTOUT and _is_need(need, x.game, x.teams)
            ),
            None,
        )

    @property
    def stage_index(self) -> int:
        return len(self.tour.stages) - 1

    @property
    def finished(self) -> bool:
        stages = self.tour.stages
        return len(stages) == self.formula.stage_count and stages[-1].complete and not stages[-1].pending_shootouts()

    def can_seed(self) -> bool:
        """Whether :class:`SeedStage` would be accepted now (the first stage before any game, or the next one)."""
        if not self.created or self.finished:
            return False
        if not self.tour.stages or not self.started:
            return True
        last = self.tour.stages[-1]
        return len(self.tour.stages) < self.formula.stage_count and last.complete and not last.pending_shootouts()

    def next_teams(self) -> tuple[str, ...]:
        """The teams of the stage to seed next."""
        if not self.tour.stages or not self.started:
            return self.teams
        return self.tour.stages[-1].advancing()

    def kind_to_link(self, shootout: bool) -> GameKind:
        return GameKind.SHOOTOUT if shootout else self.formula.kind(self.stage_index)

    def allotment(self, kind: GameKind) -> tuple[int, int]:
        """The themes the next game gets: (first, count) over the tour's packs' playable themes in order."""
        return self.themes_used, THEMES_PER_GAME[kind] + RESERVE_THEMES[kind]

    def games_to_link(self) -> tuple[int, ...]:
        """The current stage's games that have no room yet."""
        if not self.tour.stages:
            return ()
        stage = self.tour.stages[-1]
        return tuple(g for g in range(len(stage.games)) if self.game_link(self.stage_index, g) is None)

    def shootouts_to_link(self) -> tuple[ShootoutNeed, ...]:
        if not self.tour.stages:
            return ()
        stage = self.tour.stages[-1]
        return tuple(n for n in stage.pending_shootouts() if self.shootout_link(self.stage_index, n) is None)


def _is_need(need: ShootoutNeed, game: int, teams: tuple[str, ...]) -> bool:
    """Whether ``need`` is the shootout of ``teams`` in the stage's game ``game`` (:data:`CROSS`: across games)."""
    return (CROSS if need.game is None else need.game) == game and need.tie.teams == teams


# --- deciding ------------------------------------------------------------------------------------------------


def _check_formula(formula: Formula, teams: int) -> Refusal | None:
    count = teams
    for index, rule in enumerate(formula.stages):
        games = -(-count // formula.game_size)
        smallest = count // games if games else 0
        advancing = games * rule.advance_per_game + rule.advance_best_others
        if rule.advance_per_game >= smallest or advancing < 2 or advancing >= count:
            return Refusal(QuizTourCode.FORMULA, {"teams": count, "stage": index + 1, "advancing": advancing})
        count = advancing
    if formula.final and count > formula.game_size:
        return Refusal(QuizTourCode.FINAL_TOO_BIG, {"teams": count, "maximum": formula.game_size, "clause": "SI-3.0.1"})
    if not formula.stages and not formula.final:
        return Refusal(QuizTourCode.FORMULA, {"teams": count, "stage": 1, "advancing": 0})
    return None


def _check_teams(teams: Sequence[str]) -> Refusal | None:
    if len(teams) < 2 or len(set(teams)) != len(teams):
        return Refusal(QuizTourCode.TEAMS, {"count": len(teams)})
    return None


def _at(context: Context) -> str:
    return str(context.meta.get("at", ""))


def _seed(state: TourState, command: SeedStage, context: Context) -> Sequence[Event] | Refusal:
    if not state.can_seed():
        return Refusal(QuizTourCode.NOT_SEEDABLE, {"stage": max(1, len(state.tour.stages))})
    stage = 0 if not state.started else len(state.tour.stages)
    teams = state.next_teams()
    settings = state.formula.settings(stage)
    if command.method == "rating":
        order = [t for t in command.order if t in teams] + [t for t in teams if t not in command.order]
        games = plan_games(order, settings.game_size, Seeding.SNAKE)
    elif command.method == "lot":
        rng = context.random if context.random is not None else random.Random(0)
        games = plan_games(teams, settings.game_size, Seeding.DRAW, rng)
    elif command.method == "hand":
        planned = plan_games(teams, settings.game_size, Seeding.SNAKE)
        given = tuple(tuple(g) for g in command.games if g)
        placed = [t for g in given for t in g]
        if sorted(len(g) for g in given) != sorted(len(g) for g in planned) or sorted(placed) != sorted(teams):
            sizes = " + ".join(str(len(g)) for g in planned)
            return Refusal(QuizTourCode.HAND_SEEDING, {"sizes": sizes})
        games = given
    else:
        return Refusal(Common.BAD_REQUEST, {"field": "method"})
    Stage.plan(settings, [t for g in games for t in g], random.Random(0))  # the settings' own checks (raises)
    return [StageSeeded(_at(context), stage, command.method, games)]


def _link(state: TourState, command: LinkGame, context: Context) -> Sequence[Event] | Refusal:
    if state.finished:
        return Refusal(QuizTourCode.FINISHED)
    if state.link(command.room_id) is not None or command.stage != state.stage_index or state.stage_index < 0:
        return Refusal(QuizTourCode.NO_SUCH_GAME, {"stage": command.stage + 1, "game": command.game + 1})
    stage = state.tour.stages[command.stage]
    cuts: tuple[int, ...] = ()
    if command.shootout:
        need = next((n for n in state.shootouts_to_link() if _is_need(n, command.game, command.teams)), None)
        if need is None:
            return Refusal(QuizTourCode.NO_SUCH_SHOOTOUT, {"teams": ", ".join(command.teams)})
        teams, cuts = need.tie.teams, need.tie.cuts
        kind = GameKind.SHOOTOUT
    else:
        if command.game not in range(len(stage.games)):
            return Refusal(QuizTourCode.NO_SUCH_GAME, {"stage": command.stage + 1, "game": command.game + 1})
        if state.game_link(command.stage, command.game) is not None:
            return Refusal(QuizTourCode.GAME_LINKED, {"stage": command.stage + 1, "game": command.game + 1})
        teams = stage.games[command.game]
        kind = state.formula.kind(command.stage)
    if command.assistant_team and command.assistant_team in teams:
        return Refusal(QuizTourCode.ASSISTANT_PLAYS, {"team": command.assistant_team, "clause": "SI-4.1"})
    start, count = state.allotment(kind)
    if command.theme_start != start:
        return Refusal(QuizTourCode.THEMES_USED, {"start": command.theme_start + 1, "expected": start + 1})
    if start + count > state.themes_total:
        return Refusal(QuizTourCode.PACKS_EXHAUSTED, {"needed": count, "left": max(0, state.themes_total - start)})
    return [
        GameLinked(
            _at(context), command.room_id, command.stage, command.game, kind, teams, command.assistant_team, start,
            count, cuts,
        )
    ]  # fmt: skip


def _record(state: TourState, command: RecordResult, context: Context) -> Sequence[Event] | Refusal:
    link = state.link(command.room_id)
    if link is None:
        return Refusal(QuizTourCode.NOT_A_TOUR_GAME, {"room": command.room_id})
    if set(command.scores) != set(link.teams):
        return Refusal(QuizTourCode.RESULT_TEAMS, {"teams": ", ".join(link.teams)})
    scores = tuple((t, int(command.scores[t])) for t in link.teams)
    if link.scores is not None:
        if link.scores == scores:
            return []  # pushed twice: nothing changes
        if is_closed(state, link):
            # SI-6: the tour's results are final once the stage is closed (docs/decisions.md, issue 31)
            return Refusal(QuizTourCode.RESULT_CLOSED, {"stage": link.stage + 1, "clause": "SI-6"})
        return _tried(state, ResultAmended(_at(context), command.room_id, scores, link.scores))
    # the stage's own checks (an undecided shootout, a result the stage refuses) raise
    return _tried(state, ResultRecorded(_at(context), command.room_id, scores))


def is_closed(state: TourState, link: GameLink) -> bool:
    """Whether the result of ``link``'s game is final (SI-6): the host closed its stage, a later stage was seeded
    (or the formula has no later stage and the tour is over and closed), or a shootout was made from it (a game's
    own tie closes that game, a tie across the stage's games closes all of them)."""
    if link.stage in state.closed or link.stage < state.stage_index:
        return True
    if link.kind is GameKind.SHOOTOUT:
        return False
    return any(
        other.stage == link.stage and other.kind is GameKind.SHOOTOUT and other.game in (link.game, CROSS)
        for other in state.links
    )


def closed_links(state: TourState) -> tuple[str, ...]:
    """The rooms whose results are final: they refuse any further undo, reversal or correction."""
    return tuple(link.room_id for link in state.links if link.scores is not None and is_closed(state, link))


def _close(state: TourState, command: CloseStage, context: Context) -> Sequence[Event] | Refusal:
    if command.stage not in range(len(state.tour.stages)):
        return Refusal(QuizTourCode.NO_SUCH_GAME, {"stage": command.stage + 1, "game": 1})
    if command.stage in state.closed:
        return []
    stage = state.tour.stages[command.stage]
    if (
        not stage.complete
        or stage.pending_shootouts()
        or any(link.stage == command.stage and link.scores is None for link in state.links)
    ):
        return Refusal(QuizTourCode.STAGE_OPEN, {"stage": command.stage + 1})
    return [StageClosed(_at(context), command.stage)]


def _tried(state: TourState, event: Event) -> list[Event]:
    """``[event]``, once folding it into ``state`` went through: the fold's own checks raise :class:`Refused`."""
    evolve(state, event)
    return [event]


def decide(state: TourState, command: Command, context: Context) -> Sequence[Event] | Refusal:
    """The events ``command`` causes, or why not. The ``system`` actor may only record results."""
    role = context.actor.role
    if role not in (HOST, SYSTEM) or (role == SYSTEM) != isinstance(command, RecordResult):
        return Refusal(Common.FORBIDDEN, {"command": command.type, "role": role})  # results: from the rooms' ends only
    if isinstance(command, CreateTour):
        if state.created:
            return Refusal(QuizTourCode.ALREADY_CREATED)
        if not command.name.strip():
            return Refusal(QuizTourCode.NAME)
        try:
            _dt.date.fromisoformat(command.date)
        except ValueError:
            return Refusal(QuizTourCode.DATE, {"date": command.date})
        if not command.packs or sum(p.themes for p in command.packs) == 0:
            return Refusal(QuizTourCode.NO_PACK)
        problem = _check_teams(command.teams) or _check_formula(command.formula, len(command.teams))
        if problem is not None:
            return problem
        return [TourCreated(_at(context), command.name, command.date, command.teams, command.packs, command.formula)]
    if not state.created:
        return Refusal(QuizTourCode.NOT_CREATED)
    try:
        if isinstance(command, ChangeFormula | ChangeTeams):
            if state.started:
                return Refusal(QuizTourCode.STARTED, {"clause": "SI-2.1"})
            if isinstance(command, ChangeTeams):
                problem = _check_teams(command.teams) or _check_formula(state.formula, len(command.teams))
                return problem or [TeamsChanged(_at(context), command.teams)]
            problem = _check_formula(command.formula, len(state.teams))
            return problem or [FormulaChanged(_at(context), command.formula)]
        if isinstance(command, SeedStage):
            return _seed(state, command, context)
        if isinstance(command, LinkGame):
            return _link(state, command, context)
        if isinstance(command, RecordResult):
            return _record(state, command, context)
        if isinstance(command, CloseStage):
            return _close(state, command, context)
        if isinstance(command, FileProtest):
            link = state.link(command.room_id)
            if link is None:
                return Refusal(QuizTourCode.NOT_A_TOUR_GAME, {"room": command.room_id})
            if not command.text.strip():
                return Refusal(QuizTourCode.PROTEST_TEXT)
            # the protest log's own checks (the team played in the game)
            return _tried(
                state, ProtestFiled(_at(context), command.room_id, link.stage, link.game, command.team, command.text)
            )
        return _tried(state, ProtestRuled(_at(context), command.number, command.ruling, command.note))
    except Refused as refused:
        return refused.refusal


# --- evolving ------------------------------------------------------------------------------------------------


def _logged(
    state: TourState, event: Event, **params: object
) -> tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...]:
    return (*state.log, (event.at, event.type, tuple((k, str(v)) for k, v in params.items())))


def _protest_game(state: TourState, link: GameLink) -> int:
    """The protest log's game index: shootouts are filed against the game they decide (or the stage's first)."""
    return max(link.game, 0)


def evolve(state: TourState, event: Event) -> TourState:
    """The state after ``event`` (raises :class:`Refused` if a stage refuses it: only while deciding)."""
    if isinstance(event, TourCreated):
        return replace(
            state, created=True, name=event.name, date=event.date, teams=event.teams, packs=event.packs,
            formula=event.formula, log=_logged(state, event, name=event.name, teams=len(event.teams)),
        )  # fmt: skip
    if isinstance(event, FormulaChanged):
        return replace(state, formula=event.formula, tour=Tour(state.tour.name), seeding=(), log=_logged(state, event))
    if isinstance(event, TeamsChanged):
        return replace(
            state, teams=event.teams, tour=Tour(state.tour.name), seeding=(),
            log=_logged(state, event, teams=len(event.teams)),
        )  # fmt: skip
    if isinstance(event, StageSeeded):
        stage = Stage(state.formula.settings(event.stage), event.games)
        kept = state.tour.stages[: event.stage]
        seeding = (*state.seeding[: event.stage], event.method)
        games = "; ".join(", ".join(g) for g in event.games)
        return replace(
            state, tour=replace(state.tour, stages=(*kept, stage)), seeding=seeding,
            log=_logged(state, event, stage=event.stage + 1, method=event.method, games=games),
        )  # fmt: skip
    if isinstance(event, GameLinked):
        link = GameLink(**{linked.name: getattr(event, linked.name) for linked in fields(LinkedRoom)})
        return replace(
            state, links=(*state.links, link), themes_used=event.theme_start + event.theme_count,
            log=_logged(state, event, kind=event.kind.value, stage=event.stage + 1, teams=", ".join(event.teams),
                        assistant=event.assistant_team, room=event.room_id),
        )  # fmt: skip
    if isinstance(event, ResultRecorded):
        found = state.link(event.room_id)
        assert found is not None
        stage = state.tour.stages[found.stage]
        scores = dict(event.scores)
        if found.kind is GameKind.SHOOTOUT:
            need = next(n for n in stage.pending_shootouts() if _is_need(n, found.game, found.teams))
            stage = stage.record_shootout(need, scores)
        else:
            stage = stage.record(found.game, scores)
        stages = tuple(stage if i == found.stage else s for i, s in enumerate(state.tour.stages))
        links = tuple(replace(x, scores=event.scores) if x.room_id == event.room_id else x for x in state.links)
        text = ", ".join(f"{t} {s}" for t, s in event.scores)
        return replace(
            state, tour=replace(state.tour, stages=stages), links=links,
            log=_logged(state, event, kind=found.kind.value, stage=found.stage + 1, scores=text, room=event.room_id),
        )  # fmt: skip
    if isinstance(event, ResultAmended):
        found = state.link(event.room_id)
        assert found is not None
        stage = state.tour.stages[found.stage]
        scores = dict(event.scores)
        if found.kind is GameKind.SHOOTOUT:
            game = None if found.game == CROSS else found.game
            stage = stage.amend_shootout(found.teams, game, found.cuts, scores)
        else:
            stage = stage.amend(found.game, scores)
        stages = tuple(stage if i == found.stage else s for i, s in enumerate(state.tour.stages))
        links = tuple(replace(x, scores=event.scores) if x.room_id == event.room_id else x for x in state.links)
        text = ", ".join(f"{t} {s}" for t, s in event.scores)
        was = ", ".join(f"{t} {s}" for t, s in event.was)
        return replace(
            state, tour=replace(state.tour, stages=stages), links=links,
            log=_logged(state, event, kind=found.kind.value, stage=found.stage + 1, scores=text, was=was,
                        room=event.room_id),
        )  # fmt: skip
    if isinstance(event, StageClosed):
        return replace(state, closed=state.closed | {event.stage}, log=_logged(state, event, stage=event.stage + 1))
    if isinstance(event, ProtestFiled):
        found = state.link(event.room_id)
        assert found is not None
        protest = QuizProtest(0, state.tour.name, event.stage, _protest_game(state, found), event.team, event.text)
        return replace(
            state, protests=state.protests.file(state.tour, protest),
            log=_logged(state, event, team=event.team, text=event.text, room=event.room_id),
        )  # fmt: skip
    if isinstance(event, ProtestRuled):
        return replace(
            state, protests=state.protests.rule(event.number - 1, event.ruling, event.note),
            log=_logged(state, event, number=event.number, ruling=event.ruling),
        )  # fmt: skip
    raise TypeError(f"not a tour event: {event!r}")


# --- what the pages show -------------------------------------------------------------------------------------


def stage_outcome(state: TourState, index: int) -> dict[str, str]:
    """Why each team of a stage went through or not: ``place`` (a per-game place), ``shootout`` (won a shootout
    for it), ``best_other`` (by the stage standing), ``out``; ``pending`` while games or shootouts remain."""
    stage = state.tour.stages[index]
    if not stage.complete or stage.pending_shootouts() or state.formula.is_final(index):
        return dict.fromkeys(stage.teams, "pending" if not state.formula.is_final(index) else "final")
    advancing = stage.advancing()
    per_game = stage.settings.advance_per_game
    shot = {t for r in stage.results for group, _ in r[1].shootouts for t in group}
    shot |= {t for group, _ in stage.cross_shootouts for t in group}
    reasons: dict[str, str] = {}
    for row in stage.standings():
        if row.team not in advancing:
            reasons[row.team] = "out"
        elif row.team in shot:
            reasons[row.team] = "shootout"
        elif row.place_in_game <= per_game:
            reasons[row.team] = "place"
        else:
            reasons[row.team] = "best_other"
    return reasons


def suggest_assistant(state: TourState, teams: Sequence[str]) -> str:
    """A team not in the game to give the assistant (SI-4.1): one not playing in this stage if there is one, else
    the one that has assisted least; ties by the tour's team order."""
    playing = set(state.tour.stages[-1].teams) if state.tour.stages else set()
    counts = dict.fromkeys(state.teams, 0)
    for link in state.links:
        if link.assistant_team in counts:
            counts[link.assistant_team] += 1
    candidates = [t for t in state.teams if t not in teams]
    if not candidates:
        return ""
    return min(candidates, key=lambda t: (t in playing, counts[t], state.teams.index(t)))


def read_event(data: Mapping[str, object]) -> Event:
    event = EVENTS.decode(data)
    assert isinstance(event, TourCreated | FormulaChanged | TeamsChanged | StageSeeded | GameLinked | ResultRecorded
                      | ResultAmended | StageClosed | ProtestFiled | ProtestRuled)  # fmt: skip
    return event


def game_outcome(state: TourState, room_id: str) -> dict[str, str]:
    """What a finished game means for its teams in the tour, for the projector: ``advances``, ``out``,
    ``shootout`` (a tie across an advancing place, SI-2.2), ``waiting`` (for the other games' best others);
    ``{}`` for a final or a game without a result."""
    link = state.link(room_id)
    if link is None or link.scores is None or link.kind is GameKind.FINAL:
        return {}
    stage = state.tour.stages[link.stage]
    if stage.complete and not stage.pending_shootouts():
        advancing = set(stage.advancing())
        return {t: "advances" if t in advancing else "out" for t in link.teams}
    scores = dict(link.scores)
    if link.kind is GameKind.SHOOTOUT:
        ranked = sorted(link.teams, key=lambda t: -scores[t])
        kept = set(ranked[: link.cuts[0]]) if link.cuts else set()
        return {t: "advances" if t in kept else "out" for t in link.teams}
    result = stage.result(link.game)
    assert result is not None
    tied = {t for need in stage.pending_shootouts() if need.game == link.game for t in need.tie.teams}
    outcome: dict[str, str] = {}
    taken = 0
    for group in result.places:
        for team in group:
            if team in tied:
                outcome[team] = "shootout"
            elif taken < stage.settings.advance_per_game:
                outcome[team] = "advances"
            else:
                outcome[team] = "waiting" if stage.settings.advance_best_others else "out"
        taken += len(group)
    return outcome
