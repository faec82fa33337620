"""A player's history: dailies, contracts, best day, and streaks across missed days."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from leaderboards.history import history, streaks
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player


def days(*offsets: int) -> list[date]:
    return [DAY + timedelta(days=o) for o in offsets]


def test_no_dailies_no_streak():
    assert streaks([], DAY) == (0, 0)


def test_a_run_ending_today_is_the_current_streak():
    assert streaks(days(-2, -1, 0), DAY) == (3, 3)


def test_a_run_ending_yesterday_still_counts_while_today_is_unplayed():
    assert streaks(days(-3, -2, -1), DAY) == (3, 3)


def test_a_missed_day_breaks_the_current_streak_but_not_the_longest():
    assert streaks(days(-6, -5, -4, -3, -1, 0), DAY) == (2, 4)


def test_a_streak_that_ended_two_days_ago_is_over():
    assert streaks(days(-4, -3, -2), DAY) == (0, 3)


def test_a_streak_runs_across_months_and_years():
    new_year = date(2031, 1, 1)
    run = [new_year - timedelta(days=i) for i in range(40, -1, -1)]
    assert streaks(run, new_year) == (41, 41)


@pytest.mark.django_db
def test_history_sums_the_dailies_and_finds_the_best_day(clock):
    someone, _ = player("Hist")
    finished_daily(someone, DAY - timedelta(days=3), 4, 10)
    finished_daily(someone, DAY - timedelta(days=2), 7, 300)
    finished_daily(someone, DAY - timedelta(days=1), 7, 120)
    better, _ = player("Better")
    finished_daily(better, DAY - timedelta(days=1), 9, 0)
    mine = history(someone)
    assert (mine["dailies"], mine["contracts"], mine["games"]) == (3, 18, 3)
    assert mine["best_day"] == {"date": DAY - timedelta(days=1), "contracts": 7,
                                "penalty": 120, "place": 1, "rank": 2}
    assert (mine["current_streak"], mine["longest_streak"]) == (3, 3)
    clock.advance(days=2)
    assert history(someone)["current_streak"] == 0
    assert history(someone)["longest_streak"] == 3
