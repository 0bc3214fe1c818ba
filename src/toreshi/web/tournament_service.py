"""Transitional: the tournament service lives in :mod:`toreshi.services.tournament` now (no HTTP in it).

``toreshi.web.broadcast_pages`` still imports from here; remove this module when it imports from there."""

from __future__ import annotations

from toreshi.services.tournament import TournamentService, UnknownTournamentError

__all__ = ["TournamentService", "UnknownTournamentError"]
