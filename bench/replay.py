"""How long the server takes to answer a replay: ``.venv/bin/python -m bench.replay``.

Writes one finished practice game of about ``--actions`` actions (four easy computer players,
seat 0's moves chosen by one of them, the first seed ``replay-bench-<n>`` whose game lands
within 3 % of the target), then times ``GET /api/v1/replays/{id}`` as its owner, in process
through Django's test client (routing, identity, the replay of the whole log, validation and
rendering: the server's share of the request, no network), and the service alone
(``games.reads.replays.open_replay``). Prints the median, p90 and max of ``--samples``
runs, the answer's size and the host yardstick; then the owner's ``GET /games/{id}/replay``
and ``GET /games/{id}/events`` of the same game. Target: a median of at most 60 ms each for a
900-action game. The log is replayed once per request; the browser steps through
the answer's events without asking again.

It uses the database of the settings (``DATABASE_URL``, migrated as ``manage.py migrate``
does) and deletes its rows afterwards. Never run it against production: it writes a player.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ladder.settings")
django.setup()  # a script, not a command: it sets Django up itself (a no-op under pytest)

from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.stats import percentile, timings  # noqa: E402
from games.bots import choose, rng_for, yardstick  # noqa: E402
from games.engine import (  # noqa: E402
    ENGINE_VERSION,
    FINISHED,
    apply,
    new_game,
    player_view,
    result_json,
)
from games.models import SOLO_SEAT, Game, GameAction, Seat  # noqa: E402
from games.players.identity import hash_token, new_token  # noqa: E402
from games.players.models import Player  # noqa: E402
from games.reads import replays  # noqa: E402

NAME = "Replay bench"
TOLERANCE = 0.03
SEEDS_TRIED = 200


def bot_game(seed: str) -> tuple[list[tuple[int, dict]], object]:
    """A whole game of four easy computer players: its log and final state."""
    state, _ = new_game(seed)
    log = []
    while state.phase != FINISHED:
        seat = state.turn
        action = choose("easy", player_view(state, seat), rng_for(seed, seat, state.actions))
        state, _ = apply(state, seat, action)
        log.append((seat, action.to_json()))
    return log, state


def game_near(actions: int) -> tuple[str, list, object]:
    for n in range(SEEDS_TRIED):
        seed = f"replay-bench-{n}"
        log, state = bot_game(seed)
        if abs(len(log) - actions) <= actions * TOLERANCE:
            return seed, log, state
    raise SystemExit(f"no game within {TOLERANCE:.0%} of {actions} actions in "
                     f"{SEEDS_TRIED} seeds")


def write_game(seed: str, log: list, state) -> tuple[Player, str, Game]:
    """The game as games.services leaves a finished one: the log, the snapshot, the result."""
    token = new_token()
    mine = result_json(state)[0]
    now = timezone.now()
    with transaction.atomic():
        owner = Player.objects.create(name=NAME, token_hash=hash_token(token))
        game = Game.objects.create(
            owner=owner, mode=Game.PRACTICE, level="easy", seed=seed,
            engine_version=ENGINE_VERSION, status=Game.FINISHED, version=len(log),
            state=state.to_json(), contracts=mine["contracts"], penalty=mine["penalty"],
            place=mine["place"], finished_at=now)
        Seat.objects.create(game=game, number=SOLO_SEAT, player=owner,
                            contracts=mine["contracts"], penalty=mine["penalty"],
                            place=mine["place"])
        GameAction.objects.bulk_create(
            [GameAction(game=game, index=i, seat=seat, action=action, created_at=now)
             for i, (seat, action) in enumerate(log)], batch_size=500)
    return owner, token, game


def ms(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1e3:6.1f} ms   "
            f"p90 {percentile(samples, 90) * 1e3:6.1f} ms   "
            f"max {max(samples) * 1e3:6.1f} ms   (n={len(samples)})")


def measure(actions: int, samples: int, out=sys.stdout) -> float:
    """Prints the figures; returns the request's median in milliseconds."""
    host_before_ms = yardstick.game_ms()
    seed, log, state = game_near(actions)
    owner, token, game = write_game(seed, log, state)
    try:
        client = Client(headers={"Authorization": f"Bearer {token}"})
        path = f"/api/v1/replays/{game.public_id}"
        first = client.get(path)
        if first.status_code != 200:
            raise SystemExit(f"GET {path}: {first.status_code} {first.content[:200]!r}")
        body = first.json()
        requests = timings(lambda: client.get(path), samples)
        service = timings(lambda: replays.open_replay(owner, game.public_id), samples)
        own_replay = f"/api/v1/games/{game.public_id}/replay"
        events = f"/api/v1/games/{game.public_id}/events"
        for other in (own_replay, events):
            if client.get(other).status_code != 200:
                raise SystemExit(f"GET {other}: not 200")
        own_requests = timings(lambda: client.get(own_replay), samples)
        event_requests = timings(lambda: client.get(events), samples)
        print(f"a finished game of {len(log)} actions ({seed}), {len(body['events'])} events; "
              f"answer {len(first.content) / 1024:.0f} KiB", file=out)
        print(f"  GET /api/v1/replays/{{id}} in process      {ms(requests)}", file=out)
        print(f"  replays.open_replay (the service)        {ms(service)}", file=out)
        print(f"  GET /api/v1/games/{{id}}/replay in process {ms(own_requests)}", file=out)
        print(f"  GET /api/v1/games/{{id}}/events in process {ms(event_requests)}", file=out)
        print(yardstick.describe(host_before_ms, yardstick.game_ms()), file=out)
        return statistics.median(requests) * 1e3
    finally:
        owner.delete()  # its game and log go with it


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=900, help="the game's length (900)")
    parser.add_argument("--samples", type=int, default=30, help="timed requests (30)")
    args = parser.parse_args()
    measure(args.actions, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
