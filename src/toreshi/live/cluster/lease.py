"""Room leases across instances: exactly one owner per room, held in Redis with an expiry.

The owner renews its lease well before it expires; when an instance dies its leases lapse and another instance
takes the room over by replaying the log. The event log's version check (optimistic concurrency) is the fence: even
a paused owner that wakes after losing its lease cannot append, because the new owner has moved the version on.
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.asyncio import Redis

LEASE_MS = 5_000
"""How long a lease lasts without renewal: a dead owner's rooms move within about this long."""


def _if_held(action: str) -> str:
    """A script that does ``action`` only if the lease ``KEYS[1]`` is still held by ``ARGV[1]`` (compare-and-set
    in one round trip), and returns 0 otherwise."""
    return f"if redis.call('get', KEYS[1]) == ARGV[1] then\n  {action}\nend\nreturn 0\n"


# Take a lease that is free, ours already, or held by an instance we found dead (ARGV[2]; '' for none).
_ACQUIRE = """
local current = redis.call('get', KEYS[1])
if current == false or current == ARGV[1] or (ARGV[2] ~= '' and current == ARGV[2]) then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return 1
end
return 0
"""
_RENEW = _if_held("return redis.call('pexpire', KEYS[1], ARGV[2])")
_RELEASE = _if_held("return redis.call('del', KEYS[1])")
# Hand our lease to another instance (ARGV[2]) in one step.
_HAND_OVER = _if_held("redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])\n  return 1")


class RedisLeases:
    """``acquire``/``renew``/``release`` room leases for one instance (``holder`` names it)."""

    def __init__(self, redis: Redis, holder: str, *, lease_ms: int = LEASE_MS, prefix: str = "toreshi:lease:") -> None:
        self.redis = redis
        self.holder = holder
        self.lease_ms = lease_ms
        self.prefix = prefix

    def _key(self, room_id: str) -> str:
        return self.prefix + room_id

    async def acquire(self, room_id: str, *, suspect: str | None = None) -> bool:
        """Take the room if nobody holds it, we already do, or ``suspect`` does (an instance found dead)."""
        return bool(await self.redis.eval(_ACQUIRE, 1, self._key(room_id), self.holder, suspect or "", self.lease_ms))

    async def renew(self, room_id: str) -> bool:
        return bool(await self.redis.eval(_RENEW, 1, self._key(room_id), self.holder, self.lease_ms))

    async def renew_all(self, room_ids: Sequence[str]) -> list[bool]:
        """Renew several leases in one round trip; whether each one was still ours."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in room_ids:
                pipe.eval(_RENEW, 1, self._key(room_id), self.holder, self.lease_ms)
            return [bool(renewed) for renewed in await pipe.execute()]

    async def release(self, room_id: str) -> bool:
        return bool(await self.redis.eval(_RELEASE, 1, self._key(room_id), self.holder))

    async def hand_over(self, room_id: str, to: str) -> bool:
        """Give our lease to instance ``to`` in one step (a fresh lease), only if it is still ours."""
        return bool(await self.redis.eval(_HAND_OVER, 1, self._key(room_id), self.holder, to, self.lease_ms))

    async def holder_of(self, room_id: str) -> str | None:
        return _text(await self.redis.get(self._key(room_id)))

    async def holders_of(self, room_ids: Sequence[str]) -> list[str | None]:
        """The holder of each room's lease, in one round trip."""
        return [_text(value) for value in await self.redis.mget([self._key(room_id) for room_id in room_ids])]


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
