"""Joins racing on PostgreSQL (SQLite has no row locks): two joins of one player make one
membership; a join racing a new code either joins before the renewal or is refused with the
old code; the last place in a full league goes to one of two joiners; a join counting the
league's tallies while a moderation commits leaves them marked for a recount; a join, a rename
or a new code answered while a moderator deletes the league answers the league or 404, never
a 500."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, time, timedelta
from functools import partial

import pytest
from django.db import DatabaseError, connections

from games import daily
from games.web.errors import Refusal
from leaderboards import services as leaderboard_services
from leaderboards.leagues import boards, services
from leaderboards.leagues.models import MEMBERS_MAX, League, Membership
from leaderboards.models import Score
from tests import races
from tests.factories import DAY, Clock
from tests.leaderboards.factories import finished_daily, player
from tests.leaderboards.leagues.factories import Api, league_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgresql_only")]


def at_once(*calls) -> list:
    return races.at_once(*calls, refused=Refusal)


def side_by_side(*calls) -> None:
    """Run each call in a thread named after it, each closing its connections, and wait."""
    def run(call):
        try:
            call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,), name=call.__name__)
               for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)


def test_two_joins_of_the_same_player_at_once_make_one_membership():
    for _round in range(5):  # the window is small: try it a few times
        league = league_with(player("Ana")[0])
        ben, _ = player("Ben")
        results = at_once(partial(services.join, ben, league.code),
                          partial(services.join, ben, league.code))
        joined = [r for r in results if isinstance(r, League)]
        refused = [r.code for r in results if isinstance(r, Refusal)]
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
    assert sorted(type(r).__name__ for r in results) == ["League", "Refusal"]
    assert Membership.objects.filter(league=league).count() == MEMBERS_MAX


def test_a_join_counting_tallies_while_a_moderation_commits(clock, monkeypatch,
                                                            django_user_model):
    """The join has read the scores, the moderation hides one of them and commits, then the
    join writes tallies that still count it. Neither waits on the other (FOR NO KEY UPDATE
    locks: a deadlock before), and even with the recount after the moderation lost, the
    mark it wrote keeps the boards right and the next night counts the league again."""
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    ana, ben, cat = (player(name)[0] for name in ("Ana", "Ben", "Cat"))
    for back in range(5, 12):
        for someone in (ana, ben, cat):
            finished_daily(someone, DAY - timedelta(days=back), 5, 0)
    league = services.create_league(ana, "Club")
    league.created_at = datetime.combine(DAY - timedelta(days=12), time.min, tzinfo=UTC)
    league.save(update_fields=["created_at"])
    services.join(ben, league.code)
    hidden = Score.objects.get(player=ana, day=DAY - timedelta(days=8))

    counted, go_on = threading.Event(), threading.Event()
    real_past = boards.past

    def past_then_wait(*args):  # the join, once it has counted
        if threading.current_thread().name == "hide":  # the moderation's recount, lost
            raise DatabaseError("the database went away")
        result = real_past(*args)
        if threading.current_thread().name == "join":
            counted.set()
            go_on.wait(10)
        return result

    monkeypatch.setattr(boards, "past", past_then_wait)
    outcome = {}

    def join():
        outcome["join"] = services.join(cat, league.code)

    def hide():
        counted.wait(10)
        outcome["hide"] = leaderboard_services.hide_score(hidden, moderator, "test")
        go_on.set()

    side_by_side(join, hide)  # threads named after them
    go_on.set()
    assert outcome == {"join": league, "hide": True}
    monkeypatch.setattr(boards, "past", real_past)

    assert boards.tallies_of(league) == boards.NO_TALLIES  # the mark outlived the join
    monkeypatch.undo()
    clock = Clock(monkeypatch, clock.moment)  # undo took the clock too
    clock.advance(days=1)
    services.carry_tallies_forward()
    yesterday = daily.today() - timedelta(days=1)
    tallies = boards.tallies_of(league)
    assert tallies.players[ana.pk][0] == 6  # seven dailies, one hidden
    assert boards.past(league, yesterday, tallies) == boards.past(league, yesterday,
                                                                  boards.NO_TALLIES)


@pytest.mark.parametrize("write", ["join", "rename", "new code"])
def test_a_league_deleted_while_a_write_is_answered(write, monkeypatch, django_user_model):
    """Issue 42: the answer to a join, a rename or a new code was read after the write's
    transaction, so a deletion committing in between left it a league with no members, which
    fails the answer's own schema (a 500). The answer is read in the write's transaction, under
    the league's lock: the deletion waits for it (or, had it come first, the write is a 404).
    The write pauses where it reads its answer until the deletion is done or has waited two
    seconds (it cannot finish while the write holds the lock)."""
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    ana, ana_token = player("Ana")
    ben, ben_token = player("Ben")
    league = league_with(ana, name="Club")
    if write != "join":
        services.join(ben, league.code)
    reading, deleted = threading.Event(), threading.Event()
    real_summary = boards.summary

    def summary_after_the_deletion(*args):
        reading.set()
        deleted.wait(2)
        return real_summary(*args)

    monkeypatch.setattr(boards, "summary", summary_after_the_deletion)
    requests = {"join": lambda: Api(ben_token).post(f"/leagues/join/{league.code}"),
                "rename": lambda: Api(ana_token).patch(f"/leagues/{league.public_id}",
                                                       {"name": "New Club"}),
                "new code": lambda: Api(ana_token).post(f"/leagues/{league.public_id}/code")}
    outcome = {}

    def answer():
        try:
            outcome["answer"] = requests[write]()
        except Exception as exc:  # the test client raises what made a 500
            outcome["answer"] = exc

    def delete():
        reading.wait(10)
        outcome["deleted"] = services.delete_by_moderator(league, moderator, "test")
        deleted.set()

    side_by_side(answer, delete)

    response = outcome["answer"]
    assert not isinstance(response, Exception), response
    assert outcome["deleted"] is True and not League.objects.filter(pk=league.pk).exists()
    if response.status_code == 404:
        assert response.json()["error"]["code"] in ("not_found", "invalid_league_code")
    else:
        assert response.status_code in (200, 201), response.content
        assert response.json()["members"] == 2
