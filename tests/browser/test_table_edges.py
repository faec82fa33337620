"""The phone's edges at a table (issue 51, item 8), each at the size where it was seen: the
seats' badges, Skip beside your contract."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shoot
from tests.browser.table_driver import start_practice, view
from tests.browser.test_phone_table import PHONES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The seats drawn again by views/seats.js from the page's own view, with every computer
# player laid down and the first of them the dealer: the badges' line at its fullest (but
# for "Away").
DEALER_LAID_DOWN = """async (v) => {
    const src = document.querySelector('script[src*="pages/table"]').src;
    const seats = await import(src.replace(/pages[/]table[.]js.*/, 'views/seats.js'));
    const others = v.players.filter((p) => p.seat !== v.you);
    for (const p of others) p.laid_down = true;
    v.dealer = others[0].seat;
    seats.renderSeats(document.querySelector('[data-seats]'), v);
}"""
# Each badge that reaches past its line's right edge (the line hides what overflows).
CLIPPED = """() => [...document.querySelectorAll('.seat .badges')].flatMap((line) => {
    const edge = line.getBoundingClientRect().right + 0.5;
    return [...line.children].filter((b) => b.getBoundingClientRect().right > edge)
        .map((b) => b.textContent);
})"""


@pytest.mark.parametrize("language", ["en", "es", "th"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_laid_down_mark_is_seen_whole_beside_the_dealers(open_page, site, seeded, size,
                                                              language):
    page, watch = open_page(PHONES[size], touch=True, speed="instant")
    start_practice(page, site.url, language)
    page.evaluate(DEALER_LAID_DOWN, view(page))
    assert page.locator(".seat .badge.down").count() == 3
    shoot(page, f"{language}-{size}-seat-badges")
    assert page.evaluate(CLIPPED) == []
    watch.check()
