"""The arbiter's fair-play reports (``fairplay_reports``): one row per tournament, written while the engine works
(the progress) and when it is done (the figures). Reading a report writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store.schema import fairplay_reports

__all__ = ["FairPlayReports", "StoredReport"]

RUNNING, READY, FAILED = "running", "ready", "failed"


@dataclass(frozen=True)
class StoredReport:
    tournament_id: str
    status: str
    requested_by: str
    requested_at: datetime
    finished_at: datetime | None
    done: int
    total: int
    report: dict[str, Any] | None


class FairPlayReports:
    """The ``fairplay_reports`` table, on the same database as the event log."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, tournament_id: str) -> StoredReport | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    select(fairplay_reports).where(fairplay_reports.c.tournament_id == tournament_id)
                )
            ).first()
        if row is None:
            return None
        return StoredReport(
            row.tournament_id, row.status, row.requested_by, row.requested_at, row.finished_at, row.done, row.total,
            row.report,
        )  # fmt: skip

    async def start(self, tournament_id: str, by: str, at: datetime, total: int) -> None:
        """A new report, running, replacing the tournament's previous one."""
        async with self.engine.begin() as connection:
            await connection.execute(delete(fairplay_reports).where(fairplay_reports.c.tournament_id == tournament_id))
            await connection.execute(
                insert(fairplay_reports).values(
                    tournament_id=tournament_id,
                    status=RUNNING,
                    requested_by=by,
                    requested_at=at,
                    finished_at=None,
                    done=0,
                    total=total,
                    report=None,
                )
            )

    async def progress(self, tournament_id: str, done: int) -> None:
        await self._set(tournament_id, done=done)

    async def finish(self, tournament_id: str, at: datetime, report: dict[str, Any]) -> None:
        await self._set(tournament_id, status=READY, finished_at=at, report=report)

    async def fail(self, tournament_id: str, at: datetime) -> None:
        await self._set(tournament_id, status=FAILED, finished_at=at)

    async def _set(self, tournament_id: str, **values: Any) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                update(fairplay_reports).where(fairplay_reports.c.tournament_id == tournament_id).values(**values)
            )
