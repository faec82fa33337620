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


def test_yesterdays_board_links_each_member_to_their_replay(open_page, site, clock):
    """The day after, a league's page lists yesterday's daily with a real link to each
    member's replay: a click, a key (Enter) and a tap land on the replay viewer."""
    from games.players.identity import COOKIE_NAME
    from games.services.daily import start_daily
    from tests.browser.test_replay import signed_cookie
    from tests.factories import player_with_token
    from tests.leaderboards.leagues.factories import league_with
    from tests.leaderboards.play import play_to_the_end

    ana, _ = player_with_token("Ana")
    ben, _ = player_with_token("Ben")
    league = league_with(ana, ben)
    games = {someone.name: play_to_the_end(start_daily(someone).game)
             for someone in (ana, ben)}
    clock.advance(days=1)  # their day has ended: the replays open, and the board names them
    cookie = {"name": COOKIE_NAME, "value": signed_cookie(ana), "url": site.url}
    league_page = f"{site.url}/leagues/{league.public_id}/"
    rows = "[data-yesterday-rows] tr"

    def watch_link(page, name: str):
        page.goto(league_page)
        page.wait_for_selector(rows)
        link = page.get_by_role("link", name=f"Watch how {name} played")
        assert link.get_attribute("href") == f"/replay/{games[name].public_id}/"
        return link

    def on_the_viewer(page, name: str):
        page.wait_for_url(f"**/replay/{games[name].public_id}/")
        page.wait_for_selector("#replay:not([data-loading])")

    page, watch = open_page(DESKTOP)
    page.context.add_cookies([cookie])
    watch_link(page, "Ben")
    assert sorted(names_in(page, rows)) == ["Ana", "Ben"]
    assert page.locator("[data-today-rows] a").count() == 0  # today: nothing to watch yet
    shoot(page, "league-yesterday-desktop")
    watch_link(page, "Ben").click()  # the mouse
    on_the_viewer(page, "Ben")
    watch_link(page, "Ana").focus()
    page.keyboard.press("Enter")  # the keyboard
    on_the_viewer(page, "Ana")
    watch.check()

    phone, phone_watch = open_page(PHONE, touch=True)
    phone.context.add_cookies([cookie])
    link = watch_link(phone, "Ben")
    shoot(phone, "league-yesterday-phone")
    link.tap()  # a finger
    on_the_viewer(phone, "Ben")
    phone_watch.check()


def test_a_member_who_has_not_played_today_is_told_the_results_wait_for_them(open_page, site):
    """Ana has played today's daily, Ben not yet: Ben's week shows no row (today's results
    are hidden from him until he plays), and says so, not that nobody has played."""
    from games.players.identity import COOKIE_NAME
    from games.services.daily import start_daily
    from tests.browser.test_replay import signed_cookie
    from tests.factories import player_with_token
    from tests.leaderboards.leagues.factories import league_with
    from tests.leaderboards.play import play_to_the_end

    ana, _ = player_with_token("Ana")
    ben, _ = player_with_token("Ben")
    league = league_with(ana, ben)
    play_to_the_end(start_daily(ana).game)
    page, watch = open_page(PHONE, touch=True)
    page.context.add_cookies([{"name": COOKIE_NAME, "value": signed_cookie(ben),
                               "url": site.url}])
    page.goto(f"{site.url}/leagues/{league.public_id}/")
    page.wait_for_selector("[data-played]:not([hidden])")
    week = page.locator("section[aria-labelledby=week-title]")
    assert "No dailies this week yet" not in week.inner_text()
    hidden = page.locator("[data-week-hidden]")
    assert hidden.is_visible()
    assert "until you play" in hidden.inner_text()
    hidden.get_by_role("link").tap()
    page.wait_for_url("**/daily/")
    watch.check()
