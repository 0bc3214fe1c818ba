"""The room kit: what every live room kind (a togyz game, a quiz game, a tournament) is made of.

Pure, like the cores that use it (no I/O, no clock, no randomness of its own):

- :mod:`~toreshi.kit.refusal` — a refusal is a code plus parameters (:class:`Refusal`), never a sentence; the web
  layer turns it into the page's language.
- :mod:`~toreshi.kit.payload` — the one set of readers for untrusted JSON fields (whole numbers, texts, names,
  choices), each refusing with a code that names the field.
- :mod:`~toreshi.kit.codec` — the one codec between typed dataclasses (commands, events) and JSON objects: strict
  for stored logs, refusing (not raising) for what clients send.
- :mod:`~toreshi.kit.core` — the shape of a core (``decide(state, command) → events | Refusal`` and
  ``evolve(state, event) → state``) and the questions every room asks it (what may this actor do now).
"""
