"""Tables for friends (docs/design.md, "Tables for friends"): a lobby where two to four people
sit down from a link or a short code and start practice games together, bots of the table's
level in the empty seats. Written by games.tables.services only."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.lists import DEFAULT_TURN_SECONDS
from games.models import Game
from games.players.models import Player
from games.web.codes import new_code

NAME_MIN_CHARS, NAME_MAX_CHARS = 2, 40
# 32^12 = 2^60 codes, three groups of four: hopeless to guess at the most a client may try
# (settings.THROTTLE_RATES["table_codes_day"]), as a league's (docs/api.md).
CODE_CHARS = 12
SEATS = 4


def new_table_id() -> str:
    return secrets.token_urlsafe(12)  # 16 characters, 96 bits


def new_table_code() -> str:
    return new_code(CODE_CHARS)


class TableQuerySet(models.QuerySet):
    def of(self, player: Player) -> TableQuerySet:
        """The open tables ``player`` sits at."""
        return self.filter(seats__player=player).exclude(status=Table.CLOSED)


class Table(models.Model):
    # LOBBY: people sit down; PLAYING: its game runs or is over ("play again" starts the
    # next); CLOSED: everyone left.
    LOBBY, PLAYING, CLOSED = "lobby", "playing", "closed"
    STATUSES = [(LOBBY, "lobby"), (PLAYING, "playing"), (CLOSED, "closed")]

    public_id = models.CharField(max_length=16, unique=True, default=new_table_id,
                                 editable=False)
    name = models.CharField(max_length=NAME_MAX_CHARS)
    code = models.CharField(max_length=CODE_CHARS, unique=True, default=new_table_code,
                            editable=False)
    host = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="hosted_tables")
    level = models.CharField(max_length=10, choices=Game.LEVELS, default="normal")
    # Each person's time for a turn in the table's games (None: no timer), one of
    # games.lists.TURN_SECONDS as the services check: no ``choices`` here, which would copy
    # that list into a migration each time a choice is added.
    turn_seconds = models.PositiveSmallIntegerField(
        null=True, blank=True, default=DEFAULT_TURN_SECONDS)
    status = models.CharField(max_length=10, choices=STATUSES, default=LOBBY)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")  # the table's latest game
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TableQuerySet.as_manager()

    def __str__(self) -> str:
        return f"table {self.public_id}"


class TableSeat(models.Model):
    """A person sitting at a table: seat ``number`` (0-3) in its games."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="table_seats")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_seat_unique_number"),
            models.UniqueConstraint(fields=["table", "player"], name="tables_one_seat_a_player"),
            models.CheckConstraint(condition=Q(number__lt=SEATS), name="tables_seat_number_0_3"),
        ]
        indexes = [models.Index(fields=["player", "table"], name="tables_seat_player")]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.table_id}, seat {self.number}"
