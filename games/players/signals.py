"""Signals games.players sends; the apps above it listen (players never imports them).

``player_renamed(sender=Player, player=<Player>)`` is sent by games.players.services inside
the write that changed the player's display name: the tables they sit at tell their sockets
after commit, so everyone there sees the new name (games.tables.receivers).
"""

from django.dispatch import Signal

player_renamed = Signal()
