"""Smoke test of the production shape (docs/production.md), used by CI.

Starts, on loopback: PostgreSQL and Redis (if down), a dedicated database, collectstatic, two
uvicorn processes on two ports (A and B), a Celery worker and Celery beat (on a fast schedule:
bench/fast_beat.py), with DEBUG=false production settings. Then checks, printing each:

- both processes are healthy; pages carry the security headers; WhiteNoise serves the hashed
  static files with a far-future cache;
- beat (through the worker) created today's and tomorrow's daily deals before any request;
- a player's actions go to A and the websocket opened on B receives their events, in version
  order, up to the version A acknowledged; B's GET shows the same game;
- a daily played to its end across both processes appears on today's board: pushed on B's
  board websocket and listed by A's board endpoint;
- two people at one table, one on A and one on B, play a deal together, each hearing the
  other's moves on their own process's socket; then one stops playing, and the worker plays
  their turn when its 30 s timer runs out, with nobody reading the game.

Exit status 0 when every check passed. Everything it started is stopped on exit.
Run: ``.venv/bin/python -m bench.prod_smoke`` (about a minute).
"""

from __future__ import annotations

import re
import sys
import time
from datetime import UTC, datetime, timedelta

import httpx

from bench.api import Listener, Player, plain_move, simple_move
from bench.prodshape import Shape, check, finish, psql, say, wait_until

GAME_DEADLINE_S = 120
MAX_ACTIONS = 4000


def check_pages(shape: Shape) -> None:
    a = shape.url(0)
    page = httpx.get(f"{a}/", timeout=10)
    csp = page.headers.get("content-security-policy", "")
    check(page.status_code == 200 and "frame-ancestors 'none'" in csp
          and page.headers.get("x-content-type-options") == "nosniff",
          "the home page is served with CSP, nosniff and frame-ancestors 'none'",
          f"{page.status_code}, CSP {csp[:60]}...")
    asset = re.search(r'(/static/[^"\']+\.[0-9a-f]{12}\.(?:css|js))', page.text)
    if check(asset is not None, "the page links hashed static files (collectstatic manifest)"):
        static = httpx.get(f"{a}{asset.group(1)}", timeout=10,
                           headers={"Accept-Encoding": "gzip"})
        cache_control = static.headers.get("cache-control", "")
        check(static.status_code == 200 and "max-age=315360000" in cache_control,
              "WhiteNoise serves it with a far-future cache",
              f"{asset.group(1)}: {static.status_code}, {cache_control}, "
              f"{static.headers.get('content-encoding', 'identity')}")


def check_beat(shape: Shape) -> None:
    def deals() -> list[str]:
        rows = psql("SELECT date FROM games_dailydeal ORDER BY date", shape.database)
        return rows.split() if rows else []
    today = datetime.now(UTC).date()
    wanted = {today.isoformat(), (today + timedelta(days=1)).isoformat()}
    created = wait_until(lambda: wanted <= set(deals()), 40, every_s=0.5)
    check(created, "beat, through the worker, created today's and tomorrow's daily deals",
          f"deals in the database: {deals()}")


def check_events_cross_processes(shape: Shape) -> None:
    a, b = shape.url(0), shape.url(1)
    player = Player(a).join()
    game = player.new_game()
    check(game["status"] == "active", "a player and a practice game were created on A",
          f"game {game['id']} at version {game['version']}")
    listener = Listener(f"{shape.ws(1)}/ws/games/{game['id']}/", player.token)
    try:
        time.sleep(0.3)  # the group join completes after the handshake
        for step in range(2):
            response = player.act(game, simple_move(game), at=a)
            ok = response.status_code == 200
            check(ok, f"action {step + 1} acknowledged by A", f"HTTP {response.status_code}")
            if not ok:
                return
            body = response.json()
            game = body["game"]
            version = game["version"]
            frames, reached = listener.wait_for(lambda f, v=version: f["v"] >= v, 10)
            versions = [f["v"] for f in frames]
            check(reached and versions == sorted(versions),
                  f"B's websocket received the events of action {step + 1} up to version "
                  f"{version}, in order", f"{len(frames)} frame(s), types "
                  f"{sorted({f['t'] for f in frames})}, response carried {len(body['events'])}")
        seen_by_b = player.game(game['id'], at=b).json()
        check(seen_by_b["version"] == game["version"] and seen_by_b["hand"] == game["hand"],
              "B's GET /games/{id} shows the game A acknowledged", f"version {game['version']}")
    finally:
        listener.close()


def check_daily_on_board(shape: Shape) -> None:
    a, b = shape.url(0), shape.url(1)
    player = Player(b).join()
    board_socket = Listener(f"{shape.ws(1)}/ws/leaderboards/daily/")
    try:
        game = player.new_game(mode="daily")
        check(game["mode"] == "daily", "today's daily started on B", f"game {game['id']}")
        started = time.monotonic()
        actions = 0
        while game["status"] == "active" and actions < MAX_ACTIONS \
                and time.monotonic() - started < GAME_DEADLINE_S:
            base = (a, b)[actions % 2]  # alternate the processes
            response = player.act(game, simple_move(game), at=base)
            if response.status_code != 200:
                check(False, "every action of the daily is acknowledged",
                      f"action {actions}: HTTP {response.status_code} {response.text[:200]}")
                return
            game = response.json()["game"]
            actions += 1
        check(game["status"] == "finished",
              "the daily was played to its end, alternating between A and B",
              f"{actions} actions, {game['version']} in the log, deal {game['deal']}, "
              f"{time.monotonic() - started:.1f}s, contracts "
              f"{[p['climbed'] for p in game['players']]}")
        frames, pushed = board_socket.wait_for(
            lambda f: f.get("t") == "entry" and f["data"]["player"]["id"] == player.id, 10)
        check(pushed, "the finished daily was pushed on B's board websocket",
              f"{frames[-1] if frames else 'no frame'}")
        board = httpx.get(f"{a}/api/v1/leaderboards/daily", timeout=10).json()
        listed = [e for e in board["entries"] if e["player"]["id"] == player.id]
        check(len(listed) == 1, "A's GET /leaderboards/daily lists it",
              f"rank {listed[0]['rank'] if listed else None} of {board['count']}")
    finally:
        board_socket.close()


