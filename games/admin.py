"""Django admin for players and games. Games are read-only here: only games.services writes
them. Moderators may reset a player's display name to a fresh random one."""

from django.contrib import admin

from games.models import DailyDeal, Game, GameAction, Player
from games.names import random_name


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "public_id", "user", "created_at", "last_seen_at", "banned_at"]
    search_fields = ["name", "public_id", "user__username"]
    list_filter = ["banned_at"]
    readonly_fields = ["public_id", "token_hash", "cookie_epoch", "created_at", "last_seen_at"]
    actions = ["reset_name"]

    @admin.action(description="Reset the display name to a random one")
    def reset_name(self, request, queryset):
        for player in queryset:
            player.name = random_name()
            player.save(update_fields=["name"])


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
        return [f.name for f in Game._meta.fields if f.name != "state"]

    def has_add_permission(self, request):
        return False


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ["date", "commitment", "revealed_at"]
    exclude = ["seed"]
    readonly_fields = ["date", "commitment", "created_at", "revealed_at"]
