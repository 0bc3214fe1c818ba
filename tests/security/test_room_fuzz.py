"""Every room kind's command path against arbitrary JSON commands from every role: the answer is a refusal with a
known code (or the command is accepted), never another exception (which the socket answers ``failed``).

The sockets' own fuzzing (:mod:`tests.security.test_socket_fuzz`) drives the togyz and quiz rooms through the
server. This drives each kind's logic as the room owner does (``decide``, then the events as the store gives them
back, then ``apply``), from a room already in play, so that many more commands reach deep states in little time:
the togyz game and the quiz game (a qualifying one and a shootout) as a socket sends them, the tournament and the
team competition as their pages send them (stamped with the server's wall time) and as a socket does (without).

Commands are of every type the kind knows (and unknown ones), with the fields of that type holding values of the
right kind and of every wrong kind: huge and negative numbers, nested junk, control characters. After each
accepted command the room shows itself to every role, and the room rebuilt from the log looks the same.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import os
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.codec import Codec
from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command, Decided, RoomLogic
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.live.rooms.teams import TeamTournamentRoom
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.quiz.board import VALUES, Board, BoardQuestion, BoardTheme
from toreshi.quiz.events import Assistant, GameKind, GameSetup
from toreshi.quiz.play.commands import COMMANDS as QUIZ_COMMANDS
from toreshi.quiz.play.commands import CreateGame
from toreshi.refusal_codes import EVERY_CODE
from toreshi.store.errors import InvalidEventError
from toreshi.store.events import MAX_PAYLOAD_BYTES, _checked_json
from toreshi.texts import refusals
from toreshi.togyz.match.commands import COMMANDS as TOGYZ_COMMANDS
from toreshi.tournament.journal import COMMANDS as TOURNAMENT_COMMANDS
from toreshi.tournament.journal.teams import COMMANDS as TEAM_COMMANDS

EXAMPLES = int(os.environ.get("TORESHI_FUZZ_EXAMPLES", "40"))
AT = {"at": "2026-12-04T09:00:00+00:00"}
"""The wall time the tournament pages stamp on a command (a socket's command has none)."""

json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.sampled_from([0, -1, 1, 2, 3, 9, 10, 2**31, 2**63, -(2**63), 10**400])
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["", "1-0", "0-1", "½-½", "+", "white", "black", "a\x00b", "x" * 5000, "7" * 4400])
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def typed_value(hint: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """A JSON value of the type a command's field declares, as a client that means well would send it: small
    numbers, short texts, an enum's own values, a nested dataclass's fields (and, now and then, junk)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(typed_value(arg, depth) for arg in args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(typed_value(args[0], depth + 1), max_size=4)
        return st.tuples(*(typed_value(arg, depth + 1) for arg in args)).map(list)
    if origin in (dict, Mapping, collections.abc.Mapping):
        return st.dictionaries(st.text(max_size=6), typed_value(args[1], depth + 1), max_size=3)
    if hint is type(None):
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-2, 12) | st.integers(-(10**6), 10**7)
    if hint is float:
        return st.floats(-1e6, 1e7)
    if hint is str:
        return st.text(max_size=12) | st.sampled_from(["1-0", "0-1", "white", "black", "Алтын", "Ойыншы 1", "A"])
    if hint is datetime:
        return st.sampled_from(["2026-12-04T10:00:00+00:00", "2026-12-04T10:00:00", "soon"])
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from([member.value for member in hint])
    if dataclasses.is_dataclass(hint) and isinstance(hint, type) and depth < 3:
        hints = typing.get_type_hints(hint)
        fields = {f.name: typed_value(hints[f.name], depth + 1) for f in dataclasses.fields(hint) if f.init}
        return st.fixed_dictionaries({}, optional=fields)
    return json_value


def command_data(
    codec: Codec[Any], plausible: Mapping[str, st.SearchStrategy[Any]], good: list[tuple[str, dict[str, Any]]]
) -> st.SearchStrategy[Any]:
    """A command's type and data: a known type with its own fields (some missing; each of the declared type, a
    plausible value for this room, or junk), or an unknown type, or data of any shape."""

    def of_type(name: str) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
        cls = codec.class_of(name)
        assert cls is not None
        hints, fields_of = typing.get_type_hints(cls), dataclasses.fields(cls)
        fields = {
            f.name: st.one_of(plausible.get(f.name, typed_value(hints[f.name])), typed_value(hints[f.name]), json_value)
            for f in fields_of
        }
        every = st.fixed_dictionaries({f.name: plausible.get(f.name, typed_value(hints[f.name])) for f in fields_of})
        return st.tuples(st.just(name), every | st.fixed_dictionaries({}, optional=fields))

    known = st.sampled_from(codec.names).flatmap(of_type)
    unknown = st.tuples(st.text(max_size=12), st.dictionaries(st.text(max_size=8), json_value, max_size=4))
    any_shape = st.tuples(st.sampled_from(codec.names), st.dictionaries(st.text(max_size=12), json_value, max_size=6))
    return st.one_of(*[known] * 6, *[st.sampled_from(good)] * 3, unknown, any_shape)


@dataclass
class Kind:
    """A room kind to fuzz: a fresh logic, the commands that put a room in play, the codec and plausible values
    of its commands' fields, the actors that may send them, and the meta a command comes with."""

    make: Callable[[], RoomLogic]
    setup: list[Command]
    codec: Codec[Any]
    plausible: dict[str, st.SearchStrategy[Any]]
    actors: list[Actor]
    metas: list[dict[str, Any]]
    good: list[tuple[str, dict[str, Any]]] = dataclasses.field(default_factory=list)
    """Commands that a room in play often accepts (so that the fuzzing reaches deeper states)."""
    main: int = 1
    """How many of the first actors are the ones who usually command (most commands come from them)."""


