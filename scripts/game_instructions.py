"""Instructions per bot game, counted by valgrind: a figure of the code, not of the machine.

Time on a shared machine drifts by a fifth from one minute to the next, and this one has no
hardware counters for ``perf``. ``valgrind --tool=callgrind`` counts the instructions the
interpreter executes, the same on every run for the same code and seeds. This script counts
them for ``--games`` seeded games (``arena.play_game``, ``--level`` at all four seats) and for
none (the imports alone), and prints the difference per game, with a digest of the games'
results: a change that keeps the digest plays the same games, and its count says what it
saved. About 5 s of valgrind per game of normal players.

    .venv/bin/python scripts/game_instructions.py --games 4
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--play", nargs=2, metavar=("GAMES", "LEVEL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:  # the child that valgrind runs
        print(play(int(args.play[0]), args.play[1]))
        return 0
    base = count(0, args.level)[0]
    total, digest = count(args.games, args.level)
    print(f"{args.games} games of {args.level} players: "
          f"{(total - base) / args.games / 1e6:,.0f} M instructions a game "
          f"(imports alone {base / 1e6:,.0f} M); results digest {digest}")
    return 0


def play(games: int, level: str) -> str:
    sys.path.insert(0, str(REPO))
    from games.bots.arena import play_game

    digest = hashlib.sha256()
    for number in range(games):
        record = play_game(f"instructions-{number}", (level,) * 4)
        digest.update(repr((record.contracts, record.penalties,
                            [deal.turns for deal in record.deals])).encode())
    return digest.hexdigest()[:16]


def count(games: int, level: str) -> tuple[int, str]:
    # A fixed hash seed: the order of sets of strings, and so the work, is the same every run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--play", str(games), level],
        capture_output=True, text=True, env=env, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if refs is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{run.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), run.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
