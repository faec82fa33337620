"""This tree against another revision: the same seeded bot games, their speed and their actions.

Checks out ``--against`` in a temporary ``git worktree`` and plays the same seat-rotated games
(each seed four times, the lineup turned one seat each time, as games.bots.arena does) with
both trees, batch by batch, alternating which tree goes first, in subprocesses whose
``PYTHONPATH`` is each tree (bench/compare_worker.py). With ``--jobs 2`` a batch of each tree
runs at once, so a busy host slows both alike. Per lineup it prints:

- whether the games are identical: a digest of every (seat, action) of every game, per tree;
- the game's CPU time (``time.process_time``), medians per tree and their ratio (this / other);
- actions per CPU second and their ratio (four random players: the engine's random playouts);
- each level's decision CPU time p50 and p99, and the p99 ratio.

A ratio below 1 means this tree is faster. Figures, not pass/fail. This tree runs its compiled
build when it has a current one (games/build.py); the other tree, a fresh worktree, runs as
plain Python, so ``--against HEAD`` on a clean tree shows what the build adds.

    .venv/bin/python -m bench.compare --against 3052d82 --games 400
    .venv/bin/python -m bench.compare --against HEAD --games 8 --lineups normal easy

``--openspiel`` adds a yardstick beside the random lineup, in the same alternation: OpenSpiel's
gin rummy between two random players (``pip install open_spiel``; bench/compare_worker.py),
and each tree's actions per CPU second as a multiple of its. Run with
``LADDER_PURE_PYTHON=1`` to time both trees' Python alone:

    LADDER_PURE_PYTHON=1 .venv/bin/python -m bench.compare --against a08c3ad --games 200 \
        --lineups random --openspiel
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from bench.stats import percentile

REPO = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).with_name("compare_worker.py")
LINEUPS = ("normal,normal,normal,normal", "hard,normal,normal,normal", "easy,easy,easy,easy",
           "random,random,random,random")
THIS, OTHER = "this", "other"
RANDOM = "random,random,random,random"
OPENSPIEL = "openspiel"  # the yardstick's batches (compare_worker.openspiel)


@dataclass
class Played:
    """One tree's games of one lineup."""

    digests: dict[int, str] = field(default_factory=dict)  # by game number
    actions: int = 0
    seconds: list[float] = field(default_factory=list)
    decision_ms: dict[str, list[float]] = field(default_factory=dict)
    compiled: set[bool] = field(default_factory=set)  # as each game's worker found it

    def add(self, game: dict) -> None:
        self.compiled.add(game["compiled"])
        self.digests[game["number"]] = game["digest"]
        self.actions += game["actions"]
        self.seconds.append(game["seconds"])
        for level, times in game["decision_ms"].items():
            self.decision_ms.setdefault(level, []).extend(times)

    def digest(self) -> str:
        """Every game's digest in game order, as one."""
        joined = "".join(self.digests[n] for n in sorted(self.digests))
        return hashlib.sha256(joined.encode()).hexdigest()[:16]

    def actions_per_second(self) -> float:
        return self.actions / sum(self.seconds)


def lineup_of(text: str) -> str:
    """``normal`` is four normal players; ``hard,normal,normal,normal`` a lineup by seat."""
    levels = text.split(",")
    if len(levels) == 1:
        levels *= 4
    if len(levels) != 4:
        raise argparse.ArgumentTypeError(f"a lineup is one level or four: {text!r}")
    return ",".join(levels)


@contextlib.contextmanager
def worktree_of(revision: str) -> Iterator[Path]:
    """A temporary detached worktree of ``revision``, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="compare-"))
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "--quiet",
                    str(path), revision], check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(path)],
                       check=False)


def play_batch(tree: Path, seed: str, lineup: str, first: int, count: int) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    what = ["openspiel", seed] if lineup == OPENSPIEL else [str(tree), seed, lineup]
    run = subprocess.run([sys.executable, str(WORKER), *what, str(first), str(count)],
                         cwd=tree, env=env, capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError(f"{tree}: {run.stderr.strip()}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def compare(other_tree: Path, games: int, lineups, seed: str, batch: int, jobs: int,
            openspiel: bool = False):
    """{lineup: {THIS: Played, OTHER: Played}}, the trees' batches alternated; with
    ``openspiel``, the yardstick's batches (under OPENSPIEL, THIS) beside the random
    lineup's."""
    trees = {THIS: REPO, OTHER: other_tree}
    tasks = []
    for lineup in lineups:
        for index, first in enumerate(range(0, games, batch)):
            count = min(batch, games - first)
            order = (THIS, OTHER) if index % 2 == 0 else (OTHER, THIS)
            tasks += [(lineup, name, first, count) for name in order]
            if openspiel and lineup == RANDOM:
                tasks.append((OPENSPIEL, THIS, first, count))
    results = {lineup: {THIS: Played(), OTHER: Played()} for lineup in [*lineups, OPENSPIEL]}
    with ThreadPoolExecutor(jobs) as pool:
        futures = [(lineup, name, pool.submit(play_batch, trees[name], seed, lineup, first,
                                              count))
                   for lineup, name, first, count in tasks]
        for lineup, name, future in futures:
            for game in future.result():
                results[lineup][name].add(game)
    return results


