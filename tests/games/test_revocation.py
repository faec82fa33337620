"""Revocation: logging out revokes the credential it came with, and a transfer code revokes
the identity's old credentials, on the HTTP API and on /ws/games/{id}/."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from games.consumers import CLOSE_NO_IDENTITY
from games.players.identity import COOKIE_NAME
from ladder.asgi import application
from tests.games.conftest import Api, bearer_api, new_bearer_api
from tests.games.helpers import MARKER, send_marker


def new_browser() -> Api:
    api = Api(Client(enforce_csrf_checks=True), csrf=True)
    api.get("/csrf")
    return api


def copy_of(api: Api) -> Api:
    """Another client holding a copy of ``api``'s player cookie (as a thief would)."""
    copy = new_browser()
    copy.client.cookies[COOKIE_NAME] = api.client.cookies[COOKIE_NAME].value
    return copy


def cookie_header(api: Api) -> list[tuple[bytes, bytes]]:
    return [(b"cookie", f"{COOKIE_NAME}={api.client.cookies[COOKIE_NAME].value}".encode())]


def bearer_header(api: Api) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {api.token}".encode())]


async def socket_opens(game_id: str, headers: list[tuple[bytes, bytes]]) -> bool:
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected  # a refusal is accepted, then closed with its code (games.consumers)
    # An open socket hears the game's group; a refused one was closed before the marker.
    await send_marker(game_id)
    output = await communicator.receive_output(timeout=5)
    stays_open = output != {"type": "websocket.close", "code": CLOSE_NO_IDENTITY}
    if stays_open:
        assert output["type"] == "websocket.send" and json.loads(output["text"]) == MARKER
    await communicator.disconnect()
    await sync_to_async(connections.close_all)()
    return stays_open


# --- HTTP ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_logging_out_with_a_bearer_token_revokes_the_token(alice):
    alice.new_game()

    assert alice.post("/account/logout").status_code == 204

    assert alice.get("/me").status_code == 401
    assert bearer_api(alice.token).get("/games").status_code == 401


@pytest.mark.django_db
def test_a_copied_cookie_no_longer_authenticates_after_logout(browser):
    browser.new_game()
    thief = copy_of(browser)
    assert thief.get("/me").status_code == 200

    assert browser.post("/account/logout").status_code == 204

    assert thief.get("/me").status_code == 401
    assert browser.get("/me").status_code == 401


@pytest.mark.django_db
def test_logging_out_one_credential_leaves_another_players_alone(alice, bob):
    alice.post("/account/logout")

    assert bob.get("/me").status_code == 200


@pytest.mark.django_db
def test_a_transfer_revokes_the_old_token_and_the_old_cookies(alice, browser):
    browser.new_game()
    cookie_copy = copy_of(browser)
    for old in (alice, browser):
        code = old.post("/transfer-codes").json()["code"]
        assert new_browser().post("/transfer-codes/redeem", {"code": code}).status_code == 200

    assert alice.get("/me").status_code == 401
    assert browser.get("/me").status_code == 401
    assert cookie_copy.get("/me").status_code == 401


# --- The websocket --------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("client", "credentials"), [(new_bearer_api, bearer_header),
                                                     (new_browser, cookie_header)],
                         ids=["token", "copied cookie"])
async def test_logged_out_credentials_cannot_open_the_games_socket(client, credentials):
    api = await sync_to_async(client)()
    game = await sync_to_async(api.new_game)()
    held = credentials(api)
    assert await socket_opens(game["id"], held)

    assert (await sync_to_async(api.post)("/account/logout")).status_code == 204

    assert not await socket_opens(game["id"], held)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_after_a_transfer_only_the_new_browser_opens_the_games_socket():
    api = await sync_to_async(new_bearer_api)()
    game = await sync_to_async(api.new_game)()
    old = bearer_header(api)
    code = (await sync_to_async(api.post)("/transfer-codes")).json()["code"]
    other = await sync_to_async(new_browser)()

    redeemed = await sync_to_async(other.post)("/transfer-codes/redeem", {"code": code})

    assert redeemed.status_code == 200
    assert not await socket_opens(game["id"], old)
    assert await socket_opens(game["id"], cookie_header(other))
