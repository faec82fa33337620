"""Issue 51, item 6: a person chooses the name the others at a table see. On the way in (the
join's optional ``name``, under a player's name rules) or later (``PATCH /me``, from the lobby
or the profile): the name is theirs, and it is news at every table they sit at, so each
screen there reads the table (and its game) again."""

from __future__ import annotations

import pytest
from django.test import Client

from games.players.models import Player
from games.tables import services
from tests.games.conftest import Api
from tests.games.helpers import error_of
from tests.games.test_tables import open_table, start

pytestmark = pytest.mark.django_db


def names(api: Api, table: dict) -> list[str]:
    return [s["name"] for s in api.get(f"/tables/{table['id']}").json()["seats"]]


def test_a_friend_sits_down_under_the_name_they_chose(alice, bob):
    table = open_table(alice)
    response = bob.post(f"/tables/join/{table['code']}", {"name": "  Bea  "})
    assert response.status_code == 201, response.content
    assert response.json()["seats"][1]["name"] == "Bea"
    assert names(alice, table)[1] == "Bea"
    assert bob.get("/me").json()["name"] == "Bea"  # theirs, everywhere


def test_without_a_name_a_friend_keeps_theirs(alice, bob):
    table = open_table(alice)
    given = bob.get("/me").json()["name"]
    assert bob.post(f"/tables/join/{table['code']}").status_code == 201
    assert names(alice, table)[1] == given
    assert bob.post(f"/tables/join/{table['code']}", {}).status_code == 200


def test_a_new_browser_sits_down_under_its_chosen_name(alice, browser):
    table = open_table(alice)
    response = browser.post(f"/tables/join/{table['code']}", {"name": "Chai"})
    assert response.status_code == 201, response.content
    assert names(alice, table)[1] == "Chai"


@pytest.mark.parametrize(("name", "code"), [
    ("x", "invalid_name"), ("<b>Bea</b>", "invalid_name"), ("Ａｄｍｉｎ", "reserved_name"),
    ("Bruno", "reserved_name"), ("y" * 25, "invalid_name")])
def test_a_refused_name_seats_nobody_and_makes_no_identity(alice, name, code):
    table = open_table(alice)
    newcomer = Api(Client(enforce_csrf_checks=True), csrf=True)
    assert newcomer.get("/csrf").status_code == 200
    players = Player.objects.count()
    response = newcomer.post(f"/tables/join/{table['code']}", {"name": name})
    assert (response.status_code, error_of(response)["code"]) == (422, code)
    assert Player.objects.count() == players
    assert [s["bot"] for s in alice.get(f"/tables/{table['id']}").json()["seats"]] == [
        False, True, True, True]


def test_a_name_refused_with_the_seat_is_not_taken_either(alice):
    table = open_table(alice)
    from tests.games.conftest import new_bearer_api
    for _ in range(3):
        assert new_bearer_api().post(f"/tables/join/{table['code']}").status_code == 201
    fifth = new_bearer_api()
    before = fifth.get("/me").json()["name"]
    response = fifth.post(f"/tables/join/{table['code']}", {"name": "Dee"})
    assert (response.status_code, error_of(response)["code"]) == (409, "table_full")
    assert fifth.get("/me").json()["name"] == before


def test_a_new_name_shows_in_the_table_and_its_game_to_the_others(alice, bob):
    table = open_table(alice)
    bob.post(f"/tables/join/{table['code']}")
    game = start(alice, table)["game"]
    assert bob.patch("/me", {"name": "Bea"}).status_code == 200
    assert names(alice, table)[1] == "Bea"
    seen = alice.get(f"/games/{game['id']}").json()
    assert seen["players"][1]["name"] == "Bea"


def test_a_new_name_is_news_at_the_tables_one_sits_at_and_nowhere_else(
        alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(services, "group_send", lambda group, m: sent.append((group, m)))
    here = open_table(alice, name="Here")
    open_table(bob, name="Elsewhere")
    bob.post(f"/tables/join/{here['code']}")
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.patch("/me", {"name": "Bea"}).status_code == 200
    assert sorted(group for group, _ in sent) == sorted(
        [f"table.{here['id']}", f"table.{table_of(bob, 'Elsewhere')}"])
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.patch("/me", {"name": "Ana"}).status_code == 200
        assert alice.patch("/me", {"name": "Ana"}).status_code == 200  # the same: no news
    assert sent == [(f"table.{here['id']}", {"type": "table.changed"})]


def table_of(api: Api, name: str) -> str:
    from games.tables.models import Table
    return Table.objects.get(name=name).public_id
