"""Factories and helpers for the daily and leaderboard tests.

- :func:`player` (tests.factories.player_with_token) makes a player with a bearer token;
  :func:`api` a JSON client of /api/v1 acting as that player (or as nobody). The clock
  (tests.factories.Clock, the ``clock`` fixture) is shared with the games tests.
- :func:`finished_daily` makes a finished daily game with a given result and sends
  ``game_finished`` in a transaction, as games.services does when a game ends: the
  leaderboard records its score through its receiver. Playing ten real deals takes about two
  seconds; tests that need a real game use tests.leaderboards.play instead.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

from django.db import transaction
from django.test import Client

from games import daily
from games.engine import ENGINE_VERSION
from games.models import SOLO_SEAT, Game, GameAction, Seat
from games.players.models import Player
from games.services.daily import deal_for
from games.signals import game_finished
from tests.factories import NOON, player_with_token

API = "/api/v1"
# The leaderboard tests' short name for a player with a bearer token.
player = player_with_token


class Api:
    """A JSON client of /api/v1, optionally with a bearer token."""

    def __init__(self, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.client = Client(headers=headers)
        self.bodies: list[bytes] = []

    def _keep(self, response):
        self.bodies.append(response.content)
        return response

    def get(self, path: str, **params):
        return self._keep(self.client.get(API + path, params))

    def post(self, path: str, data: dict | None = None):
        return self._keep(self.client.post(API + path, json.dumps(data or {}),
                                           content_type="application/json"))


def api(token: str | None = None) -> Api:
    return Api(token)


def finished_daily(owner: Player, day: date, contracts: int, penalty: int,
                   finished_at: datetime | None = None, place: int = 1,
                   started_at: datetime | None = None, address_hash: str = "",
                   person_actions: int = 0) -> Game:
    """A finished daily of ``day`` with this result; its score is recorded by the
    leaderboard's game_finished receiver, inside the same transaction."""
    deal = deal_for(day)
    finished_at = finished_at or datetime.combine(day, NOON, tzinfo=UTC)
    with transaction.atomic():
        game = Game.objects.create(
            owner=owner, mode=Game.DAILY, level=daily.DAILY_LEVEL, daily=deal, seed=deal.seed,
            engine_version=ENGINE_VERSION, status=Game.FINISHED, version=0, state={},
            contracts=contracts, penalty=penalty, place=place, finished_at=finished_at,
            created_at=started_at or finished_at - timedelta(minutes=30),
            address_hash=address_hash)
        Seat.objects.create(game=game, number=SOLO_SEAT, player=owner, contracts=contracts,
                            penalty=penalty, place=place)
        GameAction.objects.bulk_create([  # stand-ins for the person's moves, for the flags
            GameAction(game=game, index=i, seat=0, action={"type": "draw", "from": "stock"})
            for i in range(person_actions)])
        game_finished.send(sender=Game, game=game)
    return game
