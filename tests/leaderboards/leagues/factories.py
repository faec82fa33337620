"""Helpers for the league tests: a JSON client of /api/v1 with every method, and a league made
through the services with some members."""

from __future__ import annotations

import json

from django.test import Client

from games.players.models import Player
from leaderboards.leagues import services
from leaderboards.leagues.models import League
from tests.leaderboards.factories import player

API = "/api/v1"


class Api:
    """A JSON client of /api/v1 acting as a bearer token's player (or as nobody)."""

    def __init__(self, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.client = Client(headers=headers)

    def get(self, path: str, **params):
        return self.client.get(API + path, params)

    def post(self, path: str, data: dict | None = None):
        return self.client.post(API + path, json.dumps(data or {}),
                                content_type="application/json")

    def patch(self, path: str, data: dict):
        return self.client.patch(API + path, json.dumps(data), content_type="application/json")

    def delete(self, path: str):
        return self.client.delete(API + path)


def member(name: str) -> tuple[Player, Api]:
    someone, token = player(name)
    return someone, Api(token)


def league_with(creator: Player, *others: Player, name: str = "Friday Club") -> League:
    league = services.create_league(creator, name)
    for other in others:
        services.join(other, league.code)
    league.refresh_from_db()
    return league


def error_code(response) -> str:
    return response.json()["error"]["code"]
