"""The quiz room's kind, and who is who in it: the grants a room stores, as the roles of
:mod:`toreshi.quiz.play.commands`."""

from __future__ import annotations

from toreshi.kit.core import Actor
from toreshi.quiz.play.commands import HOST_ROLES

__all__ = ["KIND", "SPECTATOR", "TEAM", "group_of", "is_host", "role_of"]

KIND = "quiz"
TEAM = "team"
SPECTATOR = "spectator"


def role_of(actor: Actor | None) -> str:
    """The actor's role in the room: per-team grants are stored as ``team:1``…``team:4`` (a room holds one grant per
    role), and all of them are the ``team`` role here.

    >>> role_of(Actor("team:2", "Барыс")), role_of(Actor("arbiter", "chief")), role_of(None)
    ('team', 'arbiter', 'spectator')
    """
    if actor is None:
        return SPECTATOR
    return TEAM if actor.role.startswith(f"{TEAM}:") else actor.role


def is_host(role: str) -> bool:
    return role in HOST_ROLES


def group_of(actor: Actor | None) -> tuple[str, str]:
    """The group whose members see the same "what may I do" list: a team by its name, every other role as one
    (two hosts, or the host and a signed-in arbiter, may do the same)."""
    role = role_of(actor)
    if role == TEAM and actor is not None:
        return role, actor.name
    return ("host" if is_host(role) else role), ""
