"""The site around the table: language by link and in its own name, the Thai webfont, the
daily page (result, distribution, streak, share card as text and PNG), the week board's dates,
the home page's true deal, and an unknown game's page. With SCREENS=1, screenshots at four
sizes in all three languages go to artifacts/screenshots/site-*.png."""

from __future__ import annotations

import base64
import re
import struct
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.conftest import DESKTOP, shoot
from tests.browser.strategy import person_action
from tests.browser.table_driver import wait_idle
from tests.browser.test_daily import finish_on_the_server
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THAI_FONT = re.compile(r"/static/frontend/fonts/noto-sans-thai(\.[0-9a-f]+)?\.woff2$")
THAI_NAME_FONT = re.compile(r"/static/frontend/fonts/noto-sans-thai-name(\.[0-9a-f]+)?\.woff2$")
SIZES = {"1280x800": {"width": 1280, "height": 800}, "1366x768": {"width": 1366, "height": 768},
         "1920x1080": {"width": 1920, "height": 1080}, "390x844": {"width": 390, "height": 844}}


def font_requests(page) -> list[str]:
    fonts: list[str] = []
    page.on("request", lambda r: r.resource_type == "font" and fonts.append(r.url))
    return fonts


def test_a_thai_link_renders_thai_with_the_sites_own_thai_font(open_page, site):
    page, watch = open_page(DESKTOP)
    fonts = font_requests(page)
    page.goto(site.url + "/rules/?lang=th")
    assert page.url == site.url + "/rules/"  # the language is kept; the link cleaned
    assert page.get_attribute("html", "lang") == "th"
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    assert [u for u in fonts if THAI_FONT.search(u)], fonts
    assert all(u.startswith(site.url) for u in fonts)
    assert page.evaluate("() => document.fonts.check('16px \"Ladder Thai\"', 'กติกา')")

    page.goto(site.url + "/leaderboard/")  # the choice persists, like the picker's
    assert page.get_attribute("html", "lang") == "th"
    watch.check()


def test_pages_in_other_languages_download_only_the_pickers_thai_word(open_page, site):
    page, watch = open_page(DESKTOP)
    fonts = font_requests(page)
    page.goto(site.url + "/?lang=es")
    assert page.get_attribute("html", "lang") == "es"
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    page.goto(site.url + "/rules/")
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    assert [u for u in fonts if THAI_FONT.search(u)] == []
    assert all(THAI_NAME_FONT.search(u) for u in fonts), fonts  # "ไทย" in the picker
    watch.check()


