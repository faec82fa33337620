"""Issue 51, item 6: friends' games say whose they are. ``GET /games`` carries each game's
table name and the other people who sat at it; a replay carries the table's name and every
person by name, a seat whose person left marked from the version they left at (the computer
played it from then on, and its events say so)."""

from __future__ import annotations

import pytest

from games.models import GameAction
from tests.games.scripted import next_action, play_to_the_end, play_together_to_the_end
from tests.games.test_tables import join, open_table, start

pytestmark = pytest.mark.django_db


def friends(alice, bob) -> dict:
    """Ana hosts "Friday cards", Bea sits at seat 1: the table."""
    assert alice.patch("/me", {"name": "Ana"}).status_code == 200
    assert bob.patch("/me", {"name": "Bea"}).status_code == 200
    table = open_table(alice, level="easy")
    join(bob, table)
    return table


def listed(api, game_id: str) -> dict:
    return next(g for g in api.get("/games").json()["items"] if g["id"] == game_id)


def test_your_games_name_the_table_and_the_friends_at_it(alice, bob):
    table = friends(alice, bob)
    game = start(alice, table)["game"]
    alone = alice.new_game()
    mine = listed(alice, game["id"])
    assert (mine["table_name"], mine["people"]) == ("Friday cards", [{"seat": 1, "name": "Bea"}])
    theirs = listed(bob, game["id"])
    assert (theirs["table_name"], theirs["people"]) == ("Friday cards",
                                                        [{"seat": 0, "name": "Ana"}])
    solo = listed(alice, alone["id"])
    assert (solo["table_name"], solo["people"]) == (None, [])
    # Names are the people's now, as everywhere.
    bob.patch("/me", {"name": "Beatriz"})
    assert listed(alice, game["id"])["people"] == [{"seat": 1, "name": "Beatriz"}]
    # One who left is still among the people who sat at it.
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204
    assert listed(alice, game["id"])["people"] == [{"seat": 1, "name": "Beatriz"}]


def test_a_replay_names_the_table_and_marks_from_when_the_computer_played_a_leavers_seat(
        alice, bob):
    table = friends(alice, bob)
    game = start(alice, table)["game"]
    people = {0: alice, 1: bob}
    moved = False
    while not moved or game["turn"] != 0:  # Bea makes her moves, then leaves on Ana's turn
        mover = people[game["turn"]]
        mine = mover.get(f"/games/{game['id']}").json()
        response = mover.act(mine, next_action(mover, mine))
        assert response.status_code == 200, response.content
        game = response.json()["game"]
        moved = moved or mine["you"] == 1
    left_at = alice.get(f"/games/{game['id']}").json()["version"]
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204
    play_to_the_end(alice, alice.get(f"/games/{game['id']}").json())

    for api, seat in ((alice, 0), (bob, 1)):  # the one who left opens it too
        response = api.get(f"/replays/{game['id']}")
        assert response.status_code == 200, response.content
        replay = response.json()
        assert (replay["table_name"], replay["seat"]) == ("Friday cards", seat)
        assert replay["players"] == [
            {"seat": 0, "name": "Ana", "bot": False, "left": None},
            {"seat": 1, "name": "Bea", "bot": False, "left": left_at},
            {"seat": 2, "name": "Bruno", "bot": True, "left": None},
            {"seat": 3, "name": "Chiara", "bot": True, "left": None}]
    seat_1 = [e for e in replay["events"] if e["data"].get("seat") == 1]
    assert any(e["v"] <= left_at for e in seat_1)
    assert all(not e.get("bot") for e in seat_1 if e["v"] <= left_at)
    assert all(e.get("bot") is True for e in seat_1 if e["v"] > left_at)
    assert not any(e.get("bot") for e in replay["events"] if e["data"].get("seat") in (0, 2, 3))


def test_a_replay_of_an_older_game_knows_a_leavers_bot_moves_by_the_leaving(alice, bob):
    table = friends(alice, bob)
    game = start(alice, table)["game"]
    left_at = alice.get(f"/games/{game['id']}").json()["version"]  # the bots may have moved
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204
    play_to_the_end(alice, alice.get(f"/games/{game['id']}").json())
    GameAction.objects.filter(game__public_id=game["id"]).update(bot=None)  # before 2026-12-06
    replay = alice.get(f"/replays/{game['id']}").json()
    assert replay["players"][1]["left"] == left_at
    seat_1 = [e for e in replay["events"] if e["data"].get("seat") == 1]
    assert seat_1 and all(e.get("bot") for e in seat_1)


def test_leaving_the_table_after_its_game_is_over_is_no_leaving_of_the_game(alice, bob):
    table = friends(alice, bob)
    game = start(alice, table)["game"]
    play_together_to_the_end({0: alice, 1: bob}, game)
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204
    replay = alice.get(f"/replays/{game['id']}").json()
    assert replay["players"][1] == {"seat": 1, "name": "Bea", "bot": False, "left": None}
