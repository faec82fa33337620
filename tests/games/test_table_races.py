"""Tables racing on PostgreSQL (SQLite has no row locks): the last seat goes to one of two
people who take it at once; a start racing a join either starts with the newcomer seated or
refuses the join; the code's preview, a read of the table and a reaction racing the last
person's leave answer the table or 404, never a 500."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Seat
from games.tables import reads, services
from games.tables.models import TableSeat
from games.web.errors import Refusal
from tests import races
from tests.factories import player_with_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgresql_only")]


def at_once(*calls) -> list:
    return races.at_once(*calls, refused=Refusal)


def person():
    return player_with_token()[0]


def test_two_people_taking_the_last_seat_at_once_get_one_seat_and_one_refusal():
    for _round in range(5):  # the window is small: try it a few times
        table = services.open_table(person(), "Race night")
        for _ in range(2):
            services.join(person(), table.code)
        results = at_once(partial(services.join, person(), table.code),
                          partial(services.join, person(), table.code))
        refusals = [r for r in results if isinstance(r, Refusal)]
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
        if isinstance(joined, Refusal):
            assert joined.code == "table_started"
            assert people == {host.pk, guest.pk}
        else:
            assert people == {host.pk, guest.pk, late.pk}



def preview(table) -> dict:
    return reads.preview(services.by_code(table.code))


def read(table, player) -> dict:
    return reads.table_view(services.table_of(player, table.public_id), player)


def react(table, player) -> str:
    services.react(player, table.public_id, "nice")
    return "sent"


@pytest.mark.parametrize("call", [preview, read, react])
def test_a_read_or_a_reaction_racing_the_last_leave_answers_or_is_not_found(call):
    """The preview's people, the reader's seat and the reacting seat are read with the table
    in one statement: a table its last person is leaving is simply not found (it was a 500:
    a preview of 0 people, a seat that was not there)."""
    outcomes = []
    for _round in range(20):
        host = person()
        table = services.open_table(host, "Race night")
        arguments = (table,) if call is preview else (table, host)
        answer, _left = at_once(partial(call, *arguments),
                                partial(services.leave, host, table.public_id))
        assert answer is not None, "the call raised something other than a refusal"
        if isinstance(answer, Refusal):
            assert (answer.status, answer.code) == (404, "not_found")
        elif call is preview:
            assert answer["people"] >= 1  # the answer's schema refuses a table of nobody
        outcomes.append(type(answer).__name__)
    print(f"\n{call.__name__}: {sorted(set(outcomes))}")
