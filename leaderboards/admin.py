"""Moderation in Django admin (README, "How to play": moderation): scores, linked attempts, players
and the log.

The flag queue is the score list filtered to "flagged, needs review"; "linked attempts,
unresolved" shows the clusters of identities that played one daily from one address or
browser (leaderboards.flags), each score with links to the attempts it is linked to. The
"Linked attempts" list shows every link, finished or not (a scout need not finish).

Every action calls :mod:`leaderboards.services` (the same code any other caller would use),
needs a reason typed into the "Reason" box next to the action menu, and writes a
:class:`~leaderboards.models.ModerationLog` row per object. Nothing here deletes: scores are
hidden and restored, players banned from the boards and unbanned, names reset.

Every admin here is a :class:`games.admin.KeepsSecretsAdmin`: no filter, search or ordering
reaches a game's seed or state through a relation. Only staff reach the admin; a moderator
needs the model permissions that ``manage.py create_moderator`` grants (superusers have them
all).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.admin import KeepsSecretsAdmin, PlayerAdmin, ReadOnlyAdmin
from games.models import Game
from games.players.models import Player
from leaderboards import services
from leaderboards.models import AttemptLink, ModerationLog, Score


class ReasonForm(ActionForm):
    """The action bar with a reason: every moderation action is logged with one."""

    reason = forms.CharField(required=False, label="Reason",
                             widget=forms.TextInput(attrs={"size": 40,
                                                           "placeholder": "why (logged)"}))


def run_with_reason(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet,
                    service, done: str) -> None:
    """Apply ``service(obj, moderator, reason)`` to each selected object and report: the
    admin actions of moderation, with the reason typed into the action bar (ReasonForm)."""
    reason = request.POST.get("reason", "").strip()
    if not reason:
        modeladmin.message_user(request, "Nothing done: give a reason (it goes into the "
                                         "moderation log).", messages.ERROR)
        return
    selected = list(queryset)  # read once: a service may delete what it is given
    changed = sum(1 for obj in selected if service(obj, request.user, reason))
    skipped = len(selected) - changed
    note = f" ({skipped} already so)" if skipped else ""
    modeladmin.message_user(request, f"{done}: {changed}{note}.", messages.SUCCESS)


def reason_action(service, done: str, description: str):
    """An admin action (run_with_reason) that applies ``service`` to the selected objects;
    ``done`` heads its report, ``description`` is its label in the action bar."""
    @admin.action(description=description, permissions=["change"])
    def action(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
        run_with_reason(modeladmin, request, queryset, service, done)
    return action


def moderation_log(rows) -> str:
    """A score's, a player's or a league's moderation log, one line an entry."""
    return "\n".join(f"{r.created_at:%Y-%m-%d %H:%M} {r.moderator_name} {r.action}: "
                     f"{r.reason}" for r in rows) or "-"


class ReviewFilter(admin.SimpleListFilter):
    title = "review"
    parameter_name = "review"

    def lookups(self, request, model_admin):
        return [("needed", "flagged, needs review"),
                ("linked", "linked attempts, unresolved"), ("flagged", "ever flagged"),
                ("hidden", "hidden"), ("banned", "player banned")]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "needed":
            return queryset.flagged()
        if value == "linked":
            return queryset.filter(linked=True)
        if value == "flagged":
            return queryset.exclude(flags=[])
        if value == "hidden":
            return queryset.filter(hidden_at__isnull=False)
        if value == "banned":
            return queryset.filter(player__banned_at__isnull=False)
        return queryset


@admin.register(Score)
class ScoreAdmin(KeepsSecretsAdmin):
    list_display = ["day", "player_link", "contracts", "penalty", "place", "finished_at",
                    "play_seconds", "listed", "hidden_at", "flagged", "flag_list",
                    "linked_attempts", "game_link"]
    list_filter = [ReviewFilter, "listed", "day"]
    list_select_related = ["player", "game"]
    search_fields = ["player__name", "player__public_id", "game__public_id"]
    date_hierarchy = "day"
    ordering = ["-day", "-contracts", "penalty", "finished_at"]
    action_form = ReasonForm
    actions = ["hide", "restore", "mark_reviewed"]
    readonly_fields = ["game_link", "player_link", "day", "week", "contracts", "penalty",
                       "place", "finished_at", "play_seconds", "person_actions", "listed",
                       "hidden_at", "flag_list", "flagged", "linked_attempts", "created_at",
                       "log"]
    fields = readonly_fields

    def get_queryset(self, request):
        # The linked attempts column, for a page of scores in two queries, not two a row.
        return super().get_queryset(request).prefetch_related(
            Prefetch("game__links_as_earlier",
                     AttemptLink.objects.select_related("later__owner", "later__score")),
            Prefetch("game__links_as_later",
                     AttemptLink.objects.select_related("earlier__owner", "earlier__score")))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # moderation hides, never deletes

    @admin.display(description="player")
    def player_link(self, score: Score):
        url = reverse("admin:games_player_change", args=[score.player_id])
        banned = " (banned)" if score.player.banned_at else ""
        return format_html('<a href="{}">{}</a>{}', url, score.player.name, banned)

    @admin.display(description="game and replay")
    def game_link(self, score: Score):
        url = reverse("admin:games_game_change", args=[score.game_id])
        return format_html('<a href="{}">{}</a>', url, score.game.public_id)

    @admin.display(description="flags")
    def flag_list(self, score: Score):
        return "; ".join(score.flag_labels()) or "-"

    @admin.display(description="linked attempts")
    def linked_attempts(self, score: Score):
        """The other attempts this score's game is linked to: their scores when they have
        one, else their games (a scout may not finish)."""
        return attempt_links(score.game) or "-"

    @admin.display(description="moderation log")
    def log(self, score: Score):
        return moderation_log(score.moderation_logs.all())

    hide = reason_action(services.hide_score, "Hidden",
                         "Hide from the boards (reason required)")
    restore = reason_action(services.restore_score, "Restored",
                            "Restore to the boards (reason required)")
    mark_reviewed = reason_action(services.mark_reviewed, "Marked reviewed",
                                  "Mark flags reviewed, leave listed (reason required)")


