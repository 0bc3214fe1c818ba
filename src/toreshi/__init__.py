"""toreshi — runs togyz kumalak and «Своя игра» club competitions by their written regulations.

Pure cores (no I/O, time only from an injected clock): :mod:`toreshi.togyz`, :mod:`toreshi.clock`,
:mod:`toreshi.quiz`, :mod:`toreshi.tournament`. Around them: :mod:`toreshi.web` and :mod:`toreshi.cli`.
"""

__version__ = "0.1.0"
