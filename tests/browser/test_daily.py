"""Today's daily from the home page: start it, play a turn, finish it, share it, see it ranked;
the board paged through the API's keyset cursor."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.urls import Resolver404, resolve
from django.utils import timezone

from games import daily
from tests.browser.conftest import DESKTOP, PHONE, shoot
from tests.browser.strategy import person_action
from tests.browser.table_driver import card, double_click, start_daily, view, wait_idle
from tests.leaderboards.factories import finished_daily, player

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


COMMITMENT = "() => fetch('/api/v1/daily').then((r) => r.json()).then((d) => d.commitment)"


def has_leaderboards() -> bool:
    try:
        resolve("/api/v1/leaderboards/daily/2026-01-01")
    except Resolver404:
        return False
    return True


def test_the_daily_is_started_from_home_finished_and_shared(open_page, site):
    page, watch = open_page(DESKTOP)
    start_daily(page, site.url)
    v = view(page)
    assert v["mode"] == "daily"
    assert page.locator("[data-hint]").is_hidden()  # no hints in the daily

    page.click("[data-stock]")
    wait_idle(page)
    discard = view(page)["legal"]["discard"][0]
    double_click(page, card(page, discard))
    wait_idle(page)

    finish_on_the_server(v["id"])
    page.reload()
    page.wait_for_selector("dialog[open] .share-image[src^='data:image/png']")
    text = page.input_value("dialog [data-share-text]")
    lines = text.splitlines()
    assert lines[0].startswith("Ladder Rummy daily")
    assert "/10 contracts" in lines[1]
    assert len([ch for ch in lines[2] if ch in "🟨🟩⬜"]) == 10
    assert lines[3] == f"Commitment {page.evaluate(COMMITMENT)[:16]}…"  # the daily page: whole
    shoot(page, "daily-result-desktop")

    page.goto(site.url + "/daily/")  # the daily page's card is the same card
    page.wait_for_selector("[data-share-box] .share-image[src^='data:image/png']")
    assert page.input_value("[data-share-text]") == text

    page.goto(site.url + "/")
    page.wait_for_function(  # a function, not an expression: the CSP forbids eval
        "() => document.querySelector('[data-daily-state]').textContent.startsWith('Done')")
    shoot(page, "home-daily-done-desktop")

    if has_leaderboards():
        page.goto(site.url + "/leaderboard/")
        page.wait_for_selector(".board tbody tr.me")
        shoot(page, "leaderboard-with-score-desktop")
    watch.check()


def test_the_result_and_share_card_fit_a_phone(open_page, site):
    page, watch = open_page(PHONE)
    page.goto(site.url + "/")
    page.wait_for_selector("[data-daily-start]:not([disabled])")
    page.click("[data-daily-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    finish_on_the_server(view(page)["id"])
    page.reload()
    page.wait_for_selector("dialog[open] .share-image[src^='data:image/png']")
    shoot(page, "daily-result-phone")
    watch.check()


PAGE_SIZE = 25  # pages/leaderboard.js
PLAYERS = PAGE_SIZE + 5


def make_scores() -> None:
    """Today's board, in rank order Player 00, 01, ... It runs in a thread of its own: this
    one runs Playwright's event loop, and a new score is published with async_to_sync."""
    from django.db import connection

    today, now = daily.today(), timezone.now()
    try:
        for i in range(PLAYERS):
            owner, _token = player(f"Player {i:02d}")
            finished_daily(owner, today, contracts=10 - i // 5, penalty=20 + i,
                           finished_at=now - timedelta(minutes=PLAYERS - i))
    finally:
        connection.close()


def test_the_board_shows_a_first_page_then_the_rest_on_demand(open_page, site):
    with ThreadPoolExecutor(1) as pool:
        pool.submit(make_scores).result()
    page, watch = open_page(PHONE)
    page.goto(site.url + "/leaderboard/")
    page.wait_for_selector(".board tbody tr")
    rows = page.locator(".board tbody tr")
    assert rows.count() == PAGE_SIZE
    assert f"{PAGE_SIZE} of {PLAYERS} players" in page.inner_text("[data-board-count]")

    page.click("[data-board-more]")
    page.wait_for_function(
        f"() => document.querySelectorAll('.board tbody tr').length === {PLAYERS}")
    ranks = rows.evaluate_all("els => els.map(e => Number(e.cells[0].textContent))")
    assert ranks == list(range(1, PLAYERS + 1))
    assert rows.last.locator("td").nth(1).inner_text() == f"Player {PLAYERS - 1:02d}"
    assert page.locator("[data-board-more]").is_hidden()  # that was the last page
    assert page.evaluate("document.activeElement.dataset.boardCount") == ""
    shoot(page, "leaderboard-paged-phone")
    watch.check()
