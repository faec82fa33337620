"""Where Celery runs eagerly (``./dev serve``: no worker, no beat), the game's sockets keep
the turn timers: a turn whose time runs out is played by the table's bot with nobody reading
the game, and every seat's socket hears it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.models import Game, Seat
from games.services import timers
from games.tables import services as tables
from tests.factories import player_with_token
from tests.sockets import bearer_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("close_connections")]


def socket(game_id: str, token: str) -> WebsocketCommunicator:
    return bearer_socket(f"/ws/games/{game_id}/", token)


@sync_to_async
def table_game() -> tuple[Game, dict[int, str]]:
    """A game of two people at a table with a 30 s timer; (the game, their tokens by seat)."""
    (host, host_token), (guest, guest_token) = player_with_token(), player_with_token()
    table = tables.open_table(host, "Socket night", "easy", turn_seconds=30)
    tables.join(guest, table.code)
    return tables.start(host, table.public_id).game, {0: host_token, 1: guest_token}


@sync_to_async
def runs_out_in(game: Game, seconds: float) -> int:
    """The deadline of the person to move moves to ``seconds`` from now, and the next turns
    get a second (not a time a table offers: only the services read it here); their seat."""
    Game.objects.filter(pk=game.pk).update(
        turn_deadline=timezone.now() + timedelta(seconds=seconds), turn_seconds=1)
    return Game.objects.get(pk=game.pk).load_state().turn


async def frames_until(communicator, kind: str) -> list[dict]:
    frames = []
    while not frames or frames[-1]["t"] != kind:
        frames.append(await communicator.receive_json_from(timeout=10))
    return frames


async def test_without_a_worker_the_sockets_timer_plays_the_overdue_turn(monkeypatch):
    from celery import current_app

    monkeypatch.setitem(current_app.conf, "task_always_eager", True)  # as ./dev serve's
    assert timers.in_process_timers()
    game, tokens = await table_game()
    sockets = {s: socket(game.public_id, token) for s, token in tokens.items()}
    seat = await runs_out_in(game, 30)
    assert (await sockets[1 - seat].connect())[0]  # its timer armed for 30 s from now
    await runs_out_in(game, 0.3)
    assert (await sockets[seat].connect())[0]  # its timer armed from the deadline, 0.3 s

    for communicator in sockets.values():  # nobody reads or acts: the timer plays the turn
        frames = await frames_until(communicator, "turn_timer")
        assert frames[0] == {"v": game.version, "t": "timed_out", "data": {"seat": seat},
                             "d": {"seat": seat}}
        assert frames[-1]["data"]["seat"] == 1 - seat
    after = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert after.version > game.version and after.turn_deadline > timezone.now()
    timed_out = await sync_to_async(lambda: Seat.objects.get(game=game, number=seat).timeouts)()
    assert timed_out == 1  # once, though two sockets' timers fired

    # The next turn's frame armed the timers again: the other person's second runs out.
    frames = await frames_until(sockets[seat], "turn_timer")
    assert frames[0]["t"] == "timed_out" and frames[0]["data"] == {"seat": 1 - seat}
    for communicator in sockets.values():
        await communicator.disconnect()
