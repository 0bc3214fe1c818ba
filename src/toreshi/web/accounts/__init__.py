"""Arbiters' accounts: sign-in, sessions."""
