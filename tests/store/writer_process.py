"""A writer to kill: appends to many rooms at once and prints each acknowledged version.

Run as ``python writer_process.py URL SCHEMA ROOM…`` (SCHEMA ``-`` for none). Each line ``room version`` is
printed only after :meth:`EventStore.append` returned, i.e. after the commit — what a client would have been told.
"""

from __future__ import annotations

import asyncio
import sys

from toreshi.store import EventStore, NewEvent, create_engine


async def write_forever(url: str, schema: str | None, room_ids: list[str]) -> None:
    engine = create_engine(url, schema=schema)
    store = EventStore(engine)

    async def play(room_id: str) -> None:
        version = 0
        while True:
            version = await store.append(
                room_id, version, [NewEvent("move", {"hole": version % 9 + 1}, server_time_ms=version)]
            )
            sys.stdout.write(f"{room_id} {version}\n")
            sys.stdout.flush()

    await asyncio.gather(*(play(room_id) for room_id in room_ids))


if __name__ == "__main__":
    url, schema, *rooms = sys.argv[1:]
    asyncio.run(write_forever(url, None if schema == "-" else schema, rooms))
