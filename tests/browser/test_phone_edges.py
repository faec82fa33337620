"""The phone's rough edges (issue 41, each seen on a screenshot), at the size where each was
seen: the deal summary, the turn banner, the melds at 360, the log, a phone on its side, the
replay, Spanish articles, the top menu, a league's hidden results."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.browser.strategy import PERSON, person_action
from tests.browser.table_driver import play_turn, view, wait_idle
from tests.browser.test_phone_table import PHONES, start_practice

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# How far a box's content reaches past its right edge (CSS pixels).
OVERFLOW = "(el) => el.scrollWidth - el.clientWidth"


def play_to_the_deals_last_turn(game_id: str) -> None:
    """Play deal 1 through the service layer with the scripted strategy up to the person's
    last turn in it (the computer players choose as the server does, from the game's seed):
    the page then plays that turn and sees the deal end. In a thread of its own (the service
    publishes its events with async_to_sync; this thread runs Playwright's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_to_the_last_turn, game_id).result()


def _to_the_last_turn(game_id: str) -> None:
    from django.db import connection

    from games import services
    from games.bots import choose, rng_for
    from games.engine import apply, player_view
    from games.models import Game

    def one_round(state):  # the person's turn, then the others' up to the person's next
        while True:
            seat = state.turn
            view = player_view(state, seat)
            action = person_action(view) if seat == PERSON else choose(
                game.level, view, rng_for(game.seed, seat, state.actions))
            state, _ = apply(state, seat, action)
            if state.deal != 1 or (state.turn == PERSON and state.phase == "draw"):
                return state

    try:
        while True:
            game = Game.objects.get(public_id=game_id)
            state = game.load_state()
            assert state.turn == PERSON and state.phase == "draw" and state.deal == 1
            if one_round(state).deal != 1:
                return
            while True:  # the same round through the service (it plays the computer players)
                action = person_action(player_view(state, PERSON))
                services.act(game_id, game.owner, game.version, action.to_json())
                game = Game.objects.get(public_id=game_id)
                state = game.load_state()
                if state.turn == PERSON and state.phase == "draw":
                    break
    finally:
        connection.close()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_deal_summary_fits_a_phone_with_its_contracts_and_totals(
        open_page, site, seeded, size, language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    play_to_the_deals_last_turn(view(page)["id"])
    page.reload()
    wait_idle(page)
    measured = []

    def measure(page):
        dialog = page.locator("dialog[open]")
        box = dialog.bounding_box()
        # Contracts and Total, the standings the place comes from: every cell in the box.
        rights = dialog.locator("table.deal-summary tr > :nth-last-child(-n+2)").evaluate_all(
            "(cells) => cells.map((c) => c.getBoundingClientRect().right)")
        measured.append({"overflow": dialog.evaluate(OVERFLOW), "cells": len(rights),
                         "outside": [r for r in rights if r > box["x"] + box["width"]]})

    play_turn(page, {"laid_down": 0, "laid_off": 0, "discarded": 0}, on_summary=measure)
    assert measured == [{"overflow": 0, "cells": 10, "outside": []}]
    watch.check()


# Whether an element's text is cut off: wider or taller than its box.
CUT_OFF = "(el) => el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5"


@pytest.mark.parametrize("language", ["en", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_turn_banner_is_read_to_its_end_on_a_phone(open_page, site, seeded, size, language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    banner = page.locator("[data-turn]")
    hand_top = page.locator(".hand").bounding_box()["y"]
    for phase in ("draw", "play"):  # the play phase's says how to discard: a double tap
        assert view(page)["phase"] == phase
        assert not banner.evaluate(CUT_OFF), (phase, banner.inner_text())
        assert page.locator(".hand").bounding_box()["y"] == hand_top  # it never moves the hand
        if phase == "draw":
            page.tap("[data-stock]")
            wait_idle(page)
    watch.check()
