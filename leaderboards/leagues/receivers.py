"""Leagues hear about finished games through ``games.signals.game_finished`` (games never
imports leagues: docs/design.md, "Dependencies")."""

from __future__ import annotations

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from leaderboards.leagues import services


@receiver(game_finished, dispatch_uid="leagues.announce_finish")
def tell_leagues_of_a_finished_daily(sender, game: Game, **kwargs) -> None:
    services.announce_finish(game)