def built(kind: Kind) -> list[Decided]:
    """The events that put a room of ``kind`` in play (its set-up commands, each accepted)."""
    room, log = kind.make(), []
    for command in kind.setup:
        for event in room.decide(command, 0):
            room.apply(event, 0)
            log.append(event)
    return log


def due(room: RoomLogic, now: int) -> list[Decided]:
    """Fire the room's deadlines that fall by ``now`` (each at its own time, as the owner's timer does)."""
    fired: list[Decided] = []
    for _ in range(100):
        deadline = room.deadline_ms()
        if deadline is None or deadline > now:
            break
        events = list(room.on_deadline(deadline))
        for event in events:
            room.apply(event, deadline)
        fired += events
    return fired


def replayed(kind: Kind, log: list[Decided], now: int) -> RoomLogic:
    room = kind.make()
    for event in log:
        room.apply(event, now)
    return room


# --- the kinds ----------------------------------------------------------------------------------------------------

ARBITER = Actor("arbiter", "chief")
STRANGERS = [Actor("spectator"), Actor("projector"), Actor("system", "live game"), Actor("", ""), Actor("x" * 300)]


def togyz() -> Kind:
    create = {"white": "Ақ", "black": "Қара", "control": {"periods": [{"time_ms": 300_000}]}}
    plausible = {
        "hole": st.integers(-2, 11),
        "side": st.sampled_from(["white", "black", "grey"]),
        "ms": st.integers(-(10**12), 10**12),
        "white_ms": st.integers(-(10**9), 10**12),
        "black_ms": st.integers(-(10**9), 10**12),
        "result": st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
        "reason": st.text(max_size=30),
    }
    return Kind(
        TogyzRoom,
        [
            Command("create", ARBITER, {**create, "settings": {"flag_mode": "claim"}}),
            Command("start", ARBITER, {}),
            Command("move", Actor("white", "Ақ"), {"hole": 7}),
            Command("move", Actor("black", "Қара"), {"hole": 3}),
        ],
        TOGYZ_COMMANDS,
        plausible,
        [ARBITER, Actor("white", "Ақ"), Actor("black", "Қара"), *STRANGERS],
        [{}],
        good=[
            *[("move", {"hole": hole}) for hole in range(1, 10)],
            ("offer_draw", {}),
            ("accept_draw", {}),
            ("decline_draw", {}),
            ("pause", {}),
            ("resume", {}),
            ("add_time", {"side": "white", "ms": 60_000, "reason": "арбитр"}),
            ("claim_flag", {}),
            ("resign", {}),
            ("request_adjournment", {}),
            ("adjourn", {"hole": 3, "salt": "тұз"}),
            ("sign", {}),
            ("file_protest", {}),
            ("decide", {"result": "1-0", "reason": "арбитр"}),
            ("set_clocks", {"white_ms": 1, "black_ms": 1000}),
        ],
        main=3,
    )


def quiz_board(themes: int) -> Board:
    def theme(number: int) -> BoardTheme:
        cells = tuple(BoardQuestion(v, f"Сұрақ {number}.{v}", (f"жауап-{number}-{v}",)) for v in VALUES)
        return BoardTheme(f"Тақырып {number}", cells)

    spare = tuple(BoardQuestion(v, f"Қосалқы {v}", (f"қосалқы-{v}",)) for v in range(1, 4))
    return Board(tuple(theme(number) for number in range(themes)), spare)


