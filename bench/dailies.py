"""Finished dailies made up for the board benchmarks (bench.leaderboard, bench.league): a
game and its score as a real finish leaves them, with contracts ~ Normal(5, 2) clipped to
0-10 and penalty ~ Normal(900 - 60 c, 250) >= 0. Import it after ``django.setup()``."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from games.engine import ENGINE_VERSION
from games.models import DailyDeal, Game
from games.players.models import Player
from leaderboards.models import Score, week_of


def finished_daily(rng: random.Random, player: Player, deal: DailyDeal, public_id: str,
                   opened: datetime, spread_seconds: float) -> Game:
    """An unsaved finished daily of ``player``'s, finished at random within ``spread_seconds``
    of the first half hour after ``opened``."""
    contracts = min(10, max(0, round(rng.gauss(5, 2))))
    penalty = max(0, round(rng.gauss(900 - 60 * contracts, 250)))
    finished = opened + timedelta(seconds=1800 + rng.random() * spread_seconds)
    return Game(public_id=public_id, owner=player, mode=Game.DAILY, daily=deal, seed="bench",
                engine_version=ENGINE_VERSION, status=Game.FINISHED, version=200, state={},
                contracts=contracts, penalty=penalty, place=1, finished_at=finished,
                created_at=finished - timedelta(minutes=25))


def score_of(game: Game, day: date) -> Score:
    """The unsaved score a saved finished daily leaves (25 minutes, 200 actions)."""
    return Score(game=game, player=game.owner, day=day, week=week_of(day),
                 contracts=game.contracts, penalty=game.penalty, place=1,
                 finished_at=game.finished_at, play_seconds=1500, person_actions=200)
