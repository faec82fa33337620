"""Joins racing on PostgreSQL (SQLite has no row locks): two joins of one player make one
membership; a join racing a new code either joins before the renewal or is refused with the
old code; the last place in a full league goes to one of two joiners."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connection, connections

from leaderboards.leagues import services
from leaderboards.leagues.models import MEMBERS_MAX, League, Membership
from tests.leaderboards.factories import player
from tests.leaderboards.leagues.factories import league_with

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite ignores SELECT ... FOR UPDATE)")


def at_once(*calls) -> list:
    """Run the calls in threads released together; their results or the Refused raised."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except services.Refused as refusal:
            results[index] = refusal
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_two_joins_of_the_same_player_at_once_make_one_membership():
    for _round in range(5):  # the window is small: try it a few times
        league = league_with(player("Ana")[0])
        ben, _ = player("Ben")
        results = at_once(partial(services.join, ben, league.code),
                          partial(services.join, ben, league.code))
        joined = [r for r in results if isinstance(r, League)]
        refused = [r.code for r in results if isinstance(r, services.Refused)]
        assert len(joined) == 1 and refused == ["already_member"]
        assert Membership.objects.filter(league=league, player=ben).count() == 1


def test_a_code_renewed_while_someone_joins():
    for _round in range(5):
        ana, _ = player("Ana")
        league = league_with(ana)
        old = league.code
        ben, _ = player("Ben")
        joined, renewed = at_once(partial(services.join, ben, old),
                                  partial(services.renew_code, ana, league.public_id))
        assert isinstance(renewed, League) and renewed.code != old
        member = Membership.objects.filter(league=league, player=ben).exists()
        if isinstance(joined, League):  # the join took the lock first: in, with the old code
            assert member
        else:  # the renewal committed first: the old code finds nothing
            assert joined.code == "invalid_league_code" and not member
        assert not League.objects.filter(code=old).exists()


def test_the_last_place_goes_to_one_of_two_joiners():
    league = league_with(player("Ana")[0])
    Membership.objects.bulk_create([Membership(league=league, player=player(f"M{i}")[0])
                                    for i in range(MEMBERS_MAX - 2)])
    ben, _ = player("Ben")
    cat, _ = player("Cat")
    results = at_once(lambda: services.join(ben, league.code),
                      lambda: services.join(cat, league.code))
    assert sorted(type(r).__name__ for r in results) == ["League", "Refused"]
    assert Membership.objects.filter(league=league).count() == MEMBERS_MAX
