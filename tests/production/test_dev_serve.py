"""``./dev serve`` as it runs, a real uvicorn with its Celery worker and beat on a real
database file: 50 identical racing actions give one 200 and 49 409s, ten rounds in a row, a
forged ``X-Forwarded-For`` from loopback does not move the client's address, a websocket
frame over 4 KiB is refused, and the tasks run in the worker, not in a request: a turn timer
fires with nobody reading the game (its frames reach the sockets), and the move that ends a
game answers at once while its analysis arrives afterwards.

On the SQLite run the server gets a database file of its own, configured exactly like the
default ``db.sqlite3`` (ladder.settings.SQLITE_OPTIONS: the test database pytest-django makes
is in memory, and would prove nothing about the file). On the PostgreSQL run it gets a
scratch database next to the test database, dropped afterwards.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import redis
from django.conf import settings

from bench.api import Listener, Player, plain_move

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
API = "/api/v1"
RACERS, ROUNDS = 50, 10
IDENTITIES_PER_DAY = 6  # the tests before the forged one take four


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server_database():
    """A DATABASE_URL of the run's kind that the server may own."""
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        with tempfile.TemporaryDirectory(prefix="ladder-race-") as folder:
            yield f"sqlite:///{folder}/db.sqlite3"
        return
    import psycopg

    parts = urlsplit(os.environ["DATABASE_URL"])
    name = parts.path.lstrip("/") + "_live"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# What ./dev serve printed (uvicorn, the worker and beat at log level info), for a failure
# to show: the path of the running server's log.
LOG: dict[str, Path] = {}
GROUP: dict[str, int] = {}  # the running ./dev serve's process group


def serve_log(tail: int = 4000) -> str:
    """The end of the running ``./dev serve``'s output (read through a handle of its own: the
    server's processes write through theirs)."""
    return LOG["path"].read_bytes().decode(errors="replace")[-tail:] if LOG else ""


@pytest.fixture(scope="module")
def server():
    """``./dev serve`` on a free port, its worker ready: its base URL."""
    port = free_port()
    with (server_database() as url, tempfile.NamedTemporaryFile() as log,
          tempfile.TemporaryDirectory() as quiet, tempfile.TemporaryDirectory() as broker):
        LOG["path"] = Path(log.name)
        env = {**os.environ, "DATABASE_URL": url, "THROTTLE_ACTIONS": "off",
               "CELERY_LOG_LEVEL": "info",
               "THROTTLE_GAMES": "off", "THROTTLE_IDENTITIES": f"{IDENTITIES_PER_DAY}/d",
               "BROKER_FOLDER": broker,
               # The worker at the server's priority: at ./dev serve's nice 10 it got next to
               # no CPU while the suite's other worker ran three browsers (CI: a timer task
               # and an analysis left in its queue, unread for minutes).
               "WORKER_NICE": "0"}
        if "REDIS_URL" in env:  # a Redis database of its own: its worker takes only its tasks
            env["REDIS_URL"] = urlunsplit(urlsplit(env["REDIS_URL"])._replace(path="/7"))
            redis.Redis.from_url(env["REDIS_URL"]).flushdb()  # no counts from an earlier run
        env.pop("TRUSTED_PROXIES", None)
        # --reload-dir: watch an empty folder, so that editing the code mid-run does not
        # restart the server on a half-written change.
        process = subprocess.Popen([str(REPO / "dev"), "serve", "--port", str(port),
                                    "--log-level", "warning", "--reload-dir", quiet],
                                   cwd=REPO, env=env,
                                   stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        GROUP["id"] = process.pid
        try:
            if not wait_healthy(base, process) or not wait_for_worker(process):
                pytest.fail("./dev serve did not come up:\n" + serve_log())
            yield base
        finally:
            LOG.clear()
            GROUP.clear()
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def wait_healthy(base: str, process: subprocess.Popen, timeout_s: float = 120) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}{API}/health", timeout=2).status_code == 200:
                return True
        time.sleep(0.3)
    return False


