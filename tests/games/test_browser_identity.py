"""Browsers: an anonymous player on the first write, a signed HttpOnly SameSite=Lax cookie,
and Django's CSRF check on every unsafe request the cookie authenticates."""

import pytest
from django.test import Client

from games.models import Game
from games.players.identity import COOKIE_NAME, set_player_cookie
from games.players.models import Player
from tests.games.conftest import Api
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db


def test_a_browser_gets_its_player_and_cookie_on_its_first_game(browser, settings):
    settings.DEBUG = True
    assert browser.get("/me").status_code == 401  # reads create nobody

    response = browser.post("/games", {"level": "easy"})

    assert response.status_code == 201
    cookie = response.cookies[COOKIE_NAME]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["secure"] == ""  # plain http in development; Secure when DEBUG is false
    assert cookie.value.count(":") == 3  # public id, epoch, timestamp, signature
    me = browser.get("/me").json()
    assert Game.objects.get(public_id=response.json()["id"]).owner.public_id == me["id"]


def test_the_cookie_is_secure_when_not_debugging(browser, settings):
    settings.DEBUG = False

    response = browser.post("/games", {"level": "easy"})

    assert response.cookies[COOKIE_NAME]["secure"] is True


def test_the_second_write_keeps_the_same_player(browser):
    first = browser.post("/games", {"level": "easy"}).json()
    second = browser.post("/games", {"level": "easy"}).json()

    owners = {g.owner_id for g in Game.objects.filter(public_id__in=[first["id"], second["id"]])}
    assert len(owners) == 1
    assert Player.objects.count() == 1


def test_a_cookie_authenticated_post_without_the_csrf_token_is_refused(browser):
    game = browser.new_game()
    before = Game.objects.get(public_id=game["id"]).version
    browser.csrf = False  # a forged cross-site form: the cookie goes, the header does not

    response = browser.act(game, {"type": "draw", "from": "stock"})

    assert response.status_code == 403
    assert error_of(response)["code"] == "csrf_failed"
    assert Game.objects.get(public_id=game["id"]).version == before
    assert browser.patch("/me", {"name": "Forged"}).status_code == 403


def test_a_first_write_without_the_csrf_token_creates_nobody():
    api = Api(Client(enforce_csrf_checks=True))

    response = api.post("/games", {"level": "easy"})

    assert response.status_code == 403
    assert error_of(response)["code"] == "csrf_failed"
    assert not Player.objects.exists()


def test_an_invalid_first_write_creates_nobody(browser):
    response = browser.post("/games", {"level": "impossible"})

    assert response.status_code == 422
    assert COOKIE_NAME not in response.cookies
    assert not Player.objects.exists()


def test_a_tampered_cookie_is_no_identity(browser):
    browser.new_game()
    value = browser.client.cookies[COOKIE_NAME].value
    public_id, epoch, signed = value.split(":", 2)
    browser.client.cookies[COOKIE_NAME] = f"{public_id}:{int(epoch) + 1}:{signed}"

    response = browser.get("/me")

    assert response.status_code == 401
    assert error_of(response)["code"] == "no_identity"


def test_a_revoked_cookie_is_no_identity_and_the_next_write_starts_afresh(browser):
    game = browser.new_game()
    Player.objects.update(cookie_epoch=1)

    assert browser.get(f"/games/{game['id']}").status_code == 401
    assert browser.post("/games", {"level": "easy"}).status_code == 201
    assert Player.objects.count() == 2


def test_a_person_who_leaves_and_comes_back_finds_the_game_where_it_was(browser):
    game = browser.new_game()
    game = browser.act(game, {"type": "draw", "from": "stock"}).json()["game"]

    # The browser closes; days later it comes back with only its cookie.
    returning = Api(Client(enforce_csrf_checks=True), csrf=True)
    returning.client.cookies[COOKIE_NAME] = browser.client.cookies[COOKIE_NAME].value
    again = returning.get(f"/games/{game['id']}")

    assert again.status_code == 200
    assert again.json() == game
    assert [g["id"] for g in returning.get("/games").json()["items"]] == [game["id"]]


def test_the_cookie_value_is_signed_with_the_secret_key(rf, db):
    from django.http import HttpResponse

    player = Player.objects.create(name="Sly Fox")
    response = HttpResponse()
    set_player_cookie(response, player)

    assert response.cookies[COOKIE_NAME].value.startswith(f"{player.public_id}:0:")
