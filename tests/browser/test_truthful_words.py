"""Issue 51, item 6: the page's words say what happened. Ana (laptop, mouse) and Ben (phone at
390x844, touch) at a table with a turn timer; Ben's time runs out and the computer plays his
turn: his page says so (not "A move was played in another tab"), and both logs say the
computer chose those moves for him."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from tests.browser.conftest import Watch
from tests.browser.table_driver import view, wait_idle
from tests.browser.test_table_timer import run_out
from tests.browser.test_together import Person, api_of, start_together, two_at_a_table
from tests.games.scripted import one_action

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_ACTIONS = 40  # Ana's actions until Ben's turn comes, with room to spare
MAX_DEAL_ACTIONS = 600  # Ana's actions through a whole deal, with room to spare
LOG = "[data-log-lines] li"


def test_when_the_timer_plays_for_you_the_page_and_the_log_say_the_computer_did(
        open_page, site, seeded):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    start_together(host, guest)
    assert guest.viewport_size == {"width": 390, "height": 844}
    game_id = host.locator("#game").get_attribute("data-game-id")
    ana = Person(host, host_watch, "Ana", touch=False)
    ana_api = api_of(ana, site)
    ben_seat = view(guest)["you"]
    for _ in range(MAX_ACTIONS):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ben_seat:
            break
        one_action(ana_api, game)
    wait_idle(guest)
    guest.wait_for_selector("#game.my-turn")

    # Ben's time runs out; Ana's next read plays his turn, and both pages hear it.
    run_out(game_id)
    assert ana_api.get(f"/games/{game_id}").json()["turn"] != ben_seat
    guest.wait_for_function("""() => document.querySelector('[data-message]').textContent
        .includes('Time ran out — the computer played your turn')""")
    lines = guest.locator(LOG).all_text_contents()
    assert not any("another tab" in line for line in lines)
    assert any(line.startswith("The computer discarded") and line.endswith("for you.")
               for line in lines), lines[-6:]
    # Ben's own moves are never the computer's "You …" lines.
    assert not any(line.startswith("You discarded") for line in lines), lines[-6:]
    host.wait_for_function("""() => [...document.querySelectorAll('[data-log-lines] li')]
        .some((li) => li.textContent.startsWith('Ben discarded')
              && li.textContent.endsWith('(The computer played it for Ben.)'))""")
    for watch in (host_watch, guest_watch):
        watch.check()


def test_a_seated_person_opening_the_link_again_goes_to_their_seat_with_no_stale_results(
        open_page, site, seeded):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    link = host.locator("[data-link]").input_value()
    # In the lobby: the link leads Ben back to the lobby, not to "take a seat".
    ben = guest.context.new_page()
    ben.goto(link)
    ben.wait_for_url("**/tables/*/")
    ben.close()

    game_id = start_together(host, guest)
    ana_api = api_of(Person(host, host_watch, "Ana", touch=False), site)
    ben_seat = view(guest)["you"]
    # Ben's tab closes and he is away: the computer plays his turns while Ana plays a whole
    # deal through the API; its break ends unread.
    guest.close()
    Seat.objects.filter(game__public_id=game_id, number=ben_seat).update(timeouts=2)
    for _ in range(MAX_DEAL_ACTIONS):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["deal"] > 1 and game["turn"] != ben_seat:
            break
        if game["turn"] == ben_seat:
            run_out(game_id)  # the next read plays it (then his turns are played at once)
            continue
        one_action(ana_api, game)
    assert game["deal"] > 1
    Game.objects.filter(public_id=game_id).update(break_until=None)

    # Ben opens the table's link again on his phone: straight to the game, no dialog.
    page = guest.context.new_page()
    watch = Watch(page, site.url)
    page.goto(link)
    page.wait_for_url(f"**/play/{game_id}/")
    page.wait_for_selector("#game:not([data-loading])")
    page.wait_for_selector("[data-log-lines] li")
    page.wait_for_timeout(1500)  # the missed moves play at once ("instant"): a dialog shows by now
    assert page.locator("dialog[open]").count() == 0
    assert page.locator("[data-join]").count() == 0
    for w in (host_watch, guest_watch, watch):
        w.check()


def test_a_friends_game_is_titled_by_its_table_and_the_friends_at_it(open_page, site, seeded):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    start_together(host, guest)
    deal = "Deal 1 of 10 · "
    assert guest.locator("[data-deal-info]").text_content() == deal + "Friday cards, with Ana"
    assert host.locator("[data-deal-info]").text_content() == deal + "Friday cards, with Ben"
    # On the phone it stays within the window, the page no wider than it.
    box = guest.locator("[data-deal-info]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    for watch in (host_watch, guest_watch):
        watch.check()
