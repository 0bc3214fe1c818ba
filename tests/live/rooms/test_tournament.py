"""The tournament as a live room: only arbiters act, refusals change nothing, the log rebuilds the tournament."""

from __future__ import annotations

from typing import Any

import pytest

from toreshi.kit.refusal import Common, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.live.store_log import StoreLog
from toreshi.store import EventStore, RoomKind
from toreshi.tournament.codes import TournamentCode

from ...tournament.refusals import assert_refusal

pytestmark = pytest.mark.anyio

AT = "2026-11-30T09:00:00+00:00"
ARBITER = Actor("arbiter", "chief")


def command(kind: str, actor: Actor = ARBITER, **data: Any) -> Command:
    """A command as the tournament service sends it: the client's data, the server's wall time in ``meta``."""
    return Command(kind, actor, data, meta={"at": AT})


def run(room: TournamentRoom, kind: str, actor: Actor = ARBITER, **data: Any) -> list[str]:
    decided = room.decide(command(kind, actor, **data), 0)
    for event in decided:
        room.apply(event, 0)
    return [event.type for event in decided]


def refusal_of(room: TournamentRoom, given: Command) -> Refused:
    before = room.state
    with pytest.raises(Refused) as refused:
        room.decide(given, 0)
    assert room.state is before
    return refused.value


def created(players: int = 4) -> TournamentRoom:
    room = TournamentRoom()
    run(room, "create", name="Cup", system="swiss_dutch", rounds=3)
    for index in range(players):
        run(room, "add_participant", name=f"P{index + 1}", rating=2000 - index)
    return room


async def test_only_an_arbiter_changes_a_tournament() -> None:
    room = TournamentRoom()
    refused = refusal_of(room, command("create", Actor("spectator"), name="X", rounds=3))
    assert_refusal(refused.refusal, Common.FORBIDDEN, command="create", role="spectator")
    assert_refusal(refusal_of(room, command("pair_round")).refusal, TournamentCode.NOT_CREATED)
    room = created()
    for actor in (Actor("white", "P1"), Actor("representative", "Almaty"), Actor("spectator")):
        assert refusal_of(room, command("pair_round", actor)).refusal.code is Common.FORBIDDEN
    system = refusal_of(room, command("pair_round", Actor("system", "live game"))).refusal
    assert system.code is Common.FORBIDDEN
    assert [detail.code for detail in system.details] == [TournamentCode.LIVE_RESULTS_ONLY]
    assert_refusal(refusal_of(room, command("explode")).refusal, Common.UNKNOWN_COMMAND, command="explode")


async def test_a_command_is_read_at_the_edge_and_the_wall_time_is_the_servers() -> None:
    room = created()
    bad = refusal_of(room, command("add_participant", name="X", rating="1500"))
    assert_refusal(bad.refusal, Common.FIELD_NOT_INTEGER, field="rating")
    forged = refusal_of(room, command("add_participant", name="A\r\n001 forged"))
    assert_refusal(forged.refusal, Common.FIELD_CONTROL_CHARACTERS, field="name")
    # Over a socket a command has no server time: tournaments change through their pages.
    socket = refusal_of(room, Command("pair_round", ARBITER, {"at": "2020-01-01T00:00:00+00:00"}))
    assert_refusal(socket.refusal, TournamentCode.PAGES_ONLY)
    # A time a client puts among the data is not read at all; the event carries the server's.
    run(room, "warn", number=1, reason="late", at="2020-01-01T00:00:00+00:00")
    assert room.state.warnings[-1].at.isoformat() == AT
    # Only a game room's report says when a game ended.
    run(room, "pair_round")
    run(room, "publish_round")
    early = refusal_of(room, command("enter_result", round=1, board=1, result="1-0", ended_at=AT))
    assert [detail.code for detail in early.refusal.details] == [TournamentCode.LIVE_RESULTS_ONLY]


async def test_refusals_carry_the_reason_and_change_nothing() -> None:
    room = created()
    refused = refusal_of(room, command("override_pairing", pairs=[[1, 2]], reason="x"))
    assert_refusal(refused.refusal, TournamentCode.NO_DRAFT)
    assert not isinstance(refused, ValueError)  # a refusal is never mistaken for a programming error
    assert room.deadline_ms() is None and room.on_deadline(10**9) == []


async def test_a_programming_error_is_not_a_refusal() -> None:
    room = created()
    with pytest.raises(ValueError, match="yesterday"):  # the service's stamp is broken: a server error, not a refusal
        room.decide(Command("pair_round", ARBITER, {}, meta={"at": "yesterday"}), 0)


