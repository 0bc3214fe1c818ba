"""Every importer against random and mutated input: each refusal is the module's own error (a ValueError subclass),
never an unexpected exception, and a refused import writes nothing.

Mutations start from real files (../shared/data) and from small texts written here, and flip, insert, delete and
duplicate bytes; random input is arbitrary text or bytes.
"""

from __future__ import annotations

import io
import itertools
import os
import re
import warnings
import zipfile
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.quiz.chgk import read_chgk
from toreshi.quiz.codes import PackCode
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import NumberSet, PackError
from toreshi.quiz.siq import parse_content_xml, read_siq
from toreshi.texts import refusals
from toreshi.togyz.fen import STARTING_FEN, InvalidFenError, from_fen, to_fen
from toreshi.togyz.notation import InvalidTokenError, parse_token
from toreshi.togyz.pgn import RecordError, read_games
from toreshi.togyz.replay import replay
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import pairing_tools, parse_participants
from toreshi.tournament.journal.csv_import import MAX_LISTED
from toreshi.tournament.tiebreaks import TieBreak, TieBreakError
from toreshi.tournament.trf import TrfError, format_trf, parse_trf, to_trf16, to_trf2026
from toreshi.tournament.trf_pairing import (
    Acceleration,
    ForbiddenPairs,
    acceleration_line,
    forbidden_line,
    read_accelerations,
    read_forbidden,
)

from .helpers import call, sign_in

