"""GET /api/v1/leagues/{id} and /leagues/today: the boards a member sees (R22 order, no
spoilers before one's own finish, week sums, all time, who has not played), moderation kept,
and a query count that does not grow with the members."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import orjson
import pytest
from django.core.cache import cache

from games.web.renderer import dumps
from leaderboards import services as leaderboard_services
from leaderboards.leagues import services
from leaderboards.leagues.api import LeaguePage
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player
from tests.leaderboards.leagues.factories import Api, league_with, member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("clock")]


def at(hour: int, day=DAY) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=UTC)


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", is_staff=True)


@pytest.fixture
def club():
    """Ana (viewer), Ben, Cat, Dan and Eve in one league; Zed plays but is not a member."""
    ana, api = member("Ana")
    others = [player(name)[0] for name in ("Ben", "Cat", "Dan", "Eve")]
    league = league_with(ana, *others)
    finished_daily(player("Zed")[0], DAY, 10, 0)
    return league, api, ana, others


def names(entries) -> list[str]:
    """Names of board entries ({"player": {...}}) or of plain player refs."""
    return [e["player"]["name"] if "player" in e else e["name"] for e in entries]


def test_today_is_ranked_as_the_public_board_once_you_have_finished(club):
    league, api, ana, (ben, cat, dan, _eve) = club
    finished_daily(ana, DAY, 5, 40, at(9))
    finished_daily(ben, DAY, 7, 90, at(11))
    finished_daily(dan, DAY, 5, 20, at(10))  # same pair as Cat, later finish
    finished_daily(cat, DAY, 5, 20, at(8))

    today = api.get(f"/leagues/{league.public_id}").json()["today"]

    assert today["results_shown"] is True
    assert [(e["rank"], e["player"]["name"], e["contracts"], e["penalty"])
            for e in today["entries"]] == [(1, "Ben", 7, 90), (2, "Cat", 5, 20),
                                           (3, "Dan", 5, 20), (4, "Ana", 5, 40)]
    assert names(today["not_played"]) == ["Eve"]


def test_before_you_finish_who_has_played_is_in_order_of_joining_not_of_rank(club):
    """Issue 42: ``played`` listed the members in rank order, which told the day's result."""
    league, api, _ana, (ben, cat, dan, eve) = club
    finished_daily(eve, DAY, 9, 10)  # first on the day's board, last to join
    finished_daily(cat, DAY, 2, 90)
    finished_daily(dan, DAY, 7, 20)
    finished_daily(ben, DAY, 1, 99)  # last on the board, first to join after Ana

    for today in (api.get(f"/leagues/{league.public_id}").json()["today"],
                  api.get("/leagues/today").json()["leagues"][0]):
        assert names(today["played"]) == ["Ben", "Cat", "Dan", "Eve"]
        assert today["entries"] == []


def test_before_you_finish_today_shows_only_who_has_played(club):
    league, api, _ana, (ben, cat, _dan, _eve) = club
    finished_daily(ben, DAY, 7, 90)
    finished_daily(cat, DAY, 5, 20)
    finished_daily(ben, DAY - timedelta(days=1), 3, 30)  # Tuesday of the same week

    page = api.get(f"/leagues/{league.public_id}").json()

    assert page["today"]["results_shown"] is False and page["today"]["entries"] == []
    assert sorted(names(page["today"]["played"])) == ["Ben", "Cat"]
    assert names(page["today"]["not_played"]) == ["Ana", "Dan", "Eve"]
    # Nor do the week and all time give today away: they stop at yesterday.
    assert [(e["player"]["name"], e["contracts"], e["days"])
            for e in page["week"]["entries"]] == [("Ben", 3, 1)]
    assert [(e["player"]["name"], e["dailies"]) for e in page["all_time"]] == [("Ben", 1)]


