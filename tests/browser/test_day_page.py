"""A day's page (/daily/YYYY-MM-DD/): once the day is over, one button checks in the browser
that SHA-256 of the seed is the commitment and that the seed deals exactly the cards the page
shows (GET /daily/{date}/deals), on a day nobody played; a card altered in the page's data is
named; a running day shows its commitment and nothing else. Screenshots: day-*.png."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from games import daily
from games.engine.cards import card_id, is_joker
from games.engine.redeal import first_dealer, ten_deals
from games.services.daily import deal_for, todays_deal
from tests.browser.conftest import DESKTOP, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def yesterday():
    return daily.today() - timedelta(days=1)


def shown_as(card: int) -> str:
    """How the page begins to name a card: "joker", or its rank ("10H.2" -> "10")."""
    return "joker" if is_joker(card) else card_id(card)[:-3]


def open_day(open_page, site, day, viewport=DESKTOP, **options):
    page, watch = open_page(viewport, **options)
    page.goto(f"{site.url}/daily/{day}/")
    page.wait_for_selector("#day-page[data-loaded]")
    return page, watch


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_button_verifies_a_revealed_day_that_nobody_played(open_page, site, viewport):
    deal = deal_for(yesterday())
    page, watch = open_day(open_page, site, yesterday(), viewport, touch=viewport is PHONE)
    assert page.inner_text("[data-day-seed]") == deal.seed
    assert page.inner_text("[data-day-commitment]") == deal.commitment
    assert page.locator("[data-dealt] details").count() == 10
    first = ten_deals(deal.seed)[0]
    page.locator("[data-dealt] summary").first.click()
    you = page.locator("[data-dealt] details").first.locator("dd").first.inner_text()
    assert len(you.split()) == 10 and you.split()[0].startswith(shown_as(first.hands[0][0]))

    if viewport is PHONE:
        page.locator("[data-verify]").tap()
    else:
        page.locator("[data-verify]").focus()
        page.keyboard.press("Enter")
    page.wait_for_selector("[data-verdict]:not([hidden])")
    assert page.inner_text("[data-verdict-line]") == "Verified on this device."
    checks = page.locator("[data-checks] li.ok")
    assert checks.count() == 2 and deal.commitment in checks.first.inner_text()
    assert page.locator("[data-differences]").is_hidden()
    shoot(page, f"day-verified-{viewport['width']}x{viewport['height']}")
    watch.check()


def test_a_card_altered_in_the_pages_data_is_named(open_page, site):
    deal = deal_for(yesterday())
    real = ten_deals(deal.seed)[2]
    page, watch = open_page(DESKTOP)

    def alter(route):
        body = route.fetch().json()
        hand = body["deals"][2]["hands"][2]
        # Bruno's fifth card of deal 3 becomes the first discard of that deal.
        hand[4] = dict(body["deals"][2]["discard_top"])
        route.fulfill(json=body)

    page.route("**/api/v1/daily/*/deals", alter)
    page.goto(f"{site.url}/daily/{yesterday()}/")
    page.wait_for_selector("#day-page[data-loaded]")
    page.click("[data-verify]")
    page.wait_for_selector("[data-verdict]:not([hidden])")
    assert page.inner_text("[data-verdict-line]") == "Not verified: what differs is listed below."
    assert page.locator("[data-checks] li.ok").count() == 1  # the commitment still matches
    differences = page.locator("[data-differences] li").all_inner_texts()
    assert len(differences) == 1
    assert differences[0].startswith("Deal 3, hand of Bruno, card 5: the seed deals ")
    assert shown_as(real.hands[2][4]) in differences[0]
    marked = page.locator(".dealt-card.differs")
    assert marked.count() == 1 and marked.is_visible()  # deal 3 opened, the card marked
    shoot(page, "day-difference-1280x800")
    watch.check()


def test_a_seed_that_is_not_the_commitments_fails_the_check(open_page, site):
    deal_for(yesterday())
    page, watch = open_page(DESKTOP)

    def swap_seed(route):
        body = route.fetch().json()
        body["seed"] = next(s for s in (body["seed"] + str(i) for i in range(50))
                            if first_dealer(s) != first_dealer(body["seed"]))
        route.fulfill(json=body)

    page.route(f"**/api/v1/daily/{yesterday()}", swap_seed)
    page.goto(f"{site.url}/daily/{yesterday()}/")
    page.wait_for_selector("#day-page[data-loaded]")
    page.click("[data-verify]")
    page.wait_for_selector("[data-verdict]:not([hidden])")
    assert page.inner_text("[data-verdict-line]").startswith("Not verified")
    assert "not the commitment" in page.locator("[data-checks] li.bad").first.inner_text()
    first = page.locator("[data-differences] li").first.inner_text()
    assert first.startswith("Deal 1: the seed makes ") and "the dealer; the site says" in first
    watch.check()


def test_a_running_day_shows_its_commitment_and_no_seed_or_card(open_page, site):
    deal = todays_deal()
    page, watch = open_page(DESKTOP)
    bodies = []
    page.on("response", lambda r: "/api/" in r.url and bodies.append(r.text()))
    page.goto(f"{site.url}/daily/{daily.today()}/")
    page.wait_for_selector("#day-page[data-loaded]")
    assert page.inner_text("[data-day-commitment]") == deal.commitment
    assert page.locator("[data-verify-box]").is_hidden()
    assert page.locator("[data-dealt-box]").is_hidden()
    assert "still running" in page.inner_text("[data-day-state]")
    assert deal.seed not in page.content()
    assert bodies and all(deal.seed not in body for body in bodies)
    assert not any("/deals" in json.dumps(b) for b in bodies)
    assert page.locator("[data-day-next]").is_hidden()
    watch.check()


def test_a_day_without_a_daily_says_so(open_page, site):
    page, watch = open_day(open_page, site, daily.today() - timedelta(days=40))
    assert page.inner_text("[data-day-state]") == "There was no daily deal that day."
    page.click("[data-day-next]")
    page.wait_for_url(f"**/daily/{daily.today() - timedelta(days=39)}/")
    watch.check(allow=("status of 404",))
