"""Tables in the admin, read-only: who sits where and the table's latest game. The join code
is a secret like a seed: never shown, searched, filtered or ordered by."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin, keep_secret
from games.tables.models import Table, TableSeat

keep_secret(Table, "code")


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    fields = ["number", "player", "joined_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "name", "host", "level", "status",
                    "created_at"]
    list_filter = ["status", "level"]
    search_fields = ["public_id", "name", "host__name"]
    fields = ["public_id", "name", "host", "level", "turn_seconds", "status", "game",
              "created_at", "updated_at"]
    readonly_fields = fields
    inlines = [TableSeatInline]
