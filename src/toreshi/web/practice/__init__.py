"""Practice against the engine."""
