"""Named time controls: the blitz and rapid of TK-B3 and the classical examples of TK-C4.

>>> str(BLITZ), str(RAPID)
('7 min for the game', '20 min for the game')
>>> str(PRESETS["classical-40-2h-1h"])
'40 moves in 120 min, then the rest in 60 min'
"""

from __future__ import annotations

from types import MappingProxyType

from toreshi.clock.timecontrol import Period, TimeControl, minutes

BLITZ = TimeControl.sudden_death(minutes(7))
"""Blitz: 7 minutes per player (TK-B3)."""
RAPID = TimeControl.sudden_death(minutes(20))
"""Rapid: 20 minutes per player (TK-B3)."""
CLASSICAL_60 = TimeControl.sudden_death(minutes(60))
"""Classical: one hour per player for the game (TK-C4 default example)."""
CLASSICAL_90 = TimeControl.sudden_death(minutes(90))
"""Classical: 90 minutes per player for the game."""
CLASSICAL_40_2H_1H = TimeControl.of(Period(40, minutes(120)), Period(None, minutes(60)))
"""Classical: 2 hours for 40 moves, then 1 hour for the rest of the game."""

PRESETS = MappingProxyType(
    {
        "blitz": BLITZ,
        "rapid": RAPID,
        "classical-60": CLASSICAL_60,
        "classical-90": CLASSICAL_90,
        "classical-40-2h-1h": CLASSICAL_40_2H_1H,
    }
)
"""Presets by the names an organiser types."""
