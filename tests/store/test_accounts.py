"""Room grants and the players' derived links: issued once, shown again, revoked by reissuing; only digests stored."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import select

from toreshi.store import EventStore, NewEvent, RoomKind
from toreshi.store.accounts import Accounts, SecretShape, UnknownGrantError, derive_secret, link_key, token_digest
from toreshi.store.schema import room_grants

pytestmark = pytest.mark.anyio

KEY = link_key("the app's secret key")


async def test_a_link_is_derived_shown_again_and_stored_only_as_its_digest(store: EventStore) -> None:
    await store.create_room("g-1", RoomKind.TOGYZ)
    accounts = Accounts(store.engine, KEY)
    issued = await accounts.issue_link("g-1", "white", "Асқар")
    assert issued.secret == derive_secret(KEY, "g-1", "white", 0) and issued.generation == 0
    assert await accounts.issue_link("g-1", "white", "Асқар") == issued  # issuing again shows the same link
    # Another instance with the same key (or the same one after a restart) shows it again.
    again = await Accounts(store.engine, KEY).link("g-1", "white")
    assert again == issued
    grant = await accounts.grant_for("g-1", token_digest(issued.secret or ""))
    assert grant is not None and (grant.role, grant.name, grant.generation) == ("white", "Асқар", 0)
    async with store.engine.connect() as connection:
        stored = (await connection.execute(select(room_grants.c.token_digest))).scalars().all()
    assert stored == [token_digest(issued.secret or "")] and issued.secret not in stored


async def test_reissuing_revokes_the_old_link_at_once(store: EventStore) -> None:
    await store.create_room("g-1", RoomKind.TOGYZ)
    accounts = Accounts(store.engine, KEY)
    old = await accounts.issue_link("g-1", "black", "Бекзат")
    new = await accounts.reissue_link("g-1", "black")
    assert new.generation == 1 and new.secret not in (None, old.secret) and new.name == "Бекзат"
    assert await accounts.grant_for("g-1", token_digest(old.secret or "")) is None
    found = await accounts.grant_for("g-1", token_digest(new.secret or ""))
    assert found is not None and found.generation == 1
    assert (await accounts.link("g-1", "black")) == new
    third = await accounts.reissue_link("g-1", "black")
    assert third.generation == 2 and await accounts.grant_for("g-1", token_digest(new.secret or "")) is None
    with pytest.raises(UnknownGrantError):
        await accounts.reissue_link("g-1", "arbiter")


async def test_a_link_made_with_a_random_secret_is_not_shown_but_can_be_reissued(store: EventStore) -> None:
    await store.create_room("g-1", RoomKind.TOGYZ)
    accounts = Accounts(store.engine, KEY)
    await accounts.grant("g-1", "white", "Асқар", token_digest("a random secret from before"))
    legacy = await accounts.link("g-1", "white")
    assert legacy is not None and legacy.secret is None and legacy.name == "Асқар"
    reissued = await accounts.reissue_link("g-1", "white")
    assert reissued.secret == derive_secret(KEY, "g-1", "white", 1)
    assert await accounts.grant_for("g-1", token_digest("a random secret from before")) is None
    # Without the key (another app's), nothing is shown: a link is never guessed from the row.
    assert (await Accounts(store.engine).links("g-1"))[0].secret is None
    assert (await Accounts(store.engine, link_key("another key")).links("g-1"))[0].secret is None


async def test_rooms_are_archived_and_an_empty_room_is_discarded(store: EventStore) -> None:
    await store.create_room("g-1", RoomKind.TOGYZ)
    await store.create_room("g-2", RoomKind.TOGYZ)
    await Accounts(store.engine, KEY).issue_link("g-2", "white", "Асқар")
    archived = await store.set_archived("g-1", True)
    assert archived.archived_at is not None
    assert [room.id for room in await store.rooms(archived=True)] == ["g-1"]
    assert [room.id for room in await store.rooms(archived=False)] == ["g-2"]
    assert (await store.set_archived("g-1", False)).archived_at is None
    # A room with no event (a creation that failed half-way) goes, with its grants; a log is never deleted.
    assert await store.discard_empty_room("g-2") and [room.id for room in await store.rooms()] == ["g-1"]
    await store.append("g-1", 0, [NewEvent("game_created", {"x": 1}, 0)])
    assert not await store.discard_empty_room("g-1") and [room.id for room in await store.rooms()] == ["g-1"]
    assert not await store.discard_empty_room("g-404")


async def test_a_code_shaped_secret_is_letters_of_its_alphabet_shown_again_in_that_shape_only(
    store: EventStore,
) -> None:
    code = SecretShape("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 5)
    await store.create_room("q-7kdm", RoomKind.QUIZ)
    issued = await Accounts(store.engine, KEY).issue_link("q-7kdm", "team:1", "Алтын", code)
    assert issued.secret is not None and len(issued.secret) == 5 and set(issued.secret) <= set(code.alphabet)
    assert (await Accounts(store.engine, KEY).link("q-7kdm", "team:1", (code,))) == issued
    assert (await Accounts(store.engine, KEY).link("q-7kdm", "team:1")) == replace(issued, secret=None)
    with pytest.raises(ValueError, match="divide 256"):
        SecretShape("ABC", 5)  # 3 does not divide 256: the letters would not be uniform
