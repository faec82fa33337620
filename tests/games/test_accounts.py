"""POST /account/register, /account/login, /account/logout: optional accounts that keep an
identity across devices."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.identity import COOKIE_NAME
from games.models import Player
from tests.games.conftest import Api
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def new_browser(address: str = "127.0.0.1") -> Api:
    api = Api(Client(enforce_csrf_checks=True, REMOTE_ADDR=address), csrf=True)
    api.get("/csrf")
    return api


def test_a_player_attaches_an_account_with_a_hashed_password(browser):
    game = browser.new_game()

    response = browser.post("/account/register", {"username": "lucia", "password": PASSWORD})

    assert response.status_code == 201
    assert response.json()["registered"] is True and response.json()["username"] == "lucia"
    user = get_user_model().objects.get(username="lucia")
    assert user.password.startswith(("pbkdf2_", "argon2", "bcrypt", "scrypt"))
    assert PASSWORD not in user.password
    assert Player.objects.get(user=user).games.get().public_id == game["id"]


def test_logging_in_elsewhere_brings_the_identity_and_its_games(browser):
    game = browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    elsewhere = new_browser()

    response = elsewhere.post("/account/login", {"username": "lucia", "password": PASSWORD})

    assert response.status_code == 200
    assert response.cookies[COOKIE_NAME]["httponly"] is True
    assert elsewhere.get(f"/games/{game['id']}").json()["id"] == game["id"]
    assert elsewhere.get("/me").json() == browser.get("/me").json()


def test_a_wrong_password_is_401_and_logs_nobody_in(browser):
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    elsewhere = new_browser()

    response = elsewhere.post("/account/login", {"username": "lucia", "password": "guess"})

    assert response.status_code == 401
    assert error_of(response)["code"] == "invalid_credentials"
    assert COOKIE_NAME not in response.cookies
    assert elsewhere.get("/me").status_code == 401


def test_logins_are_throttled_per_address_and_per_username(browser, settings, throttle_clock):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "login": "3/d"}
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    wrong = {"username": "Lucia", "password": "guess"}

    one_address = new_browser("10.0.0.1")
    by_address = [one_address.post("/account/login", wrong).status_code for _ in range(4)]
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "login": "5/d"}
    by_username = [new_browser(f"10.0.1.{n}").post("/account/login", wrong).status_code
                   for n in range(3)]

    assert by_address == [401, 401, 401, 429]
    # "lucia" had 3 tries counted (the 4th stopped at the address); the limit is now 5
    assert by_username == [401, 401, 429]


def test_login_is_csrf_checked(browser):
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    forged = Api(Client(enforce_csrf_checks=True))

    response = forged.post("/account/login", {"username": "lucia", "password": PASSWORD})

    assert response.status_code == 403
    assert error_of(response)["code"] == "csrf_failed"


@pytest.mark.parametrize("username, password, status, code", [
    ("lu", PASSWORD, 422, "invalid_username"),
    ("lucia!", PASSWORD, 422, "invalid_username"),
    ("lucia", "12345678", 422, "weak_password"),
    ("lucia", "lucia", 422, "weak_password"),
])
def test_a_bad_username_or_weak_password_is_refused(alice, username, password, status, code):
    response = alice.post("/account/register", {"username": username, "password": password})

    assert response.status_code == status
    assert error_of(response)["code"] == code
    assert not get_user_model().objects.exists()


def test_a_taken_username_and_a_second_account_are_409(alice, bob):
    assert alice.post("/account/register", {"username": "lucia", "password": PASSWORD}
                      ).status_code == 201

    taken = bob.post("/account/register", {"username": "LUCIA", "password": PASSWORD})
    again = alice.post("/account/register", {"username": "lucia2", "password": PASSWORD})

    assert (taken.status_code, error_of(taken)["code"]) == (409, "username_taken")
    assert (again.status_code, error_of(again)["code"]) == (409, "already_registered")


def test_logging_out_forgets_the_cookie(browser):
    browser.new_game()

    response = browser.post("/account/logout")

    assert response.status_code == 204
    assert response.cookies[COOKIE_NAME].value == ""
    assert browser.get("/me").status_code == 401