def report(lineup: str, this: Played, other: Played) -> list[str]:
    differing = sorted(n for n in this.digests if this.digests[n] != other.digests.get(n))
    if differing:
        verdict = f"DIFFERENT in {len(differing)} of {len(this.digests)} games (first: game " \
                  f"{differing[0]})"
    else:
        verdict = "identical"
    this_ms, other_ms = median(this.seconds) * 1000, median(other.seconds) * 1000
    lines = [
        f"{lineup}: {len(this.digests)} games, actions {verdict} "
        f"(digest {this.digest()} against {other.digest()})",
        f"  game CPU median {this_ms:8.1f} ms against {other_ms:8.1f} ms: ratio "
        f"{this_ms / other_ms:.2f}",
        f"  actions per CPU second {this.actions_per_second():8.0f} against "
        f"{other.actions_per_second():8.0f}: ratio "
        f"{this.actions_per_second() / other.actions_per_second():.2f}",
    ]
    for level in sorted(this.decision_ms):
        mine, theirs = this.decision_ms[level], other.decision_ms[level]
        lines.append(
            f"  {level:<6} decision CPU p50 {percentile(mine, 50):6.2f} / "
            f"{percentile(theirs, 50):6.2f} ms, p99 {percentile(mine, 99):7.2f} / "
            f"{percentile(theirs, 99):7.2f} ms: p99 ratio "
            f"{percentile(mine, 99) / percentile(theirs, 99):.2f}")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="a git revision: 3052d82, HEAD, main")
    parser.add_argument("--games", type=int, default=40, help="games per lineup")
    parser.add_argument("--lineups", nargs="+", type=lineup_of, default=list(LINEUPS))
    parser.add_argument("--seed", default="compare")
    parser.add_argument("--batch", type=int, default=8, help="games per subprocess")
    parser.add_argument("--jobs", type=int, default=2, help="subprocesses at once")
    parser.add_argument("--openspiel", action="store_true",
                        help="time OpenSpiel's gin rummy beside the random lineup "
                             "(pip install open_spiel)")
    args = parser.parse_args(argv)
    revision = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", args.against],
                              check=True, capture_output=True, text=True).stdout.strip()
    head = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                          check=True, capture_output=True, text=True).stdout.strip()
    print(f"this tree ({head}) against {args.against} ({revision}): {args.games} games per "
          f"lineup, seed {args.seed!r}, batches of {args.batch}, {args.jobs} at once; "
          "ratios are this / other")
    with worktree_of(revision) as other_tree:
        results = compare(other_tree, args.games, args.lineups, args.seed, args.batch,
                          args.jobs, args.openspiel)
    for name in (THIS, OTHER):
        seen = set().union(*(played[name].compiled for lineup, played in results.items()
                             if lineup != OPENSPIEL))
        how = {frozenset({True}): "compiled", frozenset({False}): "as plain Python"}.get(
            frozenset(seen), "partly compiled (a stale build?)")
        print(f"{name} tree ran {how} (games/build.py)")
    yardstick = results.pop(OPENSPIEL)[THIS]
    for lineup, played in results.items():
        print("\n".join(report(lineup, played[THIS], played[OTHER])), flush=True)
        if lineup == RANDOM and yardstick.seconds:
            rate = yardstick.actions_per_second()
            print(f"  OpenSpiel's gin rummy, two random players: {rate:8.0f} actions per CPU "
                  f"second; this tree {played[THIS].actions_per_second() / rate:.2f}×, the "
                  f"other {played[OTHER].actions_per_second() / rate:.2f}× of it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
