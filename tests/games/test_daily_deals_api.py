"""GET /api/v1/daily/{date}/deals: a revealed day's ten deals, as its players were dealt them,
for the day page's check in the browser; nothing of a running day, to anyone (R25)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.players.models import sha256_hex
from games.reads import replays
from games.services.daily import deal_for, start_daily
from tests.factories import DAY
from tests.games.test_no_leaks import cards_in
from tests.leaderboards.factories import api, finished_daily, player
from tests.leaderboards.play import play_to_the_end

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def as_ids(deal: dict) -> tuple:
    return (deal["deal"], deal["dealer"], deal["discard_top"]["id"],
            [[card["id"] for card in hand] for hand in deal["hands"]])


def test_a_revealed_days_deals_are_the_deals_its_player_was_dealt(clock):
    someone, token = player()
    game = play_to_the_end(start_daily(someone).game)
    clock.advance(days=1)
    body = api().get(f"/daily/{DAY}/deals").json()
    seed = deal_for(DAY).seed
    assert (body["date"], body["seed"], body["commitment"]) == (str(DAY), seed, sha256_hex(seed))
    assert body["first_dealer"] == body["deals"][0]["dealer"]
    played = replays.replay_of(game)["deals"]
    assert [as_ids(d) for d in body["deals"]] == [as_ids(d) for d in played]
    assert body["deals"][0]["discard_top"].keys() <= {"id", "rank", "suit", "joker"}


def test_a_day_nobody_played_has_its_deals_too(clock):
    deal_for(DAY)
    clock.advance(days=3)
    body = api().get(f"/daily/{DAY}/deals").json()
    assert [d["deal"] for d in body["deals"]] == list(range(1, 11))
    for deal in body["deals"]:
        cards = [c["id"] for hand in deal["hands"] for c in hand] + [deal["discard_top"]["id"]]
        assert [len(h) for h in deal["hands"]] == [10] * 4 and len(set(cards)) == 41


@pytest.mark.parametrize("who", ["nobody", "another player", "the days player"])
def test_todays_deals_are_refused_to_everyone_and_name_no_card_or_seed(who):
    someone, token = player()
    finished_daily(someone, DAY, 7, 40)
    client = {"nobody": api(), "another player": api(player("Other")[1]),
              "the days player": api(token)}[who]
    response = client.get(f"/daily/{DAY}/deals")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert cards_in(response.json()) == set()
    assert deal_for(DAY).seed not in response.content.decode()


def test_a_moderators_session_gets_no_running_days_deals(client, django_user_model):
    deal_for(DAY)
    moderator = django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)
    client.force_login(moderator)
    response = client.get(f"/api/v1/daily/{DAY}/deals")
    assert response.status_code == 404 and deal_for(DAY).seed not in response.content.decode()


def test_a_future_day_a_day_without_a_deal_and_a_malformed_day_are_refused():
    deal_for(DAY + timedelta(days=1))  # tomorrow's deal is made ahead of midnight
    assert api().get(f"/daily/{DAY + timedelta(days=1)}/deals").status_code == 404
    assert api().get(f"/daily/{DAY - timedelta(days=9)}/deals").status_code == 404
    for bad in ("2030-3-6", "tomorrow", "2030-02-30", "9" * 40):
        response = api().get(f"/daily/{bad}/deals")
        assert response.status_code in (404, 422), bad
        assert "error" in response.json()


def test_the_schema_states_ten_deals_and_the_day_pattern():
    schema = api().client.get("/api/v1/openapi.json").json()
    operation = schema["paths"]["/api/v1/daily/{day}/deals"]["get"]
    assert set(operation["responses"]) >= {"200", "404", "422"}
    deals_schema = schema["components"]["schemas"]["DailyDeals"]["properties"]["deals"]
    assert (deals_schema["minItems"], deals_schema["maxItems"]) == (10, 10)
