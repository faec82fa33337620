"""The pages render their shells, set the CSRF cookie, and the rules page follows the engine."""

import pytest
from django.test import Client

from frontend.views import describe_contract
from games.engine.contracts import LADDER

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    return Client()


@pytest.mark.parametrize("path", ["/", "/rules/", "/about/", "/profile/", "/leaderboard/",
                                  "/play/abc123/"])
def test_every_page_renders(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert b'<html lang="en">' in response.content


@pytest.mark.parametrize("path", ["/", "/play/abc123/", "/profile/", "/leaderboard/"])
def test_pages_that_write_to_the_api_set_the_csrf_cookie(client, path):
    response = client.get(path)
    assert "csrftoken" in response.cookies


def test_the_rules_page_lists_every_contract_of_the_engines_ladder(client):
    html = client.get("/rules/").content.decode()
    for contract in LADDER:
        assert describe_contract(contract) in html
    assert 'id="R16"' in html
    assert 'aria-label="joker as ten of hearts"' in html


def test_the_table_page_carries_the_ladder_for_the_picture(client):
    html = client.get("/play/abc123/").content.decode()
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


def test_pages_request_nothing_from_other_hosts(client):
    for path in ["/", "/rules/", "/play/abc123/", "/leaderboard/"]:
        html = client.get(path).content.decode()
        assert "http://" not in html.replace("http://testserver", "")
        assert "https://" not in html
        assert "//cdn" not in html
