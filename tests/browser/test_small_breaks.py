"""Small things that cost trust: Back to home shows the daily as it is now, "Play again"
after the daily starts a practice game, the profile answers beside the form used."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.table_driver import start_daily, view, wait_idle
from tests.browser.test_daily import finish_on_the_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether the last page shown came from the browser's back-forward cache.
NOTE_RESTORES = "addEventListener('pageshow', (e) => { window.__restored = e.persisted; });"


def test_back_to_home_shows_the_dailys_state_as_it_is_now(open_page, site):
    page, watch = open_page(DESKTOP)
    page.context.add_init_script(NOTE_RESTORES)
    start_daily(page, site.url)

    page.go_back()
    page.wait_for_function("() => document.querySelector('[data-daily-state]')"
                           ".textContent.startsWith('In progress')")
    assert "Resume" in page.inner_text("[data-daily-start]")
    # A game started from here is listed, restored from the cache or not.
    page.wait_for_selector("#my-games:not([hidden]) [data-games] a")
    watch.check()


def test_play_again_after_the_daily_starts_a_practice_game_at_its_level(open_page, site):
    page, watch = open_page(PHONE, touch=True)
    page.goto(site.url + "/")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    daily = view(page)
    finish_on_the_server(daily["id"])
    page.reload()
    page.wait_for_selector("dialog[open]")
    page.get_by_role("button", name="Practise at this level").tap()
    page.wait_for_url(lambda url: "/play/" in url and daily["id"] not in url)
    wait_idle(page)
    practice = view(page)
    assert (practice["mode"], practice["level"]) == ("practice", daily["level"])
    watch.check()


def test_the_profile_answers_beside_the_form_and_log_in_goes_once_there_is_an_account(
        open_page, site, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    page, watch = open_page(PHONE, touch=True)
    page.goto(site.url + "/profile/")
    page.wait_for_selector(".profile[data-loaded]")
    page.fill("#name-input", "Beatriz")
    page.tap("#name-form button[type=submit]")
    page.wait_for_selector('#name-form [data-status]:has-text("Beatriz")')
    assert page.locator("#login").is_visible()

    page.fill("#register-username", "beatriz")
    page.fill("#register-password", "felt-ladder-4829")
    page.tap("#register-form button[type=submit]")
    page.wait_for_selector('#account [data-status]:has-text("Account created")')
    assert page.locator("#login").is_hidden()  # this browser is the account now
    # The answer is where the player looks: inside the window, beside the form.
    box = page.locator("#account [data-status]").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]
    watch.check()
