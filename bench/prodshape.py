"""The production shape on loopback, for the smoke, fault and load scripts.

``Shape`` starts what docs/production.md describes, on this machine only:

- PostgreSQL and Redis (the machine's own; started if they are down), a dedicated database
  (dropped and re-created, then migrated) and a dedicated Redis database number (flushed);
- ``collectstatic`` (WhiteNoise serves the hashed, compressed files with DEBUG=false);
- N uvicorn processes, one per loopback port;
- ``celery -A ladder worker`` and ``celery -A ladder beat`` (beat optionally on a fast
  schedule: bench/fast_beat.py).

Every process runs in its own session and is stopped (TERM, then KILL) when the ``with``
block ends, on SIGINT/SIGTERM/SIGHUP too. Logs go to a temporary folder; ``tail_logs()``
prints their ends when something failed. Loopback only: nothing here talks to any other host.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
HOST = "127.0.0.1"


# --- Output ---------------------------------------------------------------------------------

_started = time.monotonic()
failures: list[str] = []


def say(message: str) -> None:
    print(f"[{time.monotonic() - _started:6.1f}s] {message}", flush=True)


def add_run_options(parser) -> None:
    """The options every load run over the shape shares: the measured window, the players'
    thinking time and how many uvicorn processes serve."""
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--think", default="2-4")
    parser.add_argument("--asgi", type=int, default=3, help="uvicorn processes")


def check(ok: bool, what: str, detail: str = "") -> bool:
    """Print one checked fact: ``ok   what (detail)`` or ``FAIL what (detail)``."""
    suffix = f" ({detail})" if detail else ""
    say(f"{'ok  ' if ok else 'FAIL'} {what}{suffix}")
    if not ok:
        failures.append(what)
    return ok


def finish(name: str) -> int:
    """The closing line, and the exit code."""
    if failures:
        say(f"{name}: {len(failures)} check(s) FAILED: " + "; ".join(failures))
        return 1
    say(f"{name}: all checks passed")
    return 0


# --- Services -------------------------------------------------------------------------------


def pg_up() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", HOST], check=False).returncode == 0


def start_postgres() -> None:
    version = os.listdir("/etc/postgresql")[0]
    subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "start"],
                   check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def redis_up() -> bool:
    result = subprocess.run(["redis-cli", "-h", HOST, "ping"], check=False,
                            capture_output=True, text=True)
    return result.stdout.strip() == "PONG"


def start_redis() -> None:
    subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1",
                    "--port", "6379", "--save", "", "--appendonly", "no",
                    "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log"], check=True,
                   stdout=subprocess.DEVNULL)


def wait_until(predicate, timeout_s: float, every_s: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if predicate():
                return True
        time.sleep(every_s)
    return False


def ensure_services() -> None:
    if not pg_up():
        say("starting PostgreSQL")
        start_postgres()
    if not wait_until(pg_up, 30):
        raise SystemExit("PostgreSQL did not come up")
    if not redis_up():
        say("starting Redis")
        start_redis()
    if not wait_until(redis_up, 30):
        raise SystemExit("Redis did not come up")


def psql(sql: str, database: str = "postgres", port: int = 5432) -> str:
    result = subprocess.run(["psql", "-h", HOST, "-p", str(port), "-U", "postgres",
                             "-d", database, "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", sql],
                            check=True, capture_output=True, text=True)
    return result.stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class PrivatePostgres:
    """A throw-away PostgreSQL cluster of the machine's version on its own loopback port, in a
    temporary folder, for fault tests that stop it: the machine's own cluster (which other
    test runs use) is never touched."""

    def __init__(self, fsync: bool = False):
        self.fsync = fsync  # off for fault tests (the OS never crashes); on for the load test
        version = os.listdir("/etc/postgresql")[0]
        self.bin = Path(f"/usr/lib/postgresql/{version}/bin")
        self.port = free_port()
        self.data = Path(tempfile.mkdtemp(prefix="ladder-pg-"))
        shutil.chown(self.data, "postgres", "postgres")
        self.log = self.data.with_suffix(".log")

    def _as_postgres(self, *argv: str, check: bool = True) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *argv], check=check,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def create(self) -> None:
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.data / "db"), "-U",
                          "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        self.log.touch()
        shutil.chown(self.log, "postgres", "postgres")
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data / "db"), "-l",
                          str(self.log), "-w", "-o",
                          f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 "
                          f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=100",
                          "start")

    def stop(self) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data / "db"), "-w",
                          "-m", "immediate", "stop", check=False)

    def postmaster_pid(self) -> int:
        return int((self.data / "db" / "postmaster.pid").read_text().split()[0])

    def up(self) -> bool:
        return subprocess.run(["pg_isready", "-q", "-h", HOST, "-p", str(self.port)],
                              check=False).returncode == 0

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)
        self.log.unlink(missing_ok=True)


class PrivateRedis:
    """A throw-away Redis on its own loopback port (nothing on disk), for fault tests that
    restart it: the machine's own Redis is never touched."""

    def __init__(self):
        self.port = free_port()

    def start(self) -> None:
        subprocess.run(["redis-server", "--daemonize", "yes", "--bind", HOST, "--port",
                        str(self.port), "--save", "", "--appendonly", "no", "--dir", "/tmp",
                        "--logfile", ""], check=True, stdout=subprocess.DEVNULL)
        if not wait_until(self.up, 10):
            raise SystemExit(f"private Redis on {self.port} did not come up")

    def stop(self) -> None:
        subprocess.run(["redis-cli", "-h", HOST, "-p", str(self.port), "shutdown", "nosave"],
                       check=False, capture_output=True)
        wait_until(lambda: not self.up(), 10)

    def up(self) -> bool:
        result = subprocess.run(["redis-cli", "-h", HOST, "-p", str(self.port), "ping"],
                                check=False, capture_output=True, text=True)
        return result.stdout.strip() == "PONG"


