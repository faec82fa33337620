"""Assertions shared by the games API tests."""

from __future__ import annotations

from games.engine.cards import card_id
from games.models import Game


def stored(game_id: str) -> tuple:
    """Everything a write could change: version, snapshot, status and the action log."""
    game = Game.objects.get(public_id=game_id)
    log = list(game.actions.order_by("index").values_list("index", "seat", "action"))
    return game.version, game.state, game.status, log


def error_of(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content
    return response.json()["error"]


def a_card_not_in(view: dict) -> str:
    """A real card id the person does not hold."""
    held = {card["id"] for card in view["hand"]}
    return next(card_id(c) for c in range(107) if card_id(c) not in held)


MARKER = {"v": 0, "t": "marker", "data": {}}  # no event of a game has version 0


async def send_marker(game_id: str, seat: int = 0) -> None:
    """Publish MARKER to the websocket group of the game's ``seat`` (the owner's by default),
    the way every event goes (games.services.publish). A socket hears its group in order, so
    a test shows that nothing reached it (no frame, no close) by receiving the marker next:
    an event, not a wait. A frame the client sent just before is handled first; several are
    not: Channels takes one client frame and one group message at a time, in turn."""
    from asgiref.sync import sync_to_async

    from games.services import publish

    await sync_to_async(publish)(game_id, seat, [MARKER])
