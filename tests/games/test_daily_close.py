"""The end of a day: unfinished dailies are closed as expired and do not rank; one attempt per
player per day holds even when starts race."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import DailyDeal, Game
from games.services.daily import close_ended_days, deal_for, start_daily
from games.tasks import close_ended_dailies
from leaderboards.models import Score
from tests.factories import DAY
from tests.leaderboards.factories import api, finished_daily, player
from tests.races import at_once


@pytest.mark.django_db
def test_closing_expires_the_unfinished_dailies_of_ended_days(clock):
    someone, token = player()
    unfinished = start_daily(someone).game
    finished = finished_daily(player()[0], DAY, 6, 40)
    clock.advance(days=1)
    todays = start_daily(someone).game
    assert close_ended_dailies.apply().get() == {"revealed": 1, "expired": 1}
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {unfinished.pk: "expired", finished.pk: "finished",
                        todays.pk: "active"}
    assert api(token).get(f"/daily/{DAY}").json()["attempt"] == {
        "state": "expired", "game": unfinished.public_id, "result": None}
    assert api(token).get(f"/games/{unfinished.public_id}").json()["status"] == "expired"


@pytest.mark.django_db
def test_an_expired_daily_does_not_rank(clock):
    someone, _ = player()
    start_daily(someone)
    clock.advance(days=1)
    close_ended_days()
    assert not Score.objects.exists()
    body = api().get(f"/leaderboards/daily/{DAY}").json()
    assert body["count"] == 0 and body["entries"] == []


@pytest.mark.django_db
def test_an_expired_daily_still_was_the_days_one_attempt(clock):
    someone, _ = player()
    first = start_daily(someone).game
    clock.advance(hours=11, minutes=59)  # 23:59 the same day: still the same attempt
    assert start_daily(someone).game == first
    clock.advance(minutes=2)
    close_ended_days()
    assert Game.objects.filter(owner=someone, daily__date=DAY).count() == 1


@pytest.mark.django_db
def test_closing_again_changes_nothing(clock):
    start_daily(player()[0])
    clock.advance(days=1)
    assert close_ended_days() == {"revealed": 1, "expired": 1}
    assert close_ended_days() == {"revealed": 0, "expired": 0}


@pytest.mark.django_db
def test_a_day_is_not_closed_before_midnight_utc(clock):
    start_daily(player()[0])
    clock.advance(hours=11, minutes=59, seconds=59)
    assert close_ended_days() == {"revealed": 0, "expired": 0}


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="racing starts need PostgreSQL (SQLite has one writer)")
@pytest.mark.django_db(transaction=True)
def test_racing_starts_of_one_players_daily_make_one_game(clock):
    someone, _ = player()
    deal_for(DAY)
    starts = 6
    games = at_once(*[lambda: start_daily(someone).game.pk] * starts, refused=Exception)
    assert [game for game in games if isinstance(game, Exception)] == []
    assert len(games) == starts and len(set(games)) == 1
    assert Game.objects.filter(owner=someone, mode=Game.DAILY).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="racing starts need PostgreSQL (SQLite has one writer)")
@pytest.mark.django_db(transaction=True)
def test_racing_posts_of_one_players_daily_answer_one_201(clock):
    _, token = player()
    deal_for(DAY)
    starts = 5

    def post():
        response = api(token).post("/games", {"mode": "daily"})
        return response.status_code, response.json()["id"]

    answers = at_once(*[post] * starts, refused=Exception)
    assert sorted(status for status, _ in answers) == [200] * (starts - 1) + [201]
    assert len({game for _, game in answers}) == 1
    assert Game.objects.filter(mode=Game.DAILY).count() == 1


@pytest.mark.django_db
def test_acting_after_midnight_is_refused_even_before_the_close_runs(clock):
    someone, token = player()
    game = start_daily(someone).game
    clock.set_day(DAY + timedelta(days=1), at=clock.moment.time().replace(hour=0, minute=0))
    response = api(token).post(f"/games/{game.public_id}/actions",
                               {"version": game.version,
                                "action": {"type": "draw", "from": "stock"}})
    assert response.json()["error"]["code"] == "daily_over"


@pytest.mark.django_db
def test_a_process_whose_clock_is_behind_refuses_the_move_after_the_databases_midnight(clock):
    """Issue 42: with two processes 2 s apart, one accepted turns after the other had
    revealed the seed. Near midnight the day is the database's, one clock for every process."""
    someone, token = player()
    game = start_daily(someone).game
    clock.set_day(DAY, at=time(23, 59, 59))  # this host: one second before midnight
    clock.database_ahead = timedelta(seconds=2)  # the database: past it

    response = api(token).post(f"/games/{game.public_id}/actions",
                               {"version": game.version,
                                "action": {"type": "draw", "from": "stock"}})

    assert response.json()["error"]["code"] == "daily_over"


@pytest.mark.django_db
def test_a_process_whose_clock_is_ahead_keeps_the_seed_until_the_databases_midnight(clock):
    start_daily(player()[0])
    seed = DailyDeal.objects.get(date=DAY).seed
    clock.set_day(DAY + timedelta(days=1), at=time(0, 0, 1))  # this host: past midnight
    clock.database_ahead = timedelta(seconds=-2)  # the database: not yet

    day = api().get(f"/daily/{DAY}").json()

    assert day["seed"] is None and day["revealed"] is False
    assert seed not in api().get(f"/daily/{DAY}/deals").content.decode()
    clock.database_ahead = timedelta(0)
    assert api().get(f"/daily/{DAY}").json()["seed"] == seed


@pytest.mark.django_db
def test_the_databases_clock_is_read_from_the_database():
    from games import daily

    moment = daily.database_now()

    assert moment.tzinfo is not None
    assert abs(moment - timezone.now()) < timedelta(minutes=1)
