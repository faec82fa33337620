"""Tables racing on PostgreSQL (SQLite has no row locks): the last seat goes to one of two
people who take it at once; a start racing a join either starts with the newcomer seated or
refuses the join."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Seat
from games.tables import services
from games.tables.models import TableSeat
from tests import races
from tests.factories import player_with_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgresql_only")]


def at_once(*calls) -> list:
    return races.at_once(*calls, refused=services.Refused)


def person():
    return player_with_token()[0]


def test_two_people_taking_the_last_seat_at_once_get_one_seat_and_one_refusal():
    for _round in range(5):  # the window is small: try it a few times
        table = services.open_table(person(), "Race night")
        for _ in range(2):
            services.join(person(), table.code)
        results = at_once(partial(services.join, person(), table.code),
                          partial(services.join, person(), table.code))
        refusals = [r for r in results if isinstance(r, services.Refused)]
        assert [r.code for r in refusals] == ["table_full"]
        assert TableSeat.objects.filter(table=table).count() == 4


def test_a_start_racing_a_join_seats_the_newcomer_in_the_game_or_refuses_the_join():
    for _round in range(5):
        host, guest, late = person(), person(), person()
        table = services.open_table(host, "Race night")
        services.join(guest, table.code)
        started, joined = at_once(partial(services.start, host, table.public_id),
                                  partial(services.join, late, table.code))
        people = set(Seat.objects.filter(game=started.game).values_list("player_id",
                                                                         flat=True))
        if isinstance(joined, services.Refused):
            assert joined.code == "table_started"
            assert people == {host.pk, guest.pk}
        else:
            assert people == {host.pk, guest.pk, late.pk}
