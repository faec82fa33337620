"""Django admin for players and games. Games are read-only here: only games.services writes
them; a finished game shows its replay. Moderation (bans, names, scores) is added by
leaderboards.admin, which logs every action."""

import json

from django.contrib import admin
from django.utils.html import format_html

from games import services
from games.models import DailyDeal, Game, GameAction, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "public_id", "user", "created_at", "last_seen_at", "banned_at"]
    search_fields = ["name", "public_id", "user__username"]
    list_filter = ["banned_at"]
    readonly_fields = ["public_id", "token_hash", "cookie_epoch", "created_at", "last_seen_at"]


class GameActionInline(admin.TabularInline):
    model = GameAction
    fields = ["index", "seat", "action", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["public_id", "owner", "mode", "level", "status", "version", "contracts",
                    "penalty", "place", "created_at"]
    list_filter = ["mode", "level", "status"]
    search_fields = ["public_id", "owner__name", "owner__public_id"]
    exclude = ["state"]  # holds hidden cards and the seed's consequences; see the replay
    inlines = [GameActionInline]

    def get_readonly_fields(self, request, obj=None):
        return [*(f.name for f in Game._meta.fields if f.name != "state"), "replay"]

    @admin.display(description="replay")
    def replay(self, game: Game):
        """Everything about a finished game (seed, every hand, every action), as the owner's
        GET /games/{id}/replay shows it, and under the same condition: a daily's opens when
        its day has ended, so not even staff see a running day's seed."""
        try:
            replay = services.replay_of(game)
        except services.ReplayUnavailable as exc:
            return str(exc)
        return format_html("<pre style=\"max-height: 40em; overflow: auto\">{}</pre>",
                           json.dumps(replay, indent=1))

    def has_add_permission(self, request):
        return False


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ["date", "commitment", "revealed_at"]
    exclude = ["seed"]
    readonly_fields = ["date", "commitment", "created_at", "revealed_at"]
