"""The daily's deal: made by beat ahead of the day or lazily by the day's first request, once
(even when requests race), from a random seed whose commitment is public and whose reveal
waits for the day's end."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings

from games.models import DailyDeal
from games.players.models import sha256_hex
from games.services.daily import deal_for
from games.tasks import close_ended_dailies, prepare_daily_deals
from tests.factories import DAY
from tests.leaderboards.factories import api
from tests.races import at_once

POSTGRESQL = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


@pytest.mark.django_db
def test_the_first_request_of_the_day_creates_the_days_deal(clock):
    assert not DailyDeal.objects.exists()
    body = api().get("/daily").json()
    deal = DailyDeal.objects.get()
    assert (deal.date, body["date"], body["commitment"]) == (DAY, str(DAY), deal.commitment)


@pytest.mark.django_db
def test_the_beat_task_creates_todays_and_tomorrows_deals_ahead_of_midnight(clock):
    assert prepare_daily_deals.apply().get() == [str(DAY), str(DAY + timedelta(days=1))]
    assert prepare_daily_deals.apply().get() == []
    clock.advance(days=1)
    api().get("/daily")  # the lazy path finds beat's deal: nothing new
    assert DailyDeal.objects.count() == 2


@pytest.mark.django_db
def test_a_day_beat_made_keeps_its_seed_when_the_day_comes(clock):
    prepare_daily_deals.apply()
    tomorrow = DailyDeal.objects.get(date=DAY + timedelta(days=1))
    clock.advance(days=1)
    assert api().get("/daily").json()["commitment"] == tomorrow.commitment


def test_the_beat_schedule_runs_both_daily_jobs_every_hour_in_utc():
    schedule = {entry["task"]: entry["schedule"]
                for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"games.prepare_daily_deals", "games.close_ended_dailies"} <= set(schedule)
    assert settings.CELERY_TIMEZONE == "UTC"
    assert len(schedule["games.prepare_daily_deals"].hour) == 24
    assert len(schedule["games.close_ended_dailies"].hour) == 24


@pytest.mark.django_db
def test_seeds_are_random_secrets_and_the_commitment_is_their_sha256(clock):
    made = [deal_for(DAY + timedelta(days=i)) for i in range(3)]
    assert len({d.seed for d in made}) == 3
    for deal in made:
        assert re.fullmatch(r"[0-9a-f]{64}", deal.seed)
        assert deal.commitment == sha256_hex(deal.seed) != deal.seed
        assert str(deal.date) not in deal.seed


@pytest.mark.django_db
def test_the_revealed_seed_verifies_against_the_commitment_published_during_the_day(clock):
    commitment = api().get("/daily").json()["commitment"]
    assert api().get(f"/daily/{DAY}").json()["seed"] is None
    clock.advance(days=1)
    past = api().get(f"/daily/{DAY}").json()
    assert past["revealed"] and past["commitment"] == commitment
    assert sha256_hex(past["seed"]) == commitment


@pytest.mark.django_db
def test_the_close_task_marks_ended_days_revealed(clock):
    deal_for(DAY)
    clock.advance(days=1)
    assert close_ended_dailies.apply().get() == {"revealed": 1, "expired": 0}
    assert DailyDeal.objects.get(date=DAY).revealed_at == clock.moment


@pytest.mark.skipif(not POSTGRESQL, reason="racing requests need PostgreSQL (SQLite has one "
                                           "writer and no row locks)")
@pytest.mark.django_db(transaction=True)
def test_racing_first_requests_create_one_deal(clock):
    threads_n = 8
    found = at_once(*[lambda: deal_for(DAY).pk] * threads_n, refused=Exception)
    assert [pk for pk in found if isinstance(pk, Exception)] == []
    assert len(found) == threads_n and len(set(found)) == 1
    assert DailyDeal.objects.filter(date=DAY).count() == 1
