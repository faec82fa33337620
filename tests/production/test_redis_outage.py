"""With Redis unreachable, an action is still acknowledged: the events are lost (clients resync
by version), the HTTP response is the source of truth. bench/faults.py shows it for real."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.factories import practice_game
from tests.production.conftest import post_json


class DeadLayer:
    async def group_send(self, group, message):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


@pytest.mark.django_db(transaction=True)
def test_an_action_is_acknowledged_when_its_events_cannot_be_published(player, caplog,
                                                                        channel_layer):
    owner, client = player
    game = practice_game(owner)
    channel_layer(DeadLayer())
    response = post_json(client, f"/games/{game.public_id}/actions", {
        "version": game.version, "action": {"type": "draw", "from": "stock"}})

    assert response.status_code == 200, response.content
    assert Game.objects.get(pk=game.pk).version == response.json()["game"]["version"]
    assert "Could not publish" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_a_throttle_lets_actions_through_when_the_cache_is_down(player, cache_down):
    owner, client = player
    game = practice_game(owner)
    response = post_json(client, f"/games/{game.public_id}/actions", {
        "version": game.version, "action": {"type": "draw", "from": "stock"}})

    assert response.status_code == 200


@pytest.mark.django_db
def test_no_socket_ticket_is_given_or_taken_while_the_cache_is_down(player, cache_down):
    """503 ``unavailable`` (docs/api.md, "Who you are"); a ticket cannot be redeemed either:
    clients with a bearer header or the cookie open their sockets as before."""
    from games.players.services import redeem_socket_ticket
    from tests.production.conftest import API

    _, client = player
    refused = client.post(f"{API}/socket-tickets")

    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "unavailable"
    assert redeem_socket_ticket("st_" + "x" * 32) is None
