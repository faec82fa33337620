"""A page that is opening never misses a move (issue 51, "Nothing is ever missed"): Ben's
game page reads the game while Ana moves. His read is answered with the game as it was
before her move (the server's real answer, held back until she has moved), as happens when
a move lands between a page's read and its socket's opening; his screen must still reach
the server's game (its version, the seat to move, the log's tail) within 2 s, no reload."""

from __future__ import annotations

import time

import pytest

from tests.browser.table_driver import view
from tests.browser.test_fair_clock import BREAK_CLOCK, at_a_table
from tests.browser.test_together import Person, api_of, start_together, two_at_a_table
from tests.games.scripted import one_action

pytestmark = [pytest.mark.browser, pytest.mark.convergence, pytest.mark.slow,
              pytest.mark.django_db(transaction=True)]

CONVERGE_S = 2.0
# What Ben's screen shows: the settled version (views/table.js), whose turn, the log.
SCREEN = """() => {
    const g = document.getElementById('game');
    const lines = [...document.querySelectorAll('[data-log-lines] li')];
    return {version: g.dataset.version, myTurn: g.classList.contains('my-turn'),
            turn: document.querySelector('[data-turn]').textContent,
            lines: lines.length, last: lines.at(-1)?.textContent ?? null};
}"""
SHOWS = """([version, lines, last]) => {
    const g = document.getElementById('game');
    const all = [...document.querySelectorAll('[data-log-lines] li')];
    return g.dataset.version === String(version) && g.classList.contains('my-turn')
        && all.length === lines && all.at(-1).textContent.startsWith(last);
}"""


def log_tail(api, game_id: str, game: dict) -> tuple[int, str]:
    """The deal's log lines the page should show (one an event, from the deal's start) and
    how the last begins: the mover's name and the move's verb."""
    events = api.get(f"/games/{game_id}/events").json()["events"]
    start = max(i for i, e in enumerate(events) if e["t"] == "deal_started")
    last = events[-1]
    assert last["t"] == "discarded", last
    return len(events) - start, f"{game['players'][last['data']['seat']]['name']} discarded"


def test_a_move_between_the_pages_read_and_its_socket_is_not_missed(open_page, site, seeded):
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    game_id = start_together(host, guest)
    ana_api = api_of(Person(host, host_watch, "Ana", touch=False), site)
    ben_api = api_of(Person(guest, guest_watch, "Ben", touch=True), site)
    ana, ben = view(host)["you"], view(guest)["you"]

    # Ana to move (Ben plays his turn first if the deal begins with it).
    for _ in range(4):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ana:
            break
        one_action(ben_api, ben_api.get(f"/games/{game_id}").json())
    assert game["turn"] == ana

    # Ben reloads; his page's read of the game is answered only once Ana has played her turn
    # (and the bots theirs, up to Ben's), with what the server said before she moved.
    held = {}

    def stale(route):
        response = route.fetch()
        held["version"] = response.json()["version"]
        for _ in range(8):
            game = ana_api.get(f"/games/{game_id}").json()
            if game["turn"] != ana:
                break
            one_action(ana_api, game)
        held["moved"] = time.monotonic()
        route.fulfill(response=response)

    guest.route(f"**/api/v1/games/{game_id}", stale, times=1)
    guest.reload()
    while "moved" not in held:
        guest.wait_for_timeout(20)
    truth = ben_api.get(f"/games/{game_id}").json()
    assert truth["turn"] == ben and truth["version"] > held["version"]
    lines, last = log_tail(ben_api, game_id, truth)
    left_ms = max(1, int((held["moved"] + CONVERGE_S - time.monotonic()) * 1000))
    try:
        guest.wait_for_function(SHOWS, arg=[truth["version"], lines, last], timeout=left_ms)
    except Exception:
        screen = guest.evaluate(SCREEN)
        pytest.fail(f"Ben's screen after {CONVERGE_S} s: {screen}; the server: version "
                    f"{truth['version']}, Ben (seat {ben}) to move, {lines} log lines, "
                    f"the last {last!r}…; his page read version {held['version']}")
    for watch in (host_watch, guest_watch):
        watch.check()


