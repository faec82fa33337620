"""The N-game load run: the production shape on loopback, played by Locust (bench/loadgen.py).

Starts the shape (bench/prodshape.py: a dedicated database on a private PostgreSQL cluster,
``--asgi`` uvicorn processes, by default three: one more than this machine's two cores,
docs/production.md; a Celery worker and Redis on loopback) with the identity and game-start
limits off (one address creates every player) and the per-player action limit on, then runs
the load generator for each ``--games`` count and prints its figures: actions/s, latency
p50/p95/p99, errors, CPU per action of uvicorn and PostgreSQL, and the host yardstick.
``--no-pool`` runs the same without psycopg's pool (a connection per request).

    .venv/bin/python -m bench.load --games 1000 --duration 30 --warmup 5

Loopback only, bounded in count (``--games``) and time (``--duration``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from bench.prodshape import PYTHON, REPO, PrivatePostgres, Shape, add_run_options, say


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000])
    add_run_options(parser)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--listen-every", type=int, default=0,
                        help="every N-th game also has a websocket listener (0: none)")
    parser.add_argument("--no-pool", action="store_true")
    parser.add_argument("--fail-on-errors", action="store_true",
                        help="exit non-zero if any request failed (CI)")
    parser.add_argument("--json-prefix", help="write each run's figures to PREFIX-<games>.json")
    parser.add_argument("--no-fsync", action="store_true",
                        help="PostgreSQL without fsync: shows how much of the latency is the "
                             "disk's (never in production)")
    parser.add_argument("--nice", type=int, default=0,
                        help="renice the servers, PostgreSQL and the load generator (e.g. -10) "
                             "so that other work on a shared machine skews the figures less")
    args = parser.parse_args()

    # One address stands for every person: their new identities, games and sockets unlimited.
    env = {"THROTTLE_IDENTITIES": "off", "THROTTLE_GAMES": "off",
           "WEBSOCKETS_PER_ADDRESS": str(max(args.games) + 1)}
    if args.no_pool:
        env["DATABASE_POOL"] = "false"
    label = "load_nopool" if args.no_pool else "load"
    # A private PostgreSQL cluster (fsync on, max_connections 100, as the machine's): a run
    # without the pool may use up its connections, and must not use up the shared ones.
    postgres = PrivatePostgres(fsync=not args.no_fsync)
    postgres.create()
    postgres.start()
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, postgres.postmaster_pid(), args.nice)
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # this script, the load generator
    try:
        return run(args, env, label, postgres)
    finally:
        postgres.remove()


def run(args, env: dict, label: str, postgres: PrivatePostgres) -> int:
    code = 0
    with Shape(label, asgi=args.asgi, worker=True, beat=None, redis_db=7, env=env,
               collectstatic=False, postgres=postgres) as shape:
        say(f"pool {'off' if args.no_pool else 'on'}; uvicorn pids "
            f"{[p.pid for p in shape.asgi]}" + (f"; nice {args.nice}" if args.nice else ""))
        if args.nice:
            for proc in shape.asgi + shape.others:
                os.setpriority(os.PRIO_PROCESS, proc.pid, args.nice)
        for games in args.games:
            argv = [PYTHON, "-m", "bench.loadgen", "--games", str(games),
                    "--duration", str(args.duration), "--warmup", str(args.warmup),
                    "--think", args.think, "--level", args.level,
                    "--listen-every", str(args.listen_every),
                    "--database", shape.database, "--database-port", str(shape.pg_port),
                    "--postmaster-pid", str(postgres.postmaster_pid())]
            for i in range(args.asgi):
                argv += ["--url", shape.url(i)]
            for proc in shape.asgi:
                argv += ["--server-pid", str(proc.pid)]
            if args.fail_on_errors:
                argv.append("--fail-on-errors")
            if args.json_prefix:
                argv += ["--json", f"{args.json_prefix}-{games}.json"]
            say(f"load generator: {games} games")
            result = subprocess.run(argv, cwd=REPO, check=False)
            code = code or result.returncode
            dead = [p.name for p in shape.asgi if not p.alive()]
            if dead:
                say(f"servers died: {dead}")
                code = 1
    shape.drop()
    return code


if __name__ == "__main__":
    sys.exit(main())
