"""Fault tests of the production shape, used by CI; each prints what it checked.

Every scenario runs the shape (bench/prodshape.py: two uvicorn processes, A and B) on its
own throw-away PostgreSQL cluster and Redis server on loopback ports, so stopping them never
disturbs the machine's shared services or anyone's test run.

``asgi-crash``
    Eight games play a stream of actions through A; A is killed with SIGKILL in the middle.
    Every acknowledged (2xx) action must be in the database at its index, each game's log
    must replay to its stored snapshot, and each client resumes through B: B's GET shows the
    database's version, the next action is accepted and B's websocket carries its events.
``redis-restart``
    Redis stops (its data gone, as it keeps nothing) and comes back while a game is played:
    HTTP actions keep being acknowledged throughout (HTTP is the source of truth), and the
    websocket open through the outage stays open (channels-redis's pub/sub layer retries
    while Redis is away) and, once it is subscribed to its group again, receives the later
    events.
``postgres-outage``
    PostgreSQL stops for a few seconds: the API answers 503 ``unavailable`` with
    Retry-After (never a 500, nor a hang past the pool's timeout), the health check says
    503, and once PostgreSQL is back requests succeed again and the game goes on where the
    last acknowledged action left it.

    .venv/bin/python -m bench.faults [asgi-crash|redis-restart|postgres-outage ...]
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
import time

import httpx

from bench.api import Listener, Player, simple_move
from bench.prodshape import PrivatePostgres, PrivateRedis, Shape, check, finish, say, wait_until

SCENARIO_ENV = {
    "THROTTLE_IDENTITIES": "off", "THROTTLE_GAMES": "off", "THROTTLE_ACTIONS": "off",
    "DATABASE_POOL_TIMEOUT": "3",
}
REDIS_DOWN_S = 3.0  # how long the Redis "restart" keeps it away
REJOIN_S = 10.0  # games.web.groups.REJOIN_S: a websocket joins its groups again this often


class Private:
    """The private PostgreSQL and Redis for one scenario, removed afterwards."""

    def __enter__(self):
        self.postgres, self.redis = PrivatePostgres(), PrivateRedis()
        self.postgres.create()
        self.postgres.start()
        self.redis.start()
        say(f"private PostgreSQL on port {self.postgres.port}, Redis on {self.redis.port}")
        return self

    def __exit__(self, *exc):
        self.redis.stop()
        self.postgres.remove()


@contextlib.contextmanager
def scenario_shape(name: str):
    """(private, shape): the production shape, A and B, on this scenario's own PostgreSQL and
    Redis, with the throttles off."""
    with Private() as private, Shape(name, asgi=2, worker=False, redis_db=0,
                                     env=SCENARIO_ENV, collectstatic=False,
                                     postgres=private.postgres, redis=private.redis) as shape:
        yield private, shape


def act_until_heard(player: Player, game: dict, listener: Listener, at: str,
                    until: float) -> tuple[dict, bool]:
    """(the game, whether the listener heard it): plays through ``at`` until the listener hears
    the version an action led to, it closes, or ``time.monotonic()`` passes ``until``."""
    heard = False
    while not heard and not listener.closed.is_set() and time.monotonic() < until:
        response = player.act(game, simple_move(game), at=at)
        if response.status_code == 200:
            game = response.json()["game"]
        _, heard = listener.wait_for(lambda f, v=game["version"]: f["v"] >= v, 1)
    return game, heard


def db_log(shape: Shape, game_id: str) -> tuple[int, dict[int, tuple[int, dict]]]:
    """(the game's version, {index: (seat, action)}) straight from PostgreSQL."""
    version = int(shape.psql(f"SELECT version FROM games_game WHERE public_id = '{game_id}'"))
    rows = shape.psql(
        "SELECT a.index, a.seat, a.action FROM games_gameaction a JOIN games_game g "
        f"ON g.id = a.game_id WHERE g.public_id = '{game_id}' ORDER BY a.index")
    log = {}
    for row in rows.splitlines():
        index, seat, action = row.split("|", 2)
        log[int(index)] = (int(seat), json.loads(action))
    return version, log


def replays_cleanly(shape: Shape, game_ids: list[str]) -> dict[str, bool]:
    code = (
        "import json\n"
        "from games.models import Game\n"
        "from games.reads import check_replay\n"
        f"ids = {game_ids!r}\n"
        "print(json.dumps({g.public_id: check_replay(g) "
        "for g in Game.objects.filter(public_id__in=ids)}))\n")
    return json.loads(shape.django(code).splitlines()[-1])


# --- kill -9 an ASGI process mid-stream ------------------------------------------------------


def asgi_crash() -> None:
    say("== asgi-crash: SIGKILL one uvicorn in the middle of a stream of actions")
    with scenario_shape("faults_crash") as (private, shape):
        a, b = shape.url(0), shape.url(1)
        players = [Player(a).join() for _ in range(8)]
        games = [p.new_game() for p in players]
        acknowledged: list[list[tuple[int, dict]]] = [[] for _ in players]
        latest = list(games)
        failed_requests = [0] * len(players)
        stop = threading.Event()

        def stream(i: int) -> None:
            game = games[i]
            while not stop.is_set() and game["status"] == "active":
                move = simple_move(game)
                try:
                    response = players[i].act(game, move, at=a)
                except httpx.HTTPError:
                    failed_requests[i] += 1
                    return  # the process is gone: this client now resumes through B
                if response.status_code == 200:
                    acknowledged[i].append((game["version"], move))
                    game = latest[i] = response.json()["game"]
                else:
                    failed_requests[i] += 1
                    return

        threads = [threading.Thread(target=stream, args=(i,)) for i in range(len(players))]
        for t in threads:
            t.start()
        time.sleep(2.0)
        before = sum(len(acks) for acks in acknowledged)
        shape.asgi[0].kill9()
        killed_at = sum(len(acks) for acks in acknowledged)
        stop.set()
        for t in threads:
            t.join(15)
        check(not shape.asgi[0].alive() and killed_at > 0,
              "A was killed with SIGKILL mid-stream",
              f"{killed_at} actions acknowledged by then ({before} a moment before), "
              f"{sum(failed_requests)} request(s) cut off")

        lost, misplaced, committed_unacknowledged = [], [], 0
        for i, game in enumerate(games):
            version, log = db_log(shape, game["id"])
            # A request cut off after its COMMIT: in the database, never acknowledged; the
            # client finds it by version when it resumes.
            committed_unacknowledged += version > latest[i]["version"]
            for index, move in acknowledged[i]:
                if index not in log:
                    lost.append((game["id"], index))
                elif log[index] != (0, move):
                    misplaced.append((game["id"], index, log[index]))
        total_acked = sum(len(acks) for acks in acknowledged)
        check(not lost and not misplaced,
              "every acknowledged action is in the database, at its index, as sent",
              f"{total_acked} acknowledged actions checked; lost {lost[:3]}, "
              f"misplaced {misplaced[:3]}; {committed_unacknowledged} game(s) hold an action "
              "committed but never acknowledged")

        replays = replays_cleanly(shape, [g["id"] for g in games])
        check(len(replays) == len(games) and all(replays.values()),
              "every game's action log replays to its stored snapshot",
              f"{sum(replays.values())}/{len(games)} games")

        resumed, pushed, same_version = 0, 0, 0
        for i, player in enumerate(players):
            view = player.game(games[i]['id'], at=b).json()
            version, _ = db_log(shape, games[i]["id"])
            same_version += view["version"] == version
            listener = Listener(f"{shape.ws(1)}/ws/games/{view['id']}/", player.token)
            try:
                time.sleep(0.2)
                response = player.act(view, simple_move(view), at=b)
                if response.status_code == 200:
                    resumed += 1
                    after = response.json()["game"]["version"]
                    _, got = listener.wait_for(lambda f, v=after: f["v"] >= v, 5)
                    pushed += got
            finally:
                listener.close()
        check(same_version == len(players),
              "B's GET shows each game at the database's version",
              f"{same_version}/{len(players)}")
        check(resumed == pushed == len(players),
              "each client resumed through B: its next action accepted, its events pushed "
              "on B's websocket", f"{resumed} accepted, {pushed} pushed")
        shape.restart_asgi(0)
        check(shape.wait_healthy(0), "A restarted and is healthy again")


# --- Redis restart during play ----------------------------------------------------------------


def redis_restart() -> None:
    say("== redis-restart: Redis goes away and comes back (empty) during play")
    with scenario_shape("faults_redis") as (private, shape):
        a, b = shape.url(0), shape.url(1)
        player = Player(a).join()
        game = player.new_game()
        first = Listener(f"{shape.ws(1)}/ws/games/{game['id']}/", player.token)
        time.sleep(0.3)
        response = player.act(game, simple_move(game), at=a)
        game = response.json()["game"]
        _, got = first.wait_for(lambda f: f["v"] >= game["version"], 5)
        check(response.status_code == 200 and got, "before: A acknowledges, B's websocket "
              "receives the events", f"version {game['version']}")

        game, first = redis_blip(shape, private, player, game, first)

        private.redis.stop()
        stopped_at = time.monotonic()
        statuses = []
        for _ in range(4):  # Redis down: play on
            response = player.act(game, simple_move(game), at=a)
            statuses.append(response.status_code)
            if response.status_code == 200:
                game = response.json()["game"]
        check(statuses == [200] * 4,
              "while Redis is down, actions are acknowledged (HTTP is the source of truth)",
              f"statuses {statuses}, version {game['version']}")
        # Down for a few seconds, as a restart is; B's websocket waits it out, joins its
        # group again (the fresh Redis is empty) and hears the actions that follow.
        time.sleep(max(0.0, REDIS_DOWN_S - (time.monotonic() - stopped_at)))
        private.redis.start()
        back_at = time.monotonic()
        view = player.game(game["id"], at=b).json()
        check(view["version"] == game["version"],
              "after Redis is back, GET on B shows every action acknowledged meanwhile",
              f"version {view['version']}")
        view, heard = act_until_heard(player, view, first, at=a,
                                      until=back_at + REJOIN_S + 5)
        check(heard and not first.closed.is_set(),
              "the websocket open through the outage stays open and hears the actions on A "
              "once it has joined its group again",
              f"{'heard' if heard else 'not heard'} {time.monotonic() - back_at:.1f}s after, "
              f"close code {first.close_code}")
        first.close()


def redis_blip(shape: Shape, private: Private, player: Player, game: dict, listener: Listener):
    """Redis restarts at once: B's websocket stays open, but the fresh Redis has forgotten its
    group. It joins again within REJOIN_S, and hears the actions that follow."""
    a = shape.url(0)
    private.redis.stop()
    private.redis.start()
    blipped_at = time.monotonic()
    game, heard = act_until_heard(player, game, listener, at=a,
                                  until=blipped_at + REJOIN_S + 3)
    check(heard and not listener.closed.is_set(), "after a Redis blip, B's websocket stays "
          "open and hears the actions again (it rejoined its group)",
          f"{'heard' if heard else 'not heard'} {time.monotonic() - blipped_at:.1f}s after")
    return game, listener


# --- PostgreSQL briefly unavailable -------------------------------------------------------------


def postgres_outage() -> None:
    say("== postgres-outage: PostgreSQL stops for a few seconds")
    with scenario_shape("faults_pg") as (private, shape):
        a, b = shape.url(0), shape.url(1)
        player = Player(a).join()
        game = player.new_game()
        for _ in range(3):
            game = player.act(game, simple_move(game), at=a).json()["game"]
        acknowledged = game["version"]

        private.postgres.stop()
        outage_started = time.monotonic()
        answers = []
        for base, method in [(a, "act"), (b, "get"), (a, "health"), (b, "act")]:
            started = time.monotonic()
            if method == "act":
                response = player.act(game, simple_move(game), at=base)
            elif method == "get":
                response = player.game(game['id'], at=base)
            else:
                response = httpx.get(f"{base}/api/v1/health", timeout=15)
            took = time.monotonic() - started
            body = response.json() if response.headers.get("content-type", "").startswith(
                "application/json") else {}
            answers.append((method, response.status_code,
                            (body.get("error") or {}).get("code") or body.get("database"),
                            response.headers.get("retry-after"), round(took, 1)))
        api_answers = [x for x in answers if x[0] != "health"]
        check(all(status == 503 and code == "unavailable" and retry and took <= 10
                  for _, status, code, retry, took in api_answers),
              "while PostgreSQL is down the API answers 503 'unavailable' with Retry-After, "
              "within the pool's timeout", f"{answers}")
        check(any(m == "health" and s == 503 for m, s, *_ in answers),
              "the health check says 503")
        private.postgres.start()
        outage_s = time.monotonic() - outage_started

        def recovered() -> bool:
            return all(player.game(game['id'], at=base).status_code == 200
                       for base in (a, b))
        came_back = wait_until(recovered, 30, every_s=0.5)
        check(came_back, "once PostgreSQL is back, both processes serve requests again",
              f"outage {outage_s:.1f}s, recovered "
              f"{time.monotonic() - outage_started - outage_s:.1f}s after restart")
        view = player.game(game['id'], at=b).json()
        response = player.act(view, simple_move(view), at=b)
        check(view["version"] == acknowledged and response.status_code == 200,
              "the game goes on from the last acknowledged action",
              f"version {view['version']} (acknowledged {acknowledged}), next action "
              f"HTTP {response.status_code}")
        errors_500 = sum(log.read_text(errors="replace").count(" 500 ")
                         for log in shape.logs.glob("asgi*.log"))
        check(errors_500 == 0, "no 500 was logged by either process", f"{errors_500}")


SCENARIOS = {"asgi-crash": asgi_crash, "redis-restart": redis_restart,
             "postgres-outage": postgres_outage}


def main(names: list[str]) -> int:
    for name in names or list(SCENARIOS):
        if name not in SCENARIOS:
            raise SystemExit(f"unknown scenario {name!r}: {', '.join(SCENARIOS)}")
        try:
            SCENARIOS[name]()
        except Exception as exc:  # noqa: BLE001 - a broken scenario is a failed check
            check(False, f"{name} ran to its end", f"{type(exc).__name__}: {exc}")
    return finish("faults")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