def test_the_week_sums_the_members_dailies_and_ranks_them(club):
    league, api, ana, (ben, cat, _dan, _eve) = club
    monday = DAY - timedelta(days=2)
    finished_daily(ana, monday, 4, 10)
    finished_daily(ana, DAY, 4, 10)
    finished_daily(ben, DAY, 8, 50)
    finished_daily(cat, monday, 3, 0)
    finished_daily(cat, monday - timedelta(days=1), 10, 0)  # the week before

    week = api.get(f"/leagues/{league.public_id}").json()["week"]

    assert week["week"] == "2030-W10"
    assert [(e["rank"], e["player"]["name"], e["contracts"], e["penalty"], e["days"])
            for e in week["entries"]] == [(1, "Ana", 8, 20, 2), (2, "Ben", 8, 50, 1),
                                          (3, "Cat", 3, 0, 1)]


def test_all_time_counts_dailies_contracts_average_place_and_streaks(club):
    league, api, ana, (ben, _cat, _dan, _eve) = club
    # Ana: four days in a row to today, always behind Ben when both played.
    for back, contracts in [(3, 5), (2, 5), (1, 5), (0, 5)]:
        finished_daily(ana, DAY - timedelta(days=back), contracts, 30)
    # Ben: days -5, -4 (a run of 2), -2 and today: current streak 1 (yesterday missed).
    for back in (5, 4, 2, 0):
        finished_daily(ben, DAY - timedelta(days=back), 6, 10)

    with_league_start_before(league, DAY - timedelta(days=10))
    rows = {e["player"]["name"]: e for e in
            api.get(f"/leagues/{league.public_id}").json()["all_time"]}

    assert (rows["Ben"]["dailies"], rows["Ben"]["contracts"]) == (4, 24)
    assert (rows["Ben"]["current_streak"], rows["Ben"]["longest_streak"]) == (1, 2)
    assert rows["Ben"]["average_rank"] == 1.0
    assert (rows["Ana"]["dailies"], rows["Ana"]["contracts"]) == (4, 20)
    assert (rows["Ana"]["current_streak"], rows["Ana"]["longest_streak"]) == (4, 4)
    assert rows["Ana"]["average_rank"] == 1.5  # second twice, first twice
    assert list(rows) == ["Ben", "Ana"]


def with_league_start_before(league, day) -> None:
    """Test set-up: the league began on ``day`` (so the days before today count)."""
    type(league).objects.filter(pk=league.pk).update(
        created_at=datetime(day.year, day.month, day.day, tzinfo=UTC))


def test_a_banned_players_and_a_hidden_score_stay_off_the_league_boards(club, moderator):
    league, api, ana, (ben, cat, _dan, _eve) = club
    finished_daily(ana, DAY, 5, 40)
    finished_daily(ben, DAY, 9, 0)
    hidden = finished_daily(cat, DAY, 8, 0)
    leaderboard_services.ban_player(ben, moderator, "cheating")
    leaderboard_services.hide_score(hidden.score, moderator, "too fast")

    page = api.get(f"/leagues/{league.public_id}").json()

    assert names(page["today"]["entries"]) == ["Ana"]
    assert names(page["week"]["entries"]) == ["Ana"]
    assert names(page["all_time"]) == ["Ana"]


def test_a_hidden_name_shows_as_league_n_everywhere(club, moderator):
    league, api, *_ = club
    services.hide_name(league, moderator, "rude")
    label = f"League #{league.pk}"
    assert api.get(f"/leagues/{league.public_id}").json()["league"]["name"] == label
    assert Api().get(f"/leagues/join/{league.code}").json()["name"] == label
    assert api.get("/leagues").json()["leagues"][0]["name_hidden"] is True
    assert api.get("/leagues/today").json()["leagues"][0]["league"]["name"] == label


def test_todays_standings_for_home_cover_each_of_my_leagues(club):
    league, api, ana, (ben, cat, _dan, _eve) = club
    other = league_with(player("Fay")[0], ana, name="Work")
    finished_daily(ben, DAY, 7, 0)
    before = api.get("/leagues/today").json()
    assert before["results_shown"] is False
    assert [s["league"]["name"] for s in before["leagues"]] == ["Work", "Friday Club"]
    assert [s["entries"] for s in before["leagues"]] == [[], []]
    assert names(before["leagues"][1]["played"]) == ["Ben"]

    finished_daily(ana, DAY, 6, 0)
    after = {s["league"]["name"]: s for s in api.get("/leagues/today").json()["leagues"]}
    assert names(after["Friday Club"]["entries"]) == ["Ben", "Ana"]
    assert names(after["Work"]["entries"]) == ["Ana"]
    assert names(after["Work"]["not_played"]) == ["Fay"]
    assert after["Work"]["league"]["members"] == 2 and other.pk


