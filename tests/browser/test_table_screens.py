"""A friends' table's screens in English, Spanish and Thai at 360×740, 390×844, 844×390 and
1280×800 (issue 51): the lobby, the game in the middle of a deal, the deal's results with the
break's countdown, the game over and the replay. Ana is on a laptop (by mouse, 1280×800), Ben
on a phone (by touch), his page shown at each phone size in turn. Each screen is in the
language asked for, fits the window's width and logs no error; with ``SCREENS=1`` each is
saved for a person to look at, in ``artifacts/screenshots/table/<lang>/<screen>-<size>.png``
(as tests/browser/test_screens.py does for a game played alone)."""

from __future__ import annotations

import json

import pytest

from games.tables.models import Table
from tests.browser.conftest import shoot
from tests.browser.table_driver import view
from tests.browser.test_analysis import eager_tasks  # noqa: F401 (autouse: the review is written)
from tests.browser.test_fair_clock import BREAK_CLOCK, turn_on_the_page
from tests.browser.test_screens import LOCALES, OVERFLOW
from tests.browser.test_together import (
    LAPTOP,
    PHONE,
    RENAME,
    Person,
    api_of,
    here_now,
    start_together,
)
from tests.games.scripted import one_action, play_together_to_the_end
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.slow]

PHONE_SIZES = {"390x844": PHONE, "360x740": {"width": 360, "height": 740},
               "844x390": {"width": 844, "height": 390}}
# The elements that reach past the window's right edge (the innermost ones), for a failure.
WIDER = """() => [...document.querySelectorAll('body *')].filter((el) =>
    el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
    && ![...el.children].some((c) => c.getBoundingClientRect().right
                                      > document.documentElement.clientWidth + 0.5))
    .map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 30)}`)"""
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def screens(host, guest, lang: str, name: str, full_page: bool = False) -> None:
    """The screen on Ana's laptop and on Ben's phone at each size: in ``lang``, no wider than
    the window; saved with SCREENS=1."""
    shots = [(host, "1280x800", LAPTOP)] + [(guest, size, vp) for size, vp in PHONE_SIZES.items()]
    for page, size, viewport in shots:
        if page.viewport_size != viewport:  # a reaction's bubble stays where it was put
            page.evaluate("() => document.querySelector('.reaction-layer')?.replaceChildren()")
        page.set_viewport_size(viewport)
        page.evaluate(FRAMES)
        page.wait_for_timeout(150)  # the ResizeObservers' measures, then their layout
        screen = page.evaluate(OVERFLOW)
        assert screen == {"lang": lang, "overflow": 0}, (name, size, screen, page.evaluate(WIDER))
        shoot(page, f"table/{lang}/{name}-{size}", full_page=full_page)
    guest.set_viewport_size(PHONE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_friends_tables_screens_in_each_language_and_size(open_page, site, seeded, lang):
    host, host_watch = open_page(LAPTOP, speed="instant", locale=LOCALES[lang])
    guest, guest_watch = open_page(PHONE, touch=True, speed="instant", locale=LOCALES[lang])
    for page, name in ((host, "Ana"), (guest, "Ben")):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": site.url}])
        page.context.add_init_script(  # the computer players' moves seen, quickly
            "localStorage.setItem('ladder.settings', "
            f"{json.dumps(json.dumps({'speed': 'fast', 'askJoker': False}))})")
        page.goto(site.url + "/#friends")
        assert page.evaluate(RENAME, name) == 200
    host.fill("#table-name", "Friday cards")
    host.check('#table-form input[name="turn_seconds"][value="60"]')
    host.click("#table-form button[type=submit]")
    host.wait_for_selector("[data-code]:not(:empty)")
    guest.goto(host.locator("[data-link]").input_value())
    guest.wait_for_selector("[data-join]:not([hidden])")
    screens(host, guest, lang, "join", full_page=True)
    guest.tap("[data-join]")
    guest.wait_for_url("**/tables/*/")
    for page in (host, guest):
        here_now(page, ["Ana", "Ben"])
    assert Table.objects.get().turn_seconds == 60
    guest.tap('[data-reactions] [data-reaction="nice"]')
    host.wait_for_selector(".reaction-bubble")
    screens(host, guest, lang, "lobby", full_page=True)

    game_id = start_together(host, guest)
    seats = {view(page)["you"]: page for page in (host, guest)}
    people = {view(p.page)["you"]: api_of(p, site)
              for p in (Person(host, None, "Ana", False), Person(guest, None, "Ben", True))}
    game = people[0].get(f"/games/{game_id}").json()
    for _ in range(4):  # four turns on their pages: the middle of the deal, a turn's clock running
        turn_on_the_page(seats[game["turn"]], touch=seats[game["turn"]] is guest)
        game = people[0].get(f"/games/{game_id}").json()
    seats[game["turn"]].wait_for_selector("#game.my-turn")
    guest.tap("[data-react-toggle]")
    guest.tap('#reactions [data-reaction="good_game"]')
    host.wait_for_selector(".reaction-bubble")
    screens(host, guest, lang, "game")
    # The rest of the deal from their other devices (the API): each page shows the deal's
    # results played back or read as missed, as the timing has it (test_converge has both).
    while game["deal"] == 1:
        mover = people[game["turn"]]
        game = one_action(mover, mover.get(f"/games/{game_id}").json())
    assert game["deal"] == 2
    for page in (host, guest):
        page.wait_for_selector(BREAK_CLOCK, timeout=30_000)
    screens(host, guest, lang, "deal-results")
    for page in (host, guest):  # they go on, and leave the rest to the API
        page.click("dialog[open] [data-summary-continue]")
        page.goto(site.url + "/rules/")

    game = play_together_to_the_end(people, people[0].get(f"/games/{game_id}").json())
    assert game["status"] == "finished"
    for page in (host, guest):
        page.goto(f"{site.url}/play/{game_id}/")
        page.wait_for_selector("dialog[open] .scores")
    host.wait_for_selector("dialog[open] [data-play-again]")
    guest.wait_for_selector("dialog[open] .waiting-next")
    screens(host, guest, lang, "game-over")

    for page in (host, guest):
        page.goto(f"{site.url}/replay/{game_id}/?v=40")
        page.wait_for_selector("#replay:not([data-loading])")
    # Titled as the game page titles it: by the table and the friends at it.
    assert "Friday cards" in host.locator("[data-deal-info]").text_content()
    assert "Ana" in guest.locator("[data-deal-info]").text_content()
    screens(host, guest, lang, "replay")
    host_watch.check()
    guest_watch.check()
