"""A tournament's time control in its log (issue 16 §2): a custom control is typed (periods, increment or delay) and
read back; a preset's key reads as the preset's control, as logs written before custom controls have it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from toreshi.clock.presets import BLITZ, RAPID
from toreshi.clock.timecontrol import Period, TimeControl, minutes, seconds
from toreshi.tournament.journal.events import TournamentConfigured, decode_event, encode_event
from toreshi.tournament.journal.evolve import replay_stored

AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
CLASSICAL = TimeControl((Period(40, minutes(90)), Period(None, minutes(30))), increment_ms=seconds(30))
LEGACY_LOG = Path(__file__).parent / "data" / "legacy_log.json"


def stored() -> list[tuple[str, dict[str, object]]]:
    written = json.loads(LEGACY_LOG.read_text(encoding="utf-8"))
    return [(event["type"], event["payload"]) for event in written["log"]]


def test_an_old_log_with_a_preset_reads_as_the_preset() -> None:
    state = replay_stored(stored())
    assert (state.t.time_control, state.t.control) == ("blitz", BLITZ)  # created "rapid", configured "blitz"
    first = replay_stored(stored()[:1])
    assert (first.t.time_control, first.t.control) == ("rapid", RAPID)


def test_a_custom_control_is_stored_typed_and_replaces_the_preset() -> None:
    kind, payload = encode_event(TournamentConfigured(at=AT, by="chief", control=CLASSICAL))
    assert payload["control"] == {"periods": [{"moves": 40, "time_ms": 5_400_000}, {"moves": None,
                                  "time_ms": 1_800_000}], "increment_ms": 30_000, "delay_ms": 0}  # fmt: skip
    decoded = decode_event(kind, json.loads(json.dumps(payload)))
    assert isinstance(decoded, TournamentConfigured) and decoded.control == CLASSICAL
    state = replay_stored([*stored(), (kind, payload)])
    assert (state.t.time_control, state.t.control) == (None, CLASSICAL)
    kind, payload = encode_event(TournamentConfigured(at=AT, by="chief", venue="Astana"))
    assert replay_stored([*stored(), encode_event(TournamentConfigured(at=AT, by="chief", control=CLASSICAL)),
                          (kind, payload)]).t.control == CLASSICAL  # fmt: skip
    back = replay_stored([*stored(), encode_event(TournamentConfigured(at=AT, by="chief", time_control="rapid"))])
    assert (back.t.time_control, back.t.control) == ("rapid", RAPID)
    cleared = replay_stored([*stored(), encode_event(TournamentConfigured(at=AT, by="chief", time_control=""))])
    assert (cleared.t.time_control, cleared.t.control) == (None, None)
