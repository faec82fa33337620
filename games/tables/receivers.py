"""A table hears that its game is over through ``games.signals.game_finished`` (games never
imports its tables), so its lobby offers the host "Play again" as it happens; and that someone
sitting at it chose a new name (``games.players.signals.player_renamed``), so every screen at
the table shows it."""

from __future__ import annotations

from django.dispatch import receiver

from games.models import Game
from games.players.models import Player
from games.players.signals import player_renamed
from games.signals import game_finished
from games.tables import services


@receiver(game_finished, dispatch_uid="tables.game_over")
def tell_the_table_its_game_is_over(sender, game: Game, **kwargs) -> None:
    services.game_over(game)


@receiver(player_renamed, dispatch_uid="tables.renamed")
def tell_the_tables_of_a_new_name(sender, player: Player, **kwargs) -> None:
    services.renamed(player)
