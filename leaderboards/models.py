"""Scores, the boards built from them, and the moderation log (docs/design.md, "The apps").

``Score``
    One per finished ranked game (a daily), written only by
    :func:`leaderboards.services.record_score` from the game's own result (R23) inside the
    transaction that finishes the game; a client never submits a number. Moderation hides a
    score (``hidden_at``) and never deletes it. ``listed`` is "on the boards": not hidden and
    its player not banned. It is kept by the services so that the board's partial index
    holds exactly the rows a board shows.
``WeekScore``
    A player's sum over one ISO week's listed daily scores (derived data, rebuilt by the
    services whenever one of those scores changes): it exists only while it has a listed day.
``ContractTally`` and ``Tally``
    How many listed entries a board has with each number of contracts, and with each
    (contracts, penalty) pair. A rank is the number of entries strictly ahead plus one: the
    contract tallies above (at most ten rows), the pair tallies with the same contracts and
    fewer points (at most a few thousand rows, whatever the board's size), and the entries of
    the same pair that finished earlier (a short range of the board's index). No query counts
    the board's rows one by one.
``ModerationLog``
    Who did what to whom, why and when: one row per moderation action, never edited.
``AttemptLink``
    Two identities' attempts at one daily from the same client address or the same browser
    (leaderboards.flags): a possible scout and the attempt it served. Both are flagged until a
    moderator resolves the link; meanwhile the day's board marks their entries
    (``Score.linked``).

Ranking (R22): more contracts first, then fewer penalty points, then the earlier finish, then
the earlier recorded score (``id``) for the rare exact tie of timestamps.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from games.players.models import Player

# The order of a board, best first (R22), and the fields that hold it.
DAY_ORDER = ["-contracts", "penalty", "finished_at", "id"]
WEEK_ORDER = ["-contracts", "penalty", "reached_at", "id"]


def week_of(day: date) -> str:
    """The ISO week a day belongs to, as ``YYYY-Www`` (e.g. ``2026-W48``)."""
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


class ScoreQuerySet(models.QuerySet):
    def listed(self) -> ScoreQuerySet:
        """On the boards: not hidden by a moderator, player not banned."""
        return self.filter(listed=True)

    def for_day(self, day: date) -> ScoreQuerySet:
        return self.filter(day=day)

    def for_week(self, week: str) -> ScoreQuerySet:
        return self.filter(week=week)

    def ranked(self) -> ScoreQuerySet:
        return self.order_by(*DAY_ORDER)

    def flagged(self) -> ScoreQuerySet:
        """Waiting for a moderator's review."""
        return self.filter(flagged=True)


