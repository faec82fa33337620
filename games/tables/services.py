"""The only code that writes tables (docs/api.md, "Tables for friends"): check, then change in
one transaction, then tell the table's socket group after commit.

Anyone (an anonymous identity too) opens a table and sits at seat 0 as its host; friends sit
down from its code, in the lowest free seat, while the table is a lobby (409 ``table_full``
with four people, ``table_started`` once its game runs). The host starts a game when two
people or more sit (``not_enough_people``); the empty seats get bots of the table's level.
When that game is over, the host starts the next one with whoever stays ("play again").
Leaving the lobby frees the seat; leaving while a game runs leaves that game for good too (a
bot plays the seat: games.services.leave_game). A host who leaves hands the table to the
person who sat down earliest; the last person to leave closes it. A banned player can
neither open nor join a table.

Every write locks the table's row first (``SELECT ... FOR UPDATE``; a join finds the row by
its code), so two people cannot both take the last seat and a start never races a join.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models import Count

from games import services as games
from games.lists import (
    DEFAULT_LEVEL,
    DEFAULT_TURN_SECONDS,
    LEVELS,
    REACTION_CODES,
    TURN_SECONDS,
)
from games.models import Game
from games.players import services as players
from games.players.models import Player
from games.players.names import clean_name
from games.tables.models import (
    CODE_CHARS,
    NAME_MAX_CHARS,
    SEATS,
    Table,
    TableSeat,
)
from games.web.codes import normalise_code
from games.web.errors import Refusal
from games.web.groups import group_send


class TableNotFound(Refusal):
    """No such table, an old code, or a table this player does not sit at (never told apart)."""

    status, code, message = 404, "not_found", "No such table."


REACTIONS = REACTION_CODES  # games.lists: the preset reactions
CHANGED = {"type": "table.changed"}


def group_name(table_public_id: str) -> str:
    """The table's socket group: its seats and its games, as they change."""
    return f"table.{table_public_id}"


def open_table(host: Player, raw_name: str, level: str = DEFAULT_LEVEL,
               turn_seconds: int | None = DEFAULT_TURN_SECONDS) -> Table:
    """``turn_seconds``: each person's time for a turn in the table's games (one of
    TURN_SECONDS), None for no timer."""
    _check_not_banned(host)
    name = clean_name(raw_name, max_chars=NAME_MAX_CHARS)
    if level not in LEVELS:
        raise Refusal(422, "invalid_level", "Choose a level offered.")
    if turn_seconds is not None and turn_seconds not in TURN_SECONDS:
        raise Refusal(422, "invalid_turn_seconds", "Choose a turn timer offered.")
    with transaction.atomic():
        table = Table.objects.create(name=name, host=host, level=level,
                                     turn_seconds=turn_seconds)
        TableSeat.objects.create(table=table, number=0, player=host)
    return table


def by_code(raw_code: str) -> Table:
    """The open table of a code with its count of ``people`` (for its preview), read in one
    statement, or TableNotFound: a table the last person is leaving has nobody to join."""
    code = normalise_code(raw_code, CODE_CHARS)
    table = None if code is None else (
        Table.objects.exclude(status=Table.CLOSED).filter(code=code)
        .annotate(people=Count("seats")).filter(people__gt=0).first())
    if table is None:
        raise TableNotFound()
    return table


def join(player: Player, raw_code: str, raw_name: str | None = None) -> tuple[Table, bool]:
    """Sit ``player`` at the table of ``raw_code``, in its lowest free seat; (the table,
    whether they sat down now): someone already seated is simply answered the table.
    ``raw_name``: the display name they chose on the way in (a player's name rules,
    games.players.names; InvalidName before anything is written), None to keep theirs. The
    name and the seat are written together: a refused seat changes no name."""
    _check_not_banned(player)
    code = normalise_code(raw_code, CODE_CHARS)
    if code is None:
        raise TableNotFound()
    if raw_name is not None:
        raw_name = clean_name(raw_name)
    with transaction.atomic():
        if raw_name is not None:  # the table hears of it with the seat (renamed, below)
            players.rename_player(player, raw_name)
        table = (Table.objects.select_for_update().exclude(status=Table.CLOSED)
                 .filter(code=code).first())
        if table is None:
            raise TableNotFound()
        taken = dict(TableSeat.objects.filter(table=table).values_list("player_id", "number"))
        if player.pk in taken:
            return table, False
        if table.status != Table.LOBBY:
            raise Refusal(409, "table_started", "This table's game has started: ask for a "
                                                "seat at the next one.")
        free = [number for number in range(SEATS) if number not in taken.values()]
        if not free:
            raise Refusal(409, "table_full", "Every seat at this table is taken.")
        TableSeat.objects.create(table=table, number=free[0], player=player)
        _tell(table)
    return table, True


