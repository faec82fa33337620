"""GET /api/v1/leaderboards/...: the day's and the week's boards, pages, my own entry, history."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leaderboards import services
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


def fill(n: int, day: date = DAY) -> list:
    """n players, ranked in creation order (player i has i*10 penalty points)."""
    players = []
    for i in range(n):
        someone, token = player(f"P{i:02d}")
        finished_daily(someone, day, 5, i * 10)
        players.append((someone, token))
    return players


def test_the_day_board_lists_ranked_entries():
    fill(3)
    body = api().get(f"/leaderboards/daily/{DAY}").json()
    assert body["date"] == str(DAY) and body["count"] == 3 and body["next"] is None
    assert [(e["rank"], e["player"]["name"], e["penalty"]) for e in body["entries"]] == [
        (1, "P00", 0), (2, "P01", 10), (3, "P02", 20)]
    assert set(body["entries"][0]) == {"rank", "player", "contracts", "penalty", "finished_at",
                                       "linked", "game"}
    assert body["entries"][0]["game"] is None  # today's: its replay is nobody's yet
    assert body["me"] is None


def test_the_day_board_shows_how_many_completed_each_number_of_contracts(moderator):
    for i, contracts in enumerate([10, 7, 7, 0, 7]):
        finished_daily(player(f"D{i}")[0], DAY, contracts, 40)
    hidden = finished_daily(player("Hidden")[0], DAY, 3, 0)
    services.hide_score(hidden.score, moderator, "abuse")
    finished_daily(player("Yesterday")[0], DAY - timedelta(days=1), 5, 0)

    body = api().get(f"/leaderboards/daily/{DAY}").json()

    assert body["distribution"] == [1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1]
    assert body["count"] == sum(body["distribution"]) == 5


def test_an_empty_day_has_an_empty_distribution():
    body = api().get(f"/leaderboards/daily/{DAY}").json()
    assert body["distribution"] == [0] * 11 and body["count"] == 0


def test_today_is_the_default_day():
    fill(1)
    assert api().get("/leaderboards/daily").json()["date"] == str(DAY)


def test_my_entry_comes_with_my_rank_even_off_the_page():
    players = fill(6)
    me, token = players[4]
    body = api(token).get(f"/leaderboards/daily/{DAY}", limit=2).json()
    assert [e["rank"] for e in body["entries"]] == [1, 2]
    assert body["me"]["rank"] == 5 and body["me"]["player"]["id"] == me.public_id


def test_pages_are_walked_with_the_next_cursor():
    fill(7)
    client, ranks, cursor = api(), [], None
    while True:
        params = {"limit": 3, **({"after": cursor} if cursor else {})}
        body = client.get(f"/leaderboards/daily/{DAY}", **params).json()
        ranks += [e["rank"] for e in body["entries"]]
        cursor = body["next"]
        if cursor is None:
            break
    assert ranks == list(range(1, 8))


def test_the_page_size_is_bounded():
    fill(3)
    assert len(api().get(f"/leaderboards/daily/{DAY}", limit=100).json()["entries"]) == 3
    assert len(api().get(f"/leaderboards/daily/{DAY}", limit=1).json()["entries"]) == 1
    for limit in (0, -5, 101, 100000):
        response = api().get(f"/leaderboards/daily/{DAY}", limit=limit)
        assert response.status_code == 422, limit
        assert response.json()["error"]["code"] == "invalid_request"


def test_a_malformed_cursor_is_a_422():
    response = api().get(f"/leaderboards/daily/{DAY}", after="nonsense")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_cursor"


def test_a_day_that_has_not_begun_is_not_found():
    response = api().get(f"/leaderboards/daily/{DAY + timedelta(days=1)}")
    assert response.status_code == 404


def test_a_malformed_date_is_a_422():
    assert api().get("/leaderboards/daily/2030-13-45").status_code == 422


def test_hidden_scores_and_banned_players_never_appear(moderator):
    players = fill(4)
    hidden_owner, hidden_token = players[0]
    banned, banned_token = players[2]
    services.hide_score(hidden_owner.scores.get(), moderator, "abuse")
    services.ban_player(banned, moderator, "bot farm")
    body = api().get(f"/leaderboards/daily/{DAY}").json()
    assert [e["player"]["name"] for e in body["entries"]] == ["P01", "P03"]
    assert [e["rank"] for e in body["entries"]] == [1, 2]
    assert body["count"] == 2
    assert api(hidden_token).get(f"/leaderboards/daily/{DAY}").json()["me"] is None
    assert api(banned_token).get(f"/leaderboards/daily/{DAY}").json()["me"] is None
    week = api().get("/leaderboards/week").json()
    assert [e["player"]["name"] for e in week["entries"]] == ["P01", "P03"]


def test_the_board_costs_a_fixed_number_of_queries():
    players = fill(12)
    _, token = players[-1]
    client = api(token)
    client.get(f"/leaderboards/daily/{DAY}")  # warm up
    with CaptureQueriesContext(connection) as small:
        client.get(f"/leaderboards/daily/{DAY}")
    fill_more = [player()[0] for _ in range(8)]
    for someone in fill_more:
        finished_daily(someone, DAY, 6, 0)
    with CaptureQueriesContext(connection) as large:
        client.get(f"/leaderboards/daily/{DAY}")
    # identity (1) + touch-free, page with players (1), count (1), me (1), my rank (2)
    assert len(small) == len(large) <= 7, [q["sql"] for q in large.captured_queries]


def test_the_week_board_sums_the_weeks_dailies():
    someone, token = player("Steady")
    finished_daily(someone, DAY - timedelta(days=2), 4, 100)  # Monday
    finished_daily(someone, DAY, 5, 50)
    other, _ = player("Once")
    finished_daily(other, DAY, 8, 0)
    body = api(token).get("/leaderboards/week/2030-W10").json()
    assert (body["week"], body["starts"], body["ends"]) == ("2030-W10", "2030-03-04", "2030-03-10")
    assert [(e["player"]["name"], e["contracts"], e["penalty"], e["days"])
            for e in body["entries"]] == [("Steady", 9, 150, 2), ("Once", 8, 0, 1)]
    assert body["me"]["rank"] == 1
    assert api().get("/leaderboards/week").json()["week"] == "2030-W10"


@pytest.mark.parametrize("week", ["2030-10", "2030-W54", "2030W10", "x"])
def test_a_malformed_week_is_a_422(week):
    response = api().get(f"/leaderboards/week/{week}")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_week"


def test_a_week_that_has_not_begun_is_not_found():
    assert api().get("/leaderboards/week/2030-W11").status_code == 404


def test_a_players_history_is_public(clock):
    someone, _ = player("Hist")
    finished_daily(someone, DAY - timedelta(days=1), 6, 80)
    finished_daily(someone, DAY, 4, 20)
    body = api().get(f"/leaderboards/players/{someone.public_id}").json()
    assert body["player"]["name"] == "Hist"
    assert (body["dailies"], body["contracts"], body["current_streak"],
            body["longest_streak"]) == (2, 10, 2, 2)
    assert body["best_day"] == {"date": str(DAY - timedelta(days=1)), "contracts": 6,
                                "penalty": 80, "place": 1, "rank": 1}
    assert [d["date"] for d in body["recent"]] == [str(DAY), str(DAY - timedelta(days=1))]


def test_a_banned_players_history_is_not_found(moderator):
    someone, _ = player()
    services.ban_player(someone, moderator, "spam")
    assert api().get(f"/leaderboards/players/{someone.public_id}").status_code == 404
    assert api().get("/leaderboards/players/nobody-at-all").status_code == 404


def test_my_history_counts_my_hidden_scores_too(moderator):
    someone, token = player()
    game = finished_daily(someone, DAY, 6, 80)
    services.hide_score(game.score, moderator, "looked odd")
    assert api().get(f"/leaderboards/players/{someone.public_id}").json()["dailies"] == 0
    mine = api(token).get("/leaderboards/me").json()
    assert mine["dailies"] == 1 and mine["best_day"]["rank"] is None


def test_my_history_needs_an_identity():
    assert api().get("/leaderboards/me").status_code == 401


def test_finished_at_is_the_games_own_finish():
    someone, token = player()
    moment = datetime(2030, 3, 6, 7, 30, tzinfo=UTC)
    finished_daily(someone, DAY, 6, 80, finished_at=moment)
    entry = api(token).get(f"/leaderboards/daily/{DAY}").json()["me"]
    assert timezone.datetime.fromisoformat(entry["finished_at"]) == moment
