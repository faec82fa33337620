"""Leagues in Django admin (issue 31): every league with its creator, members and name; hide or
restore a name (members then see "League #n"), or delete a league, each with a reason typed
into the action bar, logged in :class:`~leaderboards.leagues.models.LeagueModerationLog`
(read-only here). Never its join code: a secret to every admin, as a day's seed is.

Every action calls :mod:`leaderboards.leagues.services`. Nothing is edited by hand: the change
page is read-only, and Django's own delete is replaced by the logged one. The members' scores belong
to the public boards and are moderated there (leaderboards.admin): a banned player's scores
are already off every league's board.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.admin import KeepsSecretsAdmin, ReadOnlyAdmin, keep_secret
from leaderboards.admin import ReasonForm, moderation_log, reason_action
from leaderboards.leagues import services
from leaderboards.leagues.models import League, LeagueModerationLog, Membership

MEMBERS_LISTED_MAX = 100  # a league's whole membership fits (models.MEMBERS_MAX)

# A join code lets anyone in, as the seed deals every hand: never filtered, searched, ordered
# or shown, by any admin, through any relation (``?code__lt=`` read one in 40 requests).
keep_secret(League, "code")


def _player_link(player) -> str:
    url = reverse("admin:games_player_change", args=[player.pk])
    banned = " (banned)" if player.banned_at else ""
    return format_html('<a href="{}">{}</a>{}', url, player.name, banned)


@admin.register(League)
class LeagueAdmin(KeepsSecretsAdmin):
    list_display = ["pk", "name", "name_hidden_at", "creator_link", "member_count",
                    "created_at"]
    list_filter = [("name_hidden_at", admin.EmptyFieldListFilter)]
    list_select_related = ["creator"]
    search_fields = ["name", "public_id", "creator__name", "creator__public_id",
                     "memberships__player__name", "memberships__player__public_id"]
    ordering = ["-created_at", "-id"]
    action_form = ReasonForm
    actions = ["hide_name", "restore_name", "delete_leagues"]
    readonly_fields = ["pk", "public_id", "name", "name_hidden_at", "creator_link",
                       "member_count", "member_list", "created_at", "code_changed_at", "log"]
    fields = readonly_fields

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            members_counted=Count("memberships", distinct=True))

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # deleting goes through the logged action
        return actions

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="creator")
    def creator_link(self, league: League):
        return _player_link(league.creator) if league.creator_id else "-"

    @admin.display(description="members", ordering="members_counted")
    def member_count(self, league: League):
        return league.members_counted

    @admin.display(description="members (in order of joining)")
    def member_list(self, league: League):
        rows = (Membership.objects.filter(league=league).select_related("player")
                .order_by("joined_at", "id")[:MEMBERS_LISTED_MAX])
        return format_html_join(mark_safe("<br>"), "{} (joined {})",
                                ((_player_link(row.player), f"{row.joined_at:%Y-%m-%d}")
                                 for row in rows))

    @admin.display(description="moderation log")
    def log(self, league: League):
        return moderation_log(league.moderation_logs.all())

    hide_name = reason_action(
        services.hide_name, "Names hidden",
        "Hide the name: members see 'League #n' (reason required)")
    restore_name = reason_action(services.restore_name, "Names restored",
                                 "Restore the name (reason required)")
    delete_leagues = reason_action(services.delete_by_moderator, "Deleted",
                                   "Delete the league (reason required, logged)")


@admin.register(LeagueModerationLog)
class LeagueModerationLogAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "moderator_name", "action", "league_number", "league_name",
                    "reason"]
    list_filter = ["action"]
    search_fields = ["league_name", "moderator_name", "reason"]
    readonly_fields = ["created_at", "moderator_name", "action", "league", "league_number",
                       "league_name", "reason", "details"]
    fields = readonly_fields