# --- Processes ------------------------------------------------------------------------------


class Proc:
    def __init__(self, name: str, argv: list[str], env: dict, log: Path):
        self.name, self.argv, self.env, self.log = name, argv, env, log
        self.popen: subprocess.Popen | None = None

    def start(self) -> Proc:
        out = open(self.log, "ab")  # noqa: SIM115 - closed with the process
        self.popen = subprocess.Popen(self.argv, cwd=REPO, env=self.env, stdout=out,
                                      stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      start_new_session=True)
        out.close()
        return self

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def kill9(self) -> None:
        """SIGKILL the process and everything it started, no goodbye."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)

    def stop(self, grace_s: float = 5.0) -> None:
        if not self.alive():
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.popen.pid, signal.SIGTERM)
        try:
            self.popen.wait(grace_s)
        except subprocess.TimeoutExpired:
            self.kill9()


def _raise_exit(signum, frame):
    raise SystemExit(128 + signum)


class Shape:
    """The production shape; use as ``with Shape(...) as shape:``."""

    def __init__(self, name: str, *, asgi: int = 2, worker: bool = True,
                 beat: str | None = None, redis_db: int = 5, env: dict | None = None,
                 collectstatic: bool = True, postgres: PrivatePostgres | None = None,
                 redis: PrivateRedis | None = None):
        self.name = name
        self.database = f"ladder_{name}"
        self.pg_port = postgres.port if postgres else 5432
        self.redis_port = redis.port if redis else 6379
        self.redis_url = f"redis://{HOST}:{self.redis_port}/{redis_db}"
        self.redis_db = redis_db
        self.asgi_count = asgi
        self.want_worker = worker
        self.beat_mode = beat  # None, "real" or "fast"
        self.want_collectstatic = collectstatic
        self.logs = Path(tempfile.mkdtemp(prefix=f"ladder-{name}-"))
        self.ports = [free_port() for _ in range(asgi)]
        self.asgi: list[Proc] = []
        self.others: list[Proc] = []
        self.env = {
            **os.environ,
            "DEBUG": "false",
            "SECRET_KEY": "smoke-" + secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback; a proxy adds TLS
            "DATABASE_URL": f"postgres://postgres@{HOST}:{self.pg_port}/{self.database}",
            "REDIS_URL": self.redis_url,
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }

    # URLs

    def url(self, i: int) -> str:
        return f"http://{HOST}:{self.ports[i]}"

    def ws(self, i: int) -> str:
        return f"ws://{HOST}:{self.ports[i]}"

    # Life cycle

    def __enter__(self) -> Shape:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, _raise_exit)
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None or failures:
            self.tail_logs()
        self.stop()

    def manage(self, *args: str) -> None:
        subprocess.run([PYTHON, "manage.py", *args], cwd=REPO, env=self.env, check=True,
                       stdout=subprocess.DEVNULL)

    def django(self, code: str) -> str:
        """Run Python with Django set up on this shape's settings; returns what it printed."""
        result = subprocess.run([PYTHON, "manage.py", "shell", "-v", "0", "-c", code],
                                cwd=REPO, env=self.env, check=True, capture_output=True,
                                text=True)
        return result.stdout.strip()

    def psql(self, sql: str, database: str | None = None) -> str:
        return psql(sql, database or self.database, self.pg_port)

    def start(self) -> None:
        ensure_services()
        self.psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)', "postgres")
        self.psql(f'CREATE DATABASE "{self.database}"', "postgres")
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "-n", str(self.redis_db),
                        "flushdb"], check=True, stdout=subprocess.DEVNULL)
        self.manage("migrate", "--noinput")
        if self.want_collectstatic:
            self.manage("collectstatic", "--noinput")
        say(f"database {self.database} migrated, Redis db {self.redis_db}, logs in {self.logs}")
        for i in range(self.asgi_count):
            self.asgi.append(self.start_asgi(i))
        if self.want_worker:
            self.others.append(Proc("worker", [
                PYTHON, "-m", "celery", "-A", "ladder", "worker", "--loglevel", "WARNING",
                "--concurrency", "1", "--without-gossip", "--without-mingle",
                "-n", f"{self.name}@%h"], self.env, self.logs / "worker.log").start())
        if self.beat_mode:
            program = ([PYTHON, "-m", "bench.fast_beat"] if self.beat_mode == "fast"
                       else [PYTHON, "-m", "celery", "-A", "ladder", "beat"])
            self.others.append(Proc("beat", [
                *program, "--loglevel", "WARNING", "-s", str(self.logs / "beat-schedule")],
                self.env, self.logs / "beat.log").start())
        for i in range(self.asgi_count):
            if not self.wait_healthy(i):
                raise SystemExit(f"uvicorn on port {self.ports[i]} did not become healthy")
        say(f"{self.asgi_count} uvicorn process(es) up on ports {self.ports}"
            + (", worker" if self.want_worker else "") + (", beat" if self.beat_mode else ""))

    def start_asgi(self, i: int) -> Proc:
        argv = [PYTHON, "-m", "uvicorn", "ladder.asgi:application", "--host", HOST,
                "--port", str(self.ports[i]), "--log-level", "warning", "--no-access-log",
                "--timeout-graceful-shutdown", "3",
                # no proxy in front: nobody's X-Forwarded-For is believed
                "--no-proxy-headers",
                # a websocket frame of at most 4 KiB (docs/production.md, "Websockets")
                "--ws-max-size", "4096"]
        return Proc(f"asgi{i}", argv, self.env, self.logs / f"asgi{i}.log").start()

    def restart_asgi(self, i: int) -> None:
        self.asgi[i] = self.start_asgi(i)
        if not self.wait_healthy(i):
            raise SystemExit(f"uvicorn {i} did not come back")

    def wait_healthy(self, i: int, timeout_s: float = 30) -> bool:
        import httpx

        def healthy() -> bool:
            return httpx.get(f"{self.url(i)}/api/v1/health", timeout=2).status_code == 200
        return wait_until(healthy, timeout_s)

    def stop(self) -> None:
        for proc in [*self.asgi, *self.others]:
            proc.stop()

    def tail_logs(self, lines: int = 30) -> None:
        for log in sorted(self.logs.glob("*.log")):
            text = log.read_text(errors="replace").splitlines()
            if text:
                print(f"--- {log.name} (last {lines} lines)", flush=True)
                print("\n".join(text[-lines:]), flush=True)

    def drop(self) -> None:
        """Remove the dedicated database and the logs (after a passing run)."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self.psql(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)', "postgres")
        shutil.rmtree(self.logs, ignore_errors=True)