def test_the_boards_query_count_does_not_grow_with_the_members(django_assert_num_queries):
    def league_of(size: int):
        creator, api = member(f"Lead{size}")
        players = [player(f"P{size}x{i}")[0] for i in range(size - 1)]
        league = league_with(creator, *players, name=f"Size {size}")
        with_league_start_before(league, DAY - timedelta(days=3))
        for i, someone in enumerate([creator, *players]):
            for back in range(3):
                finished_daily(someone, DAY - timedelta(days=back), i % 11, i)
        return league, api

    small, small_api = league_of(3)
    large, large_api = league_of(30)
    cache.clear()
    # The identity, the league, the boards' stamp with my finish of today, the members and
    # (none cached yet) today's rows and the past days: the league's tallies, then all time
    # since, the week before today and yesterday's board in one statement.
    with django_assert_num_queries(7):
        assert small_api.get(f"/leagues/{small.public_id}").status_code == 200
    with django_assert_num_queries(7):
        body = large_api.get(f"/leagues/{large.public_id}").json()
    assert len(body["today"]["entries"]) == 30 and len(body["all_time"]) == 30
    with django_assert_num_queries(4):  # today's rows and the past days from the cache
        assert large_api.get(f"/leagues/{large.public_id}").json() == body


def test_the_cached_history_follows_moderation_and_membership(club, moderator):
    league, api, ana, (ben, cat, _dan, _eve) = club
    with_league_start_before(league, DAY - timedelta(days=5))
    yesterday = DAY - timedelta(days=1)
    for someone, contracts in ((ana, 4), (ben, 9), (cat, 6)):
        finished_daily(someone, yesterday, contracts, 10)
    path = f"/leagues/{league.public_id}"
    assert names(api.get(path).json()["all_time"]) == ["Ben", "Cat", "Ana"]

    leaderboard_services.ban_player(ben, moderator, "cheating")
    assert names(api.get(path).json()["all_time"]) == ["Cat", "Ana"]

    services.remove_member(ana, league.public_id, cat.public_id)
    assert names(api.get(path).json()["all_time"]) == ["Ana"]
    rows = api.get(path).json()["all_time"]
    assert rows[0]["average_rank"] == 1.0  # first of the members left


def test_todays_cached_board_follows_finishes_moderation_and_names(club, moderator):
    league, api, ana, (ben, *_) = club
    path = f"/leagues/{league.public_id}"
    finished_daily(ana, DAY, 5, 40)
    assert names(api.get(path).json()["today"]["entries"]) == ["Ana"]

    late = finished_daily(ben, DAY, 9, 0)  # the board read before is cached
    assert names(api.get(path).json()["today"]["entries"]) == ["Ben", "Ana"]

    leaderboard_services.hide_score(late.score, moderator, "too fast")
    assert names(api.get(path).json()["today"]["entries"]) == ["Ana"]

    type(ana).objects.filter(pk=ana.pk).update(name="Anna")  # names are never cached
    page = api.get(path).json()
    assert names(page["today"]["entries"]) == ["Anna"]
    assert names(page["week"]["entries"]) == ["Anna"]


