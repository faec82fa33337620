"""A fair clock in the browser, through the real ASGI server (issue 51): every countdown a
page shows is the server's deadline (its clock's offset measured from `server_time`), not
seconds rounded up and restarted after the playback; and people reading the results between
deals are never timed out nor marked away, the dialog counting the break down."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Game, Seat
from games.services import publishing, timers
from games.services.timers import AWAY_AFTER_TIMEOUTS
from games.tables.models import Table
from tests.browser.conftest import shoot
from tests.browser.table_driver import card, double_click, view
from tests.browser.test_together import Person, api_of, start_together, two_at_a_table
from tests.games.scripted import costliest, one_action

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TICK_S = 0.1  # the page redraws a countdown every 0.1 s (controllers/game.js, dialogs.js)
SLACK_S = 0.5  # the page's countdown against the server's deadline
# Resolves with the countdown's text once it changes: the moment a whole second is crossed.
CHANGES = """(where) => new Promise((resolve) => {
    const text = () => document.querySelector(where)?.textContent?.match(/\\d+:\\d\\d/)?.[0];
    const first = text();
    const poll = () => {
        const now = text();
        if (now && first && now !== first) resolve(now);
        else if (performance.now() > until) resolve(null);
        else setTimeout(poll, 5);
    };
    const until = performance.now() + 3000;
    setTimeout(poll, 5);
})"""
# The page shows a version beyond ``v`` (or the deal's results, which come before it).
SETTLED = """(v) => Number(document.querySelector('#game').dataset.version) > v
    || document.querySelector('dialog[open]') !== null"""
TURN_CLOCK = "[data-turn-clock]:not([hidden]) [data-clock-time]"
BREAK_CLOCK = "dialog[open] [data-break-clock]"


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def shown_against(page, where: str, deadline) -> tuple[int, float]:
    """When the page's countdown at ``where`` crosses a second: what it shows then, and the
    seconds truly left to ``deadline`` by the server's clock (this process's)."""
    text = page.evaluate(CHANGES, where)
    assert text, page.text_content(where)  # no countdown ran within the time allowed
    return seconds(text), (deadline - timezone.now()).total_seconds()


def fair(shown: int, left: float) -> bool:
    """Showing ``shown`` from the moment it starts to: ``shown`` seconds left, within SLACK_S,
    and a redraw's tick late at most."""
    return shown - SLACK_S - TICK_S <= left <= shown + SLACK_S


def at_a_table(open_page, site, turn_seconds: int, speed: str):
    (host, _hw), (guest, _gw) = two_at_a_table(open_page, site)
    for page in (host, guest):  # after the fixture's init script: this one wins
        page.context.add_init_script(
            "localStorage.setItem('ladder.settings', "
            f"{json.dumps(json.dumps({'speed': speed, 'askJoker': False}))})")
    Table.objects.update(turn_seconds=turn_seconds)
    game_id = start_together(host, guest)
    people = {}
    for page, name, touch in ((host, "Ana", False), (guest, "Ben", True)):
        person = Person(page, None, name, touch=touch)
        people[view(page)["you"]] = api_of(person, site)
    return game_id, (host, guest), people


def turn_on_the_page(page, touch: bool) -> None:
    """The person to move plays their turn on their own page (the laptop by mouse, the phone
    by touch) and never lays down, so never goes out: draw from the stock, discard the
    costliest card. (Through the API their own moves would be news from another device, which
    the page catches up on by reading the game, not by playing each move back.)"""
    press = (lambda sel: page.tap(sel)) if touch else (lambda sel: page.click(sel))
    page.wait_for_selector("#game.my-turn")
    page.wait_for_function("() => !document.querySelector('[data-playback]:not([hidden])')")
    before = view(page)["version"]
    press("[data-stock]")
    page.wait_for_function(SETTLED, arg=before)
    drawn = view(page)["version"]
    chosen = costliest(view(page)["legal"]["discard"])
    if touch:
        card(page, chosen).tap()
        page.wait_for_selector("[data-action=discard]:not([disabled])")
        press("[data-action=discard]")
    else:
        double_click(page, card(page, chosen))
    page.wait_for_function(SETTLED, arg=drawn)  # the discard's answer is on screen


def test_each_pages_countdown_is_the_servers_deadline_after_every_playback(open_page, site,
                                                                            seeded):
    game_id, pages, people = at_a_table(open_page, site, 60, speed="normal")
    misses = []
    for _ in range(3):  # a move by the person to move, the bots' moves played back on both
        game = people[0].get(f"/games/{game_id}").json()
        mover = people[game["turn"]]
        mine = mover.get(f"/games/{game_id}").json()
        while mine["turn"] == game["turn"] and mine["status"] == "active":
            mine = one_action(mover, mine)
        deadline = Game.objects.get(public_id=game_id).turn_deadline
        seat = mine["turn"]
        for page in pages:
            where = ("section.me" if view(page)["you"] == seat
                     else f'[data-seats] .seat[data-seat="{seat}"]')
            page.wait_for_selector(f"{where} > {TURN_CLOCK}", timeout=30_000)
            page.wait_for_function("() => !document.querySelector('[data-playback]:not([hidden])')")
            for _ in range(2):
                shown, left = shown_against(page, f"{where} > {TURN_CLOCK}", deadline)
                if not fair(shown, left):
                    misses.append((shown, round(left, 2)))
    assert misses == []