TABLE_TIMER_S = 30  # the shortest a table offers


def check_table_across_processes(shape: Shape) -> None:
    a, b = shape.url(0), shape.url(1)
    host, friend = Player(a).join(), Player(b).join()
    table = host.request("setup", "POST", "/tables",
                         {"name": "Smoke table", "turn_seconds": TABLE_TIMER_S}).json()
    joined = friend.request("setup", "POST", f"/tables/join/{table['code']}")
    started = host.request("start", "POST", f"/tables/{table['id']}/start")
    if not check(joined.status_code == 201 and started.status_code == 201,
                 "a table opened on A, a friend sat down on B, the host started its game",
                 f"join {joined.status_code}, start {started.status_code}"):
        return
    game_id = started.json()["game"]["id"]
    people = {0: (host, a, Listener(f"{shape.ws(0)}/ws/games/{game_id}/", host.token)),
              1: (friend, b, Listener(f"{shape.ws(1)}/ws/games/{game_id}/", friend.token))}
    try:
        time.sleep(0.3)  # the group join completes after the handshake
        game = host.game(game_id, at=a).json()
        heard = moves = 0
        while game["status"] == "active" and game["deal"] == 1 and moves < MAX_ACTIONS:
            player, base, _ = people[game["turn"]]
            game = player.game(game_id, at=base).json()
            response = player.act(game, plain_move(game), at=base)
            if response.status_code != 200:
                check(False, "every move at the table is acknowledged",
                      f"move {moves}: HTTP {response.status_code} {response.text[:200]}")
                return
            version, moves = response.json()["game"]["version"], moves + 1
            _, _, other = people[1 - game["you"]]
            _, reached = other.wait_for(lambda f, v=version: f["v"] >= v, 10)
            heard += reached
            game = response.json()["game"]
        check(game["deal"] == 2 and heard == moves,
              "the two people played the first deal, A's and B's sockets each hearing the "
              "other's every move", f"{moves} moves by people, {heard} heard by the other, "
              f"deal {game['deal']}")
        for player, base, _ in people.values():  # both close the deal's results, as a page
            player.request("ready", "POST", f"/games/{game_id}/ready", at=base)  # ends the break
        waiting = host.game(game_id, at=a).json()
        mover = waiting["turn"]
        _, _, watcher = people[1 - mover]
        frames, fired = watcher.wait_for(
            lambda f: f["t"] == "timed_out" and f["data"]["seat"] == mover, TABLE_TIMER_S + 15)
        after = host.game(game_id, at=a).json()
        check(fired and after["version"] > waiting["version"],
              f"the worker played seat {mover}'s turn when its {TABLE_TIMER_S} s ran out, "
              "nobody reading", f"version {waiting['version']} -> {after['version']}, "
              f"{len(frames)} frame(s) heard")
    finally:
        for _, _, listener in people.values():
            listener.close()


def check_shared_throttle(shape: Shape) -> None:
    """The identities limit (THROTTLE_IDENTITIES below) is counted in Redis: both processes
    share one count per address."""
    statuses = []
    for i in range(IDENTITIES_PER_HOUR + 2):
        response = httpx.post(f"{shape.url(i % 2)}/api/v1/players", timeout=10)
        statuses.append(response.status_code)
        if response.status_code == 429:
            retry_after = response.headers.get("retry-after")
            break
    else:
        retry_after = None
    # Four players were created earlier in this run, from the same address.
    allowed = IDENTITIES_PER_HOUR - 4
    check(statuses == [201] * allowed + [429] and retry_after is not None,
          f"creating players alternately on A and B is refused after {IDENTITIES_PER_HOUR} "
          "an hour in all (one count in Redis), 429 with Retry-After",
          f"statuses {statuses}, Retry-After {retry_after}")


IDENTITIES_PER_HOUR = 6
PRODUCTION_ENV = {
    "THROTTLE_IDENTITIES": f"{IDENTITIES_PER_HOUR}/h",
    "THROTTLE_ACTIONS": "6000/m",  # the scripted daily plays far faster than a person
}


def main() -> int:
    with Shape("prod_smoke", asgi=2, worker=True, beat="fast", redis_db=5,
               env=PRODUCTION_ENV) as shape:
        check(True, "two uvicorn processes, a Celery worker and beat are up",
              f"A={shape.url(0)} B={shape.url(1)}")
        check_pages(shape)
        check_beat(shape)
        check_events_cross_processes(shape)
        check_daily_on_board(shape)
        check_table_across_processes(shape)
        check_shared_throttle(shape)
        code = finish("prod_smoke")
    if code == 0:
        shape.drop()
    return code


if __name__ == "__main__":
    say("production smoke test: two ASGI processes, worker, beat, PostgreSQL, Redis")
    sys.exit(main())
