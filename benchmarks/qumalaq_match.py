"""Our search against nurkal022/9Qumalaqv2 (a Rust NNUE engine), strength and speed side by side.

The opponent is built from its public source OUTSIDE this repository (nothing of it is vendored here):

    python benchmarks/qumalaq_match.py --opponent /work/opponents/9Qumalaqv2 --build
        # git clone https://github.com/nurkal022/9Qumalaqv2 into that directory if it is not there yet, then
        # RUSTFLAGS="-C target-cpu=native" cargo build --release in its engine/ (--portable: without the flag;
        # the native build evaluates its network about 2.8x as fast here, so it is the full-strength one)
    python benchmarks/qumalaq_match.py --opponent /work/opponents/9Qumalaqv2 --egtb 3
        # optional: its endgame tables (`egtb-gen N`, written to engine/egtb.bin); the repository ships none, its
        # authors used N <= 4, which their generator needs well over 14 GB of memory for; N <= 3 takes ~3 GB
    python benchmarks/qumalaq_match.py --opponent DIR --ms 200 --games 100 [--jobs 1] [--log FILE]
        # plays the match

Before playing it checks that the opponent is at full strength and prints what it found: its release binary, its
network (engine/nnue_weights.bin) and opening book (engine/opening_book.txt) present as real files (a Git LFS
pointer is refused), the endgame tables if any, and its single thread: each game runs in a worker process pinned
to one core, and the opponent inherits that affinity, so its Lazy SMP search (``available_parallelism`` threads)
runs one thread, as ours does. Then both engines search the same ``--speed`` corpus middlegames (ply 30) for
``--ms`` each and both nodes/s are printed side by side.

The match: ``--games`` games in pairs, each opening (the position after ``--opening-plies`` plies of an evenly
spaced PlayOK corpus game, as ``benchmarks/engine.py`` picks them) played once with each colour, both engines at
``--ms`` a move (ours: ``analyse`` with that movetime; the opponent: ``go time MS`` of its ``serve`` protocol,
whose own time manager takes up to 1.5x that at <= 60 kumalaks on the board and 2x at <= 30: both engines' real
time a move is printed). Our rules referee every move and end the game as ``benchmarks/engine.py`` does (a
kazan at 82, atsyz, or a result no longer in doubt). The opponent's rules end a game when either row is empty;
when it answers "terminal" in a position our rules continue, our search plays that move for it (counted as a
stand-in). A crash, an illegal move, an error reply or no reply within 3x the time + 2 s loses the game for the
opponent (counted, and the opponent is restarted).

Every finished game is appended to ``--log`` (JSON lines); a rerun with the same log and settings skips the games
already there, so a match can be stopped and resumed, and ``--report`` prints the result of a log without playing.
W/D/L, the score, the Elo difference with its 95 % margin (``benchmarks/engine.py``'s), both engines' nodes/s and
the load average at the start and at the end are printed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.engine import corpus_positions, elo, interval, play_game, signed
from benchmarks.togyz_corpus import DEFAULT_CORPUS

from toreshi.togyz.engine import Limits, analyse
from toreshi.togyz.engine.board import K0, K1, T0, T1, TURN, State, origins, position_of

REPO = Path(__file__).resolve().parents[1]
SOURCE = "https://github.com/nurkal022/9Qumalaqv2"
BINARY = Path("engine/target/release/togyzkumalaq-engine")
FILES = {"network": "engine/nnue_weights.bin", "opening book": "engine/opening_book.txt"}
EGTB = "engine/egtb.bin"
LFS_POINTER = b"version https://git-lfs"
MAX_PLIES = 600


class OpponentFailedError(Exception):
    """The opponent lost the game by a crash, an illegal move, an error reply or a timeout."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def encode(state: State) -> str:
    """The opponent's position string: ``w0..w8/b0..b8/kazan W,kazan B/tuzdyk W,tuzdyk B/side``; its tuzdyk is the
    index 0-8 of the hole in the other row (ours the ring index of that hole)."""
    white = ",".join(map(str, state[0:9]))
    black = ",".join(map(str, state[9:18]))
    tuzdyks = (state[T0] - 9 if state[T0] >= 0 else -1, state[T1])
    return f"{white}/{black}/{state[K0]},{state[K1]}/{tuzdyks[0]},{tuzdyks[1]}/{state[TURN]}"