@pytest.mark.slow
def test_people_reading_the_results_for_thirty_seconds_at_a_thirty_second_table_are_not_timed_out(
        open_page, site, seeded):
    game_id, pages, people = at_a_table(open_page, site, 30, speed="instant")
    game = people[0].get(f"/games/{game_id}").json()
    seats = {view(page)["you"]: page for page in pages}
    for _ in range(300):  # the people play the first deal on their pages; a bot ends it
        if game["deal"] > 1:
            break
        turn_on_the_page(seats[game["turn"]], touch=seats[game["turn"]] is pages[1])
        game = people[0].get(f"/games/{game_id}").json()
    assert game["deal"] == 2
    ended = time.monotonic()
    stored = Game.objects.get(public_id=game_id)
    version, break_until = stored.version, stored.break_until
    for page in pages:  # both read the results, which count the break down
        page.wait_for_selector(BREAK_CLOCK, timeout=30_000)
        shown, left = shown_against(page, BREAK_CLOCK, break_until)
        assert fair(shown, left), (shown, left)
    shoot(pages[0], "en-1280-break")
    shoot(pages[1], "en-390-break")

    time.sleep(max(0.0, 30 + 1 - (time.monotonic() - ended)))  # a whole turn's time, and more
    assert services.time_out(game_id) is False  # every watcher finds nothing due
    assert tasks.time_out_overdue_turns() == 0
    for page in pages:
        assert page.locator("dialog[open] [data-summary-continue]").is_visible()
        now = view(page)
        assert now["version"] == version
        assert [p["away"] for p in now["players"]] == [False] * 4
    rows = Seat.objects.filter(game__public_id=game_id)
    assert set(rows.values_list("timeouts", flat=True)) == {0}

    for page in pages:  # they go on: the first turn of the deal is theirs to play in time
        page.click("dialog[open] [data-summary-continue]")
    game = view(pages[0])
    assert game["version"] == version and game["turn_seconds_left"] > 0


def test_the_break_counts_down_on_a_page_that_plays_the_deals_end_and_past_a_late_frame(
        open_page, site, seeded):
    """The break's end is the server's latest word, whichever way it came. A page opened after
    a deal ended unseen plays that end before its results (its socket opened long after the
    break's frame) and counts the break down from its read; a frame of this version moves
    it, a late frame of an earlier turn does not. Once the break is over with every person
    away, the results say the next deal waits for someone, not that its turns are timed."""
    game_id, pages, people = at_a_table(open_page, site, 60, speed="instant")
    seats = {view(page)["you"]: page for page in pages}
    for page in pages:  # both people leave the game's page; they play on elsewhere
        page.goto(site.url + "/")
    game = people[0].get(f"/games/{game_id}").json()
    for _ in range(600):
        if game["deal"] > 1:
            break
        last = game["turn"]
        game = one_action(people[last], people[last].get(f"/games/{game_id}").json())
    assert game["deal"] == 2
    stored = Game.objects.get(public_id=game_id)
    # The other person's last action came before the deal's end, which their page plays.
    page = next(page for seat, page in seats.items() if seat != last)
    page.goto(f"{site.url}/play/{game_id}/")
    page.wait_for_selector(BREAK_CLOCK, timeout=30_000)
    shown, left = shown_against(page, BREAK_CLOCK, stored.break_until)
    assert fair(shown, left), (shown, left)

    # A frame of this version, a break 3 s longer (as if the server had said so): the
    # countdown follows it, so the socket is open.
    seat = view(page)["you"]
    longer = stored.break_until + timedelta(seconds=3)
    deadline = longer + timedelta(seconds=60)
    publishing.publish(game_id, seat, [timers.notice(stored.version, "turn_timer", {
        "seat": stored.load_state().turn, "deadline": deadline.isoformat(),
        "seconds_left": 83, "seconds": 60, "break_until": longer.isoformat()})])
    page.wait_for_timeout(500)
    shown, left = shown_against(page, BREAK_CLOCK, longer)
    assert fair(shown, left), (shown, left)
    # A late frame of an earlier turn, with no break in it: dropped.
    publishing.publish(game_id, seat, [timers.notice(stored.version - 2, "turn_timer", {
        "seat": seat, "deadline": timezone.now().isoformat(), "seconds_left": 0, "seconds": 60,
        "break_until": None})])
    page.wait_for_timeout(500)
    shown, left = shown_against(page, BREAK_CLOCK, longer)
    assert fair(shown, left), (shown, left)

    # The break ends and both people are away: the server pauses the table (no deadline).
    Seat.objects.filter(game__public_id=game_id, number__in=list(people)).update(
        timeouts=AWAY_AFTER_TIMEOUTS)
    Game.objects.filter(public_id=game_id).update(break_until=timezone.now(),
                                                  turn_deadline=None)
    page.reload()  # the results the person had open come back, with the server's clock
    page.wait_for_selector(f"{BREAK_CLOCK}:text('Everyone is away')")
    assert page.locator("[data-paused-note]").is_visible()