def quiz(kind: GameKind) -> Kind:
    teams = ("Алтын", "Барыс", "Сұңқар")[: 2 if kind is GameKind.SHOOTOUT else 3]
    setup = GameSetup(
        teams,
        quiz_board(1 if kind is GameKind.SHOOTOUT else 5),
        kind=kind,
        assistant=Assistant("Ерлан", "Тұлпар"),
        shootout_cuts=(1,) if kind is GameKind.SHOOTOUT else (),
    )
    host = Actor("host", "Жанна")
    created = QUIZ_COMMANDS.encode(CreateGame(setup))["setup"]
    plausible = {
        "theme": st.integers(-2, 12),
        "value": st.sampled_from([*VALUES, 0, -1]),
        "team": st.sampled_from([*teams, "nobody"]),
        "question": st.integers(-1, 30),
        "delta": st.integers(-(10**9), 10**9),
        "key": st.text(max_size=3),
        "press": st.integers(-1, 10**6),
        "setup": st.just(created),
    }
    return Kind(
        QuizRoom,
        [Command("create", host, {"setup": created}), Command("draw", host, {})],
        QUIZ_COMMANDS,
        plausible,
        [
            host,
            *[Actor(f"team:{i}", t) for i, t in enumerate(teams, 1)],
            ARBITER,
            Actor("board"),
            Actor("assistant", "Ерлан"),
            *STRANGERS,
        ],
        [{}, {"received_ms": 10, "sync": {"offset": 0, "rtt": 5}}],
        good=[
            *[("choose", {"theme": t, "value": v}) for t in range(5) for v in VALUES],
            *[(verdict, {"team": team}) for verdict in ("right", "wrong", "draw", "cancel_press") for team in teams],
            ("finish_reading", {}),
            ("press", {}),
            ("undo", {}),
            ("clarify", {}),
            ("reserve", {"reserve": 0}),
            ("strike", {"theme": 0}),
            ("announce_score", {}),
            ("extend", {"ms": 5000}),
            ("restore_theme", {}),
            ("correct", {"team": teams[0], "delta": 100, "reason": "апелляция"}),
            ("end_game", {"reason": "уақыт"}),
        ],
        main=1 + len(teams),
    )


def tournament() -> Kind:
    commands = [Command("create", ARBITER, {"name": "Кубок", "system": "swiss_dutch", "rounds": 3}, meta=AT)]
    commands += [
        Command("add_participant", ARBITER, {"name": f"Ойыншы {n}", "rating": 2000 - n}, meta=AT) for n in range(1, 6)
    ]
    commands.append(Command("pair_round", ARBITER, {}, meta=AT))
    plausible = {
        "number": st.integers(-1, 8),
        "round": st.integers(-1, 4),
        "board": st.integers(-1, 4),
        "result": st.sampled_from(["1-0", "0-1", "1/2-1/2", "+-", "-+", "x"]),
        "name": st.text(max_size=20),
        "rating": st.integers(-(10**6), 10**6),
        "rounds": st.integers(-1, 100),
        "trf": st.sampled_from(["XXP 1 2 3\n", "260   1 999    1    2\n", "XXP 1 " + "7" * 4400 + "\n", "XXP\n"]),
        "tiebreaks": st.lists(st.sampled_from(["BH", "BH/C1", "SB", "KS/L60", "DE", "BH/C9", "XX"]), max_size=3),
        "csv": st.sampled_from(["name,rating\nЖаңа,1500\n", "name\n" + "7" * 4400 + "\n", ""]),
    }
    return Kind(
        TournamentRoom,
        commands,
        TOURNAMENT_COMMANDS,
        plausible,
        [ARBITER, Actor("team", "Алматы"), *STRANGERS],
        [AT, {}],
        good=[
            ("publish_round", {}),
            ("pair_round", {}),
            ("discard_pairing", {"reason": "қате"}),
            *[("enter_result", {"round": 1, "board": b, "result": r}) for b in (1, 2) for r in ("1-0", "0-1", "½-½")],
            ("withdraw", {"number": 5, "reason": "ауру"}),
            ("request_bye", {"number": 4, "round": 2, "code": "H"}),
            ("warn", {"number": 1, "reason": "телефон"}),
            ("readmit", {"number": 5}),
            ("file_protest", {"round": 1, "board": 1, "filed_by": "Ойыншы 1", "role": "player", "text": "қате"}),
            ("add_participant", {"name": "Кеш келген", "rating": 1500}),
            ("seed_by_rating", {}),
        ],
    )


