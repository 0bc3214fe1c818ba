"""Quiz tournaments: stages of games of up to 4 teams, advancement, shootouts, a season league and ratings.

The club regulation leaves the formula to the site (SI-2.1, SI-5), so every rule here is a setting:

* a :class:`Tour` is a sequence of :class:`Stage` s; each stage splits its teams into games of at most 4
  (SI-3.0.1) by a seeded draw or by seeding (snake order), records each game's scores, scores the stage by
  battle points (4/2/1/0 by default, shared places averaged) or raw scores, and advances the best
  ``advance_per_game`` of each game plus the ``advance_best_others`` best of the rest;
* where a tie decides advancement, the stage asks for a shootout (SI-2.2) and advances nobody until it is played;
* :class:`LeagueTable` adds tours up over a season; :class:`TeamRatings` rates teams with OpenSkill
  (Plackett-Luce, SI-5); :class:`ProtestLog` records protests without any path to the results (SI-6).

Everything is immutable and pure: the draw takes an injected :class:`random.Random`. A request that the settings or
the recorded results refuse raises :class:`~toreshi.kit.refusal.Refused` with a :class:`~toreshi.quiz.codes.StageCode`
and its parameters (teams, stage, game and protest numbers, 1-based; the clause).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction

from openskill.models import PlackettLuce

from toreshi.kit.refusal import Refused
from toreshi.quiz.board import Board
from toreshi.quiz.codes import StageCode
from toreshi.quiz.events import MAX_TEAMS, Assistant, GameKind, GameSetup
from toreshi.quiz.shootout import Tie, find_ties, is_decided, resolve_order, score_groups

__all__ = [
    "GameResult",
    "LeagueRow",
    "LeagueTable",
    "ProtestLog",
    "QuizProtest",
    "Scoring",
    "Seeding",
    "ShootoutNeed",
    "Stage",
    "StageSettings",
    "StandingRow",
    "TeamRatings",
    "Tour",
    "battle_points",
    "plan_games",
]


class Scoring(StrEnum):
    BATTLE_POINTS = "battle_points"
    """Points by place in each game (4/2/1/0), shared places averaged; raw scores break ties."""
    RAW_SCORE = "raw_score"
    """The sum of the game scores."""


class Seeding(StrEnum):
    DRAW = "draw"
    """Games are drawn by lot."""
    SNAKE = "snake"
    """Teams in seed order are dealt 1-2-3-3-2-1 across the games, so each game gets a strong and a weak team."""


def plan_games(
    teams: Sequence[str], game_size: int = MAX_TEAMS, seeding: Seeding = Seeding.DRAW, rng: random.Random | None = None
) -> tuple[tuple[str, ...], ...]:
    """Split teams into as few games of at most ``game_size`` as possible, sizes differing by at most one.

    >>> plan_games([f"T{i}" for i in range(1, 11)], seeding=Seeding.SNAKE)
    (('T1', 'T6', 'T7'), ('T2', 'T5', 'T8'), ('T3', 'T4', 'T9', 'T10'))
    """
    if not 2 <= game_size <= MAX_TEAMS:
        raise Refused(StageCode.GAME_SIZE, size=game_size, maximum=MAX_TEAMS, clause="SI-3.0.1")
    if len(set(teams)) != len(teams):
        raise Refused(StageCode.TEAM_TWICE, team=next(t for t in teams if teams.count(t) > 1))
    if len(teams) < 2:
        raise Refused(StageCode.TOO_FEW_TEAMS)
    count = -(-len(teams) // game_size)
    order = list(teams)
    if seeding is Seeding.DRAW:
        if rng is None:
            raise TypeError("a draw needs a random source (pass a seeded random.Random to record it)")
        rng.shuffle(order)
    games: list[list[str]] = [[] for _ in range(count)]
    sizes = [len(teams) // count + (1 if i >= count - len(teams) % count else 0) for i in range(count)]
    index, step = 0, 1
    for team in order:
        while len(games[index]) >= sizes[index]:
            index, step = _next_snake(index, step, count)
        games[index].append(team)
        index, step = _next_snake(index, step, count)
    if any(len(g) < 2 for g in games):
        raise Refused(StageCode.CANNOT_SPLIT, teams=len(teams), size=game_size)
    return tuple(tuple(g) for g in games)


def _next_snake(index: int, step: int, count: int) -> tuple[int, int]:
    if count == 1:
        return 0, step
    nxt = index + step
    if 0 <= nxt < count:
        return nxt, step
    return index, -step  # turn at either end: the end game gets two teams in a row


def battle_points(scores: Mapping[str, int], table: Sequence[int] = (4, 2, 1, 0)) -> dict[str, Fraction]:
    """Points by place in one game; tied teams share the mean of their places' points.

    >>> {t: str(p) for t, p in battle_points({"A": 9, "B": 3, "C": 3, "D": -1}).items()}
    {'A': '4', 'B': '3/2', 'C': '3/2', 'D': '0'}
    """
    if len(scores) > len(table):
        raise Refused(StageCode.POINTS_TABLE, places=len(scores), table=" ".join(str(points) for points in table))
    points: dict[str, Fraction] = {}
    start = 0
    for teams in score_groups(scores):
        end = start + len(teams)
        points.update(dict.fromkeys(teams, Fraction(sum(table[start:end]), len(teams))))
        start = end
    return points


@dataclass(frozen=True, slots=True)
class StageSettings:
    name: str
    game_size: int = MAX_TEAMS
    advance_per_game: int = 2
    advance_best_others: int = 0
    """After the per-game places, this many more teams advance by the stage standings."""
    scoring: Scoring = Scoring.BATTLE_POINTS
    battle_points: tuple[int, ...] = (4, 2, 1, 0)
    seeding: Seeding = Seeding.DRAW


@dataclass(frozen=True, slots=True)
class GameResult:
    scores: tuple[tuple[str, int], ...]
    """The game's final scores in seat order."""
    shootouts: tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], ...] = ()
    """Played shootouts: the tied group and its shootout scores."""

    @property
    def score_map(self) -> dict[str, int]:
        return dict(self.scores)

    @property
    def shootout_map(self) -> dict[tuple[str, ...], dict[str, int]]:
        return {group: dict(scores) for group, scores in self.shootouts}

    @property
    def places(self) -> tuple[tuple[str, ...], ...]:
        """The game's places, best first; teams still level share a place."""
        return resolve_order(self.score_map, self.shootout_map)


