"""``manage.py loadtest``: many concurrently active games against running servers; prints figures.

Each simulated person owns one game and, every few seconds (``--think``, uniform), makes one
plain legal move from the view's hints (draw from the stock, discard the first allowed card);
the server plays the three bots' turns inside the request that follows a discard, exactly as
for a real person. A finished game is replaced by a new one. Loopback only: ``--url`` must
name this machine (127.0.0.0/8, localhost or [::1]); the run is bounded by ``--duration``.

Setup (players and first games, created over HTTP with bounded concurrency) is not measured,
nor is the ``--warmup``. Then it reports: successful answers per second within the
``--duration`` and the actions/s the people asked for (what a server answering at once would
get: a server that falls behind it serves a queue, and its latencies say so), latency
percentiles of the action endpoint (all actions, and draws and discards apart; those still in
flight when the window closes count too), errors by kind, and, when given the servers'
process ids and the database name, their CPU and memory (from /proc, over the window) and the
number of PostgreSQL connections (sampled every second). Last, the host yardstick
(games.management.yardstick), taken with the servers idle before and after: how fast the
host was while the figures were taken. scripts/load.py starts the production shape and runs
this against it.

The HTTP client is a minimal keep-alive HTTP/1.1 client on asyncio streams, one connection
per simulated person: the load generator shares the machine's two cores with the servers,
and a full-featured client would spend several times the CPU per request. Its garbage
collector is off while it measures: a full collection of a thousand people's game views paused
it for 50-130 ms, and every request in flight would have been timed with that pause in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import math
import os
import random
import resource
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import uvloop
from django.core.management.base import BaseCommand, CommandError

from games.management import yardstick

API = "/api/v1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
REQUEST_TIMEOUT_S = 30.0
# uvicorn closes a keep-alive connection after 5 s idle; like httpx's keepalive_expiry, open
# a fresh one rather than write into a connection the server may just have closed.
KEEPALIVE_EXPIRY_S = 4.0


# --- A minimal HTTP/1.1 keep-alive client ---------------------------------------------------


class Connection:
    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.headers = f"Host: {host}:{port}\r\nAccept: application/json\r\n"
        self.last_used = 0.0

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: dict | None = None,
                      token: str | None = None) -> tuple[int, dict | None]:
        if self.writer is not None and time.monotonic() - self.last_used > KEEPALIVE_EXPIRY_S:
            self.close()
        if self.writer is None:
            await self._open()
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\n{self.headers}Content-Length: {len(payload)}\r\n"
        if payload:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        try:
            return await asyncio.wait_for(self._response(), REQUEST_TIMEOUT_S)
        except BaseException:
            self.close()
            raise
        finally:
            self.last_used = time.monotonic()

    async def _response(self) -> tuple[int, dict | None]:
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length, chunked, close = 0, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readline()
                    break
                parts.append(await self.reader.readexactly(size + 2))
            raw = b"".join(p[:-2] for p in parts)
        else:
            raw = await self.reader.readexactly(length) if length else b""
        if close:
            self.close()
        try:
            return status, (orjson.loads(raw) if raw else None)
        except ValueError:
            return status, None


# --- The simulated people -------------------------------------------------------------------


def simple_move(game: dict) -> dict:
    legal = game["legal"]
    if game["phase"] == "draw":
        return {"type": "draw", "from": "stock" if "stock" in legal["draw"] else legal["draw"][0]}
    return {"type": "discard", "card": legal["discard"][0]}


@dataclass
class Stats:
    """Every answer while measuring gives a latency, those in flight when the window closes
    too (dropping them would drop the slowest); the rates count the answers inside it."""

    measuring: bool = False
    window_start: float = 0.0  # time.monotonic(), set when measuring begins
    window_end: float = math.inf
    latencies_ms: dict[str, list[float]] = field(default_factory=dict)
    answered_in_window: Counter = field(default_factory=Counter)  # by kind
    requests: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0

    def begin(self, until: float) -> None:
        self.measuring, self.window_start, self.window_end = True, time.monotonic(), until

    def record(self, kind: str, ms: float, ok: bool = True) -> None:
        if self.measuring:
            self.requests += 1
            self.latencies_ms.setdefault(kind, []).append(ms)
            if ok and time.monotonic() <= self.window_end:
                self.answered_in_window[kind] += 1

    def rate(self, *kinds: str) -> float:
        """Successful answers per second of the window, of these kinds (all: none named)."""
        answered = self.answered_in_window
        count = sum(answered[k] for k in kinds) if kinds else sum(answered.values())
        return count / (self.window_end - self.window_start)

    def error(self, kind: str) -> None:
        if self.measuring:
            self.errors[kind] = self.errors.get(kind, 0) + 1


class Person:
    def __init__(self, host: str, port: int, level: str, stats: Stats):
        self.conn = Connection(host, port)
        self.level, self.stats = level, stats
        self.token: str | None = None
        self.game: dict | None = None

    async def call(self, kind: str, method: str, path: str, body=None) -> tuple[int, dict]:
        started = time.perf_counter()
        try:
            status, data = await self.conn.request(method, API + path, body, self.token)
        except (OSError, TimeoutError, ConnectionError, ValueError,
                asyncio.IncompleteReadError) as exc:
            self.stats.error(f"{kind}: {type(exc).__name__}")
            return 0, {}
        self.stats.record(kind, (time.perf_counter() - started) * 1000, ok=status < 400)
        if status >= 400:
            self.stats.error(f"{kind}: HTTP {status}")
        return status, data or {}

    async def set_up(self) -> None:
        for _ in range(5):
            status, data = await self.call("setup", "POST", "/players")
            if status == 201:
                self.token = data["token"]
                break
            await asyncio.sleep(1)
        else:
            raise CommandError("could not create a player (is THROTTLE_IDENTITIES off?)")
        await self.new_game()

    async def new_game(self) -> None:
        for _ in range(5):
            status, data = await self.call("start", "POST", "/games",
                                           {"mode": "practice", "level": self.level})
            if status == 201:
                self.game = data
                return
            await asyncio.sleep(1)
        raise CommandError("could not start a game (is THROTTLE_GAMES off?)")

    async def play(self, until: float, think: tuple[float, float]) -> None:
        await asyncio.sleep(random.uniform(0, think[1]))  # spread the first moves
        while time.monotonic() < until:
            move = simple_move(self.game)
            status, data = await self.call(move["type"], "POST",
                                           f"/games/{self.game['id']}/actions",
                                           {"version": self.game["version"], "action": move})
            if status == 200:
                self.game = data["game"]
                if self.game["status"] != "active":
                    self.stats.games_finished += 1
                    await self.new_game()
            elif status == 409 and "game" in data:
                self.game = data["game"]
            else:  # resynchronise from the source of truth
                status, data = await self.call("get", "GET", f"/games/{self.game['id']}")
                if status == 200:
                    self.game = data
            await asyncio.sleep(random.uniform(*think))
        self.conn.close()


# --- Process figures ------------------------------------------------------------------------


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, with_children: bool = False) -> float:
    """User + system CPU of a process (plus, optionally, of its children that have exited)."""
    fields = _stat(pid)
    ticks = int(fields[11]) + int(fields[12])
    if with_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / CLOCK_TICKS


def children_of(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int(_stat(int(entry.name))[1]) == parent:
                    found.append(int(entry.name))
    return found


class PostgresCluster:
    """A postmaster and its backends: CPU includes backends that have exited meanwhile."""

    def __init__(self, postmaster: int):
        self.postmaster = postmaster

    def pids(self) -> list[int]:
        return [self.postmaster, *children_of(self.postmaster)]

    def cpu(self) -> float:
        total = cpu_seconds(self.postmaster, with_children=True)
        for pid in children_of(self.postmaster):
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
        return total


def rss_mib(pid: int) -> float:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_BYTES / 2**20


def pids_of(user: str, name: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if (entry / "comm").read_text().strip() == name and \
                    entry.stat().st_uid == _uid(user):
                found.append(int(entry.name))
    return found


def _uid(user: str) -> int:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return -1


class Sampler:
    """CPU seconds and peak RSS of process groups, and PostgreSQL's connection count."""

    def __init__(self, groups: dict[str, list[int]], database: str | None, port: int = 5432):
        self.groups, self.database, self.port = groups, database, port
        self.start_cpu: dict[str, float] = {}
        self.peak_rss: dict[str, float] = {name: 0.0 for name in groups}
        self.connections: list[int] = []
        self.wall_started = 0.0
        self.cpu_in_window: dict[str, float] = {}

    def _cpu(self, pids) -> float:
        if isinstance(pids, PostgresCluster):
            return pids.cpu()
        total = 0.0
        for pid in pids:
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
        return total

    def begin(self) -> None:
        self.wall_started = time.monotonic()
        self.start_cpu = {name: self._cpu(pids) for name, pids in self.groups.items()}
        self.client_cpu = time.process_time()

    async def run(self, until: float) -> None:
        conn = None
        if self.database:
            import psycopg

            with contextlib.suppress(Exception):
                conn = await psycopg.AsyncConnection.connect(
                    f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                    autocommit=True)
        while time.monotonic() < until:
            for name, pids in self.groups.items():
                rss = 0.0
                for pid in (pids.pids() if isinstance(pids, PostgresCluster) else pids):
                    with contextlib.suppress(OSError):
                        rss += rss_mib(pid)
                self.peak_rss[name] = max(self.peak_rss[name], rss)
            if conn is not None:
                with contextlib.suppress(Exception):
                    cur = await conn.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                        (self.database,))
                    self.connections.append((await cur.fetchone())[0])
            await asyncio.sleep(max(0.0, min(1.0, until - time.monotonic())))
        self.cpu_in_window = self.cpu_percent()  # not the idle last think times after it
        if conn is not None:
            await conn.close()

    def cpu_percent(self) -> dict[str, float]:
        wall = time.monotonic() - self.wall_started
        result = {name: 100 * (self._cpu(pids) - self.start_cpu[name]) / wall
                  for name, pids in self.groups.items()}
        result["load generator"] = 100 * (time.process_time() - self.client_cpu) / wall
        return result


