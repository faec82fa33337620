"""A game has seats (R1, games.services): each a person or a bot of the game's level. The one
writer applies an action for the asker's seat when it is that seat's turn, the bots play
while the seat to move is theirs, and every read and frame is for the asker's seat."""

from __future__ import annotations

import pytest

from games import services
from games.engine.cards import card_id
from games.models import SOLO_SEAT, Game, Seat
from tests.factories import player_with_token
from tests.games.conftest import bearer_api
from tests.games.helpers import error_of
from tests.games.scripted import next_action

ALICE_SEAT, BOB_SEAT = 0, 2


@pytest.fixture
def table(db):
    """Alice at seat 0 and Bob at seat 2 of one practice game; bots of ``easy`` at 1 and 3."""
    alice, alice_token = player_with_token("Alice")
    bob, bob_token = player_with_token("Bob")
    played = services.start_game_together(alice, {ALICE_SEAT: alice, BOB_SEAT: bob}, "easy")
    return played.game.public_id, bearer_api(alice_token), bearer_api(bob_token)


def view_of(api, game_id: str) -> dict:
    response = api.get(f"/games/{game_id}")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_game_started_alone_seats_its_owner_at_the_solo_seat(alice):
    view = alice.new_game()
    game = Game.objects.get(public_id=view["id"])
    assert list(Seat.objects.filter(game=game).values_list("number", "player_id")) == [
        (SOLO_SEAT, game.owner_id)]
    assert view["you"] == SOLO_SEAT
    assert [p["bot"] for p in view["players"]] == [False, True, True, True]
    assert [p["name"] for p in view["players"][1:]] == ["Ada", "Bruno", "Chiara"]


def test_each_person_reads_the_game_from_their_own_seat(table):
    game_id, alice, bob = table
    state = Game.objects.get(public_id=game_id).load_state()
    for api, seat in ((alice, ALICE_SEAT), (bob, BOB_SEAT)):
        view = view_of(api, game_id)
        assert view["you"] == seat
        assert sorted(c["id"] for c in view["hand"]) == sorted(
            card_id(c) for c in state.hands[seat])
        assert [p["bot"] for p in view["players"]] == [False, True, False, True]
        assert [p["name"] for p in view["players"]] == ["Alice", "Ada", "Bob", "Chiara"]
        log = api.get(f"/games/{game_id}/events")
        assert log.status_code == 200
        assert log.json()["before"]["you"] == seat


def test_only_the_seat_to_move_may_act_and_the_bots_stop_at_every_person(table):
    game_id, alice, bob = table
    people = {ALICE_SEAT: alice, BOB_SEAT: bob}
    for _ in range(60):
        view = view_of(alice, game_id)
        assert view["turn"] in people, "the bots played a person's turn"
        mover, waiting = people[view["turn"]], people[BOB_SEAT - view["turn"]]
        waiting_view = view_of(waiting, game_id)
        refused = waiting.act(waiting_view, {"type": "draw", "from": "stock"})
        assert refused.status_code == 422
        assert error_of(refused)["code"] == "not_your_turn"
        assert view_of(alice, game_id)["version"] == view["version"]  # nothing applied

        mine = view_of(mover, game_id)
        response = mover.act(mine, next_action(mover, mine))
        assert response.status_code == 200, response.content
    seats = set(Game.objects.get(public_id=game_id).actions.values_list("seat", flat=True))
    assert seats == {0, 1, 2, 3}


def test_someone_who_does_not_sit_at_the_game_finds_nothing(table, alice):
    game_id, _, _ = table
    for path in ("", "/events", "/hint", "/replay"):
        response = alice.get(f"/games/{game_id}{path}")
        assert response.status_code == 404, path
    acted = alice.act({"id": game_id, "version": 0}, {"type": "draw", "from": "stock"})
    assert acted.status_code == 404
    assert game_id not in [g["id"] for g in alice.get("/games").json()["items"]]


@pytest.mark.slow
def test_a_finished_game_gives_each_person_their_result_and_replay(table, alice):
    game_id, first, second = table
    people = {ALICE_SEAT: first, BOB_SEAT: second}
    view = view_of(first, game_id)
    for _ in range(3000):
        if view["status"] == "finished":
            break
        mover = people[view["turn"]]
        mine = view_of(mover, game_id)
        response = mover.act(mine, next_action(mover, mine))
        assert response.status_code == 200, response.content
        view = response.json()["game"]
    assert view["status"] == "finished"

    result = view["result"]
    for seat, api in people.items():
        seat_row = Seat.objects.get(game__public_id=game_id, number=seat)
        assert (seat_row.contracts, seat_row.penalty, seat_row.place) == (
            result[seat]["contracts"], result[seat]["penalty"], result[seat]["place"])
        listed = {g["id"]: g for g in api.get("/games").json()["items"]}
        assert listed[game_id]["result"] == {k: result[seat][k]
                                             for k in ("contracts", "penalty", "place")}
        replay = api.get(f"/replays/{game_id}")
        assert replay.status_code == 200
        assert replay.json()["yours"] is True
        assert [p["bot"] for p in replay.json()["players"]] == [False, True, False, True]
    assert alice.get(f"/replays/{game_id}").status_code == 404


def test_the_seating_reads_what_the_orm_reads(table, alice):
    game_id, _, _ = table
    game = Game.objects.get(public_id=game_id)
    orm = {number: services.Person(player_id, name) for number, player_id, name in
           Seat.objects.filter(game=game, left_at__isnull=True)
           .values_list("number", "player_id", "player__name")}
    assert services.seating_of(game).people == orm
    assert set(orm) == {ALICE_SEAT, BOB_SEAT}
