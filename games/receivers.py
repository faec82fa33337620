"""Games hear their own ``game_finished`` here: a practice game that ends queues its post-game
analysis after the finishing transaction commits (a daily's waits for its day to end: the
hourly sweep in games.tasks queues it then)."""

from django.db import transaction
from django.dispatch import receiver

from games.models import Game
from games.signals import game_finished
from games.tasks import analyse_game


@receiver(game_finished, dispatch_uid="games.analyse_when_over")
def analyse_when_over(sender, game: Game, **kwargs) -> None:
    if game.mode != Game.PRACTICE:
        return
    public_id = game.public_id

    def queue_analysis() -> None:  # named: Django logs a robust callback's failure by name
        analyse_game.delay(public_id)

    transaction.on_commit(queue_analysis, robust=True)
