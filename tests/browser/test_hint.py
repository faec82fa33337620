"""The Hint button shows the server's expert move: the pile to draw from, then the card to
throw (or to lay off, with its meld), highlighted, or the lay-down ready to confirm, with the
reason in the message line in the page's language.

The game is set to a constructed moment (rung 2 holding 8D 9D 10D, every other card with a
neighbour, tests/games/test_hint.py): the old guess in the browser threw the 10D there."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from games.reads import hints
from tests.bots.test_advice import laying_down
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.table_driver import start_practice, wait_idle
from tests.games.test_hint import (
    DIAMOND_RUN,
    completing_scene,
    laid_down_scene,
    rung_two_with_a_diamond_run_started,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_at(page, base_url: str, state, language: str) -> Game:
    """A practice game started from the home page, then set to ``state`` (its log emptied,
    so the page has no earlier moves to play back) and the page reloaded."""
    game = Game.objects.get(public_id=start_practice(page, base_url, language))
    game.actions.all().delete()
    game.state, game.version = state.to_json(), 0
    game.save(update_fields=["state", "version"])
    page.reload()
    wait_idle(page)
    return game


def server_hint(game: Game) -> dict:
    """The hint the server gives the game's owner now."""
    return hints.hint(services.get_game(game.owner, game.public_id))


def hint_after(page, selector: str, game: Game) -> dict:
    """Click ``selector`` (a pile), wait for the table, then the server's hint for the game
    as it is now."""
    page.click(selector)
    wait_idle(page)
    game.refresh_from_db()
    return server_hint(game)


def reason_shown(page, reason: dict) -> str:
    """The server's reason as the page words it: its sentence in the page's "reasons", which
    the server renders in the page's language (frontend/lists.py)."""
    return page.evaluate(
        "(code) => JSON.parse(document.getElementById('reasons').textContent)[code]",
        reason["code"])


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_hint_highlights_the_experts_pile_then_card_and_says_why(
        open_page, site, language):
    page, watch = open_page(DESKTOP)
    game = start_at(page, site.url, rung_two_with_a_diamond_run_started(), language)

    expected = server_hint(game)
    assert expected["action"] == {"type": "draw", "from": "stock"}
    page.click("[data-hint]")
    page.wait_for_selector("[data-stock].hinted")
    assert page.locator("[data-discard].hinted").count() == 0
    message = reason_shown(page, expected["reason"])
    page.wait_for_function("(text) => document.querySelector('[data-message]').textContent "
                           "=== text", arg=message)
    if language != "en":
        assert message != expected["reason"]["message"]  # translated

    expected = hint_after(page, "[data-stock]", game)
    assert expected["action"]["type"] == "discard"
    page.click("[data-hint]")
    page.wait_for_selector(".hand .card.hinted")
    hinted = page.locator(".hand .card.hinted")
    assert hinted.count() == 1
    assert hinted.get_attribute("data-id") == expected["action"]["card"]
    assert expected["action"]["card"] not in DIAMOND_RUN
    assert "selected" in hinted.get_attribute("class")
    message = reason_shown(page, expected["reason"])
    page.wait_for_function("(text) => document.querySelector('[data-message]').textContent "
                           "=== text", arg=message)
    watch.check()


def test_the_hint_readies_the_experts_lay_down_in_the_composer(open_page, site):
    page, watch = open_page(DESKTOP)
    game = start_at(page, site.url, completing_scene(), "en")

    page.click("[data-hint]")
    page.wait_for_selector("[data-discard].hinted")  # the 9H makes the second group
    expected = hint_after(page, "[data-discard]", game)
    assert expected["action"]["type"] == "lay_down"
    page.click("[data-hint]")
    page.wait_for_selector("[data-laydown-confirm]:not([disabled])")
    in_composer = set(page.locator("[data-slots] .card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.id)"))
    assert in_composer == {c for meld in expected["lay_down"] for c in meld}
    page.click("[data-laydown-confirm]")
    wait_idle(page)
    game.refresh_from_db()
    assert game.load_state().laid_down_turn[0] is not None
    watch.check()


def test_the_hint_points_at_the_card_to_lay_off_and_its_meld(open_page, site):
    page, watch = open_page(DESKTOP)
    game = start_at(page, site.url, laid_down_scene(discard="9H.2"), "en")

    page.click("[data-hint]")
    page.wait_for_selector("[data-discard].hinted")  # the 9H.2 fits the nines on the table
    expected = hint_after(page, "[data-discard]", game)["action"]
    assert expected["type"] == "lay_off"
    page.click("[data-hint]")
    page.wait_for_selector(".hand .card.hinted")
    assert page.get_attribute(".hand .card.hinted", "data-id") == expected["card"]
    meld = page.locator(".meld.hinted")
    assert meld.get_attribute("data-meld") == str(expected["meld"])
    meld.locator("[data-layoff]").first.click()
    wait_idle(page)
    game.refresh_from_db()
    assert len(game.load_state().table[expected["meld"]].meld.cards) == 4
    watch.check()


def test_after_laying_down_the_hint_keeps_the_king_for_the_table_and_says_only_what_is_true(
        open_page, site):
    """Issue 41's hand: laid down this turn with 4H 4S KS 3S, the KS fitting the kings on the
    table. The hint throws a four and no longer says it "would cost the most points": in
    Thai, on a phone, it says the card fits no meld on the table."""
    page, watch = open_page(PHONE)
    game = start_at(page, site.url, laying_down("7H 7S 7D 9C 9S 4H 4S KS 3S", stock="9D",
                                                table="KH KD KC"), "th")

    expected = server_hint(game)
    assert expected["reason"]["code"] == "discard_fits_nowhere"
    page.click("[data-hint]")
    page.wait_for_selector(".hand .card.hinted")
    assert page.get_attribute(".hand .card.hinted", "data-id") == expected["action"]["card"]
    assert expected["action"]["card"] != "KS.1"
    message = reason_shown(page, expected["reason"])
    assert message == "ทิ้งไพ่ใบนี้: ใบนี้ไม่เข้ากับชุดใดบนโต๊ะ"
    page.wait_for_function("(text) => document.querySelector('[data-message]').textContent "
                           "=== text", arg=message)
    watch.check()