def test_an_unknown_language_code_in_a_link_changes_nothing(open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/rules/?lang=xx")
    assert page.get_attribute("html", "lang") == "en"
    watch.check()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_picker_names_each_language_in_itself(open_page, site, lang):
    page, watch = open_page(DESKTOP)
    page.goto(f"{site.url}/?lang={lang}")
    names = page.locator("#lang-select option").all_inner_texts()
    assert names == ["English", "Español", "ไทย"]
    assert page.input_value("#lang-select") == lang
    watch.check()


def test_an_unknown_game_gets_a_page_that_says_so_and_leads_home(open_page, site):
    page, watch = open_page(DESKTOP)
    response = page.goto(site.url + "/play/no-such-game/")
    assert response.status == 404
    assert page.inner_text("h1") == "Game not found"
    assert page.locator("[data-stock], [data-hand], .hand").count() == 0
    page.click("text=Back to the home page")
    page.wait_for_url(site.url + "/")
    watch.check(allow=("status of 404",))


def play_into_deal(game_id: str, deal: int) -> None:
    """Play the person's moves (scripted) through the service layer until ``deal`` begins,
    in a thread of its own (this one runs Playwright's event loop)."""
    def run():
        from django.db import connection

        from games import services
        from games.engine import player_view
        from games.models import Game

        try:
            while True:
                game = Game.objects.get(public_id=game_id)
                state = game.load_state()
                if state.deal >= deal:
                    return
                action = person_action(player_view(state, 0))
                services.act(game_id, game.owner, game.version, action.to_json())
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(run).result()


def test_home_lists_a_game_at_the_deal_it_has_reached(open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/")
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    play_into_deal(game_id, 3)
    page.goto(site.url + "/")
    link = page.locator(f'[data-games] a[href="/play/{game_id}/"]')
    link.wait_for()
    assert link.inner_text() == "Practice game, deal 3 of 10"
    watch.check()


def png_size(data_url: str) -> tuple[int, int]:
    """The width and height a PNG data URL's header declares, after checking its signature."""
    head, _, payload = data_url.partition(",")
    assert head == "data:image/png;base64"
    data = base64.b64decode(payload)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def finish_todays_daily(page, base_url: str) -> None:
    page.goto(base_url + "/daily/")
    page.click("[data-daily-play]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    finish_on_the_server(page.url.rstrip("/").rsplit("/", 1)[-1])


def test_after_the_daily_its_page_shows_result_distribution_streak_and_a_share_card(
        open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/")
    assert page.locator("header nav a", has_text="Daily").get_attribute("href") == "/daily/"
    finish_todays_daily(page, site.url)
    page.goto(site.url + "/daily/")
    page.wait_for_selector("#daily-page[data-loaded]")

    assert page.inner_text("[data-daily-state]") == "Done for today."
    result = page.inner_text("[data-daily-result]")
    assert re.search(r"Your result: \d+ contracts? done, \d+ penalty points?, place \d", result)
    assert "Rank 1 of 1 today." in result
    assert "Daily streak: 1 day (longest: 1 day)." == page.inner_text("[data-streak]")
    assert re.fullmatch(r"\d+:\d\d:\d\d", page.inner_text("[data-countdown]"))

    columns = page.locator("[data-distribution] li")
    assert columns.count() == 11
    mine = page.locator("[data-distribution] li.mine")
    assert mine.count() == 1 and mine.locator(".bar-count").inner_text() == "1"

    commitment = page.inner_text("[data-daily-commitment]")
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    lines = page.input_value("[data-share-text]").splitlines()
    assert lines[0].startswith("Ladder Rummy daily")
    assert len([ch for ch in lines[2] if ch in "🟨🟩⬜"]) == 10
    assert lines[3] == f"Commitment {commitment[:16]}…"  # whole on the page itself
    assert lines[4] == site.url + "/daily/"
    image = page.get_attribute("[data-share-download]", "href")
    assert png_size(image) == (1200, 630)
    assert page.get_attribute("[data-share-image]", "src") == image
    watch.check()


def test_the_week_board_is_titled_with_its_dates(open_page, site):
    page, watch = open_page(DESKTOP)
    page.goto(site.url + "/leaderboard/")
    page.click("[data-board=week]")
    title = page.locator("[data-board-title]")
    title.wait_for()
    # en-GB, the browser's locale: "Week 1–7 December 2026", "Week 30 November – 6 December 2026"
    # (the dash within one month is spaced or not, by the browser's ICU: Chromium 156 spaces it)
    days = r"\d{1,2}(–|\s–\s)\d{1,2} \w+ \d{4}|\d{1,2} \w+( \d{4})?\s–\s\d{1,2} \w+ \d{4}"
    assert re.fullmatch(f"Week ({days})", title.inner_text()), title.inner_text()
    assert "W" not in title.inner_text().replace("Week", "")
    watch.check()


def fits_across(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("size", SIZES)
def test_the_sites_pages_fit_every_size_in_every_language(open_page, site, size):
    page, watch = open_page(SIZES[size])
    finish_todays_daily(page, site.url)
    for lang in LANGUAGES:
        for name, path in [("home", "/"), ("daily", "/daily/"), ("leaderboard", "/leaderboard/"),
                           ("rules", "/rules/"), ("not-found", "/play/no-such-game/")]:
            page.goto(f"{site.url}{path}?lang={lang}")
            if name == "daily":
                page.wait_for_selector("#daily-page[data-loaded]")
            if name == "leaderboard":
                page.click("[data-board=week]")
                page.wait_for_selector(".board tbody tr")
            page.wait_for_function("() => document.fonts.status === 'loaded'")
            assert fits_across(page), f"{name} in {lang} at {size} scrolls sideways"
            shoot(page, f"site-{name}-{lang}-{size}")
    watch.check(allow=("status of 404",))


# Every link of the menu: where it goes, and whether it lies whole inside the window.
MENU_LINKS = """() => [...document.querySelectorAll('header.site nav a')].map((a) => {
    const r = a.getBoundingClientRect();
    return {href: a.getAttribute('href'), seen: r.width > 0 && r.left >= 0 && r.top >= 0
            && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5};
})"""


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_on_a_phone_the_menu_opens_with_every_link_in_sight(open_page, site, size):
    """On a phone the menu is a button that opens every link, Your games with them, in sight:
    it used to be one row that scrolled sideways, Profile or Play off the screen."""
    width, height = (int(n) for n in size.split("x"))
    page, watch = open_page({"width": width, "height": height}, touch=True)
    for path in ("/", "/profile/", f"/play/{'x' * 22}/"):  # the table's header is one row
        page.goto(f"{site.url}{path}?lang=es")
        page.wait_for_function("() => document.fonts.status === 'loaded'")
        assert fits_across(page)
        assert page.evaluate("() => document.querySelector('header.site').scrollWidth"
                             " <= innerWidth")
        toggle = page.get_by_role("button", name="Menú")
        toggle.tap()
        links = page.evaluate(MENU_LINKS)
        assert [link["href"] for link in links] == [
            "/", "/games/", "/daily/", "/leaderboard/", "/leagues/", "/rules/", "/about/",
            "/profile/"]
        assert all(link["seen"] for link in links), (path, links)
        page.keyboard.press("Escape")  # it closes as it opened
        page.wait_for_function("() => !document.querySelector('header.site nav a')"
                               ".getBoundingClientRect().width")
    toggle.tap()
    page.get_by_role("link", name="Perfil").tap()
    page.wait_for_url("**/profile/")
    watch.check(allow=("status of 404",))
