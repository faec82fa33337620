"""Leagues hear about finished games through ``games.signals.game_finished`` and about scores
taken off the boards or put back through ``leaderboards.signals.scores_relisted`` (neither
imports leagues: docs/design.md, "Dependencies")."""

from __future__ import annotations

from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from leaderboards.leagues import services
from leaderboards.signals import scores_relisted


@receiver(game_finished, dispatch_uid="leagues.announce_finish")
def tell_leagues_of_a_finished_daily(sender, game: Game, **kwargs) -> None:
    services.announce_finish(game)


@receiver(scores_relisted, dispatch_uid="leagues.recount_tallies")
def recount_tallies_of_relisted_scores(sender, player_ids: list[int], days: list, **kwargs):
    services.recount_tallies(player_ids, days)
