"""Screenshots of every page in Spanish and Thai, on a phone (360×640) and a desktop
(1280×800), for a person to look at: ``SCREENS=1 ./dev test tests/browser/test_screens.py``.
They land in ``artifacts/screenshots/<lang>/``. Skipped otherwise (they check nothing a
person's eye would not, and take a while). Thai needs Thai fonts on the machine
(``apt-get install fonts-thai-tlwg``); no test depends on them."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE
from tests.browser.table_driver import play_turn, view, wait_idle

pytestmark = [
    pytest.mark.browser, pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("SCREENS"), reason="SCREENS=1 takes the screenshots"),
]

SIZES = {"phone": PHONE, "desktop": DESKTOP}


def shot(page, lang: str, name: str, full_page: bool = True) -> None:
    folder = ARTIFACTS / lang
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)


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


@pytest.mark.parametrize("lang", ["es", "th"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screenshots(open_page, live_server, seeded, lang, size):
    with ThreadPoolExecutor(1) as pool:
        pool.submit(some_scores).result()
    page, _watch = open_page(SIZES[size], speed="instant", touch=size == "phone",
                             locale={"es": "es-ES", "th": "th-TH"}[lang])
    page.context.add_cookies([{"name": "django_language", "value": lang,
                               "url": live_server.url}])
    for path, name in [("/", "home"), ("/rules/", "rules"), ("/about/", "about"),
                       ("/profile/", "profile-new")]:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        shot(page, lang, f"{name}-{size}")

    page.goto(live_server.url + "/")
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
            shot(page, lang, f"table-laid-down-{size}")
            page.locator(".hand .card").first.click()
            shot(page, lang, f"table-selected-{size}")
    page.click("[data-scores-toggle]")
    shot(page, lang, f"table-scores-{size}", full_page=False)
    page.click("[data-scores-close]")
    page.click("[data-stock]")
    wait_idle(page)
    if page.locator("[data-action=laydown]:not([disabled])").count():
        page.click("[data-action=laydown]")
        page.locator(".hand .card").nth(1).click()
        shot(page, lang, f"table-composer-{size}")

    page.goto(live_server.url + "/profile/")
    page.wait_for_selector(".profile[data-loaded]")
    page.click("[data-transfer-create]")
    page.wait_for_selector("[data-transfer-code]:not(:empty)")
    shot(page, lang, f"profile-{size}")
    page.goto(live_server.url + "/leaderboard/")
    page.wait_for_selector(".board tbody tr")
    shot(page, lang, f"leaderboard-{size}")