@contextlib.contextmanager
def collector_paused():
    """No automatic garbage collection inside the block (see the module's docstring). What
    the run allocates is trees of JSON, freed by reference counting; nothing piles up."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(p / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


def loopback(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if host != "localhost":
        try:
            if not ipaddress.ip_address(host).is_loopback:
                raise ValueError
        except ValueError:
            raise CommandError(f"{url}: the load test only targets this machine "
                               "(127.0.0.0/8, localhost, [::1])") from None
    return host, parts.port or 80


class Command(BaseCommand):
    help = "Load-test running servers with many active games; prints latency and resources."

    def add_arguments(self, parser):
        parser.add_argument("--url", action="append", required=True,
                            help="a server's base URL (loopback only); repeat for several "
                                 "processes: games are spread over them")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
        parser.add_argument("--warmup", type=float, default=10.0, help="unmeasured seconds")
        parser.add_argument("--think", default="2-4",
                            help="seconds between one person's actions, uniform MIN-MAX")
        parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
        parser.add_argument("--setup-concurrency", type=int, default=20)
        parser.add_argument("--server-pid", type=int, action="append", default=[],
                            help="an ASGI server process to measure (repeat)")
        parser.add_argument("--database", help="PostgreSQL database whose connections to count")
        parser.add_argument("--database-port", type=int, default=5432)
        parser.add_argument("--postmaster-pid", type=int,
                            help="the PostgreSQL postmaster whose cluster's CPU to measure")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--json", help="also write the figures to this file")
        parser.add_argument("--fail-on-errors", action="store_true",
                            help="exit non-zero if any request failed (CI)")

    def handle(self, *args, **options):
        if not 1 <= options["games"] <= 5000 or not 1 <= options["duration"] <= 600:
            raise CommandError("--games 1..5000 and --duration 1..600 s: a bounded run")
        targets = [loopback(url) for url in options["url"]]
        low, _, high = options["think"].partition("-")
        think = (float(low), float(high or low))
        random.seed(options["seed"])
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < options["games"] + 100:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, options["games"] + 1000), hard))
        # uvloop and orjson: the load generator shares the servers' two cores, and took 11.5-13.4
        # % of one with asyncio's own loop and the json module (9.5 % after, scripts/load.py).
        figures = uvloop.run(self.run(targets, think, options))
        self.report(figures, options)
        if options["json"]:
            Path(options["json"]).write_text(json.dumps(figures, indent=2))
        if options["fail_on_errors"] and figures["errors"]:
            raise CommandError(f"{figures['errors']} request(s) failed")

    async def run(self, targets, think, options) -> dict:
        stats = Stats()
        host_before_ms = yardstick.game_ms()  # while the servers are idle
        people = [Person(*targets[i % len(targets)], options["level"], stats)
                  for i in range(options["games"])]
        setup_started = time.monotonic()
        gate = asyncio.Semaphore(options["setup_concurrency"])

        async def set_up(person):
            async with gate:
                await person.set_up()
        await asyncio.gather(*(set_up(p) for p in people))
        setup_s = time.monotonic() - setup_started
        self.stdout.write(f"set up {len(people)} players and games in {setup_s:.1f}s")

        groups = {"uvicorn": options["server_pid"]}
        if options["postmaster_pid"]:
            groups["postgresql"] = PostgresCluster(options["postmaster_pid"])
        groups["redis"] = pids_of("root", "redis-server") or pids_of("redis", "redis-server")
        sampler = Sampler(groups, options["database"], options["database_port"])
        started = time.monotonic()
        measure_from = started + options["warmup"]
        until = measure_from + options["duration"]
        load_before = os.getloadavg()

        async def start_measuring():
            await asyncio.sleep(options["warmup"])
            stats.begin(until)
            sampler.begin()
            await sampler.run(until)

        with collector_paused():
            await asyncio.gather(start_measuring(), *(p.play(until, think) for p in people))
        stats.measuring = False
        load_after = os.getloadavg()
        host_after_ms = yardstick.game_ms()
        mean_think = statistics.mean(think)
        actions = sorted(stats.latencies_ms.get("draw", []) + stats.latencies_ms.get("discard", []))
        figures = {
            "games": options["games"], "level": options["level"], "think_s": think,
            "duration_s": round(stats.window_end - stats.window_start, 1),
            "servers": len(targets), "requests": stats.requests,
            "requests_per_s": round(stats.rate(), 1),
            "actions": len(actions), "actions_per_s": round(stats.rate("draw", "discard"), 1),
            # what the people would ask of a server that answered at once
            "actions_asked_per_s": round(options["games"] / mean_think, 1) if mean_think else None,
            "games_finished": stats.games_finished,
            "errors": sum(stats.errors.values()), "errors_by_kind": stats.errors,
            "latency_ms": {},
            "cpu_percent": {k: round(v, 1) for k, v in sampler.cpu_in_window.items()},
            "peak_rss_mib": {k: round(v, 1) for k, v in sampler.peak_rss.items()},
            "postgres_connections": ({"max": max(sampler.connections),
                                      "mean": round(statistics.mean(sampler.connections), 1)}
                                     if sampler.connections else None),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in load_after],
            "setup_s": round(setup_s, 1),
            "host_yardstick_ms": [round(host_before_ms), round(host_after_ms)],
        }
        for kind, values in [("action", actions)] + sorted(stats.latencies_ms.items()):
            values = sorted(values)
            if values:
                figures["latency_ms"][kind] = {
                    "n": len(values), "p50": round(percentile(values, 50), 1),
                    "p95": round(percentile(values, 95), 1),
                    "p99": round(percentile(values, 99), 1), "max": round(values[-1], 1)}
        return figures

    def report(self, f: dict, options) -> None:
        w = self.stdout.write
        w(f"\n== {f['games']} games ({f['level']} bots), one action every "
          f"{f['think_s'][0]:g}-{f['think_s'][1]:g} s each, {f['servers']} server(s), "
          f"{f['duration_s']} s measured")
        asked = f["actions_asked_per_s"]
        w(f"requests/s {f['requests_per_s']}  actions/s {f['actions_per_s']}"
          + (f" of {asked} asked" if asked else "")
          + f"  ({f['requests']} requests, {f['games_finished']} games finished)")
        for kind, lat in f["latency_ms"].items():
            w(f"  {kind:8} n={lat['n']:6}  p50 {lat['p50']:7.1f} ms  p95 {lat['p95']:7.1f} ms  "
              f"p99 {lat['p99']:7.1f} ms  max {lat['max']:7.1f} ms")
        w(f"errors {f['errors']} {f['errors_by_kind'] or ''}")
        w("CPU % of one core: " + ", ".join(f"{k} {v}" for k, v in f["cpu_percent"].items()))
        w("peak RSS MiB: " + ", ".join(f"{k} {v}" for k, v in f["peak_rss_mib"].items()))
        if f["postgres_connections"]:
            w(f"PostgreSQL connections to the database: max {f['postgres_connections']['max']}, "
              f"mean {f['postgres_connections']['mean']}")
        w(f"load average before {f['load_average_before']} after {f['load_average_after']}")
        w(yardstick.describe(*f["host_yardstick_ms"]))
