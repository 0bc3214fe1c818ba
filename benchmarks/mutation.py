"""Mutation score of the pure cores and the kit: how many small wrong changes to the code the suite notices.

    .venv/bin/python benchmarks/mutation.py                      # every package, 40 mutants each
    .venv/bin/python benchmarks/mutation.py --package kit --sample 0   # every mutant of the kit

Cosmic Ray (a well-kept mutation tester) makes the mutants: it changes one operator, number, comparison or
keyword at a time and runs the package's own tests against it. A mutant the tests fail on is *killed*; one they
pass is a *survivor*: a change the suite would let through. The score is killed / (killed + survived), per package.

Every package has thousands of possible mutants and each costs one run of its tests, so by default a seeded random
sample is run (``--sample``). The draw hashes what each mutant is (module, operator, the text of its line), not its
number, so the same seed picks the same mutants before and after a change elsewhere: runs compare.
Cosmic Ray changes the files it mutates, so everything happens in a copy of the project in a temporary folder, with
the reference data (``../shared``) linked beside it as beside the project; the working tree is never touched.
Survivors are listed (file, line, operator) for a person to read: some are equivalent mutants (a change that
cannot alter behaviour), most are a missing assertion.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cosmic_ray.commands import execute, init
from cosmic_ray.config import ConfigDict
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Package:
    name: str
    sources: tuple[str, ...]
    """Folders or files mutated (relative to the project)."""
    tests: tuple[str, ...]
    """What pytest runs against each mutant: the package's own tests (and doctests)."""
    excluded: tuple[str, ...] = ()
    """Globs of modules left alone (the engine's search is checked by its perft and brute-force tests, far too slow
    to run once per mutant)."""
    deselected: tuple[str, ...] = ()
    """Tests left out of the run against each mutant because they take half a minute each (a pass over the whole
    PlayOK corpus); the suite still runs them, and smaller records exercise the same code here."""


PACKAGES = {
    package.name: package
    for package in (
        Package("kit", ("src/toreshi/kit",), ("tests/kit", "tests/web/test_refusals.py", "src/toreshi/kit")),
        Package("clock", ("src/toreshi/clock",), ("tests/clock", "src/toreshi/clock")),
        # The reconnect history is no core, but an event lost at its edge is the defect a client never sees.
        Package(
            "history", ("src/toreshi/live/history.py",), ("tests/live/test_history.py", "src/toreshi/live/history.py")
        ),
        Package(
            "togyz",
            ("src/toreshi/togyz",),
            (
                "tests/togyz/test_position.py",
                "tests/togyz/test_notation.py",
                "tests/togyz/test_fen.py",
                "tests/togyz/test_pgn.py",
                "tests/togyz/test_replay.py",
                "tests/togyz/test_record_edges.py",
                "tests/togyz/match",
            ),
            excluded=("src/toreshi/togyz/engine/*",),
            deselected=(
                "tests/togyz/test_pgn.py::test_corpus_round_trip",
                "tests/togyz/test_replay.py::test_every_corpus_game_replays_with_its_annotations_confirmed",
                "tests/togyz/match/test_export.py::test_playok_games_replayed_live_export_to_the_same_movetext",
            ),
        ),
        Package("quiz", ("src/toreshi/quiz",), ("tests/quiz", "src/toreshi/quiz")),
        Package(
            "tournament",
            ("src/toreshi/tournament",),
            ("tests/tournament", "src/toreshi/tournament"),
            excluded=("*/dutch/*",),
        ),
        Package(
            "dutch",
            ("src/toreshi/tournament/dutch",),
            (
                "tests/tournament/test_dutch_engine.py",
                "tests/tournament/test_dutch_matching.py",
                "tests/tournament/test_dutch_checker.py",
                "tests/tournament/test_dutch_review.py",
                "tests/tournament/test_dutch_generator.py",
                "tests/tournament/test_dutch_prohibitions_and_acceleration.py",
                "src/toreshi/tournament/dutch",
            ),
        ),
    )
}


@dataclass(frozen=True)
class Score:
    package: str
    mutants: int
    """Every mutant Cosmic Ray can make of the package."""
    killed: int
    survived: int
    incompetent: int
    """Mutants that could not run at all (a syntax the operator broke, a timeout): counted in neither."""
    seconds: float
    survivors: tuple[str, ...]

    @property
    def score(self) -> float:
        tried = self.killed + self.survived
        return self.killed / tried if tried else 0.0


Span = tuple[tuple[int, int], tuple[int, int]]
"""(line, column) of a node's start and end."""


def annotation_spans(module: Path) -> list[Span]:
    """Where the module's type annotations are: with ``from __future__ import annotations`` they are never
    evaluated, so a mutant there (``int | None`` → ``int << None``) is equivalent by construction and not counted."""
    spans: list[Span] = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        for annotation in found:
            if annotation is not None and annotation.end_lineno is not None and annotation.end_col_offset is not None:
                spans.append(
                    ((annotation.lineno, annotation.col_offset), (annotation.end_lineno, annotation.end_col_offset))
                )
    return spans


def in_annotation(module: Path, position: tuple[int, int], cache: dict[Path, list[Span]]) -> bool:
    if module not in cache:
        cache[module] = annotation_spans(module)
    return any(start <= tuple(position) <= end for start, end in cache[module])


SHARED = ROOT.parent / "shared"
"""The reference data beside the project (``../shared/data``): PlayOK games, reference TRF files, SIGame packs."""


