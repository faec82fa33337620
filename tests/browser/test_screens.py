"""Every screen in Spanish and Thai, on a phone (390×844) and a laptop (1280×800): each one
is in the language asked for, fits the screen's width (no sideways scrolling) and logs no
error; with melds on the table, the hand, piles, message and log are still in the window.
With ``SCREENS=1`` the same runs in English too and at 360×740 and 1920×1080 as well, and
each screen is saved for a person to look at, in ``artifacts/screenshots/<lang>/``. Thai
needs Thai fonts on the machine (``apt-get install fonts-thai-tlwg``) to look right; no
assertion depends on them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from tests.browser.conftest import DESKTOP, SCREENS, shoot
from tests.browser.table_driver import outside_viewport, play_turn, view, wait_idle
from tests.languages import TRANSLATED

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The sizes the developers' guide names (the shared PHONE fixture is a smaller 360×640).
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": DESKTOP}
LANGS = list(TRANSLATED)
if SCREENS:  # for a person to look at: every language, a small phone and a wide screen too
    SIZES |= {"small-phone": {"width": 360, "height": 740}, "wide": {"width": 1920, "height": 1080}}
    LANGS = ["en", *LANGS]
LOCALES = {"en": "en-GB", "es": "es-ES", "th": "th-TH"}
# How far the page reaches past the viewport's right edge (CSS pixels), and how wide it is.
OVERFLOW = """() => {
  const root = document.documentElement;
  return {lang: root.lang, overflow: root.scrollWidth - root.clientWidth};
}"""


def shot(page, lang: str, name: str, full_page: bool = True) -> None:
    """Check the screen as it is now (its language, its width); save it with SCREENS=1."""
    screen = page.evaluate(OVERFLOW)
    assert screen == {"lang": lang, "overflow": 0}, f"{name}: {screen}"
    shoot(page, f"{lang}/{name}", full_page=full_page)


def some_scores() -> None:
    from django.db import connection
    from django.utils import timezone

    from games import daily
    from tests.leaderboards.factories import finished_daily, player

    try:
        now = timezone.now()
        for i, name in enumerate(["Somchai Wongsawat", "María José", "Ada", "Kittipong",
                                  "Zoë Ødegaard-Fernández"]):
            owner, _ = player(name)
            finished_daily(owner, daily.today(), contracts=9 - i, penalty=35 + 7 * i,
                           finished_at=now - timedelta(minutes=40 - i))
    finally:
        connection.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen_speaks_the_language_fits_the_width_and_logs_no_error(
        open_page, site, seeded, lang, size):
    with ThreadPoolExecutor(1) as pool:
        pool.submit(some_scores).result()
    page, watch = open_page(SIZES[size], speed="instant", touch=size.endswith("phone"),
                             locale=LOCALES[lang])
    page.context.add_cookies([{"name": "django_language", "value": lang,
                               "url": site.url}])
    for path, name in [("/", "home"), ("/rules/", "rules"), ("/about/", "about"),
                       ("/profile/", "profile-new")]:
        page.goto(site.url + path)
        page.wait_for_load_state("networkidle")
        shot(page, lang, f"{name}-{size}")

    page.goto(site.url + "/")
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    shot(page, lang, f"table-{size}", full_page=False)
    page.click("[data-settings-toggle]")
    shot(page, lang, f"table-settings-{size}", full_page=False)
    page.click("[data-scores-toggle]")
    shot(page, lang, f"table-scores-empty-{size}", full_page=False)
    page.click("[data-scores-close]")
    record = {"laid_down": 0, "laid_off": 0, "discarded": 0}
    shots = {"summary": False, "down": False}

    def on_summary(p):
        if not shots["summary"]:
            shots["summary"] = True
            shot(p, lang, f"deal-summary-{size}", full_page=False)

    for _turn in range(40):
        if view(page)["deal"] != 1:
            break
        play_turn(page, record, on_summary=on_summary)
        if record["laid_down"] and not shots["down"]:
            shots["down"] = True
            page.evaluate("() => window.scrollTo(0, 0)")
            assert outside_viewport(page) == [], f"melds on the table, {size} in {lang}"
            shot(page, lang, f"table-laid-down-{size}")
            page.locator(".hand .card").first.click()
            shot(page, lang, f"table-selected-{size}")
            page.locator(".hand .card").first.click()  # unselected again: play goes on
    page.click("[data-scores-toggle]")
    shot(page, lang, f"table-scores-{size}", full_page=False)
    page.click("[data-scores-close]")
    page.click("[data-stock]")
    wait_idle(page)
    if page.locator("[data-action=laydown][aria-disabled=false]").count():
        page.click("[data-action=laydown]")
        page.locator(".hand .card").nth(1).click()
        shot(page, lang, f"table-composer-{size}")

    page.goto(site.url + "/profile/")
    page.wait_for_selector(".profile[data-loaded]")
    page.click("[data-transfer-create]")
    page.wait_for_selector("[data-transfer-code]:not(:empty)")
    shot(page, lang, f"profile-{size}")
    page.goto(site.url + "/leaderboard/")
    page.wait_for_selector(".board tbody tr")
    shot(page, lang, f"leaderboard-{size}")
    watch.check()
