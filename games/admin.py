"""Django admin for players and games. Games are read-only here: only games.services writes
them; a finished game shows its replay. Moderation (bans, names, scores) is added by
leaderboards.admin, which logs every action.

Staff never reach a running day's seed or an unfinished game's state (R25), for
any role, superusers included, nor the log of a running day's daily or of a game still being
played (:func:`moves_hidden`: the actions inline is left off its page; GameAction has no admin
of its own, no export and no link): :class:`KeepsSecretsAdmin` (every admin of both apps) refuses a
filter, search field, ordering or ``_to_field`` whose path reaches a field of
:data:`SECRET_FIELDS`, even through relations (``?seed__startswith=``, ``?state__stock__0=``,
``?games__daily__seed=``: Django allows lookups on a model's own fields by default, which let a
moderator test the seed one character at a time), and leaves those columns out of the rows it
reads. Apps above games add their secrets with :func:`keep_secret` (a league's join code:
leaderboards.leagues.admin). A seed is shown only where the owner's replay would show it: a
deal's once its day has ended, a game's in its replay once that opens.
"""

import json

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP
from django.urls import reverse
from django.utils.html import format_html

from games import daily
from games.models import DailyDeal, Game, GameAction
from games.players.models import Player
from games.reads import replays

# Fields that tell hidden cards: the seed deals every hand and the stock; the state holds them.
# Apps above games add theirs with keep_secret (a league's join code).
SECRET_FIELDS: dict[type[Model], frozenset[str]] = {
    DailyDeal: frozenset({"seed"}),
    Game: frozenset({"seed", "state"}),
}


def keep_secret(model: type[Model], *fields: str) -> None:
    """Make ``fields`` of ``model`` secrets to every admin (called where the model's admin is
    registered, before any request)."""
    SECRET_FIELDS[model] = SECRET_FIELDS.get(model, frozenset()) | frozenset(fields)


def names_a_secret(model: type[Model], path: str) -> bool:
    """Whether a lookup or field path (``daily__seed__startswith``, ``state__stock__0``,
    ``^owner__name``) reaches a secret field, following relations both ways."""
    for part in path.lstrip("^=@-").split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or lookup name: the path ended on a plain field
        if field.name in SECRET_FIELDS.get(model, ()):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class KeepsSecretsAdmin(admin.ModelAdmin):
    """A ModelAdmin that cannot filter, search, sort or read by a secret field."""

    def lookup_allowed(self, lookup, value, request=None):
        if names_a_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def to_field_allowed(self, request, to_field):
        if names_a_secret(self.model, to_field):
            return False
        return super().to_field_allowed(request, to_field)

    def get_search_fields(self, request):
        return [f for f in super().get_search_fields(request)
                if not names_a_secret(self.model, f)]

    def get_sortable_by(self, request):
        return [f for f in super().get_sortable_by(request)
                if not (isinstance(f, str) and names_a_secret(self.model, f))]

    def get_ordering(self, request):
        return [f for f in super().get_ordering(request) or ()
                if not (isinstance(f, str) and names_a_secret(self.model, f))]

    def get_queryset(self, request):
        # Not even read: a page cannot show what it never loaded. The replay, which needs
        # the seed, loads it for the one game it is allowed for.
        secrets = SECRET_FIELDS.get(self.model)
        queryset = super().get_queryset(request)
        return queryset.defer(*secrets) if secrets else queryset


class ReadOnlyAdmin(KeepsSecretsAdmin):
    """A record staff read and never write here: no add, change or delete."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Player)
class PlayerAdmin(KeepsSecretsAdmin):
    list_display = ["name", "public_id", "user", "created_at", "last_seen_at", "banned_at"]
    search_fields = ["name", "public_id", "user__username"]
    list_filter = ["banned_at"]
    # Credentials are moved only by games.players.services (register, log in, transfer
    # codes), with their own checks: pointing a player at another account here would hand
    # that account the player's games and ranks.
    readonly_fields = ["public_id", "user", "token_hash", "cookie_epoch", "created_at",
                       "last_seen_at"]


def moves_hidden(game: Game) -> bool:
    """Whether a game's log is kept from staff: a daily's while its day runs (copying a top
    score's moves reproduces it), any other game's while it is played (its moves tell its
    hands). A daily's day decides, not its status: an expired attempt is moderated as a
    finished one."""
    if game.daily_id is not None:
        return not daily.day_has_ended(game)
    return game.status == Game.ACTIVE


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
class GameAdmin(KeepsSecretsAdmin):
    list_display = ["public_id", "owner", "mode", "level", "status", "version", "contracts",
                    "penalty", "place", "created_at"]
    list_filter = ["mode", "level", "status"]
    search_fields = ["public_id", "owner__name", "owner__public_id"]
    exclude = ["seed", "state"]  # hidden cards; the replay shows them once it may
    inlines = [GameActionInline]

    def get_inlines(self, request, obj):
        # Django's documented hook: the log is on the page only once moves_hidden allows.
        return [] if obj is None or moves_hidden(obj) else self.inlines

    def get_readonly_fields(self, request, obj=None):
        return [*(f.name for f in Game._meta.fields if f.name not in SECRET_FIELDS[Game]),
                "replay"]

    @admin.display(description="replay")
    def replay(self, game: Game):
        """Everything about a finished game (seed, every hand, every action), as the owner's
        GET /games/{id}/replay shows it, and under the same condition: a daily's opens when
        its day has ended, so not even staff see a running day's seed. A daily's open replay
        also links to the viewer (/replay/<id>/), which anyone may watch then."""
        try:
            replay = replays.replay_of(game)
        except replays.ReplayUnavailable as exc:
            return str(exc)
        replay.pop("events")  # the actions say the same, and a page of them is long enough
        shown = format_html("<pre style=\"max-height: 40em; overflow: auto\">{}</pre>",
                            json.dumps(replay, indent=1, cls=DjangoJSONEncoder))
        if replays.is_open_to(game, None):
            link = reverse("frontend:replay", args=[game.public_id])
            return format_html('<p><a href="{}">Watch the replay</a></p>{}', link, shown)
        return shown

    def has_add_permission(self, request):
        return False


@admin.register(DailyDeal)
class DailyDealAdmin(KeepsSecretsAdmin):
    list_display = ["date", "commitment", "revealed_at"]
    exclude = ["seed"]
    readonly_fields = ["date", "commitment", "created_at", "revealed_at", "revealed_seed"]

    @admin.display(description="seed")
    def revealed_seed(self, deal: DailyDeal):
        """The seed once the day has ended, as GET /daily/{date} reveals it; never before."""
        return daily.revealed_seed(deal) or "secret until the day ends"
