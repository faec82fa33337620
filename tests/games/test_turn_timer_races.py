"""Turn timers racing on PostgreSQL (SQLite has no row locks): two processes' timers for one
turn play it once; a person's move at the instant their time runs out and the timer: exactly
one of the two applies, the other is refused (409) or finds nothing to do."""

from __future__ import annotations

import random
from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from games import services
from games.engine.cards import card_id
from games.models import Game, Seat
from games.tables import services as tables
from tests import races
from tests.factories import player_with_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgresql_only")]


def at_once(*calls) -> list:
    return races.at_once(*calls, refused=services.StaleVersion)


def table_game() -> tuple[Game, dict[int, object]]:
    """A game of two people at a table with a 30 s timer; (the game, the people by seat)."""
    host, guest = player_with_token()[0], player_with_token()[0]
    table = tables.open_table(host, "Race night", "easy", turn_seconds=30)
    tables.join(guest, table.code)
    game = tables.start(host, table.public_id).game
    return game, {0: host, 1: guest}


def deadline_at(game: Game, when) -> None:
    Game.objects.filter(pk=game.pk).update(turn_deadline=when)


def test_two_processes_timers_for_one_turn_play_it_once():
    for _round in range(5):
        game, _people = table_game()
        seat, version = Game.objects.get(pk=game.pk).load_state().turn, game.version
        deadline_at(game, timezone.now() - timedelta(seconds=1))

        results = at_once(partial(services.time_out, game.public_id),
                          partial(services.time_out, game.public_id))

        assert sorted(results) == [False, True]
        log = list(Game.objects.get(pk=game.pk).actions.filter(index__gte=version)
                   .values_list("seat", flat=True))
        played_for = next((i for i, s in enumerate(log) if s != seat), len(log))
        assert played_for >= 2 and seat not in log[played_for:]  # one turn: draw, discard
        assert Game.objects.get(pk=game.pk).load_state().turn != seat
        assert Seat.objects.get(game=game, number=seat).timeouts == 1


def test_a_move_at_the_instant_the_time_runs_out_and_the_timer_one_of_them_applies():
    outcomes = set()
    for _round in range(12):
        game, people = table_game()
        seat = Game.objects.get(pk=game.pk).load_state().turn
        drawn = services.act(game.public_id, people[seat], game.version,
                             {"type": "draw", "from": "stock"})
        player_card = card_id(drawn.state.hands[seat][0])
        # The deadline a few milliseconds either side of the moment both are released.
        deadline_at(game, timezone.now() + timedelta(milliseconds=random.randint(-5, 40)))

        moved, timed = at_once(
            partial(services.act, game.public_id, people[seat], drawn.game.version,
                    {"type": "discard", "card": player_card}),
            partial(services.time_out, game.public_id))

        after = Game.objects.get(pk=game.pk)
        turn_log = list(after.actions.filter(index__gte=drawn.game.version)
                        .values_list("seat", "action"))
        person_applied = isinstance(moved, services.Played)
        bot_applied = timed is True or isinstance(moved, services.TimedOut)
        assert person_applied != bot_applied, (moved, timed)
        assert turn_log[0][0] == seat and after.load_state().turn != seat
        if person_applied:
            assert timed is False and turn_log[0][1] == {"type": "discard", "card": player_card}
        else:
            assert isinstance(moved, services.StaleVersion)  # turn_timed_out, or stale
            # the refused move still says the person is here: their count starts again
            assert Seat.objects.get(game=game, number=seat).timeouts == 0
        outcomes.add(person_applied)
    assert outcomes  # (which of them wins each round is the race's)
