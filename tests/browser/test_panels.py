"""The table's panels and dialogs: Escape and a click outside close them, focus goes back to
where it was, and "Lay down…" is live only when the hand holds the contract."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.table_driver import hint, start_practice, wait_idle
from tests.browser.test_table_view import play_until_the_contract_is_held

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]



def focused_is(page, selector: str) -> bool:
    return page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector)


@pytest.mark.parametrize("panel, toggle", [("#settings", "[data-settings-toggle]"),
                                           ("#scores", "[data-scores-toggle]")])
def test_escape_closes_a_panel_and_focus_goes_back_to_its_button(open_page, site, panel, toggle):
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    page.focus(toggle)
    page.keyboard.press("Enter")
    assert page.is_visible(panel)
    page.keyboard.press("Escape")
    assert page.is_hidden(panel)
    assert focused_is(page, toggle)
    assert page.get_attribute(toggle, "aria-expanded") == "false"
    watch.check()


@pytest.mark.parametrize("panel, toggle", [("#settings", "[data-settings-toggle]"),
                                           ("#scores", "[data-scores-toggle]")])
def test_a_tap_outside_closes_a_panel(open_page, site, panel, toggle):
    page, watch = open_page(PHONE, touch=True)
    start_practice(page, site.url)
    page.tap(toggle)
    assert page.is_visible(panel)
    box = page.locator(panel).bounding_box()
    page.touchscreen.tap(box["x"] + 10, box["y"] + box["height"] + 20)  # just below it
    assert page.is_hidden(panel)
    # The same tap on the toggle closes it too, and opens the other panel in its place.
    page.tap(toggle)
    page.tap(toggle)
    assert page.is_hidden(panel)
    watch.check()


def test_the_help_closes_with_escape_or_a_click_outside_and_gives_focus_back(open_page, site):
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    page.focus("[data-help-open]")
    page.keyboard.press("Enter")
    assert page.is_visible("[data-help]")
    page.keyboard.press("Escape")
    assert page.is_hidden("[data-help]")
    assert focused_is(page, "[data-help-open]")
    page.click("[data-help-open]")
    page.mouse.click(5, 5)  # the backdrop
    assert page.is_hidden("[data-help]")
    watch.check()


def test_lay_down_says_why_while_the_hand_does_not_hold_the_contract(open_page, site):
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    page.click("[data-stock]")
    wait_idle(page)
    if hint(page)["lay_down"]:
        pytest.skip("this deal's hand holds its contract at once")
    assert page.get_attribute("[data-action=laydown]", "aria-disabled") == "true"
    # Playwright holds aria-disabled buttons unclickable; a person's press still lands.
    page.click("[data-action=laydown]", force=True)
    assert "does not hold your contract" in page.inner_text("[data-message]")
    assert page.is_hidden("[data-composer]")
    watch.check()


def test_escape_and_cancel_close_the_composer_and_focus_goes_back_to_lay_down(open_page, site):
    page, watch = open_page(DESKTOP)
    start_practice(page, site.url)
    play_until_the_contract_is_held(page)
    assert page.get_attribute("[data-action=laydown]", "aria-disabled") == "false"

    page.focus("[data-action=laydown]")
    page.keyboard.press("Enter")
    assert page.is_visible("[data-composer]")
    page.keyboard.press("Escape")
    assert page.is_hidden("[data-composer]")
    assert focused_is(page, "[data-action=laydown]")

    page.click("[data-action=laydown]")
    page.click("[data-laydown-cancel]")
    assert page.is_hidden("[data-composer]")
    assert focused_is(page, "[data-action=laydown]")
    watch.check()
