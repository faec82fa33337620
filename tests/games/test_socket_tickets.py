"""Sockets for every client (docs/api.md, "Who you are"): a short-lived, single-use ticket,
asked for with the bearer token, opens one socket from any origin; a used, expired or unknown
ticket closes it with 4401, whatever cookie came with it; without a ticket a socket from
another origin is refused at the handshake as before. The REST API answers other origins
(CORS) without credentials."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.consumers import CLOSE_NO_IDENTITY, CLOSE_NOT_FOUND
from games.players import services
from games.players.identity import COOKIE_NAME
from ladder.asgi import application
from tests.games.conftest import API, Api, new_bearer_api

FOREIGN = (b"origin", b"https://bot.example")
DRAW = {"type": "draw", "from": "stock"}


def ticket_for(api: Api) -> dict:
    response = api.post("/socket-tickets")
    assert response.status_code == 201, response.content
    return response.json()


def socket(game_id: str, ticket: str, *headers) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/?ticket={ticket}",
                                 headers=[(b"host", b"testserver"), *headers])


async def closed_with(communicator) -> int:
    connected, _ = await communicator.connect()
    assert connected  # accepted, then closed with its code
    said = await communicator.receive_output(timeout=5)
    await communicator.disconnect()
    assert said["type"] == "websocket.close"
    return said["code"]


@pytest.mark.django_db
def test_a_ticket_is_given_for_a_bearer_token_only(alice, browser, nobody):
    given = ticket_for(alice)
    browser.post("/games", {"mode": "practice", "level": "easy"})  # the browser has a player

    assert given["ticket"].startswith("st_") and given["expires_at"].endswith("Z")
    assert browser.post("/socket-tickets").status_code == 401
    assert nobody.post("/socket-tickets").json()["error"]["code"] == "no_identity"


def socket_test(test):
    """A test of sockets on the site's ASGI application, with committed data."""
    for mark in (pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
                 pytest.mark.usefixtures("close_connections")):
        test = mark(test)
    return test


@socket_test
@pytest.mark.parametrize("origin", [None, FOREIGN])
async def test_a_ticket_opens_the_socket_once_from_any_origin(origin):
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    ticket = (await sync_to_async(ticket_for)(api))["ticket"]
    headers = [origin] if origin else []
    first = socket(game["id"], ticket, *headers)
    assert (await first.connect())[0]

    answer = await sync_to_async(api.act)(game, DRAW)
    assert answer.status_code == 200
    frames = [await first.receive_json_from(timeout=5) for _ in answer.json()["events"]]
    assert [f["v"] for f in frames] == [e["v"] for e in answer.json()["events"]]
    await first.disconnect()

    assert await closed_with(socket(game["id"], ticket, *headers)) == CLOSE_NO_IDENTITY


@socket_test
async def test_an_expired_ticket_is_refused(monkeypatch):
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    ticket = (await sync_to_async(ticket_for)(api))["ticket"]
    issued = services.ticket_clock()
    monkeypatch.setattr(services, "ticket_clock", lambda: issued + services.TICKET_SECONDS)

    assert await closed_with(socket(game["id"], ticket)) == CLOSE_NO_IDENTITY


@socket_test
async def test_a_wrong_ticket_is_refused_whatever_cookie_comes_with_it():
    browser = Api(Client())
    game = await sync_to_async(browser.new_game)()
    cookie = browser.client.cookies[COOKIE_NAME].value
    with_cookie = (b"cookie", f"{COOKIE_NAME}={cookie}".encode())

    for origin in ((b"origin", b"http://testserver"), FOREIGN):
        for wrong in ("st_" + "x" * 32, "nothing", ""):
            refused = await closed_with(socket(game["id"], wrong, origin, with_cookie))
            assert refused == CLOSE_NO_IDENTITY, (origin, wrong)


@socket_test
async def test_a_ticket_opens_only_its_players_games():
    owner = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(owner.new_game)()
    other = await sync_to_async(new_bearer_api)()
    ticket = (await sync_to_async(ticket_for)(other))["ticket"]

    assert await closed_with(socket(game["id"], ticket)) == CLOSE_NOT_FOUND


@socket_test
async def test_a_cookie_socket_from_another_origin_is_still_refused():
    browser = Api(Client())
    game = await sync_to_async(browser.new_game)()
    cookie = browser.client.cookies[COOKIE_NAME].value
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/",
        headers=[(b"host", b"testserver"), FOREIGN,
                 (b"cookie", f"{COOKIE_NAME}={cookie}".encode())])

    # Channels' OriginValidator: closed before the accept (an HTTP 403 to a browser)
    assert await communicator.connect() == (False, 1000)


@pytest.mark.django_db
def test_the_api_answers_another_origin_without_credentials(alice):
    preflight = Client().options(
        f"{API}/games", headers={"Origin": "https://bot.example",
                                 "Access-Control-Request-Method": "POST",
                                 "Access-Control-Request-Headers": "authorization, content-type"})
    answer = alice.post("/games", {"mode": "practice", "level": "easy"},
                        Origin="https://bot.example")

    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert {"authorization", "content-type"} <= {
        h.strip() for h in preflight["Access-Control-Allow-Headers"].split(",")}
    assert "POST" in preflight["Access-Control-Allow-Methods"]
    assert answer.status_code == 201
    assert answer["Access-Control-Allow-Origin"] == "*"
    exposed = {h.strip().lower() for h in answer["Access-Control-Expose-Headers"].split(",")}
    assert {"retry-after", "ratelimit", "ratelimit-policy"} <= exposed
    for response in (preflight, answer):
        assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.django_db
def test_pages_are_not_opened_to_other_origins():
    answer = Client().get("/", headers={"Origin": "https://bot.example"})

    assert "Access-Control-Allow-Origin" not in answer