def teams() -> Kind:
    at = AT
    commands = [
        Command("create_teams", ARBITER, {"name": "Кубок", "system": "round_robin", "boards": 2}, meta=at),
        Command("import_teams", ARBITER, {"text": "A,a1\nA,a2\nB,b1\nB,b2\nC,c1\nC,c2\n"}, meta=at),
        Command("pair_team_round", ARBITER, {}, meta=at),
    ]
    plausible = {
        "round": st.integers(1, 3) | st.integers(-1, 4),
        "match": st.integers(1, 2) | st.integers(-1, 4),
        "results": st.lists(st.sampled_from(["1-0", "0-1", "½-½", "+-", "x"]), min_size=2, max_size=2)
        | st.lists(st.sampled_from(["1-0", "0-1", "½-½", "+-", "x"]), max_size=4),
        "team": st.integers(-1, 4),
        "places": st.permutations([1, 2]).map(list) | st.lists(st.integers(-1, 4), max_size=3),
        "boards": st.integers(-1, 100),
        "text": st.text(max_size=60),
    }
    good: list[tuple[str, dict[str, Any]]] = [
        *[("enter_match", {"round": r, "match": 1, "results": ["1-0", "½-½"]}) for r in (1, 2, 3)],
        ("pair_team_round", {}),
        ("set_lineup", {"round": 2, "team": 1, "places": [2, 1]}),
        ("file_team_protest", {"round": 1, "match": 1, "board": 1, "team": 1, "filed_by": "a1", "text": "қате"}),
    ]
    return Kind(TeamTournamentRoom, commands, TEAM_COMMANDS, plausible, [ARBITER, *STRANGERS], [AT, {}], good)


KINDS: dict[str, Callable[[], Kind]] = {
    "togyz": togyz,
    "quiz": lambda: quiz(GameKind.QUALIFYING),
    "quiz shootout": lambda: quiz(GameKind.SHOOTOUT),
    "tournament": tournament,
    "teams": teams,
}
RAN: dict[str, int] = {}
"""Commands decided per kind, and how many were accepted (reported with ``pytest -s``)."""


def check_refusal(refused: Refused) -> None:
    """A refusal has a declared code and a message the socket can send (every parameter it needs is there)."""
    assert refused.code in EVERY_CODE, refused.code
    shown = refusals.message_of(refused)
    assert isinstance(shown["message"], str) and shown["message"], shown


@pytest.mark.parametrize("name", list(KINDS))
def test_every_room_answers_any_command_with_a_refusal_or_events(name: str) -> None:
    kind = KINDS[name]()
    start = built(kind)
    assert len(start) >= len(kind.setup), "the room is in play before the fuzzing starts"

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        sent=st.lists(
            st.tuples(
                command_data(kind.codec, kind.plausible, kind.good or [("sync", {})]),
                st.one_of(*[st.sampled_from(kind.actors[: kind.main])] * 4, st.sampled_from(kind.actors)),
                st.one_of(*[st.just(kind.metas[0])] * 3, st.sampled_from(kind.metas)),
                st.integers(0, 20_000),
            ),
            min_size=1,
            max_size=10,
        ),
    )
    def session(sent: list[tuple[tuple[str, dict[str, Any]], Actor, dict[str, Any], int]]) -> None:
        room, log, now = replayed(kind, start, 0), list(start), 0
        for (type_, data), actor, meta, later in sent:
            now += later
            log += due(room, now)  # as the owner's timer does before a later command
            before = room.view(None, now)
            RAN[f"{name}: commands"] = RAN.get(f"{name}: commands", 0) + 1
            try:
                decided = list(room.decide(Command(type_, actor, data, meta=meta), now))
            except Refused as refused:
                check_refusal(refused)
                RAN[f"{name}: {refused.code}"] = RAN.get(f"{name}: {refused.code}", 0) + 1
                assert room.view(None, now) == before, "a refused command changed the room"
                continue
            try:  # what the store gives back; a payload it cannot hold is refused by the owner, changing nothing
                stored = [
                    Decided(e.type, dict(_checked_json(e.payload, what="payload", limit=MAX_PAYLOAD_BYTES)))
                    for e in decided
                ]
            except InvalidEventError:
                continue
            RAN[f"{name}: accepted"] = RAN.get(f"{name}: accepted", 0) + 1
            for event in stored:
                room.apply(event, now)
                room.public(event)
                log.append(event)
            for viewer in (None, *kind.actors):
                room.view(viewer, now)
        assert replayed(kind, log, now).view(None, now) == room.view(None, now)

    session()
    if "TORESHI_FUZZ_EXAMPLES" in os.environ:
        print(f"{name}: {RAN}")
