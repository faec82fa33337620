"""How long the move that ends a game takes under ``./dev serve``'s shape, now that the
post-game analysis runs in the worker: ``.venv/bin/python -m bench.dev_finish --games 20``.

Starts ``./dev serve`` (uvicorn, a Celery worker and beat, the broker a folder) on a free port
with a database file and a broker folder of its own, plays ``--games`` easy practice games
through the API with one client (bench.api.plain_move), and prints the latency of every
game's last move and of all the other moves (p50, p99, max), then how long each analysis took
to be ready after its game ended. Before the worker ran them, the analysis ran inside the
game-ending request: 10-19 s for a practice game.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.api import Player, plain_move
from bench.prodshape import free_port, wait_until
from bench.stats import ms_line, percentile

REPO = Path(__file__).resolve().parent.parent


def serve(folder: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
           "BROKER_FOLDER": f"{folder}/broker", "THROTTLE_ACTIONS": "off",
           "THROTTLE_GAMES": "off"}
    for name in ("REDIS_URL", "TRUSTED_PROXIES"):
        env.pop(name, None)
    os.makedirs(f"{folder}/quiet")
    return subprocess.Popen([str(REPO / "dev"), "serve", "--port", str(port), "--log-level",
                             "warning", "--reload-dir", f"{folder}/quiet"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/api/v1/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def play(player: Player) -> tuple[str, list[float], float]:
    """One game to its end: its id, the other moves' latencies, the last move's."""
    game = player.new_game(level="easy")
    latencies = []
    while game["status"] != "finished":
        started = time.perf_counter()
        response = player.act(game, plain_move(game))
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise RuntimeError(f"{response.status_code} {response.text[:300]}")
        game = response.json()["game"]
    return game["id"], latencies[:-1], latencies[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ladder-dev-finish-") as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = serve(folder, port)
        try:
            if not wait_until(lambda: healthy(base), timeout_s=120):
                print("./dev serve did not come up", file=sys.stderr)
                return 1
            player = Player(base, timeout_s=120).join()
            others, last, ended = [], [], {}
            for _ in range(args.games):
                game_id, moves, final = play(player)
                others += moves
                last.append(final)
                ended[game_id] = time.monotonic()
            ready = {}
            while len(ready) < len(ended):
                for game_id in set(ended) - set(ready):
                    answer = player.request("get", "GET", f"/replays/{game_id}").json()
                    if answer["analysis"]["state"] != "pending":
                        ready[game_id] = time.monotonic() - ended[game_id]
                time.sleep(0.5)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    print(f"games: {args.games} (easy practice, ./dev serve: uvicorn, worker and beat)")
    print(f"the game-ending move: {ms_line(last)}")
    print(f"every other move:     {ms_line(others)}")
    waits = sorted(ready.values())
    print(f"analysis ready after the game ended: p50 {percentile(waits, 50):.1f} s, "
          f"max {waits[-1]:.1f} s (the worker analyses one game at a time, in turn)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