EXAMPLES = int(os.environ.get("TORESHI_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

CHGK = """Чемпионат:
Кубок клуба

Тур:
1 бой

Вопрос 1:
Реки
   1. Самая длинная река Европы.
   2. Река Новосибирска.
   3. Её называли Итилем.
   4. Река Красноярска.
   5. Самая полноводная река.

Ответ:
   1. Волга.
   2. Обь.
   3. Волга.
   4. Енисей.
   5. Енисей.

Автор:
Иван Петров
"""

CSV = "name,rating,club,team\nАсан Беков,1850,Алматы,А\nБолат Ерланов,1720,Астана,\n"

PGN = '[Event "t"]\n[White "a"]\n[Black "b"]\n[Result "0-1"]\n\n1. 87(10) 87(10) 2. 22 99(22) 3. 23 12(24) 0-1\n'


LONG_NUMBER = b"7" * 4400
"""More digits than Python's ``int`` reads (4300): a reader that calls ``int`` on an unbounded run of digits raises a
bare ValueError (found by fuzzing in the FEN, PGN and SIQ readers)."""


def mutations(seed: bytes) -> st.SearchStrategy[bytes]:
    """The seed with a few random edits: flip a byte, insert bytes, delete a span, duplicate a span, insert a run of
    digits longer than ``int`` reads."""
    edit = st.tuples(
        st.sampled_from(["flip", "insert", "delete", "duplicate", "number"]),
        st.floats(0, 1),
        st.binary(min_size=1, max_size=8),
        st.integers(1, 64),
    )

    def apply(edits: list[tuple[str, float, bytes, int]]) -> bytes:
        data = bytearray(seed)
        for kind, where, chunk, span in edits:
            at = int(where * len(data))
            if kind == "flip" and data:
                data[min(at, len(data) - 1)] ^= chunk[0] or 1
            elif kind == "insert":
                data[at:at] = chunk
            elif kind == "delete":
                del data[at : at + span]
            elif kind == "number":
                data[at:at] = LONG_NUMBER[: 4000 + 100 * span]
            else:
                data[at:at] = data[at : at + span]
        return bytes(data)

    return st.lists(edit, min_size=1, max_size=6).map(apply)


def mutated_text(seed: str) -> st.SearchStrategy[str]:
    return mutations(seed.encode()).map(lambda data: data.decode("utf-8", errors="replace")) | st.text(max_size=300)


def refuses_only_with(error: type[ValueError], read: Callable[[], Any]) -> Any:
    """Run an importer: it either reads the input or refuses with ``error`` (and a message); anything else fails."""
    try:
        return read()
    except error as refused:
        message = str(refused)
    assert message, "a refusal says what is wrong"
    return None


# --- PGN: the reader is lenient (problems are collected per game), replay reports the first bad ply -------------


@FUZZ
@given(text=mutated_text(PGN) | mutated_text(PGN * 3))
def test_pgn_reader_and_replay_never_raise(text: str) -> None:
    for game in read_games(io.StringIO(text)):
        assert all(isinstance(error, RecordError) for error in game.errors)
        report = replay(game)
        assert report.ok == (report.error is None)
        assert report.plies <= len(game.moves)


def test_pgn_mutations_of_real_games(shared_data: Path) -> None:
    with (shared_data / "togyz" / "playok-2024-2025.pgn").open(encoding="utf-8") as handle:
        seed = "".join(handle.readline() for _ in range(120))

    @FUZZ
    @given(text=mutated_text(seed))
    def check(text: str) -> None:
        for game in read_games(io.StringIO(text)):
            replay(game)

    check()


def real_positions(shared_data: Path, games: int = 3) -> list[str]:
    """FENs of positions from real PlayOK games (every tenth ply of the first ``games`` games)."""
    with (shared_data / "togyz" / "playok-2024-2025.pgn").open(encoding="utf-8") as handle:
        text = "".join(handle.readline() for _ in range(40 * games))
    fens = []
    for game in list(read_games(io.StringIO(text)))[:games]:
        position = replay(game).position.copy(stack=True)  # the final one; the earlier ones by taking moves back
        while position.ply:
            if position.ply % 10 == 0 or not position.legal_moves():
                fens.append(to_fen(position))
            position.pop()
    return fens


def test_fen_refuses_only_with_invalid_fen_error(shared_data: Path) -> None:
    """A FEN is read (and written back the same) or refused with :class:`InvalidFenError`, whatever the text."""
    seeds = real_positions(shared_data)
    assert len(seeds) > 5 and all(to_fen(from_fen(fen)) == fen for fen in seeds)

    @FUZZ
    @given(text=st.sampled_from(seeds).flatmap(mutated_text))
    def check(text: str) -> None:
        position = refuses_only_with(InvalidFenError, lambda: from_fen(text))
        if position is not None:
            assert from_fen(to_fen(position)) == position

    check()


@FUZZ
@given(text=mutated_text(PGN.replace("[Result", f'[FEN "{STARTING_FEN}"]\n[Result')))
def test_pgn_with_a_fen_tag_never_raises(text: str) -> None:
    for game in read_games(io.StringIO(text)):
        report = replay(game)
        assert report.ok == (report.error is None)


LONG = "7" * 4400


@pytest.mark.parametrize(
    "fen",
    [f"{LONG}S,8/9 0 0 S 1", f"9/9 0 0 S {LONG}", f"9/9 {LONG} 0 S 1", f"{LONG}/9 0 0 S 1"],
    ids=["hole", "move-number", "kazan", "empty-run"],
)
def test_a_fen_with_a_number_too_long_for_int_is_refused(fen: str) -> None:
    """Found by fuzzing: ``int`` refuses over 4300 digits with a bare ValueError, which escaped the FEN reader (and a
    PGN's FEN tag through replay)."""
    with pytest.raises(InvalidFenError) as refused:
        from_fen(fen)
    assert len(str(refused.value)) < 200, "the message does not echo a huge token"
    game = next(iter(read_games(io.StringIO(f'[FEN "{fen}"]\n\n1. 11 *\n'))))
    assert replay(game).error is not None


def test_a_pgn_with_a_number_too_long_for_int_is_a_record_error() -> None:
    """Found by fuzzing: a move number or a capture total of over 4300 digits raised a bare ValueError from
    ``read_games`` (a move number) and from replay (``87(777…)``): now each is a :class:`RecordError`."""
    games = list(read_games(io.StringIO(f"1. 87(10) {LONG}. 22 *\n")))
    assert [str(error) for error in games[0].errors] == [
        "ply 2, line 1: move number 77777777777777777777 where 1. was expected"
    ]
    game = next(iter(read_games(io.StringIO(f"1. 87({LONG}) 22 *\n"))))
    assert game.errors and "capture total is more than 162" in str(game.errors[0])
    with pytest.raises(InvalidTokenError):
        parse_token(f"87({LONG})")
    assert parse_token("87(0012)").kazan == 12, "leading zeros are still read"


@pytest.mark.parametrize(
    "duration", [f"{LONG}.00:00:05", "99999999999.00:00", "P99999999999D", f"PT{LONG}S", "PT" + "9" * 400 + "S"]
)
def test_a_siq_duration_past_any_range_is_no_duration(shared_data: Path, duration: str) -> None:
    """Found by fuzzing: SIGame's durations are read leniently (unreadable is zero), but a huge one raised
    OverflowError or ValueError out of the pack reader instead of a PackError or a pack."""
    xml = with_durations(shared_data, duration)
    pack = parse_content_xml(xml)
    first = pack.rounds[0].themes[0].questions[0]
    assert [item.duration.total_seconds() for item in first.question_items] == [0]
    pack = parse_content_xml(with_durations(shared_data, "PT8S"))
    assert [item.duration.total_seconds() for item in pack.rounds[0].themes[0].questions[0].question_items] == [8]


def with_durations(shared_data: Path, duration: str) -> bytes:
    """The content.xml of a real pack whose every content item lasts ``duration``."""
    with zipfile.ZipFile(shared_data / "quiz" / "siq" / "1.siq") as archive:
        xml = archive.read("content.xml")
    return xml.replace(b"<item>", f'<item duration="{duration}">'.encode())


# --- TRF ----------------------------------------------------------------------------------------------------------


def test_trf_refuses_only_with_trf_error(shared_data: Path) -> None:
    seed = (shared_data / "pairings" / "dutch-2025" / "t000-n18-r7.trf").read_text(encoding="utf-8")
    assert parse_trf(seed).players

    @FUZZ
    @given(text=mutated_text(seed[:2000]))
    def check(text: str) -> None:
        parsed = refuses_only_with(TrfError, lambda: parse_trf(text))
        if parsed is not None:  # what is read can be written and read back the same
            assert parse_trf(format_trf(parsed)) == parsed

    check()


PAIRING_RECORDS = (
    "XXR 7\r152 W\r"
    + forbidden_line(ForbiddenPairs((3, 17, 4), 2, 5)) + "\rXXP 1 2 5\r"
    + acceleration_line(Acceleration(Fraction(1), 1, 3, 1, 6)) + "\rXXA    2  1.0  1.0  0.5\r"
)  # fmt: skip


def test_trf_pairing_records_refuse_only_with_trf_error(shared_data: Path) -> None:
    """Prohibitions and accelerations (``260``/``XXP``, ``250``/``XXA``) of a TRF16 and of its TRF-2026 form: read, or
    refused with :class:`TrfError` (an arbiter pastes them in ``import_forbidden``; the Dutch engine reads them)."""
    seed = (shared_data / "pairings" / "dutch-2025" / "t000-n18-r7.trf").read_text(encoding="utf-8")[:1200]
    trf2026 = format_trf(to_trf2026(parse_trf(seed)))
    assert read_forbidden(parse_trf(PAIRING_RECORDS)) and read_accelerations(parse_trf(PAIRING_RECORDS))

    @FUZZ
    @given(text=mutated_text(PAIRING_RECORDS + seed) | mutated_text(PAIRING_RECORDS + trf2026[:1200]))
    def check(text: str) -> None:
        trf = refuses_only_with(TrfError, lambda: parse_trf(text))
        if trf is not None:
            refuses_only_with(TrfError, lambda: (read_forbidden(trf), read_accelerations(trf)))
            refuses_only_with(TrfError, lambda: to_trf16(to_trf2026(trf)))

    check()


ARBITER = Actor("arbiter", "chief")
AT = {"at": "2026-12-04T09:00:00+00:00"}
"""The wall time the tournament pages stamp on a command."""


def tournament_with(*players: str) -> TournamentRoom:
    """A tournament room with these players, made as the pages make it."""
    room = TournamentRoom()
    commands: list[tuple[str, dict[str, Any]]] = [("create", {"name": "Cup", "rounds": 3})]
    commands += [("add_participant", {"name": name}) for name in players]
    for kind, data in commands:
        for event in room.decide(Command(kind, ARBITER, data, meta=AT), 0):
            room.apply(event, 0)
    return room


def test_a_prohibition_with_a_number_too_long_for_int_is_a_trf_error() -> None:
    """Found by fuzzing: an ``XXP`` id of over 4300 digits raised a bare ValueError, out of the tournament room's
    ``import_forbidden`` (answered ``failed``) and out of the Dutch engine; now it is a TrfError, and the room's
    ``trf_unreadable`` refusal."""
    with pytest.raises(TrfError) as refused:
        read_forbidden(parse_trf(f"XXP 1 {LONG}\r"))
    assert len(str(refused.value)) < 200
    room = tournament_with("A")
    with pytest.raises(Refused) as unreadable:
        room.decide(Command("import_forbidden", ARBITER, {"trf": f"XXP 1 {LONG}\n"}, meta=AT), 0)
    assert unreadable.value.code == TournamentCode.TRF_UNREADABLE.value


def test_a_prohibition_of_many_strangers_pairs_up_only_the_tournaments_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by fuzzing: ``import_forbidden`` paired up every id of an ``XXP`` line before asking whether they play
    here — a pasted line of 100,000 ids (the field takes a megabyte) was billions of pairs. Now it pairs up only the
    tournament's players (counted here: the pairs the import looks at)."""
    looked_at = 0

    def counted(players: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
        nonlocal looked_at
        for pair in itertools.combinations(players, size):
            looked_at += 1
            yield pair

    monkeypatch.setattr(pairing_tools, "combinations", counted)
    room = tournament_with("P0", "P1", "P2")
    trf = "XXP " + " ".join(str(number) for number in range(1500, 0, -1)) + "\n"
    events = room.decide(Command("import_forbidden", ARBITER, {"trf": trf}, meta=AT), 0)
    assert [event.payload["pairs"] for event in events] == [[[2, 3], [1, 3], [1, 2]]]
    assert looked_at == 3


def test_a_tiebreak_modifier_too_long_for_int_is_a_tiebreak_error() -> None:
    """Found by fuzzing: ``BH/C`` and 4400 digits raised a bare ValueError out of ``TieBreak.parse`` instead of its
    TieBreakError (the room's field length limit keeps such a text away today; the reader holds on its own)."""
    with pytest.raises(TieBreakError) as refused:
        TieBreak.parse(f"BH/C{LONG}")
    assert len(str(refused.value)) < 200
    assert str(TieBreak.parse("bh/c1")) == "BH/C1"


@pytest.mark.parametrize("text", [LONG, f"[1;{LONG}]", f"[100;500]/{LONG}", f"-{LONG}"])
def test_a_siq_number_set_too_long_for_int_is_a_pack_error(text: str) -> None:
    """Found by fuzzing: a SIGame number set (a price range, a stake) of 4400 digits raised a bare ValueError out of
    the pack reader; now it is the ``pack_bad_value`` PackError."""
    with pytest.raises(PackError) as refused:
        NumberSet.parse(text)
    assert refused.value.refusal.code is PackCode.BAD_VALUE
    assert NumberSet.parse("[100;500]/100").values() == (100, 200, 300, 400, 500)


# --- quiz packs: SIQ archives, bare content.xml, db.chgk.info text, and the sniffing reader -----------------------

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def refuses_only_with_a_pack_code(read: Callable[[], Any]) -> None:
    """Read a pack: it is read, or refused with a :class:`PackError` whose code has a message and every parameter
    that message needs (so that the host reads what is wrong, in any language); anything else fails."""
    try:
        read()
    except PackError as refused:
        refusal = refused.refusal
        assert isinstance(refusal.code, PackCode), refusal
        needed = set(PLACEHOLDER.findall(refusals.MESSAGES[refusal.code.value]))
        assert needed <= set(refusal.params), (str(refusal), needed)


def test_siq_archives_refuse_only_with_pack_error(shared_data: Path) -> None:
    seed = (shared_data / "quiz" / "siq" / "1.siq").read_bytes()
    with zipfile.ZipFile(io.BytesIO(seed)) as archive:
        xml = archive.read("content.xml")

    @FUZZ
    @given(data=mutations(seed) | mutations(seed[:600]) | st.binary(max_size=200))
    def archives(data: bytes) -> None:
        refuses_only_with_a_pack_code(lambda: read_siq(data))
        refuses_only_with_a_pack_code(lambda: read_pack(data))

    @FUZZ
    @given(data=mutations(xml) | mutations(xml[:1500]) | mutations(with_durations(shared_data, "00:00:05")[:1500]))
    def content(data: bytes) -> None:
        refuses_only_with_a_pack_code(lambda: parse_content_xml(data))
        rezipped = io.BytesIO()
        with zipfile.ZipFile(rezipped, "w") as archive:
            archive.writestr("content.xml", data)
        refuses_only_with_a_pack_code(lambda: read_siq(rezipped.getvalue()))

    archives()
    content()


def test_siq_archives_of_any_shape_refuse_only_with_pack_error(shared_data: Path) -> None:
    """Archives built entry by entry: a real or mutated content.xml among entries of any name (``../``, absolute,
    duplicated, a folder, NUL), compressed or stored, with media or junk; a pack or a PackError, nothing else."""
    packs = sorted((shared_data / "quiz" / "siq").glob("*.siq"))[:4]
    xmls = []
    for pack in packs:
        with zipfile.ZipFile(pack) as archive:
            xmls.append(archive.read("content.xml"))
    names = st.sampled_from(
        ["content.xml", "Images/a.png", "Audio/%D0%B0.mp3", "../evil", "/etc/passwd", "Texts/", "a\x00b", "Images/"]
    ) | st.text(max_size=20)
    contents = st.sampled_from(xmls).flatmap(lambda xml: mutations(xml[:3000]) | st.just(xml)) | st.binary(max_size=60)

    @FUZZ
    @given(
        entries=st.lists(
            st.tuples(names, contents, st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])), max_size=5
        ),
        with_content=st.sampled_from(xmls) | st.none(),
    )
    def check(entries: list[tuple[str, bytes, int]], with_content: bytes | None) -> None:
        data = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of a duplicate name: that is the point
            with zipfile.ZipFile(data, "w") as archive:
                if with_content is not None:
                    archive.writestr("content.xml", with_content)
                for name, content, compression in entries:
                    if name:
                        archive.writestr(name, content, compress_type=compression)
        refuses_only_with_a_pack_code(lambda: read_siq(data.getvalue()))
        refuses_only_with_a_pack_code(lambda: read_pack(data.getvalue()))

    check()


XML_BOMBS = [
    b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><package name="&c;"/>',
    b'<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><package name="&x;"/>',
    b"<package>" + b"<round>" * 5000 + b"</round>" * 5000 + b"</package>",
]


@pytest.mark.parametrize("xml", XML_BOMBS, ids=["billion-laughs", "external-entity", "deep-nesting"])
def test_hostile_xml_is_refused(xml: bytes) -> None:
    with pytest.raises(PackError):
        parse_content_xml(xml)
    with pytest.raises(PackError):
        read_pack(xml)


@FUZZ
@given(text=mutated_text(CHGK))
def test_chgk_text_refuses_only_with_pack_error(text: str) -> None:
    refuses_only_with_a_pack_code(lambda: read_chgk(text, name="fuzz"))
    refuses_only_with_a_pack_code(lambda: read_pack(text.encode("utf-8"), name="fuzz"))


@FUZZ
@given(data=mutations(CHGK.encode("cp1251")) | st.binary(max_size=300))
def test_chgk_bytes_in_any_encoding_refuse_only_with_pack_error(data: bytes) -> None:
    refuses_only_with_a_pack_code(lambda: read_chgk(data, name="fuzz"))


# --- tournament CSV: the parser, and the import through the web (a refused import writes nothing) --------------


@FUZZ
@given(text=mutated_text(CSV))
def test_participants_csv_refuses_only_with_one_refusal_naming_every_line(text: str) -> None:
    """Whatever the CSV, it is read, or refused whole by one ``csv_not_imported`` whose details name the lines."""
    try:
        participants = parse_participants(text)
    except Refused as refused:
        refusal = refused.refusal
        assert refusal.code is TournamentCode.CSV_NOT_IMPORTED and refusal.details
        unlined = (TournamentCode.CSV_EMPTY, TournamentCode.CSV_MORE_PROBLEMS)
        assert all("line" in detail.params or detail.code in unlined for detail in refusal.details), refusal
        assert int(refusal.params["problems"]) >= min(len(refusal.details), MAX_LISTED)
    else:
        assert participants and all(p.name.strip() for _, p in participants)


def test_csv_import_through_the_web_is_all_or_nothing(client: TestClient) -> None:
    csrf = sign_in(client)
    form = {"csrf": csrf, "name": "Fuzz Open", "system": "swiss_dutch", "rounds": "5", "time_control": "rapid"}
    created = client.post("/tournaments/new", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    tid = created.headers["location"].rsplit("/", 1)[-1]
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def events() -> int:
        return len(await store.load(tid))

    @settings(max_examples=max(10, EXAMPLES // 3), deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=mutations(CSV.encode()) | st.binary(max_size=120), as_file=st.booleans())
    def check(data: bytes, as_file: bool) -> None:
        before = call(client, events)
        if as_file:
            response = client.post(
                f"/tournaments/{tid}/do/import",
                data={"csrf": csrf},
                files={"file": ("p.csv", data, "text/csv")},
                follow_redirects=False,
            )
        else:
            text = data.decode("utf-8", errors="replace")
            response = client.post(
                f"/tournaments/{tid}/do/import", data={"csrf": csrf, "csv": text}, follow_redirects=False
            )
        assert response.status_code == 303, response.text
        after = call(client, events)
        try:
            text = data.decode("utf-8-sig") if as_file else data.decode("utf-8", errors="replace")
            rows = parse_participants(text)
        except (Refused, UnicodeDecodeError):
            assert after == before, "a refused import wrote events"
        else:
            # Accepted by the parser: imported whole (one event, after one for each team it names that the
            # tournament had not) or refused whole by the tournament's rules (a duplicate name, say).
            teams = len({p.team for _, p in rows if p.team})
            assert after == before or 1 <= after - before <= 1 + teams, (before, after, len(rows))

    check()


def test_pack_upload_through_the_web_is_all_or_nothing(client: TestClient, shared_data: Path) -> None:
    """A pack upload either makes a game or answers 400 with the reason, and then the store has no new room."""
    seed = (shared_data / "quiz" / "siq" / "1.siq").read_bytes()
    with zipfile.ZipFile(io.BytesIO(seed)) as archive:
        xml = archive.read("content.xml")
    csrf = sign_in(client)
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def rooms() -> int:
        return len(await store.rooms())

    @settings(max_examples=max(10, EXAMPLES // 3), deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=mutations(xml) | mutations(CHGK.encode()) | mutations(seed[:2000]) | st.binary(max_size=100))
    def check(data: bytes) -> None:
        before = call(client, rooms)
        form = {
            "csrf": csrf, "kind": "shootout", "reading": "host", "arbitration": "compensated",
            "team1": "A", "team2": "B",
        }  # fmt: skip
        response = client.post(
            "/quiz/new", data=form, files={"pack": ("p.siq", data, "application/zip")}, follow_redirects=False
        )
        assert response.status_code in (303, 400), response.status_code
        assert call(client, rooms) == before + (response.status_code == 303)

    check()


CONTROL_CHARACTERS_KK = "жол ауыстыру мен басқару таңбаларына рұқсат жоқ"
"""The Kazakh refusal of a text with a control character (a NUL among them)."""


@pytest.mark.parametrize("where", ["pack", "team", "title"])
def test_a_text_the_store_cannot_hold_leaves_no_room_behind(client: TestClient, where: str) -> None:
    """Found in review: a NUL character (which PostgreSQL cannot store) in a pack's text, a team's name or the title
    was refused only when the first event was stored, after the room was created: an empty room stayed behind."""
    csrf = sign_in(client)
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def rooms() -> int:
        return len(await store.rooms())

    text = CHGK.replace("Волга.", "Вол\x00га.") if where == "pack" else CHGK
    form = {
        "csrf": csrf, "kind": "shootout", "reading": "host", "arbitration": "compensated",
        "team1": "A\x00" if where == "team" else "A", "team2": "B", "title": "T\x00" if where == "title" else "T",
    }  # fmt: skip
    response = client.post("/quiz/new", data=form, files={"pack": ("p.txt", text.encode(), "text/plain")})
    assert response.status_code == 400 and CONTROL_CHARACTERS_KK in response.text
    assert call(client, rooms) == 0
    body = {"white": "A\x00", "black": "B", "control": "blitz"}
    assert client.post("/api/games", json=body, headers={"x-csrf-token": csrf}).status_code == 400
    form = {"csrf": csrf, "name": "Open\x00", "system": "swiss_dutch", "rounds": "5", "time_control": "rapid"}
    assert CONTROL_CHARACTERS_KK in client.post("/tournaments/new", data=form).text
    assert call(client, rooms) == 0
