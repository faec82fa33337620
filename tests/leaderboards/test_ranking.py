"""Ranking per R22 on the day's and the week's boards: order, ties, ranks, pages, week sums."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboards.models import ContractTally, Score, Tally, WeekScore, week_of
from leaderboards.ranking import InvalidCursor, day_board, decode_cursor, week_board
from tests.factories import DAY
from tests.leaderboards.factories import finished_daily, player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock(clock):
    clock.set_day(DAY + timedelta(days=7))
    return clock


def at(hour: int, minute: int = 0, second: int = 0, day: date = DAY) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=UTC)


def board_names(day: date = DAY) -> list[str]:
    rows, _ = day_board(day).page(100, None)
    return [row.player_name for _rank, row in rows]


def test_more_contracts_rank_above_fewer_penalty_points():
    finished_daily(player("Few")[0], DAY, contracts=3, penalty=10)
    finished_daily(player("Many")[0], DAY, contracts=7, penalty=400)
    assert board_names() == ["Many", "Few"]


def test_with_equal_contracts_fewer_penalty_points_rank_first():
    finished_daily(player("Costly")[0], DAY, contracts=5, penalty=300)
    finished_daily(player("Cheap")[0], DAY, contracts=5, penalty=120)
    assert board_names() == ["Cheap", "Costly"]


def test_with_equal_contracts_and_points_the_earlier_finish_ranks_first():
    finished_daily(player("Late")[0], DAY, 5, 200, finished_at=at(18))
    finished_daily(player("Early")[0], DAY, 5, 200, finished_at=at(9))
    assert board_names() == ["Early", "Late"]


def test_an_exact_tie_of_timestamps_goes_to_the_score_recorded_first():
    first = finished_daily(player("First")[0], DAY, 5, 200, finished_at=at(9)).score
    second = finished_daily(player("Second")[0], DAY, 5, 200, finished_at=at(9)).score
    assert board_names() == ["First", "Second"]
    board = day_board(DAY)
    assert (board.rank_of(first), board.rank_of(second)) == (1, 2)


def test_every_rank_equals_the_position_on_the_ranked_board():
    rng = random.Random(5)
    for _ in range(60):
        finished_daily(player()[0], DAY, contracts=rng.choice([2, 3, 3, 4]),
                       penalty=rng.choice([100, 150, 150, 200]),
                       finished_at=at(8 + rng.randrange(3), rng.randrange(2)))
    board = day_board(DAY)
    ranked = list(board.ranked())
    with CaptureQueriesContext(connection) as queries:
        ranks = [board.rank_of(score) for score in ranked]
    assert ranks == list(range(1, 61))
    assert len(queries) == 60  # one round trip a rank
    assert board.count() == 60


def test_pages_follow_one_another_without_gaps_or_repeats():
    rng = random.Random(9)
    for _ in range(23):
        finished_daily(player()[0], DAY, contracts=rng.choice([4, 5]),
                       penalty=rng.choice([50, 60]), finished_at=at(10, rng.randrange(3)))
    board = day_board(DAY)
    seen, cursor, pages = [], None, 0
    while True:
        rows, cursor = board.page(5, cursor)
        seen += rows
        pages += 1
        if cursor is None:
            break
    assert pages == 5
    assert [rank for rank, _ in seen] == list(range(1, 24))
    assert [row.id for _, row in seen] == [s.pk for s in board.ranked()]


def test_a_full_last_page_has_no_next_cursor():
    for i in range(4):
        finished_daily(player()[0], DAY, 5, 100 + i)
    rows, cursor = day_board(DAY).page(4, None)
    assert len(rows) == 4 and cursor is None


@pytest.mark.parametrize("cursor", ["", "garbage", "W10=", "WzEsMiwzXQ"])
def test_a_malformed_cursor_is_refused(cursor):
    with pytest.raises(InvalidCursor):
        decode_cursor(cursor)


def test_boards_of_different_days_are_separate():
    someone, _ = player()
    finished_daily(someone, DAY, 5, 100)
    finished_daily(someone, DAY + timedelta(days=1), 2, 100)
    assert day_board(DAY).count() == 1
    assert [s.contracts for s in day_board(DAY + timedelta(days=1)).ranked()] == [2]


def test_a_player_has_one_score_per_day():
    someone, _ = player()
    finished_daily(someone, DAY, 5, 100)
    assert Score.objects.filter(player=someone, day=DAY).count() == 1


# --- The week ----------------------------------------------------------------------------------


def test_the_week_board_sums_each_players_dailies_of_that_iso_week():
    steady, _ = player("Steady")
    once, _ = player("Once")
    monday = date(2030, 3, 4)
    for offset in range(3):  # Monday, Tuesday, Wednesday
        finished_daily(steady, monday + timedelta(days=offset), 3, 100,
                       finished_at=at(12, day=monday + timedelta(days=offset)))
    finished_daily(once, DAY, 8, 10)
    finished_daily(steady, monday - timedelta(days=1), 10, 0)  # Sunday: the week before
    assert week_of(monday) == week_of(monday + timedelta(days=6)) == "2030-W10"
    assert week_of(monday - timedelta(days=1)) == "2030-W09"
    board = week_board("2030-W10")
    ranked = list(board.ranked())
    assert [(w.player.name, w.contracts, w.penalty, w.days) for w in ranked] == [
        ("Steady", 9, 300, 3), ("Once", 8, 10, 1)]
    assert ranked[0].reached_at == at(12, day=DAY)
    assert [board.rank_of(w) for w in ranked] == [1, 2]
    assert board.count() == 2
    assert WeekScore.objects.get(player=steady, week="2030-W09").contracts == 10


def test_the_iso_week_of_new_year_belongs_to_its_iso_year():
    assert week_of(date(2030, 12, 30)) == "2031-W01"
    assert week_of(date(2027, 1, 1)) == "2026-W53"


def test_on_the_week_board_equal_sums_rank_whoever_reached_them_first():
    a, _ = player("Later")
    b, _ = player("Sooner")
    finished_daily(a, DAY, 4, 100, finished_at=at(20))
    finished_daily(b, DAY, 4, 100, finished_at=at(7))
    assert [w.player.name for w in week_board("2030-W10").ranked()] == ["Sooner", "Later"]


def test_tallies_count_exactly_the_listed_entries():
    for i in range(5):
        finished_daily(player()[0], DAY, 5, 100 * (i % 2))
    finished_daily(player()[0], DAY, 7, 100)
    tallies = {(t.contracts, t.penalty): t.entries for t in Tally.objects.filter(board=str(DAY))}
    assert tallies == {(5, 0): 3, (5, 100): 2, (7, 100): 1}
    by_contracts = {t.contracts: t.entries for t in ContractTally.objects.filter(board=str(DAY))}
    assert by_contracts == {5: 5, 7: 1}


def recounted(board: str) -> tuple[dict, dict]:
    """The tallies a board should have, counted the slow way."""
    if "-W" in board:
        rows = WeekScore.objects.filter(week=board)
    else:
        rows = Score.objects.listed().filter(day=date.fromisoformat(board))
    pairs, by_contracts = {}, {}
    for row in rows:
        pairs[(row.contracts, row.penalty)] = pairs.get((row.contracts, row.penalty), 0) + 1
        by_contracts[row.contracts] = by_contracts.get(row.contracts, 0) + 1
    return pairs, by_contracts


def stored(board: str) -> tuple[dict, dict]:
    pairs = {(t.contracts, t.penalty): t.entries
             for t in Tally.objects.filter(board=board) if t.entries}
    by_contracts = {t.contracts: t.entries
                    for t in ContractTally.objects.filter(board=board) if t.entries}
    return pairs, by_contracts


def test_tallies_and_week_sums_follow_every_moderation_step(django_user_model):
    from leaderboards import services

    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    alice, _ = player("Alice")
    bob, _ = player("Bob")
    scores = [finished_daily(alice, DAY, 5, 100).score,
              finished_daily(alice, DAY - timedelta(days=1), 6, 40).score,
              finished_daily(bob, DAY, 5, 100).score,
              finished_daily(bob, DAY - timedelta(days=1), 2, 300).score]
    boards = [str(DAY), str(DAY - timedelta(days=1)), "2030-W10"]
    steps = [
        lambda: services.hide_score(scores[0], moderator, "x"),
        lambda: services.ban_player(bob, moderator, "x"),
        lambda: services.restore_score(scores[0], moderator, "x"),
        lambda: services.hide_score(scores[2], moderator, "x"),
        lambda: services.unban_player(bob, moderator, "x"),
        lambda: services.restore_score(scores[2], moderator, "x"),
    ]
    for step in steps:
        step()
        for board in boards:
            assert stored(board) == recounted(board), board
    alice_week = WeekScore.objects.get(player=alice, week="2030-W10")
    assert (alice_week.contracts, alice_week.penalty, alice_week.days) == (11, 140, 2)


def test_a_cursor_with_numbers_no_column_can_hold_is_refused():
    from leaderboards.ranking import encode_cursor

    moment = at(9)
    with pytest.raises(InvalidCursor):
        decode_cursor(encode_cursor(10**30, 0, moment, 1, 1))
    with pytest.raises(InvalidCursor):
        decode_cursor(encode_cursor(1, -1, moment, 1, 1))
    assert decode_cursor(encode_cursor(5, 100, moment, 2**40, 7)) == (5, 100, moment, 2**40, 7)