@dataclass(frozen=True, slots=True)
class ShootoutNeed:
    """A shootout the stage waits for: within game ``game`` (index), or across games (``game is None``)."""

    game: int | None
    tie: Tie

    def game_setup(self, board: Board, assistant: Assistant | None = None) -> GameSetup:
        """The shootout game for this tie: the tied teams on one theme, reserve questions for single-question
        play, the advancing boundaries as its stopping rule (SI-2.2)."""
        return GameSetup(
            self.tie.teams, board, kind=GameKind.SHOOTOUT, assistant=assistant, shootout_cuts=self.tie.cuts
        )


@dataclass(frozen=True, slots=True)
class StandingRow:
    team: str
    points: Fraction
    raw: int
    game: int
    place_in_game: int


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage: its games, their recorded results and the shootouts played across games."""

    settings: StageSettings
    games: tuple[tuple[str, ...], ...]
    results: tuple[tuple[int, GameResult], ...] = ()
    cross_shootouts: tuple[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], ...] = ()

    @staticmethod
    def plan(settings: StageSettings, teams: Sequence[str], rng: random.Random | None = None) -> Stage:
        games = plan_games(teams, settings.game_size, settings.seeding, rng)
        smallest = min(len(g) for g in games)
        if settings.advance_per_game and settings.advance_per_game >= smallest:
            raise Refused(StageCode.ADVANCE_ALL, advancing=settings.advance_per_game, size=smallest)
        return Stage(settings, games)

    @property
    def teams(self) -> tuple[str, ...]:
        return tuple(t for g in self.games for t in g)

    def result(self, game: int) -> GameResult | None:
        return dict(self.results).get(game)

    def record(self, game: int, scores: Mapping[str, int]) -> Stage:
        """Record a finished game's scores. Results are final once recorded (SI-6): a second record is refused."""
        if game not in range(len(self.games)):
            raise Refused(StageCode.NO_SUCH_GAME, stage=self.settings.name, game=game + 1)
        if self.result(game) is not None:
            raise Refused(StageCode.ALREADY_RECORDED, stage=self.settings.name, game=game + 1, clause="SI-6")
        if set(scores) != set(self.games[game]):
            raise Refused(StageCode.WRONG_TEAMS, game=game + 1, teams=", ".join(self.games[game]))
        ordered = tuple((t, int(scores[t])) for t in self.games[game])
        return replace(self, results=(*self.results, (game, GameResult(ordered))))

    def amend(self, game: int, scores: Mapping[str, int]) -> Stage:
        """The recorded result of ``game`` replaced by ``scores`` (a ruling undone or reversed in its room while the
        stage is open, SI-6 as this project reads it: ``docs/decisions.md``). The tour refuses it once the stage is
        closed; a played shootout of the game stays recorded as it was played."""
        found = self.result(game)
        if found is None:
            raise Refused(StageCode.NO_SUCH_GAME, stage=self.settings.name, game=game + 1)
        if set(scores) != set(self.games[game]):
            raise Refused(StageCode.WRONG_TEAMS, game=game + 1, teams=", ".join(self.games[game]))
        amended = replace(found, scores=tuple((t, int(scores[t])) for t in self.games[game]))
        return replace(self, results=tuple((g, amended if g == game else r) for g, r in self.results))

    def amend_shootout(
        self, teams: tuple[str, ...], game: int | None, cuts: Sequence[int], scores: Mapping[str, int]
    ) -> Stage:
        """A played shootout's scores replaced (they must still settle its tie at ``cuts``, SI-2.2)."""
        if set(scores) != set(teams):
            raise Refused(StageCode.SHOOTOUT_PLAYERS, teams=", ".join(teams), played=", ".join(scores))
        if not is_decided(scores, cuts, ()):
            raise Refused(StageCode.SHOOTOUT_UNDECIDED, clause="SI-2.2")
        played = (teams, tuple((t, int(scores[t])) for t in teams))
        if game is None:
            kept = tuple(played if group == teams else (group, s) for group, s in self.cross_shootouts)
            return replace(self, cross_shootouts=kept)
        result = self.result(game)
        assert result is not None
        updated = replace(result, shootouts=tuple(played if g == teams else (g, s) for g, s in result.shootouts))
        return replace(self, results=tuple((g, updated if g == game else r) for g, r in self.results))

    def record_shootout(self, need: ShootoutNeed, scores: Mapping[str, int]) -> Stage:
        """Record a played shootout; it must have settled every boundary inside the tie (SI-2.2)."""
        if need not in self.pending_shootouts():
            raise Refused(StageCode.NO_SHOOTOUT_PENDING, teams=", ".join(need.tie.teams))
        if set(scores) != set(need.tie.teams):
            raise Refused(StageCode.SHOOTOUT_PLAYERS, teams=", ".join(need.tie.teams), played=", ".join(scores))
        if not is_decided(scores, need.tie.cuts, ()):
            raise Refused(StageCode.SHOOTOUT_UNDECIDED, clause="SI-2.2")
        played = (need.tie.teams, tuple((t, int(scores[t])) for t in need.tie.teams))
        if need.game is None:
            return replace(self, cross_shootouts=(*self.cross_shootouts, played))
        assert need.game is not None
        result = self.result(need.game)
        assert result is not None
        updated = replace(result, shootouts=(*result.shootouts, played))
        results = tuple((g, updated if g == need.game else r) for g, r in self.results)
        return replace(self, results=results)

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.games)

    def _game_points(self, game: int, result: GameResult) -> dict[str, Fraction]:
        if self.settings.scoring is Scoring.RAW_SCORE:
            return {t: Fraction(s) for t, s in result.scores}
        return battle_points(result.score_map, self.settings.battle_points)

    def standings(self) -> tuple[StandingRow, ...]:
        """Every team with a recorded game, best first: points, then raw score (SI-5)."""
        rows = []
        for game, result in sorted(self.results):
            points = self._game_points(game, result)
            for place, group in enumerate(result.places, start=1):
                for team in group:
                    rows.append(StandingRow(team, points[team], result.score_map[team], game, place))
        return tuple(sorted(rows, key=lambda r: (-r.points, -r.raw, r.place_in_game, self.teams.index(r.team))))

    def _per_game_qualifiers(self) -> tuple[list[ShootoutNeed], list[str]]:
        needs: list[ShootoutNeed] = []
        qualified: list[str] = []
        k = self.settings.advance_per_game
        for game, result in sorted(self.results):
            if k == 0:
                continue
            played = result.shootout_map
            for tie in find_ties(result.score_map, k):
                if tie.teams not in played:
                    needs.append(ShootoutNeed(game, tie))
            taken: list[str] = []
            for group in result.places:
                if len(taken) >= k:
                    break
                taken.extend(group)
            qualified.extend(taken)
        return needs, qualified

    def _best_others(self, qualified: list[str]) -> tuple[list[ShootoutNeed], list[str]]:
        extra = self.settings.advance_best_others
        others = [r for r in self.standings() if r.team not in qualified]
        if extra == 0 or not others:
            return [], []
        # Teams level on points and raw score across games: a shootout between them decides (SI-2.2).
        distinct = sorted({(r.points, r.raw) for r in others}, reverse=True)
        level = {r.team: -distinct.index((r.points, r.raw)) for r in others}
        played = {group: dict(scores) for group, scores in self.cross_shootouts}
        needs = [ShootoutNeed(None, tie) for tie in find_ties(level, extra) if tie.teams not in played]
        ordered = [team for group in resolve_order(level, played) for team in group]
        return needs, ordered[:extra]

    def pending_shootouts(self) -> tuple[ShootoutNeed, ...]:
        """The shootouts the stage still needs before it can say who advances."""
        needs, qualified = self._per_game_qualifiers()
        if needs or not self.complete:
            return tuple(needs)
        more, _ = self._best_others(qualified)
        return tuple(more)

    def advancing(self) -> tuple[str, ...]:
        """Who goes through: the per-game places, then the best others. Refused while games or shootouts remain."""
        if not self.complete:
            raise Refused(StageCode.GAMES_WITHOUT_RESULTS, stage=self.settings.name)
        pending = self.pending_shootouts()
        if pending:
            groups = "; ".join(", ".join(need.tie.teams) for need in pending)
            raise Refused(StageCode.SHOOTOUTS_PENDING, teams=groups, clause="SI-2.2")
        _, qualified = self._per_game_qualifiers()
        _, extra = self._best_others(qualified)
        return (*qualified, *extra)


