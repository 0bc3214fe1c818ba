"""What each role of a quiz room sees (docs/protocol.md, "Room kind quiz").

The right answers, comments and sources of a question are in host views only until the question is over; then the
answer is shown to everyone (SI-3.10: the host reads it), comments and sources stay with the host.

An event reaches the spectators, the projector, four phones and the host at once, and all of them see it as of its
time: what every role shares is built once per event and role group (host or not), the "what may I do" list
(``can``) once per event and group (the host, each team, the assistant, the projector): the answers the room's own
``decide`` gives about one command of each kind (:func:`toreshi.quiz.play.probes.offered`), and only the team's
buzzer state per connection.
"""

from __future__ import annotations

from collections.abc import Callable

from toreshi.kit.core import Actor
from toreshi.live.room import Payload
from toreshi.live.rooms.quiz.roles import KIND, TEAM, group_of, is_host, role_of
from toreshi.quiz.board import VALUES, BoardItem, BoardQuestion
from toreshi.quiz.buzzer import ClockSync
from toreshi.quiz.game import CurrentQuestion, GameState, Phase, PlayedQuestion
from toreshi.quiz.lots import choice_order
from toreshi.quiz.pack import ContentType, Placement
from toreshi.quiz.play.commands import Note
from toreshi.quiz.play.events import EVENTS
from toreshi.quiz.play.media import cell_key
from toreshi.quiz.play.probes import offered
from toreshi.quiz.play.state import PlayState

__all__ = ["Views", "audience_of", "buzzer_state", "origin_of", "sees_presses", "theme_name"]

HOST, SCREEN, BLIND = "host", "screen", "blind"
"""Who sees what of the buzzer before the decision: the host everything, the projector (which lights the team
that pressed) who pressed, everyone else — the teams, the assistant (a player of another team, SI-4.1),
spectators — nothing: a team that learns that another pressed could press and claim an earlier touch."""


def audience_of(role: str) -> str:
    if is_host(role):
        return HOST
    return SCREEN if role == "projector" else BLIND


def sees_presses(role: str) -> bool:
    return audience_of(role) != BLIND


_NO_NOTE = Note()
DEFAULT_VOLUME = 80
_CACHED = 8
"""Views kept per room: a few moments (the event's, a snapshot's) of one state."""


class Views:
    """The views of one room's state, cached until the state changes (:meth:`clear` on every event)."""

    def __init__(self) -> None:
        self._shared: dict[tuple[int, str], tuple[GameState, Payload]] = {}
        self._can: dict[tuple[int, tuple[str, str]], list[str]] = {}
        self._lists = _Lists()
        """The host's long lists, kept across events while what they are made of stays the same."""
        self._boards: dict[tuple[int, bool], list[Payload]] = {}
        """The board at a moment, as the host and as everyone else sees it (the same cells in both)."""

    def clear(self) -> None:
        self._shared.clear()
        self._can.clear()
        self._boards.clear()

    def view(self, state: PlayState, actor: Actor | None, now_ms: int) -> Payload:
        """The whole room as ``actor`` sees it at ``now_ms`` (``None``: a spectator)."""
        if not state.created:
            return {"kind": KIND, "status": "empty"}
        role = role_of(actor)
        now = max(now_ms, state.game.last_ms)
        game, shared = self._shared_view(state, now, audience_of(role))
        view: Payload = {**shared, "can": self._can_list(state, actor, game, now)}
        if role == TEAM and actor is not None:
            view["you"] = actor.name
            view["buzzer"] = buzzer_state(state, actor.name, game)
        return view

    def _shared_view(self, state: PlayState, now: int, audience: str) -> tuple[GameState, Payload]:
        """The game at ``now`` and the part of the view that does not depend on who is looking, but on their
        audience (:func:`audience_of`; callers must not change it)."""
        cached = self._shared.get((now, audience))
        if cached is not None:
            return cached
        if len(self._shared) >= _CACHED:
            self._shared.clear()
            self._boards.clear()
        game = state.game.at(now)
        built = game, _build_view(state, game, now, audience, self._lists, self._boards)
        self._shared[(now, audience)] = built
        return built

    def _can_list(self, state: PlayState, actor: Actor | None, game: GameState, now: int) -> list[str]:
        group = group_of(actor)
        key = (now, group)
        cached = self._can.get(key)
        if cached is not None:
            return cached
        if len(self._can) >= 2 * _CACHED:
            self._can.clear()
        found = offered(state, Actor(*group), now, game)
        self._can[key] = found
        return found