async def test_everyone_reads_the_tournament() -> None:
    room = created()
    assert run(room, "pair_round") == ["round_paired"]
    assert run(room, "publish_round") == ["round_published"]
    run(room, "enter_result", round=1, board=1, result="1-0", kazans=[90, 50])
    view = room.view(None, 0)
    assert view["name"] == "Cup" and view["system"] == "swiss_dutch"
    assert [p["name"] for p in view["participants"]] == ["P1", "P2", "P3", "P4"]
    assert view["rounds"][0]["games"][0]["result"] == "1-0"
    assert view["rounds"][0]["paired_at"] == AT
    assert len(view["standings"]) == 4
    assert TournamentRoom().view(None, 0) == {"kind": "tournament", "status": "empty"}
    public = room.public(room.decide(command("warn", number=1, reason="late"), 0)[0])
    assert public["event"]["reason"] == "late" and public["event"]["by"] == "chief"


async def test_a_restarted_owner_rebuilds_the_tournament_from_its_log(store: EventStore) -> None:
    await store.create_room("t-1", RoomKind.TOURNAMENT)
    log, bus = StoreLog(store), InProcessBus()
    owner = await RoomOwner.load("t-1", TournamentRoom, log, bus)
    await owner.handle(command("create", name="Cup", system="round_robin"))
    await owner.handle(command("import_participants", csv="name,rating\nA,1\nB,2\nC,3\n"))
    await owner.handle(command("pair_round"))
    with pytest.raises(Refused):
        await owner.handle(command("publish_round", Actor("spectator")))
    version = owner.version
    await owner.handle(command("publish_round"))
    assert owner.version == version + 1
    await owner.close()
    again = await RoomOwner.load("t-1", TournamentRoom, log, bus)
    assert again.version == owner.version
    assert again.snapshot(None).data == owner.snapshot(None).data
    state = again.logic.state  # type: ignore[attr-defined]
    assert [g.white for g in state.t.round(1).games] and state.t.round(1).byes[0].player == 1
    stored = await store.load("t-1")
    assert [e.type for e in stored] == ["tournament_created", "participants_imported", "round_paired",
                                        "round_published"]  # fmt: skip
    assert all("type" not in e.payload and e.payload["at"] == AT for e in stored)
    await again.close()


async def test_a_team_link_only_files_protests_for_its_own_people() -> None:
    room = created(players=2)
    run(room, "add_team", name="Almaty", representatives=["Rep A"])
    run(room, "add_team", name="Astana", coaches=["Coach B"])
    run(room, "pair_round")
    run(room, "publish_round")
    run(room, "enter_result", round=1, board=1, result="1-0")
    almaty = Actor("team", "Almaty")
    other = refusal_of(room, command("enter_result", almaty, round=1, board=1, result="0-1")).refusal
    assert_refusal(other, Common.FORBIDDEN, command="enter_result", role="team")
    assert not other.details
    stranger = refusal_of(room, command("file_protest", almaty, round=1, board=1, filed_by="Coach B", text="x"))
    assert_refusal(stranger.refusal, Common.FORBIDDEN, command="file_protest")
    assert_refusal(stranger.refusal.details[0], TournamentCode.NOT_TEAM_PERSON, person="Coach B", team="Almaty")
    unknown = command("file_protest", Actor("team", "Gone"), round=1, board=1, filed_by="Rep A", text="x")
    gone = refusal_of(room, unknown)
    assert [detail.code for detail in gone.refusal.details] == [TournamentCode.TEAM_LINK_UNKNOWN]
    assert run(room, "file_protest", almaty, round=1, board=1, filed_by="Rep A", text="The clock was wrong.") == [
        "protest_filed"
    ]
    protest = room.state.protest("P1")
    assert protest.team == "Almaty" and protest.filed_by == "Rep A"
    assert room.state.audit[-1].by == "Almaty"


async def test_a_players_link_checks_in_and_reports_only_for_its_own_player() -> None:
    room = created()
    run(room, "configure", check_in=True)
    me, grant_role = Actor("player", "2"), Actor("player2", "P2")  # the page's actor; a link's grant on a socket
    assert run(room, "check_in", me, number=2) == ["checked_in"]
    for kind, data in (("pair_round", {}), ("configure", {"check_in": False}), ("enter_result", {})):
        refused = refusal_of(room, command(kind, me, **data)).refusal
        assert refused.code is Common.FORBIDDEN
        assert [detail.code for detail in refused.details] == [TournamentCode.PLAYER_LINK_ONLY]
    assert_refusal(refusal_of(room, command("check_in", me, number=3)).refusal, TournamentCode.PLAYER_LINK_ONLY)
    assert refusal_of(room, command("check_in", grant_role, number=2)).refusal.code is Common.FORBIDDEN
