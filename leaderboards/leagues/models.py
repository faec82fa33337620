"""Friend leagues (docs/api.md, "Friend leagues"): a private daily board that friends join
from a link or a short code, with no account needed.

``League``
    A name (2-40 characters, the same text rules as a player's name: games.players.names), a join
    code (``code``, renewable: the old one stops working at once), a creator who may rename
    it, remove members, renew the code and delete it. ``public_id`` is what URLs and the API
    name (unguessable, as a game's id); ``pk`` is only shown as "League #n" when a moderator
    hid the name.
``Membership``
    One player in one league (unique: joining twice is refused, and two joins racing make one
    row). A player belongs to at most ``LEAGUES_PER_PLAYER_MAX`` leagues, a league holds at
    most ``MEMBERS_MAX`` players (leaderboards.leagues.services checks both under row locks).
``LeagueModerationLog``
    What moderators did to leagues (hide or restore a name, delete a league), with reason,
    moderator and time, never edited: the same record leaderboards.models.ModerationLog keeps of
    scores and players. A separate table because a league's log must outlive the league and
    names no player.

``LeagueTally``
    A member's all-time figures in a league up to ``through``, the last day whose dailies can
    no longer change (leaderboards.leagues.boards.closed_day): dailies, contracts, the sum of
    places among the members, the longest streak and the streak that ends on ``through``. The
    boards add the few days after it, so a league's page reads the same few rows however old
    the league is. Written again from every score whenever what they count changes (a member
    joins or leaves) and carried forward day by day (leaderboards.leagues.tasks); a league
    with none counts every day from its scores. No score can come for a day the tallies
    count: a daily is refused once its day has ended (games.services.act).
``TallyRecount``
    A moderation took scores off the boards or put them back that some league's tallies may
    count: until a recount that saw the moderation removes it, the boards ignore that
    league's tallies. Written in the moderation's transaction, so the mark cannot be lost,
    whichever writer counted from scores read before the moderation committed.

Every row is written by leaderboards.leagues.services only; the boards are read in
leaderboards.leagues.boards.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.players.models import Player
from games.web import codes

NAME_MIN_CHARS = 2
NAME_MAX_CHARS = 40
MEMBERS_MAX = 100
LEAGUES_PER_PLAYER_MAX = 20
# 32^12 = 2^60 codes, read aloud as three groups of four: guessed at the most a client may
# try (settings.THROTTLE_RATES["league_codes_day"]), hopeless (docs/api.md, "Friend leagues").
CODE_CHARS = 12


def new_league_id() -> str:
    return secrets.token_urlsafe(12)  # 16 characters, 96 bits


def new_code() -> str:
    return codes.new_code(CODE_CHARS)


def normalise_code(raw: str) -> str | None:
    """The code a person typed or a link carried, or None if it cannot be one."""
    return codes.normalise_code(raw, CODE_CHARS)


class LeagueQuerySet(models.QuerySet):
    def of(self, player: Player) -> LeagueQuerySet:
        """The leagues ``player`` belongs to (nobody sees any other)."""
        return self.filter(memberships__player=player)


class League(models.Model):
    public_id = models.CharField(max_length=24, unique=True, default=new_league_id,
                                 editable=False)
    name = models.CharField(max_length=NAME_MAX_CHARS)
    name_hidden_at = models.DateTimeField(null=True, blank=True)  # by a moderator
    code = models.CharField(max_length=CODE_CHARS, unique=True, default=new_code)
    code_changed_at = models.DateTimeField(default=timezone.now)
    creator = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL,
                                related_name="created_leagues")
    created_at = models.DateTimeField(default=timezone.now)

    objects = LeagueQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.shown_name} ({self.public_id})"

    @property
    def name_hidden(self) -> bool:
        return self.name_hidden_at is not None

    @property
    def shown_name(self) -> str:
        """The name members see: "League #n" while a moderator hides the real one (pages
        translate it from ``name_hidden`` and ``pk``)."""
        return f"League #{self.pk}" if self.name_hidden else self.name


class Membership(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE,
                               related_name="league_memberships")
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "player"],
                                               name="leagues_one_membership_per_player")]
        indexes = [models.Index(fields=["player", "league"], name="memberships_by_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.league_id}"


class LeagueTally(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tallies")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    through = models.DateField()
    dailies = models.PositiveIntegerField()
    contracts = models.PositiveIntegerField()
    places = models.PositiveIntegerField()  # summed: the average place is places / dailies
    longest_streak = models.PositiveIntegerField()
    streak = models.PositiveIntegerField()  # the run of days that ends on ``through``

    class Meta:
        constraints = [models.UniqueConstraint(fields=["league", "player"],
                                               name="leagues_one_tally_per_member")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.league_id} through {self.through}"


class TallyRecount(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="recounts")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"recount {self.league_id} ({self.created_at:%Y-%m-%d %H:%M})"


class LeagueModerationLog(models.Model):
    HIDE_NAME, RESTORE_NAME, DELETE = "hide_name", "restore_name", "delete"
    ACTIONS = [(HIDE_NAME, "hide league name"), (RESTORE_NAME, "restore league name"),
               (DELETE, "delete league")]

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                  on_delete=models.SET_NULL, related_name="league_moderation")
    moderator_name = models.CharField(max_length=150)  # kept if the account goes
    action = models.CharField(max_length=12, choices=ACTIONS)
    league = models.ForeignKey(League, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="moderation_logs")
    league_number = models.BigIntegerField()  # kept after a delete: "League #n"
    league_name = models.CharField(max_length=NAME_MAX_CHARS)
    reason = models.TextField()
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator_name}: {self.action}"
