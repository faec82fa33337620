"""The hand-made parts against the stock parts they replace, one figure each, in under a minute:
the figures docs/design.md ("Hand-made parts, and why") quotes, printed by every CI run.

Each part is timed against its stock alternative, used as its library documents it, in one
process: CPU time (``time.process_time``, every thread of the process) per operation, the two
alternated round by round and the median round kept, so a busy host moves both alike; the
ratio is the figure to read. The whole action's instruction count
(``bench.action_instructions``) is the rule's measure (issue 40); this is the quick check
that each part still buys what it bought.

- ``ladder/serving.py``: a bearer's ``GET /api/v1/games/{id}`` through the ASGI application,
  Django's handler (``get_asgi_application``) against the serving layer;
- ``games/web/rows.py``: an action's statements (the game's row locked and read, three log
  rows inserted and the game's row updated) against the ORM's ``select_for_update().get``,
  ``bulk_create`` and ``save(update_fields)``;
- ``games/web/renderer.py``: the game's view (the API's answer) written by its orjson renderer
  against django-ninja's ``JSONRenderer``;
- ``games.models.OrjsonEncoder``/``OrjsonDecoder``: a game's snapshot written and read through
  its ``JSONField`` against the standard library's ``json``;
- the groups' send queue (``games.web.groups``): a group send from a request thread queued to
  the server's loop, against ``async_to_sync(layer.group_send)`` (a new event loop, and a new
  Redis connection, each send);
- ``gc.freeze()`` (ladder/asgi.py): a full collection's pause with everything imported
  frozen, against the same collection with nothing frozen;
- the compiled build (games/build.py): CPU of a game of four normal bots, compiled against
  plain Python (``LADDER_PURE_PYTHON=1``), every action the same (a digest), two rounds.

Then whole actions through the serving layer, as ``bench.action_instructions`` plays them
(the same games every run: bench.seeded; a draw or a discard in turn, ``POST
/api/v1/games/{id}/actions``; the three normal bots' turns after a discard; a practice game,
SQLite, throttles off), their CPU and how many times an action
used each part, so each part's saving is printed as a share of the action with that part stock
(issue 40's convention): s / (action + s), s = its uses an action x (stock - ours). A CPU
estimate of the rule's measure (instructions in the server process, PostgreSQL): this one counts
SQLite's work and the client's JSON too. The shares overlap and do not add up: the send
queue's stock, ``async_to_sync`` from a thread of serving.py's pool, makes a new event loop a
send, where Django's own handler would lend it its loop.

Needs Redis (``REDIS_URL``: the channel layer and cache that production uses; a database of
its own, flushed); the database is a SQLite file of its own, migrated first.

    REDIS_URL=redis://127.0.0.1:6379/12 .venv/bin/python -m bench.parts
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.seeded import fixed_secrets

REPO = Path(__file__).resolve().parent.parent


def per_op(work, count: int) -> float:
    """CPU microseconds per call of ``work`` (every thread of the process)."""
    started = time.process_time()
    for _ in range(count):
        work()
    return (time.process_time() - started) / count * 1e6


def alternated(ours, stock, count: int, rounds: int) -> tuple[float, float]:
    """The median round's microseconds per call of each, alternated round by round."""
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(per_op(ours, count))
        theirs.append(per_op(stock, count))
    return statistics.median(mine), statistics.median(theirs)


def show(part: str, ours: float, stock: float, unit: str = "µs") -> None:
    print(f"{part:<50} ours {ours:9.3f} {unit:<2} stock {stock:9.3f} {unit:<2} "
          f"stock/ours {stock / ours:6.1f}", flush=True)


