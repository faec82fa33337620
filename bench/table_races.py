"""Tables' races and bans over HTTP on the production shape, used by CI (issue 51).

Starts the shape (bench/prodshape.py: two uvicorn processes, A and B, on PostgreSQL and
Redis; no worker is needed) with the throttles off, then:

``races``
    For ``--rounds`` rounds of each race, one person opens a table and, at once, sends two
    requests to different processes (which process gets which alternates by round): the
    last person leaving (``POST /tables/{id}/leave``) against

    - the code's preview (``GET /tables/join/{code}``),
    - a read of the table (``GET /tables/{id}``),
    - a reaction (``POST /tables/{id}/reactions``).

    Each answer is counted by status and error code. Every answer must be the table (200, a
    preview of one person or more) or a 204, or a refusal in the one error shape as 404
    ``not_found`` (the table its last person left is not found); never a 5xx. The figures
    show how the rounds fell: a race whose answers were all of one kind did not race.
``bans``
    A moderator bans players through the moderation service the admin's "Ban" action calls
    (leaderboards.services.ban_player, by a user ``manage.py create_moderator`` would make):
    a banned host's start, a banned person's reaction and a banned host's "play again" after
    a game two people played to its end over HTTP (while the races ran) are each 403
    ``banned``; an unbanned person's reaction at the same table is 204, and once unbanned
    the host plays again (201).

Exit status 0 when every check passed. Everything it started is stopped on exit.

    .venv/bin/python -m bench.table_races [--rounds 100]  (about 80 s)

``races`` takes the servers' URLs, so tests/bench/test_table_races.py runs it against a live
server.
"""

from __future__ import annotations

import argparse
import collections
import random
import secrets
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import httpx

from bench.api import API, Player, plain_move
from bench.prodshape import Shape, check, finish, say

RACES = ("preview", "read", "react")
OPEN_ENV = {
    "THROTTLE_IDENTITIES": "off", "THROTTLE_TABLES": "off", "THROTTLE_TABLE_CODES": "off",
    "THROTTLE_TABLE_CODES_DAY": "off", "THROTTLE_REACTIONS": "off", "THROTTLE_ACTIONS": "off",
    "THROTTLE_GAMES": "off",
}
# The leave (a write) takes longer than the call it races: the call leaves from LEAD_S before
# the leave to LAG_S after it, so the rounds land before, during and after its transaction.
LEAD_S, LAG_S = 0.004, 0.02
GAME_DEADLINE_S = 90
MAX_ACTIONS = 3000


# --- Two requests at once ------------------------------------------------------------------