def table_of(player: Player, public_id: str, *, lock: bool = False) -> Table:
    """The open table ``public_id`` if ``player`` sits at it, else TableNotFound."""
    tables = Table.objects.select_for_update(of=("self",)) if lock else Table.objects
    table = tables.of(player).filter(public_id=public_id).first()
    if table is None:
        raise TableNotFound()
    return table


def start(player: Player, public_id: str) -> games.Played:
    """The host starts the table's game (or, once it is over, the next one) with everyone
    seated; bots of the table's level take the empty seats."""
    _check_not_banned(player)
    with transaction.atomic():
        table = table_of(player, public_id, lock=True)
        if table.host_id != player.pk:
            raise Refusal(403, "host_only", "Only the table's host can start its game.")
        if table.status == Table.PLAYING and table.game.status == Game.ACTIVE:
            raise Refusal(409, "table_started", "This table's game is still being played.")
        seated = {seat.number: seat.player
                  for seat in TableSeat.objects.filter(table=table).select_related("player")}
        if len(seated) < 2:
            raise Refusal(409, "not_enough_people", "A table's game needs two people or more: "
                                                    "share its link first.")
        played = games.start_game_together(player, seated, table.level, table.turn_seconds,
                                           table_name=table.name)
        table.game, table.status = played.game, Table.PLAYING
        table.save(update_fields=["game", "status", "updated_at"])
        _tell(table)
    return played


def leave(player: Player, public_id: str) -> None:
    """``player`` leaves the table for good (and its running game: a bot plays their seat)."""
    with transaction.atomic():
        table = table_of(player, public_id, lock=True)
        TableSeat.objects.filter(table=table, player=player).delete()
        if table.game_id is not None:
            try:
                games.leave_game(table.game.public_id, player)
            except games.GameNotFound:  # they had left it already
                pass
        rest = TableSeat.objects.filter(table=table).order_by("joined_at", "number").first()
        if rest is None:
            table.host, table.status = None, Table.CLOSED
        elif table.host_id == player.pk:
            table.host_id = rest.player_id
        table.save(update_fields=["host", "status", "updated_at"])
        _tell(table, gone=player.pk)


def renamed(player: Player) -> None:
    """The tables ``player`` sits at tell their sockets of the new name, after commit: their
    lobbies and their games' pages read the table again (games.tables.receivers)."""
    for table in Table.objects.of(player):
        _tell(table)


def game_over(game: Game) -> None:
    """The table whose latest game just finished tells its sockets, after commit."""
    for table in Table.objects.filter(game=game, status=Table.PLAYING):
        _tell(table)


def react(player: Player, public_id: str, reaction: str) -> None:
    """``player`` sends a preset reaction to everyone at the table (its sockets), from their
    seat. Nothing is stored."""
    if reaction not in REACTIONS:
        raise Refusal(422, "invalid_reaction", "Choose one of the reactions offered.")
    _check_not_banned(player)
    # The table and the seat in one statement: one who is leaving meanwhile is not found.
    seat = (TableSeat.objects.filter(player=player, table__public_id=public_id)
            .exclude(table__status=Table.CLOSED).values_list("number", flat=True).first())
    if seat is None:
        raise TableNotFound()
    group_send(group_name(public_id), {"type": "table.reaction", "seat": seat,
                                       "reaction": reaction})


def _check_not_banned(player: Player) -> None:
    if player.banned_at is not None:
        raise Refusal(403, "banned", "This player may not sit at tables.")


def _tell(table: Table, gone: int | None = None) -> None:
    """After commit: the table's sockets read it again; those of the player ``gone`` (a pk),
    who left, close (games.tables.consumers)."""
    message = CHANGED if gone is None else {**CHANGED, "gone": gone}
    transaction.on_commit(partial(group_send, group_name(table.public_id), message),
                          robust=True)
