"""Game, Seat, GameAction, DailyDeal (docs/design.md, "The apps"; players are games.players').

A game is (engine version, seed, actions): ``GameAction`` rows are the source of truth and
``Game.state`` is a cache of ``replay(seed, actions)``, rewritten with every action by
:mod:`games.services`, the only code that writes games. The snapshot holds every hidden card
(R25): it never leaves the server; clients see ``player_view`` through the API.
"""

from __future__ import annotations

import json
import secrets

import orjson
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from games import bots
from games.engine import GameState
from games.players.models import Player

# A game started alone (every daily, every practice game) seats its owner here (R1).
SOLO_SEAT = 0


class OrjsonEncoder(json.JSONEncoder):
    """A JSONField's ``encoder`` (Django's documented option, a ``json.JSONEncoder``) that
    writes with orjson (already the API's renderer) through ``encode``, the encoder's
    documented entry point: a library for a library, no code of ours parses JSON. The game's
    snapshot is written with every action and read with every action and read of a game:
    a snapshot written and read 7.2 µs, 22.9 µs by ``json``, 0.2-0.6 % of an action's CPU
    (``bench.parts``, which CI runs); issue 40 counted 7.55 -> 7.18 M instructions an action
    (-4.9 %, ``bench.action_instructions``). Under the tenth a replacement must earn: kept for
    now, its place to be weighed again (a replay reads every log row through it; docs/design.md,
    "Hand-made parts, and why"). Non-string keys are written as strings, as by the standard
    library."""

    def encode(self, o) -> str:
        return orjson.dumps(o, option=orjson.OPT_NON_STR_KEYS).decode()


class OrjsonDecoder(json.JSONDecoder):
    """A JSONField's ``decoder`` (a ``json.JSONDecoder``; ``json.loads`` calls its
    documented ``decode``) that reads with orjson: see :class:`OrjsonEncoder`."""

    def decode(self, s, *args):
        return orjson.loads(s)


def new_game_id() -> str:
    return secrets.token_urlsafe(16)  # 22 characters, 128 bits: unguessable


class DailyDeal(models.Model):
    """The day's shared seed (R26): secret while the day runs, its SHA-256 public from the
    start, revealed after the day ends. Services and endpoints come with the daily."""

    date = models.DateField(unique=True)
    seed = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)  # sha256(seed), hex
    created_at = models.DateTimeField(default=timezone.now)
    revealed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"daily {self.date}"


class GameQuerySet(models.QuerySet):
    def of(self, player: Player) -> GameQuerySet:
        """The games ``player`` sits at, each with that player's seat and result
        (``seat_number``, ``seat_contracts``, ``seat_penalty``, ``seat_place``)."""
        return self.filter(seats__player=player).annotate(
            seat_number=F("seats__number"), seat_contracts=F("seats__contracts"),
            seat_penalty=F("seats__penalty"), seat_place=F("seats__place"))

    def finished(self) -> GameQuerySet:
        return self.filter(status=Game.FINISHED)

    def with_deal(self) -> GameQuerySet:
        """Each game's current deal (1-10) as ``deal``, read from the state column by the
        database, so a list can defer the state itself."""
        return self.annotate(deal=Cast(KT("state__deal"), models.PositiveSmallIntegerField()))


