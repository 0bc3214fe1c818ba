"""Togyz tournaments: the pages, pairing tools, their texts, the arbiter's calls, the round broadcast."""
