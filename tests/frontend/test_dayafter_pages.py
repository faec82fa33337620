"""The pages that look back, as served: a day's page (/daily/YYYY-MM-DD/), a player's page
(/players/<id>/) and the fairness page's links to the revealed days. Their markup fits the
Content-Security-Policy in every language, and none carries a running day's seed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.services.daily import deal_for
from leaderboards import services
from tests.factories import DAY
from tests.frontend.test_csp_markup import Offences
from tests.languages import LANGUAGES
from tests.leaderboards.factories import finished_daily, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_new_pages_have_no_inline_code(lang):
    someone, _ = player()
    client = Client()
    client.cookies["django_language"] = lang
    for path in (f"/daily/{DAY}/", f"/players/{someone.public_id}/", "/about/"):
        response = client.get(path)
        assert response.status_code == 200, path
        parser = Offences()
        parser.feed(response.content.decode())
        assert parser.found == [], path


def test_a_days_page_is_served_for_a_real_date_only():
    assert Client().get(f"/daily/{DAY - timedelta(days=3)}/").status_code == 200
    assert Client().get("/daily/2030-02-30/").status_code == 404
    assert Client().get("/daily/2030-2-3/").status_code == 404


def test_todays_page_and_the_fairness_page_carry_no_seed_of_the_running_day():
    seed = deal_for(DAY).seed
    for path in (f"/daily/{DAY}/", "/about/", "/leaderboard/"):
        assert seed not in Client().get(path).content.decode(), path


def test_the_fairness_page_links_the_latest_revealed_days_and_not_today():
    html = Client().get("/about/").content.decode()
    for back in range(1, 8):
        assert f'href="/daily/{DAY - timedelta(days=back)}/"' in html
    assert f'href="/daily/{DAY}/"' not in html
    assert "Verify on this device" in html


def test_a_banned_or_unknown_player_has_no_page(django_user_model):
    banned, _ = player()
    finished_daily(banned, DAY, 3, 10)
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    services.ban_player(banned, moderator, "spam")
    assert Client().get(f"/players/{banned.public_id}/").status_code == 404
    assert Client().get("/players/nobody-at-all/").status_code == 404
    assert banned.name not in Client().get(f"/players/{banned.public_id}/").content.decode()