class Game(models.Model):
    PRACTICE, DAILY = "practice", "daily"
    MODES = [(PRACTICE, "practice"), (DAILY, "daily")]
    LEVELS = [(level, level) for level in bots.LEVELS]  # the bots say which levels exist
    # EXPIRED: a daily still unfinished when its day ended, closed by games.daily (not ranked).
    ACTIVE, FINISHED, EXPIRED = "active", "finished", "expired"
    STATUSES = [(ACTIVE, "active"), (FINISHED, "finished"), (EXPIRED, "expired")]

    public_id = models.CharField(max_length=24, unique=True, default=new_game_id,
                                 editable=False)
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="games")
    mode = models.CharField(max_length=10, choices=MODES, default=PRACTICE)
    level = models.CharField(max_length=10, choices=LEVELS, default="normal")
    daily = models.ForeignKey(DailyDeal, null=True, blank=True, on_delete=models.PROTECT,
                              related_name="games")
    seed = models.CharField(max_length=64, editable=False)
    engine_version = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=ACTIVE)
    version = models.PositiveIntegerField(default=0)  # actions applied == len(actions)
    # GameState.to_json(): a cache of replay(seed, actions)
    state = models.JSONField(encoder=OrjsonEncoder, decoder=OrjsonDecoder)
    # R23, the owner's result, set when the game finishes (each person's is on their Seat;
    # a daily's, which ranks, is read from here):
    contracts = models.PositiveSmallIntegerField(null=True, blank=True)
    penalty = models.PositiveIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A daily's client address, keyed-hashed per day (games.daily.address_hash), so moderation
    # can see many identities playing from one address without keeping the address itself.
    address_hash = models.CharField(max_length=32, blank=True, default="", editable=False)
    # The same for the browser's device cookie (games.players.identity.DEVICE_COOKIE), which
    # outlives the identities a browser holds: two identities of one browser on one daily
    # compare equal.
    device_hash = models.CharField(max_length=32, blank=True, default="", db_default="",
                                   editable=False)

    # The turn timer of a table's game (seconds, None: none; a game played alone has none),
    # and when the turn of the person to move runs out (None: no timer runs). Written with
    # the snapshot and the version by games.services, which plays an overdue turn once.
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # The break between deals of a game with a timer: until then people read the last deal's
    # results, and a turn that starts in it is timed from its end (games.services.timers).
    # Ended early once every person present has closed the results (POST /games/{id}/ready).
    break_until = models.DateTimeField(null=True, blank=True)
    # The name of the table for friends the game was started at, as it was then ("": a game
    # played alone, or started before 2026-12-06): a table's later games replace Table.game,
    # so the game keeps the name its header, lists and replay show.
    table_name = models.CharField(max_length=40, blank=True, default="", db_default="",
                                  editable=False)

    objects = GameQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "daily"], condition=Q(daily__isnull=False),
                                    name="games_one_daily_per_player"),
            models.CheckConstraint(
                condition=Q(mode="practice", daily__isnull=True)
                | Q(mode="daily", daily__isnull=False),
                name="games_daily_mode_has_a_daily"),
        ]
        indexes = [models.Index(fields=["owner", "-created_at"], name="games_owner_recent"),
                   models.Index(fields=["daily", "address_hash"], name="games_daily_address"),
                   models.Index(fields=["daily", "device_hash"], name="games_daily_device"),
                   # The sweep of overdue turns reads only the games whose timer runs.
                   models.Index(fields=["turn_deadline"], name="games_turn_deadline",
                                condition=Q(turn_deadline__isnull=False))]

    def __str__(self) -> str:
        return f"{self.mode} game {self.public_id}"

    @property
    def finished(self) -> bool:
        return self.status == self.FINISHED

    @property
    def ranked(self) -> bool:
        return self.mode == self.DAILY

    def load_state(self) -> GameState:
        return GameState.from_json(self.state)


class Seat(models.Model):
    """A person's place at a game (R1): seat ``number`` (0-3) is played by ``player``. A seat
    with no row, or whose person left for good (``left_at``), is a computer player of the
    game's level. Written by games.services only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="seats")
    # R23, this person's result, set when the game finishes:
    contracts = models.PositiveSmallIntegerField(null=True, blank=True)
    penalty = models.PositiveIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # The person's turns in a row that their timer ran out on (games.services: two make the
    # seat "away"); any action of theirs, or "I'm back", sets it back to 0.
    timeouts = models.PositiveSmallIntegerField(default=0, db_default=0)
    # The last deal whose break this person ended by closing the results (0: none yet).
    ready_deal = models.PositiveSmallIntegerField(default=0, db_default=0)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(fields=["game", "player"], name="games_seat_one_per_player"),
            models.CheckConstraint(condition=Q(number__lte=3), name="games_seat_number_0_3"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="games_seat_player")]

    def __str__(self) -> str:
        return f"{self.game_id} seat {self.number}: player {self.player_id}"


class GameAction(models.Model):
    """One applied action, in order: the log that ``replay`` rebuilds the game from."""

    # No index of its own: the unique (game, index) below serves every lookup by game, and the
    # log takes seven rows a turn.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions",
                             db_index=False)
    index = models.PositiveIntegerField()  # 0-based; the action leaves the game at index + 1
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(encoder=OrjsonEncoder, decoder=OrjsonDecoder)  # Action.to_json()
    created_at = models.DateTimeField(default=timezone.now)
    # Who chose it: True a bot (a computer player's seat, or a person's turn played for them:
    # their timer ran out, they were away or had left), False the seat's person; null for the
    # rows written before 2026-12-06, when only a leaving was known (Seat.left_at). The log
    # cannot tell otherwise: a timed-out turn is the seat's actions like any other. The
    # post-game review leaves the bots' moves out of a person's decisions.
    bot = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [models.UniqueConstraint(fields=["game", "index"],
                                               name="games_action_unique_index")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.index} seat {self.seat}: {self.action}"




class Analysis(models.Model):
    """The expert's review of one person's decisions in a game that is over, one per game and
    person seat (games.services.analysis writes it once; docs/api.md, "Replays"). ``data`` is
    the answer's ``analysis`` as it is stored: the count of decisions, those that agreed with
    the expert, the marks where they differed and the costliest of them; empty where
    ``failed`` (the expert failed on a view: logged, never retried on its own)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="analyses",
                             db_index=False)  # the unique (game, seat) serves every lookup
    seat = models.PositiveSmallIntegerField()
    failed = models.BooleanField(default=False)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"],
                                               name="games_analysis_one_per_seat")]

    def __str__(self) -> str:
        return f"analysis of {self.game_id} seat {self.seat}"
