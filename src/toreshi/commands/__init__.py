"""Command-line front ends, one module per domain; each exposes a Typer ``app`` or a command function."""
