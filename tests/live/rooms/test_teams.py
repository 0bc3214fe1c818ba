"""The team competition as a live room: only arbiters act, through the pages (a command without the server's wall
time is refused), refusals change nothing, and the log rebuilds the competition after a restart."""

from __future__ import annotations

from typing import Any

import pytest

from toreshi.kit.refusal import Common, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import RoomOwner
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.teams import TeamTournamentRoom
from toreshi.live.store_log import StoreLog
from toreshi.store import EventStore, RoomKind
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.teams.codes import TeamCode

pytestmark = pytest.mark.anyio

AT = "2026-12-01T09:00:00+00:00"
ARBITER = Actor("arbiter", "chief")


def command(kind: str, actor: Actor = ARBITER, **data: Any) -> Command:
    return Command(kind, actor, data, meta={"at": AT})


def test_only_the_arbiter_acts_and_only_through_the_pages() -> None:
    room = TeamTournamentRoom()
    with pytest.raises(Refused) as stranger:
        room.decide(command("create_teams", Actor("spectator"), name="Cup", system="swiss", boards=4, rounds=3), 0)
    assert stranger.value.code == Common.FORBIDDEN.value
    with pytest.raises(Refused) as socket:
        room.decide(Command("create_teams", ARBITER, {"name": "Cup", "system": "swiss", "boards": 4, "rounds": 3}), 0)
    assert socket.value.code == TournamentCode.PAGES_ONLY.value
    assert room.state.tournament is None
    with pytest.raises(Refused) as bad:
        room.decide(command("pair_team_round"), 0)
    assert bad.value.code == TeamCode.NOT_CREATED.value
    assert room.view(None, 0) == {"kind": "teams", "status": "empty"}


async def test_a_restarted_owner_rebuilds_the_competition_from_its_log(store: EventStore) -> None:
    await store.create_room("tt-1", RoomKind.TEAMS)
    log, bus = StoreLog(store), InProcessBus()
    owner = await RoomOwner.load("tt-1", TeamTournamentRoom, log, bus)
    await owner.handle(command("create_teams", name="Cup", system="round_robin", boards=2))
    await owner.handle(command("import_teams", text="A,a1\nA,a2\nB,b1\nB,b2\nC,c1\nC,c2\n"))
    await owner.handle(command("pair_team_round"))
    await owner.handle(command("enter_match", round=1, match=1, results=["1-0", "½-½"]))
    # Three teams: Berger's round 1 is 2–3 and team 1's bye, so the round is complete and round 2 may be paired.
    await owner.handle(command("pair_team_round"))
    version = owner.version
    with pytest.raises(Refused) as refused:
        await owner.handle(command("enter_match", round=2, match=1, results=["1-0"]))
    assert refused.value.code == TeamCode.WRONG_RESULT_COUNT.value and owner.version == version
    await owner.close()
    again = await RoomOwner.load("tt-1", TeamTournamentRoom, log, bus)
    assert again.version == owner.version
    assert again.snapshot(None).data == owner.snapshot(None).data
    stored = await store.load("tt-1")
    assert [e.type for e in stored] == ["teams_created", "team_registered", "team_registered", "team_registered",
                                        "team_round_paired", "match_entered", "team_round_paired"]  # fmt: skip
    state = again.logic.state  # type: ignore[attr-defined]
    assert [(m.first, m.second) for m in state.t.round(1).matches] == [(2, 3), (1, None)]
    assert all("type" not in e.payload and e.payload["at"] == AT for e in stored)
