"""The tournament as a live room: only arbiters act, refusals change nothing, the log rebuilds the tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Actor, Command, CommandRefusedError
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.live.store_log import StoreLog
from toreshi.store import RoomKind, open_store

pytestmark = pytest.mark.anyio

AT = "2026-11-30T09:00:00+00:00"
ARBITER = Actor("arbiter", "chief")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def command(kind: str, actor: Actor = ARBITER, **data: Any) -> Command:
    return Command(kind, actor, {**data, "at": AT})


def run(room: TournamentRoom, kind: str, actor: Actor = ARBITER, **data: Any) -> list[str]:
    decided = room.decide(command(kind, actor, **data), 0)
    for event in decided:
        room.apply(event, 0)
    return [event.type for event in decided]


def created(players: int = 4) -> TournamentRoom:
    room = TournamentRoom()
    run(room, "create", name="Cup", system="swiss_dutch", rounds=3)
    for index in range(players):
        run(room, "add_participant", name=f"P{index + 1}", rating=2000 - index)
    return room


async def test_only_an_arbiter_changes_a_tournament() -> None:
    room = TournamentRoom()
    with pytest.raises(CommandRefusedError) as refused:
        room.decide(command("create", Actor("spectator"), name="X", rounds=3), 0)
    assert refused.value.code == "forbidden"
    with pytest.raises(CommandRefusedError) as refused:
        room.decide(command("pair_round"), 0)
    assert refused.value.code == "no_tournament"
    room = created()
    for actor in (Actor("white", "P1"), Actor("representative", "Almaty"), Actor("spectator")):
        with pytest.raises(CommandRefusedError, match="only an arbiter"):
            room.decide(command("pair_round", actor), 0)
    with pytest.raises(CommandRefusedError, match="only reports results of live games"):
        room.decide(command("pair_round", Actor("system", "live game")), 0)
    with pytest.raises(CommandRefusedError) as refused:
        room.decide(command("explode"), 0)
    assert refused.value.code == "unknown"


async def test_refusals_carry_the_reason_and_change_nothing() -> None:
    room = created()
    before = room.state
    with pytest.raises(CommandRefusedError) as refused:
        room.decide(command("override_pairing", pairs=[[1, 2]], reason="x"), 0)
    assert refused.value.code == "refused" and "no paired, unpublished round" in str(refused.value)
    assert room.state is before
    assert room.deadline_ms() is None and room.on_deadline(10**9) == []


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


async def test_a_restarted_owner_rebuilds_the_tournament_from_its_log(tmp_path: Path) -> None:
    async with open_store(f"sqlite+aiosqlite:///{tmp_path / 't.db'}") as store:
        await store.create_room("t-1", RoomKind.TOURNAMENT)
        log, bus = StoreLog(store), InProcessBus()
        owner = await RoomOwner.load("t-1", TournamentRoom, log, bus)
        await owner.handle(command("create", name="Cup", system="round_robin"))
        await owner.handle(command("import_participants", csv="name,rating\nA,1\nB,2\nC,3\n"))
        await owner.handle(command("pair_round"))
        with pytest.raises(CommandRefusedError):
            await owner.handle(command("publish_round", Actor("spectator")))
        version = owner.version
        await owner.handle(command("publish_round"))
        assert owner.version == version + 1
        await owner.close()
        again = await RoomOwner.load("t-1", TournamentRoom, log, bus)
        assert again.version == owner.version
        assert again.snapshot(None)["data"] == owner.snapshot(None)["data"]
        state = again.logic.state  # type: ignore[attr-defined]
        assert [g.white for g in state.t.round(1).games] and state.t.round(1).byes[0].player == 1
        stored = await store.load("t-1")
        assert [e.type for e in stored] == ["tournament_created", "participants_imported", "round_paired",
                                            "round_published"]  # fmt: skip
        await again.close()


async def test_a_team_link_only_files_protests_for_its_own_people() -> None:
    room = created(players=2)
    run(room, "add_team", name="Almaty", representatives="Rep A")
    run(room, "add_team", name="Astana", coaches="Coach B")
    run(room, "pair_round")
    run(room, "publish_round")
    run(room, "enter_result", round=1, board=1, result="1-0")
    almaty = Actor("team", "Almaty")
    with pytest.raises(CommandRefusedError, match="only files protests"):
        room.decide(command("enter_result", almaty, round=1, board=1, result="0-1"), 0)
    with pytest.raises(CommandRefusedError, match="only a representative or coach of Almaty"):
        room.decide(command("file_protest", almaty, round=1, board=1, filed_by="Coach B", text="x"), 0)
    with pytest.raises(CommandRefusedError, match="belongs to no team"):
        room.decide(command("file_protest", Actor("team", "Gone"), round=1, board=1, filed_by="Rep A", text="x"), 0)
    assert run(room, "file_protest", almaty, round=1, board=1, filed_by="Rep A", text="The clock was wrong.") == [
        "protest_filed"
    ]
    protest = room.state.protest("P1")
    assert protest.team == "Almaty" and protest.filed_by == "Rep A"
    assert room.state.audit[-1].by == "Almaty"