def test_yesterdays_entries_link_their_replays_and_todays_never(club, clock):
    """R26: a daily's game is named (for its replay) once its day has ended, never before,
    whether or not the viewer has finished today."""
    league, api, ana, (ben, cat, _dan, _eve) = club
    yesterday = DAY - timedelta(days=1)
    games = {"Ana": finished_daily(ana, yesterday, 4, 10),
             "Ben": finished_daily(ben, yesterday, 6, 0)}
    today = {"Ben": finished_daily(ben, DAY, 7, 0), "Cat": finished_daily(cat, DAY, 3, 0)}
    path = f"/leagues/{league.public_id}"

    def check(page, raw: bytes):
        assert page["yesterday"]["date"] == yesterday.isoformat()
        assert [(e["rank"], e["player"]["name"], e["game"]) for e in page["yesterday"]["entries"]] \
            == [(1, "Ben", games["Ben"].public_id), (2, "Ana", games["Ana"].public_id)]
        assert all(e["game"] is None for e in page["today"]["entries"])
        for running in today.values():  # not even the ids of today's games
            assert running.public_id.encode() not in raw
        for entry in page["yesterday"]["entries"]:  # and each link opens the replay
            assert Api().get(f"/replays/{entry['game']}").status_code == 200

    before = api.get(path)  # Ana has not finished today: results hidden
    check(before.json(), before.content)
    today["Ana"] = finished_daily(ana, DAY, 5, 0)
    after = api.get(path)
    assert [e["player"]["name"] for e in after.json()["today"]["entries"]] == ["Ben", "Ana", "Cat"]
    check(after.json(), after.content)
    assert api.get("/leagues/today").json()["leagues"][0]["entries"][0]["game"] is None
    assert Api().get(f"/replays/{today['Ana'].public_id}").status_code == 404

    clock.advance(days=1)  # today's daily is over: its games open, and the board names them
    page = api.get(path).json()
    assert page["today"]["date"] == (DAY + timedelta(days=1)).isoformat()
    assert page["today"]["entries"] == []
    assert [(e["player"]["name"], e["game"]) for e in page["yesterday"]["entries"]] == [
        (name, today[name].public_id) for name in ("Ben", "Ana", "Cat")]
    assert Api().get(f"/replays/{today['Ana'].public_id}").status_code == 200


def test_yesterday_and_the_week_are_the_public_boards_among_the_members(club):
    """The days before today come from one statement (boards.past_sql): yesterday's board
    is the public board of that day narrowed to the members, ties broken by the earlier
    finish (R22), finish times as the public board writes them; the week's ties go to the
    earlier latest finish, and its sums count days before the league began."""
    league, api, ana, (ben, cat, dan, _eve) = club
    yesterday, monday = DAY - timedelta(days=1), DAY - timedelta(days=2)
    with_league_start_before(league, yesterday)
    finished_daily(ana, yesterday, 6, 20, at(15, yesterday))
    finished_daily(ben, yesterday, 6, 20, at(9, yesterday))  # the same pair, earlier
    finished_daily(cat, yesterday, 8, 90, at(23, yesterday))
    finished_daily(player("Zoe")[0], yesterday, 7, 0)  # not a member
    finished_daily(dan, monday, 3, 5)  # before the league began: the week, not all time

    page = api.get(f"/leagues/{league.public_id}").json()

    public = [e for e in api.get(f"/leaderboards/daily/{yesterday}").json()["entries"]
              if e["player"]["name"] != "Zoe"]
    assert [(e["player"]["name"], e["contracts"], e["penalty"], e["finished_at"])
            for e in page["yesterday"]["entries"]] == [
        (e["player"]["name"], e["contracts"], e["penalty"], e["finished_at"]) for e in public]
    assert names(page["yesterday"]["entries"]) == ["Cat", "Ben", "Ana"]
    assert [(e["player"]["name"], e["contracts"], e["days"]) for e in page["week"]["entries"]] \
        == [("Cat", 8, 1), ("Ben", 6, 1), ("Ana", 6, 1), ("Dan", 3, 1)]
    assert names(page["all_time"]) == ["Cat", "Ben", "Ana"]


def test_a_league_page_answers_what_its_schema_would_write(club):
    """The page skips django-ninja's dump (games.web.renderer.json_answer): the answer must
    be what validating it against its declared model and dumping it writes."""
    league, api, ana, (ben, cat, _dan, _eve) = club
    finished_daily(ben, DAY - timedelta(days=1), 6, 0)
    finished_daily(cat, DAY, 3, 0)
    finished_daily(ana, DAY, 5, 40, at(9))
    response = api.get(f"/leagues/{league.public_id}")
    body = response.json()

    through_the_schema = LeaguePage.model_validate(body).model_dump(by_alias=True,
                                                                    exclude_unset=True)
    assert orjson.loads(dumps(through_the_schema)) == body
    assert body["yesterday"]["entries"] and body["today"]["entries"] and body["all_time"]
    assert response["Content-Type"] == "application/json"