@dataclass(frozen=True, slots=True)
class Tour:
    """One tour (a club evening): its stages in order. The last stage is the final."""

    name: str
    stages: tuple[Stage, ...] = ()

    def start_stage(
        self, settings: StageSettings, teams: Sequence[str] | None = None, rng: random.Random | None = None
    ) -> Tour:
        """Plan the next stage: with the previous stage's advancing teams, or ``teams`` for the first stage."""
        if self.stages:
            if teams is not None:
                raise Refused(StageCode.LATER_STAGE_TEAMS)
            teams = self.stages[-1].advancing()
        elif teams is None:
            raise Refused(StageCode.FIRST_STAGE_TEAMS)
        return replace(self, stages=(*self.stages, Stage.plan(settings, teams, rng)))

    def update_stage(self, stage: Stage) -> Tour:
        """Replace the current (last) stage with its new version, e.g. after recording a result."""
        if not self.stages:
            raise Refused(StageCode.NO_STAGE)
        if stage.games != self.stages[-1].games:
            raise Refused(StageCode.EARLIER_STAGE_FINAL, clause="SI-6")
        return replace(self, stages=(*self.stages[:-1], stage))

    @property
    def teams(self) -> tuple[str, ...]:
        return self.stages[0].teams if self.stages else ()

    def final_places(self) -> tuple[tuple[str, ...], ...]:
        """The tour's places, best first (a group shares a place): the final game's order, then the other teams
        by the stage they reached and, within it, by points and raw score."""
        if not self.stages or not self.stages[-1].complete:
            raise Refused(StageCode.TOUR_NOT_FINISHED, tour=self.name)
        places: list[tuple[str, ...]] = []
        final = self.stages[-1]
        if len(final.games) == 1:
            result = final.result(0)
            assert result is not None
            places.extend(result.places)
        for stage in reversed(self.stages):
            placed = {t for group in places for t in group}
            groups: dict[tuple[Fraction, int], list[str]] = {}
            for row in stage.standings():
                if row.team not in placed:
                    groups.setdefault((row.points, row.raw), []).append(row.team)
            places.extend(tuple(groups[key]) for key in sorted(groups, reverse=True))
        return tuple(places)