def lfs_pointer(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(len(LFS_POINTER)) == LFS_POINTER


def inside_repo(path: Path) -> bool:
    return path.resolve().is_relative_to(REPO)


def build(directory: Path, native: bool) -> None:
    if not directory.exists():
        subprocess.run(["git", "clone", SOURCE, str(directory)], check=True)
    env = dict(os.environ)
    if native:
        env["RUSTFLAGS"] = (env.get("RUSTFLAGS", "") + " -C target-cpu=native").strip()
    subprocess.run(["cargo", "build", "--release"], cwd=directory / "engine", env=env, check=True)


class Opponent:
    """The opponent's ``serve`` process: one line in, one line out; stdout read by a thread so a silent or dead
    process ends in a timeout or an end of file, never a hang."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.stderr = (directory / "engine" / f".serve-{os.getpid()}.stderr").open("w+")
        self.process = subprocess.Popen(
            [str(directory / BINARY), "serve"],
            cwd=directory / "engine",
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        if self.ask(None, 60) != "ready":
            raise RuntimeError("the opponent did not start")

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line.strip())
        self.lines.put(None)

    def ask(self, command: str | None, timeout: float) -> str:
        if command is not None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(command + "\n")
                self.process.stdin.flush()
            except OSError as error:
                raise OpponentFailedError(f"crash ({error})") from error
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise OpponentFailedError(f"timeout ({timeout:g} s)") from None
        if line is None:
            raise OpponentFailedError(f"crash (exit code {self.process.wait()})")
        return line

    def startup(self) -> list[str]:
        self.stderr.flush()
        self.stderr.seek(0)
        return [line.strip() for line in self.stderr if line.strip()]

    def threads(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(OpponentFailedError):
                self.ask("quit", 0.1)
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.stderr.close()
        Path(self.stderr.name).unlink(missing_ok=True)


@dataclass
class Side:
    """What one engine did in a game: moves, nodes and time of its searches, wall time of its moves."""

    moves: int = 0
    nodes: int = 0
    search_seconds: float = 0.0
    wall: float = 0.0
    wall_max: float = 0.0
    depths: list[int] = field(default_factory=list)
    book: int = 0
    solved: int = 0
    stand_ins: int = 0


def our_move(state: State, ms: int, side: Side) -> int:
    started = time.perf_counter()
    verdict = analyse(position_of(state), Limits(movetime=ms / 1000), clock=time.perf_counter)
    elapsed = time.perf_counter() - started
    side.moves += 1
    side.wall += elapsed
    side.wall_max = max(side.wall_max, elapsed)
    if verdict.solved:
        side.solved += 1
    else:
        side.nodes += verdict.nodes
        side.search_seconds += verdict.seconds
        side.depths.append(verdict.depth)
    return verdict.best_move - 1 + 9 * state[TURN]


def their_move(opponent: Opponent, state: State, ms: int, side: Side) -> int:
    position = encode(state)
    if (reply := opponent.ask(f"position {position}", 10)) != "ready":
        raise OpponentFailedError(f"error reply to position: {reply!r}")
    started = time.perf_counter()
    reply = opponent.ask(f"go time {ms} pos {position}", 3 * ms / 1000 + 2)
    elapsed = time.perf_counter() - started
    side.moves += 1
    side.wall += elapsed
    side.wall_max = max(side.wall_max, elapsed)
    words = reply.split()
    if words[:1] == ["terminal"]:
        side.stand_ins += 1
        return our_move(state, ms, Side())
    if words[:1] != ["bestmove"] or len(words) % 2:
        raise OpponentFailedError(f"error reply: {reply!r}")
    fields = dict(zip(words[::2], words[1::2], strict=True))
    move = int(fields["bestmove"]) + 9 * state[TURN]
    if move not in origins(state):
        raise OpponentFailedError(f"illegal move: hole {int(fields['bestmove']) + 1} in {position}")
    if int(fields["nodes"]) == 0 and int(fields["depth"]) == 0:
        side.book += 1
    else:
        side.nodes += int(fields["nodes"])
        side.search_seconds += int(fields["time"]) / 1000
        side.depths.append(int(fields["depth"]))
    return move


@dataclass
class Game:
    index: int
    opening: int
    ours_white: bool
    score: float
    """Our score: 1, 1/2, 0."""
    plies: int
    forfeit: str | None
    ours: Side
    theirs: Side


def play(opponent: Opponent, index: int, opening: int, state: State, ms: int) -> Game:
    ours, theirs = Side(), Side()
    ours_white = index % 2 == 0
    if opponent.ask("newgame", 10) != "ready":
        raise OpponentFailedError("error reply to newgame")

    def we(state: State, rng: random.Random) -> int:
        return our_move(state, ms, ours)

    def they(state: State, rng: random.Random) -> int:
        return their_move(opponent, state, ms, theirs)

    forfeit = None
    try:
        white_score = play_game(
            state, we if ours_white else they, they if ours_white else we, random.Random(0), MAX_PLIES
        )
        score = white_score if ours_white else 1 - white_score
    except OpponentFailedError as failure:
        forfeit, score = failure.reason, 1.0
    return Game(index, opening, ours_white, score, ours.moves + theirs.moves, forfeit, ours, theirs)


def worker(directory: str, core: int | None, tasks: Any, results: Any) -> None:
    if core is not None:
        os.sched_setaffinity(0, {core})  # the opponent started below inherits it: one core, one search thread
    opponent = Opponent(Path(directory))
    try:
        while (task := tasks.get()) is not None:
            index, opening, state, ms = task
            game = play(opponent, index, opening, state, ms)
            if game.forfeit is not None:  # a fresh process for the next game
                opponent.close()
                opponent = Opponent(Path(directory))
            results.put(asdict(game))
    finally:
        opponent.close()
        results.put(None)


def checks(directory: Path) -> list[str]:
    """What makes the opponent full strength, each checked; raises SystemExit if a piece is missing."""
    binary = directory / BINARY
    if not binary.is_file():
        raise SystemExit(f"no release build at {binary}: run with --build")
    lines = [f"opponent: {SOURCE} at {git_head(directory)}, release binary {binary} ({binary.stat().st_size:,} bytes)"]
    for label, name in FILES.items():
        path = directory / name
        if not path.is_file():
            raise SystemExit(f"the opponent's {label} is missing: {path}")
        if lfs_pointer(path):
            raise SystemExit(f"the opponent's {label} is a Git LFS pointer, not the file: {path}")
        lines.append(f"  {label}: {name}, {path.stat().st_size:,} bytes (a real file, not a Git LFS pointer)")
    egtb = directory / EGTB
    lines.append(
        f"  endgame tables: {EGTB}, {egtb.stat().st_size:,} bytes"
        if egtb.is_file()
        else "  endgame tables: none (the repository ships none; --egtb N generates them)"
    )
    opponent = Opponent(directory)
    try:
        lines.extend(f"  it says: {line}" for line in opponent.startup())
        opponent.ask("go time 50 pos " + encode([9] * 18 + [0, 0, -1, -1, 0]), 10)
        lines.append(
            f"  its threads after a search: {opponent.threads()} (cores it may use: {len(os.sched_getaffinity(0))})"
        )
    finally:
        opponent.close()
    return lines


def git_head(directory: Path) -> str:
    result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=directory, capture_output=True, text=True)
    return result.stdout.strip() or "?"


def speed(directory: Path, middlegames: list[State], ms: int) -> None:
    """Both engines search the same positions for ``ms`` each, in this process's core(s)."""
    opponent = Opponent(directory)
    rows: dict[str, tuple[list[int], list[float]]] = {"toreshi": ([], []), "9Qumalaqv2": ([], [])}
    try:
        for state in middlegames:
            verdict = analyse(position_of(state), Limits(movetime=ms / 1000), clock=time.perf_counter, endgame=False)
            rows["toreshi"][0].append(verdict.depth)
            rows["toreshi"][1].append(verdict.nodes_per_second)
            opponent.ask("newgame", 10)
            words = opponent.ask(f"go time {ms} pos {encode(state)}", 3 * ms / 1000 + 2).split()
            fields = dict(zip(words[::2], words[1::2], strict=False))
            if int(fields.get("nodes", 0)) > 0:
                rows["9Qumalaqv2"][0].append(int(fields["depth"]))
                rows["9Qumalaqv2"][1].append(int(fields["nodes"]) / max(int(fields["time"]), 1) * 1000)
    finally:
        opponent.close()
    print(f"speed: {len(middlegames)} corpus middlegames (ply 30), {ms} ms each, one thread each")
    for label, (depths, rates) in rows.items():
        if depths:
            print(
                f"  {label:<11} depth median {statistics.median(depths):g} ({min(depths)}-{max(depths)}), "
                f"nodes/s median {statistics.median(rates):,.0f} ({min(rates):,.0f}-{max(rates):,.0f})"
            )


def logged(path: Path | None, ms: int, opening_plies: int) -> Iterator[dict[str, Any]]:
    if path is None or not path.is_file():
        return
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record["ms"] == ms and record["opening_plies"] == opening_plies:
            yield record


def rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


def report(records: list[dict[str, Any]], ms: int) -> None:
    if not records:
        print("no games")
        return
    scores = [record["score"] for record in records]
    wins, draws = scores.count(1.0), scores.count(0.5)
    share = statistics.fmean(scores)
    low, high = interval(scores)
    print(
        f"result at {ms} ms a move, {len(records)} games: toreshi W/D/L {wins}/{draws}/{len(scores) - wins - draws}, "
        f"score {share:.1%}, Elo {signed(elo(share))} (95 % {signed(elo(low))} to {signed(elo(high))})"
    )
    forfeits = [record["forfeit"] for record in records if record["forfeit"]]
    print(f"  opponent forfeits (crash, illegal move, error, timeout): {len(forfeits)} {forfeits if forfeits else ''}")
    print(
        f"  plies: mean {statistics.fmean(record['plies'] for record in records):.0f}, capped at {MAX_PLIES}: "
        f"{sum(record['plies'] >= MAX_PLIES for record in records)}"
    )
    for key, label in (("ours", "toreshi"), ("theirs", "9Qumalaqv2")):
        sides = [record[key] for record in records]
        moves = sum(side["moves"] for side in sides)
        nodes = sum(side["nodes"] for side in sides)
        seconds = sum(side["search_seconds"] for side in sides)
        depths = [depth for side in sides for depth in side["depths"]]
        extra = (
            f"book moves {sum(side['book'] for side in sides)}, 'terminal' answers played by our search "
            f"{sum(side['stand_ins'] for side in sides)}"
            if key == "theirs"
            else f"moves proved by the endgame solver {sum(side['solved'] for side in sides)}"
        )
        print(
            f"  {label:<11} {moves} moves, nodes/s {rate(nodes, seconds)}, depth median "
            f"{statistics.median(depths) if depths else 0:g}, wall time a move mean "
            f"{sum(side['wall'] for side in sides) / max(moves, 1) * 1000:.0f} ms, max "
            f"{max(side['wall_max'] for side in sides) * 1000:.0f} ms; {extra}"
        )


def progress(game: dict[str, Any], records: list[dict[str, Any]], seconds: float) -> None:
    scores = [record["score"] for record in records]
    colour = "White" if game["ours_white"] else "Black"
    forfeit = f" (forfeit: {game['forfeit']})" if game["forfeit"] else ""
    print(
        f"game {game['index'] + 1}: opening {game['opening']}, toreshi {colour}, scores {game['score']:g} in "
        f"{game['plies']} plies{forfeit} | {len(scores)} games: {scores.count(1.0)}/{scores.count(0.5)}/"
        f"{scores.count(0.0)}, {statistics.fmean(scores):.1%}, {seconds:.0f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponent", type=Path, required=True, help="its clone, outside this repository")
    parser.add_argument("--build", action="store_true", help="clone (if missing) and cargo build --release")
    parser.add_argument("--portable", action="store_true", help="build without -C target-cpu=native")
    parser.add_argument("--egtb", type=int, help="generate its endgame tables for <= N kumalaks on the board")
    parser.add_argument("--ms", type=int, default=200, help="milliseconds a move, both engines")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1, help="games in parallel, each on its own core")
    parser.add_argument("--cores", type=int, nargs="*", help="the cores to pin games to (default: all allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin (the opponent then uses every core)")
    parser.add_argument("--speed", type=int, default=10, help="middlegames for the nodes/s comparison (0: none)")
    parser.add_argument("--log", type=Path, help="JSON lines of finished games: resumed, and extended")
    parser.add_argument("--report", action="store_true", help="print the log's result and play nothing")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--opening-plies", type=int, default=4)
    args = parser.parse_args()
    directory = args.opponent.resolve()
    if inside_repo(directory):
        parser.error("the opponent must live outside this repository")
    if args.report:
        report(list(logged(args.log, args.ms, args.opening_plies)), args.ms)
        return
    if args.build:
        build(directory, native=not args.portable)
    if args.egtb is not None:
        subprocess.run(
            [str(directory / BINARY), "egtb-gen", str(args.egtb), "egtb.bin"], cwd=directory / "engine", check=True
        )
    if not args.corpus.is_file():
        parser.error(f"no corpus at {args.corpus} (../shared/data/togyz/playok-2024-2025.pgn, or pass --corpus)")

    print(
        f"load average at the start: {' '.join(f'{value:.2f}' for value in os.getloadavg())} ({os.cpu_count()} cores)"
    )
    cargo = shutil.which("cargo")
    version = subprocess.run([cargo, "--version"], capture_output=True, text=True).stdout if cargo else "none\n"
    print(f"cargo: {version.strip()}")
    allowed = sorted(os.sched_getaffinity(0))
    cores = args.cores or allowed
    if not args.no_pin:
        os.sched_setaffinity(0, {cores[0]})
    for line in checks(directory):
        print(line)
    middlegames, openings = corpus_positions(args.corpus, args.speed, args.opening_plies)
    if args.speed:
        speed(directory, middlegames[: args.speed], args.ms)
    os.sched_setaffinity(0, set(allowed))

    records = list(logged(args.log, args.ms, args.opening_plies))
    done = {record["index"] for record in records}
    if records:
        print(f"resuming: {len(records)} games already in {args.log}")
    tasks: Any = multiprocessing.Queue()
    results: Any = multiprocessing.Queue()
    todo = [index for index in range(args.games) if index not in done]
    for index in todo:
        opening = (index // 2) % len(openings)
        tasks.put((index, opening, openings[opening], args.ms))
    jobs = max(1, min(args.jobs, len(todo)))
    for _ in range(jobs):
        tasks.put(None)
    workers = [
        multiprocessing.Process(
            target=worker,
            args=(str(directory), None if args.no_pin else cores[number % len(cores)], tasks, results),
            daemon=True,
        )
        for number in range(jobs if todo else 0)
    ]
    for process in workers:
        process.start()
    started = time.perf_counter()
    running = len(workers)
    try:
        while running:
            game = results.get()
            if game is None:
                running -= 1
                continue
            game |= {"ms": args.ms, "opening_plies": args.opening_plies}
            records.append(game)
            if args.log is not None:
                with args.log.open("a") as handle:
                    handle.write(json.dumps(game) + "\n")
            progress(game, records, time.perf_counter() - started)
    except KeyboardInterrupt:
        print("interrupted: the result so far")
    report(sorted(records, key=lambda record: record["index"]), args.ms)
    print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