def attempt_links(game: Game):
    """Links to the attempts linked with a game (unresolved ones first, what is shared)."""
    links = sorted([*game.links_as_earlier.all(), *game.links_as_later.all()],
                   key=lambda link: (link.resolved, link.id))
    parts = []
    for link in links:
        other = link.later if link.earlier_id == game.pk else link.earlier
        state = "resolved" if link.resolved else "unresolved"
        parts.append(format_html('<a href="{}">{}</a> (same {}, {})', _attempt_url(other),
                                 other.owner.name, link.shared(), state))
    return format_html_join(mark_safe("<br>"), "{}", ((part,) for part in parts))


def _attempt_url(game: Game) -> str:
    score = getattr(game, "score", None)  # None: the reverse one-to-one has no row
    if score is not None:
        return reverse("admin:leaderboards_score_change", args=[score.pk])
    return reverse("admin:games_game_change", args=[game.pk])


@admin.register(AttemptLink)
class AttemptLinkAdmin(KeepsSecretsAdmin):
    """Pairs of identities' attempts at one daily from one address or browser."""

    list_display = ["day", "earlier_attempt", "later_attempt", "same_address", "same_device",
                    "created_at", "resolved_at", "resolved_by"]
    list_filter = [("resolved_at", admin.EmptyFieldListFilter), "same_device", "day"]
    list_select_related = ["earlier__owner", "later__owner", "earlier__score", "later__score"]
    search_fields = ["earlier__owner__public_id", "later__owner__public_id",
                     "earlier__public_id", "later__public_id"]
    date_hierarchy = "day"
    action_form = ReasonForm
    actions = ["resolve"]
    readonly_fields = ["day", "earlier_attempt", "later_attempt", "same_address",
                       "same_device", "created_at", "resolved_at", "resolved_by"]
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="earlier attempt")
    def earlier_attempt(self, link: AttemptLink):
        return self._attempt(link.earlier)

    @admin.display(description="later attempt")
    def later_attempt(self, link: AttemptLink):
        return self._attempt(link.later)

    def _attempt(self, game: Game):
        return format_html('<a href="{}">{}</a> ({})', _attempt_url(game), game.owner.name,
                           game.get_status_display())

    resolve = reason_action(services.resolve_link, "Resolved",
                            "Resolve: stop marking both attempts (reason required)")


@admin.register(ModerationLog)
class ModerationLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "moderator_name", "action", "player", "score", "reason"]
    list_filter = ["action", "moderator_name"]
    list_select_related = ["player", "score"]
    search_fields = ["player__name", "player__public_id", "moderator_name", "reason"]
    date_hierarchy = "created_at"


admin.site.unregister(Player)


@admin.register(Player)
class ModeratedPlayerAdmin(PlayerAdmin):
    """Games' player admin, with the name and the ban changed only through logged actions."""

    list_display = [*PlayerAdmin.list_display, "scores_link"]
    readonly_fields = [*PlayerAdmin.readonly_fields, "name", "banned_at"]
    action_form = ReasonForm
    actions = ["ban", "unban", "reset_name"]

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="scores")
    def scores_link(self, player: Player):
        url = reverse("admin:leaderboards_score_changelist")
        return format_html('<a href="{}?q={}">scores</a>', url, player.public_id)

    ban = reason_action(services.ban_player, "Banned", "Ban from the boards (reason required)")
    unban = reason_action(services.unban_player, "Unbanned", "Unban (reason required)")
    reset_name = reason_action(services.reset_name, "Renamed",
                               "Reset the display name to a random one (reason required)")
