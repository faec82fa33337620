"""The pages of tables for friends: the join link's page for anyone, a table's lobby only for
the people sitting at it (404 otherwise, as the API), and a table's game page that hears the
table."""

import pytest
from django.test import Client

from games.tables import services
from tests.factories import player_with_token
from tests.frontend.test_pages import play_as

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


def test_a_join_link_renders_for_anyone_with_the_code_for_its_script(client):
    host, _ = player_with_token("Host")
    table = services.open_table(host, "Friday cards")
    response = client.get(f"/tables/join/{table.code}/")
    assert response.status_code == 200
    assert "csrftoken" in response.cookies
    html = response.content.decode()
    assert table.code in html and "Friday cards" not in html  # the script asks the API
    assert table.public_id not in html


def test_a_join_link_quotes_no_more_than_a_code(client):
    response = client.get("/tables/join/" + "A" * 200 + "/")
    assert response.status_code == 200
    assert f'<script id="join-code" type="application/json">"{"A" * 20}"</script>' in \
        response.content.decode()


def test_a_seated_persons_join_link_goes_to_their_seat_the_lobby_or_the_running_game(client):
    ada = play_as(client, "Ada")
    bea, _ = player_with_token("Bea")
    table = services.open_table(ada, "Friday cards")
    link = f"/tables/join/{table.code.lower()}/"  # as typed: the code's every spelling
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.public_id}/"
    services.join(bea, table.code)
    game = services.start(ada, table.public_id).game
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == f"/play/{game.public_id}/"
    assert Client().get(link).status_code == 200  # anyone else: the question, as before


def test_the_lobby_opens_only_for_the_people_at_the_table(client):
    ada = play_as(client, "Ada")
    table = services.open_table(ada, "Friday cards")
    response = client.get(f"/tables/{table.public_id}/")
    assert response.status_code == 200 and "csrftoken" in response.cookies
    assert f'data-table-id="{table.public_id}"' in response.content.decode()

    stranger = Client()
    play_as(stranger, "Bea")
    for other in (stranger, Client()):
        response = other.get(f"/tables/{table.public_id}/")
        assert response.status_code == 404
        assert "Table not found" in response.content.decode()
        assert "Friday cards" not in response.content.decode()
    assert client.get("/tables/no-such-table/").status_code == 404


def test_a_tables_game_page_hears_the_table_and_a_solo_game_does_not(client):
    ada = play_as(client, "Ada")
    bea, _ = player_with_token("Bea")
    table = services.open_table(ada, "Friday cards")
    services.join(bea, table.code)
    game = services.start(ada, table.public_id).game
    html = client.get(f"/play/{game.public_id}/").content.decode()
    assert f'data-table-id="{table.public_id}"' in html
    services.leave(ada, table.public_id)  # Ada left the table (and its game): gone, as the API
    response = client.get(f"/play/{game.public_id}/")
    assert response.status_code == 404 and "data-table-id" not in response.content.decode()
    assert client.get(f"/api/v1/games/{game.public_id}").status_code == 404


def test_the_home_page_offers_a_table_for_friends(client):
    html = client.get("/").content.decode()
    assert 'id="table-form"' in html and 'id="code-form"' in html
    assert 'name="turn_seconds" value="60" checked' in html  # the time for a turn
    assert 'href="/#friends"' in client.get("/games/").content.decode()
