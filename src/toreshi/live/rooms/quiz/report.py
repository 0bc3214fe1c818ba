"""The game report (SI-9): per question, the presses in the order they arrived, the arbiter's decisions, the
presses that came too late, the rulings and the host's interventions; then the scores and the corrections, and
``ended`` when the host ended the game early (when, after which question, why)."""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.live.room import Payload
from toreshi.live.rooms.quiz.roles import KIND
from toreshi.live.rooms.quiz.views import origin_of, theme_name
from toreshi.quiz import events as ev
from toreshi.quiz.events import Event
from toreshi.quiz.game import CurrentQuestion, Outcome, PlayedQuestion
from toreshi.quiz.play.events import (
    EVENTS,
    ROOM_EVENT_TYPES,
    BuzzDecided,
    GameClosed,
    PressLate,
    PressReceived,
    UndoneTo,
)
from toreshi.quiz.play.state import PlayState

__all__ = ["Logged", "report"]

Logged = tuple[Event, int]
"""An applied event with the room time it was stored at."""

_HOST_TOOLS = (ev.PressCancelled, ev.ClarificationRequested, ev.AnswerTimeExtended, ev.TimeCalled, ev.GameEnded)
_AFTERWARDS = frozenset({"reversed", "corrected"})
"""Story steps a host may take once the question is closed (so they are told after its outcome)."""
_STEP_OF_TOOL = {
    ev.PressCancelled.type: "cancelled",
    ev.ClarificationRequested.type: "clarify",
    ev.AnswerTimeExtended.type: "extended",
    ev.TimeCalled.type: "time",
}


