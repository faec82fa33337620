"""The pages render their shells, set the CSRF cookie, and the rules page follows the engine."""

import pytest
from django.http import HttpResponse
from django.test import Client

from frontend.views import describe_contract
from games.engine.contracts import LADDER
from games.players.identity import COOKIE_NAME, set_player_cookie
from tests.factories import player_with_token, practice_game
from tests.languages import TRANSLATED

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


def play_as(client: Client, name: str):
    """The client becomes a new player's browser (the cookie its first game would set)."""
    player, _token = player_with_token(name)
    response = HttpResponse()
    set_player_cookie(response, player)
    client.cookies[COOKIE_NAME] = response.cookies[COOKIE_NAME].value
    return player


@pytest.fixture
def table_path(client) -> str:
    """The address of a game of the client's own player."""
    player = play_as(client, "Ada")
    return f"/play/{practice_game(player).public_id}/"


@pytest.mark.parametrize("path", ["/", "/rules/", "/about/", "/profile/", "/leaderboard/"])
def test_every_page_renders(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert b'<html lang="en">' in response.content


@pytest.mark.parametrize("path", ["/", "/profile/", "/leaderboard/"])
def test_pages_that_write_to_the_api_set_the_csrf_cookie(client, path):
    response = client.get(path)
    assert "csrftoken" in response.cookies


def test_the_table_page_renders_the_players_game_and_sets_the_csrf_cookie(client, table_path):
    response = client.get(table_path)
    assert response.status_code == 200
    assert "csrftoken" in response.cookies
    assert b'id="ladder-data"' in response.content


@pytest.mark.parametrize("game_id", ["abc123", "no-such-game", "x" * 40])
def test_an_unknown_game_gets_a_not_found_page_with_a_way_home(client, game_id):
    response = client.get(f"/play/{game_id}/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Game not found" in html
    assert 'class="btn primary" href="/"' in html
    assert "data-stock" not in html  # no table, no live buttons


def test_another_players_game_is_not_found_either(client, table_path):
    other = Client()
    play_as(other, "Bo")
    assert other.get(table_path).status_code == 404


def test_the_rules_page_lists_every_contract_of_the_engines_ladder(client):
    html = client.get("/rules/").content.decode()
    for contract in LADDER:
        assert describe_contract(contract) in html
    assert 'id="R16"' in html
    assert 'aria-label="joker as ten of hearts"' in html


def test_the_table_page_carries_the_ladder_for_the_picture(client, table_path):
    html = client.get(table_path).content.decode()
    assert 'id="ladder-data"' in html
    assert "two groups of 3" in html


def test_the_javascript_catalog_is_served(client):
    response = client.get("/jsi18n/")
    assert response.status_code == 200
    assert b"gettext" in response.content


def test_the_language_switcher_sets_the_language(client):
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/rules/"})
    assert response.status_code == 302
    html = client.get("/rules/").content.decode()
    assert '<html lang="es">' in html


def test_pages_request_nothing_from_other_hosts(client, table_path):
    for path in ["/", "/rules/", table_path, "/leaderboard/", "/daily/"]:
        html = client.get(path).content.decode()
        assert "http://" not in html.replace("http://testserver", "")
        assert "https://" not in html
        assert "//cdn" not in html


def test_the_rules_page_shows_how_often_each_rung_is_laid_down_and_how_long_deals_run(client):
    html = client.get("/rules/").content.decode()
    assert 'id="expect"' in html
    assert "a deal lasts 45 turns on average, about 11 of them yours" in html
    assert "<td>1</td><td>two groups of 3</td><td>1792</td><td>89% of deals</td>" in html
    assert "manage.py tournament --games 400" in html
    spanish = Client(headers={"accept-language": "es"}).get("/rules/").content.decode()
    assert "el 89% de las rondas" in spanish


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_lang_link_keeps_the_language_and_sends_the_browser_to_a_clean_address(client, lang):
    response = client.get(f"/rules/?lang={lang}&x=1")
    assert response.status_code == 302 and response["Location"] == "/rules/?x=1"
    assert response.cookies["django_language"].value == lang
    assert f'<html lang="{lang}">' in client.get("/rules/").content.decode()


def test_an_unknown_lang_in_a_link_is_ignored(client):
    response = client.get("/rules/?lang=fr")
    assert response.status_code == 200 and b'<html lang="en">' in response.content


def test_the_picker_names_every_language_in_itself_whatever_the_page_language(client):
    client.get("/?lang=th")
    html = client.get("/").content.decode()
    assert '<option value="en" lang="en">English</option>' in html
    assert '<option value="es" lang="es">Español</option>' in html
    assert '<option value="th" lang="th" selected>ไทย</option>' in html


def test_the_profiles_fields_hold_what_the_api_accepts(client):
    """Each field's minlength/maxlength are the bounds its API body states (OpenAPI)."""
    import re

    schemas = client.get("/api/v1/openapi.json").json()["components"]["schemas"]

    def bounds(schema: str, field: str) -> tuple[str | None, str | None]:
        spec = schemas[schema]["properties"][field]
        return (str(spec["minLength"]) if "minLength" in spec else None,
                str(spec["maxLength"]))

    page = client.get("/profile/").content.decode()

    def field(element_id: str) -> tuple[str | None, str | None]:
        tag = re.search(rf'<input [^>]*id="{element_id}"[^>]*>', page).group(0)
        low, high = (re.search(rf'{name}="(\d+)"', tag) for name in ("minlength", "maxlength"))
        return (low.group(1) if low else None, high.group(1))

    assert field("name-input") == bounds("MeUpdate", "name")
    assert field("register-username") == bounds("Credentials", "username")
    assert field("register-password")[1] == bounds("Credentials", "password")[1]
    assert field("login-username")[1] == bounds("Credentials", "username")[1]
    assert field("login-password")[1] == bounds("Credentials", "password")[1]
    assert field("redeem-code")[1] == bounds("TransferCodeIn", "code")[1]
