"""The language switcher, the table in Thai on a phone, and axe-core on the main pages."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE, axe_violations, shoot
from tests.browser.table_driver import wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_language_switcher_turns_the_pages_spanish_then_thai(open_page, live_server):
    page, watch = open_page(PHONE)
    page.goto(live_server.url + "/")
    page.select_option("#lang-select", "es")
    page.wait_for_selector('html[lang="es"]')
    assert "Empezar una partida de práctica" in page.inner_text("main")
    page.click("[data-practice-start]")
    page.wait_for_url("**/play/**")
    wait_idle(page)
    assert "Ronda 1 de 10" in page.inner_text("[data-deal-info]")
    labels = page.locator(".hand .card").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(" de " in label or "comodín" in label for label in labels)
    shoot(page, "table-phone-es")

    page.select_option("#lang-select", "th")
    page.wait_for_selector('html[lang="th"]')
    wait_idle(page)
    assert "รอบที่ 1 จาก 10" in page.inner_text("[data-deal-info]")
    assert "กองจั่ว" in page.inner_text(".piles")
    shoot(page, "table-phone-th")
    page.goto(live_server.url + "/rules/")
    assert "บันไดสัญญา" in page.inner_text("main")
    watch.check()


@pytest.mark.parametrize("path", ["/", "/leaderboard/", "/rules/", "table"])
def test_no_serious_accessibility_violations(open_page, live_server, path):
    page, watch = open_page(DESKTOP)
    if path == "table":
        page.goto(live_server.url + "/")
        page.click("[data-practice-start]")
        page.wait_for_url("**/play/**")
        wait_idle(page)
        page.click("[data-stock]")
        wait_idle(page)
        page.locator(".hand .card").first.click()  # a selection and lay-off targets showing
    else:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    violations = axe_violations(page)
    if path == "/leaderboard/":
        shoot(page, "leaderboard-desktop")
    assert violations == [], violations
    watch.check()
