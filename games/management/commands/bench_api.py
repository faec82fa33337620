"""Benchmark the action endpoint through the real HTTP API, bot turns included.

Plays ``--games`` games at once against a server started separately, each game its own
client loop (draw from the stock, lay the contract down when the hint finds a way, discard
the costliest card), and prints requests/s and latency percentiles of
``POST /api/v1/games/{id}/actions``. A finished game is replaced by a new one, so the number
of active games stays constant. Loopback only, bounded in time (``--seconds``) and requests.

Start the server first, without rate limits (the bench is one address and a few players)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ladder REDIS_URL=redis://127.0.0.1:6379/0 \\
    DEBUG=false SECRET_KEY=bench ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=false \\
    THROTTLE_IDENTITIES=off THROTTLE_GAMES=off THROTTLE_ACTIONS=off \\
    .venv/bin/uvicorn ladder.asgi:application --host 127.0.0.1 --port 8000 --workers 2

    .venv/bin/python manage.py bench_api --games 100 --url http://127.0.0.1:8000

Closed loop: each game sends its next action as soon as the previous answer arrives
(``--think-ms`` adds a pause), so with many games the latency mostly measures the queue.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import statistics
import time
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from games.engine.cards import parse_card, penalty_of

PLAYERS_MAX = 25  # games are spread over at most this many players


def is_loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def costliest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (penalty_of(parse_card(c)), c))


class Bench:
    def __init__(self, client, level: str, deadline: float, think_s: float, max_requests: int):
        self.client = client
        self.level = level
        self.deadline = deadline
        self.think_s = think_s
        self.max_requests = max_requests
        self.latencies_s: list[float] = []
        self.statuses: dict[int, int] = {}
        self.games_finished = 0
        self.games_started = 0
        self.requests = 0

    def running(self) -> bool:
        return time.monotonic() < self.deadline and self.requests < self.max_requests

    async def new_game(self, headers: dict) -> dict:
        response = await self.client.post("/api/v1/games", json={"level": self.level},
                                          headers=headers)
        response.raise_for_status()
        self.games_started += 1
        return response.json()

    async def next_action(self, game: dict, headers: dict) -> dict:
        legal = game["legal"]
        if game["phase"] == "draw":
            return {"type": "draw", "from": "stock"}
        if legal["lay_down"]:
            hint = await self.client.get(f"/api/v1/games/{game['id']}/hint", headers=headers)
            if hint.status_code == 200 and hint.json()["lay_down"]:
                return {"type": "lay_down", "melds": hint.json()["lay_down"]}
        if legal["lay_off"]:
            return {"type": "lay_off", **legal["lay_off"][0]}
        return {"type": "discard", "card": costliest(legal["discard"])}

    async def play(self, headers: dict) -> None:
        game = await self.new_game(headers)
        while self.running():
            if game["status"] != "active":
                self.games_finished += 1
                game = await self.new_game(headers)
                continue
            action = await self.next_action(game, headers)
            self.requests += 1
            started = time.perf_counter()
            response = await self.client.post(
                f"/api/v1/games/{game['id']}/actions",
                json={"version": game["version"], "action": action}, headers=headers)
            self.latencies_s.append(time.perf_counter() - started)
            self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
            if response.status_code == 200:
                game = response.json()["game"]
            elif response.status_code == 409:
                game = response.json()["game"]
            else:
                game = (await self.client.get(f"/api/v1/games/{game['id']}",
                                              headers=headers)).json()
            if self.think_s:
                await asyncio.sleep(self.think_s)


class Command(BaseCommand):
    help = "Play many games at once through the HTTP API; print the action endpoint's figures."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100, help="active games (1-5000)")
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="loopback only")
        parser.add_argument("--seconds", type=float, default=30.0, help="measuring time")
        parser.add_argument("--max-requests", type=int, default=200_000)
        parser.add_argument("--level", default="easy", choices=["easy", "normal", "hard"])
        parser.add_argument("--think-ms", type=float, default=0.0,
                            help="pause between a game's actions")

    def handle(self, *args, **options):
        url = options["url"].rstrip("/")
        if not is_loopback(url):
            raise CommandError("bench_api sends load only to a loopback address")
        games = options["games"]
        if not 1 <= games <= 5000:
            raise CommandError("--games must be 1-5000")
        logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per request
        figures = asyncio.run(self.run(url, games, options))
        self.stdout.write(figures)

    async def run(self, url: str, games: int, options: dict) -> str:
        import httpx

        limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
        timeout = httpx.Timeout(120.0)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout) as client:
            players = []
            for _ in range(min(PLAYERS_MAX, games)):
                response = await client.post("/api/v1/players")
                if response.status_code != 201:
                    raise CommandError(f"POST /players: {response.status_code} "
                                       f"{response.text[:200]} (rate limits off?)")
                players.append({"Authorization": f"Bearer {response.json()['token']}"})
            # Start every game first (not measured), then measure for --seconds.
            bench = Bench(client, options["level"], float("inf"), options["think_ms"] / 1000,
                          options["max_requests"])
            started = time.monotonic()
            bench.deadline = started + options["seconds"] + 3600  # set properly below
            tasks = [asyncio.create_task(bench.play(players[i % len(players)]))
                     for i in range(games)]
            while bench.games_started < games and any(not t.done() for t in tasks):
                await asyncio.sleep(0.05)
            warm_up_s = time.monotonic() - started
            bench.latencies_s.clear()
            bench.statuses.clear()
            bench.requests = 0
            measure_from = time.monotonic()
            bench.deadline = measure_from + options["seconds"]
            results = await asyncio.gather(*tasks, return_exceptions=True)
            elapsed_s = time.monotonic() - measure_from
        errors = [r for r in results if isinstance(r, BaseException)]
        lat_ms = [s * 1000 for s in bench.latencies_s] or [0.0]
        lines = [
            f"bench_api: {games} active games ({options['level']} bots), {url}, "
            f"{len(players)} players, think {options['think_ms']:.0f} ms",
            f"  set-up: {games} games started in {warm_up_s:.1f} s",
            f"  action requests: {len(bench.latencies_s)} in {elapsed_s:.1f} s = "
            f"{len(bench.latencies_s) / elapsed_s:.1f} requests/s",
            f"  latency ms: p50 {percentile(lat_ms, 0.50):.1f}  p90 "
            f"{percentile(lat_ms, 0.90):.1f}  p99 {percentile(lat_ms, 0.99):.1f}  "
            f"max {max(lat_ms):.1f}  mean {statistics.fmean(lat_ms):.1f}",
            f"  statuses: {dict(sorted(bench.statuses.items()))}; games finished "
            f"{bench.games_finished}; client errors {len(errors)}",
        ]
        if errors:
            lines.append(f"  first error: {errors[0]!r}")
        return "\n".join(lines) + "\n"