def report(state: PlayState, log: Sequence[Logged]) -> Payload:
    """The game afterwards, from its log (the report is the host's until the game is over)."""
    if not state.created:
        return {"kind": KIND, "status": "empty", "questions": []}
    game = state.game
    questions: dict[int, Payload] = {}

    def entry(number: int) -> Payload:
        return questions.setdefault(
            number,
            {"number": number, "presses": [], "decisions": [], "late": [], "rulings": [], "host": [], "story": []},
        )

    def tell(question: int, step: str, at_ms: int, **details: object) -> None:
        """One step of the question's story, in the order the log has it (SI-9: what happened, not only how)."""
        if question:
            entry(question)["story"].append({"step": step, "at_ms": at_ms, **details})

    number = 0
    step = 0
    """The game events that stand so far (an undo takes it back): what a correction is dated by."""
    corrections: dict[int, dict[str, int]] = {}
    corrected_at: list[tuple[int, int, str, int]] = []
    audience: list[Payload] = []
    ended: Payload | None = None
    undos: list[Payload] = []
    closed_by: Payload | None = None
    for event, at in log:
        if not isinstance(event, ROOM_EVENT_TYPES):
            step += 1
        if isinstance(event, UndoneTo):
            # Undone, not deleted (issue 31): the questions chosen after the point leave the report's list for the
            # undo's own record, the corrections made after it stop counting, and play goes on from there.
            gone = [questions.pop(n) for n in sorted(questions) if n > event.questions]
            for _when, n, team, delta in [c for c in corrected_at if c[0] > event.step]:
                corrections[n][team] -= delta
            corrected_at = [c for c in corrected_at if c[0] <= event.step]
            undos.append({"at_ms": at, "step": event.step, "questions": event.questions, "undone": event.undone,
                          "undone_questions": gone})  # fmt: skip
            tell(event.questions, "undone", at, to_step=event.step)
            number, step = event.questions, event.step
            ended = None
            continue
        if isinstance(event, GameClosed):
            closed_by = {"at_ms": at, "reason": event.reason}
        if isinstance(event, ev.GameEnded):
            ended = {"at_ms": at, "reason": event.reason, "question": number}
        if isinstance(event, ev.QuestionChosen | ev.ReserveQuestionChosen):
            number += 1
            entry(number)["chosen_ms"] = at
            tell(number, "chosen", at, team=event.team if isinstance(event, ev.QuestionChosen) else None)
            entry(number)["chooser"] = event.team if isinstance(event, ev.QuestionChosen) else None
            if isinstance(event, ev.QuestionChosen):  # named even if an undo later takes the question back
                entry(number).update(theme_name=theme_name(game, event.theme), value=event.value)
        elif isinstance(event, ev.ScoreCorrected):
            corrections.setdefault(number, {}).setdefault(event.team, 0)
            corrections[number][event.team] += event.delta
            corrected_at.append((step, number, event.team, event.delta))
            if number:
                entry(number)["host"].append({"type": event.type, "at_ms": at, "team": event.team,
                                              "delta": event.delta, "reason": event.reason})  # fmt: skip
            tell(number, "corrected", at, team=event.team, delta=event.delta)
        elif isinstance(event, ev.AudienceWarned | ev.AudienceSanctioned):
            scope = event.scope.value if isinstance(event, ev.AudienceSanctioned) else None
            audience.append({"type": event.type, "person": event.person, "scope": scope, "at_ms": at,
                             "question": number})  # fmt: skip
        elif isinstance(event, ev.QuestionReplaced):
            entry(number)["host"].append(
                {"type": event.type, "at_ms": at, "reason": event.reason.value, "theme": event.theme,
                 "reserve": event.reserve}
            )  # fmt: skip
            tell(number, "replaced", at, reason=event.reason.value)
        elif isinstance(event, PressReceived):
            entry(number)["presses"].append(
                {
                    "team": event.team,
                    "received_ms": event.received_ms,
                    "source": event.source,
                    "client_ms": event.client_ms,
                    "after_ms": max(0, event.received_ms - int(entry(number).get("chosen_ms", event.received_ms))),
                }
            )
        elif isinstance(event, BuzzDecided):
            entry(number)["decisions"].append(
                {
                    "winner": event.winner,
                    "order": EVENTS.encode(event)["order"],
                    "tie": event.tie,
                    "waited_ms": event.decided_ms - event.first_arrival_ms,
                    "mode": event.mode.value,
                }
            )
        elif isinstance(event, PressLate):
            entry(event.question)["late"].append({"team": event.team, "reason": event.reason.value})
        elif isinstance(event, ev.Buzzed):
            tell(number, "recognised", at, team=event.team)
        elif isinstance(event, ev.AnswerJudged | ev.AnswerTimeExpired):
            judged = isinstance(event, ev.AnswerJudged)
            ruled = event.team if isinstance(event, ev.AnswerJudged) else _answering_before(log, at)
            right = event.correct if isinstance(event, ev.AnswerJudged) else False
            entry(number)["rulings"].append({"team": ruled, "correct": right, "timed_out": not judged, "at_ms": at})
            tell(number, "right" if right else ("wrong" if judged else "answer_time"), at, team=ruled)
        elif isinstance(event, ev.DecisionReversed):
            # A reversed ruling (Z, or a reversal named by question and team) is a ruling of its own, made later.
            was = [r for r in entry(event.question)["rulings"] if r["team"] == event.team and not r.get("void")]
            correct = not was[-1]["correct"] if was else None
            entry(event.question)["rulings"].append(
                {"team": event.team, "correct": correct, "timed_out": False, "at_ms": at, "reversed": True}
            )
            entry(event.question)["host"].append({"type": event.type, "at_ms": at, "team": event.team})
            tell(event.question, "reversed", at, team=event.team, correct=correct)
        elif isinstance(event, _HOST_TOOLS):
            details = {key: value for key, value in EVENTS.encode(event).items() if key not in ("type", "at_ms")}
            entry(number)["host"].append({"type": event.type, "at_ms": at, **details})
            if isinstance(event, ev.ClarificationRequested | ev.AnswerTimeExtended):
                tell(number, _STEP_OF_TOOL[event.type], at, team=_answering_before(log, at))  # to whoever answers
            elif not isinstance(event, ev.GameEnded):
                tell(number, _STEP_OF_TOOL[event.type], at, team=getattr(event, "team", None))
    asked: list[tuple[PlayedQuestion | CurrentQuestion, str | None]] = [(p, p.outcome.value) for p in game.played]
    if game.current is not None:
        asked.append((game.current, None))  # still in play: no outcome yet
    for question, outcome in asked:
        entry(question.number).update(
            {
                "theme_name": theme_name(game, origin_of(game, question)[0]),
                "value": question.value,
                "text": question.question.text,
                "answers": list(question.question.answers),
                "outcome": outcome,
            }
        )
        if outcome is not None:
            story = entry(question.number)["story"]
            # The question closed with its last step of play; a reversal or a correction may come after it.
            closed = max((i + 1 for i, step in enumerate(story) if step["step"] not in _AFTERWARDS), default=0)
            story.insert(closed, {"step": "outcome", "outcome": _closing(outcome, story)})
    running = dict.fromkeys(game.teams, 0)
    for n in sorted(questions):
        for record in game.answers:
            if record.question == n:
                running[record.team] += record.points
        for team, delta in corrections.get(n, {}).items():
            running[team] += delta
        questions[n]["running"] = dict(running)
    shown: Payload = {
        "kind": KIND,
        "title": state.title,
        "game": game._setup.kind.value,
        "status": game.phase.value,
        "teams": list(game.teams),
        "scores": game.scores,
        "questions": [questions[n] for n in sorted(questions)],
        "corrections": [{"team": c.team, "delta": c.delta, "reason": c.reason} for c in game.corrections],
        "warnings": list(game.warnings),
        "audience": audience,
    }
    if undos:
        shown["undos"] = undos  # only a game the host took back has them (an old report's shape is unchanged)
    if closed_by is not None:
        shown["closed"] = closed_by
    if ended is not None:
        shown["ended"] = ended  # only a game the host ended early has it (an old report's shape is unchanged)
    return shown


def _closing(outcome: str, story: Sequence[Payload]) -> str:
    """How the question ended, told apart where one outcome hides two stories: "time" after nobody had the floor
    (nobody pressed, SI-3.10) is not "time" after wrong answers or cancelled presses (nobody answered right)."""
    if outcome == Outcome.TIME.value and any(step["step"] == "recognised" for step in story):
        return "time_unanswered"
    return outcome


def _answering_before(log: Sequence[Logged], at: int) -> str | None:
    """The team recognised last before ``at`` (an expired answer names no team)."""
    for event, when in reversed(log):
        if isinstance(event, ev.Buzzed) and when <= at:
            return event.team
    return None
