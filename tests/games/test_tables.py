"""Tables for friends (games.tables): open one, sit down from its code, start its game with
bots in the empty seats, play from your own seat, leave; every refusal in the one error
shape, and a table never confirmed to anyone not sitting at it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Game, Seat
from games.players.models import Player
from games.tables.models import Table
from tests.games.conftest import new_bearer_api
from tests.games.helpers import error_of
from tests.games.scripted import next_action, play_together_to_the_end


def open_table(api, name="Friday cards", **options) -> dict:
    response = api.post("/tables", {"name": name, **options})
    assert response.status_code == 201, response.content
    return response.json()


def join(api, table: dict, status: int = 201) -> dict:
    response = api.post(f"/tables/join/{table['code']}")
    assert response.status_code == status, response.content
    return response.json()


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.content
    assert error_of(response)["code"] == code


def start(api, table: dict) -> dict:
    response = api.post(f"/tables/{table['id']}/start")
    assert response.status_code == 201, response.content
    return response.json()


def test_anyone_opens_a_table_and_hosts_it_at_seat_zero(browser):
    table = open_table(browser, level="easy")
    assert (table["you"], table["level"]) == (0, "easy")
    assert table["status"] == "lobby" and table["game"] is None
    assert [(s["bot"], s["host"]) for s in table["seats"]] == [
        (False, True), (True, False), (True, False), (True, False)]
    assert len(table["code"].replace("-", "")) == 12


def test_the_bots_play_at_normal_unless_another_level_is_chosen(alice):
    assert open_table(alice)["level"] == "normal"
    response = alice.post("/tables", {"name": "Odd level", "level": "expert"})
    assert response.status_code == 422
    assert not Table.objects.filter(name="Odd level").exists()


def test_a_code_shows_the_table_in_brief_to_anyone(alice, nobody):
    table = open_table(alice)
    preview = nobody.get(f"/tables/join/{table['code'].lower().replace('-', ' ')}")
    assert preview.status_code == 200
    assert preview.json() == {"name": "Friday cards", "people": 1, "free_seats": 3,
                              "status": "lobby", "level": "normal"}
    assert table["id"] not in preview.content.decode()
    refused(nobody.get("/tables/join/ZZZZ-ZZZZ-ZZZZ"), 404, "not_found")


def test_friends_sit_down_from_the_code_in_the_lowest_free_seat(alice, bob):
    table = open_table(alice)
    seated = join(bob, table)
    assert seated["you"] == 1
    assert join(bob, table, status=200)["you"] == 1  # once
    mine = alice.get(f"/tables/{table['id']}").json()
    assert [s["bot"] for s in mine["seats"]] == [False, False, True, True]
    assert mine["seats"][1]["name"] == bob.get("/me").json()["name"]


def test_a_fifth_person_finds_the_table_full(alice):
    table = open_table(alice)
    for _ in range(3):
        join(new_bearer_api(), table)
    refused(new_bearer_api().post(f"/tables/join/{table['code']}"), 409, "table_full")


def test_a_table_is_not_found_by_anyone_not_sitting_at_it(alice, bob):
    table = open_table(alice)
    for path in ("", "/start", "/leave"):
        response = bob.get(f"/tables/{table['id']}") if not path else \
            bob.post(f"/tables/{table['id']}{path}")
        refused(response, 404, "not_found")


def test_the_host_starts_a_game_for_two_people_or_more_with_bots_in_the_empty_seats(
        alice, bob):
    table = open_table(alice, level="easy")
    refused(alice.post(f"/tables/{table['id']}/start"), 409, "not_enough_people")
    join(bob, table)
    refused(bob.post(f"/tables/{table['id']}/start"), 403, "host_only")

    started = start(alice, table)
    game = started["game"]
    assert started["table"]["status"] == "playing"
    assert started["table"]["game"] == {"id": game["id"], "status": "active"}
    assert game["you"] == 0
    assert [p["bot"] for p in game["players"]] == [False, False, True, True]
    assert game["level"] == "easy" and game["mode"] == "practice"
    bobs = bob.get(f"/games/{game['id']}").json()
    assert bobs["you"] == 1 and bobs["hand"] != game["hand"]
    assert game["id"] in [g["id"] for g in bob.get("/games").json()["items"]]

    refused(new_bearer_api().post(f"/tables/join/{table['code']}"), 409, "table_started")
    refused(alice.post(f"/tables/{table['id']}/start"), 409, "table_started")


def test_hints_are_off_where_several_people_play(alice, bob):
    table = open_table(alice)
    join(bob, table)
    game = start(alice, table)["game"]
    refused(alice.get(f"/games/{game['id']}/hint"), 403, "no_hints_at_shared_games")


def test_a_host_who_leaves_the_lobby_hands_it_on_and_the_last_to_leave_closes_it(alice, bob):
    table = open_table(alice)
    join(bob, table)
    assert alice.post(f"/tables/{table['id']}/leave").status_code == 204
    refused(alice.get(f"/tables/{table['id']}"), 404, "not_found")
    mine = bob.get(f"/tables/{table['id']}").json()
    assert [s["host"] for s in mine["seats"]] == [False, True, False, False]
    start_alone = bob.post(f"/tables/{table['id']}/start")
    refused(start_alone, 409, "not_enough_people")

    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204
    assert Table.objects.get(public_id=table["id"]).status == Table.CLOSED
    refused(bob.get(f"/tables/join/{table['code']}"), 404, "not_found")


def test_a_person_who_leaves_a_running_game_is_replaced_by_a_bot(alice, bob):
    table = open_table(alice, level="easy")
    join(bob, table)
    game = start(alice, table)["game"]
    assert bob.post(f"/tables/{table['id']}/leave").status_code == 204

    refused(bob.get(f"/games/{game['id']}"), 404, "not_found")
    for _ in range(30):  # the game goes on: a bot plays Bob's seat
        view = alice.get(f"/games/{game['id']}").json()
        assert view["turn"] == 0
        assert [p["bot"] for p in view["players"]] == [False, True, True, True]
        response = alice.act(view, next_action(alice, view))
        assert response.status_code == 200, response.content
    assert Seat.objects.get(game__public_id=game["id"], number=1).left_at is not None


def test_a_banned_player_can_neither_open_nor_join_a_table(alice, bob):
    table = open_table(alice)
    Player.objects.filter(public_id=bob.get("/me").json()["id"]).update(
        banned_at=timezone.now())
    refused(bob.post("/tables", {"name": "Mine"}), 403, "banned")
    refused(bob.post(f"/tables/join/{table['code']}"), 403, "banned")


def test_a_banned_host_can_neither_start_nor_play_again_nor_react(alice, bob):
    table = open_table(alice)
    join(bob, table)
    Player.objects.filter(public_id=alice.get("/me").json()["id"]).update(
        banned_at=timezone.now())
    refused(alice.post(f"/tables/{table['id']}/start"), 403, "banned")  # play again: the same
    refused(alice.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"}), 403, "banned")
    assert bob.post(f"/tables/{table['id']}/reactions", {"reaction": "nice"}).status_code == 204


@pytest.mark.slow
def test_play_again_starts_the_next_game_with_whoever_stays(alice, bob, monkeypatch):
    monkeypatch.setattr("games.services.actions.new_seed", lambda: "a table's fixed seed")
    table = open_table(alice, level="easy")
    join(bob, table)
    game = start(alice, table)["game"]
    people = {0: alice, 1: bob}
    view = play_together_to_the_end(people, game)
    assert view["status"] == "finished"
    for api in people.values():
        replay = api.get(f"/replays/{game['id']}")
        assert replay.status_code == 200
        assert replay.json()["table_name"] == "Friday cards"  # its page titles it so

    again = start(alice, table)
    assert again["game"]["id"] != game["id"]
    assert [p["bot"] for p in again["game"]["players"]] == [False, False, True, True]
    assert Game.objects.get(public_id=again["game"]["id"]).seats.count() == 2


def test_a_moderator_reads_a_table_but_never_its_code(alice, bob, django_user_model):
    from django.test import Client

    from leaderboards.services import make_moderator

    table = open_table(alice)
    join(bob, table)
    make_moderator("mia", "mia@example.org", "a-long-moderator-passphrase")
    client = Client()
    assert client.login(username="mia", password="a-long-moderator-passphrase")
    stored = Table.objects.get(public_id=table["id"])
    page = client.get(f"/admin/tables/table/{stored.pk}/change/")
    assert page.status_code == 200
    assert table["name"] in page.content.decode()
    assert stored.code not in page.content.decode()
    assert client.get(f"/admin/tables/table/?code__startswith={stored.code[0]}").status_code \
        in (302, 400)  # a secret is never a filter
    assert client.post(f"/admin/tables/table/{stored.pk}/delete/").status_code == 403


def test_a_tables_game_carries_the_tables_name_and_a_game_played_alone_none(alice, bob):
    """Issue 51, item 6: the GameView's table_name titles a friends' game (not "Practice")."""
    table = open_table(alice, name="Friday cards")
    join(bob, table)
    game = start(alice, table)["game"]
    assert game["table_name"] == "Friday cards"
    assert bob.get(f"/games/{game['id']}").json()["table_name"] == "Friday cards"
    alone = alice.post("/games", {"mode": "practice"})
    assert alone.status_code == 201, alone.content
    assert alone.json()["table_name"] is None
