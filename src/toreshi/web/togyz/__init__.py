"""Togyz kumalak games: creating, playing and watching one, its links, the games list, replays, exports."""