def setup_django(folder: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/parts.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
    import django

    django.setup(set_prefix=False)
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    cache.clear()
    for name in settings.THROTTLE_RATES:  # the bench makes more calls than a person
        settings.THROTTLE_RATES[name] = None


def a_game():
    from games.models import Game
    from games.players.identity import hash_token, new_token
    from games.players.services import create_player
    from games.services import start_game

    token = new_token()
    player = create_player(token_hash=hash_token(token), name="Parts")
    return start_game(player, Game.PRACTICE, "normal").game, token


async def call(app, method: str, path: str, token: str | None,
               body: dict | None = None) -> dict:
    """One request to the ASGI application ``app``, as uvicorn would send it; its answer."""
    raw = b"" if body is None else json.dumps(body).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 50_000),
             "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"localhost"), (b"content-type", b"application/json")]}
    if token:
        scope["headers"].append((b"authorization", f"Bearer {token}".encode()))
    messages = [{"type": "http.request", "body": raw, "more_body": False}]

    async def receive():
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # no disconnect: the answer ends the request

    statuses, chunks = [], []

    async def send(message):
        if message["type"] == "http.response.start":
            statuses.append(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    assert statuses in ([200], [201]), (statuses, b"".join(chunks)[:200])
    return json.loads(b"".join(chunks))


def serving(loop, game, token: str, count: int, rounds: int) -> tuple[dict, float]:
    """The serving layer's figure; returns the game's view, as the API answered it, and the
    CPU microseconds the layer saves a request."""
    from django.core.asgi import get_asgi_application

    from ladder.serving import ThreadedDjango

    path = f"/api/v1/games/{game.public_id}"
    answers = []
    ours, stock = ThreadedDjango(), get_asgi_application()
    mine, theirs = alternated(
        lambda: answers.append(loop.run_until_complete(call(ours, "GET", path, token))),
        lambda: loop.run_until_complete(call(stock, "GET", path, token)), count, rounds)
    show("serving.py: a GET of the game (ASGI)", mine, theirs)
    ours.executor.shutdown()
    return answers[-1], theirs - mine


def action(loop, count: int, rounds: int) -> tuple[float, dict[str, float]]:
    """CPU microseconds of a whole action through the serving layer (median round), and how
    many times an action used each part: our own functions, wrapped with a counter in this
    process only while the actions run."""
    from bench.api import simple_move
    from games.services import moves, publishing
    from games.web import groups
    from games.web.renderer import OrjsonRenderer
    from ladder.serving import ThreadedDjango

    app = ThreadedDjango()
    token = loop.run_until_complete(call(app, "POST", "/api/v1/players", None))["token"]
    game = {}

    def act() -> None:
        nonlocal game
        if not game or game["phase"] == "finished":
            game = loop.run_until_complete(call(app, "POST", "/api/v1/games", token,
                                                {"mode": "practice", "level": "normal"}))
        game = loop.run_until_complete(call(
            app, "POST", f"/api/v1/games/{game['id']}/actions", token,
            {"version": game["version"], "action": simple_move(game)}))["game"]
        sender = groups._outbox and groups._outbox.sender  # the action's sends, in its CPU
        if sender and not sender.done():
            loop.run_until_complete(asyncio.wait([sender]))

    for _ in range(count):  # a game under way, and the first calls' imports out of the way
        act()
    uses = dict.fromkeys(("renderer", "rows", "sends"), 0)

    def counted(name, function):
        def wrapper(*args, **kwargs):
            uses[name] += 1
            return function(*args, **kwargs)
        return wrapper

    wrapped = ((OrjsonRenderer, "render", "renderer"), (moves, "insert_rows_and_update", "rows"),
               (publishing, "group_send", "sends"))
    originals = [getattr(owner, attribute) for owner, attribute, _ in wrapped]
    for (owner, attribute, name), original in zip(wrapped, originals, strict=True):
        setattr(owner, attribute, counted(name, original))
    try:
        for _ in range(count):
            act()
    finally:
        for (owner, attribute, _), original in zip(wrapped, originals, strict=True):
            setattr(owner, attribute, original)
    per_action = {name: used / count for name, used in uses.items()}
    cost = statistics.median(per_op(act, count) for _ in range(rounds))
    app.executor.shutdown()
    label = "an action (a draw or a discard; SQLite)"
    print(f"{label:<50} ours {cost:9.3f} µs; an action's uses: views rendered "
          f"{per_action['renderer']:.2f}, statements {per_action['rows']:.2f}, group sends "
          f"{per_action['sends']:.2f}", flush=True)
    return cost, per_action


def renderer(view: dict, count: int, rounds: int) -> float:
    from ninja.renderers import JSONRenderer

    from games.web.renderer import OrjsonRenderer

    ours, stock = OrjsonRenderer(), JSONRenderer()
    mine, theirs = alternated(lambda: ours.render(None, view, response_status=200),
                              lambda: stock.render(None, view, response_status=200), count,
                              rounds)
    show("renderer.py: the game's view written as JSON", mine, theirs)
    return theirs - mine


def rows(game, count: int, rounds: int) -> float:
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, GameAction
    from games.web.rows import insert_rows_and_update, select_row

    columns = ("game", "index", "seat", "action", "created_at", "bot")
    action = {"type": "draw", "from": "stock"}
    index = [10_000]

    def log_rows(pk: int, now) -> list[tuple]:
        first = index[0]
        index[0] += 3
        return [(pk, first + i, i, action, now, i > 0) for i in range(3)]

    def ours() -> None:
        with transaction.atomic():
            row = select_row(Game, for_update=True, public_id=game.public_id)
            row.version += 1
            row.updated_at = timezone.now()
            insert_rows_and_update(GameAction, columns, log_rows(row.pk, row.updated_at),
                                   row, ["state", "version", "updated_at"])

    def stock() -> None:
        with transaction.atomic():
            row = Game.objects.select_for_update().get(public_id=game.public_id)
            row.version += 1
            row.updated_at = timezone.now()
            GameAction.objects.bulk_create(
                GameAction(**dict(zip(("game_id", *columns[1:]), values, strict=True)))
                for values in log_rows(row.pk, row.updated_at))
            row.save(update_fields=["state", "version", "updated_at"])

    mine, theirs = alternated(ours, stock, count, rounds)
    show("rows.py: an action's statements (SQLite)", mine, theirs)
    return theirs - mine


def snapshot(game, count: int, rounds: int) -> float:
    from games.models import OrjsonDecoder, OrjsonEncoder

    state = game.state

    def ours() -> None:
        json.loads(json.dumps(state, cls=OrjsonEncoder), cls=OrjsonDecoder)

    def stock() -> None:
        json.loads(json.dumps(state))

    mine, theirs = alternated(ours, stock, count, rounds)
    show("OrjsonEncoder/Decoder: a snapshot written, read", mine, theirs)
    return theirs - mine


def send_queue(count: int, rounds: int) -> float:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.web import groups

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def name_the_loop() -> None:
        groups.use_loop(loop)

    asyncio.run_coroutine_threadsafe(name_the_loop(), loop).result()
    message = {"type": "game.events", "events": []}

    async def drained() -> bool:
        outbox = groups._outbox
        return not outbox.waiting and (outbox.sender is None or outbox.sender.done())

    def ours() -> None:  # a request thread's sends, then the loop's work until they are out
        for _ in range(10):
            groups.group_send("bench-parts", message)
        while not asyncio.run_coroutine_threadsafe(drained(), loop).result():
            time.sleep(0.0005)

    layer = get_channel_layer()

    def stock() -> None:
        for _ in range(10):
            async_to_sync(layer.group_send)("bench-parts", message)

    try:
        mine, theirs = alternated(ours, stock, count, rounds)
        show("groups' send queue: a group send", mine / 10, theirs / 10)
        return (theirs - mine) / 10
    finally:
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), loop).result()
        groups.use_loop(None)
        loop.call_soon_threadsafe(loop.stop)
        thread.join()


