"""The leaderboard moves to any past day and week (previous/next, the date picker, the address
carries it, Back returns), names each player as a link to their page, and links an ended
day's entries to their games' replays (today's none). Screenshots: boards-*.png."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, time, timedelta

import pytest

from games import daily
from leaderboards.models import week_of
from tests.browser.conftest import DESKTOP, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def in_thread(work):
    """Scores are published with async_to_sync: not from Playwright's event-loop thread."""
    from django.db import connection

    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def scores():
    from tests.leaderboards.factories import finished_daily, player

    today = daily.today()
    yesterday = today - timedelta(days=1)
    week_ago = today - timedelta(days=7)
    winner = player("Winner")[0]

    def done(who, day, contracts, penalty):
        at = datetime.combine(day, time(12), tzinfo=UTC) if day < today else datetime.now(UTC)
        return finished_daily(who, day, contracts, penalty, finished_at=at)

    games = {
        "yesterday": [done(winner, yesterday, 9, 10), done(player("Runner")[0], yesterday, 7, 30)],
        "today": [done(winner, today, 5, 50)],
        "week_ago": [done(player("Earlier")[0], week_ago, 3, 80)],
    }
    return winner, {k: [g.public_id for g in v] for k, v in games.items()}


def rows_text(page):
    return page.locator(".board tbody tr").all_inner_texts()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_past_days_and_weeks_with_player_and_replay_links(open_page, site, viewport):
    winner, games = in_thread(scores)
    today = daily.today()
    yesterday = today - timedelta(days=1)
    page, watch = open_page(viewport, touch=viewport is PHONE)
    page.goto(site.url + "/leaderboard/")
    page.wait_for_selector("#board[data-loaded]")
    assert page.locator(".board tbody tr").count() == 1
    assert page.locator("[data-watch-column]").is_hidden()
    assert page.locator(".board a[href^='/replay/']").count() == 0  # today's replays are shut
    assert games["today"][0] not in page.content()
    assert page.locator("[data-board-next]").is_hidden()

    page.click("[data-board-previous]")
    page.wait_for_selector(f"#board[data-loaded='?day={yesterday}']")
    assert page.url.endswith(f"/leaderboard/?day={yesterday}")
    assert [r.split("\t")[:2] for r in rows_text(page)] == [["1", "Winner"], ["2", "Runner"]]
    replays = page.locator(".board a[href^='/replay/']")
    assert [replays.nth(i).get_attribute("href") for i in range(2)] == [
        f"/replay/{g}/" for g in games["yesterday"]]
    player_link = page.locator(".board tbody a", has_text="Winner")
    assert player_link.get_attribute("href") == f"/players/{winner.public_id}/"
    assert page.locator("[data-board-day-link] a").get_attribute("href") == f"/daily/{yesterday}/"
    shoot(page, f"boards-yesterday-{viewport['width']}x{viewport['height']}")

    # The picker: a week ago, then that week's board, then Back.
    week_ago = today - timedelta(days=7)
    page.fill("[data-board-pick]", str(week_ago))
    page.wait_for_selector(f"#board[data-loaded='?day={week_ago}']")
    assert [r.split("\t")[1] for r in rows_text(page)] == ["Earlier"]
    page.click("[data-board=week]")
    week = week_of(week_ago)
    page.wait_for_selector(f"#board[data-loaded='?week={week}']")
    assert "Earlier" in page.inner_text(".board tbody")
    assert page.locator(".board a[href^='/replay/']").count() == 0
    page.go_back()
    page.wait_for_function(f"() => location.search === '?day={week_ago}'")
    page.wait_for_selector(".board tbody tr:has-text('Earlier')")
    watch.check()


def test_an_address_with_a_day_opens_that_board(open_page, site):
    _winner, games = in_thread(scores)
    yesterday = daily.today() - timedelta(days=1)
    page, watch = open_page(DESKTOP)
    page.goto(f"{site.url}/leaderboard/?day={yesterday}")
    page.wait_for_selector("#board[data-loaded]")
    assert page.locator(".board a[href^='/replay/']").count() == 2
    page.keyboard.press("Tab")
    page.goto(f"{site.url}/leaderboard/?day=2999-01-01")  # not begun: today's board instead
    page.wait_for_selector("#board[data-loaded]")
    assert page.locator(".board tbody tr").count() == 1
    watch.check()
