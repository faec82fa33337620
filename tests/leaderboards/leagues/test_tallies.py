"""A league's tallies (all time up to the newest closed day, leaderboards.leagues.models
.LeagueTally) give the boards exactly what counting every score gives, through joins,
leaves, moderation and the days carried forward; the boards then count only the days
after them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core.cache import cache

from games import daily
from ladder.celery import app
from leaderboards import services as leaderboard_services
from leaderboards.leagues import boards, services
from leaderboards.leagues.models import LeagueTally
from leaderboards.leagues.tasks import carry_league_tallies_forward
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player
from tests.leaderboards.leagues.factories import member

pytestmark = [pytest.mark.django_db]
ONE_DAY = timedelta(days=1)


def test_a_streak_carries_on_from_its_tally():
    rng = random.Random(7)
    for _ in range(500):
        days = sorted({rng.randrange(30) for _ in range(rng.randrange(25))})  # days ago
        through = rng.randrange(1, 31)  # the tally counts the days `through` ago and older
        older = [ago - through for ago in days if ago >= through]
        longest, run = boards.streaks(older)  # as of the tally's day
        newer = [ago for ago in days if ago < through]
        assert boards.streaks(newer, longest, run, through) == boards.streaks(days), (
            days, through)


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


def play_days(players, first, last, rng) -> None:
    """Each player plays about three days in four, results drawn so that ties happen."""
    day = first
    while day <= last:
        for someone in players:
            if rng.random() < 0.75:
                finished_daily(someone, day, rng.randrange(3, 6), rng.choice((0, 10, 20)),
                               datetime.combine(day, datetime.min.time(), tzinfo=UTC)
                               + timedelta(hours=rng.randrange(1, 23)))
        day += ONE_DAY


def check_against_every_score(league) -> None:
    """The boards from the tallies are the boards counted from every score."""
    yesterday = daily.today() - ONE_DAY
    tallies = boards.tallies_of(league)
    assert boards.past(league, yesterday, tallies) == boards.past(league, yesterday,
                                                                  boards.NO_TALLIES)
    assert tallies.through == boards.closed_day(daily.today())


def test_tallies_follow_joins_leaves_moderation_and_the_days(clock, moderator,
                                                              django_capture_on_commit_callbacks):
    rng = random.Random(2030)
    ana, _api = member("Ana")
    ben, cat, dan, eve = (player(name)[0] for name in ("Ben", "Cat", "Dan", "Eve"))
    everyone = [ana, ben, cat, dan, eve]
    play_days(everyone, DAY - timedelta(days=25), DAY, rng)
    league = services.create_league(ana, "Club")
    league.created_at = datetime.combine(DAY - timedelta(days=20), datetime.min.time(),
                                         tzinfo=UTC)
    league.save(update_fields=["created_at"])  # as if made 20 days ago
    services.join(ben, league.code)
    services.join(cat, league.code)
    check_against_every_score(league)
    assert LeagueTally.objects.filter(league=league).count() == 3

    for _ in range(3):  # the nights: carried forward, not counted again
        clock.advance(days=1)
        play_days(everyone, daily.today(), daily.today(), rng)
        assert carry_league_tallies_forward() == 1
        check_against_every_score(league)

    services.join(dan, league.code)
    services.join(eve, league.code)
    services.leave(cat, league.public_id)
    check_against_every_score(league)

    closed = boards.closed_day(daily.today())
    old_score = ben.scores.filter(day__gte=league.created_at.date(), day__lte=closed).first().pk
    before = boards.tallies_of(league).players[ben.pk]
    with django_capture_on_commit_callbacks(execute=True):
        leaderboard_services.hide_score(ben.scores.get(pk=old_score), moderator, "test")
    check_against_every_score(league)
    assert boards.tallies_of(league).players[ben.pk][0] == before[0] - 1  # one daily less
    with django_capture_on_commit_callbacks(execute=True):
        leaderboard_services.ban_player(dan, moderator, "test")
    check_against_every_score(league)
    assert dan.pk not in boards.tallies_of(league).players
    with django_capture_on_commit_callbacks(execute=True):
        leaderboard_services.unban_player(dan, moderator, "test")
    check_against_every_score(league)
    assert dan.pk in boards.tallies_of(league).players


def test_a_moderation_drops_the_tallies_before_it_commits(clock, moderator,
                                                          django_capture_on_commit_callbacks):
    """Between the moderation and the tallies counted again no board reads stale ones."""
    ana, _api = member("Ana")
    league = services.create_league(ana, "Club")
    old = DAY - timedelta(days=10)
    finished_daily(ana, old, 5, 0)
    league.created_at = datetime.combine(old, datetime.min.time(), tzinfo=UTC)
    league.save(update_fields=["created_at"])
    services.join(player("Ben")[0], league.code)  # counts the tallies
    assert boards.tallies_of(league).through == boards.closed_day(DAY)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        leaderboard_services.hide_score(ana.scores.get(), moderator, "test")
        assert boards.tallies_of(league) == boards.NO_TALLIES
    assert boards.past(league, DAY - ONE_DAY, boards.NO_TALLIES).history == {}
    for callback in callbacks:
        callback()
    assert LeagueTally.objects.filter(league=league).count() == 0  # nobody has a listed daily


def test_the_page_reads_the_same_with_or_without_tallies(clock):
    rng = random.Random(11)
    ana, api = member("Ana")
    others = [player(name)[0] for name in ("Ben", "Cat", "Dan")]
    play_days([ana, *others], DAY - timedelta(days=12), DAY, rng)
    league = services.create_league(ana, "Club")
    league.created_at = datetime.combine(DAY - timedelta(days=12), datetime.min.time(),
                                         tzinfo=UTC)
    league.save(update_fields=["created_at"])
    for other in others:
        services.join(other, league.code)
    assert boards.tallies_of(league).players

    with_tallies = api.get(f"/leagues/{league.public_id}").json()
    LeagueTally.objects.filter(league=league).delete()
    cache.clear()
    assert api.get(f"/leagues/{league.public_id}").json() == with_tallies
    assert with_tallies["all_time"] and with_tallies["yesterday"]["entries"]


def test_beat_carries_the_tallies_forward_every_night_in_utc():
    schedule = {entry["task"]: entry["schedule"]
                for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    night = schedule["leagues.carry_tallies_forward"]
    assert night.hour == {0} and night.minute == {20}
    app.loader.import_default_modules()  # as the worker finds its tasks
    assert "leagues.carry_tallies_forward" in app.tasks