def draw(items: list[WorkItem], seed: int, sample: int) -> list[WorkItem]:
    """The seeded sample: each mutant's place is a hash of the seed and of what the mutant is (module, operator, the
    text of its line, its column from the line's indent, and which of the same on identical lines), never of its
    number, which every change above it in the module shifts. A sample then stays the same sample when code elsewhere
    changes: a new line can only add a mutant to it."""
    lines: dict[str, list[str]] = {}
    keys: dict[str, list[WorkItem]] = {}

    def where(item: WorkItem) -> tuple[str, tuple[int, int], int]:
        spec = item.mutations[0]
        return str(spec.module_path), tuple(spec.start_pos), spec.occurrence

    for item in sorted(items, key=where):
        spec = item.mutations[0]
        module = str(spec.module_path)
        if module not in lines:
            lines[module] = Path(module).read_text(encoding="utf-8").splitlines()
        line_number, column = spec.start_pos
        text = lines[module][line_number - 1] if line_number <= len(lines[module]) else ""
        indent = len(text) - len(text.lstrip())
        keys.setdefault(f"{module}|{spec.operator_name}|{text.strip()}|{column - indent}", []).append(item)
    ranked = sorted(
        (hashlib.sha256(f"{seed}|{key}|{ordinal}".encode()).hexdigest(), item)
        for key, same in keys.items()
        for ordinal, item in enumerate(same)
    )
    return [item for _, item in ranked[:sample]]


def copy_project(into: Path) -> Path:
    """Copy the project into ``into/project`` and link ``into/shared`` to the reference data, so that the tests that
    read it (``tests/conftest.py`` looks beside the project) run against every mutant instead of skipping."""
    project = into / "project"
    project.mkdir()
    for part in ("src", "tests", "pyproject.toml"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, project / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, project / part)
    if SHARED.is_dir():
        (into / "shared").symlink_to(SHARED.resolve(), target_is_directory=True)
    else:
        print(f"warning: no reference data at {SHARED}: the tests that need it skip", file=sys.stderr)
    return project


def run_package(package: Package, sample: int, seed: int, timeout: float) -> Score:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutation-{package.name}-") as folder:
        work = copy_project(Path(folder))
        previous = Path.cwd()
        os.chdir(work)
        os.environ["PYTHONPATH"] = str(work / "src")  # the copy's mutated sources, never the installed ones
        try:
            modules = sorted(
                path
                for source in package.sources
                for path in (Path(source).rglob("*.py") if Path(source).is_dir() else [Path(source)])
                if not any(path.match(pattern) for pattern in package.excluded)
            )
            tests = " ".join((*package.tests, *(f"--deselect {test}" for test in package.deselected)))
            config = ConfigDict(
                {
                    "module-path": [str(m) for m in modules],
                    "timeout": timeout,
                    "excluded-modules": [],
                    "test-command": f"{sys.executable} -m pytest -x -q -p no:cacheprovider -p no:xdist "
                    f"-o addopts='--doctest-modules --import-mode=importlib' {tests}",
                    "distributor": {"name": "local"},
                }
            )
            with use_db(str(work / "session.sqlite"), WorkDB.Mode.create) as db:
                init(modules, db, {})
                annotations: dict[Path, list[Span]] = {}
                items = [
                    item
                    for item in db.pending_work_items
                    if not in_annotation(Path(item.mutations[0].module_path), item.mutations[0].start_pos, annotations)
                ]
                equivalent = [item.job_id for item in db.pending_work_items if item not in items]
                db.set_multiple_results(equivalent, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
                chosen = items if sample <= 0 else draw(items, seed, sample)
                keep = {item.job_id for item in chosen}
                skipped = [item.job_id for item in items if item.job_id not in keep]
                db.set_multiple_results(skipped, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
                execute(db, config)
                killed = survived = incompetent = 0
                survivors: list[str] = []
                for item, result in db.completed_work_items:
                    if result.worker_outcome is WorkerOutcome.SKIPPED:
                        continue
                    if result.test_outcome is TestOutcome.KILLED:
                        killed += 1
                    elif result.test_outcome is TestOutcome.SURVIVED:
                        survived += 1
                        spec = item.mutations[0]
                        survivors.append(f"{spec.module_path}:{spec.start_pos[0]} {spec.operator_name}")
                    else:
                        incompetent += 1
        finally:
            os.chdir(previous)
    return Score(
        package.name, len(items), killed, survived, incompetent, time.monotonic() - started, tuple(sorted(survivors))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package", action="append", choices=sorted(PACKAGES), help="default: every package")
    parser.add_argument("--sample", type=int, default=40, help="mutants per package (0: all of them)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a mutant's test run may take")
    parser.add_argument("--survivors", action="store_true", help="list every survivor")
    args = parser.parse_args()
    names = args.package or list(PACKAGES)
    print(f"{'package':<11} {'mutants':>7} {'run':>4} {'killed':>6} {'survived':>8} {'other':>5} {'score':>6} {'s':>6}")
    for name in names:
        score = run_package(PACKAGES[name], args.sample, args.seed, args.timeout)
        run = score.killed + score.survived + score.incompetent
        print(
            f"{score.package:<11} {score.mutants:>7} {run:>4} {score.killed:>6} {score.survived:>8} "
            f"{score.incompetent:>5} {score.score:>6.0%} {score.seconds:>6.0f}",
            flush=True,
        )
        if args.survivors:
            for line in score.survivors:
                print(f"    survived: {line}")


if __name__ == "__main__":
    main()
