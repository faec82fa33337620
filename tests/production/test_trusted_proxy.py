"""The application never reads ``X-Forwarded-For`` itself (games/web/addresses.py): the
client's address is the peer the ASGI server gives, which behind a proxy uvicorn's
``--forwarded-allow-ips`` has already put right (tests/production/test_forwarded_peer.py).
Whatever the peer, a forged header moves none of the throttles, the daily's address flag or
the admin-login limit. (tests/production/test_dev_serve.py checks uvicorn's side, through
./dev serve.)"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.production.conftest import API, post_json

pytestmark = pytest.mark.django_db


def rates(settings, **changes):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, **changes}


def new_players(peer: str, forwarded: list[str]) -> list[int]:
    return [Client(REMOTE_ADDR=peer, headers={"X-Forwarded-For": hop}).post(
        f"{API}/players").status_code for hop in forwarded]


@pytest.mark.parametrize("peer", ["127.0.0.1", "10.0.0.7"])
def test_a_forged_forwarded_for_still_hits_the_throttle(settings, peer):
    rates(settings, identities="2/d")

    statuses = new_players(peer, ["192.0.2.1", "192.0.2.2", "192.0.2.3"])

    assert statuses == [201, 201, 429]


def test_the_admin_login_limit_ignores_a_forged_forwarded_for(settings):
    rates(settings, admin_login="2/d")

    statuses = [Client(REMOTE_ADDR="127.0.0.1", headers={"X-Forwarded-For": f"192.0.2.{n}"})
                .post("/admin/login/", {"username": "x", "password": "y"}).status_code
                for n in range(3)]

    assert statuses == [200, 200, 429]


def test_the_daily_records_the_socket_address_not_a_forged_one(settings):
    hashes = set()
    for n in range(2):
        client = Client(REMOTE_ADDR="127.0.0.1", headers={"X-Forwarded-For": f"192.0.2.{n}"})
        token = client.post(f"{API}/players").json()["token"]
        started = post_json(client, "/games", {"mode": "daily"},
                            headers={"Authorization": f"Bearer {token}"})
        assert started.status_code == 201
        hashes.add(Game.objects.get(public_id=started.json()["id"]).address_hash)

    assert len(hashes) == 1 and "" not in hashes