def test_a_read_the_server_lost_is_read_again(open_page, site, seeded):
    """Ana moves and Ben's page reads the game on her frame; that read fails (a 503, as while a
    server restarts). Then Ben is to move and nobody else will: no frame comes to try again,
    so his page must try again itself and reach the server's game."""
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    game_id = start_together(host, guest)
    ana_api = api_of(Person(host, host_watch, "Ana", touch=False), site)
    ben_api = api_of(Person(guest, guest_watch, "Ben", touch=True), site)
    ana, ben = view(host)["you"], view(guest)["you"]
    for _ in range(4):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ana:
            break
        one_action(ben_api, ben_api.get(f"/games/{game_id}").json())
    assert game["turn"] == ana
    guest.wait_for_function(f"() => document.getElementById('game').dataset.version === "
                            f"'{game['version']}'")

    lost = []
    guest.route(f"**/api/v1/games/{game_id}", lambda route: (
        lost.append(time.monotonic()),
        route.fulfill(status=503, json={"error": {"code": "unavailable",
                                                  "message": "Try again shortly."}})), times=1)
    for _ in range(8):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] != ana:
            break
        one_action(ana_api, game)
    truth = ben_api.get(f"/games/{game_id}").json()
    assert truth["turn"] == ben
    lines, last = log_tail(ben_api, game_id, truth)
    guest.wait_for_function(SHOWS, arg=[truth["version"], lines, last],
                            timeout=(3 + 2 * CONVERGE_S) * 1000)
    assert len(lost) == 1  # the page's read on Ana's frame was the one lost
    host_watch.check()
    guest_watch.check(allow=("status of 503",))


def test_a_move_between_the_pages_two_reads_is_not_missed(open_page, site, seeded):
    """A page reads the game and the deal's log at once; a move lands between them: the game
    is read after it, the log before it. The page must not show the new version over the old
    log (the move's frame, not beyond that version, would never mend it)."""
    (host, host_watch), (guest, guest_watch) = two_at_a_table(open_page, site)
    game_id = start_together(host, guest)
    ana_api = api_of(Person(host, host_watch, "Ana", touch=False), site)
    ben_api = api_of(Person(guest, guest_watch, "Ben", touch=True), site)
    ana, ben = view(host)["you"], view(guest)["you"]
    for _ in range(4):
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ana:
            break
        one_action(ben_api, ben_api.get(f"/games/{game_id}").json())
    assert game["turn"] == ana
    old_log = ben_api.get(f"/games/{game_id}/events").json()

    moved = []

    def after_anas_turn(route):
        for _ in range(8):
            game = ana_api.get(f"/games/{game_id}").json()
            if game["turn"] != ana:
                break
            one_action(ana_api, game)
        moved.append(time.monotonic())
        route.continue_()

    guest.route(f"**/api/v1/games/{game_id}/events", lambda route: route.fulfill(json=old_log),
                times=1)
    guest.route(f"**/api/v1/games/{game_id}", after_anas_turn, times=1)
    guest.reload()
    while not moved:
        guest.wait_for_timeout(20)
    truth = ben_api.get(f"/games/{game_id}").json()
    assert truth["turn"] == ben and truth["version"] > old_log["version"]
    lines, last = log_tail(ben_api, game_id, truth)
    try:
        guest.wait_for_function(SHOWS, arg=[truth["version"], lines, last],
                                timeout=CONVERGE_S * 1000)
    except Exception:
        pytest.fail(f"Ben's screen: {guest.evaluate(SCREEN)}; the server: {truth['version']}, "
                    f"{lines} lines, the last {last!r}, turn {truth['turn']} (Ben {ben})")
    for watch in (host_watch, guest_watch):
        watch.check()


def test_a_deal_played_from_other_devices_ends_on_the_open_pages_with_its_results(
        open_page, site, seeded):
    """Ana and Ben play the whole first deal from other devices (the API) while their pages
    stay open on the table, their reads of the game held until the deal is over (so each page
    is many moves behind when it reads, and plays none of them back): when it ends, each page
    shows that deal's results with the break's countdown, as it does after moves made on it."""
    game_id, pages, people = at_a_table(open_page, site, 60, speed="instant")
    over, held = [], []

    def hold(route):  # until the deal is over
        if over:
            route.continue_()
        else:
            held.append(route)

    for page in pages:
        page.route(f"**/api/v1/games/{game_id}", hold)
        page.route(f"**/api/v1/games/{game_id}/events", hold)
    game = people[0].get(f"/games/{game_id}").json()
    while game["deal"] == 1:
        mover = people[game["turn"]]
        game = one_action(mover, mover.get(f"/games/{game_id}").json())
    over.append(True)
    for route in held:
        route.continue_()
    for page in pages:
        page.wait_for_selector(BREAK_CLOCK, timeout=10_000)
        title = page.locator("dialog[open] [data-summary-title]").text_content()
        assert title == "Deal 1 is over", title
