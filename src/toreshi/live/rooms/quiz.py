"""A «Своя игра» game as a live room: host tools and team presses → :mod:`toreshi.quiz.game` events.

Roles: ``host`` (also a signed-in ``arbiter``), ``team`` (``Actor.name`` is the team's name in the game),
``assistant`` (keeps and announces the score, SI-4.7), ``projector`` (the board on the wall; may forward keys
of USB buzzers), ``buttons`` (server-side button sources such as a serial port) and ``spectator``.

Every rule lives in the game core; this adapter checks who may ask for what, arbitrates presses with
:mod:`toreshi.quiz.buzzer`, turns the timers the core asks for into :meth:`QuizRoom.deadline_ms`, and shapes what
each role sees. The right answers, comments and sources of a question are in host views only until the question is
over; then the answer is shown to everyone (SI-3.10: the host reads it), comments and sources stay with the host.

A press is a room event of its own (``press_received``) carrying what the server measured: when it arrived (room
time), the client's touch time and the connection's clock sync (trusted :attr:`Command.meta`, set by the socket
only). When the arbiter's collection window is over, :meth:`QuizRoom.on_deadline` records the decision
(``buzz_decided``, the full order for the "lost button" display and appeals) and the core's ``buzzed`` event.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toreshi.live.room import Actor, Command, CommandRefusedError, Decided, Payload
from toreshi.quiz.board import VALUES, BoardQuestion
from toreshi.quiz.buzzer import (
    Arbiter,
    ArbiterSettings,
    ArbitrationMode,
    BuzzerError,
    ClockSync,
    Press,
    TieRule,
)
from toreshi.quiz.events import (
    AnswerJudged,
    AnswerTimeExpired,
    AnswerTimeExtended,
    AudienceSanctioned,
    AudienceWarned,
    Buzzed,
    ClarificationRequested,
    DecisionReversed,
    Event,
    FirstChooserDrawn,
    GameCreated,
    GameSetup,
    PressCancelled,
    QuestionChosen,
    QuestionReplaced,
    ReadingFinished,
    ReplacementReason,
    ReserveQuestionChosen,
    SanctionScope,
    ScoreAnnounced,
    ScoreCorrected,
    ScoreRequested,
    ThemeAnnounced,
    ThemeStruck,
    TimeCalled,
    event_from_dict,
)
from toreshi.quiz.game import GameError, GameState, Phase

KIND = "quiz"
HOST_ROLES = frozenset({"host", "arbiter"})
TEAM = "team"
ASSISTANT = "assistant"
PROJECTOR = "projector"
BUTTONS = "buttons"

FALLBACK_RTT_MS = 150
"""The uplink assumed for a team whose link has not been measured yet (compensated mode needs one)."""
MAX_TEXT = 500
MAX_EXTENSION_MS = 60_000

# Room events (everything else in the log is a game event of :mod:`toreshi.quiz.events`).
CREATED = "quiz_created"
LINK = "link_measured"
PRESS = "press_received"
DECIDED = "buzz_decided"
LATE = "press_late"
KEYS = "keys_mapped"
ROOM_EVENTS = frozenset({CREATED, LINK, PRESS, DECIDED, LATE, KEYS})

HOST_COMMANDS = frozenset(
    {
        "draw",
        "strike",
        "announce",
        "choose",
        "reserve",
        "finish_reading",
        "right",
        "wrong",
        "clarify",
        "extend",
        "cancel_press",
        "replace",
        "reverse",
        "undo",
        "correct",
        "warn",
        "sanction",
        "announce_score",
        "request_score",
        "key",
        "map_keys",
    }
)
TEAM_COMMANDS = frozenset({"press", "sync", "request_score"})
ASSISTANT_COMMANDS = frozenset({"announce_score", "request_score"})
PROJECTOR_COMMANDS = frozenset({"key"})
BUTTON_COMMANDS = frozenset({"press"})


def role_of(actor: Actor | None) -> str:
    """The actor's role in the room: per-team grants are stored as ``team:1``…``team:4`` (a room holds one grant per
    role), and all of them are the ``team`` role here."""
    if actor is None:
        return "spectator"
    return TEAM if actor.role.startswith(f"{TEAM}:") else actor.role


@dataclass(frozen=True, slots=True)
class PendingPress:
    """A press fed to the arbiter of the current opening, with how it reached the server."""

    team: str
    received_ms: int
    client_ms: int | None
    source: str

    def press(self) -> Press:
        return Press(self.team, self.received_ms, self.client_ms)


def _int(data: Mapping[str, Any], key: str, *, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandRefusedError("bad_request", f"'{key}' must be a whole number")
    return value


def _team(data: Mapping[str, Any], default: str | None, doing: str) -> str:
    """The team a host command names, or the one the game implies (the chooser, the striker, the answerer)."""
    team = data.get("team", default)
    if team is None:
        raise CommandRefusedError("refused", f"no team to {doing} now")
    return _text({"team": team}, "team")


def _optional_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _text(data: Mapping[str, Any], key: str, *, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise CommandRefusedError("bad_request", f"'{key}' must be a text of at most {MAX_TEXT} characters")
    return value


def sync_to_dict(sync: ClockSync) -> dict[str, int]:
    return {
        "offset_ms": sync.offset_ms,
        "offset_low_ms": sync.offset_low_ms,
        "offset_high_ms": sync.offset_high_ms,
        "rtt_median_ms": sync.rtt_median_ms,
        "rtt_max_ms": sync.rtt_max_ms,
    }


def sync_from_dict(data: object) -> ClockSync | None:
    """A clock sync from trusted meta or a stored event; ``None`` when absent or malformed."""
    if not isinstance(data, Mapping):
        return None
    keys = ("offset_ms", "offset_low_ms", "offset_high_ms", "rtt_median_ms", "rtt_max_ms")
    values: list[int] = []
    for key in keys:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        values.append(value)
    offset, low, high, median, worst = values
    if median < 0 or worst < 0 or low > high:
        return None
    return ClockSync(offset, low, high, median, worst)


def arbiter_settings_from(data: Mapping[str, Any]) -> ArbiterSettings:
    try:
        mode = ArbitrationMode(str(data.get("mode", ArbitrationMode.COMPENSATED.value)))
        tie = TieRule(str(data.get("tie_rule", TieRule.EARLIER_ARRIVAL.value)))
    except ValueError:
        raise CommandRefusedError("bad_request", "unknown arbitration mode or tie rule") from None
    settings = ArbiterSettings(mode=mode, tie_rule=tie)
    window = data.get("random_window_ms")
    if isinstance(window, int) and not isinstance(window, bool) and 0 < window <= 5_000:
        settings = ArbiterSettings(mode=mode, tie_rule=tie, random_window_ms=window)
    return settings


def _arbiter_to_dict(settings: ArbiterSettings) -> dict[str, Any]:
    return {
        "mode": settings.mode.value,
        "tie_rule": settings.tie_rule.value,
        "random_window_ms": settings.random_window_ms,
    }


class QuizRoom:
    """The :class:`~toreshi.live.room.RoomLogic` of one «Своя игра» game."""

    kind = KIND

    def __init__(self) -> None:
        self.state = GameState()
        self.title = ""
        self.notes: dict[str, dict[str, Any]] = {}
        """Host-only notes per cell ``"theme:value"`` or reserve ``"r:index"``: comment, sources, authors."""
        self.keys: dict[str, str] = {}
        """Keyboard keys of USB buzzers → team."""
        self.buttons: dict[str, str] = {}
        """Serial-port button numbers → team."""
        self.settings = ArbiterSettings()
        self.syncs: dict[str, ClockSync] = {}
        self.pending: tuple[PendingPress, ...] = ()
        self.log: list[tuple[str, dict[str, Any], int]] = []
        """Every applied event with its room time: the game report is built from it."""
        self._views: dict[tuple[int, bool], tuple[GameState, Payload]] = {}
        """What every role shares of the view, by (room time, host or not), until the next event: an event reaches
        the spectators, the projector, four phones and the host at once, and all of them see it as of its time."""

    # --- deciding --------------------------------------------------------------------------------------

    @property
    def created(self) -> bool:
        return self.state.setup is not None

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        role = role_of(command.actor)
        if not self.created:
            if command.type != "create" or role not in HOST_ROLES:
                raise CommandRefusedError("no_game", "the game has not been created yet")
            return self._create(command.data, now_ms)
        if command.type == "create":
            raise CommandRefusedError("refused", "the game has already been created")
        allowed = self._allowed(role)
        if command.type not in allowed:
            who = "spectators cannot act" if not allowed else f"the {role} cannot {command.type.replace('_', ' ')}"
            raise CommandRefusedError("forbidden", who)
        now = max(now_ms, self.state.last_ms)
        if command.type == "press":
            return self._press_command(command, now)
        if command.type == "key":
            return self._key(command, now)
        if command.type == "sync":
            return self._sync(command)
        if command.type == "map_keys":
            return [Decided(KEYS, {**self._key_maps(command.data), "at_ms": now})]
        if command.type == "request_score":
            team = command.actor.name if role == TEAM else _text(command.data, "team")
            return self._game([ScoreRequested(now, team)])
        return self._game(self._host_events(command.type, command.data, now))

    @staticmethod
    def _allowed(role: str) -> frozenset[str]:
        if role in HOST_ROLES:
            return HOST_COMMANDS
        return {
            TEAM: TEAM_COMMANDS,
            ASSISTANT: ASSISTANT_COMMANDS,
            PROJECTOR: PROJECTOR_COMMANDS,
            BUTTONS: BUTTON_COMMANDS,
        }.get(role, frozenset())

    def _create(self, data: Mapping[str, Any], now_ms: int) -> Sequence[Decided]:
        raw_setup = data.get("setup")
        if not isinstance(raw_setup, Mapping):
            raise CommandRefusedError("bad_request", "a game needs its setup (teams and board)")
        try:
            setup = GameSetup.from_dict(raw_setup)
            GameState().apply(GameCreated(now_ms, setup))
        except (GameError, KeyError, TypeError, ValueError) as error:
            raise CommandRefusedError("bad_setup", str(error)) from None
        notes = data.get("notes", {})
        if not isinstance(notes, Mapping):
            raise CommandRefusedError("bad_request", "'notes' must map cells to notes")
        arbitration = data.get("arbitration", {})
        settings = arbiter_settings_from(arbitration if isinstance(arbitration, Mapping) else {})
        payload: Payload = {
            "at_ms": now_ms,
            "title": _text(data, "title"),
            "setup": setup.to_dict(),
            "notes": {str(k): dict(v) for k, v in notes.items() if isinstance(v, Mapping)},
            "arbitration": _arbiter_to_dict(settings),
            **self._key_maps(data, teams=setup.teams),
        }
        return [Decided(CREATED, payload)]

    def _key_maps(self, data: Mapping[str, Any], teams: Sequence[str] | None = None) -> dict[str, dict[str, str]]:
        teams = self.state.teams if teams is None else teams
        maps: dict[str, dict[str, str]] = {}
        for field in ("keys", "buttons"):
            raw = data.get(field, {})
            if not isinstance(raw, Mapping):
                raise CommandRefusedError("bad_request", f"'{field}' must map keys to teams")
            mapped: dict[str, str] = {}
            for key, team in raw.items():
                if not isinstance(key, str) or not 0 < len(key) <= 20 or team not in teams:
                    raise CommandRefusedError("bad_request", f"{field}: {key!r} → {team!r} is not a key and a team")
                mapped[key] = str(team)
            maps[field] = mapped
        return maps

    def _game(self, events: Sequence[Event]) -> list[Decided]:
        """Check game events against the rules (the state is immutable) and turn them into decided events."""
        try:
            state = self.state
            for event in events:
                state = state.apply(event)
        except GameError as error:
            raise CommandRefusedError("refused", str(error)) from None
        return [Decided(event.type, event.to_dict()) for event in events]

    def _host_events(self, kind: str, data: Mapping[str, Any], now: int) -> list[Event]:
        state = self.state.at(now)
        current = state.current
        if kind == "draw":
            team = data.get("team")
            if team is None:
                team = random.SystemRandom().choice(state.teams)  # the lot (SI-3.2), recorded as an event
            return [FirstChooserDrawn(now, _text({"team": team}, "team"))]
        if kind == "strike":
            return [ThemeStruck(now, _team(data, state.striker, "strike a theme"), _int(data, "theme"))]
        if kind == "announce":
            return [ThemeAnnounced(now, _int(data, "theme"), _text(data, "explanation"))]
        if kind == "choose":
            theme, value = _int(data, "theme"), _int(data, "value")
            team = _team(data, state.chooser, "choose a question")
            events: list[Event] = []
            if theme not in state.announced and theme in range(len(state._setup.board.themes)):
                events.append(ThemeAnnounced(now, theme))  # choosing from a theme not yet announced announces it
            return [*events, QuestionChosen(now, team, theme, value)]
        if kind == "reserve":
            return [ReserveQuestionChosen(now, _int(data, "reserve"))]
        if kind == "finish_reading":
            if self.pending:
                # A press is being decided: it stops reading anyway (SI-3.6), and it was made while reading.
                raise CommandRefusedError("arbitrating", "a press is being decided; reading has stopped")
            return [ReadingFinished(now)]
        if kind in ("right", "wrong"):
            team = _team(data, current.answering_team if current else None, "judge")
            return [AnswerJudged(now, team, kind == "right")]
        if kind == "clarify":
            return [ClarificationRequested(now)]
        if kind == "extend":
            extra = _int(data, "ms", default=state._setup.answer_ms)
            if not 0 < extra <= MAX_EXTENSION_MS:
                raise CommandRefusedError("bad_request", f"an extension is 1 to {MAX_EXTENSION_MS} ms")
            return [AnswerTimeExtended(now, extra)]
        if kind == "cancel_press":
            return [PressCancelled(now, _team(data, current.answering_team if current else None, "cancel"))]
        if kind == "replace":
            try:
                reason = ReplacementReason(str(data.get("reason", ReplacementReason.HOST_ERROR.value)))
            except ValueError:
                raise CommandRefusedError("bad_request", "reason is host_error or audience_prompt") from None
            return [QuestionReplaced(now, reason, _optional_int(data, "theme"), _optional_int(data, "reserve"))]
        if kind == "reverse":
            return [DecisionReversed(now, _int(data, "question"), _text(data, "team"))]
        if kind == "undo":
            return [self._undo(now)]
        if kind == "correct":
            return [ScoreCorrected(now, _text(data, "team"), _int(data, "delta"), _text(data, "reason"))]
        if kind == "warn":
            return [AudienceWarned(now, _text(data, "person"), _text(data, "note"))]
        if kind == "sanction":
            try:
                scope = SanctionScope(str(data.get("scope", SanctionScope.GAME.value)))
            except ValueError:
                raise CommandRefusedError("bad_request", "scope is game or round") from None
            return [AudienceSanctioned(now, _text(data, "person"), scope)]
        if kind == "announce_score":
            return [ScoreAnnounced(now)]
        raise CommandRefusedError("bad_request", f"unknown command {kind!r}")  # pragma: no cover

    def _undo(self, now: int) -> Event:
        """Undo the last ruling: reverse the latest counted answer of a finished question (the core keeps every
        event, so an undo is itself an event in the record)."""
        current = self.state.current
        for record in reversed(self.state.answers):
            if record.void:
                continue
            if current is not None and record.question == current.number:
                raise CommandRefusedError(
                    "in_play", "the question is still in play: cancel the press, or undo once the question is over"
                )
            return DecisionReversed(now, record.question, record.team)
        raise CommandRefusedError("refused", "there is no ruling to undo")

    # --- presses ---------------------------------------------------------------------------------------

    def _received(self, command: Command, now: int) -> int:
        received = command.meta.get("received_ms")
        if isinstance(received, int) and not isinstance(received, bool):
            return min(received, now)
        return now

    def _press_command(self, command: Command, now: int) -> Sequence[Decided]:
        received = self._received(command, now)
        if role_of(command.actor) == BUTTONS:
            button = str(command.data.get("button", ""))
            team = self.buttons.get(button)
            if team is None:
                raise CommandRefusedError("unmapped", f"button {button!r} is not mapped to a team")
            return self._press(team, received, None, source=str(command.meta.get("source", "serial")), sync=None)
        sync = sync_from_dict(command.meta.get("sync"))
        touch = command.data.get("tc")
        client_ms = round(touch) if isinstance(touch, int | float) and not isinstance(touch, bool) else None
        if sync is None:
            client_ms = None  # a touch time means nothing without the connection's clock sync
        return self._press(command.actor.name, received, client_ms, source="web", sync=sync)

    def _key(self, command: Command, now: int) -> Sequence[Decided]:
        key = _text(command.data, "key")
        team = self.keys.get(key)
        if team is None:
            raise CommandRefusedError("unmapped", f"the key {key!r} is not a team's buzzer")
        # A USB buzzer types on the host's (or projector's) machine: placed at the server's receipt time.
        return self._press(team, self._received(command, now), None, source="keyboard", sync=None)

    def _sync(self, command: Command) -> Sequence[Decided]:
        sync = sync_from_dict(command.meta.get("sync"))
        if sync is None:
            raise CommandRefusedError("no_sync", "no clock sync measured on this connection yet")
        known = self.syncs.get(command.actor.name)
        if (
            known is not None
            and abs(known.rtt_max_ms - sync.rtt_max_ms) < 10
            and abs(known.offset_ms - sync.offset_ms) < 5
        ):
            return []  # nothing new worth recording
        return [Decided(LINK, {"team": command.actor.name, "sync": sync_to_dict(sync), "at_ms": self.state.last_ms})]

    def opening_ms(self, state: GameState | None = None) -> int | None:
        """When the buttons (last) opened for the question in play, or ``None`` while they are closed."""
        state = state or self.state
        current = state.current
        if current is None:
            return None
        if state.phase is Phase.READING:
            return current.reading_since_ms
        if state.phase is Phase.PRESS_WINDOW:
            return current.window_start_ms
        return None

    def _press(
        self, team: str, received: int, client_ms: int | None, *, source: str, sync: ClockSync | None
    ) -> Sequence[Decided]:
        if team not in self.state.teams:
            raise CommandRefusedError("forbidden", f"{team!r} does not play in this game")
        state = self.state.at(max(received, self.state.last_ms))
        current = state.current
        number = current.number if current is not None else (state.played[-1].number if state.played else 0)
        if current is not None and team in current.answered:
            raise CommandRefusedError("already_answered", "your team has answered this question (SI-3.5)")
        if any(p.team == team for p in self.pending):
            raise CommandRefusedError("already_pressed", "your press is in; the buttons are being compared")
        opened = self.opening_ms(state)
        late_reason: str | None = None
        if current is None:
            late_reason = "closed"
        elif opened is None:
            late_reason = "answering" if state.phase is Phase.ANSWERING else "closed"
        elif received < opened:
            late_reason = "answering"
        elif state.phase is Phase.PRESS_WINDOW and received > opened + state._setup.press_window_ms:
            late_reason = "time"
        if late_reason is not None:
            if number == 0 or any(
                kind == LATE and p["team"] == team and p["question"] == number and p["reason"] == late_reason
                for kind, p, _ in self.log[-64:]
            ):
                return []  # one late record per team, question and reason is enough
            return [
                Decided(
                    LATE,
                    {
                        "team": team,
                        "question": number,
                        "reason": late_reason,
                        "received_ms": received,
                        "source": source,
                        "at_ms": max(received, self.state.last_ms),
                    },
                )
            ]
        payload: Payload = {
            "team": team,
            "question": number,
            "received_ms": received,
            "client_ms": client_ms,
            "source": source,
            "sync": None if sync is None else sync_to_dict(sync),
            "at_ms": max(received, self.state.last_ms),
        }
        press = Decided(PRESS, payload)
        if self.settings.mode is ArbitrationMode.ARRIVAL and not self.pending:
            # First come, first served: there is nothing to wait for, so the decision goes out with the press in
            # one commit, without a timer — every screen locks a step sooner.
            first = (PendingPress(team, received, client_ms, source),)
            arbiter = self.arbiter(first)
            if arbiter is not None:
                return [press, *self._decision(arbiter, int(payload["at_ms"]), first)]
        return [press]

    def arbiter(self, pending: Sequence[PendingPress] | None = None) -> Arbiter | None:
        """The arbiter of the current opening with every pending press (or ``pending``), or ``None`` when nobody
        has pressed."""
        pending = self.pending if pending is None else pending
        if not pending:
            return None
        opened = self.opening_ms()
        if opened is None:
            return None
        eligible = self.state.eligible
        syncs: dict[str, ClockSync] = {}
        for team in eligible:
            sync = self.syncs.get(team)
            if sync is None:
                hardware = team in self.keys.values() or team in self.buttons.values()
                sync = ClockSync.exact() if hardware else ClockSync(0, 0, 0, FALLBACK_RTT_MS, FALLBACK_RTT_MS)
            syncs[team] = sync
        arbiter = Arbiter.open(opened, eligible, syncs, self.settings)
        for waiting in sorted(pending, key=lambda p: p.received_ms):
            arbiter = arbiter.press(waiting.press())
        return arbiter

    # --- folding and timers ----------------------------------------------------------------------------

    def apply(self, event: Decided, at_ms: int) -> None:
        self._views.clear()
        payload = dict(event.payload)
        if event.type in ROOM_EVENTS:
            self._apply_room(event.type, payload, at_ms)
        else:
            try:
                parsed = event_from_dict(payload)
            except (ValueError, TypeError) as error:
                raise ValueError(f"cannot read a stored {event.type!r} event: {error}") from None
            before = (self.state.phase, self.state.current.number if self.state.current else None, self.opening_ms())
            self.state = self.state.apply(parsed)
            after = (self.state.phase, self.state.current.number if self.state.current else None, self.opening_ms())
            if before != after:
                self.pending = ()
        self.log.append((event.type, payload, at_ms))

    def _apply_room(self, kind: str, payload: dict[str, Any], at_ms: int) -> None:
        if kind == CREATED:
            setup = GameSetup.from_dict(payload["setup"])
            self.state = GameState().apply(GameCreated(int(payload.get("at_ms", at_ms)), setup))
            self.title = str(payload.get("title", ""))
            self.notes = {str(k): dict(v) for k, v in dict(payload.get("notes", {})).items()}
            self.settings = arbiter_settings_from(dict(payload.get("arbitration", {})))
            self.keys = {str(k): str(v) for k, v in dict(payload.get("keys", {})).items()}
            self.buttons = {str(k): str(v) for k, v in dict(payload.get("buttons", {})).items()}
        elif kind == KEYS:
            self.keys = {str(k): str(v) for k, v in dict(payload.get("keys", {})).items()}
            self.buttons = {str(k): str(v) for k, v in dict(payload.get("buttons", {})).items()}
        elif kind == LINK:
            sync = sync_from_dict(payload.get("sync"))
            if sync is not None:
                self.syncs[str(payload["team"])] = sync
        elif kind == PRESS:
            sync = sync_from_dict(payload.get("sync"))
            team = str(payload["team"])
            if sync is not None:
                self.syncs[team] = sync
            client = payload.get("client_ms")
            pending = PendingPress(
                team, int(payload["received_ms"]), None if client is None else int(client), str(payload["source"])
            )
            self.pending = (*self.pending, pending)
        elif kind == DECIDED:
            self.pending = ()

    def deadline_ms(self) -> int | None:
        arbiter = self.arbiter()
        if arbiter is not None:
            return arbiter.decision_due_ms
        state = self.state
        deadline = state.next_deadline_ms
        if deadline is not None and state.phase is Phase.READING:
            # Simulated reading ends by itself (no event); what needs waking is "время" after the window.
            deadline = state.at(deadline).next_deadline_ms
        return deadline

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        if not self.created:
            return []
        now = max(now_ms, self.state.last_ms)
        arbiter = self.arbiter()
        if arbiter is not None:
            due = arbiter.decision_due_ms
            if due is None or now < due:
                return []
            return self._decision(arbiter, now)
        state = self.state.at(now)
        current = state.current
        if current is None:
            return []
        window = current.window_start_ms
        if state.phase is Phase.PRESS_WINDOW and window is not None and now >= window + state._setup.press_window_ms:
            return self._game([TimeCalled(now)])
        answer = current.answer_deadline_ms
        if state.phase is Phase.ANSWERING and answer is not None and now >= answer:
            return self._game([AnswerTimeExpired(now)])
        return []

    def _decision(self, arbiter: Arbiter, now: int, pending: Sequence[PendingPress] | None = None) -> list[Decided]:
        try:
            decision = arbiter.decide(now, random.SystemRandom())
        except BuzzerError:  # pragma: no cover - due was checked
            return []
        sources = {p.team: p.source for p in (self.pending if pending is None else pending)}
        order = [
            {
                "team": placed.team,
                "time_ms": placed.time_ms,
                "received_ms": placed.press.received_ms,
                "client_ms": placed.press.client_ms,
                "uncertainty_ms": placed.uncertainty_ms,
                "clamped": placed.clamped,
                "source": sources.get(placed.team, ""),
            }
            for placed in decision.order
        ]
        opened = arbiter.open_ms
        press_ms = max(decision.order[0].time_ms, opened)
        payload: Payload = {
            "question": self.state.current.number if self.state.current else 0,
            "winner": decision.winner,
            "order": order,
            "decided_ms": decision.decided_ms,
            "first_arrival_ms": decision.first_arrival_ms,
            "tie": decision.tie,
            "mode": self.settings.mode.value,
            "at_ms": now,
        }
        return [Decided(DECIDED, payload), *self._game([Buzzed(now, decision.winner, press_ms)])]

    def is_finished(self) -> bool:
        return self.state.finished

    # --- what clients see ------------------------------------------------------------------------------

    @staticmethod
    def _origin(
        state: GameState, theme: int | None, value: int, question: BoardQuestion
    ) -> tuple[int | None, int | None]:
        """Where a question really comes from, as (board theme, reserve index): its own cell, or — after a
        replacement (SI-4.6) — another theme's cell of the same value or a reserve question. The theme's name is
        part of the question for the players, and the host's comment and sources belong to the question asked."""
        board = state._setup.board
        if theme is not None and board.themes[theme].cell(value) == question:
            return theme, None
        for index, candidate in enumerate(board.themes):
            if candidate.cell(value) == question:
                return index, None
        for index, spare in enumerate(board.reserve):
            if spare == question:
                return None, index
        return theme, None

    def _theme_name(self, state: GameState, theme: int | None, value: int, question: BoardQuestion) -> str | None:
        origin, _reserve = self._origin(state, theme, value, question)
        return None if origin is None else state._setup.board.themes[origin].name

    def _note(self, theme: int | None, value: int, reserve: int | None = None) -> dict[str, Any]:
        key = f"r:{reserve}" if reserve is not None else f"{theme}:{value}"
        return self.notes.get(key, {})

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        if not self.created:
            return {"kind": KIND, "status": "empty"}
        role = role_of(actor)
        now = max(now_ms, self.state.last_ms)
        state, shared = self._shared_view(now, role in HOST_ROLES)
        view: Payload = {**shared, "can": sorted(self._can(role, state))}
        if role == TEAM and actor is not None:
            view["you"] = actor.name
            view["buzzer"] = self.buzzer_state(actor.name, state)
        return view

    def _shared_view(self, now: int, host: bool) -> tuple[GameState, Payload]:
        """The state at ``now`` and the part of the view that does not depend on who is looking, but on whether
        they are the host; built once per event and role group (callers must not change it)."""
        cached = self._views.get((now, host))
        if cached is not None:
            return cached
        if len(self._views) >= 8:
            self._views.clear()
        state = self.state.at(now)
        view = self._build_view(state, now, host)
        self._views[(now, host)] = state, view
        return state, view

    def _build_view(self, state: GameState, now: int, host: bool) -> Payload:
        setup = state._setup
        current = state.current
        scores = state.scores
        answering = current.answering_team if current else None
        teams = [
            {
                "name": team,
                "score": scores[team],
                "answered": bool(current and team in current.answered),
                "answering": team == answering,
                "pressed": any(p.team == team for p in self.pending),
            }
            for team in state.teams
        ]
        board = [
            {
                "index": index,
                "name": theme.name,
                "struck": index in state.struck,
                "announced": index in state.announced,
                "explanation": theme.explanation if index in state.announced or host else "",
                "cells": [
                    {
                        "value": value,
                        "open": state.is_open(index, value) and state.phase is not Phase.STRIKING,
                        "empty": theme.cell(value).empty,
                    }
                    for value in VALUES
                ],
            }
            for index, theme in enumerate(setup.board.themes)
        ]
        view: Payload = {
            "kind": KIND,
            "status": state.phase.value,
            "title": self.title,
            "game": setup.kind.value,
            "reading_mode": setup.reading.value,
            "timers": {"press_window_ms": setup.press_window_ms, "answer_ms": setup.answer_ms},
            "teams": teams,
            "chooser": state.chooser,
            "striker": state.striker,
            "first_chooser": state.first_chooser,
            "board": board,
            "kept": setup.final_themes_kept,
            "sudden_death": state.sudden_death and state.phase is Phase.CHOOSING,
            "reserve_left": [i for i in range(len(setup.board.reserve)) if i not in state.used_reserve],
            "current": self._current_view(state, now, host),
            "last": self._last_view(state, host),
            "decision": self._last_decision(),
            "late": self._late_presses(),
            "score_due": state.score_announcement_due,
            "score_requests": list(state.score_requests),
            "announcements": [{"at_ms": a.at_ms, "scores": dict(a.scores)} for a in state.announcements[-5:]],
            "assistant": None
            if setup.assistant is None
            else {"name": setup.assistant.name, "team": setup.assistant.team},
            "warnings": list(state.warnings),
            "sanctions": [{"person": p, "scope": s.value} for p, s in state.sanctions],
            "played": len(state.played),
            "at": now,
        }
        if host:
            view["host"] = {
                "keys": dict(self.keys),
                "buttons": dict(self.buttons),
                "arbitration": _arbiter_to_dict(self.settings),
                "pending": [{"team": p.team, "received_ms": p.received_ms, "source": p.source} for p in self.pending],
                "audit": [event.to_dict() for event in state.audit[-20:]],
                # The spare questions to pick from, only while single reserve questions are asked (SI-2.2): the
                # whole reserve (60+ questions of a pack) would otherwise ride along with every event to the host.
                "reserve": [
                    {"index": i, "value": q.value, "text": q.text, "answers": list(q.answers)}
                    for i, q in enumerate(setup.board.reserve)
                    if i not in state.used_reserve
                ]
                if state.sudden_death
                else [],
                "answers": [
                    {
                        "question": r.question,
                        "team": r.team,
                        "value": r.value,
                        "correct": r.correct,
                        "void": r.void,
                        "reversed": r.reversed,
                        "timed_out": r.timed_out,
                    }
                    for r in state.answers
                ],
            }
        return view

    def _current_view(self, state: GameState, now: int, host: bool) -> Payload | None:
        current = state.current
        if current is None:
            return None
        setup = state._setup
        origin, reserve = self._origin(state, current.theme, current.value, current.question)
        theme = None if origin is None else setup.board.themes[origin].name
        window_closes = current.window_start_ms + setup.press_window_ms if current.window_start_ms is not None else None
        reading_ends = None
        if current.reading_total_ms is not None and current.reading_since_ms is not None:
            reading_ends = current.reading_since_ms + current.reading_total_ms - current.read_ms
        shown: Payload = {
            "number": current.number,
            "theme": current.theme,
            "theme_name": theme,
            "value": current.value,
            "text": current.question.text,
            "revealed": state.revealed_chars(now),
            "reading": {
                "since": current.reading_since_ms,
                "read_ms": current.read_ms,
                "total_ms": current.reading_total_ms,
                "done": current.reading_done,
                "ends": reading_ends,
                "chars_per_second": setup.chars_per_second,
            },
            "window": {"start": current.window_start_ms, "closes": window_closes},
            "open": state.phase in (Phase.READING, Phase.PRESS_WINDOW),
            "opened": self.opening_ms(state),
            "answering": current.answering_team,
            "answer_deadline": current.answer_deadline_ms,
            "answered": sorted(current.answered),
            "arbitrating": bool(self.pending),
        }
        if host:
            note = self._note(origin, current.value, reserve)
            shown["answers"] = list(current.question.answers)
            shown["comment"] = str(note.get("comment", ""))
            shown["sources"] = list(note.get("sources", []))
            shown["authors"] = list(note.get("authors", []))
            shown["replacements"] = [
                index
                for index in state.themes_in_play
                if index != current.theme and state.is_open(index, current.value)
            ]
            shown["reserve_same_value"] = [
                i for i, q in enumerate(setup.board.reserve) if i not in state.used_reserve and q.value == current.value
            ]
        return shown

    def _last_view(self, state: GameState, host: bool) -> Payload | None:
        if not state.played:
            return None
        played = state.played[-1]
        setup = state._setup
        origin, reserve = self._origin(state, played.theme, played.value, played.question)
        theme = None if origin is None else setup.board.themes[origin].name
        shown: Payload = {
            "number": played.number,
            "theme_name": theme,
            "value": played.value,
            "text": played.question.text,
            "answers": list(played.question.answers),  # read out after the question (SI-3.10)
            "outcome": played.outcome.value,
            "verdicts": [
                {"team": r.team, "correct": r.correct, "timed_out": r.timed_out}
                for r in state.answers
                if r.question == played.number and not r.void
            ],
        }
        if host:
            note = self._note(origin, played.value, reserve)
            shown["comment"] = str(note.get("comment", ""))
            shown["sources"] = list(note.get("sources", []))
        return shown

    def _last_decision(self) -> Payload | None:
        for kind, payload, _ in reversed(self.log):
            if kind == DECIDED:
                return {
                    "question": payload["question"],
                    "winner": payload["winner"],
                    "order": [entry["team"] for entry in payload["order"]],
                    "tie": payload["tie"],
                }
        return None

    def _late_presses(self) -> list[Payload]:
        current = self.state.current
        number = current.number if current else (self.state.played[-1].number if self.state.played else 0)
        return [
            {"team": p["team"], "reason": p["reason"]}
            for kind, p, _ in self.log[-64:]
            if kind == LATE and p["question"] == number
        ]

    def buzzer_state(self, team: str, state: GameState | None = None) -> str:
        """What a team's phone shows: ``locked``, ``open``, ``pressed``, ``your_turn`` or ``answered``."""
        state = state or self.state
        current = state.current
        if current is None or state.phase is Phase.FINISHED:
            return "locked"
        if current.answering_team == team:
            return "your_turn"
        if team in current.answered:
            return "answered"
        if any(p.team == team for p in self.pending):
            return "pressed"
        if state.phase in (Phase.READING, Phase.PRESS_WINDOW):
            return "open"
        return "locked"

    def _can(self, role: str, state: GameState) -> set[str]:
        phase = state.phase
        if role in HOST_ROLES:
            by_phase = {
                Phase.DRAW: {"draw"},
                Phase.STRIKING: {"strike"},
                Phase.CHOOSING: {"announce", "choose", "reserve"} if state.sudden_death else {"announce", "choose"},
                Phase.READING: {"replace", "key"}
                | ({"finish_reading"} if state.current and state.current.reading_total_ms is None else set()),
                Phase.PRESS_WINDOW: {"replace", "key"},
                Phase.ANSWERING: {"right", "wrong", "clarify", "extend", "cancel_press", "replace"},
                Phase.FINISHED: set(),
            }
            can = set(by_phase.get(phase, set())) | {"correct", "warn", "sanction", "undo", "reverse", "map_keys"}
            if state.setup is not None and state.setup.assistant is not None:
                can.add("announce_score")
            return can
        if role == TEAM:
            return {"press", "request_score"} if phase is not Phase.FINISHED else set()
        if role == ASSISTANT:
            return {"announce_score", "request_score"}
        if role == PROJECTOR:
            return {"key"}
        return set()

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        """What every connection receives: the event without secrets and the public state after it."""
        payload = dict(event.payload)
        shown: Payload
        if event.type == CREATED:
            shown = {"title": payload.get("title", ""), "teams": list(payload["setup"]["teams"])}
        elif event.type in (LINK, PRESS):
            shown = {"team": payload["team"], "source": payload.get("source", "web")}
        elif event.type == DECIDED:
            shown = {"winner": payload["winner"], "order": [e["team"] for e in payload["order"]], "tie": payload["tie"]}
        elif event.type == KEYS:
            shown = {}
        elif event.type == LATE:
            shown = {"team": payload["team"], "reason": payload["reason"]}
        else:
            shown = payload
        if not with_state:
            return {"event": {"type": event.type, **shown}}
        at = payload.get("at_ms", self.state.last_ms)
        return {"event": {"type": event.type, **shown}, "state": self.view(None, int(at))}

    # --- the report ------------------------------------------------------------------------------------

    def report(self) -> Payload:
        """The game afterwards: per question, the presses in order, the decisions and the rulings."""
        if not self.created:
            return {"kind": KIND, "status": "empty", "questions": []}
        state = self.state
        setup = state._setup
        questions: dict[int, Payload] = {}

        def entry(number: int) -> Payload:
            return questions.setdefault(
                number, {"number": number, "presses": [], "decisions": [], "late": [], "rulings": [], "host": []}
            )

        number = 0
        for kind, payload, at in self.log:
            if kind == "question_chosen" or kind == "reserve_question_chosen":
                number += 1
                entry(number)["chosen_ms"] = at
            elif kind == "question_replaced":
                entry(number)["host"].append({"type": kind, "at_ms": at, "reason": payload.get("reason")})
            elif kind == PRESS:
                entry(number)["presses"].append(
                    {
                        "team": payload["team"],
                        "received_ms": payload["received_ms"],
                        "source": payload["source"],
                        "client_ms": payload.get("client_ms"),
                    }
                )
            elif kind == DECIDED:
                entry(number)["decisions"].append(
                    {
                        "winner": payload["winner"],
                        "order": payload["order"],
                        "tie": payload["tie"],
                        "waited_ms": payload["decided_ms"] - payload["first_arrival_ms"],
                        "mode": payload["mode"],
                    }
                )
            elif kind == LATE:
                entry(int(payload["question"]))["late"].append({"team": payload["team"], "reason": payload["reason"]})
            elif kind in ("answer_judged", "answer_time_expired"):
                team = payload.get("team") or _answering_before(self.log, at)
                entry(number)["rulings"].append(
                    {
                        "team": team,
                        "correct": bool(payload.get("correct", False)),
                        "timed_out": kind != "answer_judged",
                        "at_ms": at,
                    }
                )
            elif kind in ("press_cancelled", "clarification_requested", "answer_time_extended", "time_called"):
                entry(number)["host"].append(
                    {"type": kind, "at_ms": at, **{k: v for k, v in payload.items() if k not in ("type", "at_ms")}}
                )
        for played in state.played:
            item = entry(played.number)
            item.update(
                {
                    "theme_name": self._theme_name(state, played.theme, played.value, played.question),
                    "value": played.value,
                    "text": played.question.text,
                    "answers": list(played.question.answers),
                    "outcome": played.outcome.value,
                }
            )
        current = state.current
        if current is not None:  # the question in play (the report is the host's until the game is over)
            entry(current.number).update(
                {
                    "theme_name": self._theme_name(state, current.theme, current.value, current.question),
                    "value": current.value,
                    "text": current.question.text,
                    "answers": list(current.question.answers),
                    "outcome": None,
                }
            )
        return {
            "kind": KIND,
            "title": self.title,
            "game": setup.kind.value,
            "status": state.phase.value,
            "teams": list(state.teams),
            "scores": state.scores,
            "questions": [questions[n] for n in sorted(questions)],
            "corrections": [{"team": c.team, "delta": c.delta, "reason": c.reason} for c in state.corrections],
            "warnings": list(state.warnings),
        }


def _answering_before(log: Sequence[tuple[str, dict[str, Any], int]], at: int) -> str | None:
    """The team recognised last before ``at`` (an expired answer names no team)."""
    for kind, payload, when in reversed(log):
        if kind == "buzzed" and when <= at:
            return str(payload["team"])
    return None
