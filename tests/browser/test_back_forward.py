"""A table's page brought back by the Back button (issue 51, "Nothing is ever missed").
Browsers keep a page the person left in their back-forward cache and show it again as it was:
its scripts frozen, its socket closed on the way out. Playwright launches Chromium with that
cache off (``--disable-back-forward-cache``, among its default switches), so this module's
Chromium is launched without that switch, as people's browsers run."""

from __future__ import annotations

import pytest

from tests.browser.conftest import chromium
from tests.browser.table_driver import view
from tests.browser.test_together import RENAME, Person, api_of, start_together, two_at_a_table
from tests.games.scripted import one_action

pytestmark = [pytest.mark.browser, pytest.mark.convergence,
              pytest.mark.django_db(transaction=True)]

RELOAD_S = 5.0  # a page load, its socket's opening and its read, on a busy 2-core host
CONVERGE_S = 2.0
SHOWS_VERSION = "(v) => document.getElementById('game').dataset.version === String(v)"
# Pages shown from the back-forward cache, counted in this tab's session storage.
NOTE_RESTORES = """addEventListener('pageshow', (e) => { if (e.persisted)
    sessionStorage.setItem('restored', Number(sessionStorage.getItem('restored')) + 1); });"""


@pytest.fixture(scope="module")
def browser(django_db_setup, django_db_blocker):
    """Chromium with its back-forward cache on, as people's browsers have it."""
    with chromium(ignore_default_args=["--disable-back-forward-cache"]) as browser:
        yield browser


@pytest.mark.parametrize("where", ["game", "lobby"])
def test_a_page_brought_back_by_the_back_button_shows_what_happened_meanwhile(
        open_page, site, seeded, where):
    """Ben leaves the table's page for the rules and comes back with the Back button, which
    shows the page from the cache. Meanwhile Ana played (at the game) or took a new name (in
    the lobby): his page shows it once it has loaded again, no reload by hand, and what
    happens next within 2 s."""
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    guest.context.add_init_script(NOTE_RESTORES)
    if where == "game":
        game_id = start_together(host, guest)
        ana_api = api_of(Person(host, host_watch, "Ana", touch=False), site)
        ben_api = api_of(Person(guest, guest_watch, "Ben", touch=True), site)
        ben = view(guest)["you"]
        game = ben_api.get(f"/games/{game_id}").json()
        while game["turn"] == ben:  # Ben plays his turn first if the deal begins with it
            game = one_action(ben_api, game)
    guest.reload()  # with the init script
    if where == "game":
        now = ben_api.get(f"/games/{game_id}").json()["version"]
        guest.wait_for_function(SHOWS_VERSION, arg=now)
    else:
        guest.wait_for_selector(".lobby-seats")
    guest.goto(site.url + "/rules/")
    if where == "game":
        game = ana_api.get(f"/games/{game_id}").json()
        left_at = game["version"]
        while game["turn"] != ben:
            one_action(ana_api, game)
            game = ana_api.get(f"/games/{game_id}").json()
        assert game["version"] > left_at  # Ana and the bots moved while Ben was away
        shows, arg = SHOWS_VERSION, game["version"]
    else:
        assert host.evaluate(RENAME, "Anabel") == 200
        shows = ("() => [...document.querySelectorAll('.lobby-seats li')]"
                 ".some((li) => li.textContent.includes('Anabel'))")
        arg = None
    guest.go_back(wait_until="commit")  # a page from the cache fires no "load"
    guest.wait_for_function(shows, arg=arg, timeout=RELOAD_S * 1000)
    assert guest.evaluate("() => sessionStorage.getItem('restored')") == "1"  # from the cache
    # And it hears what happens next, as before it went: Ben's draw on his other device, or
    # Ana's next name.
    if where == "game":
        arg = one_action(ben_api, ben_api.get(f"/games/{game_id}").json())["version"]
    else:
        assert host.evaluate(RENAME, "Annie") == 200
        shows = shows.replace("Anabel", "Annie")
    guest.wait_for_function(shows, arg=arg, timeout=CONVERGE_S * 1000)
    for watch in (host_watch, guest_watch):
        watch.check()
