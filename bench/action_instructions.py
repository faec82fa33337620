"""Instructions per action in the server process, counted by valgrind: a figure of the code,
not of the machine, and the one to steer by.

CPU time per action (bench/load.py prints it) moves with the host on shared machines, by a
factor of three for the same code. This script counts the instructions instead. It runs the
ASGI application in-process (``ladder.asgi``, production settings: PostgreSQL through the pool,
Redis for the throttles and the channel layer) under ``valgrind --tool=callgrind``, and sends
it requests as uvicorn would, one at a time: ``--games`` players each start a game of normal
bots and play ``--warmup`` actions in turn over those games (draw from the stock, discard the
first card the view allows; a discard runs the bots' turns), then the counted requests:
``--actions`` more actions, or with ``--measure views`` as many reads of a game (``GET
/games/{id}``). Counted twice, without and with the counted requests: the difference divided by
their number is one request's cost in the server process (PostgreSQL's and Redis's own work is
not in it). Every run starts from a copy of one migrated database and draws its secrets (game
seeds, tokens, ids) from a fixed seed, so both runs play the same games: the digest of the last
views says so.

    .venv/bin/python -m bench.action_instructions --actions 200

``--profiles PREFIX`` keeps both runs' callgrind files (``PREFIX.base`` and ``PREFIX.total``):
``callgrind_annotate --inclusive=yes PREFIX.total`` reads one, and a function's cost per
request is the difference of its two figures divided by ``--actions`` (the setup is in
both). The compiled engine's and the bots' functions appear by name, the Python code as the
interpreter's own frames.

Needs valgrind, and PostgreSQL and Redis on 127.0.0.1 (the machine's; a private database
and Redis database 10, dropped and flushed; ``BENCH_DATABASE`` and ``BENCH_REDIS_URL`` name
others). About 6 minutes with the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from bench.api import simple_move
from bench.seeded import fixed_secrets

REPO = Path(__file__).resolve().parent.parent
API = "/api/v1"
POSTGRES = "postgres://postgres@127.0.0.1:5432"
# Two people measuring on one machine give each run its own names (the child inherits them).
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/10")
DATABASE = os.environ.get("BENCH_DATABASE", "ladder_instructions")
TEMPLATE = f"{DATABASE}_template"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=40)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--measure", choices=["actions", "views"], default="actions",
                        help="what the counted requests are: actions, or reads of the game")
    parser.add_argument("--profiles", metavar="PREFIX",
                        help="keep the two runs' callgrind files as PREFIX.base, PREFIX.total")
    parser.add_argument("--play", nargs=3, type=int, metavar=("GAMES", "ACTIONS", "VIEWS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:  # the child that valgrind runs
        with fixed_secrets("action-instructions"):
            print(asyncio.run(play(*args.play)))
        return 0
    views = args.measure == "views"
    migrate_template()
    try:
        profiles = args.profiles
        base, _ = count(args.games, args.warmup, 0, profiles and f"{profiles}.base")
        total, digest = count(args.games, args.warmup + (0 if views else args.actions),
                              args.actions if views else 0, profiles and f"{profiles}.total")
    finally:
        drop(DATABASE)
        drop(TEMPLATE)
    what = "views (GET /games/{id})" if views else "actions"
    print(f"{args.actions} {what} over {args.games} games of normal bots: "
          f"{(total - base) / args.actions / 1e6:.2f} M instructions each in the server "
          f"process (the setup and {args.warmup} actions before: {base / 1e6:,.0f} M); "
          f"digest {digest}")
    return 0


def server_env() -> dict[str, str]:
    return {**os.environ, "DEBUG": "false", "SECRET_KEY": "instructions-" + "k" * 50,
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false",
            "DATABASE_URL": f"{POSTGRES}/{DATABASE}", "REDIS_URL": REDIS_URL,
            "THROTTLE_IDENTITIES": "off", "THROTTLE_GAMES": "off", "LOG_LEVEL": "WARNING",
            # A fixed hash seed: the order of sets of strings, so the work, is the same each run.
            "PYTHONHASHSEED": "0"}


def psql(statement: str) -> None:
    subprocess.run(["psql", f"{POSTGRES}/postgres", "-q", "-c", statement], check=True,
                   env={**os.environ, "PGOPTIONS": "--client-min-messages=warning"})


def drop(database: str) -> None:
    psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")


def migrate_template() -> None:
    drop(DATABASE)
    drop(TEMPLATE)
    psql(f"CREATE DATABASE {TEMPLATE}")
    env = {**server_env(), "DATABASE_URL": f"{POSTGRES}/{TEMPLATE}"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                   cwd=REPO, env=env, check=True)


def count(games: int, actions: int, views: int, profile: str | None = None) -> tuple[int, str]:
    """Instructions of a fresh server process that sets up, plays ``actions`` actions and
    reads ``views`` views (its callgrind file kept as ``profile``, if given)."""
    drop(DATABASE)
    psql(f"CREATE DATABASE {DATABASE} TEMPLATE {TEMPLATE}")
    subprocess.run(["redis-cli", "-u", REDIS_URL, "flushdb"], check=True,
                   capture_output=True)
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile or '/dev/null'}",
         sys.executable,
         "-m", "bench.action_instructions", "--play", str(games), str(actions), str(views)],
        cwd=REPO, env=server_env(), capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"the counted run failed:\n{run.stdout}\n{run.stderr[-3000:]}")
    return int(found.group(1)), run.stdout.strip().splitlines()[-1]


async def play(games: int, actions: int, views: int) -> str:
    """In the child: the server in-process, requests one at a time; the last views' digest."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
    from ladder.asgi import application

    async def call(method: str, path: str, token: str | None = None, body=None) -> dict:
        headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        raw = b"" if body is None else json.dumps(body).encode()
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": f"{API}{path}",
                 "raw_path": f"{API}{path}".encode(), "query_string": b"", "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 40000),
                 "server": ("127.0.0.1", 8000)}
        sent, received = [], []

        async def receive():  # the body, then nothing until the client would disconnect
            if received:
                await asyncio.Future()
            received.append(raw)
            return {"type": "http.request", "body": raw, "more_body": False}

        async def send(message):
            sent.append(message)

        await application(scope, receive, send)
        status = sent[0]["status"]
        answer = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
        if status not in (200, 201):
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer

    async def new_game(token: str) -> dict:
        return await call("POST", "/games", token, {"mode": "practice", "level": "normal"})

    seats = []
    for _ in range(games):
        token = (await call("POST", "/players"))["token"]
        seats.append([token, await new_game(token)])
    for number in range(actions):
        seat = seats[number % games]
        token, game = seat
        if game["phase"] == "finished":
            game = seat[1] = await new_game(token)
        answer = await call("POST", f"/games/{game['id']}/actions", token,
                            {"version": game["version"], "action": simple_move(game)})
        seat[1] = answer["game"]
    for number in range(views):
        token, game = seats[number % games]
        await call("GET", f"/games/{game['id']}", token)
    await asyncio.sleep(0.5)  # the queued group sends go out before the loop closes
    digest = hashlib.sha256(repr([(g["id"], g["version"], g["phase"]) for _, g in seats])
                            .encode())
    return digest.hexdigest()[:16]


if __name__ == "__main__":
    sys.exit(main())
