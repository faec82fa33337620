"""The admin is for staff only, and its login is throttled per address."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_the_admin_sends_a_visitor_to_its_login_page(client):
    response = client.get("/admin/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_signed_in_player_who_is_not_staff_cannot_enter_the_admin(client):
    User.objects.create_user("player", password="a long password 1")
    client.login(username="player", password="a long password 1")

    response = client.get("/admin/")

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_non_staff_user_cannot_sign_in_to_the_admin(client):
    User.objects.create_user("player", password="a long password 1")

    response = client.post("/admin/login/", {"username": "player",
                                             "password": "a long password 1"})

    assert response.status_code == 200  # the form again, with an error
    assert "_auth_user_id" not in client.session


def test_staff_can_enter_the_admin(client):
    User.objects.create_user("moderator", password="a long password 2", is_staff=True)
    client.login(username="moderator", password="a long password 2")

    assert client.get("/admin/").status_code == 200


@pytest.mark.slow
def test_login_attempts_past_the_limit_are_429_with_retry_after(client, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "admin_login": "3/15m"}
    User.objects.create_user("moderator", password="a long password 2", is_staff=True)

    guesses = [client.post("/admin/login/", {"username": "moderator", "password": f"guess {i}"})
               for i in range(3)]
    refused = client.post("/admin/login/", {"username": "moderator",
                                            "password": "a long password 2"})

    assert [r.status_code for r in guesses] == [200, 200, 200]
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 900
    assert "_auth_user_id" not in client.session


def test_viewing_the_login_page_is_not_counted(client, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "admin_login": "1/15m"}

    assert {client.get("/admin/login/").status_code for _ in range(5)} == {200}
