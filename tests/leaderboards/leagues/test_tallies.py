"""A league's tallies (all time up to the newest closed day, leaderboards.leagues.models
.LeagueTally) give the boards exactly what counting every score gives, through joins,
leaves, moderation and the days carried forward; the boards then count only the days
after them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError

from games import daily
from ladder.celery import app
from leaderboards import services as leaderboard_services
from leaderboards.leagues import boards, services
from leaderboards.leagues.models import LeagueTally, TallyRecount
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


def club_since(creator, day):
    """A league made by ``creator`` as if on ``day`` (its all time counts from then)."""
    league = services.create_league(creator, "Club")
    league.created_at = datetime.combine(day, time.min, tzinfo=UTC)
    league.save(update_fields=["created_at"])
    return league


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
    league = club_since(ana, DAY - timedelta(days=20))
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
    services.remove_member(ana, league.public_id, eve.public_id)
    check_against_every_score(league)
    assert eve.pk not in boards.tallies_of(league).players

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


def test_a_moderation_marks_the_tallies_for_a_recount_that_cannot_be_lost(
        clock, moderator, django_capture_on_commit_callbacks):
    """From the moderation's commit no board reads tallies that count the hidden score, even
    when the recount after it fails: the mark is written with the moderation, and the next
    night counts the league again."""
    ana, _api = member("Ana")
    old = DAY - timedelta(days=10)
    finished_daily(ana, old, 5, 0)
    finished_daily(ana, old + ONE_DAY, 6, 0)
    league = club_since(ana, old)
    services.join(player("Ben")[0], league.code)  # counts the tallies
    assert boards.tallies_of(league).players[ana.pk][:2] == (2, 11)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:  # the recount lost
        leaderboard_services.hide_score(ana.scores.get(day=old), moderator, "test")
    assert len(callbacks) == 1
    assert boards.tallies_of(league) == boards.NO_TALLIES  # marked: the boards count scores
    assert boards.past(league, DAY - ONE_DAY, boards.NO_TALLIES).history[ana.pk][:2] == (1, 6)

    services.carry_tallies_forward()  # the night
    assert boards.tallies_of(league).players[ana.pk][:2] == (1, 6)
    assert not TallyRecount.objects.exists()


def test_a_recount_that_fails_is_logged_and_leaves_the_boards_right(
        clock, moderator, django_capture_on_commit_callbacks, monkeypatch, caplog):
    ana, _api = member("Ana")
    finished_daily(ana, DAY - timedelta(days=8), 5, 0)
    league = club_since(ana, DAY - timedelta(days=9))
    services.join(player("Ben")[0], league.code)

    def broken(*args):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(boards, "past", broken)
    with django_capture_on_commit_callbacks(execute=True):
        assert leaderboard_services.hide_score(ana.scores.get(), moderator, "test")
    assert "Could not count league" in caplog.text
    assert TallyRecount.objects.filter(league=league).exists()
    assert boards.tallies_of(league) == boards.NO_TALLIES


def test_hiding_a_recent_score_leaves_the_tallies_be(clock, moderator,
                                                     django_capture_on_commit_callbacks):
    """The tallies count no day after the newest closed one: nothing to count again."""
    ana, _api = member("Ana")
    finished_daily(ana, DAY - timedelta(days=8), 5, 0)
    league = club_since(ana, DAY - timedelta(days=9))
    services.join(player("Ben")[0], league.code)
    written = set(LeagueTally.objects.values_list("pk", flat=True))
    today = finished_daily(ana, DAY, 7, 0)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        leaderboard_services.hide_score(today.score, moderator, "test")
    assert set(LeagueTally.objects.values_list("pk", flat=True)) == written
    assert not TallyRecount.objects.exists() and len(callbacks) == 1  # the board's message


def test_the_boards_read_the_tallies_and_the_nights_carry_them(clock):
    """Not a count of every score in disguise: a tally changed by hand shows on the page, and
    a night adds the day to it rather than counting again."""
    ana, api = member("Ana")
    for back in range(3, 12):  # the day 3 back closes at the next night
        finished_daily(ana, DAY - timedelta(days=back), 4, 0)
    league = club_since(ana, DAY - timedelta(days=11))
    services.join(player("Ben")[0], league.code)
    LeagueTally.objects.filter(player=ana).update(contracts=1000)
    cache.clear()
    page = api.get(f"/leagues/{league.public_id}").json()
    assert page["all_time"][0]["contracts"] == 1004  # the tally, and the day after it
    clock.advance(days=1)
    services.carry_tallies_forward()
    assert LeagueTally.objects.get(player=ana).contracts == 1004  # the day carried: +4


def test_a_finish_just_after_midnight_is_counted_after_the_tallies_were(clock):
    """A daily may finish just after its day (the stamp's late finish): the tallies stop
    before such days, so the board counts it from the scores."""
    ana, api = member("Ana")
    league = club_since(ana, DAY - timedelta(days=9))
    clock.set_day(DAY, time(0, 0, 1))
    services.join(player("Ben")[0], league.code)  # counts the tallies
    finished_daily(ana, DAY - ONE_DAY, 6, 0, datetime.combine(DAY, time(0, 0, 1), tzinfo=UTC))
    rows = api.get(f"/leagues/{league.public_id}").json()["all_time"]
    assert [(e["player"]["name"], e["dailies"], e["contracts"]) for e in rows] == [
        ("Ana", 1, 6)]


def test_tallies_that_run_past_yesterday_are_not_read(clock):
    """The clock went back (a test, a server's clock set right): tallies newer than
    yesterday would count days twice, so the boards count every score."""
    rng = random.Random(5)
    ana, _api = member("Ana")
    others = [player(name)[0] for name in ("Ben", "Cat")]
    play_days([ana, *others], DAY - timedelta(days=12), DAY, rng)
    league = club_since(ana, DAY - timedelta(days=12))
    for other in others:
        services.join(other, league.code)
    clock.advance(days=-6)
    yesterday = daily.today() - ONE_DAY
    assert boards.tallies_of(league).through > yesterday
    assert boards.past(league, yesterday, boards.tallies_of(league)) == boards.past(
        league, yesterday, boards.NO_TALLIES)


def test_the_page_reads_the_same_with_or_without_tallies(clock):
    rng = random.Random(11)
    ana, api = member("Ana")
    others = [player(name)[0] for name in ("Ben", "Cat", "Dan")]
    play_days([ana, *others], DAY - timedelta(days=12), DAY, rng)
    league = club_since(ana, DAY - timedelta(days=12))
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
