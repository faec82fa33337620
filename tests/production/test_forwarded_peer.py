"""The client's address behind a proxy is uvicorn's to read (games/web/addresses.py): started
with ``--forwarded-allow-ips`` naming the proxies (addresses or CIDR networks), uvicorn's
``ProxyHeadersMiddleware`` takes the client from such a peer's ``X-Forwarded-For``, the
rightmost address that is not itself a trusted proxy; from any other peer the header changes
nothing. These tests wrap the real application in uvicorn's own middleware, as uvicorn does,
and check what the throttles and the daily's address hash then count.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from games.models import Game
from ladder.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

LOOPBACK = ("127.0.0.1", 50_123)
PROXY = ("10.0.0.7", 40_000)
PROXIES = "10.0.0.0/24"  # docs/production.md: the proxies' addresses or networks


def served_by(uvicorn_flags: str):
    """The application as uvicorn runs it: ``--no-proxy-headers`` (no proxy: ``./dev serve``),
    or proxy headers on, trusting ``--forwarded-allow-ips``."""
    if uvicorn_flags == "--no-proxy-headers":
        return application
    trusted = uvicorn_flags.removeprefix("--forwarded-allow-ips=")
    return ProxyHeadersMiddleware(application, trusted_hosts=trusted)


BEHIND_PROXIES = served_by(f"--forwarded-allow-ips={PROXIES}")


def call(app, method: str, path: str, forwarded: str | None, body: bytes = b"",
         headers: tuple = (), peer=LOOPBACK) -> tuple[int, dict, bytes]:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": peer,
             "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         *headers,
                         *([(b"x-forwarded-for", forwarded.encode())] if forwarded else [])]}
    sent = []

    async def run():
        messages = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive():
            if messages:
                return messages.pop()
            await asyncio.sleep(3600)

        async def send(message):
            sent.append(message)

        await app(scope, receive, send)

    async_to_sync(run)()
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"")
                                                             for m in sent[1:])


def new_players(app, forwarded: list[str], peer=LOOPBACK) -> list[int]:
    return [call(app, "POST", "/api/v1/players", hop, peer=peer)[0] for hop in forwarded]


FORGED = ["198.51.100.1", "198.51.100.2:4444", "[2001:db8::1]:80", "198.51.100.3"]


@pytest.fixture
def identities_per_day(settings, throttle_clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "identities": "2/d"}


@pytest.mark.parametrize("flags", ["--no-proxy-headers", f"--forwarded-allow-ips={PROXIES}"])
def test_a_forged_forwarded_for_from_a_peer_that_is_no_proxy_never_escapes_the_throttle(
        flags, identities_per_day):
    statuses = new_players(served_by(flags), FORGED)

    assert statuses == [201, 201, 429, 429]


def test_a_trusted_proxys_forwarded_for_names_the_client(identities_per_day):
    statuses = new_players(BEHIND_PROXIES, ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.1"],
                           peer=PROXY)
    forged = new_players(BEHIND_PROXIES, ["192.0.2.4"] * 3)  # loopback is no proxy here

    assert statuses == [201, 201, 201, 201]
    assert forged == [201, 201, 429]


def test_what_a_client_writes_left_of_the_proxys_entry_is_ignored(settings, throttle_clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "identities": "1/d"}

    # The proxy appends the address it saw (behind a second proxy of ours, both are trusted);
    # the client made up the rest.
    statuses = new_players(BEHIND_PROXIES, ["1.1.1.1, 192.0.2.9", "2.2.2.2, 192.0.2.9",
                                            "3.3.3.3, 192.0.2.9, 10.0.0.8"], peer=PROXY)

    assert statuses == [201, 429, 429]


def dailys_address_hash(app, forwarded: str, peer) -> str:
    _, _, body = call(app, "POST", "/api/v1/players", forwarded, peer=peer)
    token = json.loads(body)["token"]
    status, _, body = call(app, "POST", "/api/v1/games", forwarded,
                           json.dumps({"mode": "daily"}).encode(), peer=peer,
                           headers=[(b"authorization", f"Bearer {token}".encode())])
    assert status == 201, body
    return Game.objects.get(public_id=json.loads(body)["id"]).address_hash


def test_the_dailys_address_hash_is_the_client_behind_a_proxy_and_not_a_forged_one():
    forged = {dailys_address_hash(BEHIND_PROXIES, f"198.51.100.{n}", LOOPBACK)
              for n in range(2)}
    proxied = {dailys_address_hash(BEHIND_PROXIES, f"192.0.2.{n}", PROXY) for n in range(2)}

    assert len(forged) == 1 and "" not in forged
    assert len(proxied) == 2 and not proxied & forged
