"""Team competitions: teams of N boards with a fixed board order and reserves, a team round robin (Berger) or a
team Swiss (the Dutch engine on match points), match or game points first, C.07's team tie-breaks, board prizes,
board tables, the team crosstable and the TRF's team records. Pure: no I/O, no clock.

- :mod:`.model` — settings, teams and their lists, rounds, matches, board colours;
- :mod:`.scoring` — each team's rounds as match points and game points;
- :mod:`.pairing` — the next round's matches; :mod:`.tiebreaks` — standings with MPVGP, BH, SB, DE;
- :mod:`.boards` — board tables, board prizes, the individual games (rated); :mod:`.tables` — crosstable, CSV;
- :mod:`.trf` — the TRF with ``001`` games and ``310`` (or ``013``) team records; :mod:`.csv_import` — team lists.

The journal (commands, events, decide, evolve) is :mod:`toreshi.tournament.journal.teams`.
"""