def buzzer_state(state: PlayState, team: str, game: GameState | None = None) -> str:
    """What a team's phone shows: ``locked``, ``open``, ``pressed``, ``your_turn`` or ``answered``."""
    game = game or state.game
    current = game.current
    if current is None or game.phase is Phase.FINISHED:
        return "locked"
    if current.answering_team == team:
        return "your_turn"
    if team in current.answered:
        return "answered"
    if any(p.team == team for p in state.pending):
        return "pressed"
    if game.phase in (Phase.READING, Phase.PRESS_WINDOW):
        return "open"
    return "locked"


def origin_of(game: GameState, asked: PlayedQuestion | CurrentQuestion) -> tuple[int | None, int | None]:
    """Where a question really comes from, as (board theme, reserve index): its own cell, or — after a replacement
    (SI-4.6) — another theme's cell of the same value or a reserve question. The theme's name is part of the
    question for the players, and the host's comment and sources belong to the question asked."""
    board = game._setup.board
    theme, value, question = asked.theme, asked.value, asked.question
    if theme is not None and board.themes[theme].cell(value) == question:
        return theme, None
    for index, candidate in enumerate(board.themes):
        if candidate.cell(value) == question:
            return index, None
    for index, spare in enumerate(board.reserve):
        if spare == question:
            return None, index
    return theme, None


def theme_name(game: GameState, origin: int | None) -> str | None:
    """The name of the board theme a question comes from (:func:`origin_of`); ``None`` for a reserve question."""
    return None if origin is None else game._setup.board.themes[origin].name


def _note(state: PlayState, theme: int | None, value: int, reserve: int | None = None) -> Note:
    key = f"r:{reserve}" if reserve is not None else f"{theme}:{value}"
    return state.notes.get(key, _NO_NOTE)


def _cell(show_prices: bool, cell: BoardQuestion, open_: bool) -> Payload:
    shown: Payload = {"value": cell.value, "open": open_, "empty": cell.empty}
    if show_prices and not cell.empty:
        shown["price"] = cell.source_price  # the pack's own price beside the regulation's point (issue 31)
    return shown


