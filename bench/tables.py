"""Tables for friends under load: N tables of four simulated people on the production shape.

Starts the shape (bench/prodshape.py: a private PostgreSQL cluster, ``--asgi`` uvicorn
processes, a Celery worker and beat, Redis on loopback), then for each ``--tables`` count:
four people a table join (``POST /players``), one opens the table (``POST /tables``), three
sit down by its code, the host starts the game; every person keeps the game's websocket open
on a server of its own (a table's seats are spread over the processes, so most frames cross
them through Redis). On its turn a person waits ``--think`` seconds (uniform), reads nothing
but its own view, and makes a plain legal move (lay down or lay off when the view's ``legal``
offers it, else draw from the stock and discard the first allowed card). After each frame
burst the others re-read their view, as the browser does (docs/api.md, "Websockets").

Measured over ``--duration`` seconds after ``--warmup``: the time from a move's request
leaving the mover to the first frame of that move (``v`` = the version it was sent at + 1) at
every other seat of its table (p50, p99), actions answered per second, the action endpoint's
latency, errors, and the CPU of the servers, the worker and PostgreSQL.

    .venv/bin/python -m bench.tables --tables 100 250 --duration 60 --warmup 10

Loopback only, bounded in count (``--tables`` <= 500) and time (``--duration`` <= 600 s).
The generator is one asyncio process; its own CPU is printed so that a saturated generator
is seen, not mistaken for a slow server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import sys
import time

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.api import API, plain_move
from bench.prodshape import PrivatePostgres, Shape, add_run_options, say
from bench.stats import ProcessGroup, summary

SEATS = 4
REQUEST_TIMEOUT_S = 30.0


class Run:
    """What every person of one run records."""

    def __init__(self, duration_s: float, warmup_s: float):
        self.measure_from = self.measure_until = float("inf")
        self.duration_s, self.warmup_s = duration_s, warmup_s
        self.sent: dict[tuple[str, int], tuple[float, int]] = {}  # (game, v) -> (t0, seat)
        self.frame_ms: list[float] = []
        self.action_ms: list[float] = []
        self.actions = 0
        self.errors: dict[str, int] = {}

    def measuring(self, at: float) -> bool:
        return self.measure_from <= at < self.measure_until

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Person:
    """One person at one table: an identity, a socket on the game, a turn loop."""

    def __init__(self, run: Run, http: httpx.AsyncClient, base: str, think: tuple):
        self.run, self.http, self.base, self.think = run, http, base, think
        self.token = ""
        self.game: dict = {}
        self.news = asyncio.Event()

    async def call(self, method: str, path: str, body: dict | None = None) -> httpx.Response:
        return await self.http.request(method, f"{self.base}{API}{path}", json=body,
                                       headers={"Authorization": f"Bearer {self.token}"})

    async def join(self) -> None:
        response = await self.http.post(f"{self.base}{API}/players")
        if response.status_code != 201:
            raise RuntimeError(f"POST /players: {response.status_code}")
        self.token = response.json()["token"]

    async def read(self) -> None:
        response = await self.call("GET", f"/games/{self.game['id']}")
        if response.status_code == 200:
            self.game = response.json()
        else:
            self.run.error(f"read: HTTP {response.status_code}")

    async def listen(self) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/games/{self.game['id']}/"
        async with connect(url, additional_headers={"Authorization": f"Bearer {self.token}"},
                           open_timeout=REQUEST_TIMEOUT_S) as socket:
            with contextlib.suppress(ConnectionClosed):
                async for message in socket:
                    arrived = time.monotonic()
                    frame = json.loads(message)
                    sent = self.run.sent.get((self.game["id"], frame.get("v", 0)))
                    if sent and sent[1] != self.game["you"] and self.run.measuring(sent[0]):
                        self.run.frame_ms.append(1000 * (arrived - sent[0]))
                    self.news.set()

    async def play(self, stop_at: float) -> None:
        while time.monotonic() < stop_at and self.game["status"] == "active":
            if self.game["turn"] != self.game["you"]:
                # a burst of frames, then one read (the browser's way)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.news.wait(), timeout=5)
                self.news.clear()
                await asyncio.sleep(0.05)
                await self.read()
                continue
            await asyncio.sleep(random.uniform(*self.think))
            await self.move(plain_move(self.game))

    async def move(self, action: dict) -> None:
        version = self.game["version"]
        started = time.monotonic()
        self.run.sent[(self.game["id"], version + 1)] = (started, self.game["you"])
        response = await self.call("POST", f"/games/{self.game['id']}/actions",
                                   {"version": version, "action": action})
        if self.run.measuring(started):
            self.run.action_ms.append(1000 * (time.monotonic() - started))
            self.run.actions += 1
        if response.status_code == 200:
            self.game = response.json()["game"]
        else:
            self.run.error(f"{action['type']}: HTTP {response.status_code}")
            await self.read()


async def seat_table(number: int, people: list[Person], turn_seconds: int | None) -> None:
    """Four people at one table, its game started; each person holds its view."""
    for person in people:
        await person.join()
    host = people[0]
    body = {"name": f"Bench table {number}", "level": "normal"}
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    response = await host.call("POST", "/tables", body)
    if response.status_code != 201:
        raise RuntimeError(f"POST /tables: {response.status_code} {response.text[:200]}")
    table = response.json()
    for person in people[1:]:
        response = await person.call("POST", f"/tables/join/{table['code']}")
        if response.status_code not in (200, 201):
            raise RuntimeError(f"join: {response.status_code} {response.text[:200]}")
    response = await host.call("POST", f"/tables/{table['id']}/start")
    if response.status_code != 201:
        raise RuntimeError(f"start: {response.status_code} {response.text[:200]}")
    game_id = response.json()["game"]["id"]
    for person in people:
        person.game = {"id": game_id}
        await person.read()


async def run_tables(args, urls: list[str], tables: int) -> dict:
    run = Run(args.duration, args.warmup)
    limits = httpx.Limits(max_connections=SEATS * tables + 50,
                          max_keepalive_connections=SEATS * tables + 50)
    async with httpx.AsyncClient(timeout=REQUEST_TIMEOUT_S, limits=limits) as http:
        people = [[Person(run, http, urls[(t + s) % len(urls)], args.think)
                   for s in range(SEATS)] for t in range(tables)]
        started = time.monotonic()
        batch = 20  # tables set up at once: setting up is not measured
        for first in range(0, tables, batch):
            await asyncio.gather(*(seat_table(t, people[t], args.turn_seconds)
                                   for t in range(first, min(tables, first + batch))))
        say(f"{tables} tables seated in {time.monotonic() - started:.1f}s")
        everyone = [person for table in people for person in table]
        listeners = [asyncio.create_task(person.listen()) for person in everyone]
        now = time.monotonic()
        run.measure_from = now + args.warmup
        run.measure_until = run.measure_from + args.duration
        cpu_before = {name: group.cpu() for name, group in args.groups.items()}
        own_before = time.process_time()
        await asyncio.gather(*(person.play(run.measure_until) for person in everyone))
        cpu = {name: group.cpu() - cpu_before[name] for name, group in args.groups.items()}
        cpu["load generator"] = time.process_time() - own_before
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    window_s = args.warmup + args.duration
    return {
        "tables": tables, "people": SEATS * tables, "think_s": list(args.think),
        "turn_seconds": args.turn_seconds, "duration_s": args.duration,
        "actions": run.actions, "actions_per_s": round(run.actions / args.duration, 1),
        "action_ms": {k: round(v, 1) for k, v in summary(run.action_ms).items()},
        "frame_ms": {k: round(v, 1) for k, v in summary(run.frame_ms).items()},
        "errors": run.errors,
        "cpu_percent": {k: round(100 * v / window_s, 1) for k, v in cpu.items()},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def report(f: dict) -> str:
    frame, action = f["frame_ms"], f["action_ms"]
    return "\n".join([
        f"\n== {f['tables']} tables, {f['people']} people, a move every "
        f"{f['think_s'][0]:g}-{f['think_s'][1]:g} s on one's turn, timer "
        f"{f['turn_seconds'] or 'off'}, {f['duration_s']:g} s measured",
        f"actions/s {f['actions_per_s']} ({f['actions']} actions)",
        f"  move to frame at every other seat  n={frame['n']:.0f}  p50 {frame['p50']} ms  "
        f"p99 {frame['p99']} ms  max {frame['max']} ms",
        f"  action answered                    n={action['n']:.0f}  p50 {action['p50']} ms  "
        f"p99 {action['p99']} ms  max {action['max']} ms",
        f"errors {sum(f['errors'].values())} {f['errors'] or ''}",
        "CPU % of one core over warm-up and window: "
        + ", ".join(f"{k} {v}" for k, v in f["cpu_percent"].items()),
        f"load average {f['load_average']}",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 250])
    add_run_options(parser)
    parser.add_argument("--turn-seconds", type=int, default=60,
                        help="the tables' turn timer (0: none sent, for a server without one)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not all(1 <= n <= 500 for n in args.tables) or not 1 <= args.duration <= 600:
        parser.error("--tables 1..500 and --duration 1..600 s: a bounded run")
    low, _, high = args.think.partition("-")
    args.think = (float(low), float(high or low))
    args.turn_seconds = args.turn_seconds or None
    people = SEATS * max(args.tables)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * people + 1000)), hard))

    # One address stands for every person: identities, tables, codes and sockets unlimited.
    env = {"THROTTLE_IDENTITIES": "off", "THROTTLE_GAMES": "off", "THROTTLE_TABLES": "off",
           "THROTTLE_TABLE_CODES": "off", "THROTTLE_TABLE_CODES_DAY": "off",
           "WEBSOCKETS_PER_ADDRESS": str(people + 1)}
    postgres = PrivatePostgres(fsync=True)
    postgres.create()
    postgres.start()
    figures = []
    try:
        with Shape("tables", asgi=args.asgi, worker=True, beat="real", redis_db=8, env=env,
                   collectstatic=False, postgres=postgres) as shape:
            args.groups = {
                "uvicorn": ProcessGroup([p.pid for p in shape.asgi]),
                "worker and beat": ProcessGroup([p.pid for p in shape.others], tree=True),
                "postgresql": ProcessGroup([postgres.postmaster_pid()], tree=True)}
            urls = [shape.url(i) for i in range(args.asgi)]
            for tables in args.tables:
                result = asyncio.run(run_tables(args, urls, tables))
                print(report(result), flush=True)
                figures.append(result)
            shape.drop()
    finally:
        postgres.remove()
    if args.json:
        with open(args.json, "w") as out:
            json.dump(figures, out, indent=2)
    return 1 if any(f["errors"] for f in figures) else 0


if __name__ == "__main__":
    sys.exit(main())
