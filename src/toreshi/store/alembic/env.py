"""Alembic's environment script: runs the migrations on the connection that :mod:`toreshi.store.migrate` passes in.

There is no ``alembic.ini`` and no URL here: toreshi opens the connection (with its SQLite pragmas or PostgreSQL
schema), takes the lock that keeps two starting instances from migrating at once, and hands the connection over in
``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from toreshi.store.migrate import run_in_alembic_environment

# Alembic sets ``context.config`` only while it runs this script; other importers (pytest collecting doctests)
# must get a harmless module.
if hasattr(context, "config"):
    run_in_alembic_environment(context.config)
