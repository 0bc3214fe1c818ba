"""Room leases across instances: exactly one owner per room, held in Redis with an expiry.

The owner renews its lease well before it expires; when an instance dies its leases lapse and another instance
takes the room over by replaying the log. The event log's version check (optimistic concurrency) is the fence: even
a paused owner that wakes after losing its lease cannot append, because the new owner has moved the version on.
"""

from __future__ import annotations

from redis.asyncio import Redis

LEASE_MS = 5_000
"""How long a lease lasts without renewal: a dead owner's rooms move within about this long."""

# Renew or release only if the lease is still ours (compare-and-set in one round trip).
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class RedisLeases:
    """``acquire``/``renew``/``release`` room leases for one instance (``holder`` names it)."""

    def __init__(self, redis: Redis, holder: str, *, lease_ms: int = LEASE_MS, prefix: str = "toreshi:lease:") -> None:
        self.redis = redis
        self.holder = holder
        self.lease_ms = lease_ms
        self.prefix = prefix

    def _key(self, room_id: str) -> str:
        return self.prefix + room_id

    async def acquire(self, room_id: str) -> bool:
        """Take the room if nobody holds it (or we already do)."""
        if await self.redis.set(self._key(room_id), self.holder, nx=True, px=self.lease_ms):
            return True
        return await self.renew(room_id)

    async def renew(self, room_id: str) -> bool:
        return bool(await self.redis.eval(_RENEW, 1, self._key(room_id), self.holder, self.lease_ms))

    async def release(self, room_id: str) -> bool:
        return bool(await self.redis.eval(_RELEASE, 1, self._key(room_id), self.holder))

    async def holder_of(self, room_id: str) -> str | None:
        value = await self.redis.get(self._key(room_id))
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)