class Score(models.Model):
    TOO_FAST = "too_fast"
    SHARED_ADDRESS = "shared_address"
    LINKED = "linked_attempt"
    FLAGS = {
        TOO_FAST: "finished faster than a person could play it",
        SHARED_ADDRESS: "one of many identities playing this daily from one address",
        LINKED: "another identity played this daily from the same address or browser",
    }

    # A game with a score cannot be deleted on its own; deleting the player takes both.
    game = models.OneToOneField(Game, on_delete=models.RESTRICT, related_name="score")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="scores")
    day = models.DateField()  # the daily's date
    week = models.CharField(max_length=8)  # week_of(day)
    # R23, copied from the finished game:
    contracts = models.PositiveSmallIntegerField()
    penalty = models.PositiveIntegerField()
    place = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()
    play_seconds = models.PositiveIntegerField()  # from the start of the game to its end
    person_actions = models.PositiveIntegerField()
    listed = models.BooleanField(default=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    flags = models.JSONField(default=list, blank=True)  # keys of FLAGS
    flagged = models.BooleanField(default=False)  # has flags not yet reviewed
    # In an unresolved AttemptLink: the day's board marks the entry (kept by the services).
    linked = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(default=timezone.now)

    objects = ScoreQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "day"],
                                    name="leaderboards_one_score_per_player_day"),
        ]
        indexes = [
            # The day's board in order; also serves ranks within a (contracts, penalty) pair.
            models.Index(fields=["day", *DAY_ORDER], condition=Q(listed=True),
                         name="scores_day_board"),
            models.Index(fields=["player", "week"], name="scores_player_week"),
            models.Index(fields=["flagged", "-finished_at"], condition=Q(flagged=True),
                         name="scores_flagged"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} {self.day}: {self.contracts} contracts, {self.penalty} points"

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None

    def flag_labels(self) -> list[str]:
        return [self.FLAGS.get(flag, flag) for flag in self.flags]


class WeekScore(models.Model):
    """The week's board (README, "How to play": leaderboards): a player's listed dailies of one
    ISO week, summed. More contracts first, then fewer penalty points, then whoever reached
    the total first (``reached_at``, the finish of the latest day counted). A day not played
    adds nothing, so playing every day of the week is what climbs this board."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="week_scores")
    week = models.CharField(max_length=8)
    contracts = models.PositiveIntegerField()
    penalty = models.PositiveIntegerField()
    days = models.PositiveSmallIntegerField()
    reached_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "week"],
                                    name="leaderboards_one_week_score_per_player_week"),
        ]
        indexes = [models.Index(fields=["week", *WEEK_ORDER], name="week_scores_board")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.week}: {self.contracts}/{self.penalty}"


class Tally(models.Model):
    """Listed entries of one board (a day ``YYYY-MM-DD`` or a week ``YYYY-Www``) with one
    (contracts, penalty) pair."""

    board = models.CharField(max_length=10)
    contracts = models.PositiveIntegerField()
    penalty = models.PositiveIntegerField()
    entries = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "contracts", "penalty"],
                                    name="leaderboards_tally_unique_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.contracts}/{self.penalty}: {self.entries}"


class ContractTally(models.Model):
    """Listed entries of one board with one number of contracts."""

    board = models.CharField(max_length=10)
    contracts = models.PositiveIntegerField()
    entries = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "contracts"],
                                    name="leaderboards_contract_tally_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.contracts}: {self.entries}"


class ModerationLog(models.Model):
    HIDE, RESTORE, BAN, UNBAN, RESET_NAME, REVIEW = (
        "hide", "restore", "ban", "unban", "reset_name", "review")
    ACTIONS = [
        (HIDE, "hide score"), (RESTORE, "restore score"), (BAN, "ban player from boards"),
        (UNBAN, "unban player"), (RESET_NAME, "reset display name"),
        (REVIEW, "mark flags reviewed"),
    ]

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                  on_delete=models.SET_NULL, related_name="moderation_logs")
    moderator_name = models.CharField(max_length=150)  # kept if the account goes
    action = models.CharField(max_length=12, choices=ACTIONS)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="moderation_logs")
    score = models.ForeignKey(Score, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="moderation_logs")
    reason = models.TextField()
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["-created_at"], name="moderation_recent")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator_name}: {self.action}"


class AttemptLinkQuerySet(models.QuerySet):
    def unresolved(self) -> AttemptLinkQuerySet:
        return self.filter(resolved_at__isnull=True)

    def touching(self, game_ids) -> AttemptLinkQuerySet:
        return self.filter(Q(earlier__in=game_ids) | Q(later__in=game_ids))


class AttemptLink(models.Model):
    """Two identities' attempts at the same daily that share a client address or a browser
    (compared through the day's keyed hashes): the later one is flagged with the earlier, and
    the earlier with the later, until a moderator resolves the link."""

    day = models.DateField()
    earlier = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="links_as_earlier")
    later = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="links_as_later")
    same_address = models.BooleanField(default=False)
    same_device = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.CharField(max_length=150, blank=True, default="")

    objects = AttemptLinkQuerySet.as_manager()

    class Meta:
        ordering = ["-day", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["earlier", "later"],
                                               name="leaderboards_one_link_per_pair")]
        indexes = [models.Index(fields=["day", "resolved_at"], name="attempt_links_day")]

    def __str__(self) -> str:
        return f"{self.day}: game {self.earlier_id} and game {self.later_id}"

    @property
    def resolved(self) -> bool:
        return self.resolved_at is not None

    def shared(self) -> str:
        """What the two attempts share, in words."""
        return " and ".join(name for name, same in (("address", self.same_address),
                                                    ("browser", self.same_device)) if same)