class _Lists:
    """Lists of the host's view that only grow with the game (its undo points, its rulings): each is rebuilt only
    when the state's tuple it is made of is another one (states are never changed, so the same tuple object
    means the same list), not after every event: a press, a decision and a ruling leave most of them as they were.
    The lists are shared by the views that carry them; nobody changes a view."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[object, tuple[int | bool, ...], list[Payload]]] = {}

    def get(
        self, name: str, source: object, scalars: tuple[int | bool, ...], build: Callable[[], list[Payload]]
    ) -> list[Payload]:
        kept = self._kept.get(name)
        if kept is not None and kept[0] is source and kept[1] == scalars:
            return kept[2]
        built = build()
        self._kept[name] = (source, scalars, built)
        return built


def _board(game: GameState, now: int, host: bool, boards: dict[tuple[int, bool], list[Payload]]) -> list[Payload]:
    """The board as the host (``host``) or everyone else sees it at ``now``: only a theme's explanation differs
    (the host has it before the theme is announced), so the cells are built once for both."""
    board = boards.get((now, host))
    if board is not None:
        return board
    other = boards.get((now, not host))
    setup = game._setup
    choosing = game.phase is not Phase.STRIKING
    board = [
        {
            "index": index,
            "name": theme.name,
            "struck": index in game.struck,
            "announced": index in game.announced,
            "explanation": theme.explanation if index in game.announced or host else "",
            "cells": other[index]["cells"]
            if other is not None
            else [
                _cell(setup.show_prices, theme.cell(value), choosing and game.is_open(index, value)) for value in VALUES
            ],
        }
        for index, theme in enumerate(setup.board.themes)
    ]
    boards[(now, host)] = board
    return board


def _build_view(
    state: PlayState,
    game: GameState,
    now: int,
    audience: str,
    lists: _Lists | None = None,
    boards: dict[tuple[int, bool], list[Payload]] | None = None,
) -> Payload:
    setup = game._setup
    current = game.current
    scores = game.scores
    answering = current.answering_team if current else None
    host = audience == HOST
    # Before the decision only the host and the projector learn who pressed (issue 13 §1).
    pressed = {p.team for p in state.pending} if audience != BLIND else set()
    teams = [
        {
            "name": team,
            "score": scores[team],
            "answered": bool(current and team in current.answered),
            "answering": team == answering,
            "pressed": team in pressed,
        }
        for team in game.teams
    ]
    board = _board(game, now, host, {} if boards is None else boards)
    number = state.question_number
    decision = state.decision
    view: Payload = {
        "kind": KIND,
        "status": game.phase.value,
        "title": state.title,
        "game": setup.kind.value,
        "reading_mode": setup.reading.value,
        "timers": {"press_window_ms": setup.press_window_ms, "answer_ms": setup.answer_ms},
        "teams": teams,
        "chooser": game.chooser,
        "striker": game.striker,
        "first_chooser": game.first_chooser,
        "board": board,
        "kept": setup.final_themes_kept,
        "sudden_death": game.sudden_death and game.phase is Phase.CHOOSING,
        "reserve_left": [i for i in range(len(setup.board.reserve)) if i not in game.used_reserve],
        "current": _current_view(state, game, now, audience),
        "last": _last_view(state, game, host),
        "decision": None
        if decision is None
        else {
            "question": decision.question,
            "winner": decision.winner,
            "order": [entry.team for entry in decision.order],
            "tie": decision.tie,
        },
        "late": [{"team": late.team, "reason": late.reason.value} for late in state.late if late.question == number],
        "score_due": game.score_announcement_due,
        "score_requests": list(game.score_requests),
        "announcements": [{"at_ms": a.at_ms, "scores": dict(a.scores)} for a in game.announcements[-5:]],
        "assistant": None if setup.assistant is None else {"name": setup.assistant.name, "team": setup.assistant.team},
        "warnings": list(game.warnings),
        "sanctions": [{"person": p, "scope": s.value} for p, s in game.sanctions],
        "played": len(game.played),
        "closed": state.closed,
        "at": now,
    }
    if setup.lots_seed:  # a game recorded before issue 29 has no seed, and its views stay as they were
        view["lots"] = _lots_view(setup.lots_seed, game, host)
    # Only a game that used them carries the host's media controls and the projector's volume.
    if state.media is not None:
        view["media"] = {
            "question": state.media.question,
            "action": state.media.action.value,
            "count": state.media_count,
        }
    if state.volume != DEFAULT_VOLUME:
        view["volume"] = state.volume
    if host:
        view["host"] = _host_part(state, game, lists or _Lists())
    return view


def _link(state: PlayState, team: str, sync: ClockSync) -> Payload:
    """A team's measured link on the host's panel; ``backdated`` (how many of its presses claimed more lag than
    its link has) and ``backdating`` (the panel marks the team) only once it has done so."""
    suspect = state.settings.suspect(sync)
    link: Payload = {"rtt_ms": sync.rtt_median_ms, "rtt_p95_ms": sync.rtt_max_ms, "suspect": suspect}
    claims = state.claims.get(team)
    if claims is not None and claims.backdated:
        link.update(backdated=claims.backdated, backdating=claims.marked)
    return link


def _host_part(state: PlayState, game: GameState, lists: _Lists) -> Payload:
    setup = game._setup
    settings = state.settings
    return {
        "keys": dict(state.keys),
        "buttons": dict(state.buttons),
        "arbitration": {
            "mode": settings.mode.value,
            "tie_rule": settings.tie_rule.value,
            "random_window_ms": settings.random_window_ms,
            "max_compensation_ms": settings.max_compensation_ms,
            "suspect_rtt_ms": max(settings.max_compensation_ms, settings.suspect_rtt_ms),
        },
        "projector_keys": state.projector_keys,
        # Each team's measured link as the arbiter uses it; over the cap, the team is suspect (issue 13 §1); a team
        # whose presses claim more lag than its link has is marked ``backdating`` (issue 26).
        "links": {team: _link(state, team, sync) for team, sync in state.syncs.items()},
        "pending": [{"team": p.team, "received_ms": p.received_ms, "source": p.source} for p in state.pending],
        "audit": [EVENTS.encode(event) for event in game.audit[-20:]],
        # The spare questions to pick from, only while single reserve questions are asked (SI-2.2): the whole
        # reserve (60+ questions of a pack) would otherwise ride along with every event to the host.
        "reserve": [
            {"index": i, "value": q.value, "text": q.text, "answers": list(q.answers), "theme_name": q.theme}
            for i, q in enumerate(setup.board.reserve)
            if i not in game.used_reserve
        ]
        if game.sudden_death
        else [],
        # The moments between questions the host may undo to (issue 31), newest last; the current one is not.
        # A point's step is the length of the history when it was made: only the newest may be the current moment.
        "points": lists.get(
            "points",
            state.points,
            (bool(state.points) and state.points[-1].step < len(state.history), state.closed),
            lambda: _points(state),
        ),
        "answers": lists.get("answers", game.answers, (), lambda: _answers(game)),
    }


def _points(state: PlayState) -> list[Payload]:
    if state.closed:
        return []
    return [
        {
            "step": point.step,
            "at_ms": point.at_ms,
            "event": None if point.event is None else EVENTS.encode(point.event),
            "questions": point.questions,
            "scores": dict(point.scores),
            "last": None if point.last is None else {"theme_name": point.last[0], "value": point.last[1]},
        }
        for point in state.points
        if point.step < len(state.history)
    ]


def _answers(game: GameState) -> list[Payload]:
    return [
        {
            "question": r.question,
            "team": r.team,
            "value": r.value,
            "correct": r.correct,
            "void": r.void,
            "reversed": r.reversed,
            "timed_out": r.timed_out,
        }
        for r in game.answers
    ]


def _current_view(state: PlayState, game: GameState, now: int, audience: str) -> Payload | None:
    host = audience == HOST
    current = game.current
    if current is None:
        return None
    setup = game._setup
    origin, reserve = origin_of(game, current)
    key = cell_key(origin, current.value, reserve)
    shown: Payload = {
        "number": current.number,
        "theme": current.theme,
        "theme_name": theme_name(game, origin),
        "value": current.value,
        "text": current.question.text,
        "revealed": game.revealed_chars(now),
        "reading": {
            "since": current.reading_since_ms,
            "read_ms": current.read_ms,
            "total_ms": current.reading_total_ms,
            "done": current.reading_done,
            "ends": current.reading_ends_ms,
            "chars_per_second": setup.chars_per_second,
        },
        "window": {"start": current.window_start_ms, "closes": game.window_closes_ms},
        "open": game.phase in (Phase.READING, Phase.PRESS_WINDOW),
        "opened": game.opened_ms,
        "answering": current.answering_team,
        "answer_deadline": current.answer_deadline_ms,
        "answered": sorted(current.answered),
        "arbitrating": bool(state.pending) and audience != BLIND,
    }
    unread = bool(current.special) and game.phase in (Phase.STAKING, Phase.GIVING) and not host
    if unread:
        # Not read before its stakes or its handing over (SIGame): only the host sees the text until then.
        shown.update(text="", revealed=0)
    if current.special:
        # SIGame's special question played by its rules (a game setting, issue 31): the stakes, whose turn, the
        # bounds of each team's stake, the price the one team answers for.
        turn = game.stake_turn()
        shown["special"] = {
            "kind": current.special,
            "stakes": [{"team": team, "amount": amount} for team, amount in current.stakes],
            "turn": turn,
            "bounds": {team: list(game.stake_bounds(team)) for team in game.teams} if turn is not None else {},
            "price": current.price * (2 if current.special == "no_risk" else 1),
            "solo": current.answering_team if current.solo else None,
        }
    if current.clarifying:
        shown["clarifying"] = True  # «Уточните»: only while it holds (a view without it reads as before)
    question = current.question
    # A question of screen text only shows as it always did: its items, type and answer media only when it has them.
    if question.items and not unread:
        shown["items"] = _items(key, "q", question.items, host)
        shown["waits"] = question.waits_for_media
    if host and question.kind:
        shown["kind"] = question.kind
    if host and question.answer_items:
        shown["answer_items"] = _items(key, "a", question.answer_items, host)
    if host:
        note = _note(state, origin, current.value, reserve)
        shown["answers"] = list(current.question.answers)
        shown["comment"] = note.comment
        shown["sources"] = list(note.sources)
        shown["authors"] = list(note.authors)
        shown["replacements"] = [
            index for index in game.themes_in_play if index != current.theme and game.is_open(index, current.value)
        ]
        shown["reserve_same_value"] = [
            i for i, q in enumerate(setup.board.reserve) if i not in game.used_reserve and q.value == current.value
        ]
        # What the host picks a replacement by (issue 31): the theme, the price and how the question begins.
        board = setup.board
        shown["replacement_options"] = [
            *(_option(board.themes[i].cell(current.value), {"theme": i}, board.themes[i].name)
              for i in shown["replacements"]),
            *(_option(board.reserve[i], {"reserve": i}, board.reserve[i].theme) for i in shown["reserve_same_value"]),
        ]  # fmt: skip
    return shown


OPENING_CHARS = 80
"""How much of a question's text the host's list of replacements shows."""


def _option(question: BoardQuestion, where: Payload, theme: str) -> Payload:
    """One question to pick (a replacement, a reserve question): where it is, its theme, price and opening words."""
    text = " ".join(question.text.split())
    opening = text if len(text) <= OPENING_CHARS else text[: OPENING_CHARS - 1].rstrip() + "…"
    return {**where, "theme_name": theme, "value": question.value, "opening": opening,
            "items": [item.type.value for item in question.items if item.type is not ContentType.TEXT]}  # fmt: skip


def _last_view(state: PlayState, game: GameState, host: bool) -> Payload | None:
    if not game.played:
        return None
    played = game.played[-1]
    origin, reserve = origin_of(game, played)
    shown: Payload = {
        "number": played.number,
        "theme_name": theme_name(game, origin),
        "value": played.value,
        "text": played.question.text,
        "answers": list(played.question.answers),  # read out after the question (SI-3.10)
        "outcome": played.outcome.value,
        "verdicts": [
            {"team": r.team, "correct": r.correct, "timed_out": r.timed_out}
            for r in game.answers
            if r.question == played.number and not r.void
        ],
    }
    if played.question.answer_items:
        shown["answer_items"] = _items(cell_key(origin, played.value, reserve), "a", played.question.answer_items, host)
    if host:
        note = _note(state, origin, played.value, reserve)
        shown["comment"] = note.comment
        shown["sources"] = list(note.sources)
    return shown


def _items(key: str, part: str, items: tuple[BoardItem, ...], host: bool) -> list[Payload]:
    """A question's (or its answer's) content items as the screens show them: the host's spoken lines (replic)
    only to the host; media by their address in the room (``media/{cell}/{part}/{index}``), never by file name."""
    shown: list[Payload] = []
    for index, item in enumerate(items):
        if item.placement is Placement.REPLIC and not host:
            continue
        entry: Payload = {
            "type": item.type.value,
            "placement": item.placement.value,
            "duration_ms": item.duration_ms,
            "wait": item.wait,
        }
        if item.type is ContentType.TEXT:
            entry["text"] = item.value
        elif item.ref:
            entry["url"] = f"media/{key}/{part}/{index}"
            if host:
                entry["name"] = item.value
        else:
            entry["external"] = True  # a link outside the pack: the screens load nothing from other sites
            if host:
                entry["name"] = item.value
        shown.append(entry)
    return shown


def _lots_view(seed: str, game: GameState, host: bool) -> Payload:
    """The lot for the order of choice (SI-3.2, issue 29): its seed on every screen from the game's creation, before
    the draw; the order it draws to the host before the draw and to everyone once drawn; whether the host named
    another first chooser than the lot's (that is in the game's log too)."""
    order = choice_order(seed, game.teams)
    drawn = game.first_chooser is not None
    return {
        "seed": seed,
        "order": list(order) if host or drawn else None,
        "overridden": drawn and game.first_chooser != order[0],
    }
