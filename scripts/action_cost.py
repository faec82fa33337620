"""What one action costs the server: CPU of a uvicorn process and of PostgreSQL per action.

Starts one uvicorn process (scripts/prodshape.py) on a private PostgreSQL cluster (fsync on)
and the machine's Redis, plays ``--actions`` actions one after another over HTTP, spread over
``--games`` games of normal bots (draw from the stock, discard the first card the hints
allow; a discard runs the bots' turns), and prints the server's CPU per action (user +
system, from /proc), PostgreSQL's (every backend's) and the latency percentiles. One request
at a time, so the figures are the action path's own cost, not a queue's: the number to
watch when changing that path, steadier than a load test's latencies on a shared machine.
Last, the host yardstick (games.management.yardstick) before and after: compare two runs'
figures next to theirs.

    .venv/bin/python scripts/action_cost.py --actions 2000

Loopback only, bounded in count.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from client import Player, simple_move
from prodshape import REPO, PrivatePostgres, Shape, cpu_seconds, postgres_pids, say

sys.path.insert(0, str(REPO))
from games.management import yardstick  # noqa: E402 (the repository is on the path now)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--warmup", type=int, default=300, help="actions before measuring")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    args = parser.parse_args()
    postgres = PrivatePostgres(fsync=True)
    postgres.create()
    postgres.start()
    env = {"THROTTLE_IDENTITIES": "off", "THROTTLE_GAMES": "off"}
    try:
        with Shape("action_cost", asgi=1, worker=False, redis_db=8, env=env,
                   collectstatic=False, postgres=postgres) as shape:
            measure(shape, args)
        shape.drop()
    finally:
        postgres.remove()
    return 0


class Table:
    """Games played in turn, one action each, each by its own player."""

    def __init__(self, base_url: str, games: int, level: str):
        self.base, self.level = base_url, level
        self.seats = []
        for _ in range(games):
            player = Player(base_url)
            self.seats.append([player, player.new_game(base_url, level=level)])
        self.turn = 0

    def act(self) -> float:
        """One action of the next game; its latency in ms."""
        seat = self.seats[self.turn % len(self.seats)]
        self.turn += 1
        player, game = seat
        if game["phase"] == "finished":
            game = seat[1] = player.new_game(self.base, level=self.level)
        started = time.perf_counter()
        response = player.act(self.base, game, simple_move(game))
        took_ms = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            raise RuntimeError(f"action: HTTP {response.status_code} {response.text[:300]}")
        seat[1] = response.json()["game"]
        return took_ms


def measure(shape: Shape, args) -> None:
    base = shape.url(0)
    server = shape.asgi[0].pid
    table = Table(base, args.games, args.level)
    for _ in range(args.warmup):
        table.act()
    host_before_ms = yardstick.game_ms()
    server_before, postgres_before = cpu_seconds(server), postgres_cpu()
    latencies = sorted(table.act() for _ in range(args.actions))
    server_ms = (cpu_seconds(server) - server_before) * 1000 / args.actions
    postgres_ms = (postgres_cpu() - postgres_before) * 1000 / args.actions
    say(f"{args.actions} actions ({args.level} bots), one at a time, one uvicorn process")
    print(f"CPU per action: uvicorn {server_ms:.2f} ms, PostgreSQL {postgres_ms:.2f} ms")
    print(f"latency: p50 {statistics.median(latencies):.2f} ms, "
          f"p99 {latencies[int(len(latencies) * 0.99)]:.2f} ms")
    print(yardstick.describe(host_before_ms, yardstick.game_ms()))


def postgres_cpu() -> float:
    """Every PostgreSQL process's CPU: the pool's backends live through the measurement."""
    total = 0.0
    for pid in postgres_pids():
        try:
            total += cpu_seconds(pid)
        except OSError:  # a process that ended meanwhile
            pass
    return total


if __name__ == "__main__":
    sys.exit(main())
