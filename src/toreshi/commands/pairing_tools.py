"""The arbiter's pairing tools on the command line, registered in the ``toreshi tournament`` group.

* ``check FILE.trf`` — FIDE's free pairings checker: re-pair every round, report the rounds that differ and
  the criteria the file's pairing breaks;
* ``generate [CONFIG]`` — FIDE's random tournament generator, with JaVaFo's/bbpPairings' ``-g`` parameters;
* ``review FILE.trf -r N --pairs "1-2 3-4"`` — the criteria a manual change of round N's pairing breaks;
* ``prohibit FILE.trf 3 17`` — keep players apart (TRF-2026 record ``260``);
* ``baku FILE.trf`` — Baku acceleration (C.04.5.1) as TRF-2026 ``250`` records.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Annotated

import typer

from toreshi.commands.checks import read_text
from toreshi.commands.errors import CommandError, clip
from toreshi.tournament.dutch.checker import RoundCheck, check_trf, recorded_round
from toreshi.tournament.dutch.engine import NoValidPairingError, RoundPairing
from toreshi.tournament.dutch.generator import GeneratorConfig, GeneratorConfigError, generate, parse_config
from toreshi.tournament.dutch.review import Violation, manual_pairing, review_pairing
from toreshi.tournament.dutch.round import PairingInputError
from toreshi.tournament.trf import TrfError, TrfFile, format_trf, parse_trf
from toreshi.tournament.trf_pairing import (
    ALL_ROUNDS,
    ForbiddenPairs,
    baku_accelerations,
    read_forbidden,
    with_accelerations,
    with_forbidden,
)

FileArgument = Annotated[Path, typer.Argument(help="A TRF16 / TRF-2026 file.", dir_okay=False)]
OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write the TRF here (default: standard output).", dir_okay=False)
]


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_RECORD = re.compile(r"[0-9A-Za-z#]{3}(?: |$)")
"""The start of every TRF line: a three-character record code (``001``, ``012``, ``XXR``, a ``###`` comment)."""


def read_trf(path: Path) -> TrfFile:
    """The TRF at ``path`` (UTF-8, or Latin-1 as older programs wrote it); a file that is not one is refused with
    the line that shows it, as is a TRF with no player (no ``001`` line)."""
    try:
        text = read_text(path, legacy_encoding="latin-1")
    except CommandError as error:
        raise typer.BadParameter(error.message, param_hint="FILE") from None
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        if line.strip() and not _RECORD.match(line):
            raise typer.BadParameter(
                f"{path.name} is not a TRF: line {number} does not start with a record code ({clip(line, 40)!r})",
                param_hint="FILE",
            )
    try:
        trf = parse_trf(text)
    except TrfError as error:
        raise typer.BadParameter(str(error), param_hint="FILE") from None
    if not trf.players:
        raise typer.BadParameter(f"{path.name} has no players (no 001 line): not a TRF", param_hint="FILE")
    return trf


def write_trf(trf: TrfFile, output: Path | None) -> None:
    text = format_trf(trf, line_end="\r" if output is not None else "\n")
    if output is None:
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8", newline="")
    except OSError as error:
        raise typer.BadParameter(f"cannot write {output}: {error.strerror}", param_hint="--output") from None


def _boards(pairing: RoundPairing | None) -> str:
    if pairing is None:
        return "no valid pairing"
    text = " ".join(f"{p.white}-{p.black}" for p in pairing.pairs)
    return text + (f" bye {pairing.bye}" if pairing.bye is not None else "")


def _violation(v: Violation) -> str:
    players = ",".join(str(p) for p in v.players)
    return f"{v.criterion.value} [{players}] {v.value} (engine {v.best})"


def _report(name: str, check: RoundCheck) -> str:
    lines = [f"{name}: round {check.round} differs"]
    lines.append(f"  file:   {_boards(check.recorded)}")
    lines.append(f"  engine: {_boards(check.engine)}")
    if check.violations:
        lines.append("  the file's pairing breaks: " + "; ".join(_violation(v) for v in check.violations))
    return "\n".join(lines)


def check(file: FileArgument) -> None:
    """Re-pair every round of FILE.trf by the Dutch system (2025) and report each round that differs.

    Each round N is paired from rounds 1..N-1, the round-N absences (H, F, Z) and the file's prohibited pairings
    and accelerations, and compared with the file's boards, colours and bye. For a round that differs, the
    criteria the file's pairing breaks compared with the engine's are listed as codes (C1…C21) with the
    players concerned. Exit status 0 when every round agrees, 1 otherwise.
    """
    trf = read_trf(file)
    try:
        checks = check_trf(trf)
    except PairingInputError as error:
        raise typer.BadParameter(str(error), param_hint="FILE") from None
    differing = [c for c in checks if not c.agrees]
    for item in differing:
        typer.echo(_report(file.name, item))
    typer.echo(f"{file.name}: {len(checks) - len(differing)} of {len(checks)} rounds agree with the engine")
    if differing:
        raise typer.Exit(1)


def generate_command(
    config: Annotated[
        Path | None, typer.Argument(help="A -g configuration file (Key=Value lines).", dir_okay=False)
    ] = None,
    output: OutputOption = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Random seed (default: drawn).")] = None,
    players: Annotated[int | None, typer.Option("--players", help="PlayersNumber.")] = None,
    rounds: Annotated[int | None, typer.Option("--rounds", help="RoundsNumber.")] = None,
    baku: Annotated[bool, typer.Option("--baku", help="Baku acceleration (250 records).")] = False,
    forbid: Annotated[
        list[str] | None,
        typer.Option("--forbid", help="Players kept apart, e.g. 3,17 (repeat for more groups)."),
    ] = None,
) -> None:
    """Make a random Swiss tournament, every round paired by the Dutch engine (FIDE's RTG).

    CONFIG takes JaVaFo's / bbpPairings' keys: PlayersNumber, RoundsNumber, DrawPercentage, ForfeitRate,
    RetiredRate, HalfPointByeRate, HighestRating, LowestRating (missing ones drawn from bbpPairings' ranges),
    the standard PointsFor… values, and BakuAcceleration=1, ForbiddenPairs=1 2;5 9. Options override the file.
    The seed is written in the 012 record. Exit status 1 when a round cannot be paired.
    """
    try:
        base = _read_config(config) if config is not None else GeneratorConfig()
    except CommandError as error:
        raise typer.BadParameter(error.message, param_hint="CONFIG") from None
    except GeneratorConfigError as error:
        raise typer.BadParameter(str(error), param_hint="CONFIG") from None
    groups = tuple(_players(text, "--forbid") for text in forbid or ())
    chosen = dataclasses.replace(
        base,
        players=players if players is not None else base.players,
        rounds=rounds if rounds is not None else base.rounds,
        baku=baku or base.baku,
        forbidden=base.forbidden + groups,
    )
    number = seed if seed is not None else random.SystemRandom().randrange(2**31)
    try:
        chosen.check()
        trf = generate(chosen, random.Random(number), number)
    except GeneratorConfigError as error:
        raise typer.BadParameter(str(error)) from None
    except NoValidPairingError as error:
        typer.echo(f"No valid pairing (seed {number}): {error}", err=True)
        raise typer.Exit(1) from None
    write_trf(trf, output)


def _read_config(path: Path) -> GeneratorConfig:
    text = read_text(path)
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise CommandError(f"{path} has no Key=Value line (leave CONFIG out to draw every setting)")
    return parse_config(text)


def _players(text: str, hint: str) -> tuple[int, ...]:
    try:
        numbers = tuple(int(p) for p in text.replace(",", " ").replace("-", " ").split())
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a list of pairing numbers", param_hint=hint) from None
    if len(set(numbers)) < 2:
        raise typer.BadParameter(f"{text!r}: name two or more players", param_hint=hint)
    return numbers


def _pairs(text: str) -> list[tuple[int, int]]:
    boards = []
    for token in text.replace(",", " ").split():
        white, sep, black = token.partition("-")
        if not sep or not white.isdigit() or not black.isdigit():
            raise typer.BadParameter(f"a board is WHITE-BLACK, not {token!r}", param_hint="--pairs")
        boards.append((int(white), int(black)))
    return boards


def review(
    file: FileArgument,
    round_number: Annotated[int, typer.Option("--round", "-r", min=1, help="The round whose pairing is changed.")],
    pairs: Annotated[
        str | None, typer.Option("--pairs", help='The changed pairing, e.g. "1-4 3-2" (WHITE-BLACK boards).')
    ] = None,
    bye: Annotated[int | None, typer.Option("--bye", help="The player given the pairing-allocated bye.")] = None,
) -> None:
    """Which Dutch criteria a manual pairing of round N breaks, compared with the engine's pairing.

    Without --pairs the file's own round N is reviewed. One line per broken criterion: its code (C1…C21), the
    players concerned, the pairing's measure and the engine's. C1–C4 are absolute: FIDE allows no pairing that
    breaks them.
    """
    trf = read_trf(file)
    pairing = recorded_round(trf, round_number) if pairs is None else manual_pairing(_pairs(pairs), bye)
    try:
        result = review_pairing(trf, round_number, pairing)
    except PairingInputError as error:
        raise typer.BadParameter(str(error)) from None
    typer.echo(f"engine:  {_boards(result.engine)}")
    typer.echo(f"pairing: {_boards(result.pairing)}")
    if not result.violations:
        typer.echo("no criterion broken" + (" (the engine's pairing)" if result.same_as_engine else ""))
    for v in result.violations:
        typer.echo(_violation(v) + (" absolute" if v.criterion.absolute else ""))


def prohibit(
    file: FileArgument,
    players: Annotated[list[int], typer.Argument(help="Two or more pairing numbers to keep apart.")],
    first: Annotated[int, typer.Option("--from", min=1, help="First round of the prohibition.")] = 1,
    last: Annotated[int | None, typer.Option("--to", min=1, help="Last round (default: the last).")] = None,
    output: OutputOption = None,
) -> None:
    """Keep players apart (club mates, family): a TRF-2026 260 record, honoured by the Dutch engine as C1."""
    trf = read_trf(file)
    known = {p.number for p in trf.players}
    unknown = sorted(set(players) - known)
    if unknown:
        raise typer.BadParameter(f"no players {unknown} in the file", param_hint="PLAYERS")
    try:
        entry = ForbiddenPairs(tuple(players), first, last if last is not None else (trf.rounds or ALL_ROUNDS))
        write_trf(with_forbidden(trf, (*read_forbidden(trf), entry)), output)
    except TrfError as error:
        raise typer.BadParameter(str(error)) from None


def baku(file: FileArgument, output: OutputOption = None) -> None:
    """Add Baku acceleration (C.04.5.1) as TRF-2026 250 records, replacing any accelerations of the file.

    GA = the first half of the players (pairing numbers), rounded up to an even number; one virtual point in the
    first half (rounded up) of the accelerated rounds, half a point in the rest; the accelerated rounds are
    the first half of the tournament, rounded up.
    """
    trf = read_trf(file)
    if trf.rounds is None:
        raise typer.BadParameter("the TRF does not say how many rounds the tournament has (XXR or 142)")
    try:
        records = baku_accelerations([p.number for p in trf.players], trf.rounds)
    except TrfError as error:
        raise typer.BadParameter(str(error), param_hint="FILE") from None
    write_trf(with_accelerations(trf, records), output)


def register(app: typer.Typer) -> None:
    """Add the pairing tools to the ``tournament`` command group."""
    app.command("check")(check)
    app.command("generate")(generate_command)
    app.command("review")(review)
    app.command("prohibit")(prohibit)
    app.command("baku")(baku)
