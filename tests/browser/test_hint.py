"""The Hint button shows the server's expert move: the pile to draw from, then the card to
throw, highlighted, with the reason in the message line in the page's language.

The game is set to a constructed moment (rung 2 holding 8D 9D 10D, every other card with a
neighbour, tests/games/test_hint.py): the old guess in the browser threw the 10D there."""

from __future__ import annotations

import pytest

from games.models import Game
from games.services.hints import hint as server_hint
from tests.browser.conftest import DESKTOP
from tests.browser.table_driver import wait_idle
from tests.games.test_hint import DIAMOND_RUN, rung_two_with_a_diamond_run_started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start_at(page, base_url: str, state, language: str) -> Game:
    """A practice game started from the home page, then set to ``state`` (its log emptied,
    so the page has no earlier moves to play back) and the page reloaded."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    page.goto(base_url + "/")
    page.check('input[name="level"][value="easy"]')
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    game = Game.objects.get(public_id=page.locator("#game").get_attribute("data-game-id"))
    game.actions.all().delete()
    game.state, game.version = state.to_json(), 0
    game.save(update_fields=["state", "version"])
    page.reload()
    wait_idle(page)
    return game


def reason_shown(page, code_message: str) -> str:
    """The server's English reason as the page's catalogue words it."""
    return page.evaluate("(text) => gettext(text)", code_message)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_hint_highlights_the_experts_pile_then_card_and_says_why(
        open_page, live_server, language):
    page, watch = open_page(DESKTOP)
    game = start_at(page, live_server.url, rung_two_with_a_diamond_run_started(), language)

    expected = server_hint(game)
    assert expected["action"] == {"type": "draw", "from": "stock"}
    page.click("[data-hint]")
    page.wait_for_selector("[data-stock].hinted")
    assert page.locator("[data-discard].hinted").count() == 0
    message = reason_shown(page, expected["reason"]["message"])
    page.wait_for_function("(text) => document.querySelector('[data-message]').textContent "
                           "=== text", arg=message)
    if language != "en":
        assert message != expected["reason"]["message"]  # translated

    page.click("[data-stock]")
    wait_idle(page)
    game.refresh_from_db()
    expected = server_hint(game)
    assert expected["action"]["type"] == "discard"
    page.click("[data-hint]")
    page.wait_for_selector(".hand .card.hinted")
    hinted = page.locator(".hand .card.hinted")
    assert hinted.count() == 1
    assert hinted.get_attribute("data-id") == expected["action"]["card"]
    assert expected["action"]["card"] not in DIAMOND_RUN
    assert "selected" in hinted.get_attribute("class")
    message = reason_shown(page, expected["reason"]["message"])
    page.wait_for_function("(text) => document.querySelector('[data-message]').textContent "
                           "=== text", arg=message)
    watch.check()