def at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response | Exception]:
    """Run the calls in threads released together; each one's response, or what it raised
    (a connection cut off is an answer too, and counted)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int, call) -> None:
        barrier.wait()
        try:
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 - counted as the answer it is
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def outcome(answer: httpx.Response | Exception) -> str:
    """An answer as counted: ``200``, ``404 not_found``, ``500``, ``ReadTimeout`` ..."""
    if isinstance(answer, Exception):
        return type(answer).__name__
    if answer.status_code < 400:
        return str(answer.status_code)
    try:
        code = answer.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = "(not the error shape)"
    return f"{answer.status_code} {code}"


def acceptable(race: str, answer: httpx.Response | Exception) -> bool:
    """The race's call answered the table as it was, or the one refusal: 404 not_found with
    a message, in the one error shape."""
    if isinstance(answer, Exception):
        return False
    try:
        if answer.status_code == 404:
            error = answer.json()["error"]
            return error["code"] == "not_found" and bool(error["message"])
        if race == "preview":
            return answer.status_code == 200 and answer.json()["people"] >= 1
        if race == "read":
            return answer.status_code == 200 and answer.json()["you"] == 0
    except (ValueError, KeyError, TypeError):
        return False
    return answer.status_code == 204


def failed(counts: collections.Counter) -> int:
    """How many answers were a 5xx or no answer at all (a connection cut off, a timeout)."""
    return sum(n for answer, n in counts.items() if answer[0] == "5" or not answer[0].isdigit())


# --- The races -----------------------------------------------------------------------------


class Pair:
    """One client per process (kept alive, so a round's two requests leave at once)."""

    def __init__(self, urls: list[str]):
        self.urls = urls if len(urls) > 1 else urls * 2
        self.clients = [httpx.Client(timeout=30) for _ in self.urls]

    def close(self) -> None:
        for client in self.clients:
            client.close()


def race_rounds(urls: list[str], race: str, rounds: int,
                rng: random.Random) -> tuple[collections.Counter, collections.Counter, int]:
    """(the race call's outcomes, the leave's outcomes, rounds answered outside the contract):
    ``rounds`` times, a person opens a table and leaves it while ``race`` hits it."""
    pair = Pair(urls)
    person = Player(pair.urls[0], http=pair.clients[0]).join()
    headers = {"Authorization": f"Bearer {person.token}"}
    calls, leaves = collections.Counter(), collections.Counter()
    wrong = 0
    try:
        for number in range(rounds):
            table = person.request("setup", "POST", "/tables",
                                   {"name": f"Race {number}", "turn_seconds": None}).json()
            here, there = number % 2, 1 - number % 2  # the call's process, the leave's
            call_client, leave_client = pair.clients[here], pair.clients[there]
            call_url, leave_url = pair.urls[here] + API, pair.urls[there] + API
            offset = rng.uniform(-LEAD_S, LAG_S)  # the call's start after the leave's
            call_delay, leave_delay = max(offset, 0.0), max(-offset, 0.0)

            def call(table=table, client=call_client, url=call_url, delay=call_delay):
                time.sleep(delay)
                if race == "preview":  # anyone may look a code up: no identity
                    return client.get(f"{url}/tables/join/{table['code']}")
                if race == "read":
                    return client.get(f"{url}/tables/{table['id']}", headers=headers)
                return client.post(f"{url}/tables/{table['id']}/reactions",
                                   json={"reaction": "nice"}, headers=headers)

            def leave(table=table, client=leave_client, url=leave_url, delay=leave_delay):
                time.sleep(delay)
                return client.post(f"{url}/tables/{table['id']}/leave", headers=headers)

            answer, left = at_once(call, leave)
            calls[outcome(answer)] += 1
            leaves[outcome(left)] += 1
            wrong += not acceptable(race, answer) or outcome(left) != "204"
    finally:
        pair.close()
    return calls, leaves, wrong


def races(urls: list[str], rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    names = {"preview": "the code's preview", "read": "a read of the table",
             "react": "a reaction"}
    for race in RACES:
        started = time.monotonic()
        calls, leaves, wrong = race_rounds(urls, race, rounds, rng)
        errors = failed(calls) + failed(leaves)
        figures = (f"{rounds} rounds in {time.monotonic() - started:.1f}s; {race}: "
                   f"{_counts(calls)}; leave: {_counts(leaves)}")
        check(errors == 0, f"{names[race]} racing the last person's leave: no 5xx, every "
                            "request answered", figures)
        check(wrong == 0, f"{names[race]} racing the leave answers the table or 404 "
                          "not_found in the one error shape, and the leave 204",
              f"{wrong} round(s) otherwise")


def _counts(counter: collections.Counter) -> str:
    return ", ".join(f"{answer} ×{n}" for answer, n in sorted(counter.items()))


# --- Bans ----------------------------------------------------------------------------------


def banned(response: httpx.Response) -> bool:
    return response.status_code == 403 and outcome(response) == "403 banned"


def play_to_the_end(people: dict[int, tuple[Player, str]], game_id: str) -> tuple[dict, int]:
    """(the game as seat 0 sees it, actions sent): each person ``{seat: (player, url)}``
    plays their turns (the view's plain moves) until the game is over, bots the other seats."""
    player, url = people[0]
    game = player.game(game_id, at=url).json()
    actions, started = 0, time.monotonic()
    while game["status"] == "active" and actions < MAX_ACTIONS \
            and time.monotonic() - started < GAME_DEADLINE_S:
        if game["turn"] != game["you"]:  # the other person's turn (bots never wait)
            player, url = people[game["turn"]]
            game = player.game(game_id, at=url).json()
        response = player.act(game, plain_move(game), at=url)
        if response.status_code != 200:
            raise RuntimeError(f"action {actions}: {response.status_code} {response.text[:200]}")
        game, actions = response.json()["game"], actions + 1
    return people[0][0].game(game_id, at=people[0][1]).json(), actions


class Played(NamedTuple):
    """A table whose game two people played to its end over HTTP: its host may play again."""

    host: Player
    table: dict
    game: dict
    detail: str


def table_played_out(urls: list[str]) -> Played:
    a, b = urls[0], urls[-1]
    host, friend = Player(a).join(), Player(b).join()
    table = host.request("setup", "POST", "/tables", {"name": "Ban night",
                                                      "turn_seconds": None}).json()
    friend.request("setup", "POST", f"/tables/join/{table['code']}")
    started = host.request("start", "POST", f"/tables/{table['id']}/start")
    began = time.monotonic()
    game, actions = play_to_the_end({0: (host, a), 1: (friend, b)},
                                    started.json()["game"]["id"])
    return Played(host, table, game, f"start {started.status_code}, {actions} actions, "
                                     f"{time.monotonic() - began:.1f}s, status {game['status']}")


def bans(urls: list[str], played: Played, ban: Callable[[list[str]], None],
         unban: Callable[[list[str]], None]) -> None:
    """``played``: a table its host may play again at; ``ban(ids)`` and ``unban(ids)``: a
    moderator's (un)ban of the players ``ids`` (their public ids)."""
    a, b = urls[0], urls[-1]
    host, over, game_id = played.host, played.table, played.game["id"]
    if not check(played.game["status"] == "finished", "a table's game played to its end over "
                 "HTTP by its two people (its host may play again)", played.detail):
        return

    # A lobby whose host and one guest are banned, and one guest who is not.
    lobby_host, guest, bystander = Player(a).join(), Player(b).join(), Player(b).join()
    lobby = lobby_host.request("setup", "POST", "/tables", {"name": "Ban lobby"}).json()
    for person in (guest, bystander):
        person.request("setup", "POST", f"/tables/join/{lobby['code']}")
    ban([host.id, lobby_host.id, guest.id])

    start = lobby_host.request("start", "POST", f"/tables/{lobby['id']}/start", at=b)
    reaction = guest.request("react", "POST", f"/tables/{lobby['id']}/reactions",
                             {"reaction": "nice"}, at=a)
    fine = bystander.request("react", "POST", f"/tables/{lobby['id']}/reactions",
                             {"reaction": "nice"}, at=b)
    again = host.request("start", "POST", f"/tables/{over['id']}/start", at=b)
    table = host.request("get", "GET", f"/tables/{over['id']}", at=a).json()
    lobby_now = lobby_host.request("get", "GET", f"/tables/{lobby['id']}", at=a).json()
    check(banned(start) and lobby_now["game"] is None,
          "a banned host's start is 403 banned, and no game starts",
          f"{outcome(start)}, the table's game {lobby_now['game']}")
    check(banned(reaction) and fine.status_code == 204,
          "a banned person's reaction is 403 banned; an unbanned person's at the same table "
          "204", f"{outcome(reaction)}; {outcome(fine)}")
    check(banned(again) and table["game"] == {"id": game_id, "status": "finished"},
          "a banned host's play again is 403 banned, and the finished game stays the table's",
          f"{outcome(again)}, the table's game {table['game']}")

    unban([host.id])
    again = host.request("start", "POST", f"/tables/{over['id']}/start", at=b)
    check(again.status_code == 201, "once unbanned, the host plays again (201)",
          outcome(again))


def moderation(shape: Shape, username: str, password: str):
    """(ban, unban): a moderator's bans and unbans through the moderation service the admin's
    actions call (the moderator made as ``manage.py create_moderator`` makes one), with Django
    set up on the shape's settings."""
    def run(service: str, ids: list[str]) -> None:
        shape.django(
            "from django.contrib.auth import get_user_model\n"
            "from games.players.models import Player\n"
            "from leaderboards import services\n"
            f"services.make_moderator({username!r}, '', {password!r})  # made, or kept\n"
            f"moderator = get_user_model().objects.get(username={username!r})\n"
            f"for player in Player.objects.filter(public_id__in={ids!r}):\n"
            f"    services.{service}(player, moderator, 'bench.table_races: bans at a table')\n")
    return (lambda ids: run("ban_player", ids)), (lambda ids: run("unban_player", ids))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100, help="rounds of each race")
    parser.add_argument("--seed", type=int, default=51)
    args = parser.parse_args()
    with Shape("table_races", asgi=2, worker=False, redis_db=9, env=OPEN_ENV,
               collectstatic=False) as shape:
        urls = [shape.url(0), shape.url(1)]
        check(True, "two uvicorn processes on PostgreSQL and Redis are up", " ".join(urls))
        with ThreadPoolExecutor(1) as pool:
            # A table's game is played to its end (for "play again") while the races run.
            played = pool.submit(table_played_out, urls)
            races(urls, args.rounds, args.seed)
            bans(urls, played.result(),
                 *moderation(shape, "race-moderator", secrets.token_urlsafe(24)))
        errors = sum(log.read_text(errors="replace").count("Internal Server Error")
                     for log in shape.logs.glob("asgi*.log"))
        check(errors == 0, "no 500 was logged by either process", f"{errors}")
        code = finish("table_races")
    if code == 0:
        shape.drop()
    return code


if __name__ == "__main__":
    say("tables' races and bans over HTTP: two ASGI processes, PostgreSQL, Redis")
    sys.exit(main())
