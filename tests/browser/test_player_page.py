"""A player's public page (/players/<id>/): name, streaks, the contracts chart, the rung chart
against everyone, and the dailies with links to each day, its board and, once the day is over,
its replay; a hidden score is not there and a banned player's page is not found.
Screenshots: player-*.png."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from games import daily
from games.models import Game
from tests.browser.conftest import DESKTOP, shoot
from tests.browser.test_past_boards import in_thread

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def deal_results(climbs):
    return [{"deal": n, "dealer": 0, "ending": "went_out", "went_out": 1, "penalties": [0] * 4,
             "climbed": [laid, True, False, False]} for n, laid in enumerate(climbs, start=1)]


def history_of_dailies():
    from django.contrib.auth import get_user_model

    from leaderboards import services
    from tests.leaderboards.factories import finished_daily, player

    today = daily.today()
    someone = player("Chartist")[0]
    games = []
    for back in range(6, -1, -1):
        day = today - timedelta(days=back)
        at = datetime.combine(day, time(12), tzinfo=UTC) if back else datetime.now(UTC)
        climbs = [i < (back % 4) + 3 for i in range(10)]
        game = finished_daily(someone, day, sum(climbs), 10 * back, finished_at=at)
        Game.objects.filter(pk=game.pk).update(state={"history": deal_results(climbs)})
        games.append(game)
    moderator = get_user_model().objects.create_user("mod", is_staff=True)
    hidden = finished_daily(someone, today - timedelta(days=9), 1, 200,
                            finished_at=datetime.combine(today - timedelta(days=9), time(12),
                                                         tzinfo=UTC))
    services.hide_score(hidden.score, moderator, "odd")
    banned = player("Banned")[0]
    services.ban_player(banned, moderator, "spam")
    return someone, [g.public_id for g in games], hidden.public_id, banned


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_player_page_shows_history_streaks_and_charts(open_page, site, viewport):
    someone, games, hidden, _banned = in_thread(history_of_dailies)
    page, watch = open_page(viewport, touch=viewport is PHONE)
    page.goto(f"{site.url}/players/{someone.public_id}/")
    page.wait_for_selector("#player-page[data-loaded]")
    assert page.inner_text("[data-player-name]") == "Chartist"
    assert page.inner_text('[data-stat="dailies"]') == "7"
    assert page.inner_text('[data-stat="current_streak"]') == "7 days"
    rows = page.locator("[data-player-days] tr")
    assert rows.count() == 7
    replays = page.locator("[data-player-days] a[href^='/replay/']")
    # Newest first: today's replay is not linked, the six ended days' are.
    assert [replays.nth(i).get_attribute("href") for i in range(replays.count())] == [
        f"/replay/{g}/" for g in reversed(games[:-1])]
    assert games[-1] not in page.content() and hidden not in page.content()
    assert rows.first.locator("a").first.get_attribute("href") == f"/daily/{daily.today()}/"
    line = page.locator("[data-contracts-chart] svg")
    assert line.get_attribute("role") == "img" and "7 dailies" in line.get_attribute("aria-label")
    assert page.locator("[data-contracts-chart] circle").count() == 7
    assert page.locator("[data-rungs-chart] rect.bar-player").count() == 7  # rungs 1-7 played
    assert page.locator("[data-rungs-chart] rect.bar-everyone").count() == 7
    box = line.bounding_box()
    assert box["width"] <= viewport["width"] and box["height"] > 50
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    shoot(page, f"player-{viewport['width']}x{viewport['height']}")
    watch.check()


def test_a_banned_player_has_no_page(open_page, site):
    _someone, _games, _hidden, banned = in_thread(history_of_dailies)
    page, watch = open_page(DESKTOP)
    response = page.goto(f"{site.url}/players/{banned.public_id}/")
    assert response.status == 404
    assert page.inner_text("h1") == "Player not found"
    watch.check(allow=("status of 404",))