@dataclass(frozen=True, slots=True)
class LeagueRow:
    team: str
    points: Fraction
    tours: int
    best_place: int


@dataclass(frozen=True, slots=True)
class LeagueTable:
    """The season's league table (SI-5): league points per tour place, summed over the tours played.

    By default a tour with N teams gives N points for 1st place down to 1 for last (shared places averaged);
    ``place_points`` replaces that with a fixed table (places beyond it score 0).
    """

    place_points: tuple[int, ...] = ()
    tours: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()

    def add(self, tour: Tour) -> LeagueTable:
        if any(name == tour.name for name, _ in self.tours):
            raise Refused(StageCode.TOUR_TWICE, tour=tour.name)
        return replace(self, tours=(*self.tours, (tour.name, tour.final_places())))

    def _points(self, places: tuple[tuple[str, ...], ...]) -> Iterable[tuple[str, Fraction, int]]:
        total = sum(len(g) for g in places)
        start = 1
        for group in places:
            covered = range(start, start + len(group))
            if self.place_points:
                values = [self.place_points[p - 1] if p <= len(self.place_points) else 0 for p in covered]
            else:
                values = [total - p + 1 for p in covered]
            for team in group:
                yield team, Fraction(sum(values), len(group)), start
            start += len(group)

    def rows(self) -> tuple[LeagueRow, ...]:
        points: dict[str, Fraction] = {}
        played: dict[str, int] = {}
        best: dict[str, int] = {}
        for _, places in self.tours:
            for team, value, place in self._points(places):
                points[team] = points.get(team, Fraction(0)) + value
                played[team] = played.get(team, 0) + 1
                best[team] = min(best.get(team, place), place)
        rows = [LeagueRow(t, points[t], played[t], best[t]) for t in points]
        return tuple(sorted(rows, key=lambda r: (-r.points, r.best_place, r.team)))


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative display value (mu − 3 sigma): rises with results and with certainty."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class TeamRatings:
    """Team ratings with OpenSkill's Plackett-Luce model: one update per game of 2-4 teams, ranked by score,
    level scores sharing a rank (SI-5). Each team is rated as one unit."""

    ratings: tuple[tuple[str, Rating], ...] = ()
    games: int = 0

    def get(self, team: str) -> Rating:
        found = dict(self.ratings).get(team)
        if found is not None:
            return found
        default = _MODEL.rating()
        return Rating(default.mu, default.sigma)

    def rate(self, scores: Mapping[str, int]) -> TeamRatings:
        if not 2 <= len(scores) <= MAX_TEAMS:
            raise Refused(StageCode.RATED_GAME_SIZE, count=len(scores), maximum=MAX_TEAMS)
        teams = list(scores)
        ordered = sorted(set(scores.values()), reverse=True)
        ranks: list[float] = [float(ordered.index(scores[t]) + 1) for t in teams]
        current = [[_MODEL.rating(mu=self.get(t).mu, sigma=self.get(t).sigma)] for t in teams]
        updated = _MODEL.rate(current, ranks=ranks)
        new = dict(self.ratings)
        for team, (rating,) in zip(teams, updated, strict=True):
            new[team] = Rating(rating.mu, rating.sigma)
        return TeamRatings(tuple(sorted(new.items())), self.games + 1)

    def rate_tour(self, tour: Tour) -> TeamRatings:
        ratings = self
        for stage in tour.stages:
            for _, result in sorted(stage.results):
                ratings = ratings.rate(result.score_map)
        return ratings

    def table(self) -> tuple[tuple[str, Rating], ...]:
        return tuple(sorted(self.ratings, key=lambda item: -item[1].ordinal))


