"""Tournaments: the model, pairings, standings and tie-breaks, crosstables, ratings, protests."""
