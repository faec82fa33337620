"""Addresses that cannot be forged however uvicorn is started (issue 29, ladder/edge.py).

uvicorn's ``ProxyHeadersMiddleware`` (on unless ``--no-proxy-headers``) rewrites the ASGI
scope's client from ``X-Forwarded-For`` when the peer is one it trusts (127.0.0.1 by default,
``*`` if asked). These tests wrap the real application in uvicorn's own middleware, as uvicorn
does, and send forged headers from loopback: the per-address throttle and the daily's address
hash must not move, with ``TRUSTED_PROXIES`` empty or set. Started with ``--no-proxy-headers``
(no middleware), a proxy of ``TRUSTED_PROXIES`` is believed and nobody else.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from games.models import Game
from ladder.asgi import application
from ladder.edge import UNVERIFIED_PEER, client_from_header

pytestmark = pytest.mark.django_db(transaction=True)

LOOPBACK = ("127.0.0.1", 50_123)


def served_by(uvicorn_flags: str):
    """The application as uvicorn runs it: ``--no-proxy-headers``, or proxy headers on with
    ``--forwarded-allow-ips`` (uvicorn's default is 127.0.0.1)."""
    if uvicorn_flags == "--no-proxy-headers":
        return application
    trusted = uvicorn_flags.removeprefix("--forwarded-allow-ips=")
    return ProxyHeadersMiddleware(application, trusted_hosts=trusted)


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


def new_players(app, forged: list[str], peer=LOOPBACK) -> list[int]:
    return [call(app, "POST", "/api/v1/players", hop, peer=peer)[0] for hop in forged]


FLAGS = ["--no-proxy-headers", "--forwarded-allow-ips=127.0.0.1", "--forwarded-allow-ips=*"]
FORGED = ["198.51.100.1", "198.51.100.2:4444", "[2001:db8::1]:80", "198.51.100.3"]


@pytest.fixture
def identities_per_day(settings, throttle_clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "identities": "2/d"}


@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("trusted_proxies", [[], ["10.0.0.0/8"]])
def test_a_forged_forwarded_for_from_loopback_never_escapes_the_throttle(
        flags, trusted_proxies, settings, identities_per_day):
    settings.TRUSTED_PROXIES = trusted_proxies

    statuses = new_players(served_by(flags), FORGED)

    assert statuses == [201, 201, 429, 429]


def test_without_proxy_headers_a_trusted_proxys_forwarded_for_names_the_client(
        settings, identities_per_day):
    settings.TRUSTED_PROXIES = ["10.0.0.7"]
    proxy = ("10.0.0.7", 40_000)

    statuses = new_players(application, ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.1"],
                           peer=proxy)
    forged = new_players(application, ["192.0.2.4"] * 3)  # loopback is no proxy

    assert statuses == [201, 201, 201, 201]
    assert forged == [201, 201, 429]


@pytest.mark.parametrize("flags", FLAGS[1:])
def test_the_dailys_address_hash_ignores_an_address_uvicorn_read_from_a_header(flags):
    app = served_by(flags)
    hashes = set()
    for n in range(2):
        _, _, body = call(app, "POST", "/api/v1/players", f"198.51.100.{n}")
        token = json.loads(body)["token"]
        status, _, body = call(app, "POST", "/api/v1/games", f"198.51.100.{n}",
                               json.dumps({"mode": "daily"}).encode(),
                               headers=[(b"authorization", f"Bearer {token}".encode())])
        assert status == 201, body
        hashes.add(Game.objects.get(public_id=json.loads(body)["id"]).address_hash)

    assert len(hashes) == 1 and "" not in hashes


@pytest.mark.parametrize("client, forwarded, rewritten", [
    (("198.51.100.1", 0), "198.51.100.1", True),
    (("198.51.100.1", 4444), "1.1.1.1, 198.51.100.1:4444", True),
    (("2001:db8::1", 80), "[2001:db8::1]:80", True),
    (("evil", 0), "evil", True),
    (("127.0.0.1", 50_123), "198.51.100.1", False),
    (("10.0.0.7", 40_000), "10.0.0.7", False),  # a proxy that names itself: its own port
    (("127.0.0.1", 50_123), None, False),
])
def test_a_client_taken_from_the_header_is_recognised(client, forwarded, rewritten):
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []

    assert client_from_header({"client": client, "headers": headers}) is rewritten


def test_such_a_client_is_one_unverified_address(settings, identities_per_day):
    seen = []

    async def remember(scope, receive, send):
        seen.append(scope["client"])

    from ladder.edge import ForwardedPeerGuard

    async def run():
        guard = ForwardedPeerGuard(remember)
        for hop in ("198.51.100.1", "198.51.100.2"):
            await ProxyHeadersMiddleware(guard)({
                "type": "http", "client": LOOPBACK,
                "headers": [(b"x-forwarded-for", hop.encode())]}, None, None)

    async_to_sync(run)()
    assert seen == [(UNVERIFIED_PEER, 0), (UNVERIFIED_PEER, 0)]
