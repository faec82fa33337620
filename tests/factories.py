"""Factories for tests: players and games made through the services, as the API makes them."""

from __future__ import annotations

from games import services
from games.identity import hash_token, new_token
from games.models import Game, Player


def player_with_token(name: str | None = None) -> tuple[Player, str]:
    token = new_token()
    return services.create_player(token_hash=hash_token(token), name=name), token


def practice_game(owner: Player, level: str = "easy") -> Game:
    return services.start_game(owner, Game.PRACTICE, level).game
