"""Stopping the background tasks of the cluster's parts (bus reader, forwarder, replicas, loops) when they close."""

from __future__ import annotations

import asyncio
import contextlib


async def stop(*tasks: asyncio.Task[None] | None) -> None:
    """Cancel every task, then wait for each to end, whatever it raises: a part that closes does not fail on it."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
