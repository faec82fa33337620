"""The load generator: many concurrently active games played through the real API, by Locust.

Locust runs headless, as a library, in this one process: each simulated person is a
``FastHttpUser`` (geventhttpclient, one keep-alive connection each) that joins
(``POST /players``), starts a practice game of ``--level`` bots (``POST /games``), then every
``--think`` seconds (uniform) makes a plain legal move from the view's ``legal`` hints (draw
from the stock, discard the first allowed card: bench.api.simple_move). The server plays the
three bots' turns inside the request that follows a discard, as for a real person; a finished
game is replaced by a new one. With ``--listen-every N`` every N-th person also keeps a
websocket on its game open and counts the frames it is pushed. Games are spread over the
``--url`` servers. Loopback only; bounded by ``--games`` and ``--duration``.

Setting up (players and first games, ``--spawn-rate`` persons a second) is not measured, nor
is the ``--warmup`` after the last person has its game. Then, over ``--duration`` seconds, it
reports: actions answered per second (and the rate the persons asked for: a server that falls
behind serves a queue, and its latencies say so), latency percentiles of the action endpoint
(all actions, and each kind of request apart; requests still in flight when the window closes
are timed too, dropping them would drop the slowest), errors by kind, the CPU of the
``--server-pid`` processes and of the PostgreSQL cluster (``--postmaster-pid``) in % of a core
and in ms per action, peak RSS, and PostgreSQL's connections to ``--database``. Last, the
host yardstick (games.bots.yardstick), taken with the servers idle before and after.
bench/load.py starts the production shape and runs this against it.

The garbage collector is off while it measures: a full collection of a thousand persons' game
views pauses the process for 50-130 ms, and every request in flight would be timed with that
pause in it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import ipaddress
import itertools
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import gevent
from locust import FastHttpUser, task
from locust.env import Environment

from bench.api import API, Listener, Player, simple_move
from bench.stats import ProcessGroup, Window, summary
from games.bots import yardstick

ACTIONS = ("draw", "discard")
REQUEST_TIMEOUT_S = 30.0
SETUP_ATTEMPTS = 5


def recorder(window: Window):
    """A listener of Locust's ``request`` event: every request a person made, timed by
    Locust, goes to the window."""

    def on_request(name: str, response_time: float, exception=None, response=None, **_):
        status = getattr(response, "status_code", 0) or 0
        if exception is None:
            window.record(name, response_time)
        elif status:  # an HTTP error: the server answered
            window.record(name, response_time, ok=False)
            window.error(f"{name}: HTTP {status}")
        else:  # no answer: refused, reset, timed out
            window.error(f"{name}: {type(exception).__name__}")
    return on_request


class LocustPlayer(Player):
    """bench.api's player, its requests sent by a Locust user's client (timed by Locust,
    named by their kind)."""

    def request(self, kind, method, path, body=None, at=None):
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return self.http.request(method, f"{API}{path}", name=kind, json=body, headers=headers)


class Person(FastHttpUser):
    """One person playing one game at a time. The run sets the class attributes."""

    targets: list[str] = []
    level = "normal"
    think = (2.0, 4.0)
    listen_every = 0
    window = Window()
    ready = 0  # persons with their first game
    numbers = itertools.count()
    network_timeout = connection_timeout = REQUEST_TIMEOUT_S
    concurrency = 1

    def __init__(self, environment):
        self.number = next(Person.numbers)
        self.host = self.targets[self.number % len(self.targets)]
        super().__init__(environment)
        self.player = LocustPlayer(http=self.client)
        self.game: dict | None = None
        self.listener: Listener | None = None

    def wait_time(self) -> float:
        return random.uniform(*self.think)

    def on_start(self) -> None:
        for _ in range(SETUP_ATTEMPTS):
            with contextlib.suppress(RuntimeError):
                self.player.join()
                break
            gevent.sleep(1)
        else:
            raise RuntimeError("could not create a player (is THROTTLE_IDENTITIES off?)")
        self.new_game()
        Person.ready += 1
        gevent.sleep(random.uniform(0, self.think[1]))  # spread the first moves

    def new_game(self) -> None:
        for _ in range(SETUP_ATTEMPTS):
            with contextlib.suppress(RuntimeError):
                self.game = self.player.new_game(level=self.level)
                break
            gevent.sleep(1)
        else:
            raise RuntimeError("could not start a game (is THROTTLE_GAMES off?)")
        if self.listen_every and self.number % self.listen_every == 0:
            self.listen()

    def listen(self) -> None:
        if self.listener is not None:
            self.listener.close()
        url = self.host.replace("http", "ws", 1) + f"/ws/games/{self.game['id']}/"
        try:
            self.listener = Listener(url, self.player.token, on_frame=self.count_frame)
        except Exception as refused:  # noqa: BLE001 - counted, the game goes on
            self.listener = None
            self.window.error(f"websocket: {type(refused).__name__}")

    def count_frame(self, frame: dict) -> None:
        if self.window.measuring:
            self.window.frames += 1

    @task
    def act(self) -> None:
        response = self.player.act(self.game, simple_move(self.game))
        body = _json(response)
        if response.status_code == 200:
            self.game = body["game"]
            if self.game["status"] != "active":
                if self.window.measuring:
                    self.window.games_finished += 1
                self.new_game()
        elif response.status_code == 409 and "game" in body:
            self.game = body["game"]
        else:  # resynchronise from the source of truth
            response = self.player.game(self.game["id"])
            if response.status_code == 200:
                self.game = _json(response)

    def on_stop(self) -> None:
        if self.listener is not None:
            self.listener.close()


def _json(response) -> dict:
    try:
        return response.json() or {}
    except ValueError:
        return {}


class Sampler:
    """Peak RSS of process groups and PostgreSQL's connections, once a second; their CPU over
    the window."""

    def __init__(self, groups: dict[str, ProcessGroup], database: str | None, port: int):
        self.groups, self.database, self.port = groups, database, port
        self.peak_rss = {name: 0.0 for name in groups}
        self.connections: list[int] = []
        self.cpu_s: dict[str, float] = {}

    def run(self, until: float) -> None:
        started = {name: group.cpu() for name, group in self.groups.items()}
        client_started = time.process_time()
        connection = self._connect()
        while time.monotonic() < until:
            for name, group in self.groups.items():
                self.peak_rss[name] = max(self.peak_rss[name], group.rss())
            if connection is not None:
                with contextlib.suppress(Exception):
                    row = connection.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s",
                        (self.database,)).fetchone()
                    self.connections.append(row[0])
            gevent.sleep(max(0.0, min(1.0, until - time.monotonic())))
        self.cpu_s = {name: group.cpu() - started[name] for name, group in self.groups.items()}
        self.cpu_s["load generator"] = time.process_time() - client_started
        if connection is not None:
            connection.close()

    def _connect(self):
        if not self.database:
            return None
        import psycopg

        with contextlib.suppress(Exception):
            return psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres "
                                   "dbname=postgres", autocommit=True)
        return None


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


def loopback(url: str) -> str:
    host = urlsplit(url).hostname or ""
    if host != "localhost":
        try:
            if not ipaddress.ip_address(host).is_loopback:
                raise ValueError
        except ValueError:
            raise SystemExit(f"{url}: the load test only targets this machine "
                             "(127.0.0.0/8, localhost, [::1])") from None
    return url.rstrip("/")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", action="append", required=True,
                        help="a server's base URL (loopback only); repeat for several "
                             "processes: games are spread over them")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="unmeasured seconds")
    parser.add_argument("--think", default="2-4",
                        help="seconds between one person's actions, uniform MIN-MAX")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--spawn-rate", type=float, default=100,
                        help="persons who join and start a game per second while setting up")
    parser.add_argument("--listen-every", type=int, default=0,
                        help="every N-th person keeps a websocket on its game (0: none)")
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
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 5000 or not 1 <= args.duration <= 600:
        parser.error("--games 1..5000 and --duration 1..600 s: a bounded run")
    low, _, high = args.think.partition("-")
    args.think = (float(low), float(high or low))
    args.url = [loopback(url) for url in args.url]
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    random.seed(args.seed)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2 * args.games + 100:  # a connection each, and a websocket for some
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2 * args.games + 1000), hard))
    figures = run(args)
    print(report(figures), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    if args.fail_on_errors and figures["errors"]:
        print(f"{figures['errors']} request(s) failed", file=sys.stderr)
        return 1
    return 0


def run(args: argparse.Namespace) -> dict:
    window = Window()
    Person.targets, Person.level, Person.think = args.url, args.level, args.think
    Person.listen_every, Person.window = args.listen_every, window
    host_before_ms = yardstick.game_ms()  # while the servers are idle

    # stop_timeout: at the window's end a person finishes the request in flight (timed).
    env = Environment(user_classes=[Person], stop_timeout=REQUEST_TIMEOUT_S)
    env.events.request.add_listener(recorder(window))
    env.events.user_error.add_listener(
        lambda exception, **_: window.error(f"person: {type(exception).__name__}"))
    runner = env.create_local_runner()
    setup_started = time.monotonic()
    runner.start(args.games, spawn_rate=args.spawn_rate)
    deadline = setup_started + 60 + args.games / args.spawn_rate * 4
    while Person.ready < args.games and time.monotonic() < deadline:
        gevent.sleep(0.2)
    setup_s = time.monotonic() - setup_started
    print(f"set up {Person.ready} of {args.games} players and games in {setup_s:.1f}s",
          flush=True)
    if Person.ready < args.games:
        runner.quit()
        raise SystemExit("the players and games could not all be set up")

    groups = {"uvicorn": ProcessGroup(args.server_pid)}
    if args.postmaster_pid:
        groups["postgresql"] = ProcessGroup([args.postmaster_pid], tree=True)
    sampler = Sampler(groups, args.database, args.database_port)
    load_before = os.getloadavg()
    with collector_paused():
        gevent.sleep(args.warmup)
        until = time.monotonic() + args.duration
        window.begin(until)
        sampler.run(until)
        runner.stop()  # waits for the requests in flight
        window.measuring = False
    runner.quit()
    load_after = os.getloadavg()
    host_after_ms = yardstick.game_ms()
    return figures(args, window, sampler, setup_s, load_before, load_after,
                   [host_before_ms, host_after_ms])


def figures(args, window: Window, sampler: Sampler, setup_s: float, load_before, load_after,
            host_ms: list[float]) -> dict:
    window_s = window.window_end - window.window_start
    mean_think = statistics.mean(args.think)
    actions = [ms for kind in ACTIONS for ms in window.latencies_ms.get(kind, [])]
    answered = sum(window.answered_in_window[k] for k in ACTIONS)
    latency = {}
    for kind, values in [("action", actions), *sorted(window.latencies_ms.items())]:
        if values:
            latency[kind] = {k: round(v, 1) for k, v in summary(values).items()}
    return {
        "games": args.games, "level": args.level, "think_s": list(args.think),
        "duration_s": round(window_s, 1), "servers": len(args.url),
        "requests": window.requests, "requests_per_s": round(window.rate(), 1),
        "actions": len(actions), "actions_per_s": round(window.rate(*ACTIONS), 1),
        # what the persons would ask of a server that answered at once
        "actions_asked_per_s": round(args.games / mean_think, 1) if mean_think else None,
        "games_finished": window.games_finished,
        "errors": sum(window.errors.values()), "errors_by_kind": dict(window.errors),
        "websocket_frames": window.frames if args.listen_every else None,
        "latency_ms": latency,
        "cpu_percent": {k: round(100 * v / window_s, 1) for k, v in sampler.cpu_s.items()},
        "cpu_ms_per_action": {k: round(1000 * v / answered, 2) if answered else None
                              for k, v in sampler.cpu_s.items()},
        "peak_rss_mib": {k: round(v, 1) for k, v in sampler.peak_rss.items()},
        "postgres_connections": ({"max": max(sampler.connections),
                                  "mean": round(statistics.mean(sampler.connections), 1)}
                                 if sampler.connections else None),
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "setup_s": round(setup_s, 1),
        "host_yardstick_ms": [round(ms) for ms in host_ms],
    }


def report(f: dict) -> str:
    asked = f["actions_asked_per_s"]
    lines = [
        f"\n== {f['games']} games ({f['level']} bots), one action every "
        f"{f['think_s'][0]:g}-{f['think_s'][1]:g} s each, {f['servers']} server(s), "
        f"{f['duration_s']} s measured",
        f"requests/s {f['requests_per_s']}  actions/s {f['actions_per_s']}"
        + (f" of {asked} asked" if asked else "")
        + f"  ({f['requests']} requests, {f['games_finished']} games finished)"]
    for kind, lat in f["latency_ms"].items():
        lines.append(f"  {kind:8} n={lat['n']:6.0f}  p50 {lat['p50']:7.1f} ms  "
                     f"p95 {lat['p95']:7.1f} ms  p99 {lat['p99']:7.1f} ms  "
                     f"max {lat['max']:7.1f} ms")
    lines.append(f"errors {f['errors']} {f['errors_by_kind'] or ''}")
    if f["websocket_frames"] is not None:
        lines.append(f"websocket frames pushed {f['websocket_frames']}")
    lines.append("CPU % of one core: " + ", ".join(
        f"{k} {v}" for k, v in f["cpu_percent"].items()))
    lines.append("CPU ms per action: " + ", ".join(
        f"{k} {v}" for k, v in f["cpu_ms_per_action"].items()))
    lines.append("peak RSS MiB: " + ", ".join(f"{k} {v}" for k, v in f["peak_rss_mib"].items()))
    if f["postgres_connections"]:
        lines.append(f"PostgreSQL connections to the database: max "
                     f"{f['postgres_connections']['max']}, mean "
                     f"{f['postgres_connections']['mean']}")
    lines.append(f"load average before {f['load_average_before']} "
                 f"after {f['load_average_after']}")
    lines.append(yardstick.describe(*f["host_yardstick_ms"]))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
