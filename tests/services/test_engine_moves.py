"""Issue 28: a quick practice level's reply does not wait behind other games' timed searches (levels 5 and 6)."""

from __future__ import annotations

import asyncio

from toreshi.services.engine import EngineService
from toreshi.togyz.engine import Limits

MIDDLEGAME = [7, 3, 9, 9, 2, 5, 6, 4, 1, 8, 3, 6, 5, 2]


def test_a_level_3_reply_overtakes_level_6_searches_queued_before_it() -> None:
    async def run() -> tuple[bool, bool]:
        engine = EngineService(review_limits=Limits(depth=2), review_budget=5)
        try:
            await asyncio.gather(engine.move([7], 6, "warm"), engine.move([7], 3, "warm"))  # both workers started
            slow = [asyncio.ensure_future(engine.move(MIDDLEGAME, 6, f"other-{game}")) for game in range(3)]
            await asyncio.sleep(0.05)  # the three searches are submitted first
            quick = await engine.move(MIDDLEGAME, 3, "mine")
            overtook = not all(future.done() for future in slow)
            await asyncio.gather(*slow)
            return overtook, 1 <= quick.hole <= 9
        finally:
            engine.close()

    overtook, legal = asyncio.run(run())
    # Three level-6 searches take at least three times 0.4 s one after another; the level-3 reply (milliseconds)
    # came back while they were still queued, from its own worker.
    assert overtook and legal
