"""Signals games send; other apps listen (games never imports them, DESIGN §1).

``game_finished(sender=Game, game=<Game>)`` is sent inside the transaction that finishes the
game, after its result fields are saved: a receiver that writes (the leaderboard's score)
commits or rolls back with the game.
"""

from django.dispatch import Signal

game_finished = Signal()
