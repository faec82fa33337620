"""GET /api/v1/leaderboards/players/{id} as the public player page reads it (latest dailies
with ranks and, once each day is over, games; lay-down rates by rung), and the day boards'
games for replays: only ended days name a game, hidden scores and banned players stay away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache

from games.models import Game
from leaderboards import history, services
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]
YESTERDAY = DAY - timedelta(days=1)


@pytest.fixture(autouse=True)
def fresh_rates():
    cache.delete(history.EVERYONE_CACHE_KEY)
    yield
    cache.delete(history.EVERYONE_CACHE_KEY)


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


def deal_results(*person_climbed: bool) -> list[dict]:
    """A game's state.history in which the person (seat 0) laid down as given, deal by deal."""
    return [{"deal": n, "dealer": 0, "ending": "went_out", "went_out": 1, "penalties": [0] * 4,
             "climbed": [laid, True, False, False]}
            for n, laid in enumerate(person_climbed, start=1)]


def with_results(game: Game, *person_climbed: bool) -> Game:
    Game.objects.filter(pk=game.pk).update(state={"history": deal_results(*person_climbed)})
    return game


def test_the_latest_dailies_come_with_ranks_and_ended_days_with_their_games():
    someone, _ = player("Page")
    finished_daily(player("Ahead")[0], YESTERDAY, 9, 0)
    old = finished_daily(someone, YESTERDAY, 6, 50)
    today = finished_daily(someone, DAY, 4, 20)
    body = api().get(f"/leaderboards/players/{someone.public_id}").json()
    assert body["days"] == [
        {"date": str(DAY), "contracts": 4, "penalty": 20, "place": 1, "rank": 1, "game": None},
        {"date": str(YESTERDAY), "contracts": 6, "penalty": 50, "place": 1, "rank": 2,
         "game": old.public_id}]
    assert today.public_id not in str(body)


def test_days_is_bounded_and_pages_the_latest():
    someone, _ = player()
    for back in range(4):
        finished_daily(someone, DAY - timedelta(days=back), 5, back)
    client = api()
    body = client.get(f"/leaderboards/players/{someone.public_id}", days=2).json()
    assert [d["date"] for d in body["days"]] == [str(DAY), str(YESTERDAY)]
    for bad in (0, 101, "x"):
        response = client.get(f"/leaderboards/players/{someone.public_id}", days=bad)
        assert response.status_code == 422 and response.json()["error"]["code"]


def test_a_hidden_score_is_on_no_public_list_or_rate(moderator):
    someone, _ = player()
    shown = with_results(finished_daily(someone, YESTERDAY, 1, 10), True)
    hidden = with_results(finished_daily(someone, DAY - timedelta(days=2), 0, 90), False)
    services.hide_score(hidden.score, moderator, "odd")
    body = api().get(f"/leaderboards/players/{someone.public_id}").json()
    assert [d["game"] for d in body["days"]] == [shown.public_id]
    assert hidden.public_id not in str(body)
    assert body["rungs"][0] == {"rung": 1, "deals": 1, "laid_down": 1, "rate": 1.0,
                                "everyone_rate": 1.0}


def test_a_banned_players_page_is_not_found_and_their_games_leave_the_rates(moderator):
    banned, _ = player("Banned")
    with_results(finished_daily(banned, YESTERDAY, 0, 90), False, False)
    services.ban_player(banned, moderator, "spam")
    someone, _ = player()
    with_results(finished_daily(someone, YESTERDAY, 1, 0), True)
    assert api().get(f"/leaderboards/players/{banned.public_id}").status_code == 404
    rungs = api().get(f"/leaderboards/players/{someone.public_id}").json()["rungs"]
    assert rungs[0]["everyone_rate"] == 1.0


def test_rungs_count_the_deals_played_on_each_rung_against_everyone():
    someone, _ = player()
    # Rung 1 laid at once, rung 2 failed twice then laid, rung 3 failed to the end.
    with_results(finished_daily(someone, YESTERDAY, 2, 40),
                 True, False, False, True, False, False, False, False, False, False)
    other, _ = player()
    with_results(finished_daily(other, YESTERDAY, 10, 0), *[True] * 10)
    rungs = api().get(f"/leaderboards/players/{someone.public_id}").json()["rungs"]
    assert [(r["deals"], r["laid_down"]) for r in rungs[:4]] == [(1, 1), (3, 1), (6, 0), (0, 0)]
    assert rungs[1]["rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert rungs[3]["rate"] is None
    # Everyone: both players' deals. Rung 3: six failures and one success.
    assert rungs[2]["everyone_rate"] == pytest.approx(1 / 7, abs=1e-4)
    assert rungs[9]["everyone_rate"] == 1.0 and rungs[9]["rate"] is None
    assert len(rungs) == 10


def test_rung_counts_cap_the_rung_at_the_top():
    counts = history.rung_counts([deal_results(*[True] * 10), [], None])
    assert counts == [[1, 1]] * 10


def test_an_ended_days_board_names_each_entrys_game_and_todays_none():
    someone, token = player()
    ended = finished_daily(someone, YESTERDAY, 5, 10)
    other = finished_daily(player()[0], YESTERDAY, 6, 10)
    running = finished_daily(someone, DAY, 5, 10)
    body = api(token).get(f"/leaderboards/daily/{YESTERDAY}").json()
    assert [e["game"] for e in body["entries"]] == [other.public_id, ended.public_id]
    assert body["me"]["game"] == ended.public_id
    today = api(token).get(f"/leaderboards/daily/{DAY}").json()
    assert today["entries"][0]["game"] is None and today["me"]["game"] is None
    assert running.public_id not in str(today)
    week = api(token).get("/leaderboards/week").json()
    assert all(e["game"] is None for e in week["entries"])
    assert "score_id" not in str(body)


def test_the_player_page_reads_in_a_bounded_number_of_queries(django_assert_max_num_queries):
    someone, _ = player()
    for back in range(5):
        finished_daily(someone, DAY - timedelta(days=back), 5, back)
    # history (5) + days (1) + a rank each (5) + rates (1 + 1 cached once)
    with django_assert_max_num_queries(14):
        assert api().get(f"/leaderboards/players/{someone.public_id}").status_code == 200
