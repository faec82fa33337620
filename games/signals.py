"""Signals games send; other apps listen (games never imports them: docs/design.md, "Dependencies").

``game_finished(sender=Game, game=<Game>)`` is sent inside the transaction that finishes the
game, after its result fields are saved: a receiver that writes (the leaderboard's score)
commits or rolls back with the game.

``daily_started(sender=Game, game=<Game>)`` is sent inside the transaction that creates a
player's attempt at a daily (its ``address_hash`` and ``device_hash`` set): the leaderboard
links it to other identities' attempts from the same address or browser (leaderboards.flags).
"""

from django.dispatch import Signal

game_finished = Signal()
daily_started = Signal()
