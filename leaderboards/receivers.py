"""The leaderboard hears about finished games through ``games.signals.game_finished``, sent
inside the finishing transaction (games never imports leaderboards: docs/design.md,
"Dependencies")."""

from __future__ import annotations

from django.dispatch import receiver

from games.models import Game
from games.signals import daily_started, game_finished
from leaderboards import services


@receiver(game_finished, dispatch_uid="leaderboards.record_score")
def record_score_of_finished_game(sender, game: Game, **kwargs) -> None:
    """A finished daily gets its score; practice games never rank."""
    if game.ranked:
        services.record_score(game)


@receiver(daily_started, dispatch_uid="leaderboards.link_attempt")
def link_started_daily(sender, game: Game, **kwargs) -> None:
    """A new daily attempt is linked to other identities' attempts from its address or
    browser (scouting, leaderboards.flags)."""
    services.link_attempt(game)
