"""What a person sees of a table they sit at, and what a join code shows before one sits."""

from __future__ import annotations

from games.models import Game
from games.players.models import Player
from games.players.names import COMPUTER_PLAYER_NAMES
from games.tables import presence
from games.tables.models import SEATS, Table, TableSeat
from games.tables.services import TableNotFound
from games.web.codes import shown_code


def table_view(table: Table, viewer: Player) -> dict:
    """The table as ``viewer`` (seated) sees it: every seat (a person, or the bot that will
    play it; who has the table's socket open now), the host, the code to share, the current
    game."""
    seats = {seat.number: seat
             for seat in TableSeat.objects.filter(table=table).select_related("player")}
    you = next((n for n, seat in seats.items() if seat.player_id == viewer.pk), None)
    if you is None:  # they left between reading the table and its seats
        raise TableNotFound()
    here = presence.connected(table.public_id)
    game = (Game.objects.filter(pk=table.game_id).values("public_id", "status").first()
            if table.game_id else None)
    return {
        "id": table.public_id, "name": table.name, "code": shown_code(table.code),
        "level": table.level, "turn_seconds": table.turn_seconds,
        "status": table.status,
        "you": you,
        "seats": [_seat(n, seats.get(n), table, here) for n in range(SEATS)],
        "game": None if game is None else {"id": game["public_id"], "status": game["status"]},
        "created_at": table.created_at,
    }


def _seat(number: int, seat: TableSeat | None, table: Table, here: set[int]) -> dict:
    if seat is None:
        return {"seat": number, "name": COMPUTER_PLAYER_NAMES[number], "bot": True,
                "host": False, "connected": False}
    return {"seat": number, "name": seat.player.name, "bot": False,
            "host": seat.player_id == table.host_id, "connected": number in here}


def preview(table: Table) -> dict:
    """What a join code shows: the table's name, how many sit and whether a seat is free
    (``table`` as services.by_code reads it, with its count of people)."""
    return {"name": table.name, "people": table.people, "free_seats": SEATS - table.people,
            "status": table.status, "level": table.level}
