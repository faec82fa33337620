"""Friend leagues in the browser: one player creates a league, a second browser opens its link
and joins with one confirmation, both finish today's daily, and the league's board ranks them
as the public board does (R22); the first browser's page takes the second's finish live, over
the league's websocket, without a reload."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, shoot
from tests.browser.table_driver import view, wait_idle
from tests.browser.test_daily import finish_on_the_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY_ROWS = "[data-today-rows] tr"
PHONE = {"width": 390, "height": 844}


def start_todays_daily(page, site) -> str:
    page.goto(site.url + "/")
    page.wait_for_selector("[data-daily-start]:not([disabled])")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    return view(page)["id"]


def names_in(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all(
        "rows => rows.map(r => r.cells[1].textContent)")


def r22_order() -> list[str]:
    from leaderboards.models import Score

    return [s.player.name for s in Score.objects.select_related("player").ranked()]


def rename(page, name: str) -> None:
    """The display name through the API, as the profile page sets it."""
    page.evaluate("""async (name) => {
        const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
        await fetch('/api/v1/me', {method: 'PATCH', body: JSON.stringify({name}),
            headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}});
    }""", name)


def test_a_league_made_joined_and_ranked_live(open_page, site):
    ana, ana_watch = open_page(DESKTOP)
    ana.goto(site.url + "/leagues/")
    ana.fill("#league-name", "Friday Club")
    ana.keyboard.press("Enter")  # the keyboard submits the form
    ana.wait_for_url("**/leagues/*/")
    ana.wait_for_selector("[data-code]:not(:empty)")
    rename(ana, "Ana")
    link = ana.input_value("[data-link]")
    assert "/leagues/join/" in link
    shoot(ana, "league-new-desktop")

    ben, ben_watch = open_page(PHONE, touch=True)
    ben.goto(link)
    ben.wait_for_selector("[data-join]:not([hidden])")
    assert "Friday Club" in ben.inner_text("[data-what]")
    assert "1 member" in ben.inner_text("[data-what]")
    shoot(ben, "league-join-phone")
    ben.tap("[data-join]")
    ben.wait_for_url("**/leagues/*/")
    ben.wait_for_selector("[data-members] li >> nth=1")
    rename(ben, "Ben")

    finish_on_the_server(start_todays_daily(ana, site))
    ben_game = start_todays_daily(ben, site)

    ana.goto(site.url + "/leagues/")
    ana.click(".league-list a")
    ana.wait_for_selector(TODAY_ROWS)
    assert names_in(ana, TODAY_ROWS) == ["Ana"]
    assert "Ben" in ana.inner_text("[data-not-played]")

    finish_on_the_server(ben_game)  # the second finish reaches Ana's open page by itself
    ana.wait_for_function(
        "() => document.querySelectorAll('[data-today-rows] tr').length === 2")
    assert names_in(ana, TODAY_ROWS) == r22_order()
    assert ana.locator("[data-not-played]").is_hidden()
    shoot(ana, "league-board-desktop")

    ben.goto(ana.url)
    ben.wait_for_function(
        "() => document.querySelectorAll('[data-today-rows] tr').length === 2")
    assert names_in(ben, TODAY_ROWS) == r22_order()
    assert ben.locator("[data-manage]").is_hidden()  # Ben did not create it
    shoot(ben, "league-board-phone")

    ben.goto(site.url + "/daily/")
    ben.wait_for_selector("#league-standings:not([hidden]) .standing-list li >> nth=1")
    shoot(ben, "daily-league-standings-phone")
    ana.goto(site.url + "/?lang=th")
    ana.wait_for_selector("#league-standings:not([hidden]) .standing-list li >> nth=1")
    shoot(ana, "home-league-standings-desktop-th")
    ana_watch.check()
    ben_watch.check()