def wait_for_worker(process: subprocess.Popen, timeout_s: float = 120) -> bool:
    """Until the Celery worker says it is ready (at log level info: "celery@<host> ready.")."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        if " ready." in serve_log(tail=10**7):
            return True
        time.sleep(0.3)
    return False


def next_action(game: dict) -> dict:
    if game["phase"] == "draw":
        return {"type": "draw", "from": "stock"}
    return {"type": "discard", "card": game["legal"]["discard"][0]}


def race(base: str, token: str, game: dict) -> tuple[list[int], dict | None]:
    """RACERS clients send the same action on the same version at once: their statuses, and
    the game as the winner's response left it."""
    body = {"version": game["version"], "action": next_action(game)}
    url = f"{base}{API}/games/{game['id']}/actions"
    barrier = threading.Barrier(RACERS)
    statuses, winner = [], []
    lock = threading.Lock()

    def submit():
        with httpx.Client(headers={"Authorization": f"Bearer {token}"}, timeout=60) as client:
            client.get(f"{base}{API}/health")  # connect before the start line
            barrier.wait()
            response = client.post(url, json=body)
        with lock:
            statuses.append(response.status_code)
            if response.status_code == 200:
                winner.append(response.json()["game"])

    threads = [threading.Thread(target=submit) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses, winner[0] if winner else None


def test_fifty_racing_actions_give_one_200_and_49_409s_ten_rounds_in_a_row(server):
    token = httpx.post(f"{server}{API}/players", headers={"X-Forwarded-For": "192.0.2.1"}
                       ).json()["token"]
    game = httpx.post(f"{server}{API}/games", json={"mode": "practice", "level": "easy"},
                      headers={"Authorization": f"Bearer {token}"}).json()

    rounds = []
    for _ in range(ROUNDS):
        statuses, after = race(server, token, game)
        rounds.append((statuses.count(200), statuses.count(409),
                       sum(status >= 500 for status in statuses)))
        if after is not None:
            game = after
    print(f"\n{settings.DATABASES['default']['ENGINE']}: (200s, 409s, 5xx) per round {rounds}")

    assert rounds == [(1, RACERS - 1, 0)] * ROUNDS
    final = httpx.get(f"{server}{API}/games/{game['id']}",
                      headers={"Authorization": f"Bearer {token}"}).json()
    assert final["version"] == game["version"]


def bearer(base: str) -> Player:
    return Player(base, timeout_s=60).join()


def test_a_turn_timer_fires_in_the_worker_and_every_socket_hears_it(server):
    """Nobody reads the game while the turn runs out: the worker's task, due at the deadline,
    plays it, and both people's sockets (in the server's process) hear it."""
    host, guest = bearer(server), bearer(server)
    table = host.request("setup", "POST", "/tables", {"name": "Clock", "turn_seconds": 30})
    assert table.status_code == 201, table.text
    table = table.json()
    assert guest.request("setup", "POST", f"/tables/join/{table['code']}").status_code == 201
    started = host.request("start", "POST", f"/tables/{table['id']}/start")
    assert started.status_code == 201, started.text
    game = started.json()["game"]
    ws = server.replace("http", "ws", 1)
    listeners = [Listener(f"{ws}/ws/games/{game['id']}/", player.token)
                 for player in (host, guest)]
    try:
        for listener in listeners:
            frames, heard = listener.wait_for(lambda f: f["t"] == "timed_out",
                                              timeout_s=30 + 15)
            assert heard, ([frame["t"] for frame in frames], serve_log())
            assert frames[-1]["data"] == {"seat": game["turn"]}
    finally:
        for listener in listeners:
            listener.close()
    after = host.game(game["id"]).json()
    assert after["version"] > game["version"]


def stop_the_worker() -> None:
    """Kills the server's Celery worker (its main process and its pool's), as a crash would."""
    pids = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            group = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[2])
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            if group == GROUP["id"] and b"celery -A ladder worker" in command:
                pids.append(int(entry.name))
    assert pids, "no worker in ./dev serve's process group"
    for pid in pids:
        os.kill(pid, signal.SIGKILL)


def test_the_move_that_ends_a_game_answers_at_once_and_its_analysis_comes_after(server):
    """The analysis comes from the worker even after it stopped as the game began: ./dev serve
    starts it again (kombu's folder transport can stop it, dev's keep_running)."""
    stop_the_worker()
    player = bearer(server)
    game = player.new_game(level="easy")
    last = 0.0
    while game["status"] != "finished":
        started = time.monotonic()
        response = player.act(game, plain_move(game))
        last = time.monotonic() - started
        assert response.status_code == 200, response.text
        game = response.json()["game"]
    assert last < 5, f"the game-ending move took {last:.1f} s"  # inline, it took 10-19 s
    states = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = player.request("get", "GET", f"/replays/{game['id']}").json()["analysis"]["state"]
        states.append(state)
        if state != "pending":
            break
        time.sleep(0.5)
    assert states[0] == "pending" and states[-1] == "ready", (states, serve_log())
    assert "the worker stopped; starting it again" in serve_log(tail=10**7)


def test_a_forged_forwarded_for_from_loopback_does_not_escape_the_identity_limit(server):
    statuses = [httpx.post(f"{server}{API}/players",
                           headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                for n in range(IDENTITIES_PER_DAY + 1)]

    # Every request counts against loopback (the race above may have used one of its
    # identities already): believing the header would have given four new addresses.
    allowed = statuses.count(201)
    assert allowed <= IDENTITIES_PER_DAY
    assert statuses == [201] * allowed + [429] * (len(statuses) - allowed)


def test_a_websocket_frame_over_four_kib_closes_the_socket(server):
    """Issue 42: 15 MB frames (uvicorn's default allows 16 MiB) grew the process by 121 MB.
    ``./dev serve`` runs uvicorn as production does, with ``--ws-max-size 4096``."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = server.replace("http://", "ws://") + "/ws/leaderboards/daily/"
    with connect(url, max_size=None) as small:
        small.send("x" * 4000)  # under the limit: ignored, the socket stays open
        small.ping().wait(5)
    with connect(url, max_size=None) as large, pytest.raises(ConnectionClosed) as closed:
        large.send("x" * 65_536)
        large.recv(timeout=5)

    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009

