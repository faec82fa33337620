"""Issue 51, item 6: the name a person chooses is the name the others see. Ana (laptop 1280x800,
mouse and keyboard) opens a table; Ben (phone 390x844, touch, a browser with no identity yet)
chooses his name on the join page (a refused one is explained as a person's name), changes
it in the lobby, and again while the game runs: each time Ana's lobby, her game's seats, her
turn line and her log say it without a reload. Then Your games and the replay name the table
and the friends, and the replay marks Ben's seat as the computer's from the moment he left."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import shoot
from tests.browser.table_driver import view
from tests.browser.test_together import (
    LAPTOP,
    PHONE,
    RENAME,
    Person,
    api_of,
    here_now,
    start_together,
)
from tests.games.scripted import next_action, play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEAT_NAMES = """() => [...document.querySelectorAll('[data-seats] .seat h3')]
    .map((h) => h.textContent)"""


def test_a_friend_chooses_their_name_and_everyone_at_the_table_sees_it(open_page, site, seeded):
    host, host_watch = open_page(LAPTOP, speed="instant")
    guest, guest_watch = open_page(PHONE, touch=True, speed="instant")
    host.goto(site.url + "/#friends")
    assert host.evaluate(RENAME, "Ana") == 200
    host.fill("#table-name", "Friday cards")
    host.click("#table-form button[type=submit]")
    host.wait_for_selector("[data-code]:not(:empty)")

    # Ben opens the link in a browser that has never been here: the friendly name it would
    # be given stands in the field, his to change.
    guest.goto(host.locator("[data-link]").input_value())
    guest.wait_for_selector("[data-join]:not([hidden])")
    field = guest.locator("[data-join-name]")
    assert field.is_visible()
    assert re.fullmatch(r"[A-Z][a-z]+ [A-Z][a-z]+", field.input_value())
    guest.tap("[data-join-name]")
    field.fill("Bruno")  # a computer player's name: refused, in a person's words
    guest.tap("[data-join]")
    guest.wait_for_selector("[data-status]:has-text('reserved')")
    assert "table's name" not in guest.locator("[data-status]").text_content()
    assert "/tables/join/" in guest.url
    field.fill("Ben")
    assert guest.locator("[data-status]").text_content() == ""  # the refusal was of "Bruno"
    shoot(guest, "names-en-390-join")
    guest.tap("[data-join]")
    guest.wait_for_url("**/tables/*/")
    for page in (host, guest):
        here_now(page, ["Ana", "Ben"])
    assert guest.locator("#lobby-name").input_value() == "Ben"

    # In the lobby: Ben by touch, Ana by keyboard; each new name shows on the other screen.
    guest.tap("#lobby-name")
    guest.locator("#lobby-name").fill("Benito")
    guest.tap("[data-name-form] button[type=submit]")
    guest.wait_for_selector("[data-status]:has-text('Benito')")
    here_now(host, ["Ana", "Benito"])
    here_now(guest, ["Benito (you)"])
    host.click("#lobby-name")
    host.keyboard.press("Control+A")
    host.keyboard.type("Ana María")
    host.keyboard.press("Enter")
    here_now(guest, ["Ana María"])
    shoot(guest, "names-en-390-lobby")
    shoot(host, "names-en-1280-lobby")

    # While the game runs: a new name reaches the other's seats, turn line and log.
    game_id = start_together(host, guest)
    ben_seat = view(guest)["you"]
    host.wait_for_function(f"() => ({SEAT_NAMES})().includes('Benito')")
    assert "Friday cards, with Benito" in host.locator("[data-deal-info]").text_content()
    # Nothing moves while Ben renames (a person is to move and Ana's page shows the server's
    # version): the new name can only come by the table's socket.
    ana = Person(host, host_watch, "Ana", touch=False)
    ana_api = api_of(ana, site)
    game = ana_api.get(f"/games/{game_id}").json()
    for _ in range(100):
        if not game["players"][game["turn"]]["bot"]:
            break
        host.wait_for_timeout(100)
        game = ana_api.get(f"/games/{game_id}").json()
    assert not game["players"][game["turn"]]["bot"]
    host.wait_for_function(f"() => document.querySelector('#game').dataset.version === "
                           f"'{game['version']}'")
    assert guest.evaluate(RENAME, "Benny") == 200
    host.wait_for_function(f"() => ({SEAT_NAMES})().includes('Benny')")
    host.wait_for_function(
        "() => document.querySelector('[data-deal-info]').textContent.includes('with Benny')")
    for _ in range(40):  # until Ben has moved: his move in Ana's log, by his new name
        game = ana_api.get(f"/games/{game_id}").json()
        if game["turn"] == ben_seat:
            break
        response = ana_api.act(game, next_action(ana_api, game))
        assert response.status_code == 200, response.content
    guest.wait_for_selector("#game.my-turn")
    guest.tap("[data-stock]")
    host.wait_for_function("""() => [...document.querySelectorAll('[data-log-lines] li')]
        .some((li) => li.textContent.startsWith('Benny drew'))""")
    assert host.locator("[data-turn]").text_content() == "Waiting for Benny…"
    shoot(host, "names-en-1280-game")
    shoot(guest, "names-en-390-game")

    # Ben leaves; Ana plays the game out. Your games and the replay name the table and Ben,
    # and from the version he left at the replay shows his seat as the computer's.
    ben_api = api_of(Person(guest, guest_watch, "Ben", touch=True), site)
    left_at = ana_api.get(f"/games/{game_id}").json()["version"]
    table_id = ben_api.get("/games").json()["items"][0]  # his games list it
    assert table_id["table_name"] == "Friday cards"
    guest.goto(f"{site.url}/play/{game_id}/")
    guest.wait_for_selector("#game:not([data-loading])")
    from games.tables.models import Table
    assert ben_api.post(f"/tables/{Table.objects.get(game__public_id=game_id).public_id}/leave"
                        ).status_code == 204
    play_to_the_end(ana_api, ana_api.get(f"/games/{game_id}").json())

    for page, others in ((host, "Benny"), (guest, "Ana María")):
        page.goto(f"{site.url}/games/")
        row = page.locator(f'[data-games] li[data-game="{game_id}"] .what')
        row.wait_for()
        assert row.text_content() == f"Friday cards, with {others}"
    shoot(guest, "names-en-390-games")
    shoot(host, "names-en-1280-games")

    host.goto(f"{site.url}/replay/{game_id}/?v={left_at}")
    host.wait_for_selector("#replay:not([data-loading])")
    assert "Friday cards, with Benny" in host.locator("[data-deal-info]").text_content()
    seat = host.locator(f'[data-seats] .seat[data-seat="{ben_seat}"]')
    assert seat.locator("h3").text_content() == "Benny"
    assert "Benny" in host.locator("[data-ladder-legend]").text_content()
    assert seat.locator(".badge:has-text('Left')").count() == 1
    host.goto(f"{site.url}/replay/{game_id}/?v={max(0, left_at - 1)}")
    host.wait_for_selector("#replay:not([data-loading])")
    assert seat.locator(".badge:has-text('Left')").count() == 0
    host.goto(f"{site.url}/replay/{game_id}/?v={left_at + 30}")
    host.wait_for_selector("#replay:not([data-loading])")
    host.wait_for_function("""() => [...document.querySelectorAll('[data-log-lines] li')]
        .some((li) => li.textContent.includes('(The computer played it for Benny.)'))""")
    shoot(host, "names-en-1280-replay")
    guest.goto(f"{site.url}/replay/{game_id}/?v={left_at + 30}")  # his own, after he left
    guest.wait_for_selector("#replay:not([data-loading])")
    assert guest.locator("[data-me-name]").text_content() == "You (left the game)"
    assert "Friday cards, with Ana María" in guest.locator("[data-deal-info]").text_content()
    shoot(guest, "names-en-390-replay")
    host_watch.check()
    # The refused name (422), and Ben's game page reading the table he had left (404).
    guest_watch.check(allow=("status of 422", "status of 404"))
