"""/ws/leaderboards/daily/ pushes today's new entries after commit, and removes the entries a
moderator hides or whose player is banned; other days' changes are not pushed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from ladder.asgi import application
from leaderboards import services
from tests.factories import DAY
from tests.frames import checked
from tests.leaderboards.factories import finished_daily, player

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("clock", "close_connections")]


@pytest_asyncio.fixture
async def board():
    # Every frame held to its schema (the sockets' AsyncAPI document).
    communicator = checked(WebsocketCommunicator(application, "/ws/leaderboards/daily/"),
                           "board")
    connected, _ = await communicator.connect()
    assert connected
    yield communicator
    await communicator.disconnect()


@sync_to_async
def finish(name: str, contracts: int, penalty: int, day: date = DAY):
    someone, _ = player(name)
    return finished_daily(someone, day, contracts, penalty)


@sync_to_async
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


async def test_a_finished_daily_appears_with_its_rank(board):
    await finish("Ann", 5, 100)
    first = await board.receive_json_from(timeout=5)
    assert first["t"] == "entry"
    assert {k: first["data"][k] for k in ("date", "rank", "contracts", "penalty")} == {
        "date": str(DAY), "rank": 1, "contracts": 5, "penalty": 100}
    assert first["data"]["player"]["name"] == "Ann"
    await finish("Ben", 7, 300)
    second = await board.receive_json_from(timeout=5)
    assert (second["data"]["player"]["name"], second["data"]["rank"]) == ("Ben", 1)


async def next_is_todays(board, name: str) -> None:
    """Nothing came before: today's entry of a daily ``name`` finishes now is the next frame
    (the board's group delivers in order)."""
    await finish(name, 1, 300)
    frame = await board.receive_json_from(timeout=5)
    assert (frame["t"], frame["data"]["player"]["name"]) == ("entry", name)


async def test_other_days_are_not_pushed(board):
    await finish("Yesterday", 5, 100, day=DAY - timedelta(days=1))
    await next_is_todays(board, "Today")


async def test_a_hidden_score_is_removed_and_a_restored_one_comes_back(board,
                                                                       django_user_model):
    game = await finish("Hid", 5, 100)
    await board.receive_json_from(timeout=5)
    mod = await moderator(django_user_model)
    await sync_to_async(services.hide_score)(game.score, mod, "abuse")
    removed = await board.receive_json_from(timeout=5)
    assert removed == {"t": "removed", "data": {
        "date": str(DAY), "player": {"id": game.owner.public_id, "name": "Hid"}}}
    await sync_to_async(services.restore_score)(game.score, mod, "ok")
    back = await board.receive_json_from(timeout=5)
    assert back["t"] == "entry" and back["data"]["rank"] == 1


async def test_a_banned_players_entry_is_removed_and_new_ones_never_pushed(board,
                                                                           django_user_model):
    game = await finish("Ban", 5, 100)
    await board.receive_json_from(timeout=5)
    mod = await moderator(django_user_model)
    await sync_to_async(services.ban_player)(game.owner, mod, "farm")
    removed = await board.receive_json_from(timeout=5)
    assert removed["t"] == "removed"
    await next_is_todays(board, "After")