_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class QuizProtest:
    """A protest (SI-6): recorded with the host's ruling and a note on how later games should be run."""

    at_ms: int
    tour: str
    stage: int
    game: int
    team: str
    text: str
    ruling: str = ""
    note_for_future: str = ""


@dataclass(frozen=True, slots=True)
class ProtestLog:
    """Protests, kept apart from the results: they are recorded and inform later games, but nothing in this
    class can reach a :class:`Tour`'s results, which are final (SI-6)."""

    protests: tuple[QuizProtest, ...] = field(default=())

    def file(self, tour: Tour, protest: QuizProtest) -> ProtestLog:
        if protest.tour != tour.name:
            raise Refused(StageCode.PROTEST_OTHER_TOUR, protest_tour=protest.tour, tour=tour.name)
        if protest.stage not in range(len(tour.stages)) or protest.game not in range(
            len(tour.stages[protest.stage].games)
        ):
            raise Refused(StageCode.PROTEST_NO_GAME, tour=tour.name, stage=protest.stage + 1, game=protest.game + 1)
        if protest.team not in tour.stages[protest.stage].games[protest.game]:
            raise Refused(
                StageCode.PROTEST_NOT_PLAYED, team=protest.team, stage=protest.stage + 1, game=protest.game + 1
            )
        if not protest.text.strip():
            raise Refused(StageCode.PROTEST_TEXT)
        return replace(self, protests=(*self.protests, protest))

    def rule(self, index: int, ruling: str, note_for_future: str = "") -> ProtestLog:
        if index not in range(len(self.protests)):
            raise Refused(StageCode.NO_SUCH_PROTEST, number=index + 1)
        if self.protests[index].ruling:
            raise Refused(StageCode.PROTEST_RULED, number=index + 1)
        ruled = replace(self.protests[index], ruling=ruling, note_for_future=note_for_future)
        return replace(self, protests=(*self.protests[:index], ruled, *self.protests[index + 1 :]))

    def notes_for_future(self) -> tuple[str, ...]:
        return tuple(p.note_for_future for p in self.protests if p.note_for_future)
