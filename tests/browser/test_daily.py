"""Today's daily from the home page: start it, play a turn, finish it, share it, see it ranked."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.urls import Resolver404, resolve

from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.strategy import person_action
from tests.browser.table_driver import card, view, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def finish_on_the_server(game_id: str) -> None:
    """Play the rest of the game with the scripted strategy through the service layer: a
    whole daily through the UI would take minutes; one turn of it goes through the UI.
    It runs in a thread of its own: this one runs Playwright's event loop, and the service
    publishes its events with async_to_sync."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_finish, game_id).result()


def _finish(game_id: str) -> None:
    from django.db import connection

    try:
        _play_out(game_id)
    finally:
        connection.close()


def _play_out(game_id: str) -> None:
    from games import services
    from games.engine import FINISHED, player_view
    from games.models import Game

    game = Game.objects.get(public_id=game_id)
    player = game.owner
    while True:
        game = Game.objects.get(public_id=game_id)
        state = game.load_state()
        if state.phase == FINISHED:
            return
        action = person_action(player_view(state, 0))
        services.act(game_id, player, game.version, action.to_json())


def has_leaderboards() -> bool:
    try:
        resolve("/api/v1/leaderboards/daily/2026-01-01")
    except Resolver404:
        return False
    return True


def test_the_daily_is_started_from_home_finished_and_shared(open_page, live_server):
    page, watch = open_page(DESKTOP)
    page.goto(live_server.url + "/")
    page.wait_for_selector("[data-daily-start]:not([disabled])")
    assert "Not started yet" in page.inner_text("[data-daily-state]")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    v = view(page)
    assert v["mode"] == "daily"
    assert page.locator("[data-hint]").is_hidden()  # no hints in the daily

    page.click("[data-stock]")
    wait_idle(page)
    discard = view(page)["legal"]["discard"][0]
    card(page, discard).dblclick()
    wait_idle(page)

    finish_on_the_server(v["id"])
    page.reload()
    page.wait_for_selector("dialog[open] [data-share-text]")
    text = page.input_value("[data-share-text]")
    lines = text.splitlines()
    assert lines[0].startswith("Ladder Rummy daily")
    assert "/10 contracts" in lines[1]
    assert len([ch for ch in lines[2] if ch in "🟨🟩⬜"]) == 10
    assert page.locator(".share-image").get_attribute("src").startswith("data:image/png")
    shoot(page, "daily-result-desktop")

    page.goto(live_server.url + "/")
    page.wait_for_function(
        "document.querySelector('[data-daily-state]').textContent.startsWith('Done')")
    shoot(page, "home-daily-done-desktop")

    if has_leaderboards():
        page.goto(live_server.url + "/leaderboard/")
        page.wait_for_selector(".board tbody tr.me")
        shoot(page, "leaderboard-with-score-desktop")
    watch.check()


def test_the_result_and_share_card_fit_a_phone(open_page, live_server):
    page, watch = open_page(PHONE)
    page.goto(live_server.url + "/")
    page.wait_for_selector("[data-daily-start]:not([disabled])")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    finish_on_the_server(view(page)["id"])
    page.reload()
    page.wait_for_selector("dialog[open] [data-share-text]")
    shoot(page, "daily-result-phone")
    watch.check()
