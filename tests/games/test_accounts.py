"""POST /account/register, /account/login, /account/logout: optional accounts that keep an
identity across devices."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.players.identity import COOKIE_NAME
from games.players.models import Player
from tests.games.conftest import Api
from tests.games.helpers import error_of

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def log_in(client, username: str, password: str):
    return client.post("/account/login", {"username": username, "password": password})


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


@pytest.mark.slow
def test_logging_in_elsewhere_brings_the_identity_and_its_games(browser):
    game = browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    elsewhere = new_browser()

    response = log_in(elsewhere, "lucia", PASSWORD)

    assert response.status_code == 200
    assert response.cookies[COOKIE_NAME]["httponly"] is True
    assert elsewhere.get(f"/games/{game['id']}").json()["id"] == game["id"]
    assert elsewhere.get("/me").json() == browser.get("/me").json()


def test_a_wrong_password_is_401_and_logs_nobody_in(browser):
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    elsewhere = new_browser()

    response = log_in(elsewhere, "lucia", "guess")

    assert response.status_code == 401
    assert error_of(response)["code"] == "invalid_credentials"
    assert COOKIE_NAME not in response.cookies
    assert elsewhere.get("/me").status_code == 401


def limits(settings, **rates):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, **rates}


def registered_lucia(browser) -> None:
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})


@pytest.mark.slow
def test_failed_logins_are_throttled_per_username_and_address_with_retry_after(
        browser, settings, throttle_clock):
    limits(settings, login="3/d", login_address="100/d")
    registered_lucia(browser)
    attacker = new_browser("10.0.0.1")

    guesses = [log_in(attacker, "Lucia", "guess")
               for _ in range(4)]
    right_but_late = log_in(attacker, "lucia", PASSWORD)

    assert [r.status_code for r in guesses] == [401, 401, 401, 429]
    assert error_of(guesses[-1])["code"] == "throttled"
    assert right_but_late.status_code == 429
    for refused in (guesses[-1], right_but_late):
        assert 1 <= int(refused["Retry-After"]) <= 86_400


@pytest.mark.slow
def test_the_owner_logs_in_from_another_address_while_an_attacker_is_throttled(
        browser, settings, throttle_clock):
    limits(settings, login="3/d", login_address="3/d")
    registered_lucia(browser)
    attacker = new_browser("10.0.0.1")
    statuses = [log_in(attacker, "lucia", "guess")
                .status_code for _ in range(5)]

    owner = log_in(new_browser("10.0.2.2"), "lucia", PASSWORD)

    assert statuses[-1] == 429
    assert owner.status_code == 200


@pytest.mark.slow
def test_an_address_guessing_many_usernames_is_throttled(browser, settings, throttle_clock):
    limits(settings, login="3/d", login_address="4/d")
    attacker = new_browser("10.0.0.1")

    responses = [log_in(attacker, f"user{n}", "guess")
                 for n in range(5)]

    assert [r.status_code for r in responses] == [401, 401, 401, 401, 429]
    assert int(responses[-1]["Retry-After"]) >= 1
    assert log_in(new_browser("10.0.0.2"), "user9", "guess").status_code == 401


@pytest.mark.slow
def test_only_failed_logins_count(browser, settings, throttle_clock):
    limits(settings, login="2/d", login_address="2/d")
    registered_lucia(browser)
    owner = new_browser("10.0.0.3")

    right = [log_in(owner, "lucia", PASSWORD)
             .status_code for _ in range(4)]
    wrong = [log_in(owner, "lucia", "guess")
             .status_code for _ in range(3)]

    assert right == [200] * 4
    assert wrong == [401, 401, 429]


def test_login_is_csrf_checked(browser):
    browser.new_game()
    browser.post("/account/register", {"username": "lucia", "password": PASSWORD})
    forged = Api(Client(enforce_csrf_checks=True))

    response = log_in(forged, "lucia", PASSWORD)

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


@pytest.mark.slow
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
