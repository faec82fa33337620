"""Factories for tests: players and games made through the services, as the API makes them,
and the daily's clock.

- :class:`Clock` fixes "now" for games.daily (the daily's only clock), so tests never race
  the real midnight: ``clock.set_day(date)``, ``clock.advance(days=1)``. The ``clock``
  fixture (tests/conftest.py) is one at noon of :data:`DAY`.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from games import daily, services
from games.models import Game
from games.players.identity import hash_token, new_token
from games.players.models import Player
from games.players.services import create_player

DAY = date(2030, 3, 6)  # the tests' day: a Wednesday of ISO week 2030-W10
NOON = time(12, 0)


class Clock:
    """Replaces games.daily's clocks for one test (monkeypatch undoes it): this host's
    (``now``) and the database's (``database_now``, read near midnight), ``database_ahead``
    of this host's (a host whose clock is off)."""

    def __init__(self, monkeypatch, moment: datetime | None = None):
        self.moment = moment or datetime.combine(DAY, NOON, tzinfo=UTC)
        self.database_ahead = timedelta(0)
        monkeypatch.setattr(daily, "now", lambda: self.moment)
        monkeypatch.setattr(daily, "database_now", lambda: self.moment + self.database_ahead)

    @property
    def today(self) -> date:
        return self.moment.date()

    def set_day(self, day: date, at: time = NOON) -> None:
        self.moment = datetime.combine(day, at, tzinfo=UTC)

    def advance(self, **delta) -> None:
        self.moment += timedelta(**delta)


def player_with_token(name: str | None = None) -> tuple[Player, str]:
    token = new_token()
    return create_player(token_hash=hash_token(token), name=name), token


def practice_game(owner: Player, level: str = "easy") -> Game:
    return services.start_game(owner, Game.PRACTICE, level).game
