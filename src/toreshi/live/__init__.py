"""Live rooms: one owner per room (a togyz game or a quiz game) holding its state, versioned events, a bounded
history for reconnects, and a bus that fans events out — in-process by default, Redis across instances.

The owner is the only writer of its room's event log, and it persists every event before acknowledging the command
that caused it (see :mod:`toreshi.live.owner`).
"""
