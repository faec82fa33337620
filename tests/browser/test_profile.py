"""The profile page keeps an identity across browsers: a one-time transfer code, and the
optional account (register here, log in elsewhere). Each browser is a context of its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSED = ("status of 401", "status of 404")  # refusals the page explains in words
PASSWORD = "felt-ladder-4829"
START_GAME = ("async () => (await import('/static/frontend/js/api.js'))"
              ".startGame('practice', 'easy').then(g => g.id)")


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    """A password hash that takes no time: this is about the pages, not about PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def profile(page, base_url: str) -> None:
    page.goto(base_url + "/profile/")
    page.wait_for_selector(".profile[data-loaded]")


def name_and_a_game(page, base_url: str, name: str) -> str:
    """A browser with a player called ``name`` and one practice game; the game's id."""
    profile(page, base_url)
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")
    page.wait_for_selector(f'[data-status]:has-text("{name}")')
    return page.evaluate(START_GAME)


def test_a_transfer_code_moves_the_name_and_games_to_another_browser(open_page, site):
    first, first_watch = open_page(DESKTOP)
    game_id = name_and_a_game(first, site.url, "Marguerite")
    profile(first, site.url)
    first.click("[data-transfer-create]")
    code_box = first.locator("[data-transfer-code]")
    expect(code_box).to_have_text(re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    code = code_box.inner_text()
    assert "15" in first.inner_text("[data-transfer-expiry]")
    shoot(first, "profile-transfer-code-desktop")

    second, second_watch = open_page(PHONE, touch=True)
    profile(second, site.url)
    assert second.locator("[data-transfer-make]").is_hidden()  # nobody to move yet
    second.fill("#redeem-code", code.lower())
    second.tap("#redeem-form button[type=submit]")
    second.wait_for_selector('[data-status]:has-text("Marguerite")')
    second.wait_for_selector(".profile[data-loaded]")
    assert second.input_value("#name-input") == "Marguerite"
    assert second.inner_text('[data-stat="active"]') == "1"
    second.goto(f"{site.url}/play/{game_id}/")
    second.wait_for_selector(".hand .card")
    shoot(second, "profile-after-transfer-phone")

    # Moved, not copied: the first browser no longer plays as Marguerite.
    profile(first, site.url)
    first.wait_for_selector('[data-status]:has-text("no identity")')
    # A spent code is refused, in words.
    second.goto(site.url + "/profile/")
    second.fill("#redeem-code", code)
    second.click("#redeem-form button[type=submit]")
    second.wait_for_selector('[data-status]:has-text("expired or been used")')
    first_watch.check(allow=REFUSED)
    second_watch.check(allow=REFUSED)


def test_an_account_is_registered_here_and_logged_into_from_a_fresh_browser(
        open_page, site):
    first, first_watch = open_page(DESKTOP)
    name_and_a_game(first, site.url, "Hypatia")
    first.fill("#register-username", "hypatia_a")
    first.fill("#register-password", PASSWORD)
    first.click("#register-form button[type=submit]")
    first.wait_for_selector("[data-account-registered]:not([hidden])")
    assert first.inner_text("[data-account-username]") == "hypatia_a"
    assert first.locator("#register-form").is_hidden()

    fresh, fresh_watch = open_page(DESKTOP)
    profile(fresh, site.url)
    fresh.fill("#login-username", "hypatia_a")
    fresh.fill("#login-password", "not-the-password")
    fresh.click("#login-form button[type=submit]")
    fresh.wait_for_selector('[data-status]:has-text("Wrong username or password")')
    fresh.fill("#login-password", PASSWORD)
    fresh.press("#login-password", "Enter")  # the keyboard submits the form
    fresh.wait_for_selector('[data-status]:has-text("Hypatia")')
    fresh.wait_for_selector(".profile[data-loaded]")
    assert fresh.input_value("#name-input") == "Hypatia"
    assert fresh.inner_text('[data-stat="active"]') == "1"
    assert fresh.inner_text("[data-account-username]") == "hypatia_a"
    shoot(fresh, "profile-logged-in-desktop")

    fresh.click("[data-logout]")
    fresh.wait_for_selector('[data-status]:has-text("Logged out")')
    assert fresh.input_value("#name-input") == ""
    first_watch.check()
    fresh_watch.check(allow=REFUSED)