def gc_freeze(rounds: int) -> None:
    import ladder.asgi  # noqa: F401  (imports everything, then freezes it: gc.freeze())

    def pause() -> float:
        started = time.process_time()
        gc.collect()
        return (time.process_time() - started) * 1000

    frozen, thawed = [], []
    for _ in range(rounds):
        frozen.append(pause())
        gc.unfreeze()
        thawed.append(pause())
        gc.freeze()
    show(f"gc.freeze(): a full collection ({gc.get_freeze_count() // 1000} k frozen)",
         statistics.median(frozen), statistics.median(thawed), "ms")


def compiled(games: int, rounds: int) -> None:
    worker = REPO / "bench" / "compare_worker.py"

    def play(pure: bool) -> tuple[float, str]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        env.pop("DJANGO_SETTINGS_MODULE", None)
        if pure:
            env["LADDER_PURE_PYTHON"] = "1"
        else:
            env.pop("LADDER_PURE_PYTHON", None)
        out = subprocess.run([sys.executable, str(worker), str(REPO), "parts",
                              "normal,normal,normal,normal", "0", str(games)],
                             env=env, capture_output=True, text=True, check=True).stdout
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        if not all(line["compiled"] != pure for line in lines):
            sys.exit("bench.parts: the compiled build is missing (python -m games.build)")
        return sum(line["seconds"] for line in lines), "".join(line["digest"] for line in lines)

    cpu = pure_cpu = 0.0
    for _ in range(rounds):  # alternated, each round the same games
        seconds, digest = play(False)
        pure_seconds, pure_digest = play(True)
        assert digest == pure_digest, "the compiled build played other moves"
        cpu, pure_cpu = cpu + seconds, pure_cpu + pure_seconds
    show(f"compiled build: a game of four normal bots ({games * rounds})",
         cpu / rounds / games * 1000, pure_cpu / rounds / games * 1000, "ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="bot games a round (compiled)")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("bench.parts: set REDIS_URL (the channel layer and cache of production)")
    import redis

    redis.Redis.from_url(os.environ["REDIS_URL"]).flushdb()
    started = time.monotonic()
    # In memory where the host has it: the figures are CPU, and a loaded disk's fsyncs would
    # only make the run longer.
    shared_memory = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=shared_memory) as folder:
        setup_django(folder)
        game, token = a_game()
        print(f"set up in {time.monotonic() - started:.0f} s", flush=True)
        print(f"CPU time per operation, median of {args.rounds} alternated rounds "
              "(stock/ours > 1: the part buys that factor)", flush=True)
        loop = asyncio.new_event_loop()
        try:
            view, saved_serving = serving(loop, game, token, 30, args.rounds)
            with fixed_secrets("bench-parts"):  # the same games every run
                cost, uses = action(loop, 40, args.rounds)
        finally:
            from games.web import groups

            groups.use_loop(None)
            loop.close()
        saved = {  # microseconds an action, and how many uses make it
            "serving.py (1 request, timed as a GET)": saved_serving,
            f"renderer.py ({uses['renderer']:.2f} views)": renderer(view, 300, args.rounds)
            * uses["renderer"],
            f"rows.py ({uses['rows']:.2f} sets, timed with 3 log rows)":
                rows(game, 100, args.rounds) * uses["rows"],
            "OrjsonEncoder/Decoder (1 snapshot written, read)": snapshot(game, 300, args.rounds),
            f"groups' send queue ({uses['sends']:.2f} sends)": send_queue(5, args.rounds)
            * uses["sends"],
        }
        gc_freeze(args.rounds)
        compiled(args.games, 2)
        print(f"What each part saves an action ({cost / 1000:.2f} ms of CPU with every part "
              "ours), as a share of the action with that part stock:")
        for part, micros in saved.items():
            print(f"  {part:<56} {micros / (cost + micros):7.1%}")
    print(f"bench.parts: {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
